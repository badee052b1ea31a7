import Foundation
import SegueCore
import SegueImageIO

/// A program's own destination for a job's frames (an HTTP response, a socket, memory): the job's one stream
/// output, `RenderJob.Output.sink`. Its calls come on the job's writer thread, one at a time and in order:
/// `begin` once before any frame, `write` for each frame, then `finish` after the last, or `abandon` when the job
/// fails or is cancelled.
/// An error `write` or `finish` throws ends the job with that error (a `SegueError` as it is; any other as a
/// failure carrying its description).
public protocol FrameSink: AnyObject, Sendable {
    /// Before the first frame: the frames' size in pixels and the working space their samples are in (what a raw
    /// `rgba` frame does not say itself); default does nothing.
    func begin(width: Int, height: Int, colourSpace: ColourSpace)
    /// Each frame in order, on the job's writer thread, encoded as `format` exactly as a stream or image output of the same job writes it (PNG: the job's `pngLevel`, the same encoder and settings as `.image`, so the bytes equal `segue render --progress T`'s PNG file).
    ///
    /// `index` is the frame's number in the job's timeline: from 0, or from `RenderJob.frameRange`'s first
    /// frame (a stream has every frame of the job, in order). A Y4M stream's header comes before frame 0's bytes, in the
    /// same call, so that the bytes of every call, one after another, are the stream a `.stream` output writes.
    func write(frame index: Int, bytes: [UInt8]) throws
    /// After the last frame; default does nothing.
    func finish() throws
    /// When the job fails or is cancelled; default does nothing.
    func abandon()
}

extension FrameSink {
    /// Does nothing.
    public func begin(width: Int, height: Int, colourSpace: ColourSpace) {}
    /// Does nothing.
    public func finish() throws {}
    /// Does nothing.
    public func abandon() {}
}

/// A program's `FrameSink` as the pipeline's stream: frames encoded as a `ByteStream` of the same format
/// encodes them, each handed to the sink as one array of bytes.
final class SinkStream: FrameStream, @unchecked Sendable {
    let sink: any FrameSink
    let format: OutputFormat
    let y4m: Y4M?
    let pngLevel: Int
    /// The working space a PNG says.
    let colourSpace: ColourSpace
    /// The number of the job's first frame (`RenderJob.frameRange`'s, else 0).
    let firstFrame: Int
    // Touched only on the writer thread:
    private var framesWritten = 0

    init(_ sink: any FrameSink, format: OutputFormat, y4m: Y4M?, pngLevel: Int, firstFrame: Int = 0, colourSpace: ColourSpace = .srgb) {
        self.colourSpace = colourSpace
        self.sink = sink
        self.firstFrame = firstFrame
        self.format = format
        self.y4m = y4m
        self.pngLevel = pngLevel
    }

    func register(with control: JobControl) {}

    var planes: YCbCrPlanes? { format == .y4m ? y4m?.planes : nil }

    func encode(planes bytes: UnsafeRawBufferPointer) -> FramePayload { .bytes(y4m!.frame(planes: bytes)) }

    func encode(_ frame: Pixmap, knownOpaque: Bool) throws -> FramePayload {
        switch format {
        case .rgba: return .bytes(knownOpaque || frame.isOpaque ? frame.pixels.withUnsafeBytes { Array($0) } : StraightAlpha.bytes(of: frame))
        case .y4m: return .bytes(y4m!.frame(frame))
        case .png: return .bytes(try PNGEncoder.encode(frame, compressionLevel: pngLevel, knownOpaque: knownOpaque, colourSpace: colourSpace))
        }
    }

    func write(_ payload: FramePayload) throws {
        var bytes: [UInt8]
        if case let .bytes(encoded) = payload, framesWritten > 0 || y4m == nil {
            bytes = encoded
        } else {
            bytes = framesWritten == 0 ? y4m?.header ?? [] : []
            payload.forEachRun { bytes.append(contentsOf: $0) }
        }
        try sink.write(frame: firstFrame + framesWritten, bytes: bytes)
        framesWritten += 1
    }

    func finish() throws { try sink.finish() }

    func abandon() { sink.abandon() }
}
