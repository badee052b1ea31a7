import Foundation
import SegueCore
import SegueCPU
import SegueGLES
import SegueImageIO
import SegueRender

// segue-bench: measures Segue's backends stage by stage against the tools people use today, and writes
// what it measured and on what as JSON (bench/report.py turns it into the table and the chart).
//
//   segue-bench [--quick] [--effects a,b] [--scales 1,1.5,3,6] [--frames N] [--runs N]
//               [--pixman-peer PATH] [--chromium PATH|none] [--chromium-page FILE] [--out FILE.json] [--no-gles]
//               [--no-peers] [--only cpu|gles] [--draw-only] [--all-cores-only] [--gles-paths raster,compute,...]
//               [--video-every-effect] [--colour-only]
//   segue-bench --targets REPORT.json... [--link-gbps N]
//   segue-bench --job [--job-frames N] [--job-size WxH] [--job-backends cpu,gles,...] [--job-outputs raw,y4m,png,mp4]
//               [--out FILE.json]
//
// `--job`: whole jobs instead of the figures below (JobBench.swift): 240 frames at 3840x2160 of a storyboard of
// catalogue effects with holds, written as raw RGBA and as Y4M 4:2:0 to /dev/null, as a PNG directory and as
// an H.264 .mp4, on each backend in turn: frames/s and CPU seconds of each whole job. The table is printed on
// standard output as Markdown and the figures written to the JSON (`jobs`). Backends are parsed as `--backend`
// is; a name this build does not know is skipped with a note (default: those of cpu, gles, gles-raster and
// gles-compute that it knows).
//
// `--all-cores-only`: the CPU compositor on all cores alone, not also on one thread (a GPU machine's 16 cores
// at 8K spend most of a run on the one-thread figures; scripts/gpu-check.sh uses it).
// `--gles-paths raster,compute,compute-staged`: which GLES paths are measured (every one by default, the compute
// ones where the context has compute shaders); the raster figures are recorded as `gles`, the others as
// `gles-compute` and `gles-compute-staged` (the dispatch into GPU memory, then one copy into the ring).
// Where the context has GL_EXT_disjoint_timer_query, each path's pipelined frames also give the GPU's own
// figures: `gpu draw` (the dispatch, which on `compute` includes its stores across the bus; the raster path's
// quads) and `gpu transfer` (compute-staged's copy, the raster path's read into a pack buffer), with GB/s.
// `readback (synchronous)` is a glReadPixels into pageable memory after a fence: not the path jobs use, which
// is `draw+readback lent` (the frame's bytes lent from the pinned read-back ring, pipelined).
//
// `--video-every-effect`: the GLES read-back figures (RGBA and 4:2:0 through the ring, each path) for every
// effect named, not only the first (scripts/gpu-check.sh uses it).
//
// `--targets REPORT.json... [--link-gbps N]`: reads reports this program wrote and prints issue 45's GPU targets,
// each met or missed with its figure (GPUTargets.swift), for scripts/gpu-check.sh's summary.
//
// `--colour-only`: issue 46's colour figures alone (ColourBench.swift): a 4K Display P3 screen into sRGB by the
// matrix/shaper path and by lcms2's transform, on all cores and on one thread, and an sRGB screen (skipped).
//
// `--draw-only`: the draw figures alone (each backend and pixman), without the PNG, end-to-end and pipeline
// figures: a quick before-and-after for a change to drawing.
//
// The GLES figures are taken in a child process (this program again, with `--only gles`) and merged: no EGL
// context, and none of llvmpipe's rasteriser threads, is alive while the CPU figures are taken.

/// The benchmark's entry point. The `segue-bench` executable calls it, and so does `segue` when it is started
/// under the name `segue-bench` (one binary, two names: `make dist` ships `bin/segue-bench` as a link to `bin/segue`).
public enum Bench {
    /// The name the benchmark answers to, and the one `segue` dispatches on (the last part of its argv[0]).
    public static let commandName = "segue-bench"

    /// Whether a program started as `argv0` (a name or a path, as argv[0] holds it) was started as the benchmark.
    public static func isCommandName(_ argv0: String) -> Bool {
        argv0.split(separator: "/").last.map(String.init) == commandName
    }

    /// Runs the benchmark with `arguments` (the program's name left out) and returns its exit status: 0 when the
    /// figures were written, 1 when a measurement or the writing failed, 2 for a usage error.
    public static func main(_ arguments: [String]) -> Int32 {
        if arguments.first == "--targets" {
            do { try GPUTargets.main(Array(arguments.dropFirst())) } catch {
                note("\(error)")
                return 1
            }
            return 0
        }
        let options: Options
        do { options = try Options(arguments) } catch {
            note("\(error)")
            return 2
        }
        do {
            try BenchRun(options: options, arguments: arguments).run()
            return 0
        } catch {
            note("\(error)")
            return 1
        }
    }
}

