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
    /// - `mode`: the new file's permissions (an edited file keeps its own); nil gives 0644 less the umask.
    /// - `durable`: the data is synced before the rename, so that a power loss leaves the old file or the new
    ///   one. Off by default: the rename makes the update atomic for concurrent readers, which is the right
    ///   trade-off for rendered frames; a file a person wrote (the studio's editor) is synced.
    /// The temporary file is created, never opened if something is there, and never through a link.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t? = nil, durable: Bool = false) throws {
        let temporary = temporaryPath(for: path)
        func fail(_ code: Int32) -> ImageIOError {
            unlink(temporary)
            return .unwritable(path: path, reason: ErrnoReason.text(code, creating: true))
        }

        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        var fd = open(temporary, flags, 0o644)
        if fd < 0 && errno == EEXIST {  // left behind by an earlier crash of a process with our pid
            unlink(temporary)
            fd = open(temporary, flags, 0o644)
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
        if let mode, fchmod(fd, mode) != 0 {
            let code = errno
            close(fd)
            throw fail(code)
        }
        if durable && fsync(fd) != 0 {
            let code = errno
            close(fd)
            throw fail(code)
        }
        if close(fd) != 0 { throw fail(errno) }  // network file systems may report ENOSPC only here
        if rename(temporary, path) != 0 { throw fail(errno) }
    }

    /// `.<name>.tmp-<pid>.<space>-<n>` in the directory of `path`: `n` counts the temporary names this process
    /// has made, so that two jobs of one process writing the same name never share a temporary file; `space`
    /// (`processSpace`) tells this process's pid namespace on this boot of this host from another's, so that
    /// processes with the same pid in containers sharing a volume (each one's segue is pid 1) never take each
    /// other's files for their own.
    public static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let n = made.wrappingAdd(1, ordering: .relaxed).oldValue
        return directory + temporaryPrefix(for: name) + "\(getpid()).\(processSpace)-\(n)"
    }

    /// Temporary names made by this process.
    private static let made = Atomic<UInt64>(0)

    /// Eight hex digits naming where this process's pid means something: a hash of the host's name, this
    /// boot's id and this process's pid namespace. Two processes with the same space can see each other's
    /// pids (`kill(pid, 0)` tells whether the other is alive); with different spaces they cannot.
    public static let processSpace: String = {
        func contents(_ path: String) -> String {
            var buffer = [UInt8](repeating: 0, count: 256)
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return "" }
            defer { close(fd) }
            let n = read(fd, &buffer, buffer.count)
            return n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : ""
        }
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count - 1)
        var link = [CChar](repeating: 0, count: 128)
        let linked = readlink("/proc/self/ns/pid", &link, link.count - 1)
        let namespace = linked > 0 ? String(decoding: link[..<linked].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            + "\n" + contents("/proc/sys/kernel/random/boot_id") + "\n" + namespace
        var hash: UInt32 = 2_166_136_261  // FNV-1a
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }()

    /// The process that made a temporary name: its pid and `processSpace` (nil in an older Segue's names).
    public struct TemporaryOwner: Equatable, Sendable {
        public var pid: Int32
        public var space: String?

        public init(pid: Int32, space: String? = nil) {
            self.pid = pid
            self.space = space
        }

        /// This very process made it.
        public var isThisProcess: Bool { pid == getpid() && (space ?? FileWriter.processSpace) == FileWriter.processSpace }
        /// Its pid means what it means here (the same pid namespace on the same boot of the same host), so
        /// `kill(pid, 0)` says whether it is alive; an older Segue's name is taken as made here.
        public var sharesThisProcessSpace: Bool { (space ?? FileWriter.processSpace) == FileWriter.processSpace }
    }

    /// The process that made the temporary name `name` (`.NAME.tmp-<pid>.<space>-<n>`, or an older Segue's
    /// `.NAME.tmp-<pid>-<n>` or `.NAME.tmp-<pid>`), from what follows `prefix` (`temporaryPrefix`); nil when
    /// it is not one.
    public static func temporaryOwner(_ name: Substring) -> TemporaryOwner? {
        let parts = name.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.dropFirst().allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else { return nil }
        let owner = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let pid = Int32(owner[0]) else { return nil }
        if owner.count == 1 { return TemporaryOwner(pid: pid) }
        guard owner[1].utf8.count == 8, owner[1].allSatisfy(\.isHexDigit) else { return nil }
        return TemporaryOwner(pid: pid, space: String(owner[1]))
    }

    /// `.NAME.tmp-`, the start of every temporary name for `NAME`; a long name is shortened (keeping whole
    /// UTF-8 characters) so that the temporary name, with a process id, its space and a count, fits in a file
    /// name's 255 bytes whenever `NAME` itself does.
    public static func temporaryPrefix(for name: String) -> String {
        let room = 255 - ".".utf8.count - ".tmp-".utf8.count - 10 - 9 - 1 - 20
        var kept = Substring(name)
        while kept.utf8.count > room { kept = kept.dropLast() }
        return ".\(kept).tmp-"
    }
}
