import Foundation
import Testing
@testable import SegueCore

@Suite struct GeometryTests {
    @Test func rotationYFollowsCATransform3DMakeRotation() {
        let r = Transform3D.rotationY(.pi / 3)
        let p = r.apply((2, 5, 0, 1))
        #expect(abs(p.0 - 2 * cos(Double.pi / 3)) < 1e-12)
        #expect(p.1 == 5)
        #expect(abs(p.2 + 2 * sin(Double.pi / 3)) < 1e-12)
    }

    @Test func concatenationIsSelfThenOther() {
        let t = Transform3D.scale(2, 3) * Transform3D.translation(10, 20)
        let p = t.apply((1, 1, 0, 1))
        #expect(p.0 == 12 && p.1 == 23)
    }

    @Test func matrixInverse() throws {
        let m = Matrix3(2, 0.5, 0.001, 0.25, 3, 0.002, 7, -4, 1)
        let inv = try #require(m.inverse)
        let (x, y, w) = m.apply(3, 4)
        let (u, v, q) = inv.apply(x / w, y / w)
        #expect(abs(u / q - 3) < 1e-9 && abs(v / q - 4) < 1e-9)
    }

    /// The page-flip's reference numbers (docs/effects.md, page-flip): its `from` right half at e = 0.25 spans
    /// screen x 187.5 to 367.9 on a 375-wide frame with d = 500, and is taller at its outer edge than at the spine.
    @Test func pageFlipOuterEdgeMatchesTheSeed() throws {
        let frame = Size(375, 667)
        let scene = Transition(.pageFlip).scene(at: 0.25, frame: frame, scale: 1)
        let info = [SnapshotInfo(width: 375, height: 667, isOpaque: true), SnapshotInfo(width: 375, height: 667, isOpaque: true)]
        let list = DrawList(scene: scene, scale: 1, snapshots: info)
        let turning = try #require(list.items.last)
        let xs = turning.outline.map(\.x)
        #expect(abs(xs.min()! - 187.5) < 1e-6)
        #expect(abs(xs.max()! - 367.9) < 0.05)
        // Local z of the outer edge is 132.6 and w = 0.735.
        let edge = turning.localToPixel.apply(187.5, 0)
        #expect(abs(edge.2 - 0.735) < 0.001)
        // Taller at the outer edge than at the spine (667).
        let top = turning.outline.filter { $0.x > 360 }.map(\.y)
        #expect(top.max()! - top.min()! > 667)
    }

    @Test func circleSpreadEndRadiusMatchesTheSeed() {
        #expect(abs(farthestCorner(Point(110, 150), Size(375, 667)) - 581.0) < 0.05)
        var options = EffectOptions()
        options.set("center", Point(110, 150))
        let scene = Transition(.circleSpread, options: options).scene(at: 1, frame: Size(375, 667), scale: 1)
        guard case let .circle(_, radius)? = scene.layers[1].mask else { Issue.record("no mask"); return }
        #expect(abs(radius - 581.0) < 0.05)
    }

    @Test func doorAtTheEndShowsOnlyToUnscaled() {
        let info = [SnapshotInfo(width: 100, height: 200, isOpaque: true), SnapshotInfo(width: 100, height: 200, isOpaque: true)]
        let list = DrawList(scene: Transition(.door).scene(at: 1, frame: Size(100, 200), scale: 1), scale: 1, snapshots: info)
        #expect(list.items.count == 1)
        #expect(!list.clearsBackground)
        guard case let .snapshot(id, _) = list.items[0].source else { Issue.record("not a snapshot"); return }
        #expect(id == .to)
        #expect(list.items[0].blit == DrawItem.Blit(rect: PixelBounds(x0: 0, y0: 0, x1: 100, y1: 200), dx: 0, dy: 0))
    }

    @Test func hiddenAndInvisibleLayersAreDropped() {
        let info = [SnapshotInfo(width: 64, height: 64, isOpaque: true), SnapshotInfo(width: 64, height: 64, isOpaque: true)]
        let frame = Size(64, 64)
        // fade at t = 0: `to` has opacity 0.
        #expect(DrawList(scene: Transition(.fade).scene(at: 0, frame: frame, scale: 1), scale: 1, snapshots: info).items.count == 1)
        // fade at t = 1: `to` is opaque and hides `from`.
        #expect(DrawList(scene: Transition(.fade).scene(at: 1, frame: frame, scale: 1), scale: 1, snapshots: info).items.count == 1)
        // spin at the stage boundary: the layer is edge-on.
        #expect(DrawList(scene: Transition(.spin).scene(at: 4.0 / 7.0, frame: frame, scale: 1), scale: 1, snapshots: info).items.isEmpty)
        // A translucent `to` hides nothing.
        let translucent = [info[0], SnapshotInfo(width: 64, height: 64, isOpaque: false)]
        #expect(DrawList(scene: Transition(.fade).scene(at: 1, frame: frame, scale: 1), scale: 1, snapshots: translucent).items.count == 2)
    }

