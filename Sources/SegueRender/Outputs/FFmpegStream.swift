import Foundation
import SegueCore
import SegueImageIO

/// A video: frames streamed into an `ffmpeg` process that encodes them to a temporary file, renamed to the
/// video's path when ffmpeg exits 0. The container comes from the extension.
///
/// Opaque 4:2:0 video gets frames one pixel larger on an odd side, the frame's last column or row repeated
/// into the pad: a player that shows the pad shows the edge, not a black line. H.264 cannot carry an odd side
/// at 4:2:0 (its crop unit is 2 pixels); VP9 can, but a decoder that scales its chroma (swscale: 334 rows onto
/// 667) puts the 2x2 blocks Segue averaged half a row off near the bottom (VP9 at 375x667 decoded 0.8-2.3 dB
/// under ffmpeg's own encoding, rows of text 13 levels off), so VP9 is padded alike. ProRes (4:2:2 and 4:4:4,
/// converted by ffmpeg) and VP9 with alpha (converted by ffmpeg) carry odd sizes as they are.
///
/// Opaque frames of 8-bit 4:2:0 codecs (H.264 in `.mp4`, VP9 in `.webm`) go in as Y4M, converted here by the C
/// kernel into the video's own YCbCr encoding (`YCbCrEncoding.video`: limited range, BT.709 for HD, BT.601
/// below), already subsampled, so ffmpeg converts no colour at all. Other frames go in as raw straight-alpha
/// RGBA, converted by ffmpeg's `scale` with the same matrix and range: 10-bit ProRes (`.mov`), frames with
/// alpha (a transparent background: ProRes 4444 in `.mov`, VP9 with alpha in `.webm`) and GIF's (its palette
/// is chosen in RGB). Every video but a GIF is tagged with its matrix, range, primaries and transfer, on the
/// stream and on each frame, so that a player shows the colours drawn.
final class FFmpegStream: FrameStream, @unchecked Sendable {
    /// A container: its muxer, its codec arguments, and how frames go into ffmpeg.
    struct Container {
        let muxer: String
        let codec: [String]
        /// The Y4M chroma that the codec's pixel format takes as it is, or nil for raw RGBA.
        let chroma: Y4M.Chroma?
        /// Whether the codec needs even sides: frames of an odd side go in one pixel larger, their edge repeated.
        let evenSize: Bool
        /// Whether the video gets colour tags (GIF has no YCbCr).
        var tagged = true
        /// Codec arguments added for a chunk of a video (`ChunkedVideo`), after `codec`.
        var chunkCodec: [String] = []
    }

    /// Video containers, opaque, keyed by `VideoContainer`'s extension (a test checks they are the same list).
    /// Odd sizes are padded to even ones for 4:2:0 and 4:2:2.
    static let defaults: [String: Container] = [
        "mp4": Container(muxer: "mp4", codec: ["-c:v", "libx264", "-preset", "medium", "-crf", "18", "-pix_fmt", "yuv420p",
                                               "-movflags", "+faststart"],
                         chroma: .c420, evenSize: true,
                         // x264's macroblock tree spends fewer bits on frames that no later frame refers to:
                         // at a chunk's end, the frames before a seam (0.55 dB under the single run's there,
                         // 120x214, 4 chunks of 46 frames); without it they are within 0.15 dB.
                         chunkCodec: ["-x264-params", "mbtree=0"]),
        "webm": Container(muxer: "webm", codec: ["-c:v", "libvpx-vp9", "-crf", "30", "-b:v", "0", "-row-mt", "1",
                                                 "-cpu-used", "4", "-pix_fmt", "yuv420p"],
                          chroma: .c420, evenSize: true),
        // 10-bit: RGB converted by ffmpeg straight to 10 bits (an 8-bit Y4M would lose 1.5-4 dB to rounding).
        "mov": Container(muxer: "mov", codec: ["-c:v", "prores_ks", "-profile:v", "3", "-pix_fmt", "yuv422p10le"],
                         chroma: nil, evenSize: false),
        "gif": Container(muxer: "gif", codec: ["-loop", "0"], chroma: nil,
                         evenSize: false, tagged: false),
    ]
    /// GIF's palette, chosen from every frame's colours (the frames come in as RGBA, so no YCbCr is involved).
    static let gifPalette = "split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse=dither=sierra2_4a"
    /// The containers that carry alpha, for a transparent background: frames in as RGBA.
    static let alphaDefaults: [String: Container] = [
        "mov": Container(muxer: "mov", codec: ["-c:v", "prores_ks", "-profile:v", "4444", "-pix_fmt", "yuva444p10le"],
                         chroma: nil, evenSize: false),
        "webm": Container(muxer: "webm", codec: ["-c:v", "libvpx-vp9", "-crf", "30", "-b:v", "0", "-row-mt", "1",
                                                 "-cpu-used", "4", "-pix_fmt", "yuva420p", "-auto-alt-ref", "0"],
                          chroma: nil, evenSize: false),
    ]

