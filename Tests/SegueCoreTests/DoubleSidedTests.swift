import Foundation
import Testing
import SegueCore

/// `Layer.isDoubleSided`: a layer that is not double-sided leaves the draw list while its back faces the
/// viewer (its projected outline winds the other way round), and only then.
@Suite struct DoubleSidedTests {
    static let frame = Size(80, 60)
    static let info = [SnapshotInfo(width: 80, height: 60, isOpaque: true), SnapshotInfo(width: 80, height: 60, isOpaque: true)]

    static func count(_ transform: Transform3D, doubleSided: Bool, perspective: Double? = nil) -> Int {
        var layer = Layer.full(.from, frame: frame)
        layer.transform = transform
        layer.isDoubleSided = doubleSided
        let scene = Scene(size: frame, sublayerTransform: perspective.map(Transform3D.perspective) ?? .identity,
                          layers: [layer])
        return DrawList(scene: scene, scale: 1, snapshots: info).items.count
    }

    @Test func doubleSidedByDefault() {
        #expect(Layer.full(.to, frame: Self.frame).isDoubleSided)
        #expect(Layer(bounds: Self.frame, position: .zero, content: .color(.white)).isDoubleSided)
    }

    @Test(arguments: [nil, 300.0])
    func turnedRoundItDrawsOnlyWhenDoubleSided(perspective: Double?) {
        let back = Transform3D.rotationY(.pi)
        #expect(Self.count(back, doubleSided: true, perspective: perspective) == 1)
        #expect(Self.count(back, doubleSided: false, perspective: perspective) == 0)
    }

    @Test(arguments: [nil, 300.0])
    func justShortOfEdgeOnItStillShowsItsFront(perspective: Double?) {
        for angle in [0, 0.2 * Double.pi, 0.49 * Double.pi, -0.49 * Double.pi, 1.51 * Double.pi, 2 * Double.pi] {
            #expect(Self.count(.rotationY(angle), doubleSided: false, perspective: perspective) == 1, "rotY(\(angle))")
        }
        for angle in [0.51 * Double.pi, -0.51 * Double.pi, 1.49 * Double.pi, 0.75 * Double.pi] {
            #expect(Self.count(.rotationY(angle), doubleSided: false, perspective: perspective) == 0, "rotY(\(angle))")
            #expect(Self.count(.rotationY(angle), doubleSided: true, perspective: perspective) == 1, "rotY(\(angle))")
        }
    }

    /// The back is a matter of winding, so a flat mirror shows it too, and a half turn in the plane does not.
    @Test func mirrorShowsTheBackAndAHalfTurnDoesNot() {
        #expect(Self.count(.scale(-1, 1), doubleSided: false) == 0)
        #expect(Self.count(.scale(1, -1), doubleSided: false) == 0)
        #expect(Self.count(.scale(-1, -1), doubleSided: false) == 1)
    }

    /// Only the turned-round layer leaves; the one under it stays and is no longer hidden.
    @Test func onlyTheBackFacingLayerLeaves() {
        var top = Layer.full(.to, frame: Self.frame)
        top.transform = .rotationY(.pi)
        top.isDoubleSided = false
        let list = DrawList(scene: Scene(size: Self.frame, layers: [Layer.full(.from, frame: Self.frame), top]),
                            scale: 1, snapshots: Self.info)
        #expect(list.items.count == 1)
        guard case let .snapshot(id, _)? = list.items.first?.source else { Issue.record("no snapshot item"); return }
        #expect(id == .from)
    }
}