struct Options {
    var effects: [Effect] = [.fade, .door, .circleSpread, .pageFlip, .hero, .spin, .hinge]
    var scales: [Double] = [1, 1.5, 3, 6]
    var frames: Int?
    var runs = 3
    var out = "bench/results/latest.json"
    var pixmanPeer = ".build/bench/pixman_peer"
    /// The headless browser (`none`: skip that peer); by default the first Chromium on PATH.
    var chromium: String?
    var chromiumPage = "bench/peers/chromium_page.html"
    var segue = ".build/release/segue"
    var gles = true
    var peers = true
    var quick = false
    var drawOnly = false
    /// `--colour-only`: issue 46's colour-conversion figures alone.
    var colourOnly = false
    /// `--video-every-effect`: the GLES RGBA and 4:2:0 read-back figures for every effect, not only the first.
    var videoEveryEffect = false
    var allCoresOnly = false
    /// The GLES paths measured (`--gles-paths raster,compute`): both by default, where the context has compute.
    var glesPaths: Set<String> = Set(GLESPath.allCases.map(\.rawValue))
    /// One backend's figures only: `gles` (the child process) or `cpu` (everything else, no EGL context).
    var only: String?
    /// Whole jobs instead (`--job`): frames, size, backends and outputs.
    var job = false
    var jobFrames = 240
    var jobSize = (width: 3840, height: 2160)
    var jobBackends = JobBench.defaultBackends
    var jobBackendsNamed = false
    var jobOutputs = JobBench.Output.allCases

    init(_ args: [String]) throws {
        var i = 0
        func value() throws -> String {
            i += 1
            guard i < args.count else { throw BenchError("\(args[i - 1]) needs a value") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--effects":
                let names = try value().split(separator: ",").map(String.init)
                effects = try names.map { name in
                    guard let e = EffectCatalog.named(name) else { throw BenchError("unknown effect '\(name)'") }
                    return e
                }
            case "--scales": scales = try value().split(separator: ",").compactMap { Double($0) }
            case "--frames": frames = Int(try value())
            case "--runs": runs = max(1, Int(try value()) ?? runs)
            case "--out": out = try value()
            case "--pixman-peer": pixmanPeer = try value()
            case "--chromium": chromium = try value()
            case "--chromium-page": chromiumPage = try value()
            case "--segue": segue = try value()
            case "--no-gles": gles = false
            case "--no-peers": peers = false
            case "--draw-only": drawOnly = true
            case "--colour-only": colourOnly = true
            case "--video-every-effect": videoEveryEffect = true
            case "--all-cores-only": allCoresOnly = true
            case "--gles-paths":
                let text = try value()
                let names = Set(text.split(separator: ",").map(String.init))
                guard !names.isEmpty, names.isSubset(of: Set(GLESPath.allCases.map(\.rawValue))) else {
                    throw BenchError("--gles-paths takes raster, compute and compute-staged, comma-separated, not '\(text)'")
                }
                glesPaths = names
            case "--only":
                only = try value()
                guard only == "cpu" || only == "gles" else { throw BenchError("--only takes cpu or gles") }
            case "--job": job = true
            case "--job-frames":
                let text = try value()
                guard let n = Int(text), (2...100_000).contains(n) else { throw BenchError("--job-frames takes a number of frames in 2...100000, not '\(text)'") }
                jobFrames = n
            case "--job-size":
                let text = try value()
                let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2, parts.allSatisfy({ (16...16384).contains($0) && $0 % 2 == 0 }) else {
                    throw BenchError("--job-size takes WIDTHxHEIGHT, even numbers in 16...16384 (4:2:0 video), not '\(text)'")
                }
                jobSize = (parts[0], parts[1])
            case "--job-backends":
                jobBackends = try value().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                jobBackendsNamed = true
                guard !jobBackends.isEmpty else { throw BenchError("--job-backends names no backend") }
            case "--job-outputs":
                let text = try value()
                jobOutputs = try text.split(separator: ",").map { name in
                    guard let output = JobBench.Output(rawValue: String(name)) else {
                        throw BenchError("--job-outputs takes raw, y4m, png and mp4, not '\(name)'")
                    }
                    return output
                }
                guard !jobOutputs.isEmpty else { throw BenchError("--job-outputs names no output") }
            case "--quick":
                quick = true
                scales = [1]; frames = 4; runs = 1
            default: throw BenchError("unknown argument '\(args[i])' (see the comment at the top of Bench.swift)")
            }
            i += 1
        }
    }

    /// The same progress samples at every size, so megapixels/s compare like with like across resolutions.
    func frameCount(scale: Double) -> Int { frames ?? 8 }
}

func note(_ line: String) { FileHandle.standardError.write(Data("\(Bench.commandName): \(line)\n".utf8)) }

struct Report: Codable {
    var machine: Machine
    var date: String
    var quick: Bool
    /// Set on the file written after each size while later ones are still to come (a run stopped by a time
    /// limit leaves the sizes it finished, marked so); absent once the run is whole.
    var partial: Bool?
    var results: [Measurement]
    /// Whole jobs (`--job`), absent otherwise.
    var jobs: [JobBench.Figure]? = nil
}

