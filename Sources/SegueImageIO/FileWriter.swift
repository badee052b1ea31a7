#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Writes files so that readers see either the old contents or the complete new ones, never a partial file.
public enum FileWriter {
    /// Writes `bytes` to a hidden temporary file next to `path` (`temporaryPath(for:)`), then renames it over
    /// `path`. On failure the temporary file is removed and `ImageIOError.unwritable` names `path`.
    ///
    /// The data is not fsynced: the rename makes the update atomic for concurrent readers, not durable
    /// across a power loss, which is the right trade-off for rendered frames.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let temporary = temporaryPath(for: path)
        func fail(_ code: Int32) -> ImageIOError {
            unlink(temporary)
            return .unwritable(path: path, reason: ErrnoReason.text(code, creating: true))
        }

        var fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0 && errno == EEXIST {  // left behind by an earlier crash of a process with our pid
            unlink(temporary)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        if fd < 0 { throw ImageIOError.unwritable(path: path, reason: ErrnoReason.text(errno, creating: true)) }

        let writeError: Int32 = bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += n
            }
            return 0
        }
        if writeError != 0 {
            close(fd)
            throw fail(writeError)
        }
        if close(fd) != 0 { throw fail(errno) }  // network file systems may report ENOSPC only here
        if rename(temporary, path) != 0 { throw fail(errno) }
    }

    /// `.<name>.tmp-<pid>-<n>` in the directory of `path`: `n` counts the temporary names this process has
    /// made, so that two jobs of one process writing the same name never share a temporary file.
    public static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let n = made.wrappingAdd(1, ordering: .relaxed).oldValue
        return directory + temporaryPrefix(for: name) + "\(getpid())-\(n)"
    }

    /// Temporary names made by this process.
    private static let made = Atomic<UInt64>(0)

    /// The process that made the temporary name `name` (`.NAME.tmp-<pid>` or `.NAME.tmp-<pid>-<n>`), from what
    /// follows `prefix` (`temporaryPrefix`); nil when it is not one.
    public static func temporaryOwner(_ name: Substring) -> Int32? {
        let digits = name.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard digits.count <= 2, digits.dropFirst().allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else { return nil }
        return Int32(digits[0])
    }

    /// `.NAME.tmp-`, the start of every temporary name for `NAME`; a long name is shortened (keeping whole
    /// UTF-8 characters) so that the temporary name, with a process id and a count, fits in a file name's 255
    /// bytes whenever `NAME` itself does.
    public static func temporaryPrefix(for name: String) -> String {
        let room = 255 - ".".utf8.count - ".tmp-".utf8.count - 10 - 1 - 20
        var kept = Substring(name)
        while kept.utf8.count > room { kept = kept.dropLast() }
        return ".\(kept).tmp-"
    }
}
