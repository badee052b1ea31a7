import ArgumentParser
import Foundation
import SegueCore
import SegueGLES
import SegueImageIO

/// `segue batch STORYBOARD.json`: a storyboard's whole timeline, as PNG frames, a stream or a video, split over
/// machines with `--shard` (or a Slurm job array / Kubernetes Indexed Job).
struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a storyboard: named screens and a timeline of holds, transitions and interactive transitions.",
        discussion: """
            Frame k shows the timeline at k/fps, k = 0 ... round(total*fps), written as frame_%05d.png. The format \
            is docs/storyboard.schema.json; every problem in a file is reported with its JSON path before anything \
            renders. Paths in the file (screens, tracks, output) are relative to it; paths given here, to the \
            current directory.
            Examples:
              segue batch examples/storyboard.json --out frames/
              segue batch story.json --video story.mp4
              segue batch story.json --out - --format y4m | ffmpeg -i - story.webm
              segue batch story.json --out frames/ --shard 2/4 --resume
            """)

    @Argument(help: ArgumentHelp("The storyboard (JSON).", valueName: "storyboard"))
    var storyboard: String

    @Option(help: ArgumentHelp("""
        A directory for frame_00000.png ... (default: the storyboard's output.frames); with --format rgba or y4m, \
        a stream file; '-' streams to standard output.
        """, valueName: "dir"))
    var out: String?

    @Option(help: ArgumentHelp("png, rgba (raw 8-bit RGBA) or y4m (YUV4MPEG2).", valueName: "name"))
    var format: String = "png"

    @Option(help: ArgumentHelp("Encode a video with ffmpeg: .mp4 (H.264), .webm (VP9), .mov (ProRes) or .gif (default: the storyboard's output.video).", valueName: "file"))
    var video: String?

    @Option(name: .customLong("ffmpeg-args"), help: ArgumentHelp("Replace the codec arguments ffmpeg gets for --video (split at spaces), e.g. '-c:v libx264 -crf 23 -pix_fmt yuv420p'.", valueName: "args"))
    var ffmpegArgs: String?

    @Option(help: ArgumentHelp("Render only frames k with k mod N = I (default: from SLURM_ARRAY_TASK_ID/COUNT or JOB_COMPLETION_INDEX/SEGUE_SHARDS).", valueName: "I/N"))
    var shard: String?

    @Flag(help: "Skip frames already complete in the output directory and render the rest.")
    var resume = false

    @Option(help: ArgumentHelp("auto (GLES when an EGL context can be made, else CPU), cpu or gles.", valueName: "name"))
    var backend: String = "auto"

    @Option(name: .customLong("egl-platform"), help: ArgumentHelp("Force the EGL platform: gbm, device or surfaceless.", valueName: "name"))
    var eglPlatform: EGLPlatform?

    @Option(name: .customLong("png-level"), parsing: .unconditional, help: ArgumentHelp("PNG compression level, 0 (fastest) ... 9 (smallest).", valueName: "n"))
    var pngLevel: Int = FramePipeline.defaultPNGLevel

    @Option(name: .customLong("y4m-chroma"), help: ArgumentHelp("y4m chroma: 444 (C444) or 420 (C420jpeg).", valueName: "444|420"))
    var y4mChroma: String = "444"

    @Option(parsing: .unconditional, help: ArgumentHelp("Threads for the CPU compositor (all cores by default).", valueName: "n"))
    var threads: Int?

    @Option(name: .customLong("max-pixels"), parsing: .unconditional, help: ArgumentHelp("Refuse screen images with more pixels than this.", valueName: "n"))
    var maxPixels: Int = 16384 * 16384

    @Flag(help: "No progress on standard error.")
    var quiet = false

    func validate() throws {
        guard BackendChoice(rawValue: backend) != nil else { throw ValidationError("unknown backend '\(backend)' (use auto, cpu or gles)") }
        guard OutputFormat(rawValue: format) != nil else { throw ValidationError("unknown format '\(format)' (use png, rgba or y4m)") }
        guard Y4M.Chroma(rawValue: y4mChroma) != nil else { throw ValidationError("--y4m-chroma must be 444 or 420") }
        guard (0...9).contains(pngLevel) else { throw ValidationError("--png-level must be 0...9") }
        if let threads, !(1...256).contains(threads) { throw ValidationError("--threads must be 1...256") }
        if let out, out.isEmpty { throw ValidationError("--out must not be empty") }
        if let video { try FFmpegStream.validate(video) }
        if ffmpegArgs != nil && video == nil { throw ValidationError("--ffmpeg-args needs --video") }
    }

    func run() throws {
        let job = try BatchJob(self)
        try job.run()
    }
}

