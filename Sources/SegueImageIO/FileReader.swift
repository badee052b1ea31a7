#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file into memory with POSIX calls, turning failures into `ImageIOError.unreadable`.
enum FileReader {
    static func readAll(_ path: String) throws(ImageIOError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw .unreadable(path: path, reason: ErrnoReason.text(errno)) }
        defer { close(fd) }

        var info = stat()
        if fstat(fd, &info) != 0 { throw .unreadable(path: path, reason: ErrnoReason.text(errno)) }
        if info.st_mode & S_IFMT == S_IFDIR { throw .unreadable(path: path, reason: "is a directory") }

        // Regular files report their size; pipes and devices report 0 and grow the buffer as they go.
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
        var used = 0
        while true {
            if used == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 65536))) }
            let n = bytes.withUnsafeMutableBytes { buffer in
                read(fd, buffer.baseAddress! + used, buffer.count - used)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: ErrnoReason.text(errno))
            }
            if n == 0 { break }
            used += n
        }
        bytes.removeLast(bytes.count - used)
        return bytes
    }
}
