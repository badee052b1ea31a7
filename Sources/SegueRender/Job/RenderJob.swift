import Foundation
import SegueCore
import SegueImageIO

/// A job: a storyboard (screens, and a timeline of holds, transitions, interactive and custom-shader steps, at
/// `fps`) rendered into an output. `segue render` is a job whose timeline has one step, `segue batch` a
/// storyboard file, `segue demo` a set of jobs.
///
/// `run` checks everything before it writes anything: every screen is read and resampled to the job's size,
/// every step checked against the frame, the renderer made and custom shaders compiled; then frames are drawn
/// in order (frame `k` from `FrameSchedule`) and handed to the frame pipeline as they are ready.
///
/// One setting of the process is the library's: a job that writes a stream or a video, or reads a video clip,
/// sets `SIGPIPE` to be ignored for the whole process (signals have one disposition per process), so that a
/// reader or an ffmpeg that goes away is an `EPIPE` error the job reports (`SegueError.Kind.outputClosed`, or
/// a failure naming ffmpeg) rather than the end of the program. A program that relies on `SIGPIPE`'s default
/// action must set it again after the job.
public struct RenderJob: Sendable {
    /// Where the frames go. What a path a user names means (a video by its extension, `-`, a trailing `/`...)
    /// is decided by `OutputPlan`, which makes these.
    public enum Output: Sendable, Equatable {
        /// `frame_00000.png ...` in a directory (created if needed).
        case frames(directory: String)
        /// One PNG file: a job of one frame (`progress` with one value).
        case image(String)
        /// Every frame in one stream; `-` is standard output. A stream file appears only when complete.
        case stream(String, format: OutputFormat, y4mChroma: Y4M.Chroma = .c444)
        /// A video encoded by ffmpeg (`.mp4`, `.webm`, `.mov`, `.gif`); `ffmpegArguments` replace the codec's.
        case video(String, ffmpegArguments: [String]? = nil)
        /// Every frame handed to a program's own sink, encoded as `format` (a Y4M stream's chroma is 4:4:4):
        /// the job's one stream, beside at most a directory of frames.
        case sink(any FrameSink, format: OutputFormat)

        /// Outputs are equal when they name the same paths and settings; sinks, when they are the same object.
        public static func == (a: Output, b: Output) -> Bool {
            switch (a, b) {
            case let (.frames(x), .frames(y)): return x == y
            case let (.image(x), .image(y)): return x == y
            case let (.stream(x, f, c), .stream(y, g, d)): return x == y && f == g && c == d
            case let (.video(x, p), .video(y, q)): return x == y && p == q
            case let (.sink(x, f), .sink(y, g)): return x === y && f == g
            default: return false
            }
        }
    }

    /// What is rendered. Screens are image paths (relative to `storyboardFile`'s directory), `sample:home` /
    /// `sample:detail`, or `memory:NAME` for `images[NAME]`.
    public var storyboard: Storyboard
    /// Images a program holds, which screens name as `memory:NAME`: premultiplied RGBA8, held to `maxPixels`
    /// and resampled to the job's size as an image file is.
    public var images: [String: Pixmap] = [:]
    /// Where the frames go: one output, or a directory of frames and a stream or video written together.
    public var outputs: [Output]
    /// Frames of the first step at these progress values instead of the timeline at `fps` (`--progress`).
    public var progress: [Double]?
    /// Which renderer draws the job (`auto`: what was measured fastest here for the job's size and output).
    public var backend: BackendChoice = .auto
    /// The colour space the job works in (`auto`: Display P3 when an input image is wider than sRGB, else sRGB).
    /// Every input is converted into it when read, the effect's colours (sRGB values) too, and every output is
    /// tagged with it: a PNG with its ICC profile and cICP (none for sRGB: an untagged PNG is sRGB), a video
    /// with its primaries and transfer. A GIF cannot carry a profile: `auto` is then sRGB, and Display P3 refused.
    public var colourSpace: ColourSpaceChoice = .auto

