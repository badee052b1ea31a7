import ArgumentParser
import Foundation
import SegueCore
import SegueImageIO
import SegueSamples

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
        guard scale > 0, scale <= 8 else { throw ValidationError("--scale must be in (0, 8]") }
        guard fps > 0, fps <= 240 else { throw ValidationError("--fps must be in (0, 240]") }
        guard let choice = BackendChoice(rawValue: backend) else { throw ValidationError("unknown backend '\(backend)' (use auto, cpu or gles)") }
        _ = choice
    }

    /// The hero flies the home screen's first tile into the detail screen's header picture.
    static func options(for effect: Effect, frame: Size) -> EffectOptions {
        var o = EffectOptions()
        switch effect {
        case .hero:
            let gap = frame.width * 0.06, tile = (frame.width - gap * 5) / 4
            o.fromRect = Rect(gap, 100, tile, tile)
            o.toRect = Rect(0, 0, frame.width, frame.height * 0.42)
            o.fromRadius = tile * 0.22
            o.toRadius = 0
        case .circleSpread, .circleZoom:
            o.center = Point(frame.width * 0.3, frame.height * 0.25)
        default:
            break
        }
        return o
    }

    func run() throws {
        Interrupt.install()
        let started = Date()
        let frame = SampleScreens.defaultSize
        let home = SampleScreens.home(width: frame.width, height: frame.height, scale: scale)
        let detail = SampleScreens.detail(width: frame.width, height: frame.height, scale: scale)
        let snapshots = [home, detail]
        let info = snapshots.map(SnapshotInfo.init)
        let renderer = try Backends.make(BackendChoice(rawValue: backend)!, platform: nil, threads: nil)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)

        let jobs = Effect.allCases.flatMap { effect in Direction.allCases.map { (effect, $0) } }
        var frames = 0
        var progress = ProgressReporter(total: jobs.count, quiet: quiet, unit: "transitions")
        for (done, (effect, direction)) in jobs.enumerated() {
            let transition = Transition(effect, direction: direction, options: Self.options(for: effect, frame: frame))
            try transition.validate(frame: frame)
            let name = "\(effect.rawValue)-\(direction.rawValue)"
            let directory = (out as NSString).appendingPathComponent(name)
            func list(_ t: Double) -> DrawList {
                DrawList(scene: transition.scene(at: t, frame: frame), scale: scale, snapshots: info)
            }
            let last = Int((transition.duration * fps).rounded())
            // Every frame through the pipeline: drawn in order, PNGs encoded on all cores.
            let pipeline = FramePipeline(outputs: .init(directory: try FrameDirectory(creating: directory).path, pngLevel: 2, stream: nil),
                                         total: last + 1, quiet: true)
            let run = FrameDriver.Run(snapshots: snapshots, indices: Array(0...last),
                                      list: { list(min(1, Double($0) / (fps * transition.duration))) })
            try FrameDriver.render([run], with: renderer, into: pipeline)
            frames += last + 1
            let keyframes = try [0, 0.25, 0.5, 0.75, 1].map { try renderer.render(list($0)) }
            let strip = ContactSheet.strip(keyframes, gap: Int(8 * scale))
            try FileWriter.writeAtomically(try PNGEncoder.encode(strip), to: directory + ".png")
            progress.update(done: done + 1)
        }
        let seconds = Date().timeIntervalSince(started)
        print("segue demo: wrote \(jobs.count) transitions (\(Effect.allCases.count) effects x 2 directions), "
              + "\(frames) frames and \(jobs.count) contact sheets at \(home.width)x\(home.height) on \(renderer.name) "
              + "to \(out)/ in \(String(format: "%.1f", seconds)) s")
    }
}

/// Frames side by side on a white strip.
enum ContactSheet {
    static func strip(_ frames: [Pixmap], gap: Int) -> Pixmap {
        let w = frames[0].width, h = frames[0].height
        var sheet = Pixmap(width: frames.count * w + (frames.count + 1) * gap, height: h + 2 * gap, fill: 0xFFFF_FFFF)
        for (k, f) in frames.enumerated() {
            let x0 = gap + k * (w + gap)
            for y in 0..<h {
                let dst = (y + gap) * sheet.width + x0
                sheet.pixels.replaceSubrange(dst..<dst + w, with: f.pixels[y * w..<(y + 1) * w])
            }
        }
        return sheet
    }
}
