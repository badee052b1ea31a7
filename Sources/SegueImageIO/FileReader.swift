#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole input file into memory with POSIX calls, never more than a limit: a regular file or a FIFO
/// (a pipe may be fed by another process) is read; a device (`/dev/zero`, `/dev/urandom`), a socket or a
/// directory is refused before a byte is read, and so is a file larger than `limit`. Failures are
/// `ImageIOError.unreadable` and `.tooLarge`, naming the file.
public enum InputFile {
    public static func read(_ path: String, limit: Int) throws(ImageIOError) -> [UInt8] {
        // Checked before opening: opening a FIFO waits for its writer, and a device should not be opened at all.
        var info = stat()
        if stat(path, &info) != 0 { throw .unreadable(path: path, reason: ErrnoReason.text(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFIFO: break
        case S_IFDIR: throw .unreadable(path: path, reason: "is a directory")
        case S_IFCHR, S_IFBLK: throw .unreadable(path: path, reason: "is a device, not a file")
        default: throw .unreadable(path: path, reason: "is not a regular file")
        }
        if Int(info.st_size) > limit { throw .tooLarge(path: path, limit: limit) }

        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw .unreadable(path: path, reason: ErrnoReason.text(errno)) }
        defer { close(fd) }
        // Regular files report their size; a FIFO reports 0 and the buffer grows as it goes, up to the limit.
        var bytes = [UInt8](repeating: 0, count: min(max(Int(info.st_size), 0), limit) + 1)
        var used = 0
        while true {
            if used == bytes.count {
                // Room for one byte past the limit, so that a larger file is seen to be larger.
                bytes.append(contentsOf: repeatElement(0, count: min(max(bytes.count, 65536), limit + 1 - bytes.count)))
            }
            let n = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress! + used, buffer.count - used)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: ErrnoReason.text(errno))
            }
            if n == 0 { break }
            used += n
            if used > limit { throw .tooLarge(path: path, limit: limit) }
        }
        bytes.removeLast(bytes.count - used)
        return bytes
    }

    /// The largest PNG or JPEG file of at most `maxPixels` pixels read: 16-bit RGBA stored without compression
    /// is 8 bytes a pixel plus a filter byte a row; with the overhead of stored deflate blocks, chunks and
    /// metadata, 9 bytes a pixel and 16 MiB cover every real file.
    public static func imageLimit(maxPixels: Int) -> Int {
        let (bytes, overflow) = maxPixels.multipliedReportingOverflow(by: 9)
        return overflow ? Int.max / 2 : bytes + 16 << 20
    }
}
