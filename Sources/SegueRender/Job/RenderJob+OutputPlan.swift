import Foundation
import SegueCore

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
            path != "-" && !path.hasSuffix("/") && FFmpegStream.defaults[(path as NSString).pathExtension.lowercased()] != nil
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

        /// Checks the form of an output's path: a file (one PNG, a stream, a video) is not named as a directory
        /// (ending in `/`), and a directory of frames is not named as a video's extension alone (`.mp4`, which
        /// would become a hidden directory; `.mp4/` is one on purpose).
        static func checkForm(of output: Output) throws(SegueError) {
            func name(_ path: String) -> String {
                (String(path.reversed().drop { $0 == "/" }.reversed()) as NSString).lastPathComponent
            }
            switch output {
            case let .image(path), let .stream(path, _, _), let .video(path, _):
                if path != "-" && path.hasSuffix("/") {
                    throw .invalidOption("output", value: path, "'\(path)' ends in '/', a directory, but this output is one file")
                }
            case let .frames(directory):
                let base = name(directory)
                if !directory.hasSuffix("/"), base.hasPrefix("."), FFmpegStream.defaults[String(base.dropFirst()).lowercased()] != nil {
                    throw .invalidOption("output", value: directory, "'\(directory)' has no name before its extension: name the video (for example 'out\(base)'), or end the path with '/' for a hidden directory of frames")
                }
            }
        }
    }
}
