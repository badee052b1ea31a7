import Foundation
import SegueCore
import SegueImageIO

extension RenderJob {
    /// What an output path means: the one place that decides it, which the command line, a storyboard's
    /// `"output"` object and a program all ask. Given what was named (a path, a video, a stream format, the
    /// ffmpeg arguments, whether the job renders one frame) it gives the job's `outputs`, or a `SegueError`
    /// of kind `invalidOption` (the option `output` with the path, or `ffmpegArguments`).
    ///
    /// A `path` is, in this order:
    /// - a video encoded by ffmpeg when it ends in `.mp4`, `.webm`, `.mov` or `.gif` (any case) and not in `/`
    ///   (`isVideo`); `format` must then be PNG (ffmpeg chooses the video's format by the extension);
    /// - a stream when it is `-` (standard output) or `format` is not PNG;
    /// - one PNG file when the job renders one frame and the path is not an existing directory;
    /// - else a directory of frames (`frame_00000.png ...`); a trailing `/` is always a directory.
    ///
    /// A `video` is a video whatever else is named, beside a directory of frames (never beside a stream, or a
    /// `path` that is a video too). A stream format with nothing named streams to standard output.
    ///
    /// ```swift
    /// job.outputs = try RenderJob.OutputPlan(path: "story.mp4").outputs()   // [.video("story.mp4")]
    /// ```
    public struct OutputPlan: Sendable, Equatable {
        /// A directory of frames, one PNG, a stream (`-`: standard output) or a video, by the rules above.
        public var path: String?
        /// A video beside `path` (`.mp4`, `.webm`, `.mov` or `.gif`).
        public var video: String?
        /// How a stream is framed; any but PNG makes `path` a stream.
        public var format: OutputFormat
        /// The chroma of a Y4M stream.
        public var y4mChroma: Y4M.Chroma
        /// The codec arguments the video's ffmpeg gets instead of its own: they need a video.
        public var ffmpegArguments: [String]?
        /// The job renders one frame (`progress` with one value): a `path` that is not an existing directory is
        /// one PNG file.
        public var oneFrame: Bool
        /// The storyboard's video, left out because the job renders only part of the frames (see
        /// `init(storyboard:resolve:chunked:partial:)`); nil otherwise.
        public var skippedVideo: String?

        /// What was named, as the properties above say.
        public init(path: String? = nil, video: String? = nil, format: OutputFormat = .png, y4mChroma: Y4M.Chroma = .c444,
                    ffmpegArguments: [String]? = nil, oneFrame: Bool = false) {
            self.path = path
            self.video = video
            self.format = format
            self.y4mChroma = y4mChroma
            self.ffmpegArguments = ffmpegArguments
            self.oneFrame = oneFrame
        }

        /// A storyboard's own `"output"` object, its paths resolved by `resolve` (relative to the storyboard
        /// file): its directory of frames, unless the job is `chunked` (a chunk writes its part of the video
        /// only), and its video, unless the job is `partial` and not chunked (a shard, or a resumed job,
        /// renders only part of the frames, and a video needs every frame: `skippedVideo` names it).
        public init(storyboard output: Storyboard.Output, resolve: (String) -> String = { $0 }, chunked: Bool = false,
                    partial: Bool = false, format: OutputFormat = .png, y4mChroma: Y4M.Chroma = .c444,
                    ffmpegArguments: [String]? = nil) {
            self.init(path: chunked ? nil : output.frames.map(resolve), format: format, y4mChroma: y4mChroma,
                      ffmpegArguments: ffmpegArguments)
            if let v = output.video {
                if !chunked && partial { skippedVideo = v } else { video = resolve(v) }
            }
        }

        /// Whether `path` names a video that ffmpeg writes, by its extension (`.mp4`, `.webm`, `.mov`, `.gif`, any
        /// case). `-` is standard output, and a path that ends in `/` a directory, whatever its extension.
        public static func isVideo(_ path: String) -> Bool {
            path != "-" && !path.hasSuffix("/") && VideoContainer(path: path) != nil
        }

