import Foundation
import SegueCore
import SegueRender

/// Whole jobs, the figure a user feels (issue 36): a storyboard of catalogue effects with holds between them,
/// on the built-in sample screens, rendered by the public `RenderJob` API into each output a job writes, on each
/// backend, one job after another in this process: frames/s of the whole job (reading the screens, making the
/// renderer and compiling its shaders, drawing, converting, encoding and writing, ffmpeg's exit) and the CPU
/// seconds it took (this process and its children, user and system).
enum JobBench {
    /// Where a job's frames go.
    enum Output: String, CaseIterable, Codable {
        case raw, y4m, png, mp4

        var title: String {
            switch self {
            case .raw: "raw RGBA to /dev/null"
            case .y4m: "Y4M 4:2:0 to /dev/null"
            case .png: "PNG directory"
            case .mp4: "H.264 .mp4"
            }
        }
    }

    /// One job's figures, or why it has none (`note` alone: skipped or failed).
    struct Figure: Codable {
        var output: String
        var backend: String
        /// What drew it, as the job's summary names it (`cpu`, `gles`): what `auto` took, for one.
        var renderer: String?
        var width: Int
        var height: Int
        var frames: Int
        /// Wall-clock seconds of the whole job.
        var seconds: Double?
        var framesPerSecond: Double?
        /// getrusage of this process and its waited-for children (ffmpeg), user + system, over the job.
        var cpuSeconds: Double?
        /// What the job wrote, where it is files (the PNG directory, the .mp4).
        var bytes: Int?
        var note: String?
    }

    /// The backends asked for: every name `BackendChoice` parses, in order; those it does not are skipped,
    /// each with a note (a backend another build has: `gles-raster`, `gles-compute`).
    static let defaultBackends = ["cpu", "gles", "gles-raster", "gles-compute"]

    static func backends(_ names: [String]) -> (choices: [BackendChoice], skipped: [String]) {
        var choices: [BackendChoice] = [], skipped: [String] = []
        for name in names {
            if let choice = BackendChoice(rawValue: name) {
                if !choices.contains(choice) { choices.append(choice) }
            } else {
                skipped.append(name)
            }
        }
        return (choices, skipped)
    }

    /// The storyboard: holds of a quarter of a second on each screen between door, push, page-flip,
    /// circle-spread and container-transform (half a second each), 60 frames/s, the whole stretched so that
    /// it has exactly `frames` frames (240: 4 s). A 1280x720-point frame at `width / 1280` pixels a point, as
    /// the bench's other figures draw.
    static func storyboard(frames: Int, width: Int, height: Int) throws -> Storyboard {
        func effect(_ name: String) throws -> Effect {
            guard let effect = EffectCatalog.named(name) else { throw BenchError("the catalogue has no effect '\(name)'") }
            return effect
        }
        var container = EffectOptions()
        container.set("from-rect", Rect(80, 120, 160, 160))
        container.set("from-radius", 36)
        container.set("from-elevation", 6)
        let circle = try effect("circle-spread")
        // Forward and back in turn, as a user goes to a screen and returns.
        let transitions: [Transition] = [
            BenchScene.transition(try effect("door")),
            Transition(try effect("push"), direction: .back),
            BenchScene.transition(try effect("page-flip")),
            Transition(circle, direction: .back, options: BenchScene.transition(circle).options),
            Transition(try effect("container-transform"), options: container),
        ]
        // Holds weigh 1, transitions 2: 6 holds and 5 transitions are 16 parts of the whole.
        let fps = 60.0
        let part = Double(frames - 1) / fps / 16  // round(duration x fps) + 1 frames: exactly `frames`
        var timeline: [Storyboard.Step] = [.hold(screen: "home", duration: part)]
        var screen = "home"
        for var transition in transitions {
            transition.duration = 2 * part
            let next = screen == "home" ? "detail" : "home"
            timeline += [.transition(transition, from: screen, to: next), .hold(screen: next, duration: part)]
            screen = next
        }
        let storyboard = Storyboard(fps: fps, scale: Double(width) / BenchScene.frame.width, size: (width, height),
                                    screens: ["home": "sample:home", "detail": "sample:detail"], timeline: timeline)
        guard storyboard.schedule.count == frames else {
            throw BenchError("the job's storyboard has \(storyboard.schedule.count) frames, not \(frames)")
        }
        return storyboard
    }