    @Test func pixelSizeFollowsScale() {
        let info = [SnapshotInfo(width: 750, height: 1334, isOpaque: true), SnapshotInfo(width: 750, height: 1334, isOpaque: true)]
        let list = DrawList(scene: Transition(.fade).scene(at: 0.5, frame: Size(375, 667), scale: 2), scale: 2, snapshots: info)
        #expect(list.width == 750 && list.height == 1334)
    }

    /// wipe from a corner keeps Remotion's triangle cut to the frame: from the top-left, `x/W + y/H <= 2e`
    /// (wipe.tsx's `polygon(0% 0%, 2p% 0%, 0% 2p%)`), and likewise from each other corner, at points more than a
    /// point from the edge.
    @Test(arguments: [("up-left", 0.0, 0.0), ("up-right", 1.0, 0.0), ("down-left", 0.0, 1.0), ("down-right", 1.0, 1.0)])
    func wipeFromACornerIsRemotionsTriangle(_ edge: String, _ kx: Double, _ ky: Double) throws {
        let frame = Size(375, 667)
        var options = EffectOptions()
        options.set("edge", choice: edge)
        for e in [0.1, 0.3, 0.5, 0.7, 0.9] {
            let scene = Transition(EffectCatalog.named("wipe")!, options: options, curve: .linear).scene(at: e, frame: frame, scale: 1)
            #expect(scene.layers.count == 2)
            guard case let .sector(center, start, sweep)? = scene.layers[1].mask else { Issue.record("no sector mask"); return }
            #expect(sweep == .pi)
            for u in stride(from: 0.0, through: 1, by: 0.05) {
                for v in stride(from: 0.0, through: 1, by: 0.05) {
                    // Remotion's inequality, measured from the corner: a multiple of the frame's diagonal.
                    let reach = abs(u - kx) + abs(v - ky) - 2 * e
                    let distance = abs(reach) / (1 / (frame.width * frame.width) + 1 / (frame.height * frame.height)).squareRoot()
                    guard distance > 1 else { continue }
                    let p = Point(u * frame.width - center.x, v * frame.height - center.y)
                    let kept = cos(start) * p.y - sin(start) * p.x >= 0
                    #expect(kept == (reach < 0), "\(edge) e \(e) at (\(u), \(v))")
                }
            }
        }
    }

    /// container-transform's corners are Android's relative corner sizes: a 56-point circle growing into a
    /// 375-point-wide screen with square corners has a radius of 0.5 x min(w, h) of the growing image, lerped to
    /// 0 over the shape thresholds (0 ... 0.75 forward): 45.5 points at e = 0.3 (a lerp of 28 and 0 gives 16.8).
    @Test func containerTransformCornersScaleWithTheContainer() throws {
        var options = EffectOptions()
        options.set("from-rect", Rect(22, 100, 56, 56)); options.set("from-radius", 28)
        let effect = EffectCatalog.named("container-transform")!
        func radius(_ direction: Direction, _ e: Double) -> Double? {
            let scene = Transition(effect, direction: direction, options: options, curve: .linear).scene(at: e, frame: Size(375, 667), scale: 1)
            guard case let .roundedRect(_, radius)? = scene.layers.last?.mask else { return nil }
            return radius
        }
        let width = 56 + (375 - 56) * 0.3
        #expect(abs(try #require(radius(.forward, 0.3)) - 0.5 * width * (1 - 0.3 / 0.75)) < 1e-9)
        #expect(abs(try #require(radius(.forward, 0.3)) - 45.5) < 0.05)
        #expect(abs(try #require(radius(.forward, 0)) - 28) < 1e-9)
        #expect(try #require(radius(.forward, 1)) == 0)
        // Back: the screen (radius 0) until the shape threshold 0.3, then the circle's half of min(w, h).
        #expect(try #require(radius(.back, 0.2)) == 0)
        #expect(abs(try #require(radius(.back, 1)) - 28) < 1e-9)
    }
}