        /// Checks what was named without looking at the file system (a usage error for each conflict): what
        /// `outputs()` would refuse, bar nothing named at all.
        public func check() throws(SegueError) {
            _ = try resolved()
        }

        /// The job's outputs: at most a directory of frames, or one PNG, or one stream, and at most one video.
        public func outputs() throws(SegueError) -> [Output] {
            let named = try resolved()
            var outputs: [Output] = []
            if let stream = named.stream {
                outputs.append(.stream(stream, format: format, y4mChroma: y4mChroma))
            } else if let path = named.path {
                var isDirectory: ObjCBool = false
                let existingDirectory = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
                outputs.append(oneFrame && !existingDirectory ? .image(path) : .frames(directory: path))
            }
            if let video = named.video {
                outputs.append(.video(video, ffmpegArguments: ffmpegArguments))
            }
            for output in outputs { try Self.checkForm(of: output) }
            if outputs.isEmpty {
                throw .invalidOption("output", value: "", "nothing to write: give \(option: .output, value: "DIR", "a directory of frames or a stream"), \(option: .video, value: "FILE", "a video") or \"output\" in the storyboard")
            }
            return outputs
        }

        /// The rules above, applied: the path (not a stream), the stream and the video.
        private func resolved() throws(SegueError) -> (path: String?, stream: String?, video: String?) {
            var path = self.path, video = self.video
            if path == "" { throw .invalidOption("output", value: "", "\(option: .output, "the output path") must not be empty") }
            if let p = path, Self.isVideo(p) {
                if let video { throw .invalidOption("output", value: p, "\(option: .output, value: "'\(p)'", "'\(p)'") is a video, and so is \(option: .video, "'\(video)'"): give one") }
                if format != .png {
                    throw .invalidOption("output", value: p, "\(option: .output, value: "'\(p)'", "'\(p)'") is a video (ffmpeg chooses its format by the extension); \(option: .format, value: format.rawValue, "the format \(format.rawValue)") applies to a stream: choose one")
                }
                (path, video) = (nil, p)
            }
            if let ffmpegArguments, video == nil {
                throw .invalidOption("ffmpegArguments", value: ffmpegArguments.joined(separator: " "),
                                     "\(option: .ffmpegArguments) needs \(option: .output, value: "FILE", "a video output: a file") ending in .mp4, .webm, .mov or .gif")
            }
            if let video { try SegueError.converting { try FFmpegStream.validate(video) } }
            if format != .png && path == nil { path = "-" }
            let stream = path == "-" || format != .png ? path : nil
            if let stream, let video {
                throw .invalidOption("output", value: stream, "\(option: .video, "a video ('\(video)')") and a stream (\(option: .output, value: "-", "'\(stream)'") or \(option: .format, value: format.rawValue, format.rawValue)) do not combine: choose one")
            }
            return (stream == nil ? path : nil, stream, video)
        }

        /// Extensions of images: a directory of frames may be named so (`shots.png` holds PNGs).
        static let imageExtensions: Set<String> = ["png", "jpg", "jpeg"]

        /// What follows a name's last dot when it reads as a file's type: one to five letters and digits, the
        /// first a letter (`avi`, `mkv`; not `2024` or `v2.1`'s `1`), after a name that is not empty.
        static func fileExtension(_ name: String) -> String? {
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
            let ext = name[name.index(after: dot)...]
            guard (1...5).contains(ext.count), ext.first!.isASCII, ext.first!.isLetter,
                  ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
            return String(ext)
        }

