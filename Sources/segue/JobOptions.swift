import Foundation
import ArgumentParser
import SegueCore
import SegueRender

/// Options of every command that runs a job from arguments (`render`, `batch`): how it draws, encodes and
/// reports, and its limits. Declared and checked once.
struct JobOptions: ParsableArguments {
    @Option(help: ArgumentHelp("png, rgba (raw 8-bit RGBA, straight alpha) or y4m (YUV4MPEG2 that 'ffmpeg -i -' reads), in the job's --colour-space.", valueName: "name"))
    var format: String = "png"

    @Option(name: .customLong("y4m-chroma"), help: ArgumentHelp("y4m chroma: 444 (C444) or 420 (C420jpeg).", valueName: "444|420"))
    var y4mChroma: String = "444"

    @Option(name: .customLong("png-level"), parsing: .unconditional, help: ArgumentHelp("PNG compression level, 0 (fastest) ... 9 (smallest).", valueName: "n"))
    var pngLevel: Int = RenderJob.defaultPNGLevel

    @Option(help: ArgumentHelp("auto (what was measured fastest here for the job's size and output: the CPU compositor, or GLES on its raster or compute path; measured once a size class and cached, see segue info), cpu, gles (the faster GLES path), gles-raster or gles-compute. Custom shaders always use GLES.", valueName: "name"))
    var backend: String = "auto"

    @Option(name: .customLong("colour-space"), help: ArgumentHelp("""
        The colour space the job works in, which every output says: srgb, display-p3, or auto (Display P3 when an \
        input image or clip is wider than sRGB, as iPhone screenshots, photos and videos are; else sRGB). Inputs are \
        converted into it as they are read (HDR clips tone-mapped); colours in effects are sRGB values. PNG frames carry its profile, videos its tags; raw rgba and \
        y4m streams carry none: their values are in this space. A GIF is always sRGB.
        """, valueName: "name"))
    var colourSpace: String = "auto"

    /// `--colour-space`'s words.
    static let colourSpaces: [String: ColourSpaceChoice] = ["auto": .auto, "srgb": .srgb, "display-p3": .displayP3]

    @Option(name: .customLong("egl-platform"), help: ArgumentHelp("Force the EGL platform: gbm, device or surfaceless (default: the first that works, in that order), optionally one of its devices: device:1 (an index, as segue info lists them), gbm:/dev/dri/renderD129, or a DRM node alone.", valueName: "name"))
    var eglPlatform: BackendChoice.GLESTarget?

    @Option(parsing: .unconditional, help: ArgumentHelp("Threads for the CPU compositor (all cores by default).", valueName: "n"))
    var threads: Int?

    @Option(name: .customLong("max-pixels"), parsing: .unconditional, help: ArgumentHelp("Refuse input images with more pixels than this.", valueName: "n"))
    var maxPixels: Int = Limits.maxPixels

    @Option(name: .customLong("frame-timeout"), parsing: .unconditional, help: ArgumentHelp(
        "End the job (exit 1) when one frame, or compiling a custom shader, takes longer than this.", valueName: "s"))
    var frameTimeout: Double = 30

