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
        var frames: Int
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
        let transition = BenchScene.transition(effect)
        func frameCount(fps: Double) -> Int {
            Storyboard(fps: fps, screens: [:], timeline: [.transition(transition, from: "from", to: "to")]).schedule.count
        }
        let (short, long) = (frameCount(fps: 60), frameCount(fps: 240))
        var effectArguments = [effect.rawValue, "--from", from, "--to", to, "--scale", "\(scale)", "--backend", "cpu", "--quiet"]
        for option in transition.options.setOptions {
            effectArguments += ["--\(option.name)", transition.options[option]!.description]
        }

        func seconds(_ arguments: [String]) throws -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            try Peers.run(segue, ["render"] + effectArguments + arguments)
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        /// ms per frame once running: the extra time of the long run over the short one, per extra frame
        /// (the two alternate, so a change in the machine's load falls on both).
        func perFrame(_ arguments: [String]) throws -> (Double, Double, Double) {
            _ = try seconds(arguments + ["--fps", "60"])  // warm the page cache and the binary
            var samples: [Double] = []
            for _ in 0..<max(1, runs) {
                let a = try seconds(arguments + ["--fps", "60"]), b = try seconds(arguments + ["--fps", "240"])
                samples.append(max(0, b - a) * 1000 / Double(long - short))
            }
            samples.sort()
            return (samples[samples.count / 2], samples.first!, samples.last!)
        }
        let png = try perFrame(["--out", work.appendingPathComponent("frames").path])
        let raw = try perFrame(["--out", "/dev/null", "--format", "rgba"])

        // The parts alone, in this process, on the frames of the long run.
        let info = snapshots.map(SnapshotInfo.init)
        let frame = BenchScene.frame
        let lists = (0..<long).map { k in
            DrawList(scene: transition.scene(at: min(1, Double(k) / Double(long - 1)), frame: frame), scale: scale, snapshots: info)
        }
        let cpu = CPUCompositor()
        try cpu.load(snapshots: snapshots)
        let rendered = try lists.map { try cpu.render($0) }
        // Drawing as the pipeline does: into buffers it hands back (a handful, reused in turn).
        var buffers = Array(rendered.prefix(4))
        let draw = try time(runs: runs, frames: long) {
            for k in lists.indices { try cpu.draw(lists[k], into: &buffers[k % buffers.count]) }
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let encode = time(runs: runs, frames: long) {
            DispatchQueue.concurrentPerform(iterations: cores) { worker in
                for k in stride(from: worker, to: rendered.count, by: cores) {
                    _ = try? PNGEncoder.encode(rendered[k], compressionLevel: 2)
                }
            }
        }
        return Figures(frames: long - short, pngEndToEnd: png, pngEncoderAlone: encode, rawEndToEnd: raw, drawAlone: draw)
    }
}