        /// Checks the form of an output's path: a file (one PNG, a stream, a video) is not named as a directory
        /// (ending in `/`), and a directory of frames is not named as a video's extension alone (`.mp4`, which
        /// would become a hidden directory; `.mp4/` is one on purpose).
        static func checkForm(of output: Output) throws(SegueError) {
            switch output {
            case let .image(path), let .stream(path, _, _), let .video(path, _):
                if path != "-" && path.hasSuffix("/") {
                    throw .invalidOption("output", value: path, "'\(path)' ends in '/', a directory, but this output is one file")
                }
            case .sink:
                break
            case let .frames(directory):
                let base = PathName.last(directory)
                if !directory.hasSuffix("/"), base.hasPrefix("."), VideoContainer(rawValue: String(base.dropFirst()).lowercased()) != nil {
                    throw .invalidOption("output", value: directory, "'\(directory)' has no name before its extension: name the video (for example 'out\(base)'), or end the path with '/' for a hidden directory of frames")
                }
                if !directory.hasSuffix("/"), let ext = fileExtension(base), !imageExtensions.contains(ext.lowercased()) {
                    throw .invalidOption("output", value: directory, "'\(directory)' ends in '.\(ext)', which is neither an image (.png) nor a video (.mp4, .webm, .mov, .gif): name one of those, or end the path with '/' for a directory of frames")
                }
            }
        }
    }
}

// MARK: - The job's output rules, checked once, and the sink made beside them

extension RenderJob {
    /// Every rule about the job's outputs, checked once before anything is read (usage errors): an image output
    /// only for a job of one frame (an image file holds one picture, not a sequence), a chunk's one video, each
    /// path's form, no output that is an input, and outputs that carry alpha for a transparent background.
    func checkOutputs() throws {
        for case let .image(path) in outputs where progress?.count != 1 {
            let frames = progress?.count ?? storyboard.schedule.count
            throw SegueError.invalidOption("output", value: path,
                                           "the image '\(path)' holds one frame, but the job renders \(frames): give one progress value, or write a directory of frames")
        }
        try checkChunk()
        try checkOutputPaths()
        try checkOutputsCarryAlpha()
    }

    /// The video container of the job's first output, when it is a video.
    var videoContainer: VideoContainer? {
        if case let .video(path, _)? = outputs.first { return VideoContainer(path: path) }
        return nil
    }

    /// The rate of a job with a GIF among its outputs: the fastest at or below the storyboard's whose frames each
    /// last a whole number of hundredths of a second, at least 2 (GIF's delays are whole centiseconds, and
    /// browsers and ffmpeg play a delay of 0 or 1 as 10): 60 -> 50, 30 -> 25, 24 -> 20, 10 -> 10. Nil without a GIF.
    var gifRate: Double? {
        guard outputs.contains(where: { if case let .video(path, _) = $0 { VideoContainer(path: path) == .gif } else { false } }),
              storyboard.fps.isFinite, storyboard.fps > 0 else { return nil }
        let delay = max(2, (100 / storyboard.fps - 1e-9).rounded(.up))
        return 100 / delay
    }

    /// Checks each output's path before anything is read: its form (`OutputPlan.checkForm`: a file not named as
    /// a directory, a directory of frames not named as a video's extension alone), and that no output is one of
    /// the job's inputs (the storyboard file or a screen, as the same file by device and inode, or a screen
    /// named as a frame inside a directory of frames), which the job would overwrite; and that a file's directory is there.
    func checkOutputPaths() throws {
        let resolve = Self.resolver(storyboardFile)
        let inputs = storyboard.usedScreens.compactMap { storyboard.screens[$0] }.filter { !$0.hasPrefix("sample:") && !$0.hasPrefix(Screens.memoryPrefix) }.map(resolve)
            + (storyboardFile.map { [$0] } ?? [])
        for output in outputs {
            try OutputPlan.checkForm(of: output)
            switch output {
            case let .image(path), let .stream(path, _, _), let .video(path, _):
                guard path != "-" else { continue }
                if let input = inputs.first(where: { FileIdentity.same($0, path) }) {
                    throw SegueError.invalidOption("output", value: path, "the output '\(path)' is the input '\(input)': writing it would destroy the input")
                }
                // A file goes in a directory that is there: said now, not after every frame is drawn.
                let directory = PathName.directory(path)
                var info = stat()
                let found = stat(directory, &info) == 0 ? nil : errno
                guard found == nil, info.st_mode & S_IFMT == S_IFDIR else {
                    let reason = switch found {
                    case nil: "'\(directory)' is not a directory"
                    case ENOENT?, ENOTDIR?: "there is no directory '\(directory)'"
                    case let code?: "'\(directory)': \(ErrnoReason.text(code))"
                    }
                    throw SegueError.failed("cannot write '\(path)': \(reason)")
                }
            case .sink:
                continue
            case let .frames(directory):
                // Only a file named as a frame can be overwritten by one, so only its directory is compared.
                for input in inputs {
                    let file = PathName.last(input)
                    guard file.hasPrefix("frame_") && file.hasSuffix(".png") else { continue }
                    if FileIdentity.same(PathName.directory(input), directory) {
                        throw SegueError.invalidOption("output", value: directory, "the input '\(input)' is inside the directory of frames '\(directory)', named as a frame: the job would overwrite it")
                    }
                }
            }
        }
    }