    /// Whether the frames leave as YCbCr planes (a Y4M stream or a video, and no PNG): what `auto` chooses for.
    var leavesAsPlanes: Bool {
        outputs.allSatisfy {
            switch $0 {
            case .frames, .image: return false
            case let .stream(_, format, _), let .sink(_, format): return format == .y4m
            case let .video(path, _): return !path.lowercased().hasSuffix(".gif")
            }
        }
    }
    /// Where a GLES renderer runs: an EGL platform and which of its devices (nil: each platform in turn, a
    /// hardware device before a software one).
    public var glesTarget: BackendChoice.GLESTarget?
    /// CPU compositor threads (all cores when nil; with a `pool`, at most the pool's threads less one).
    public var threads: Int?
    /// Threads and memory shared with other jobs: the job waits for its lease before it creates its outputs
    /// (see `JobPool`); nil: the job checks the machine's memory alone and starts a thread per core.
    public var pool: JobPool?
    /// PNG compression, 0 (fastest) ... 9 (smallest).
    public var pngLevel = RenderJob.defaultPNGLevel
    /// Input images with more pixels are refused from their header, before they are decoded.
    public var maxPixels = Limits.maxPixels
    /// The most frames the job may have (`Limits.maxFrames` unless set); known before anything starts.
    public var maxFrames = Limits.maxFrames
    /// A directory every path the job reads and writes must lie within, once `..` and symbolic links are
    /// resolved (nil: anywhere): screens and clips, a storyboard's tracks, shaders, shaders' images and effect
    /// files (confined as the storyboard is read, so set it with `init(storyboardFile:output:root:)` or
    /// `init(storyboardJSON:output:root:)` for those), and the outputs. A path outside it is a problem naming the
    /// path (at its JSON path in a storyboard), before anything is read or written.
    public var root: String?
    /// Only frames `k` with `k mod count == index`.
    public var shard: Shard = .whole
    /// Only the timeline's frames in this range (a preview of one frame of a storyboard, or a few): frame `k`
    /// is still the timeline's frame `k`, drawn as the whole job draws it. Nil: every frame.
    public var frameRange: Range<Int>?
    /// Only the contiguous frames of this chunk (`Chunk.frames(of:)`), encoded as a video of their own in the
    /// chunk directory beside the job's one video output, to be joined with the others (`ChunkedVideo`).
    public var chunk: Chunk?
    /// Skip frames already complete in the output directory (see `FrameDirectory`: a regular file named
    /// `frame_%05d.png`, recorded in the directory's manifest for this job with the hash its bytes have).
    public var resume = false
    /// Replace frames of another job in the output directory: without it (or `resume`), a directory holding
    /// frames that the manifest does not vouch for as this job's is refused (a usage error).
    public var overwrite = false
    /// The storyboard file the job was read from: problems are reported at their JSON paths in it, and relative
    /// screen paths are resolved from its directory. Nil for a job made in code or from command-line options,
    /// whose first problem is reported as it is.
    package var storyboardFile: String?
    /// Problems found while reading the storyboard file (`Storyboard.parse`), reported with the rest.
    package var parseProblems: [JSONProblem] = []
    /// The JSON path of each step, for problems (`Storyboard.Parsed.stepPaths`).
    package var stepPaths: [String]?

    /// The PNG compression level used unless `--png-level` says otherwise. Measured on one 1920x1080 frame each
    /// of circle-spread between the sample screens, of text lines and of a photo-like picture (release build,
    /// 2 shared cores, one thread; segue-bench's PNG section, with the row work in C), ms / KiB per frame,
    /// PNGEncoder (libdeflate 1.14): level 0 1.2 / 6076 (stored); 2: screens 7.4 / 42, text 7.3 / 44, photo
    /// 36 / 1932; 4: 8.1 / 38, 8.1 / 38, 66 / 1834; 6: 9.4 / 38, 10.4 / 35, 216 / 1750; 9: 0.47-0.99 s / 37,
    /// 30, 1633. Level 2 stays the knee: level 4 buys 5-14% smaller files at 1.1x the time on flat screens
    /// and text but 1.9x on a photo, and levels 6-9 3-60x the time there. The libspng encoder used before took
    /// 34 / 66, 50 / 68 and 93 / 2241 at its level 2.
    public static let defaultPNGLevel = 2

    /// A job of `storyboard` written to `output`.
    public init(storyboard: Storyboard, output: Output) {
        self.storyboard = storyboard
        outputs = [output]
    }

    /// A job of one transition from `from` to `to` (paths or samples), at `fps` frames per second.
    public init(_ transition: Transition, from: String, to: String, fps: Double = 60, scale: Double = 1,
                size: (width: Int, height: Int)? = nil, background: Color = .black, output: Output) {
        self.init(storyboard: Storyboard(fps: fps, scale: scale, size: size, background: background,
                                         screens: ["from": from, "to": to],
                                         timeline: [.transition(transition, from: "from", to: "to")]),
                  output: output)
    }

    /// A job of one transition from the image `from` to the image `to` (`images["from"]`, `images["to"]`),
    /// at `fps` frames per second.
    public init(_ transition: Transition, from: Pixmap, to: Pixmap, fps: Double = 60, scale: Double = 1,
                size: (width: Int, height: Int)? = nil, background: Color = .black, output: Output) {
        self.init(transition, from: Screens.memoryPrefix + "from", to: Screens.memoryPrefix + "to", fps: fps, scale: scale,
                  size: size, background: background, output: output)
        images = ["from": from, "to": to]
    }

    /// Reads a storyboard file: its problems are kept in `parseProblems` and reported by `run`, with those
    /// of its screens and steps, before anything renders. Tracks, shaders and shaders' images are read
    /// relative to it. With a `root`, the file and every path the job reads and writes must lie within it
    /// (see `root`).
    public init(storyboardFile file: String, output: Output, root: String? = nil) throws {
        if let root, let problem = Root(root).problem(file) {
            throw SegueError(.inputUnreadable(path: file), problem)
        }
        let data: Data
        do {
            data = Data(try InputFile.read(file, limit: Self.textLimit))
        } catch let ImageIOError.unreadable(_, reason) {
            throw SegueError(.inputUnreadable(path: file), "cannot read the storyboard '\(file)': \(reason)")
        } catch {
            throw SegueError.from(error)
        }
        let parsed = Self.parseStoryboard(data, resolve: Self.resolver(file), root: root)
        self.init(storyboard: parsed.storyboard, output: output)
        self.root = root
        storyboardFile = file
        parseProblems = parsed.problems
        stepPaths = parsed.stepPaths
    }

