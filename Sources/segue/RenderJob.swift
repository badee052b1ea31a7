import Foundation
import SegueCore
import Synchronization

/// One transition rendered to its output: inputs read and checked first, then frames drawn in order and
/// handed to the frame pipeline as they are ready. Nothing is written before every check has passed.
struct RenderJob {
    let transition: Transition
    let inputs: TransitionInputs
    let options: RenderOptions
    let times: [Double]
    /// Computed once: each `SnapshotInfo` scans its image for transparency.
    let snapshotInfo: [SnapshotInfo]

    init(effect: Effect, options: RenderOptions, effectOptions: EffectOptions) throws {
        self.options = options
        let transition = Transition(effect, direction: options.direction, options: effectOptions,
                                    curve: options.curve, duration: options.duration)
        self.transition = transition
        if options.track != nil && options.progress != nil {
            throw CLIFailure.usage("--track renders the whole interaction; it does not combine with --progress")
        }
        if options.threshold != nil && options.track == nil {
            throw CLIFailure.usage("--threshold needs --track")
        }
        // The track is read before the images: a bad track is a usage error and nothing is decoded.
        let track = try options.track.map { path in
            try InteractiveTrack(samples: try Self.readTrack(path), threshold: options.threshold ?? InteractiveTrack.defaultThreshold,
                                 duration: transition.duration)
        }
        inputs = try TransitionInputs.load(from: options.from, to: options.to, size: options.size,
                                           scale: options.scale, maxPixels: options.maxPixels)
        try transition.validate(frame: inputs.frame)
        snapshotInfo = inputs.snapshotInfo
        if let t = options.progress {
            times = [t]
        } else if let track {
            // The drag, then the finish or the cancel: frames at k/fps over the whole interaction.
            let last = Int((track.totalDuration * options.fps).rounded())
            times = (0...last).map { track.progress(at: Double($0) / options.fps) }
        } else {
            let span = options.fps * transition.duration
            times = (0...Int(span.rounded())).map { min(1, Double($0) / span) }
        }
    }

    /// The samples of a track CSV; errors name the file.
    static func readTrack(_ path: String) throws -> [InteractiveTrack.Sample] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIFailure.failure("cannot read the track '\(path)'")
        }
        do {
            return try InteractiveTrack.parseCSV(String(decoding: data, as: UTF8.self))
        } catch {
            throw CLIFailure.usage("track '\(path)': \(error)")
        }
    }

    func drawList(at t: Double) -> DrawList {
        DrawList(scene: transition.scene(at: t, frame: inputs.frame), scale: inputs.scale,
                 snapshots: snapshotInfo, background: options.background)
    }

    func run() throws {
        Interrupt.install()
        let format = OutputFormat(rawValue: options.format)!
        let renderer = try Backends.make(BackendChoice(rawValue: options.backend)!, platform: options.eglPlatform,
                                         threads: options.threads)
        // After the renderer: nothing is created unless it can draw.
        let outputs = try Self.makeOutputs(format, options: options, width: inputs.from.width, height: inputs.from.height)
        let pipeline = FramePipeline(outputs: outputs, total: times.count, quiet: options.quiet)
        let run = FrameDriver.Run(snapshots: inputs.snapshots, indices: Array(times.indices), list: { drawList(at: times[$0]) })
        try FrameDriver.render([run], with: renderer, into: pipeline)
    }

    /// Where `--out` and `--format` send frames of `width x height` pixels (shared with `ShaderRenderJob`).
    static func makeOutputs(_ format: OutputFormat, options: RenderOptions, width: Int, height: Int) throws -> FramePipeline.Outputs {
        let out = options.out
        if out == "-" || format != .png {
            let y4m = format == .y4m
                ? Y4M(width: width, height: height, fps: options.fps,
                      chroma: Y4M.Chroma(rawValue: options.y4mChroma)!)
                : nil
            return .init(directory: nil, pngLevel: options.pngLevel,
                         stream: try ByteStream(path: out, format: format, y4m: y4m, pngLevel: options.pngLevel))
        }
        if options.progress != nil {
            var isDirectory: ObjCBool = false
            if !(FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory) && isDirectory.boolValue) {
                // One named PNG file: a one-frame stream that appears complete or not at all.
                return .init(directory: nil, pngLevel: options.pngLevel,
                             stream: try ByteStream(path: out, format: .png, y4m: nil, pngLevel: options.pngLevel))
            }
        }
        let directory = try FrameDirectory(creating: out)
        directory.removeTemporaryFiles(owned: { _ in true })
        return .init(directory: out, pngLevel: options.pngLevel, stream: nil)
    }
}

/// SIGINT and SIGTERM ask the job to stop after the frame in flight; partial files are removed and the
/// command exits 130.
///
/// A job calls `install()` before it creates any output, so a signal that comes while it is still setting up
/// (a stream's temporary file already open, threads starting) is caught too: the first check, before the
/// first frame, then removes what was created. The flag is an atomic because the handler runs on whichever
/// thread the signal lands on.
enum Interrupt {
    private static let flag = Atomic<Int>(0)

    static var requested: Bool { flag.load(ordering: .relaxed) != 0 }

    static func install() {
        _ = requested  // initialises `flag` here, never first inside the handler
        // A parent may have started us with these blocked (a spawning thread's mask is inherited).
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        signal(SIGINT) { _ in Interrupt.flag.store(1, ordering: .relaxed) }
        signal(SIGTERM) { _ in Interrupt.flag.store(1, ordering: .relaxed) }
    }

    /// Throws the interruption (exit 130) once a signal has come.
    static func check() throws {
        if requested { throw CLIFailure(message: "interrupted", status: ExitStatus.interrupted) }
    }
}