    /// A chunk's job writes one video, whole (not sharded), of a container whose chunks join by stream copy
    /// (usage errors, before anything is read).
    func checkChunk() throws {
        guard let chunk else { return }
        guard outputs.count == 1, case let .video(path, _) = outputs[0] else {
            throw SegueError.invalidOption("chunk", value: "\(chunk)", "chunk \(chunk) is part of a video: the job's one output must be a .mp4, .webm or .mov video")
        }
        guard shard == .whole else { throw SegueError.invalidOption("chunk", value: "\(chunk)", "a job is split into shards or into chunks, not both (shard \(shard), chunk \(chunk))") }
        try ChunkedVideo.check(path, transparent: storyboard.background.isTransparent)
    }

    /// The key of a chunked video's chunks: the picture key with the container and the encoder's arguments,
    /// so that only chunks encoded alike are joined.
    func chunkKey(_ pictureKey: String, arguments: [String]?) -> String {
        var h = ContentHash()
        h.combine("segue-chunks 1 \(pictureKey)")
        if let container = videoContainer { h.combine(container.rawValue) }
        h.combine(storyboard.background.isTransparent ? "alpha" : "opaque")
        h.combine(arguments.map { "args \($0.count) " + $0.joined(separator: "\u{0}") } ?? "default arguments")
        return h.hex
    }

    /// A transparent background needs outputs that carry alpha: PNG, raw RGBA, ProRes 4444 (`.mov`) or VP9
    /// (`.webm`); Y4M, `.mp4` and `.gif` cannot (a usage error, before anything is read).
    func checkOutputsCarryAlpha() throws {
        guard storyboard.background.isTransparent else { return }
        let can: SegueError.Message = "PNG frames, \(option: .format, value: "rgba", "raw RGBA frames"), or a .mov (ProRes 4444) or .webm (VP9) video"
        for output in outputs {
            switch output {
            case let .stream(path, .y4m, _):
                throw SegueError.invalidOption("output", value: path, "a transparent background needs an output that carries alpha, and y4m ('\(path)') does not: use \(message: can)")
            case .sink(_, .y4m):
                throw SegueError.invalidOption("output", value: "sink", "a transparent background needs an output that carries alpha, and a y4m sink does not: use a PNG or raw RGBA sink")
            case let .video(path, _) where !FFmpegStream.carriesAlpha(path):
                throw SegueError.invalidOption("output", value: path, "a transparent background needs an output that carries alpha, and .\(PathName.extension(path)) ('\(path)') does not: use \(message: can)")
            default:
                break
            }
        }
    }

    struct Sink {
        var outputs: FramePipeline.Outputs
        var directory: FrameDirectory?
        /// Frames `resume` found complete in the directory.
        var complete: Set<Int> = []
    }