    @Option(name: .customLong("motion-blur"), parsing: .unconditional, help: ArgumentHelp(
        "Motion blur: each frame is the mean of N frames over the open shutter (1...64; 1 is none).", valueName: "n"))
    var motionBlur: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "With --motion-blur: the shutter angle in degrees, (0, 360]; open (DEGREES/360)/fps seconds from each frame's time (180).",
        valueName: "degrees"))
    var shutter: Double?

    @Option(help: ArgumentHelp("""
        With a video output: render only chunk I of N, the frames [I*F/N, (I+1)*F/N), as a video of its own in \
        VIDEO.chunks/ for 'segue join'; 'auto' takes I and N from the scheduler (\(Scheduler.all.map(\.indexVariable).joined(separator: ", "))).
        """, valueName: "I/N|auto"))
    var chunk: String?

    @Flag(help: "With --chunk: once every chunk is complete, join them into the video (the last chunk to finish does; see 'segue join').")
    var join = false

    @Flag(help: "Replace the frames of another job in the output directory (refused without it).")
    var overwrite = false

    @Flag(help: "No progress on standard error.")
    var quiet = false

    func validate() throws {
        guard frameTimeout > 0, frameTimeout <= 86400 else {
            throw ValidationError("--frame-timeout must be in (0, 86400] seconds, not \(frameTimeout.compact)")
        }
        guard BackendChoice(rawValue: backend) != nil else {
            throw ValidationError("unknown backend '\(backend)' (use auto, cpu, gles, gles-raster or gles-compute)")
        }
        guard Self.colourSpaces[colourSpace] != nil else {
            throw ValidationError("unknown colour space '\(colourSpace)' (use auto, srgb or display-p3)")
        }
        guard OutputFormat(rawValue: format) != nil else {
            throw ValidationError("unknown format '\(format)' (use png, rgba or y4m)")
        }
        guard Y4M.Chroma(rawValue: y4mChroma) != nil else { throw ValidationError("--y4m-chroma must be 444 or 420") }
        guard (0...9).contains(pngLevel) else { throw ValidationError("--png-level must be 0...9") }
        if let threads, !(1...256).contains(threads) { throw ValidationError("--threads must be 1...256") }
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be > 0") }
        if let motionBlur, let problem = MotionBlur(samples: motionBlur, shutter: shutter ?? MotionBlur.defaultShutter).problem {
            throw ValidationError("--motion-blur/--shutter: \(problem)")
        }
        if shutter != nil && motionBlur == nil { throw ValidationError("--shutter needs --motion-blur N") }
        if join && chunk == nil { throw ValidationError("--join needs --chunk I/N (or --chunk auto)") }
        if let chunk, chunk != "auto" {
            do { _ = try Chunk(parsing: chunk) } catch { throw ValidationError("--chunk: \(error.description)") }
        }
    }

    /// The chunk `--chunk` asks for: `I/N`, or the scheduler's task with `auto` (a usage error when no
    /// scheduler's index is set, or its variables are wrong).
    func chunk(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Chunk? {
        guard let chunk else { return nil }
        do {
            if chunk != "auto" { return try Chunk(parsing: chunk) }
            guard let task = try Scheduler.task(in: environment) else {
                throw ValidationError("--chunk auto: no scheduler's task index is set (\(Scheduler.all.map(\.indexVariable).joined(separator: ", "))): give --chunk I/N")
            }
            return try Chunk(task)
        } catch let error as Scheduler.Problem {
            throw ValidationError("--chunk auto: \(error.description)")
        } catch let error as Chunk.Problem {
            throw ValidationError("--chunk: \(error.description)")
        }
    }

    /// The motion blur `--motion-blur` and `--shutter` ask for.
    var blur: MotionBlur? { motionBlur.map { MotionBlur(samples: $0, shutter: shutter ?? MotionBlur.defaultShutter) } }

    /// Sets `job`'s backend, encoding and limits from these options.
    func configure(_ job: inout RenderJob) throws {
        job.chunk = try chunk()
        job.backend = BackendChoice(rawValue: backend)!
        job.colourSpace = Self.colourSpaces[colourSpace]!
        job.glesTarget = eglPlatform
        job.threads = threads
        job.pngLevel = pngLevel
        job.maxPixels = maxPixels
        job.overwrite = overwrite
    }

    /// Runs `job` with progress on standard error (unless --quiet), stopping on SIGINT/SIGTERM, under the
    /// --frame-timeout watchdog.
    @discardableResult
    func run(_ job: RenderJob) throws -> RenderJob.Summary {
        Signals.watch(frameTimeout: frameTimeout)
        let summary: RenderJob.Summary
        do {
            summary = try job.run(control: Signals.control, observer: JobConsole(quiet: quiet).observer)
        } catch {
            if job.chunk != nil, case let .outputInUse(directory, byRunningJob: false) = error.kind {
                throw SegueError(error.kind, "'\(directory)' holds the chunks of another job: use --overwrite to replace them, or --out another video")
            }
            throw error
        }
        if join, let chunk = job.chunk, case let .video(path, _)? = job.outputs.first {
            switch try ChunkedVideo(path).join(ifComplete: true, control: Signals.control) {
            case let .joined(chunks, frames):
                if !quiet { Console.note("joined \(chunks) chunks (\(frames) frames) into '\(path)'") }
            case .alreadyJoined:
                if !quiet { Console.note("'\(path)' is already joined from these chunks") }
            case let .notYet(problem):
                if !quiet { Console.note("chunk \(chunk) is complete; not joining yet: \(problem)") }
            }
        }
        return summary
    }
}