    /// CPU seconds so far, user and system, of this process and of its children that have been waited for.
    static func cpuSeconds() -> Double {
        var me = rusage(), children = rusage()
        getrusage(__rusage_who_t(truncatingIfNeeded: RUSAGE_SELF.rawValue), &me)
        getrusage(__rusage_who_t(truncatingIfNeeded: RUSAGE_CHILDREN.rawValue), &children)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(me.ru_utime) + seconds(me.ru_stime) + seconds(children.ru_utime) + seconds(children.ru_stime)
    }

    /// Runs one job: `storyboard` into `output` on `backend`, files under `work` (removed after).
    static func run(_ storyboard: Storyboard, output: Output, backend: BackendChoice, work: URL, hasFFmpeg: Bool) -> Figure {
        let (width, height) = storyboard.size ?? (0, 0)
        var figure = Figure(output: output.title, backend: backend.rawValue, width: width, height: height,
                            frames: storyboard.schedule.count)
        let files = work.appendingPathComponent("job-\(backend.rawValue)-\(output.rawValue)")
        defer { try? FileManager.default.removeItem(at: files) }
        let target: RenderJob.Output
        switch output {
        case .raw: target = .stream("/dev/null", format: .rgba)
        case .y4m: target = .stream("/dev/null", format: .y4m, y4mChroma: .c420)
        case .png: target = .frames(directory: files.path)
        case .mp4:
            guard hasFFmpeg else {
                figure.note = "skipped: no ffmpeg on PATH"
                return figure
            }
            do {
                try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            } catch {
                figure.note = "failed: cannot make \(files.path): \(error.localizedDescription)"
                return figure
            }
            target = .video(files.appendingPathComponent("job.mp4").path)
        }
        var job = RenderJob(storyboard: storyboard, output: target)
        job.backend = backend
        job.overwrite = true
        let notes = Notes()
        let cpu0 = cpuSeconds()
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let summary = try job.run(observer: RenderJob.Observer(note: { notes.add($0) }))
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            figure.cpuSeconds = cpuSeconds() - cpu0
            figure.seconds = seconds
            figure.framesPerSecond = Double(summary.rendered) / seconds
            figure.renderer = summary.renderer
            figure.frames = summary.rendered
            figure.bytes = output == .png || output == .mp4 ? bytes(in: files) : nil
            if !notes.lines.isEmpty { figure.note = notes.lines.joined(separator: "; ") }
        } catch {
            let line = "\(error)".split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
            figure.note = "failed: \(line)"
        }
        return figure
    }

    /// The notes a job gave, from whichever thread.
    private final class Notes: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [String] = []
        func add(_ line: String) { lock.withLock { all.append(line) } }
        var lines: [String] { lock.withLock { all } }
    }

    /// Bytes of the files in `directory` (not below).
    static func bytes(in directory: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
        }
    }

    /// One line a figure, for standard error as the jobs go.
    static func line(_ f: Figure) -> String {
        guard let fps = f.framesPerSecond, let seconds = f.seconds, let cpu = f.cpuSeconds else {
            return "job \(f.width)x\(f.height) \(f.output), \(f.backend): \(f.note ?? "no figure")"
        }
        return String(format: "job %dx%d %@, %@%@: %d frames in %.2f s, %.2f frames/s, %.2f CPU s", f.width, f.height, f.output,
                      f.backend, f.renderer.map { $0 == f.backend ? "" : " (\($0))" } ?? "", f.frames, seconds, fps, cpu)
            + (f.note.map { " (\($0))" } ?? "")
    }

    /// The figures as a Markdown table: frames/s and CPU seconds per output and backend, and each one's
    /// frames/s against the CPU backend's for the same output.
    static func markdown(_ figures: [Figure]) -> String {
        var lines = ["| output | backend | drew | frames | size | seconds | frames/s | x cpu | CPU s | CPU s / s | note |",
                     "|---|---|---|---|---|---|---|---|---|---|---|"]
        func f(_ v: Double?, _ digits: Int = 2) -> String { v.map { String(format: "%.\(digits)f", $0) } ?? "-" }
        for figure in figures {
            let cpu = figures.first { $0.output == figure.output && $0.backend == "cpu" }?.framesPerSecond
            let ratio = figure.framesPerSecond.flatMap { fps in cpu.map { fps / $0 } }
            let load = figure.cpuSeconds.flatMap { c in figure.seconds.map { c / $0 } }
            let note = (figure.note ?? "").replacingOccurrences(of: "|", with: "\\|")
            lines.append("| \(figure.output) | \(figure.backend) | \(figure.renderer ?? "-") | \(figure.frames) | \(figure.width)x\(figure.height) | "
                         + "\(f(figure.seconds)) | \(f(figure.framesPerSecond, 1)) | \(f(ratio)) | \(f(figure.cpuSeconds)) | \(f(load, 1)) | \(note) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