    /// Creates the outputs (nothing is created before every check has passed): at most one directory of
    /// frames, and at most one stream, video, image or program's sink.
    func makeSink(width: Int, height: Int, memory: (any FrameStream)?, control: JobControl, frameCount: Int,
                  videoFile: String? = nil, colourSpace: ColourSpace = .srgb, key: () -> String) throws -> Sink {
        // Every frame is drawn over the background (`RenderFrame`), so an opaque one makes every pixel opaque.
        let opaque = !storyboard.background.isTransparent
        if let memory {
            return Sink(outputs: .init(directory: nil, pngLevel: pngLevel, opaque: opaque, stream: memory, colourSpace: colourSpace), directory: nil)
        }
        let directories = outputs.compactMap { if case let .frames(path) = $0 { path } else { nil } }
        let streams = outputs.filter { if case .frames = $0 { false } else { true } }
        guard !outputs.isEmpty, directories.count <= 1, streams.count <= 1 else {
            throw SegueError.invalidOption("output", value: "\(outputs.count) outputs", "a job writes one directory of frames and one stream or video at most, not \(outputs.count) outputs")
        }
        let partial: SegueError.Message? = shard.count > 1 ? "shard \(shard) renders every \(shard.count)th frame"
            : resume ? "\(option: .resume, "resuming") skips frames already written" : nil
        if chunk == nil, let partial, !streams.isEmpty {
            throw SegueError.invalidOption(shard.count > 1 ? "shard" : "resume", value: shard.count > 1 ? "\(shard)" : "true",
                                           "\(message: partial), which only PNG frames in a directory (\(option: .output, value: "DIR")) can do: a stream or a video needs every frame")
        }
        var stream: FrameStream?
        switch streams.first {
        case let .image(path)?:
            stream = try ByteStream(path: path, format: .png, y4m: nil, pngLevel: pngLevel, colourSpace: colourSpace)
        case let .stream(path, format, chroma)?:
            let y4m = format == .y4m ? Y4M(width: width, height: height, fps: storyboard.fps, chroma: chroma, encoding: YCbCrEncoding.jpeg.with(colourSpace: colourSpace)) : nil
            stream = try ByteStream(path: path, format: format, y4m: y4m, pngLevel: pngLevel, colourSpace: colourSpace)
        case let .video(path, arguments)?:
            stream = try FFmpegStream(path: videoFile ?? path, width: width, height: height, fps: storyboard.fps,
                                      alpha: storyboard.background.isTransparent, ffmpegArguments: arguments,
                                      chunk: videoFile != nil, colourSpace: colourSpace)
        case let .sink(sink, format)?:
            let y4m = format == .y4m ? Y4M(width: width, height: height, fps: storyboard.fps, chroma: .c444, encoding: YCbCrEncoding.jpeg.with(colourSpace: colourSpace)) : nil
            stream = SinkStream(sink, format: format, y4m: y4m, pngLevel: pngLevel, firstFrame: frameRange?.lowerBound ?? 0, colourSpace: colourSpace)
            sink.begin(width: width, height: height, colourSpace: colourSpace)
        case .frames?, nil:
            break
        }
        var directory: FrameDirectory?
        var complete = Set<Int>()
        do {
            directory = try directories.first.map { try FrameDirectory(creating: $0) }
            if let directory {
                complete = try directory.open(.init(key: key(), frameCount: frameCount, width: width, height: height,
                                                    shard: shard, resume: resume, overwrite: overwrite))
            }
        } catch {
            stream?.abandon()
            throw error
        }
        directory?.removeTemporaryFiles(owned: shard.contains)
        if let directory { control.register(directory: directory.path) }
        stream?.register(with: control)
        let record = directory.map { d in { @Sendable (k: Int, bytes: [UInt8]) in d.record(k, bytes: bytes) } }
        return Sink(outputs: .init(directory: directory?.path, pngLevel: pngLevel, opaque: opaque, written: record, stream: stream,
                                   colourSpace: colourSpace),
                    directory: directory, complete: complete)
    }
}
