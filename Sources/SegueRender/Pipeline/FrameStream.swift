import Foundation
import SegueCore
import SegueImageIO

/// An ordered stream of frames: `encode` runs on any worker thread, `write` on the pipeline's one writer
/// thread in frame order, then `finish` (complete: renamed into place, process waited for) or `abandon`
/// (partial output removed).
protocol FrameStream: AnyObject, Sendable {
    /// Tells `control` its temporary file (and process), for a watchdog that must end the job at once.
    func register(with control: JobControl)
    /// `knownOpaque`: every pixel of `frame` is opaque (drawn over an opaque background), so no pass over
    /// the pixels needs to find out; false when that is not known.
    func encode(_ frame: Pixmap, knownOpaque: Bool) throws -> FramePayload
    /// True when `encode` only wraps the frame's own pixels (`.pixels`): nothing to encode on a worker.
    var passesPixelsThrough: Bool { get }
    /// The YCbCr planes its frames are made of (a Y4M stream of opaque frames), which a renderer that converts
    /// frames itself may hand over instead of pixels (`encode(planes:)`); nil when it needs the pixels.
    var planes: YCbCrPlanes? { get }
    /// A frame's bytes from its planes, converted by the renderer (`planes`' layout).
    func encode(planes: UnsafeRawBufferPointer) -> FramePayload
    /// The same frame as `encode(planes:)`, its planes lent rather than copied: the payload is written at once,
    /// during the call that lends them (a renderer's mapped read-back buffer).
    func lend(planes: UnsafeRawBufferPointer) -> FramePayload
    func write(_ payload: FramePayload) throws
    func finish() throws
    func abandon()
}

extension FrameStream {
    var passesPixelsThrough: Bool { false }
    var planes: YCbCrPlanes? { nil }
    func encode(planes: UnsafeRawBufferPointer) -> FramePayload { .bytes(Array(planes)) }
    func lend(planes: UnsafeRawBufferPointer) -> FramePayload { encode(planes: planes) }
}

/// One frame's bytes for a stream: encoded, or the frame's own pixels when they are already the bytes wanted
/// (an opaque frame as raw RGBA: no copy).
enum FramePayload: @unchecked Sendable {
    case bytes([UInt8])
    case pixels(Pixmap)
    /// `prefix` then bytes lent by their owner for as long as the call that made this payload lasts (a Y4M
    /// frame's header and its planes, read in place from a mapped read-back buffer).
    case lent(prefix: [UInt8], bytes: UnsafeRawBufferPointer)

    static let empty = FramePayload.bytes([])

    /// Hands `body` the payload's bytes in order, in one or two runs.
    func forEachRun(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        switch self {
        case let .bytes(b): try b.withUnsafeBytes(body)
        case let .pixels(p): try p.pixels.withUnsafeBytes(body)
        case let .lent(prefix, bytes):
            try prefix.withUnsafeBytes(body)
            try body(bytes)
        }
    }
}

/// Frames one after another (`rgba`: straight-alpha RGBA8; `y4m`: a YUV4MPEG2 stream; `png`: PNG files back
/// to back), to standard output or to a file that appears only when the stream is complete.
final class ByteStream: FrameStream, @unchecked Sendable {
    let format: OutputFormat
    let y4m: Y4M?
    let pngLevel: Int
    /// The working space a PNG says.
    let colourSpace: ColourSpace
    /// Written with write(2): a closed pipe is EPIPE (SIGPIPE is ignored), a full device ENOSPC, each reported
    /// as what it is.
    private let fd: Int32
    /// The path as the user gave it, or "standard output", for messages.
    private let name: String
    private let finalPath: String?
    private let temporaryPath: String?
    private var wroteHeader = false
    private var framesWritten = 0

    /// `path` "-" is standard output.
    init(path: String, format: OutputFormat, y4m: Y4M?, pngLevel: Int, colourSpace: ColourSpace = .srgb) throws {
        self.colourSpace = colourSpace
        self.format = format
        self.y4m = y4m
        self.pngLevel = pngLevel
        var info = stat()
        if path == "-" {
            signal(SIGPIPE, SIG_IGN)
            fd = STDOUT_FILENO
            name = "standard output"
            finalPath = nil
            temporaryPath = nil
        } else if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFDIR {
            // A device or a FIFO (/dev/null, a named pipe) is written in place: renaming over it would replace it.
            signal(SIGPIPE, SIG_IGN)
            fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw SegueError.failed("cannot write '\(path)': \(ErrnoReason.text(errno))") }
            name = "'\(path)'"
            finalPath = nil
            temporaryPath = nil
        } else {
            let temp = FileWriter.temporaryPath(for: path)
            StaleTemporaries.remove(besides: path)
            fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw SegueError.failed("cannot write '\(path)': \(ErrnoReason.text(errno))") }
            name = "'\(path)'"
            finalPath = path
            temporaryPath = temp
        }
    }

    var passesPixelsThrough: Bool { format == .rgba }

    var planes: YCbCrPlanes? { format == .y4m ? y4m?.planes : nil }

    func encode(planes bytes: UnsafeRawBufferPointer) -> FramePayload { .bytes(y4m!.frame(planes: bytes)) }

    /// In place where the stream's frame is the renderer's; a padded stream's (an odd side repeated out to an
    /// even one) is laid out anew, a copy.
    func lend(planes bytes: UnsafeRawBufferPointer) -> FramePayload {
        y4m!.padded ? encode(planes: bytes) : .lent(prefix: Y4M.frameHeader, bytes: bytes)
    }

    func register(with control: JobControl) {
        if let temporaryPath { control.register(temporaryFile: temporaryPath) }
    }

    func encode(_ frame: Pixmap, knownOpaque: Bool) throws -> FramePayload {
        switch format {
        case .rgba:
            // A frame over an opaque background is opaque, so its premultiplied bytes are its straight bytes:
            // written as they are, with no pass over them. Over a transparent one, un-premultiplied.
            return knownOpaque || frame.isOpaque ? .pixels(frame) : .bytes(StraightAlpha.bytes(of: frame))
        case .y4m: return .bytes(y4m!.frame(frame))
        case .png: return .bytes(try PNGEncoder.encode(frame, compressionLevel: pngLevel, knownOpaque: knownOpaque, colourSpace: colourSpace))
        }
    }

    func write(_ payload: FramePayload) throws {
        if let y4m, !wroteHeader {
            try put(.bytes(y4m.header))
            wroteHeader = true
        }
        try put(payload)
        framesWritten += 1
    }

    private func put(_ payload: FramePayload) throws {
        var error: Int32?
        payload.forEachRun { bytes in
            guard error == nil else { return }
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    error = n < 0 ? errno : EIO
                    return
                }
                offset += n
            }
        }
        guard let error else { return }
        if error == EPIPE {
            throw SegueError(.outputClosed, "the reader of \(name) closed it after \(framesWritten) whole frames; stopped")
        }
        throw SegueError.failed("writing to \(name) failed: \(ErrnoReason.text(error))")
    }

    func finish() throws {
        guard let finalPath, let temporaryPath else { return }
        close(fd)
        guard rename(temporaryPath, finalPath) == 0 else {
            let reason = ErrnoReason.text(errno)
            unlink(temporaryPath)
            throw SegueError.failed("cannot write '\(finalPath)': \(reason)")
        }
    }

    func abandon() {
        guard let temporaryPath else { return }
        close(fd)
        unlink(temporaryPath)
    }
}
