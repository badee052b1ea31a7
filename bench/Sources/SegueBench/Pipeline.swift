import Dispatch
import Foundation
import SegueCore
import SegueCPU
import SegueImageIO

/// End-to-end throughput of the `segue` binary against its parts alone, on the same frames (issue 5's
/// figures): PNG frames written through the pipeline against the PNG encoder alone on all cores, and the raw
/// RGBA stream against drawing alone.
///
/// Start-up (reading and resampling the inputs, threads, the first frame's cold caches) is taken out by
/// difference: the same command at 60 and at 240 frames/s over the same transition has the same start-up, so
/// (time at 240 - time at 60) / (extra frames) is what each frame costs once the pipeline runs. The parts
/// alone run in this process as the pipeline runs them: drawing into a few reused buffers, encoding on every
/// core.
enum PipelineBench {
    struct Figures {
        /// Extra frames of the long PNG run and of the long raw run.
        var frames: Int
        var rawFrames: Int
        // ms per frame: median, fastest and slowest of the runs.
        var pngEndToEnd: (Double, Double, Double)
        var pngEncoderAlone: (Double, Double, Double)
        var rawEndToEnd: (Double, Double, Double)
        var drawAlone: (Double, Double, Double)
    }

    static func measure(segue: String, effect: Effect, scale: Double, runs: Int, work: URL) throws -> Figures? {
        guard FileManager.default.isExecutableFile(atPath: segue) else { return nil }
        let snapshots = BenchScene.snapshots(scale: scale)
        let from = work.appendingPathComponent("from.png").path, to = work.appendingPathComponent("to.png").path
        try Data(try PNGEncoder.encode(snapshots[0])).write(to: URL(fileURLWithPath: from))
        try Data(try PNGEncoder.encode(snapshots[1])).write(to: URL(fileURLWithPath: to))
        // The transition lasts 1 s for PNG frames (241 frames at 240 frames/s, 180 more than at 60), which cost
        // milliseconds each; 32 s for the raw stream (5760 more), whose frames cost under half of one, so that
        // a process's start-up jitter stays a few per cent of the difference (with 8 s, 1440 more, the runs of
        // one bench spread over 0.41-0.53 ms a frame).
        let pngSeconds = 1.0, rawSeconds = 32.0
        func frameCount(fps: Double, seconds: Double) -> Int {
            var transition = BenchScene.transition(effect)
            transition.duration = seconds
            return Storyboard(fps: fps, screens: [:], timeline: [.transition(transition, from: "from", to: "to")]).schedule.count
        }
        /// Frames the run at 240 fps has over the run at 60.
        func extraFrames(seconds: Double) -> Int { frameCount(fps: 240, seconds: seconds) - frameCount(fps: 60, seconds: seconds) }
        let transition = BenchScene.transition(effect)
        var effectArguments = [effect.name, "--from", from, "--to", to, "--scale", "\(scale)", "--backend", "cpu", "--quiet"]
        for name in transition.options.setNames {
            effectArguments += ["--\(name)", transition.options[name]!.description]
        }

        let framesDirectory = work.appendingPathComponent("frames").path
        func seconds(_ arguments: [String]) throws -> Double {
            // A fresh directory each time: frames of the other frame rate's job would be refused.
            try? FileManager.default.removeItem(atPath: framesDirectory)
            let start = DispatchTime.now().uptimeNanoseconds
            try Peers.run(segue, ["render"] + effectArguments + arguments)
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        /// ms per frame once running: the extra time of the long run over the short one, per extra frame
        /// (the two alternate, so a change in the machine's load falls on both).
        func perFrame(_ arguments: [String], seconds duration: Double) throws -> (Double, Double, Double) {
            let arguments = arguments + ["--duration", "\(duration)"]
            let extra = extraFrames(seconds: duration)
            _ = try seconds(arguments + ["--fps", "60"])  // warm the page cache and the binary
            var samples: [Double] = []
            for _ in 0..<max(1, runs) {
                let a = try seconds(arguments + ["--fps", "60"]), b = try seconds(arguments + ["--fps", "240"])
                samples.append(max(0, b - a) * 1000 / Double(extra))
            }
            samples.sort()
            return (samples[samples.count / 2], samples.first!, samples.last!)
        }
        let png = try perFrame(["--out", framesDirectory], seconds: pngSeconds)
        let raw = try perFrame(["--out", "/dev/null", "--format", "rgba"], seconds: rawSeconds)

        // The parts alone, in this process, on the frames of the long runs.
        let info = snapshots.map(SnapshotInfo.init)
        let frame = BenchScene.frame
        func lists(seconds: Double) -> [DrawList] {
            let count = frameCount(fps: 240, seconds: seconds)
            return (0..<count).map { k in
                DrawList(scene: transition.scene(at: min(1, Double(k) / Double(count - 1)), frame: frame, scale: scale),
                         scale: scale, snapshots: info)
            }
        }
        let cpu = CPUCompositor()
        try cpu.load(snapshots: snapshots)
        let rendered = try lists(seconds: pngSeconds).map { try cpu.render($0) }
        // Drawing as the pipeline does: into buffers it hands back (a handful, reused in turn).
        var buffers = Array(rendered.prefix(4))
        let rawLists = lists(seconds: rawSeconds)
        let draw = try time(runs: runs, frames: rawLists.count) {
            for k in rawLists.indices { try cpu.draw(rawLists[k], into: &buffers[k % buffers.count]) }
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // Told the frames are opaque, as the pipeline tells it (they are drawn over an opaque background).
        // Each worker keeps its memory from frame to frame (a workspace), as the pipeline's workers do.
        let workspaces = (0..<cores).map { _ in PNGEncoder.Workspace() }
        let encode = time(runs: runs, frames: rendered.count) {
            DispatchQueue.concurrentPerform(iterations: cores) { worker in
                for k in stride(from: worker, to: rendered.count, by: cores) {
                    _ = try? PNGEncoder.encode(rendered[k], compressionLevel: 2, knownOpaque: true, workspace: workspaces[worker])
                }
            }
        }
        return Figures(frames: extraFrames(seconds: pngSeconds), rawFrames: extraFrames(seconds: rawSeconds),
                       pngEndToEnd: png, pngEncoderAlone: encode, rawEndToEnd: raw, drawAlone: draw)
    }
}

/// PNG frames on disk end to end, against the tool people use: `segue render circle-spread --out DIR` against
/// ffmpeg's `xfade=transition=circleopen` writing the same number of frames as PNG files (`-f image2
/// DIR/%05d.png`) from the same two screens (raw planar RGB, xfade's own format, made beforehand). Whole
/// commands, start-up included: total seconds (median, fastest, slowest) and the total bytes of the frames.
enum EndToEndPNG {
    struct Figures {
        var frames: Int
        var segue: (Double, Double, Double)
        var segueBytes: Int
        var xfade: (Double, Double, Double)?
        var xfadeBytes: Int?
    }

    static func measure(segue: String, scale: Double, runs: Int, work: URL) throws -> Figures? {
        guard FileManager.default.isExecutableFile(atPath: segue) else { return nil }
        let snapshots = BenchScene.snapshots(scale: scale)
        let width = snapshots[0].width, height = snapshots[0].height
        let dir = work.appendingPathComponent("e2e")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let from = dir.appendingPathComponent("from.png").path, to = dir.appendingPathComponent("to.png").path
        try Data(try PNGEncoder.encode(snapshots[0])).write(to: URL(fileURLWithPath: from))
        try Data(try PNGEncoder.encode(snapshots[1])).write(to: URL(fileURLWithPath: to))
        // 61 frames: one second at 60 fps, both ends included.
        let frames = 61, duration = 1.0
        let transition = BenchScene.transition(.circleSpread)
        var arguments = ["render", "circle-spread", "--from", from, "--to", to, "--scale", "\(scale)", "--backend", "cpu",
                         "--quiet", "--fps", "60", "--duration", "\(duration)"]
        for name in transition.options.setNames {
            arguments += ["--\(name)", transition.options[name]!.description]
        }
        func bytes(in path: String) -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { $0.hasSuffix(".png") }.reduce(0) { total, name in
                let size = (try? FileManager.default.attributesOfItem(atPath: path + "/" + name)[.size] as? Int) ?? 0
                return total + size
            }
        }
        func timed(_ body: (String) throws -> Void) throws -> ((Double, Double, Double), Int, Int) {
            var samples: [Double] = [], total = 0, count = 0
            for run in 0...max(1, runs) {  // the first run warms the page cache and is not counted
                let out = dir.appendingPathComponent("frames-\(run)").path
                try? FileManager.default.removeItem(atPath: out)
                try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
                let start = DispatchTime.now().uptimeNanoseconds
                try body(out)
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                total = bytes(in: out)
                count = ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter { $0.hasSuffix(".png") }.count
                try? FileManager.default.removeItem(atPath: out)
                if run > 0 { samples.append(seconds) }
            }
            samples.sort()
            return ((samples[samples.count / 2], samples.first!, samples.last!), total, count)
        }
        let (s, sBytes, sCount) = try timed { out in try Peers.run(segue, arguments + ["--out", out]) }
        guard sCount == frames else { throw BenchError("segue render wrote \(sCount) frames, not \(frames)") }
        var figures = Figures(frames: frames, segue: s, segueBytes: sBytes)
        if firstLine(of: ["ffmpeg", "-version"]) != nil {
            let fromRaw = dir.appendingPathComponent("from.rgba").path, toRaw = dir.appendingPathComponent("to.rgba").path
            let fromPlanar = dir.appendingPathComponent("from.gbrp").path, toPlanar = dir.appendingPathComponent("to.gbrp").path
            try Peers.writeRaw(snapshots[0], to: fromRaw)
            try Peers.writeRaw(snapshots[1], to: toRaw)
            try Peers.toPlanarRGB(fromRaw, fromPlanar, width: width, height: height)
            try Peers.toPlanarRGB(toRaw, toPlanar, width: width, height: height)
            let input = ["-f", "rawvideo", "-pix_fmt", "gbrp", "-s", "\(width)x\(height)", "-framerate", "60", "-stream_loop", "-1", "-i"]
            let (x, xBytes, xCount) = try timed { out in
                try Peers.run("/usr/bin/env", ["ffmpeg", "-v", "error", "-nostdin"] + input + [fromPlanar] + input + [toPlanar] + [
                    "-filter_complex", "[0][1]xfade=transition=circleopen:duration=\(duration):offset=0",
                    "-frames:v", "\(frames)", "-f", "image2", out + "/%05d.png"])
            }
            guard xCount == frames else { throw BenchError("ffmpeg wrote \(xCount) frames, not \(frames)") }
            figures.xfade = x
            figures.xfadeBytes = xBytes
        }
        return figures
    }
}