    /// Whether the video at `path` can carry alpha (`.mov`, `.webm`).
    static func carriesAlpha(_ path: String) -> Bool {
        alphaDefaults[PathName.extension(path).lowercased()] != nil
    }

    let path: String
    /// The frames' framing into ffmpeg: Y4M, or nil for raw RGBA (straight alpha).
    let y4m: Y4M?
    /// The whole `ffmpeg` command line after the executable.
    let arguments: [String]
    /// ffmpeg, in a process group of its own (a signal or the watchdog ends the group).
    private let child: ChildProcess
    private let temporaryPath: String
    private var wroteHeader = false

    /// The arguments of an ffmpeg that encodes `width` x `height` frames at `fps` into `output`, a video of the
    /// container `ext` (with `alpha` for a transparent background), and how frames go in: `size`, the size
    /// they go in at (even where the codec needs it, `Y4M.padded`). `extraArguments` replace the codec's
    /// arguments (the frames still go in at even sizes, for whatever codec they name, unless they set filters
    /// of their own).
    static func command(ext: String, width: Int, height: Int, fps: Double, alpha: Bool, extraArguments: [String]?,
                        chunk: Bool = false, colourSpace: ColourSpace = .srgb, output: String) -> (arguments: [String], y4m: Y4M?, size: (width: Int, height: Int)) {
        let container = alpha ? alphaDefaults[ext] ?? defaults[ext]! : defaults[ext]!
        let encoding = YCbCrEncoding.video(width: width, height: height).with(colourSpace: colourSpace)
        let ownFilters = extraArguments?.contains { FFmpegArguments.isFilterOption($0) } ?? false
        let even = container.evenSize || (extraArguments != nil && !ownFilters && ext != "gif")
        let size = even ? (width: width + width % 2, height: height + height % 2) : (width: width, height: height)
        // With arguments of the caller's own, ffmpeg converts from 4:4:4 to whatever they ask for.
        let chroma = extraArguments == nil ? container.chroma : container.chroma.map { _ in .c444 }
        let y4m = chroma.map { Y4M(width: width, height: height, fps: fps, chroma: $0, encoding: encoding, evenSize: even) }
        let source = y4m == nil
            ? ["-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(size.width)x\(size.height)", "-r", Y4M.rate(fps), "-i", "pipe:0"]
            : ["-f", "yuv4mpegpipe", "-i", "pipe:0"]
        var filters: [String] = []
        if container.tagged {
            // RGBA converted by ffmpeg into the video's pixel format with the video's matrix; every frame tagged
            // (the codec writes the frames' tags: ProRes takes them from nowhere else).
            if y4m == nil, let format = container.codec.firstIndex(of: "-pix_fmt").map({ container.codec[$0 + 1] }) {
                filters += [encoding.ffmpegScale, "format=\(format)"]
            }
            filters.append(encoding.ffmpegFrameTags)
        }
        var filter: [String] = []
        if !ownFilters {
            if ext == "gif" {
                filter = ["-filter_complex", "[0:v]" + (filters + [gifPalette]).joined(separator: ",")]
            } else if !filters.isEmpty {
                filter = ["-vf", filters.joined(separator: ",")]
            }
        }
        let arguments = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"] + source + filter
            + (extraArguments ?? container.codec + (chunk ? container.chunkCodec : [])) + (container.tagged ? encoding.ffmpegTags : [])
            + ["-f", container.muxer, output]
        return (arguments, y4m, size)
    }