/// A storyboard read, checked and loaded (every problem reported before anything renders), then rendered.
struct BatchJob {
    let command: Batch
    let board: Storyboard
    let screens: [String: Pixmap]
    let frame: Size
    let shard: Shard
    let directory: String?
    let streamPath: String?
    let videoPath: String?

    init(_ command: Batch) throws {
        self.command = command
        let file = command.storyboard
        let base = (file as NSString).deletingLastPathComponent
        func relative(_ path: String) -> String {
            path.hasPrefix("/") || path.hasPrefix("sample:") || base.isEmpty ? path : (base as NSString).appendingPathComponent(path)
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CLIFailure.failure("cannot read the storyboard '\(file)'")
        }
        let parsed = Storyboard.parse(json: data, loadTrack: { track in
            guard let text = FileManager.default.contents(atPath: relative(track)) else {
                throw SegueError.failed("cannot read '\(relative(track))'")
            }
            return String(decoding: text, as: UTF8.self)
        }, loadShader: { spec in
            // A file relative to the storyboard, else a shipped transition's name.
            try ShaderArguments.load(FileManager.default.fileExists(atPath: relative(spec)) ? relative(spec) : spec)
        })
        var problems = parsed.problems
        let board = parsed.storyboard

        // Screens the timeline uses, at the output's pixel size: the storyboard's, else the first screen's.
        var images: [String: Pixmap] = [:]
        var size = board.size
        var unreadable = false
        // Every named screen is read (a bad one is a problem even when the steps using it have problems too).
        let names = board.usedScreens + board.screens.keys.sorted().filter { !board.usedScreens.contains($0) }
        for name in names {
            guard let path = board.screens[name] else { continue }
            do {
                let image = try TransitionInputs.image(relative(path), size: size.map { ($0.width, $0.height) }, maxPixels: command.maxPixels)
                if size == nil { size = (image.width, image.height) }
                images[name] = image.width == size!.width && image.height == size!.height
                    ? image : Resampler.resample(image, width: size!.width, height: size!.height)
            } catch let error as CLIFailure {
                problems.append(StoryboardProblem("$.screens.\(name)", error.message))
                unreadable = true
            }
        }
        let pixels = size ?? (375, 667)
        frame = Size(Double(pixels.width) / board.scale, Double(pixels.height) / board.scale)
        problems += board.problems(frame: frame, stepPaths: parsed.stepPaths)
        if !problems.isEmpty {
            let lines = problems.map { "\(file): \($0)" }
            let onlyImages = unreadable && problems.count == problems.filter { $0.path.hasPrefix("$.screens.") }.count
            throw CLIFailure(message: lines.joined(separator: "\nsegue: error: "),
                             status: onlyImages ? ExitStatus.failure : ExitStatus.usage)
        }
        self.board = board
        screens = images

        // Shard: --shard, else a Slurm array task or a Kubernetes Indexed Job.
        do {
            shard = try command.shard.map { try Shard(parsing: $0) } ?? Shard.fromEnvironment(ProcessInfo.processInfo.environment) ?? .whole
        } catch let error as SegueError {
            throw CLIFailure.usage(error.description)
        }

        // Outputs: --out and --video replace the storyboard's "output" (both its frames and its video).
        let format = OutputFormat(rawValue: command.format)!
        let explicit = command.out != nil || command.video != nil
        var out = explicit ? command.out : board.output.frames.map(relative)
        if format != .png && out == nil { out = "-" }
        let streams = out == "-" || format != .png
        directory = streams ? nil : out
        streamPath = streams ? out : nil
        var video = command.video
        if !explicit, let v = board.output.video {
            if shard.count > 1 || command.resume {
                let why = shard.count > 1 ? "shard \(shard) renders part of the frames" : "--resume renders part of the frames"
                Console.note("not writing the storyboard's video '\(v)': \(why); join the frames with ffmpeg afterwards")
            } else {
                video = relative(v)
            }
        }
        videoPath = video
        if streamPath != nil && videoPath != nil {
            throw CLIFailure.usage("--video and a stream (--out - or --format \(format.rawValue)) do not combine: choose one")
        }
        if directory == nil && streamPath == nil && videoPath == nil {
            throw CLIFailure.usage("nothing to write: give --out DIR, --video FILE or \"output\" in the storyboard")
        }
        if streamPath != nil || videoPath != nil {
            if shard.count > 1 {
                throw CLIFailure.usage("shard \(shard) renders every \(shard.count)th frame: write PNG frames with --out DIR and join them afterwards (a stream or --video needs every frame)")
            }
            if command.resume {
                throw CLIFailure.usage("--resume skips frames already written, which only PNG frames in a directory (--out DIR) can do")
            }
        }
        if videoPath != nil { _ = try FFmpegStream.locate() }
    }