    /// A storyboard from its JSON text, as a program builds one: its problems are kept in `parseProblems` and
    /// reported by `run` with those of its screens and steps (a `SegueError` of kind `invalidInput`, a line a
    /// problem), before anything renders. Paths in it (screens, tracks, shaders, effect files) are relative to
    /// the current directory. With a `root`, every path the job reads and writes must lie within it (see `root`).
    public init(storyboardJSON text: String, output: Output, root: String? = nil) {
        let parsed = Self.parseStoryboard(Data(text.utf8), resolve: Self.resolver(nil), root: root)
        self.init(storyboard: parsed.storyboard, output: output)
        self.root = root
        parseProblems = parsed.problems
        stepPaths = parsed.stepPaths
    }

    /// Parses a storyboard, reading what its steps name (tracks, shaders, shaders' images, effect files)
    /// through `resolve`, each within `root` when there is one.
    private static func parseStoryboard(_ data: Data, resolve plain: @escaping @Sendable (String) -> String,
                                        root: String?) -> Storyboard.Parsed {
        let resolve = confined(plain, to: root)
        return Storyboard.parse(json: data, loadTrack: { track in
            String(decoding: try InputFile.read(resolve(track), limit: Self.textLimit), as: UTF8.self)
        }, loadShader: { spec in
            // A file relative to the storyboard, else a shipped transition's name.
            try ShaderLibrary.load(FileManager.default.fileExists(atPath: plain(spec)) ? resolve(spec) : spec)
        }, loadImage: { path in
            // A sampler2D parameter's image, relative to the storyboard.
            try ShaderLibrary.image(resolve(path))
        }, loadEffect: { path in
            // An effect file, relative to the storyboard.
            try EffectFiles.load(resolve(path))
        })
    }

    /// The largest storyboard or drag track read (`Limits.maxTextBytes`).
    public static let textLimit = Limits.maxTextBytes

    /// Whether `path` names a video that ffmpeg writes, by its extension: `OutputPlan.isVideo`, which decides
    /// what an output path means.
    public static func isVideoPath(_ path: String) -> Bool {
        OutputPlan.isVideo(path)
    }

    /// ffmpeg arguments given as one text, split as a shell splits words and checked (`FFmpegArguments`).
    public static func ffmpegArguments(_ text: String?) throws -> [String]? {
        guard let text else { return nil }
        let words = try FFmpegArguments.split(text)
        try FFmpegArguments.check(words)
        return words
    }

    /// Paths in a storyboard file are relative to it; samples, images in memory and absolute paths are as they are.
    package static func resolver(_ storyboardFile: String?) -> @Sendable (String) -> String {
        let base = storyboardFile.map { PathName.parent($0) } ?? ""
        return { path in
            path.hasPrefix("/") || path.hasPrefix("sample:") || path.hasPrefix(Screens.memoryPrefix) || base.isEmpty
                ? path : PathName.join(base, path)
        }
    }

    /// What a run did.
    public struct Summary: Sendable {
        /// Frames drawn and written.
        public var rendered: Int
        /// Frames skipped because `resume` found them complete.
        public var skipped: Int
        /// The frames' width in pixels.
        public var width: Int
        /// The frames' height in pixels.
        public var height: Int
        /// The renderer that drew them (`cpu`, `gles`).
        public var renderer: String
    }

    /// What a job tells while it runs, each on the thread where it happens, one call at a time.
    public struct Observer: Sendable {
        /// Something the user should know whatever else they asked (a fallback, a skipped output).
        public var note: @Sendable (String) -> Void
        /// How the job is getting on ("resuming: ..."), for a progress display.
        public var status: @Sendable (String) -> Void
        /// Frames complete so far, of `total`.
        public var progress: @Sendable (_ done: Int, _ total: Int) -> Void

