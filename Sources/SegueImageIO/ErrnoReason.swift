#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Short, lower-case wording for the `errno` values a user is likely to meet, for the messages of everything
/// that reads and writes files; a limit is named as the shell sets it.
public enum ErrnoReason {
    /// Describes `code`; `creating` words ENOENT for a file being created (its directory is missing).
    public static func text(_ code: Int32, creating: Bool = false) -> String {
        switch code {
        case ENOENT: return creating ? "no such directory" : "no such file"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "is a directory"
        case ENOTDIR: return "a component of the path is not a directory"
        case ENOSPC: return "no space left on device"
        case EDQUOT: return "disk quota exceeded"
        case EROFS: return "read-only file system"
        case EIO: return "input/output error"
        case ENAMETOOLONG: return "file name too long"
        case ELOOP: return "too many symbolic links"
        case EMFILE: return "too many open files (the limit on open files, ulimit -n)"
        case ENFILE: return "too many open files in the system"
        case EFBIG: return "file too large (the limit on file size, ulimit -f)"
        default:
            let text = String(cString: strerror(code))
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }
}
