import Dispatch
import Foundation
import SegueCore
import SegueCPU
import SegueImageIO

/// End-to-end throughput of the `segue` binary against its parts alone, on the same frames (issue 5's
/// figures): PNG frames written through the pipeline against the PNG encoder alone on all cores, and the raw
/// RGBA stream against drawing alone. Start-up (reading and resampling the inputs) is taken out by
/// subtracting a one-frame run of the same command.
enum PipelineBench {
    struct Figures {
        var frames: Int
        var pngEndToEnd: Double      // ms per frame
        var pngEncoderAlone: Double
        var rawEndToEnd: Double
        var drawAlone: Double
    }

    static func measure(segue: String, effect: Effect, scale: Double, runs: Int, work: URL) throws -> Figures? {
        guard FileManager.default.isExecutableFile(atPath: segue) else { return nil }
        let snapshots = BenchScene.snapshots(scale: scale)
        let from = work.appendingPathComponent("from.png").path, to = work.appendingPathComponent("to.png").path
        try Data(try PNGEncoder.encode(snapshots[0])).write(to: URL(fileURLWithPath: from))
        try Data(try PNGEncoder.encode(snapshots[1])).write(to: URL(fileURLWithPath: to))
        let transition = BenchScene.transition(effect)
        let frames = Int((transition.duration * 60).rounded()) + 1
        var effectArguments = [effect.rawValue, "--from", from, "--to", to, "--scale", "\(scale)", "--backend", "cpu", "--quiet"]
        if let c = transition.options.center { effectArguments += ["--center", "\(c.x),\(c.y)"] }
        if let d = transition.options.perspective { effectArguments += ["--perspective", "\(d)"] }

        func seconds(_ arguments: [String]) throws -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            try Peers.run(segue, ["render"] + effectArguments + arguments)
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        func perFrame(_ arguments: [String], single: [String]) throws -> Double {
            var best = Double.infinity
            for _ in 0..<max(1, runs) {
                let whole = try seconds(arguments), one = try seconds(single)
                best = min(best, max(0, whole - one) * 1000 / Double(frames - 1))
            }
            return best
        }
        let directory = work.appendingPathComponent("frames").path
        let png = try perFrame(["--out", directory], single: ["--out", work.appendingPathComponent("one.png").path, "--progress", "0.5"])
        let raw = try perFrame(["--out", "/dev/null", "--format", "rgba"], single: ["--out", "/dev/null", "--format", "rgba", "--progress", "0.5"])

        // The parts alone, in process, on the same frames.
        let info = snapshots.map(SnapshotInfo.init)
        let frame = BenchScene.frame
        let lists = (0..<frames).map { k in
            DrawList(scene: transition.scene(at: min(1, Double(k) / Double(frames - 1)), frame: frame), scale: scale, snapshots: info)
        }
        let cpu = CPUCompositor()
        try cpu.load(snapshots: snapshots)
        var pixmaps = try lists.map { try cpu.render($0) }
        let draw = try time(runs: runs, frames: frames) {
            for k in lists.indices { try cpu.draw(lists[k], into: &pixmaps[k]) }
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let rendered = pixmaps
        let encode = time(runs: runs, frames: frames) {
            DispatchQueue.concurrentPerform(iterations: cores) { worker in
                for k in stride(from: worker, to: rendered.count, by: cores) {
                    _ = try? PNGEncoder.encode(rendered[k], compressionLevel: 2)
                }
            }
        }
        return Figures(frames: frames, pngEndToEnd: png, pngEncoderAlone: encode.0, rawEndToEnd: raw, drawAlone: draw.0)
    }
}