        /// An observer of what it is given (by default, one that ignores everything).
        public init(note: @escaping @Sendable (String) -> Void = { _ in },
                    status: @escaping @Sendable (String) -> Void = { _ in },
                    progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }) {
            self.note = note
            self.status = status
            self.progress = progress
        }
    }

    /// Renders the job. `renderer` draws when given (a demo reuses one), else one is made from `backend`.
    /// `control` stops it after the frame in flight, removing partial output (`SegueError.interrupted`), and
    /// tells a watchdog how the job is getting on.
    @discardableResult
    public func run(renderer given: (any Renderer)? = nil, control: JobControl? = nil,
                    observer: Observer = Observer()) throws(SegueError) -> Summary {
        try SegueError.converting { try run(renderer: given, control: control, observer: observer, memory: nil) }
    }

    /// Renders the job's frames into memory, in order, ignoring `outputs` (for contact sheets and programs
    /// that use the pixels themselves).
    public func frames(renderer given: (any Renderer)? = nil) throws(SegueError) -> [Pixmap] {
        let memory = MemoryStream()
        _ = try SegueError.converting { try run(renderer: given, control: nil, observer: Observer(), memory: memory) }
        return memory.frames
    }

    /// `memory`: a stream that takes every frame's pixels in order in place of `outputs` (`frames`,
    /// `frameStream`). The job is checked, planned, then executed: nothing is written before the plan is made.
    func run(renderer given: (any Renderer)?, control givenControl: JobControl?, observer: Observer,
             memory: (any FrameStream)?) throws -> Summary {
        try checkRequest()
        try checkRoot(outputs: memory == nil)
        if memory == nil { try checkOutputs() }
        if memory == nil, let rate = gifRate, rate != storyboard.fps {
            // The whole job at the GIF's rate: every frame drawn is a frame shown, each for the same time.
            observer.note("a GIF's frame delays are whole hundredths of a second (players show a delay under 2 as 10): rendering at \(rate.compact) frames/s instead of \(storyboard.fps.compact)")
            var adjusted = self
            adjusted.storyboard.fps = rate
            return try adjusted.run(renderer: given, control: givenControl, observer: observer, memory: memory)
        }
        let control = givenControl ?? JobControl()
        control.jobBegan()
        defer { control.jobEnded() }
        control.touch("reading the screens", timed: false)
        defer { control.idle() }
        let plan = try self.plan(renderer: given, control: control, observer: observer, memory: memory)
        defer { plan.lease?.release() }
        if let done = plan.done { return done }
        return try execute(plan, control: control, observer: observer)
    }

    /// What a job will do, worked out before it writes anything: its inputs read, its renderer made and custom
    /// shaders compiled, the frames in flight that memory allows, the schedule and the runs of frames still to
    /// draw, and its outputs created (`makeSink`).
    struct Plan {
        var inputs: Inputs
        var renderer: any Renderer
        /// Each custom shader step's compiled shader, by step.
        var prepared: [Int: any PreparedShader]
        var inFlight: Int
        var schedule: FrameSchedule
        /// The frames to draw, in runs of one step each (resumed frames left out).
        var runs: [FrameSchedule.Run]
        var sink: Sink
        /// Encoding threads (the cores, or what the pool's lease allows).
        var encoders: Int? = nil
        /// The job's lease of its pool, given back when the plan goes.
        var lease: JobPool.Lease? = nil
        var chunked: (video: ChunkedVideo, manifest: ChunkedVideo.Manifest)?
        /// Frames found complete by `resume`, and frames to draw.
        var skipped: Int, total: Int
        /// The job's result when there is nothing to draw (a resumed chunk already complete).
        var done: Summary?
    }

    func plan(renderer given: (any Renderer)?, control: JobControl, observer: Observer, memory: (any FrameStream)?) throws -> Plan {
        let threads = try poolThreads()
        if let size = storyboard.size {
            // The size is known before any screen is read: a job that cannot fit is refused before it reads one.
            _ = try Self.framesInFlight(width: size.width, height: size.height, screens: storyboard.usedScreens.count,
                                        clips: storyboard.usedScreens.filter { storyboard.screens[$0].map(ClipReader.isClip) ?? false }.count,
                                        gles: backend.isGLES || storyboard.timeline.contains { $0.name.hasPrefix("shader:") },
                                        blurred: isBlurred, screensHeld: false, pool: pool)
        }
        let inputs = try loadInputs(control: control)
        let (width, height) = inputs.size
        try control.check()

        let shaderSteps = storyboard.timeline.indices.filter { if case .shader = storyboard.timeline[$0] { true } else { false } }
        let renderer = try given ?? backend.makeRenderer(
            on: glesTarget, threads: threads.compositor,
            needsShaders: shaderSteps.first.map { step -> SegueError.Message in
                storyboardFile == nil ? "\(option: .shader, "the custom shader")" : "step \(step) of the timeline is a custom shader, which"
            },
            frameSize: (width, height), planes: leavesAsPlanes, note: observer.note)
        if let step = shaderSteps.first, !renderer.capabilities.contains(.customShaders) {
            throw SegueError(.unsupported(backend: renderer.name), "step \(step) of the timeline is a custom shader, which the \(renderer.name) backend does not run (it needs GLES)")
        }
        // Every custom shader compiled before any output exists: a compile error leaves nothing behind.
        var prepared: [Int: any PreparedShader] = [:]
        for i in shaderSteps {
            guard case let .shader(step, _, _) = storyboard.timeline[i] else { continue }
            control.touch("compiling the custom shader \(step.transition.name)")
            prepared[i] = try renderer.prepareShader(step.transition, values: step.values)
            try control.check()
        }

        // Frames in flight cut to what memory allows; a job that cannot fit with one is refused before it writes.
        let inFlight = try Self.framesInFlight(width: width, height: height, screens: inputs.screens.count + inputs.clips.count,
                                               clips: inputs.clips.count,
                                               gles: renderer.capabilities.contains(.pipelinedReadback), blurred: isBlurred,
                                               screensHeld: true, pool: pool)
        let schedule = progress.map {
            FrameSchedule(progress: $0, duration: storyboard.timeline.first?.duration ?? 1, fps: storyboard.fps)
        } ?? FrameSchedule(storyboard)
        let chunkFrames = try chunk?.frames(of: schedule.count)
        if let frameRange, frameRange.isEmpty || frameRange.lowerBound < 0 || frameRange.upperBound > schedule.count {
            throw SegueError.invalidOption("frameRange", value: "\(frameRange.lowerBound)..<\(frameRange.upperBound)",
                                           "the frames \(frameRange.lowerBound)..<\(frameRange.upperBound) are not within the job's \(schedule.count) frames")
        }
        let wanted = frameRange.map { range in chunkFrames.map { range.clamped(to: $0) } ?? range } ?? chunkFrames
        var runs = schedule.runs(shard: shard, in: wanted)
        // The pool's lease, before any output exists: a job waiting for it has created nothing.
        let lease = try pool?.lease(threads: threads.compositor! + threads.encoders!,
                                    memory: MemoryBudget(frameBytes: width * height * 4, screens: inputs.screens.count + inputs.clips.count,
                                                         clips: inputs.clips.count, gles: renderer.capabilities.contains(.pipelinedReadback),
                                                         blurred: isBlurred).peak(inFlight: inFlight),
                                    control: control)
        if lease != nil { control.touch("creating the outputs", timed: false) }
        control.creatingOutput()
        var chunked: (video: ChunkedVideo, manifest: ChunkedVideo.Manifest)?
        if memory == nil, let chunk, let chunkFrames, case let .video(path, arguments)? = outputs.first {
            let video = ChunkedVideo(path)
            let manifest = ChunkedVideo.Manifest(job: chunkKey(pictureKey(inputs, frameCount: schedule.count), arguments: arguments),
                                                 frames: schedule.count, chunks: chunk.count, width: width, height: height,
                                                 fps: storyboard.fps)
            if try video.open(manifest, chunk: chunk, replace: overwrite || resume), resume {
                observer.status("resuming: chunk \(chunk) (\(chunkFrames.count) frames) is already complete")
                return Plan(inputs: inputs, renderer: renderer, prepared: prepared, inFlight: inFlight, schedule: schedule, runs: [],
                            sink: Sink(outputs: .init(directory: nil, pngLevel: pngLevel, opaque: true, stream: nil)), lease: lease,
                            skipped: chunkFrames.count, total: 0,
                            done: Summary(rendered: 0, skipped: chunkFrames.count, width: width, height: height, renderer: renderer.name))
            }
            chunked = (video, manifest)
        }
        let sink = try makeSink(width: width, height: height, memory: memory, control: control, frameCount: schedule.count,
                                videoFile: chunked.map { $0.video.chunkPath(chunk!.index, of: chunk!.count) },
                                colourSpace: inputs.colourSpace,
                                key: { pictureKey(inputs, frameCount: schedule.count) })
        var skipped = 0
        if !sink.complete.isEmpty {
            for i in runs.indices {
                let before = runs[i].frames.count
                runs[i].frames.removeAll { sink.complete.contains($0.index) }
                skipped += before - runs[i].frames.count
            }
        }
        let total = runs.reduce(0) { $0 + $1.frames.count }
        if skipped > 0 { observer.status("resuming: \(skipped) frames already complete, \(total) to render") }
        return Plan(inputs: inputs, renderer: renderer, prepared: prepared, inFlight: inFlight, schedule: schedule, runs: runs,
                    sink: sink, encoders: threads.encoders, lease: lease, chunked: chunked, skipped: skipped, total: total)
    }

    /// Draws the plan's runs into its outputs: each run's snapshots loaded (clips decoded as the frames need
    /// them), its frames drawn in order and handed to the frame pipeline.
    func execute(_ plan: Plan, control: JobControl, observer: Observer) throws -> Summary {
        let (width, height) = plan.inputs.size
        let total = plan.total
        let pipeline = try FramePipeline(outputs: plan.sink.outputs, workers: plan.encoders, capacity: plan.inFlight,
                                         progress: { observer.progress($0, total) })
        // One decoder per clip, shared by the runs that show it: frames are asked for in order.
        var readers: [String: ClipReader] = [:]
        for (name, clip) in plan.inputs.clips.sorted(by: { $0.key < $1.key }) {
            // An HDR clip is tone-mapped; the job says so once.
            if let note = clip.colour.toneMapNote(path: clip.path, into: plan.inputs.colourSpace) { observer.note(note) }
            readers[name] = ClipReader(path: clip.path, source: clip.size, quarterTurns: clip.quarterTurns, colour: clip.colour,
                                       space: plan.inputs.colourSpace, alpha: !clip.isOpaque,
                                       width: width, height: height, fps: storyboard.fps,
                                       playback: storyboard.playback[name] ?? ClipPlayback(), control: control,
                                       note: observer.note)
        }
        defer { readers.values.forEach { $0.stop() } }
        let driverRuns = plan.runs.map { driverRun($0, of: plan, readers: readers) }
        let paths = backend.forcesCompute ? plan.renderer as? any MultiPathRenderer : nil
        let before = paths.map { ($0.fallbacks, $0.framesByPath.values.reduce(0, +)) }
        // The directory (its lock, its manifest) lives until the last frame is written.
        try withExtendedLifetime(plan.sink) {
            try FrameDriver.render(driverRuns, with: plan.renderer, into: pipeline, control: control)
        }
        // A job that asked for a compute path is told, once, of the frames that path could not draw.
        if let paths, let before {
            let fell = paths.fallbacks.compactMap { reason, n -> String? in
                let k = n - (before.0[reason] ?? 0)
                return k > 0 ? "\(k) \(reason)" : nil
            }.sorted()
            if !fell.isEmpty {
                let total = paths.framesByPath.values.reduce(0, +) - before.1
                observer.note("the \(paths.currentPath) path could not draw every frame of \(total) (\(fell.joined(separator: "; "))); "
                              + "the raster path drew those, the same picture")
            }
        }
        if let chunked = plan.chunked, let chunk { try chunked.video.record(chunk, of: chunked.manifest) }
        return Summary(rendered: total, skipped: plan.skipped, width: width, height: height, renderer: plan.renderer.name)
    }

    /// How the frame driver draws one run of the plan: the step's screens in their slots (`Storyboard.Step.slots`),
    /// a clip's next frame where it changes, and each frame as draw items or a custom shader, with motion blur's
    /// samples averaged.
    private func driverRun(_ run: FrameSchedule.Run, of plan: Plan, readers: [String: ClipReader]) -> FrameDriver.Run {
        let inputs = plan.inputs, schedule = plan.schedule, board = storyboard
        let (width, height) = inputs.size
        // The effect's colours and the background are sRGB values, converted into the working space.
        let space = inputs.colourSpace
        let scale = board.scale, background = space.converting(sRGB: board.background), frameSize = inputs.frame
        let colours: (Scene) -> Scene = space == .srgb ? { $0 } : { $0.mappingColours(space.converting(sRGB:)) }
        /// Screen `name` as frame `k` shows it: a still, or the clip's frame at its clock (`k`'s time from the first
        /// step that shows it), with that frame's index.
        func picture(_ name: String, _ k: Int) throws -> (pixmap: Pixmap, clipFrame: Int?) {
            guard let reader = readers[name] else { return (inputs.screens[name]!, nil) }
            let j = reader.index(atClock: schedule.time(of: k) - board.firstShown(name))
            return (try reader.frame(j), j)
        }
        let step = board.timeline[run.step]
        let frames = run.frames
        let indices = frames.map(\.index)
        // Motion blur: frame n is the mean of its shutter samples, each drawn as a frame of its own.
        // (A clip shows frame n's picture in every sample.)
        let blur = board.motionBlur(ofStep: run.step)
        func blurred(_ n: Int, _ draw: @escaping (FrameSchedule.Frame) -> RenderFrame) -> RenderFrame {
            guard let blur else { return draw(frames[n]) }
            return .average(schedule.samples(of: frames[n].index, motionBlur: blur).map(draw))
        }
        let (slots, drawn) = step.slots
        var shown: [Int: Int] = [:]  // slot -> the clip frame it holds
        let snapshots = { () throws -> [Pixmap] in
            guard let first = indices.first else { return [] }
            return try slots.enumerated().map { slot, name in
                let (pixmap, j) = try picture(name, first)
                shown[slot] = j
                return pixmap
            }
        }
        let updates = { (n: Int) throws -> [(slot: Int, pixmap: Pixmap)] in
            var changed: [(slot: Int, pixmap: Pixmap)] = []
            for slot in drawn where readers[slots[slot]] != nil {
                let (pixmap, j) = try picture(slots[slot], indices[n])
                if shown[slot] != j {
                    shown[slot] = j
                    changed.append((slot, pixmap))
                }
            }
            return changed
        }
        let sources = slots.map { board.screens[$0] ?? $0 }
        if case let .shader(shaderStep, _, _) = step, let shader = plan.prepared[run.step] {
            return FrameDriver.Run(
                snapshots: snapshots, updates: updates, indices: indices, sources: sources, what: "shader:\(shaderStep.transition.name)",
                frame: { n in blurred(n) { .shader(shader, progress: shaderStep.progress(at: $0.t), width: width, height: height,
                                                   background: background) } })
        }
        // A clip is opaque when its pixel format has no alpha; else any frame may be translucent.
        let info = slots.map { name in
            inputs.screens[name].map(SnapshotInfo.init)
                ?? SnapshotInfo(width: width, height: height, isOpaque: inputs.clips[name]?.isOpaque ?? false)
        }
        return FrameDriver.Run(snapshots: snapshots, updates: updates, indices: indices, sources: sources,
                               what: step.name, frame: { n in
            blurred(n) { .layers(DrawList(scene: colours(board.scene($0, size: frameSize)!), scale: scale,
                                          snapshots: info, background: background)) }
        })
    }

    /// The compositor's threads (nil: the cores, or `threads`) and the encoders' (nil: the cores): within the
    /// pool's threads when there is one (both then set), refused at once when the pool cannot give a job its
    /// least (`JobPool.minimumThreads`).
    func poolThreads() throws(SegueError) -> (compositor: Int?, encoders: Int?) {
        guard let pool else { return (threads, nil) }
        guard pool.threads >= JobPool.minimumThreads else {
            throw SegueError(.resourceLimit(name: "threads"), "a job needs at least \(JobPool.minimumThreads) threads (one drawing, one encoding), but its job pool has \(pool.threads)")
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let compositor = max(1, min(threads ?? cores, pool.threads - 1))
        return (compositor, max(1, min(cores, pool.threads - compositor)))
    }

    /// True when any step is drawn with motion blur.
    var isBlurred: Bool { storyboard.timeline.indices.contains { storyboard.motionBlur(ofStep: $0) != nil } }

    /// How many frames may be in flight for frames of `width` x `height` with `screens` screens (held in memory
    /// already or not), `clips` of them clips (each read ahead), as many as memory allows up to two per core;
    /// throws when not even one fits.
    static func framesInFlight(width: Int, height: Int, screens: Int, clips: Int = 0, gles: Bool, blurred: Bool,
                               screensHeld: Bool, pool: JobPool? = nil) throws -> Int {
        let budget = MemoryBudget(frameBytes: width * height * 4, screens: screens, clips: clips, gles: gles, blurred: blurred)
        let held = screensHeld ? budget.frameBytes * screens : 0
        let machine = MemoryBudget.available(threads: budget.threads).map { $0 + held }
        // Within the pool's whole memory too: a job that cannot fit there would wait for ever.
        let available = pool.map { p in machine.map { min($0, p.memoryBytes) } ?? p.memoryBytes } ?? machine
        guard let inFlight = budget.inFlight(wanted: 2 * ProcessInfo.processInfo.activeProcessorCount, available: available) else {
            throw SegueError(.resourceLimit(name: "memory"), """
                a \(width)x\(height) job needs about \(MemoryBudget.mebibytes(budget.peak(inFlight: 1))) at its peak \
                (\(screens) screens\(clips > 0 ? ", \(clips * ClipReader.framesAhead) clip frames read ahead" : ""), a frame in flight, encoders\(gles ? ", GLES textures and readback" : "")), \
                but \(MemoryBudget.mebibytes(available ?? 0)) are available\(pool.map { available == $0.memoryBytes ? " in its job pool" : "" } ?? "")
                """)
        }
        return inFlight
    }

    // MARK: Inputs

    /// The screens at the job's pixel size, and the frame in points.
    struct Inputs {
        var screens: [String: Pixmap]
        /// Screens that are video clips, decoded as the job draws.
        var clips: [String: Screens.Clip] = [:]
        var size: (width: Int, height: Int)
        var frame: Size
        /// The working space (`colourSpace` resolved against the inputs).
        var colourSpace: ColourSpace = .srgb
    }

    /// Reads every screen and checks every step against the frame; every problem is reported together for a
    /// storyboard file, the first one as it is otherwise. Clips are probed with `control` (timed work, its
    /// children ended on a signal).
    func loadInputs(control: JobControl? = nil) throws -> Inputs {
        if storyboard.timeline.isEmpty && parseProblems.isEmpty {
            throw SegueError(.invalidInput(path: storyboardFile), "the timeline has no steps")
        }
        let frames = progress?.count ?? storyboard.schedule.count
        if frames > maxFrames {
            let what = "\(storyboard.schedule.duration.compact) s at \(storyboard.fps.compact) frames/s is \(frames) frames, more than the limit of \(maxFrames)"
            throw SegueError(.resourceLimit(name: "maxFrames"), storyboardFile.map { "\($0): $.timeline: \(what)" } ?? what)
        }
        // Each clip is probed once, with `control`: for `auto`'s choice of space and for its size and colour.
        let resolve = Self.resolver(storyboardFile)
        var probes: [String: Result<ClipReader.Probe, any Error>] = [:]
        for source in storyboard.screens.values where !source.hasPrefix(Screens.memoryPrefix) && ClipReader.isClip(resolve(source)) {
            let path = resolve(source)
            if probes[path] == nil { probes[path] = Result { try ClipReader.probe(path, control: control) } }
        }
        let space = try workingSpace(clips: probes)
        let loaded = Screens.load(storyboard.screens, order: storyboard.usedScreens,
                                  size: storyboard.size.map { ($0.width, $0.height) }, scale: storyboard.scale,
                                  maxPixels: maxPixels, memory: images, control: control, space: space, probes: probes,
                                  resolve: resolve)
        let size = loaded.size ?? Screens.defaultSize(scale: storyboard.scale)
        let frame = Size(Double(size.width) / storyboard.scale, Double(size.height) / storyboard.scale)
        guard let file = storyboardFile else {
            if !parseProblems.isEmpty { throw SegueError(.invalidInput(path: nil), problems: parseProblems) }
            if let first = loaded.problems.first { throw first.error }
            for step in storyboard.timeline {
                if case let .transition(t, _, _) = step { try t.validate(frame: frame) }
                if case let .interactive(t, _, _, _) = step { try t.validate(frame: frame) }
            }
            return Inputs(screens: loaded.images, clips: loaded.clips, size: size, frame: frame, colourSpace: space)
        }
        let screenProblems = loaded.problems.map { JSONProblem("$.screens.\($0.name)", $0.error.message) }
        let problems = parseProblems + screenProblems + storyboard.problems(frame: frame, stepPaths: stepPaths)
        if !problems.isEmpty {
            // Unreadable images alone are a failure; anything the file itself says wrong is a usage error.
            let onlyImages = problems.count == screenProblems.count
                && loaded.problems.allSatisfy { !$0.error.isUsageError }
            throw SegueError(onlyImages ? loaded.problems[0].error.kind : .invalidInput(path: file), problems: problems, file: file)
        }
        return Inputs(screens: loaded.images, clips: loaded.clips, size: size, frame: frame, colourSpace: space)
    }

    /// `colourSpace` resolved: for `auto`, whether any still image the screens name says it is wider than sRGB
    /// (from its header), or any clip's primaries are (`clips`: their probes by path); one that cannot be read is
    /// left to `Screens.load` to report. A GIF output cannot carry Display P3: `auto` gives sRGB for it, and
    /// `displayP3` is refused.
    func workingSpace(clips: [String: Result<ClipReader.Probe, any Error>] = [:]) throws(SegueError) -> ColourSpace {
        let gif = outputs.contains { if case let .video(path, _) = $0 { path.lowercased().hasSuffix(".gif") } else { false } }
        if gif && colourSpace == .displayP3 {
            throw SegueError.invalidOption("colourSpace", value: "displayP3", "a GIF cannot carry Display P3 (it has no colour profile): render it with \(option: .colourSpace, value: "srgb")")
        }
        guard colourSpace == .auto, !gif else { return colourSpace.resolved(anyInputIsWide: false) }
        let resolve = Self.resolver(storyboardFile)
        let wide = storyboard.screens.values.contains { source in
            guard !source.hasPrefix("sample:"), !source.hasPrefix(Screens.memoryPrefix) else { return false }
            let path = resolve(source)
            if ClipReader.isClip(path) { return (try? clips[path]?.get())?.colour.isWide ?? false }
            return (try? ImageDecoder.colour(contentsOf: path, maxPixels: maxPixels).isWide) ?? false
        }
        return colourSpace.resolved(anyInputIsWide: wide)
    }

    // MARK: Output

    /// A hash of everything that determines the job's pictures: the frame size, scale, fps, background, PNG
    /// level, `progress`, each screen's pixels after resampling, every step (effect, options, curve, duration,
    /// direction, track, a shader's source and parameter values) and the frame count. Not the backend, threads,
    /// EGL platform, shard or outputs. Two runs with the same key write the same frames (byte for byte on the
    /// same backend), so `resume` may keep one's frames for the other.
    func pictureKey(_ inputs: Inputs, frameCount: Int) -> String {
        func exact(_ value: Any) -> String {
            var text = ""
            dump(value, to: &text)
            return text
        }
        func transition(_ t: Transition) -> String {
            exact((t.effect.identity, t.direction.rawValue, t.curve, t.duration))
                + t.options.setNames.map { "\($0)=\(exact(t.options[$0]!))" }.joined(separator: ";")
        }
        var h = ContentHash()
        h.combine("segue-frames 1")
        h.combine(exact((inputs.size.width, inputs.size.height, storyboard.scale, storyboard.fps, storyboard.background.description,
                         pngLevel, progress as Any, frameCount)))
        // The working space changes every value (and a PNG's chunks); sRGB adds nothing, so keys made before
        // colour management still hold.
        if inputs.colourSpace != .srgb { h.combine("colour space \(inputs.colourSpace.name)") }
        if storyboard.motionBlur != nil || !storyboard.stepMotionBlur.isEmpty {
            // Only a job that blurs changes its key (older directories keep theirs).
            h.combine("motion blur \(exact(storyboard.timeline.indices.map { storyboard.motionBlur(ofStep: $0) }))")
        }
        for name in storyboard.usedScreens.sorted() {
            h.combine(name)
            inputs.screens[name]?.pixels.withUnsafeBytes { h.combine($0) }
            if let clip = inputs.clips[name] {
                // A clip by its file (path, size, modification time) and how it plays, not its pixels.
                let attributes = try? FileManager.default.attributesOfItem(atPath: clip.path)
                h.combine("clip \(clip.path) \(exact((attributes?[.size] as? Int, (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970, storyboard.playback[name], storyboard.firstShown(name))))")
            }
        }
        for step in storyboard.timeline {
            switch step {
            case let .hold(screen, duration):
                h.combine("hold \(screen) \(exact(duration))")
            case let .transition(t, from, to):
                h.combine("transition \(from) \(to) \(transition(t))")
            case let .interactive(t, from, to, track):
                h.combine("interactive \(from) \(to) \(transition(t)) \(exact(track))")
            case let .shader(s, from, to):
                h.combine("shader \(from) \(to) \(exact((s.duration, s.curve, s.direction.rawValue)))")
                h.combine(s.transition.source)
                for (name, value) in s.values.sorted(by: { $0.key < $1.key }) { h.combine("\(name)=\(exact(value))") }
            }
        }
        return h.hex
    }

}

/// Frames kept in memory, in order (`RenderJob.frames`).
final class MemoryStream: FrameStream, @unchecked Sendable {
    private(set) var frames: [Pixmap] = []

    func register(with control: JobControl) {}

    func encode(_ frame: Pixmap, knownOpaque: Bool) throws -> FramePayload { .pixels(frame) }

    func write(_ payload: FramePayload) throws {
        if case let .pixels(frame) = payload { frames.append(frame) }
    }

    func finish() throws {}
    func abandon() { frames = [] }
}
