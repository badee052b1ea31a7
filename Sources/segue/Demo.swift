import ArgumentParser
import Foundation
import SegueCore
import SegueImageIO
import SegueRender

/// `segue demo`: every effect in both directions, from the built-in sample screens.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render every effect in both directions from built-in sample screens (no input needed).",
        discussion: """
            Writes DIR/<effect>-<direction>/frame_00000.png ... (every frame at --fps) and \
            DIR/<effect>-<direction>.png, a strip of the frames at t = 0, 0.25, 0.5, 0.75 and 1.
            """)

    @Option(help: ArgumentHelp("Where to write.", valueName: "dir"))
    var out: String = "segue-demo"

    @Option(help: ArgumentHelp("Pixels per point of the 375x667-point sample screens.", valueName: "s"))
    var scale: Double = 1

    @Option(help: ArgumentHelp("Frames per second of each sequence.", valueName: "n"))
    var fps: Double = 30

    @Option(help: ArgumentHelp("auto, cpu or gles.", valueName: "name"))
    var backend: String = "auto"

    @Flag(help: "No progress on standard error.")
    var quiet = false

    func validate() throws {
        guard scale > 0, scale <= Limits.maxScale else { throw ValidationError("--scale must be in \(Limits.scaleText)") }
        guard Limits.fps.contains(fps) else { throw ValidationError("--fps must be in \(Limits.fpsText)") }
        guard let choice = BackendChoice(rawValue: backend) else { throw ValidationError("unknown backend '\(backend)' (use auto, cpu, gles, gles-raster or gles-compute)") }
        _ = choice
    }

    /// Each effect with its options' examples (the hero flies the home screen's first tile into the
    /// detail screen's header picture; the circles grow from the upper left).
    static func transition(_ effect: Effect, _ direction: Direction) -> Transition {
        Transition.example(effect, direction: direction)
    }

    func run() throws {
        let started = Date()
        Signals.watch(frameTimeout: 30)
        let renderer = try BackendChoice(rawValue: backend)!.makeRenderer(note: Console.note)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)

        let pairs = EffectCatalog.builtIn.flatMap { effect in Direction.allCases.map { (effect, $0) } }
        var frames = 0
        var size = (width: 0, height: 0)
        var progress = ProgressReporter(total: pairs.count, quiet: quiet, unit: "transitions")
        for (done, (effect, direction)) in pairs.enumerated() {
            // The same job as `segue render EFFECT --from sample:home --to sample:detail --fps N --scale S`.
            let directory = PathName.join(out, "\(effect.name)-\(direction.rawValue)")
            var job = RenderJob(Self.transition(effect, direction), from: "sample:home", to: "sample:detail", fps: fps,
                                scale: scale, output: .frames(directory: directory))
            job.overwrite = true  // the demo's folder is its own: a run with other settings replaces it
            let summary = try job.run(renderer: renderer, control: Signals.control)
            frames += summary.rendered
            size = (summary.width, summary.height)
            job.progress = [0, 0.25, 0.5, 0.75, 1]
            let strip = ContactSheet.strip(try job.frames(renderer: renderer), gap: Int(8 * scale))
            try FileWriter.writeAtomically(try PNGEncoder.encode(strip), to: directory + ".png")
            progress.update(done: done + 1)
        }
        let seconds = Date().timeIntervalSince(started)
        print("segue demo: wrote \(pairs.count) transitions (\(EffectCatalog.builtIn.count) effects x 2 directions), "
              + "\(frames) frames and \(pairs.count) contact sheets at \(size.width)x\(size.height) on \(renderer.name) "
              + "to \(out)/ in \(String(format: "%.1f", seconds)) s")
    }
}
