import Foundation
import SegueCore
import SegueCPU
import SegueGLES
import SegueTestSupport
import Testing

extension GLESSuite {
    /// `Layer.isDoubleSided` on GLES: turned round by `rotY(π)`, a layer that is not double-sided draws
    /// nothing; double-sided, its mirror image matches the CPU's; just short of edge-on under perspective it
    /// shows, just past it it does not.
    @Suite struct DoubleSided {
        @Test("gles matches cpu: double-sided")
        func doubleSided() throws {
            let frame = Size(240, 400), background = Color(red: 0.1, green: 0.2, blue: 0.3)
            let snapshots = TestTransitions.snapshots(width: 240, height: 400)
            let gles = try GLESRenderer()
            let cpu = CPUCompositor(threads: 2)
            try gles.load(snapshots: snapshots)
            try cpu.load(snapshots: snapshots)
            for (angle, perspective, doubleSided, shows) in [(Double.pi, false, false, false), (.pi, false, true, true),
                                                             (.pi, true, false, false), (.pi, true, true, true),
                                                             (0.49 * .pi, true, false, true), (0.51 * .pi, true, false, false)] {
                var layer = Layer.full(.from, frame: frame)
                layer.transform = .rotationY(angle)
                layer.isDoubleSided = doubleSided
                let list = DrawList(scene: Scene(size: frame, sublayerTransform: perspective ? .perspective(400) : .identity,
                                                 layers: [layer]),
                                    scale: 1, snapshots: snapshots.map(SnapshotInfo.init), background: background)
                let what = "rotY(\((angle / .pi).formatted())π)\(perspective ? " in perspective" : ""), double-sided \(doubleSided)"
                #expect(list.items.count == (shows ? 1 : 0), "\(what)")
                let actual = try gles.render(list), expected = try cpu.render(list)
                let comparison = ImageComparison(actual: actual, expected: expected, levels: Tolerance.glesVsCPU.maxLevelDiff)
                #expect(comparison.passes(.glesVsCPU), "\(what): \(comparison)")
                #expect(actual.pixels.contains { $0 != background.backgroundPixel } == shows, "\(what)")
            }
        }
    }
}