    func run() throws {
        Interrupt.install()
        let shaderStep = board.timeline.firstIndex { if case .shader = $0 { return true } else { return false } }
        if let shaderStep, command.backend == BackendChoice.cpu.rawValue {
            throw CLIFailure.usage("step \(shaderStep) of the timeline is a custom shader, which needs the GLES backend (not --backend cpu)")
        }
        let renderer = try Backends.make(BackendChoice(rawValue: command.backend)!, platform: command.eglPlatform,
                                         threads: command.threads)
        if let shaderStep, !(renderer is GLESRenderer) {
            throw CLIFailure.failure("step \(shaderStep) of the timeline is a custom shader, which needs the GLES backend, and no EGL context could be made")
        }
        var runs = board.runs(shard: shard)
        var skipped = 0
        if let directory {
            let dir = try FrameDirectory(creating: directory)
            dir.removeTemporaryFiles(owned: shard.contains)
            if command.resume {
                let complete = dir.completeFrames()
                for i in runs.indices {
                    let before = runs[i].frames.count
                    runs[i].frames.removeAll { complete.contains($0.index) }
                    skipped += before - runs[i].frames.count
                }
            }
        }
        let total = runs.reduce(0) { $0 + $1.frames.count }
        if skipped > 0 && !command.quiet { Console.note("resuming: \(skipped) frames already complete, \(total) to render") }

        let (width, height) = (screens.values.first?.width ?? 0, screens.values.first?.height ?? 0)
        var stream: FrameStream?
        let y4m = Y4M(width: width, height: height, fps: board.fps, chroma: Y4M.Chroma(rawValue: command.y4mChroma)!)
        if let videoPath {
            let arguments = command.ffmpegArgs.map { $0.split(separator: " ").map(String.init) }
            stream = try FFmpegStream(path: videoPath, y4m: Y4M(width: width, height: height, fps: board.fps, chroma: .c444),
                                      ffmpegArguments: arguments)
        } else if let streamPath {
            let format = OutputFormat(rawValue: command.format)!
            stream = try ByteStream(path: streamPath, format: format, y4m: format == .y4m ? y4m : nil, pngLevel: command.pngLevel)
        }
        let outputs = FramePipeline.Outputs(directory: directory, pngLevel: command.pngLevel, stream: stream)
        let pipeline = FramePipeline(outputs: outputs, total: total, quiet: command.quiet)
        let scale = board.scale, background = board.background, frame = self.frame, board = self.board
        let driverRuns = runs.map { run -> FrameDriver.Run in
            let (from, to) = board.timeline[run.step].screens
            let frames = run.frames
            if case let .shader(step, _, _) = board.timeline[run.step] {
                // Back plays the shader in reverse between the swapped screens: it starts on `from`, ends on `to`.
                let back = step.direction == .back
                return FrameDriver.Run(snapshots: back ? [screens[to]!, screens[from]!] : [screens[from]!, screens[to]!],
                                       indices: frames.map(\.index),
                                       frames: .shader(step.transition, values: step.values,
                                                       progress: frames.map { step.progress(at: $0.t) },
                                                       width: width, height: height, background: background))
            }
            let snapshots = [screens[from]!, screens[to]!]
            let info = snapshots.map(SnapshotInfo.init)
            return FrameDriver.Run(snapshots: snapshots, indices: frames.map(\.index), list: { n in
                DrawList(scene: board.scene(frames[n], size: frame)!, scale: scale, snapshots: info, background: background)
            })
        }
        try FrameDriver.render(driverRuns, with: renderer, into: pipeline)
    }
}
