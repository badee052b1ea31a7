import Foundation
import SegueCore
import SegueCPU
import SegueTestSupport
import Testing

/// `Layer.isDoubleSided` on the CPU compositor: `rotY(π)` shows the layer's back, mirrored when double-sided
/// and nothing at all otherwise; just short of edge-on under perspective it still shows its front.
@Suite struct DoubleSidedCPUTests {
    static let frame = Size(270, 480)
    static let background = Color(red: 0.1, green: 0.2, blue: 0.3)

    /// Opaque noise at the frame's size: any wrong texel shows.
    static let noise = SeededRandom.opaqueNoise(width: 270, height: 480, seed: 0x2545_F491_4F6C_DD1D)

    static func render(_ transform: Transform3D, doubleSided: Bool, perspective: Double? = nil) throws -> (Pixmap, DrawList) {
        var layer = Layer.full(.from, frame: frame)
        layer.transform = transform
        layer.isDoubleSided = doubleSided
        let cpu = CPUCompositor(threads: 2)
        try cpu.load(snapshots: [noise, noise])
        let scene = Scene(size: frame, sublayerTransform: perspective.map(Transform3D.perspective) ?? .identity, layers: [layer])
        let list = DrawList(scene: scene, scale: 1, snapshots: [SnapshotInfo(noise), SnapshotInfo(noise)], background: background)
        return (try cpu.render(list), list)
    }

    @Test func turnedRoundItShowsItsMirrorImageOnlyWhenDoubleSided() throws {
        let (hidden, hiddenList) = try Self.render(.rotationY(.pi), doubleSided: false)
        #expect(hiddenList.items.isEmpty)
        #expect(hidden.pixels.allSatisfy { $0 == Self.background.backgroundPixel })

        let (mirrored, mirroredList) = try Self.render(.rotationY(.pi), doubleSided: true)
        #expect(mirroredList.items.count == 1)
        var wrong = 0
        for y in 0..<480 { for x in 0..<270 where mirrored[x, y] != Self.noise[269 - x, y] { wrong += 1 } }
        #expect(wrong == 0, "\(wrong) pixels are not the mirrored snapshot")
    }

    @Test func justShortOfEdgeOnInPerspectiveItShowsItsFront() throws {
        let (front, frontList) = try Self.render(.rotationY(0.49 * .pi), doubleSided: false, perspective: 500)
        #expect(frontList.items.count == 1)
        #expect(front.pixels.contains { $0 != Self.background.backgroundPixel })
        let (gone, goneList) = try Self.render(.rotationY(0.51 * .pi), doubleSided: false, perspective: 500)
        #expect(goneList.items.isEmpty)
        #expect(gone.pixels.allSatisfy { $0 == Self.background.backgroundPixel })
    }
}