/// One run of the benchmark: what it measured so far and on what, and the state every stage shares.
final class BenchRun {
    let options: Options
    /// The command line it was given, passed on to the GLES child process.
    let arguments: [String]
    var machine = Machine.describe()
    let cpuFigures: Bool
    let work: URL
    var results: [Measurement] = []
    var jobs: [JobBench.Figure]?
    /// Alive only in the process that takes the GLES figures (`--only gles`).
    var gles: GLESRenderer?
    /// The GLES paths measured and the backend name each is recorded under: the raster path as `gles`, the
    /// compute paths (where the context has them) as `gles-compute` and `gles-compute-staged`.
    var glesPaths: [(GLESPath, String)] {
        guard let gles else { return [] }
        return GLESPath.allCases.filter { options.glesPaths.contains($0.rawValue) && ($0 == .raster || gles.supportsCompute) }
            .map { ($0, $0 == .raster ? "gles" : "gles-\($0.rawValue)") }
    }
    let cores = ProcessInfo.processInfo.activeProcessorCount

    init(options: Options, arguments: [String]) {
        self.options = options
        self.arguments = arguments
        cpuFigures = options.only != "gles"
        work = FileManager.default.temporaryDirectory.appendingPathComponent("segue-bench-\(getpid())")
    }

    func run() throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        if options.job { return try runJobs() }
        if options.colourOnly {
            try measureColourConversion()
            return try write()
        }

        // GLES first, in a child process that exits before any CPU figure is taken.
        if options.gles && options.only == nil { try mergeGLESChild() }
        gles = options.gles && options.only == "gles" ? (try? GLESRenderer()) : nil
        if let gles {
            machine.glVendor = gles.info.eglVendor
            machine.glRenderer = gles.info.renderer
            machine.glVersion = gles.info.version
            machine.eglPlatform = gles.platform.rawValue
            machine.gl = gles.details
        }
        machine.ffmpeg = firstLine(of: ["ffmpeg", "-version"])
        machine.pixman = firstLine(of: ["pkg-config", "--modversion", "pixman-1"]).map { "pixman \($0)" }
        note("\(machine.cpu), \(cores) cores; \(machine.gl ?? "no GLES")\(options.only.map { " (\($0) figures only)" } ?? "")")

