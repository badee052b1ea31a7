import Foundation
import Testing
import SegueCore

/// How a sector mask reaches the draw list: normalised to a first ray in `0..<2π` and a sweep in `0<..<2π`,
/// dropped at a sweep of 0, and no mask at all from a whole turn up.
@Suite struct SectorMaskTests {
    static let frame = Size(80, 60)
    static let info = [SnapshotInfo(width: 80, height: 60, isOpaque: true), SnapshotInfo(width: 80, height: 60, isOpaque: true)]

    /// The items of one full `from` layer with `mask`.
    static func items(_ mask: Mask) -> [DrawItem] {
        var layer = Layer.full(.from, frame: frame)
        layer.mask = mask
        return DrawList(scene: Scene(size: frame, layers: [layer]), scale: 1, snapshots: info).items
    }

    static func sector(start: Double, sweep: Double, center: Point = Point(40, 30)) -> Mask {
        .sector(center: center, startAngle: start, sweep: sweep)
    }

    @Test func sweepZeroDrawsNothing() {
        #expect(Self.items(Self.sector(start: 1, sweep: 0)).isEmpty)
        #expect(Self.items(Self.sector(start: 1, sweep: -0.0)).isEmpty)
        #expect(Self.items(Self.sector(start: 1, sweep: .nan)).isEmpty)
    }

    @Test(arguments: [2 * Double.pi, -2 * Double.pi, 7, -100, .infinity])
    func aWholeTurnIsNoMask(sweep: Double) throws {
        let items = Self.items(Self.sector(start: 0.3, sweep: sweep))
        let item = try #require(items.first)
        #expect(items.count == 1)
        #expect(item.mask == nil)
        #expect(item.isOpaque)
        #expect(item.blit != nil, "an unmasked full layer is a plain copy")
    }

    @Test(arguments: [
        // (start, sweep) as given, then as the draw list holds it.
        (0.0, 0.5 * Double.pi, 0.0, 0.5 * Double.pi),
        (0.0, -0.5 * Double.pi, 1.5 * Double.pi, 0.5 * Double.pi),
        (-0.25 * Double.pi, 0.5 * Double.pi, 1.75 * Double.pi, 0.5 * Double.pi),
        (7 * Double.pi, 1.5 * Double.pi, Double.pi, 1.5 * Double.pi),
        (-0.5 * Double.pi, -1.99 * Double.pi, 1.51 * Double.pi, 1.99 * Double.pi),
    ])
    func normalised(start: Double, sweep: Double, expectedStart: Double, expectedSweep: Double) throws {
        let item = try #require(Self.items(Self.sector(start: start, sweep: sweep)).first)
        guard case let .sector(center, s, w)? = item.mask else { Issue.record("no sector: \(String(describing: item.mask))"); return }
        #expect(center == Point(40, 30))
        #expect(abs(s - expectedStart) < 1e-12, "start \(s)")
        #expect(abs(w - expectedSweep) < 1e-12, "sweep \(w)")
        #expect(s >= 0 && s < 2 * .pi)
        #expect(!item.isOpaque)
    }

    @Test func nonFiniteGeometryDrawsNothing() {
        #expect(Self.items(Self.sector(start: .infinity, sweep: 1)).isEmpty)
        #expect(Self.items(Self.sector(start: 0, sweep: 1, center: Point(.nan, 3))).isEmpty)
    }

    @Test func raysPointAtTheirAngles() {
        let quarter = Mask.sectorRays(startAngle: 0, sweep: .pi / 2)
        #expect(quarter.start == Point(1, 0))
        #expect(abs(quarter.end.x) < 1e-15 && quarter.end.y == 1)  // +y: clockwise on screen
        #expect(!quarter.isReflex)
        let wide = Mask.sectorRays(startAngle: .pi, sweep: 1.5 * .pi)
        #expect(wide.isReflex)
        #expect(abs(wide.start.x + 1) < 1e-15 && abs(wide.end.x) < 1e-15 && abs(wide.end.y - 1) < 1e-15)
    }
}
