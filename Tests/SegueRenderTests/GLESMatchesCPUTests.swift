import SegueTestSupport
import Foundation
import SegueCore
import SegueCPU
import SegueGLES
import Testing

extension GLESSuite {
    /// The GLES renderer draws what the CPU compositor (the reference) draws, within `Tolerance.glesVsCPU`.
    @Suite struct MatchesCPU {
        @Test("gles matches cpu: every effect, both directions, t = 0...1", arguments: EffectCatalog.builtIn, Direction.allCases)
        func everyEffect(effect: Effect, direction: Direction) throws {
            let snapshots = TestTransitions.snapshots(width: 120, height: 200)
            try compare(effect, direction, progress: TestTransitions.progress, scale: 1, snapshots: snapshots)
        }

        @Test("gles matches cpu: scale 2, snapshots at 1.5x (resampled)", arguments: EffectCatalog.builtIn)
        func scaled(effect: Effect) throws {
            let snapshots = TestTransitions.snapshots(width: 180, height: 300)
            try compare(effect, .forward, progress: [0.3, 0.6], scale: 2, snapshots: snapshots)
        }

        private func compare(_ effect: Effect, _ direction: Direction, progress: [Double], scale: Double,
                             snapshots: [Pixmap]) throws {
            let gles = try GLESRenderer()
            let cpu = CPUCompositor(threads: 2)
            try gles.load(snapshots: snapshots)
            try cpu.load(snapshots: snapshots)
            let tolerance = Tolerance.glesVsCPU
            for t in progress {
                let list = TestTransitions.drawList(effect, direction, t: t, scale: scale, snapshots: snapshots)
                let actual = try gles.render(list)
                let expected = try cpu.render(list)
                let comparison = ImageComparison(actual: actual, expected: expected, levels: tolerance.maxLevelDiff)
                let name = "gles-vs-cpu.\(effect.name).\(direction.rawValue).t\(t).x\(scale.formatted())"
                print("\(name): \(comparison) (\(list.items.count) items)")
                if !comparison.passes(tolerance) {
                    let paths = FailureReport.write(
                        name: name, actual: actual, expected: expected, comparison: comparison, tolerance: tolerance,
                        context: ["actual": gles.details, "expected": cpu.details, "items": "\(list.items.count)"])
                    Issue.record("\(name): \(comparison), needs \(tolerance)\n  \(paths)")
                }
            }
        }
    }
}
