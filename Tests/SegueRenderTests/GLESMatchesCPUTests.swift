import SegueTestSupport
import Foundation
import SegueCore
import SegueCPU
import SegueGLES
import Testing

extension GLESSuite {
    /// The GLES renderer draws what the CPU compositor (the reference) draws, within `Tolerance.glesVsCPU`, on
    /// the raster and the compute path: each frame drawn alone (the compute path into the render target's image,
    /// read back with glReadPixels) and the same frames drawn as a run (the compute path straight into the pack
    /// buffers); every frame counted as drawn by the path meant. (`compute-staged` runs the same dispatch:
    /// `TransferTests` holds it to `compute` byte for byte.)
    @Suite struct MatchesCPU {
        @Test("gles matches cpu: every effect, both directions, t = 0...1", arguments: EffectCatalog.builtIn, Direction.allCases)
        func everyEffect(effect: Effect, direction: Direction) throws {
            let snapshots = TestTransitions.snapshots(width: 120, height: 200)
            for path in [GLESPath.raster, .compute] {
                try compare(effect, direction, path: path, progress: TestTransitions.progress, scale: 1, snapshots: snapshots)
            }
        }

        @Test("gles matches cpu: scale 2, snapshots at 1.5x (resampled)", arguments: EffectCatalog.builtIn)
        func scaled(effect: Effect) throws {
            let snapshots = TestTransitions.snapshots(width: 180, height: 300)
            for path in [GLESPath.raster, .compute] {
                try compare(effect, .forward, path: path, progress: [0.3, 0.6], scale: 2, snapshots: snapshots)
            }
        }

        private func compare(_ effect: Effect, _ direction: Direction, path: GLESPath, progress: [Double], scale: Double,
                             snapshots: [Pixmap]) throws {
            let gles = try GLESRenderer()
            try gles.use(path)
            let cpu = CPUCompositor(threads: 2)
            try gles.load(snapshots: snapshots)
            try cpu.load(snapshots: snapshots)
            let tolerance = Tolerance.glesVsCPU
            let lists = progress.map { TestTransitions.drawList(effect, direction, t: $0, scale: scale, snapshots: snapshots) }
            var run: [Pixmap] = []
            try gles.drawFrames(count: lists.count, list: { lists[$0] }, deliver: { _, frame in run.append(frame) })
            let alone = try lists.map { try gles.render($0) }
            // Every frame, alone and in the run, drawn by the path meant: none fell back.
            let stats = gles.stats
            #expect(stats.frames(by: path) == 2 * lists.count && stats.fallbacks.isEmpty,
                    "\(effect.name) \(direction.rawValue) on \(path.rawValue): \(stats.pathSummary)")
            for (k, t) in progress.enumerated() {
                let list = lists[k]
                let expected = try cpu.render(list)
                for (how, actual) in [("alone", alone[k]), ("run", run[k])] {
                    let comparison = ImageComparison(actual: actual, expected: expected, levels: tolerance.maxLevelDiff)
                    let name = "gles-\(path.rawValue)-vs-cpu.\(effect.name).\(direction.rawValue).t\(t).x\(scale.formatted()).\(how)"
                    print("\(name): \(comparison) (\(list.items.count) items)")
                    if !comparison.passes(tolerance) {
                        let paths = FailureReport.write(
                            name: name, actual: actual, expected: expected, comparison: comparison, tolerance: tolerance,
                            context: ["actual": gles.details + ", \(path.rawValue) path", "expected": cpu.details, "items": "\(list.items.count)"])
                        Issue.record("\(name): \(comparison), needs \(tolerance)\n  \(paths)")
                    }
                }
            }
        }
    }
}