    /// The `ffmpeg` on PATH, or a failure saying it is missing (checked before anything renders).
    static func locate(for video: String? = nil) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        let named: SegueError.Message = video.map { "the video '\($0)'" } ?? "\(option: .video, "a video")"
        throw SegueError.failed("\(message: named) needs ffmpeg, which is not on PATH (install it, e.g. 'apt-get install ffmpeg', or write frames with \(option: .output, value: "DIR", "an output directory"))")
    }

    /// The `tool` (`ffmpeg`, `ffprobe`) on PATH for decoding the clip at `clip`, or a failure saying it is missing.
    static func locate(forClip clip: String, tool: String = "ffmpeg") throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw SegueError.failed("the clip '\(clip)' needs ffmpeg\(tool == "ffmpeg" ? "" : " (its \(tool))"), which is not on PATH (install ffmpeg, e.g. 'apt-get install ffmpeg', or use still images)")
    }

    /// Checks the extension; `extraArguments` (from `--ffmpeg-args`) replace the codec defaults.
    static func validate(_ path: String) throws {
        guard VideoContainer(path: path) != nil else {
            throw SegueError.invalidOption("output", value: path, "\(option: .video, value: "'\(path)'", "the video '\(path)'"): the file must end in \(VideoContainer.listed)")
        }
    }

    init(path: String, width: Int, height: Int, fps: Double, alpha: Bool = false, ffmpegArguments: [String]?,
         chunk: Bool = false, colourSpace: ColourSpace = .srgb) throws {
        try Self.validate(path)
        if let ffmpegArguments { try FFmpegArguments.check(ffmpegArguments) }
        let ffmpeg = try Self.locate(for: path)
        let ext = PathName.extension(path).lowercased()
        self.path = path
        temporaryPath = FileWriter.temporaryPath(for: path)
        let size: (width: Int, height: Int)
        (arguments, y4m, size) = Self.command(ext: ext, width: width, height: height, fps: fps, alpha: alpha,
                                              extraArguments: ffmpegArguments, chunk: chunk, colourSpace: colourSpace,
                                              output: temporaryPath)
        rawPadded = size.width != width || size.height != height ? size : nil
        StaleTemporaries.remove(besides: path)
        signal(SIGPIPE, SIG_IGN)
        child = try ChildProcess(executable: ffmpeg, arguments: arguments, input: .pipe)
    }

    func register(with control: JobControl) {
        control.register(temporaryFile: temporaryPath)
        child.register(with: control)
    }

    /// Frames of the frame's size go into ffmpeg at this size (`Y4M.padded`: an odd side made even, the edge
    /// repeated), or at their own when nil.
    let rawPadded: (width: Int, height: Int)?

    /// The Y4M's planes, for opaque frames of 8-bit 4:2:0 codecs; nil for frames that go in as RGBA.
    var planes: YCbCrPlanes? { y4m?.planes }

    func encode(planes bytes: UnsafeRawBufferPointer) -> FramePayload { .bytes(y4m!.frame(planes: bytes)) }

    /// In place where the stream's frame is the renderer's; a padded stream's (an odd side repeated out to an
    /// even one) is laid out anew, a copy.
    func lend(planes bytes: UnsafeRawBufferPointer) -> FramePayload {
        y4m!.padded ? encode(planes: bytes) : .lent(prefix: Y4M.frameHeader, bytes: bytes)
    }

    func encode(_ frame: Pixmap, knownOpaque: Bool) throws -> FramePayload {
        if let y4m { return .bytes(y4m.frame(frame)) }
        if let rawPadded, frame.width != rawPadded.width || frame.height != rawPadded.height {
            let padded = frame.edgeExtended(width: rawPadded.width, height: rawPadded.height)
            return knownOpaque || padded.isOpaque ? .pixels(padded) : .bytes(StraightAlpha.bytes(of: padded))
        }
        return knownOpaque || frame.isOpaque ? .pixels(frame) : .bytes(StraightAlpha.bytes(of: frame))
    }

    func write(_ payload: FramePayload) throws {
        do {
            if !wroteHeader, let y4m {
                try child.input!.write(contentsOf: y4m.header)
                wroteHeader = true
            }
            try payload.forEachRun { try child.input!.write(contentsOf: $0) }
        } catch {
            throw failure()
        }
    }

    /// What ffmpeg said, once it has exited.
    private func failure() -> SegueError {
        try? child.input?.close()
        let ended = child.wait()
        unlink(temporaryPath)
        if ended == .exited(0) {
            // It stopped reading frames and succeeded: the caller's arguments ended the video early.
            return SegueError.failed("ffmpeg stopped taking frames and exited 0 before '\(path)' had them all: the ffmpeg arguments end the video early (such as -frames:v or -t)\(said(ended).map { ": \($0)" } ?? "")")
        }
        let how = switch ended {
        case let .signalled(signal)?: "killed by signal \(signal)"
        case let .exited(status)?: "exit \(status)"
        case nil: "still running"
        }
        return SegueError.failed("ffmpeg failed (\(how)) writing '\(path)': \(said(ended) ?? ended?.silence ?? "it printed nothing")")
    }

    /// ffmpeg's last lines (at most three), on one line, with the temporary file it wrote named as the video;
    /// nil when it printed nothing.
    private func said(_ ended: ChildProcess.Termination?) -> String? {
        let lines = child.errorLines(3).map { $0.replacingOccurrences(of: temporaryPath, with: path) }
        return lines.isEmpty ? nil : lines.joined(separator: " / ")
    }

    func finish() throws {
        try? child.input?.close()
        // Not timed: flushing a slow codec's look-ahead at 8K can take longer than any frame; a signal still
        // ends it, with its group.
        let ended = child.wait()
        guard ended == .exited(0) else { throw failure() }
        guard rename(temporaryPath, path) == 0 else {
            let reason = ErrnoReason.text(errno)
            unlink(temporaryPath)
            throw SegueError.failed("cannot write '\(path)': \(reason)")
        }
    }

    func abandon() {
        try? child.input?.close()
        child.kill()
        child.wait()
        unlink(temporaryPath)
    }
}
