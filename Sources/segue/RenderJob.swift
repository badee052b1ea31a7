import Foundation
import SegueCore

/// One transition rendered to its output: inputs read and checked first, then frames drawn in order and
/// handed to the sink as they are ready. Nothing is written before every check has passed.
struct RenderJob {
    let transition: Transition
    let inputs: TransitionInputs
    let options: RenderOptions
    let times: [Double]

    init(effect: Effect, options: RenderOptions, effectOptions: EffectOptions) throws {
        self.options = options
        transition = Transition(effect, direction: options.direction, options: effectOptions,
                                curve: options.curve, duration: options.duration)
        inputs = try TransitionInputs.load(from: options.from, to: options.to, size: options.size,
                                           scale: options.scale, maxPixels: options.maxPixels)
        try transition.validate(frame: inputs.frame)
        if let t = options.progress {
            times = [t]
        } else {
            let span = options.fps * transition.duration
            times = (0...Int(span.rounded())).map { min(1, Double($0) / span) }
        }
    }

    func drawList(at t: Double) -> DrawList {
        DrawList(scene: transition.scene(at: t, frame: inputs.frame), scale: inputs.scale,
                 snapshots: inputs.snapshotInfo, background: options.background)
    }

    func run() throws {
        let format = OutputFormat(rawValue: options.format)!
        var sink = try makeSink(format)
        let renderer = try Backends.make(BackendChoice(rawValue: options.backend)!, platform: options.eglPlatform,
                                         threads: options.threads)
        try renderer.load(snapshots: inputs.snapshots)
        var progress = ProgressReporter(total: times.count, quiet: options.quiet)
        Interrupt.install()
        do {
            try renderer.drawFrames(count: times.count, list: { drawList(at: times[$0]) }, deliver: { index, frame in
                try sink.write(frame, index: index)
                progress.update(done: index + 1)
                if Interrupt.requested { throw CLIFailure(message: "interrupted", status: ExitStatus.interrupted) }
            })
            try sink.finish()
        } catch {
            sink.abandon()
            throw error
        }
    }

    private func makeSink(_ format: OutputFormat) throws -> FrameSink {
        let out = options.out
        let y4m = format == .y4m
            ? Y4M(width: inputs.from.width, height: inputs.from.height, fps: options.fps,
                  chroma: Y4M.Chroma(rawValue: options.y4mChroma)!)
            : nil
        if out == "-" || format != .png {
            return try StreamSink(path: out, format: format, y4m: y4m, compressionLevel: options.pngLevel)
        }
        if options.progress != nil {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory), isDirectory.boolValue {
                return PNGFilesSink(directory: out, singleFile: nil, compressionLevel: options.pngLevel)
            }
            return PNGFilesSink(directory: nil, singleFile: out, compressionLevel: options.pngLevel)
        }
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw CLIFailure.failure("cannot create the output directory '\(out)': \((error as NSError).localizedFailureReason ?? error.localizedDescription)")
        }
        return PNGFilesSink(directory: out, singleFile: nil, compressionLevel: options.pngLevel)
    }
}

/// SIGINT and SIGTERM ask the job to stop after the frame in flight; partial files are removed and the
/// command exits 130.
enum Interrupt {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0

    static var requested: Bool { flag != 0 }

    static func install() {
        signal(SIGINT) { _ in Interrupt.flag = 1 }
        signal(SIGTERM) { _ in Interrupt.flag = 1 }
    }
}