        for (k, scale) in options.scales.enumerated() {
            try measure(scale: scale)
            if k < options.scales.count - 1 { try write(partial: true) }
        }
        if options.peers && cpuFigures { measureChromium() }
        if cpuFigures && !options.drawOnly {
            try measurePNGEncoders()
            try measureColourConversion()
            try measureEndToEnd()
            try measurePipeline()
        }
        try write()
    }

    func record(_ m: Measurement) {
        results.append(m)
        let ms = String(format: "%.2f", m.msPerFrame)
        note("\(m.width)x\(m.height) \(m.effect) \(m.backend)/\(m.threads) \(m.stage): \(ms) ms/frame")
    }

    /// The GLES figures, taken by this program again (`--only gles`) in a child process, merged into these.
    func mergeGLESChild() throws {
        let childOut = work.appendingPathComponent("gles.json").path
        var arguments = self.arguments
        if let k = arguments.firstIndex(of: "--out") { arguments.removeSubrange(k...min(k + 1, arguments.count - 1)) }
        let status = try ThisProgram.run(arguments + ["--only", "gles", "--out", childOut])
        if status == 0, let data = FileManager.default.contents(atPath: childOut),
           let report = try? JSONDecoder().decode(Report.self, from: data) {
            machine.gl = report.machine.gl
            machine.glVendor = report.machine.glVendor
            machine.glRenderer = report.machine.glRenderer
            machine.glVersion = report.machine.glVersion
            machine.eglPlatform = report.machine.eglPlatform
            results += report.results
        } else {
            note("the GLES child process failed (status \(status)): no GLES figures")
        }
    }

    /// Every figure at one size: the copy, the peers' inputs, the shipped shader, video frames, motion blur, then each effect.
    func measure(scale: Double) throws {
        let snapshots = BenchScene.snapshots(scale: scale)
        let info = snapshots.map(SnapshotInfo.init)
        let width = snapshots[0].width, height = snapshots[0].height
        let frames = options.frameCount(scale: scale)
        func measurement(_ effect: String, _ backend: String, _ threads: Int, _ stage: String,
                         _ t: (Double, Double, Double), runs: Int? = nil, frames: Int? = nil, note: String? = nil) -> Measurement {
            Measurement(effect: effect, width: width, height: height, scale: scale, backend: backend, threads: threads,
                        stage: stage, msPerFrame: t.0, msMin: t.1, msMax: t.2, runs: runs ?? options.runs,
                        frames: frames ?? options.frameCount(scale: scale), note: note)
        }
        /// The GPU clock's figures of the frames drawn since the last `resetStats` (then reset): `gpu draw` and
        /// `gpu transfer` per frame, the transfer's GB/s in its note; nothing where the context has no timer.
        func recordGPU(_ effect: String, _ backend: String, _ path: GLESPath, suffix: String = "") {
            guard let gles else { return }
            let s = gles.stats
            gles.resetStats()
            guard s.gpuTimedFrames > 0 else { return }
            let n = Double(s.gpuTimedFrames)
            let draw = s.gpuDrawSeconds / n * 1000, transfer = s.gpuTransferSeconds / n * 1000
            let bytes = Double(s.transferBytes) / Double(max(s.frames, 1))
            let rate = { (ms: Double) in String(format: "%.1f GB/s", bytes / (ms / 1000) / 1e9) }
            record(measurement(effect, backend, 1, "gpu draw" + suffix, (draw, draw, draw), runs: 1, frames: s.gpuTimedFrames,
                               note: "GPU clock, mean of \(s.gpuTimedFrames) frames" + (path == .compute ? "; the dispatch's stores cross the bus (\(rate(draw)) with them)" : "")))
            if transfer > 0 {
                record(measurement(effect, backend, 1, "gpu transfer" + suffix, (transfer, transfer, transfer), runs: 1, frames: s.gpuTimedFrames,
                                   note: "GPU clock: \(Int(bytes)) bytes a frame into the ring at \(rate(transfer))"))
            }
        }
        if cpuFigures {
            record(measurement("-", "copy", 1, "copy", Peers.copy(pixels: width * height, runs: max(3, options.runs)), frames: 10))
        }

        // Raw inputs for the peers.
        let fromRaw = work.appendingPathComponent("from.rgba").path, toRaw = work.appendingPathComponent("to.rgba").path
        let fromPlanar = work.appendingPathComponent("from.gbrp").path, toPlanar = work.appendingPathComponent("to.gbrp").path
        if options.peers && cpuFigures {
            try Peers.writeRaw(snapshots[0], to: fromRaw)
            try Peers.writeRaw(snapshots[1], to: toRaw)
            if machine.ffmpeg != nil {
                try Peers.toPlanarRGB(fromRaw, fromPlanar, width: width, height: height)
                try Peers.toPlanarRGB(toRaw, toPlanar, width: width, height: height)
            }
        }

        // One custom transition in the gl-transitions interface, drawn by GLES at each resolution.
        if let gles, let ripple = ShippedTransitions.named("ripple") {
            try gles.load(snapshots: snapshots)
            let prepared = try gles.prepare(ripple)
            let progress = (0..<frames).map { Double($0) / Double(max(1, frames - 1)) }
            let t = try time(runs: options.runs, frames: frames) {
                try gles.drawFrames(prepared, progress: progress, width: width, height: height, deliver: { _, _ in })
            }
            record(measurement("shader:ripple", "gles", 1, "draw+readback", t))
        }

        // Video frames: the same frames read back as RGBA (4 bytes a pixel) and as 4:2:0 YCbCr planes converted on
        // the GPU (1.5 bytes a pixel, BT.709 limited as a video at this size has it), both through the pipelined
        // read-back ring, as a video job runs them.
        for effect in options.videoEveryEffect ? options.effects : Array(options.effects.prefix(1)) {
            guard let gles else { break }
            let lists = BenchScene.lists(effect, scale: scale, frames: frames, snapshots: info)
            let planes = YCbCrEncoding.video(width: width, height: height).planes(subsampled: true)
            try gles.load(snapshots: snapshots)
            try gles.drawFrames(count: 1, frame: { _ in .layers(lists[0]) }, planes: planes, deliver: { _, _ in })  // compiles the pass
            for (path, backend) in glesPaths {
                try gles.use(path)
                defer { try? gles.use(.raster) }
                try gles.drawFrames(count: 1, frame: { _ in .layers(lists[0]) }, planes: planes, deliver: { _, _ in })  // compiles
                gles.resetStats()
                let rgba = try time(runs: options.runs, frames: frames) {
                    try gles.drawFrames(count: lists.count, frame: { .layers(lists[$0]) }, lend: { _, _ in })
                }
                recordGPU(effect.name, backend, path, suffix: " rgba")
                let yuv = try time(runs: options.runs, frames: frames) {
                    try gles.drawFrames(count: lists.count, frame: { .layers(lists[$0]) }, planes: planes, deliver: { _, _ in })
                }
                recordGPU(effect.name, backend, path, suffix: " yuv420")
                record(measurement(effect.name, backend, 1, "draw+readback rgba", rgba, note: "4 bytes a pixel, lent from the ring, pipelined"))
                record(measurement(effect.name, backend, 1, "draw+readback yuv420", yuv,
                                   note: path.isCompute ? "YCbCr 4:2:0 planes written by the compositing dispatch, 1.5 bytes a pixel, pipelined"
                                       : "YCbCr 4:2:0 planes converted on the GPU, 1.5 bytes a pixel, pipelined"))
            }
        }

        // Motion blur: a frame of 8 shutter samples, each drawn and summed: on the CPU at 32 bits per channel; on
        // GLES in a float framebuffer on the GPU (one read-back a frame) where the context can, and for comparison
        // each sample read back and summed on the CPU. Reported per sample (a frame with --motion-blur N costs
        // about N of these).
        if let effect = options.effects.first {
            let samples = BenchScene.lists(effect, scale: scale, frames: 8, snapshots: info).map { RenderFrame.layers($0) }
            // The CPU's in the process that takes the CPU figures only (no EGL context alive), as everywhere else.
            var renderers: [(String, Int, any Renderer, onGPU: Bool, String)] =
                cpuFigures ? [("cpu", cores, CPUCompositor(threads: cores), false, "summed on the CPU")] : []
            if let gles {
                if gles.sumsShutterOnGPU { renderers.append(("gles", 1, gles, true, "summed on the GPU, read back once")) }
                renderers.append(("gles", 1, gles, false, "each read back, summed on the CPU"))
            }
            for (backend, threads, renderer, onGPU, summed) in renderers {
                (renderer as? GLESRenderer)?.sumsShutterOnGPU = onGPU
                try renderer.load(snapshots: snapshots)
                var out = Pixmap(width: width, height: height)
                try renderer.draw(.average(samples), into: &out)  // warm-up
                let t = try time(runs: options.runs, frames: samples.count) { try renderer.draw(.average(samples), into: &out) }
                record(measurement(effect.name, backend, threads, "motion blur per sample", t, frames: samples.count,
                                   note: "8 samples per frame; \(summed)"))
            }
            gles?.sumsShutterOnGPU = true
        }

        // A shadowed layer against the same layer unshadowed: a card of the next screen sliding over the frame
        // alone (nothing beneath it but the background), with and without a Core Animation shadow (opacity 0.5,
        // radius 20, offset 0, 10: a blur of 20 points each way), drawn by each backend in the same run.
        if options.only != "gles" || gles != nil {
            let cast = [false, true].map { BenchScene.cardLists(shadowed: $0, scale: scale, frames: frames, snapshots: info) }
            var renderers: [(String, Int, any Renderer)] = cpuFigures ? [("cpu", cores, CPUCompositor(threads: cores))] : []
            if let gles { renderers.append(("gles", 1, gles)) }
            for (backend, threads, renderer) in renderers {
                try renderer.load(snapshots: snapshots)
                var out = Pixmap(width: width, height: height)
                for (lists, stage) in zip(cast, ["draw, layer alone", "draw, layer and its shadow"]) {
                    for list in lists { try renderer.draw(list, into: &out) }  // warm-up: shader variants compiled
                    let t = try time(runs: options.runs, frames: frames) { for list in lists { try renderer.draw(list, into: &out) } }
                    record(measurement("shadow-card", backend, threads, stage, t, note: "a 60% card sliding over the background"))
                }
            }
        }

        for effect in options.effects {
            let name = effect.name
            let lists = BenchScene.lists(effect, scale: scale, frames: frames, snapshots: info)
            let pngFrames = min(frames, 4)

            for threads in Set(options.allCoresOnly ? [cores] : [cores, 1]).sorted(by: >) where cpuFigures {
                let cpu = CPUCompositor(threads: threads)
                try cpu.load(snapshots: snapshots)
                var out = Pixmap(width: width, height: height)
                let t = try time(runs: options.runs, frames: frames) { for list in lists { try cpu.draw(list, into: &out) } }
                record(measurement(name, "cpu", threads, "draw", t))
                if let plain = BenchScene.withoutShadows(lists) {
                    let u = try time(runs: options.runs, frames: frames) { for list in plain { try cpu.draw(list, into: &out) } }
                    record(measurement(name, "cpu", threads, "draw, shadows left out", u, note: "the same lists less their shadows' items"))
                }
                if threads == cores && !options.drawOnly {
                    // The CPU draws into memory: its draw + readback is its draw.
                    record(measurement(name, "cpu", threads, "draw+readback", t))
                    let workspace = PNGEncoder.Workspace()
                    let p = try time(runs: 1, frames: pngFrames) {
                        for list in lists.prefix(pngFrames) {
                            try cpu.draw(list, into: &out)
                            _ = try PNGEncoder.encode(out, compressionLevel: 2, workspace: workspace)
                        }
                    }
                    record(measurement(name, "cpu", threads, "draw+readback+png", p, runs: 1, frames: pngFrames))
                }
            }

            // Each GLES path in turn: the raster path's figures under "gles" (as in earlier runs), the compute
            // path's under "gles-compute".
            for (path, backend) in glesPaths {
                guard let gles else { break }
                try gles.use(path)
                defer { try? gles.use(.raster) }
                try gles.load(snapshots: snapshots)
                var out = Pixmap(width: width, height: height)
                // Warm up on every frame: shader variants are compiled the first time a frame needs them.
                for list in lists { try gles.draw(list, into: &out) }
                // Draw alone (waited on a fence) and readback alone, from frames drawn one at a time.
                var draws: [Double] = [], readbacks: [Double] = []
                for _ in 0..<options.runs {
                    gles.resetStats()
                    for list in lists { try gles.draw(list, into: &out) }
                    draws.append(gles.stats.drawPerFrame * 1000)
                    readbacks.append(gles.stats.readbackPerFrame * 1000)
                }
                record(measurement(name, backend, 1, "draw", (median(draws), draws.min()!, draws.max()!)))
                if let plain = BenchScene.withoutShadows(lists) {
                    for list in plain { try gles.draw(list, into: &out) }
                    var plainDraws: [Double] = []
                    for _ in 0..<options.runs {
                        gles.resetStats()
                        for list in plain { try gles.draw(list, into: &out) }
                        plainDraws.append(gles.stats.drawPerFrame * 1000)
                    }
                    record(measurement(name, backend, 1, "draw, shadows left out", (median(plainDraws), plainDraws.min()!, plainDraws.max()!),
                                       note: "the same lists less their shadows' items"))
                }
                record(measurement(name, backend, 1, "readback (synchronous)", (median(readbacks), readbacks.min()!, readbacks.max()!),
                                   note: "glReadPixels into pageable memory after a fence: not the path jobs use"))
                // Draw + readback through the pipelined ring, as a batch job runs: into frame buffers, and lent.
                let pipelined = try time(runs: options.runs, frames: frames) {
                    try gles.drawFrames(count: lists.count, list: { lists[$0] }, deliver: { _, _ in })
                }
                record(measurement(name, backend, 1, "draw+readback", pipelined, note: "copied out of the ring into a frame buffer, pipelined"))
                gles.resetStats()
                let lent = try time(runs: options.runs, frames: frames) {
                    try gles.drawFrames(count: lists.count, frame: { .layers(lists[$0]) }, lend: { _, _ in })
                }
                record(measurement(name, backend, 1, "draw+readback lent", lent, note: "lent from the read-back ring as jobs take it, pipelined"))
                recordGPU(name, backend, path)
                let workspace = PNGEncoder.Workspace()
                let p = try time(runs: 1, frames: pngFrames) {
                    try gles.drawFrames(count: pngFrames, list: { lists[$0] }, deliver: { _, frame in
                        _ = try PNGEncoder.encode(frame, compressionLevel: 2, workspace: workspace)
                    })
                }
                record(measurement(name, backend, 1, "draw+readback+png", p, runs: 1, frames: pngFrames))
            }

            guard options.peers && cpuFigures else { continue }
            let listsPath = work.appendingPathComponent("\(name).lists").path
            try Peers.exportLists(lists, to: listsPath)
            if let dump = ProcessInfo.processInfo.environment["SEGUE_BENCH_DUMP"] {
                // The middle frame as Segue's CPU draws it, beside the pixman peer's (PIXMAN_PEER_DUMP).
                let cpu = CPUCompositor()
                try cpu.load(snapshots: snapshots)
                try Peers.writeRaw(try cpu.render(lists[lists.count / 2]), to: "\(dump)-\(name)-\(width).rgba")
            }
            if let r = try Peers.pixman(peer: options.pixmanPeer, lists: listsPath, from: fromRaw, to: toRaw,
                                        width: width, height: height, threads: cores, runs: options.runs) {
                record(measurement(name, "pixman", cores, "draw", (r.msPerFrame, r.msMin, r.msMax),
                                   note: "same draw list; no rounded-rect masks, overlays or analytic edges"))
            }
            let xfadeName = effect == .fade ? "fade" : effect == .circleSpread ? "circleopen" : nil
            if let xfadeName, machine.ffmpeg != nil,
               let t = try Peers.xfade(xfadeName, from: fromPlanar, to: toPlanar, width: width, height: height,
                                       frames: max(frames, 30), runs: options.runs) {
                record(measurement(name, "ffmpeg-xfade", cores, "draw", t, frames: max(frames, 30),
                                   note: "xfade=transition=\(xfadeName), gbrp raw input"))
            }
        }
    }

    // The headless-Chromium peer, after the other figures so that no browser is alive while they are taken: the same
    // effects drawn as CSS 3D and screenshot frame by frame, up to 3840x2160 (8K screenshots take seconds each).
    func measureChromium() {
        let scales = options.scales.filter { $0 <= 3 }
        let effects = options.effects.filter { ChromiumPeer.effects.contains($0.name) }
        let size = (width: Int(BenchScene.frame.width * (scales.first ?? 1)), height: Int(BenchScene.frame.height * (scales.first ?? 1)))
        func skipped(_ why: String) {
            results.append(Measurement(effect: "-", width: size.width, height: size.height, scale: scales.first ?? 1, backend: "chromium",
                                       threads: cores, stage: "skipped", msPerFrame: 0, msMin: 0, msMax: 0, runs: 0, frames: 0, note: why))
            note("chromium: \(why)")
        }
        if let executable = ChromiumPeer.find(options.chromium), !scales.isEmpty, !effects.isEmpty {
            do {
                let browser = try ChromiumPeer(executable: executable, page: options.chromiumPage, work: work)
                machine.chromium = browser.version
                for scale in scales {
                    let snapshots = BenchScene.snapshots(scale: scale)
                    let width = snapshots[0].width, height = snapshots[0].height
                    let frames = options.frameCount(scale: scale)
                    for effect in effects {
                        let transition = BenchScene.transition(effect)
                        try browser.load(transition, snapshots: snapshots, frame: BenchScene.frame, scale: scale)
                        if let startup = browser.startup, !results.contains(where: { $0.backend == "chromium" && $0.stage == "start-up" }) {
                            record(Measurement(effect: "-", width: width, height: height, scale: scale, backend: "chromium",
                                               threads: cores, stage: "start-up", msPerFrame: startup * 1000, msMin: startup * 1000,
                                               msMax: startup * 1000, runs: 1, frames: 1,
                                               note: "launch to the first screenshot received: browser, page, both screens decoded, first paint"))
                        }
                        let progress = (0..<frames).map { transition.eased(Double($0) / Double(max(1, frames - 1))) }
                        var bytes = 0
                        let t = try time(runs: options.runs, frames: frames) {
                            bytes = 0
                            for e in progress { bytes += try browser.frame(e) }
                        }
                        if let dump = ProcessInfo.processInfo.environment["SEGUE_BENCH_DUMP"] {
                            // The middle frame as Chromium draws it, beside Segue's CPU frame (same name, .rgba).
                            try browser.dump(progress[progress.count / 2], to: "\(dump)-\(effect.name)-\(width)-chromium.png")
                        }
                        record(Measurement(effect: effect.name, width: width, height: height, scale: scale, backend: "chromium",
                                           threads: cores, stage: "frame+screenshot", msPerFrame: t.0, msMin: t.1, msMax: t.2,
                                           runs: options.runs, frames: frames,
                                           note: "\(browser.version) headless: CSS 3D page, Runtime.evaluate then Page.captureScreenshot "
                                               + "\(ChromiumPeer.format) (optimizeForSpeed), base64 bytes received, not decoded",
                                           bytes: bytes / frames))
                    }
                }
            } catch {
                skipped("\(executable) failed, so no Chromium figures: \(error)")
            }
        } else if !scales.isEmpty && !effects.isEmpty {
            skipped("skipped: no chromium, chromium-browser or google-chrome on PATH; \(ChromiumPeer.installHint)")
        }
    }

    // The PNG encoder, old (libspng level 2) and new, on real-looking inputs at 1080p, one thread.
    func measurePNGEncoders() throws {
        let scale = 1.5
        let snapshots = BenchScene.snapshots(scale: scale)
        let width = snapshots[0].width, height = snapshots[0].height
        let cpu = CPUCompositor(threads: 1)
        try cpu.load(snapshots: snapshots)
        let middle = BenchScene.lists(.circleSpread, scale: scale, frames: 3, snapshots: snapshots.map(SnapshotInfo.init))[1]
        let inputs = PNGBench.inputs(width: width, height: height, scale: scale, screensFrame: try cpu.render(middle))
        let runs = options.quick ? 1 : max(3, options.runs)
        for f in try PNGBench.measure(inputs, levels: options.quick ? [2] : Array(0...9), runs: runs) {
            let m = Measurement(effect: "png:\(f.input)", width: width, height: height, scale: scale, backend: "png-\(f.encoder)",
                                threads: 1, stage: "encode L\(f.level)", msPerFrame: f.ms.0, msMin: f.ms.1, msMax: f.ms.2,
                                runs: runs, frames: 1, note: f.encoder == "libspng" ? "libspng 0.7.3, the encoder before" : "PNGEncoder",
                                bytes: f.bytes)
            record(m)
            note("  \(f.input) \(f.encoder) L\(f.level): \(f.bytes / 1024) KiB")
        }
    }

    // Issue 46: a 4K Display P3 screen into sRGB by the matrix/shaper path and by lcms2's transform, all cores
    // and one thread; an sRGB screen, not converted.
    func measureColourConversion() throws {
        let runs = options.quick ? 3 : max(5, options.runs)
        let (width, height) = ColourBench.size
        for f in try ColourBench.measure(runs: runs, cores: cores) {
            let megapixels = Double(width * height) / 1e6
            let rate = f.ms.0 > 0 ? megapixels / f.ms.0 * 1000 / Double(f.threads) : 0
            var words = "\(f.conversion), \(f.path)"
            if f.path != "skipped" {
                words += String(format: "; %.0f Mpixel/s per core", rate)
                if f.threads == 1 { words += String(format: "; %.2f ms a 4K screen on 16 cores at this rate", megapixels / rate / 16 * 1000) }
                if let cpu = f.cpuMs {
                    words += String(format: "; thread CPU time %.2f ms a screen (%.0f Mpixel/s, %.2f ms on 16 cores)", cpu, megapixels / cpu * 1000, cpu / 16)
                }
            } else {
                words += ": nothing converted (the cached answer looked up, as a decoder does)"
            }
            words += String(format: "; load average %.2f", f.load)
            record(Measurement(effect: "colour:\(f.conversion)", width: width, height: height, scale: 3, backend: "colour-\(f.path)",
                               threads: f.threads, stage: "convert", msPerFrame: f.ms.0, msMin: f.ms.1, msMax: f.ms.2,
                               runs: runs, frames: 1, note: words))
            note("  \(words)")
        }
    }

    // PNG frames on disk end to end: segue render against ffmpeg xfade writing PNG, 61 frames at 1080p.
    func measureEndToEnd() throws {
        guard let e = try EndToEndPNG.measure(segue: options.segue, scale: 1.5, runs: options.quick ? 1 : 3, work: work) else { return }
        let runs = options.quick ? 1 : 3
        func add(_ backend: String, _ s: (Double, Double, Double), _ bytes: Int, _ note: String) {
            record(Measurement(effect: "circle-spread", width: 1920, height: 1080, scale: 1.5, backend: backend, threads: cores,
                               stage: "png frames end to end", msPerFrame: s.0 * 1000 / Double(e.frames), msMin: s.1 * 1000 / Double(e.frames),
                               msMax: s.2 * 1000 / Double(e.frames), runs: runs, frames: e.frames, note: note, bytes: bytes))
        }
        add("segue", e.segue, e.segueBytes, "segue render circle-spread --backend cpu --out DIR (default PNG level), whole command")
        if let x = e.xfade, let bytes = e.xfadeBytes {
            add("ffmpeg-xfade", x, bytes, "ffmpeg xfade=transition=circleopen -f image2 DIR/%05d.png from gbrp raw, whole command")
        }
    }

    // Issue 5's figures: the whole pipeline of the segue binary against its parts alone, at 1080p.
    func measurePipeline() throws {
        let pipelineScale = options.quick ? 1.0 : 1.5
        guard let p = try PipelineBench.measure(segue: options.segue, effect: .circleSpread, scale: pipelineScale,
                                                runs: options.quick ? 1 : 5, work: work) else { return }
        let width = Int((BenchScene.frame.width * pipelineScale).rounded()), height = Int((BenchScene.frame.height * pipelineScale).rounded())
        func add(_ stage: String, _ ms: (Double, Double, Double), frames: Int, _ note: String) {
            record(Measurement(effect: "circle-spread", width: width, height: height, scale: pipelineScale, backend: "pipeline",
                               threads: cores, stage: stage, msPerFrame: ms.0, msMin: ms.1, msMax: ms.2, runs: options.quick ? 1 : 5,
                               frames: frames, note: note))
        }
        let difference = "(run at 240 fps - run at 60 fps) / extra frames"
        add("png end to end", p.pngEndToEnd, frames: p.frames, "segue render --backend cpu --out DIR, a 1 s transition: \(difference)")
        add("png encoder alone", p.pngEncoderAlone, frames: p.frames,
            "PNGEncoder level 2 on all cores (a workspace per core, told the frames are opaque), the frames at 240 fps")
        add("raw end to end", p.rawEndToEnd, frames: p.rawFrames,
            "segue render --backend cpu --out /dev/null --format rgba, an 8 s transition: \(difference)")
        add("draw alone", p.drawAlone, frames: p.rawFrames, "CPUCompositor.draw into 4 reused buffers, the frames at 240 fps")
    }

    /// `--job`: each backend's jobs in turn (the CPU's first, before any EGL context is made), the JSON
    /// written after each backend (marked partial until the last), then the table on standard output.
    func runJobs() throws {
        let (width, height) = options.jobSize
        let storyboard = try JobBench.storyboard(frames: options.jobFrames, width: width, height: height)
        machine.ffmpeg = firstLine(of: ["ffmpeg", "-version"])
        let (choices, unknown) = JobBench.backends(options.jobBackends)
        var figures: [JobBench.Figure] = []
        for name in unknown where options.jobBackendsNamed {
            let known = BackendChoice.allCases.map(\.rawValue).joined(separator: ", ")
            figures.append(JobBench.Figure(output: "-", backend: name, width: width, height: height, frames: 0,
                                           note: "skipped: not a backend of this build (it has \(known))"))
            note(JobBench.line(figures.last!))
        }
        note("\(machine.cpu), \(cores) cores; whole jobs of \(options.jobFrames) frames at \(width)x\(height) on \(choices.map(\.rawValue).joined(separator: ", "))")
        for (k, backend) in choices.enumerated() {
            for output in options.jobOutputs {
                figures.append(JobBench.run(storyboard, output: output, backend: backend, work: work, hasFFmpeg: machine.ffmpeg != nil))
                note(JobBench.line(figures.last!))
            }
            jobs = figures
            if k < choices.count - 1 { try write(partial: true) }
        }
        // What GLES drew on, taken after the jobs so that no context of its own was alive while they ran.
        if choices.contains(where: { $0 != .cpu }), let gles = try? GLESRenderer() {
            machine.gl = gles.details
            machine.glVendor = gles.info.eglVendor
            machine.glRenderer = gles.info.renderer
            machine.glVersion = gles.info.version
            machine.eglPlatform = gles.platform.rawValue
        }
        jobs = figures
        try write()
        print("Whole jobs: \(options.jobFrames) frames at \(width)x\(height), \(machine.cpu), \(cores) cores; GL: \(machine.gl ?? "none").\n")
        print(JobBench.markdown(figures), terminator: "")
    }

    func write(partial: Bool = false) throws {
        let formatter = ISO8601DateFormatter()
        let report = Report(machine: machine, date: formatter.string(from: Date()), quick: options.quick,
                            partial: partial ? true : nil, results: results, jobs: jobs)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let outURL = URL(fileURLWithPath: options.out)
        try FileManager.default.createDirectory(at: outURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoder.encode(report).write(to: outURL, options: .atomic)
        let what = jobs.map { "\($0.count) job figures" } ?? "\(results.count) measurements"
        let left = jobs == nil ? "sizes" : "backends"
        note("wrote \(what) to \(options.out)\(partial ? " (partial: \(left) still to come)" : "")")
    }
}
