#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole input file into memory with POSIX calls, never more than a limit. Only a regular file is read:
/// a device (`/dev/zero`, `/dev/urandom`), a socket or a directory is refused before it is opened, and a FIFO
/// (which would wait for its writer, or be fed for ever) when the open descriptor is seen to be one: the open
/// does not wait (`O_NONBLOCK`), and what is read is what `fstat` says of the descriptor, so a file replaced by a
/// FIFO between a check and the open is refused too. Failures are `ImageIOError.unreadable` and `.tooLarge`,
/// naming the file.
public enum InputFile {
    public static func read(_ path: String, limit: Int) throws(ImageIOError) -> [UInt8] {
        // A device is not opened at all (opening one can do something: rewind a tape, arm a watchdog).
        var info = stat()
        if stat(path, &info) != 0 { throw .unreadable(path: path, reason: ErrnoReason.text(errno)) }
        try refuseIrregular(info, path: path)

        // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 { throw .unreadable(path: path, reason: ErrnoReason.text(errno)) }
        defer { close(fd) }
        // What was opened decides, not what the name was a moment before.
        if fstat(fd, &info) != 0 { throw .unreadable(path: path, reason: ErrnoReason.text(errno)) }
        try refuseIrregular(info, path: path)
        if Int(info.st_size) > limit { throw .tooLarge(path: path, limit: limit) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)

        // Room for one byte past the limit, so that a file that grew past it since `fstat` is seen to be larger.
        var bytes = [UInt8](repeating: 0, count: min(max(Int(info.st_size), 0), limit) + 1)
        var used = 0
        while true {
            if used == bytes.count {
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

    /// Refuses what is not a regular file, saying what it is.
    static func refuseIrregular(_ info: stat, path: String) throws(ImageIOError) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw .unreadable(path: path, reason: "is a directory")
        case S_IFCHR, S_IFBLK: throw .unreadable(path: path, reason: "is a device, not a file")
        case S_IFIFO: throw .unreadable(path: path, reason: "is a FIFO (a named pipe), not a regular file")
        default: throw .unreadable(path: path, reason: "is not a regular file")
        }
    }

    /// The largest PNG or JPEG file of at most `maxPixels` pixels read: 16-bit RGBA stored without compression
    /// is 8 bytes a pixel plus a filter byte a row; with the overhead of stored deflate blocks, chunks and
    /// metadata, 9 bytes a pixel and 16 MiB cover every real file.
    public static func imageLimit(maxPixels: Int) -> Int {
        let (bytes, overflow) = maxPixels.multipliedReportingOverflow(by: 9)
        return overflow ? Int.max / 2 : bytes + 16 << 20
    }
}
