import Foundation
import SegueCore
import SegueCPU
import SegueTestSupport
import Testing

extension GLESSuite {
    /// `Layer.isDoubleSided` on each backend: `rotY(π)` shows the layer's back, mirrored when double-sided and
    /// nothing at all otherwise; just short of edge-on under perspective it still shows its front, just past it
    /// nothing. Each frame against the CPU compositor's (the reference) within the backend's tolerance.
    @Suite struct DoubleSided {
        static let frame = Size(270, 480)
        static let background = Color(red: 0.1, green: 0.2, blue: 0.3)

        /// Opaque noise at the frame's size: any wrong texel shows.
        static let noise = SeededRandom.opaqueNoise(width: 270, height: 480, seed: 0x2545_F491_4F6C_DD1D)

        static func list(_ transform: Transform3D, doubleSided: Bool, perspective: Double? = nil,
                         snapshots: [Pixmap] = [noise, noise]) -> DrawList {
            var layer = Layer.full(.from, frame: frame)
            layer.transform = transform
            layer.isDoubleSided = doubleSided
            let scene = Scene(size: frame, sublayerTransform: perspective.map(Transform3D.perspective) ?? .identity, layers: [layer])
            return DrawList(scene: scene, scale: 1, snapshots: snapshots.map(SnapshotInfo.init), background: background)
        }

        @Test("double-sided: turned round, the mirror image only when double-sided", arguments: TestBackend.all)
        func turnedRoundItShowsItsMirrorImageOnlyWhenDoubleSided(_ backend: TestBackend) throws {
            let renderer = try backend.makeRenderer()
            try renderer.load(snapshots: [Self.noise, Self.noise])

            let hiddenList = Self.list(.rotationY(.pi), doubleSided: false)
            #expect(hiddenList.items.isEmpty)
            let hidden = try renderer.render(hiddenList)
            #expect(hidden.pixels.allSatisfy { $0 == Self.background.backgroundPixel })

            let mirroredList = Self.list(.rotationY(.pi), doubleSided: true)
            #expect(mirroredList.items.count == 1)
            let mirrored = try renderer.render(mirroredList)
            var mirror = Pixmap(width: 270, height: 480)
            for y in 0..<480 { for x in 0..<270 { mirror.pixels[y * 270 + x] = Self.noise[269 - x, y] } }
            let comparison = ImageComparison(actual: mirrored, expected: mirror, levels: backend.tolerance.maxLevelDiff)
            #expect(comparison.passes(backend.tolerance), "\(backend): not the mirrored snapshot: \(comparison), needs \(backend.tolerance)")
            try backend.expectDrewOnItsPath(renderer, name: "turnedRoundItShowsItsMirrorImageOnlyWhenDoubleSided")
        }

        @Test("double-sided: just short of edge-on in perspective it shows its front", arguments: TestBackend.all)
        func justShortOfEdgeOnInPerspectiveItShowsItsFront(_ backend: TestBackend) throws {
            let renderer = try backend.makeRenderer()
            try renderer.load(snapshots: [Self.noise, Self.noise])
            let frontList = Self.list(.rotationY(0.49 * .pi), doubleSided: false, perspective: 500)
            #expect(frontList.items.count == 1)
            let front = try renderer.render(frontList)
            #expect(front.pixels.contains { $0 != Self.background.backgroundPixel })
            let goneList = Self.list(.rotationY(0.51 * .pi), doubleSided: false, perspective: 500)
            #expect(goneList.items.isEmpty)
            let gone = try renderer.render(goneList)
            #expect(gone.pixels.allSatisfy { $0 == Self.background.backgroundPixel })
            try backend.expectDrewOnItsPath(renderer, name: "justShortOfEdgeOnInPerspectiveItShowsItsFront")
        }

        /// Turned round with and without perspective, double-sided or not, and either side of edge-on: what
        /// shows, against the reference.
        @Test("double-sided: every case against the cpu reference", arguments: TestBackend.all)
        func againstTheReference(_ backend: TestBackend) throws {
            let snapshots = TestTransitions.snapshots(width: 240, height: 400)
            let frame = Size(240, 400)
            let renderer = try backend.makeRenderer(), reference = TestBackend.reference()
            try renderer.load(snapshots: snapshots)
            try reference.load(snapshots: snapshots)
            for (angle, perspective, doubleSided, shows) in [(Double.pi, false, false, false), (.pi, false, true, true),
                                                             (.pi, true, false, false), (.pi, true, true, true),
                                                             (0.49 * .pi, true, false, true), (0.51 * .pi, true, false, false)] {
                var layer = Layer.full(.from, frame: frame)
                layer.transform = .rotationY(angle)
                layer.isDoubleSided = doubleSided
                let list = DrawList(scene: Scene(size: frame, sublayerTransform: perspective ? .perspective(400) : .identity,
                                                 layers: [layer]),
                                    scale: 1, snapshots: snapshots.map(SnapshotInfo.init), background: Self.background)
                let what = "\(backend): rotY(\((angle / .pi).formatted())π)\(perspective ? " in perspective" : ""), double-sided \(doubleSided)"
                #expect(list.items.count == (shows ? 1 : 0), "\(what)")
                let actual = try renderer.render(list), expected = try reference.render(list)
                let comparison = ImageComparison(actual: actual, expected: expected, levels: backend.tolerance.maxLevelDiff)
                #expect(comparison.passes(backend.tolerance), "\(what): \(comparison), needs \(backend.tolerance)")
                #expect(actual.pixels.contains { $0 != Self.background.backgroundPixel } == shows, "\(what)")
            }
            try backend.expectDrewOnItsPath(renderer, name: "againstTheReference")
        }
    }
}
