import Foundation
import SegueCore
@testable import SegueCPU
import SegueTestSupport
import Testing

extension GLESSuite {
    /// Continuous corners (`Mask.continuousRect`: `layer.frag`'s MASK 6, the CPU's `continuousDistance`) on
    /// each backend: against iOS's own corner curve (its three Bezier segments), against the CPU compositor under
    /// an affine and a perspective transform, and the CPU's interior spans against its general function.
    @Suite struct ContinuousCorners {
        static let frame = Size(1080, 1080)

        /// iOS's continuous corner for radius 1, from the corner along the top edge to the left one: the
        /// segments `UIBezierPath(roundedRect:cornerRadius:)` draws (in the corner's frame: x along the top edge
        /// from the corner, y down the left edge from it), sampled densely.
        static let curve: [Point] = {
            let segments: [[(Double, Double)]] = [
                [(1.52866483, 0), (1.08849323, 0), (0.86840689, 0), (0.66993427, 0.065496)],
                [(0.66993427, 0.065496), (0.63149399, 0.074911)],
                [(0.63149399, 0.074911), (0.37282392, 0.16905899), (0.16906013, 0.37282401), (0.07491176, 0.63149399)],
                [(0.07491176, 0.63149399), (0.065496, 0.66993427)],
                [(0.065496, 0.66993427), (0, 0.86840689), (0, 1.08849323), (0, 1.52866483)],
            ]
            var points: [Point] = []
            for s in segments {
                let n = s.count == 4 ? 400 : 10
                for k in 0...n {
                    let t = Double(k) / Double(n)
                    let w = s.count == 4 ? [(1 - t) * (1 - t) * (1 - t), 3 * t * (1 - t) * (1 - t), 3 * t * t * (1 - t), t * t * t] : [1 - t, t]
                    points.append(Point(zip(w, s).reduce(0) { $0 + $1.0 * $1.1.0 }, zip(w, s).reduce(0) { $0 + $1.0 * $1.1.1 }))
                }
            }
            return points
        }()

        /// Whether corner-frame point `(x, y)` (radius 1) is inside iOS's shape, and its distance to the curve.
        static func reference(_ x: Double, _ y: Double) -> (inside: Bool, distance: Double) {
            let reach = Mask.continuousReach
            var distance = Double.infinity
            for k in 1..<curve.count {
                let a = curve[k - 1], b = curve[k]
                let dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy
                let t = len2 > 0 ? min(max(((x - a.x) * dx + (y - a.y) * dy) / len2, 0), 1) : 0
                let px = a.x + t * dx - x, py = a.y + t * dy - y
                distance = min(distance, (px * px + py * py).squareRoot())
            }
            guard x < reach && y < reach else { return (x >= 0 && y >= 0, min(distance, min(x, y).magnitude)) }
            // Inside when past the curve from the corner: the curve runs from (reach, 0) to (0, reach), so the
            // corner side is where the ray from (reach, reach) through the point crosses it farther out.
            let angle = atan2(reach - y, reach - x)
            var best = curve[0], bestGap = Double.infinity
            for p in curve {
                let gap = abs(atan2(reach - p.y, reach - p.x) - angle)
                if gap < bestGap { (best, bestGap) = (p, gap) }
            }
            let outward = ((reach - x) * (reach - x) + (reach - y) * (reach - y)).squareRoot()
            let edge = ((reach - best.x) * (reach - best.x) + (reach - best.y) * (reach - best.y)).squareRoot()
            return (outward <= edge, distance)
        }

        static func list(_ layers: [Layer], snapshots: [Pixmap], sublayer: Transform3D = .identity) -> DrawList {
            DrawList(scene: Scene(size: frame, sublayerTransform: sublayer, layers: layers), scale: 1,
                     snapshots: snapshots.map(SnapshotInfo.init), background: Color(red: 0.1, green: 0.2, blue: 0.3))
        }

        /// A white card with continuous corners of radius 100 on the background: every pixel farther than
        /// `Mask.continuousExponent`'s fit (0.0074 radii) plus 1.2 pixels from iOS's curve is wholly in or out.
        @Test("continuous corners against iOS's curve, 1080x1080", arguments: TestBackend.all)
        func matchesTheCurve(_ backend: TestBackend) throws {
            let radius = 100.0, rect = Rect(140, 140, 800, 800)
            let blank = [Pixmap(width: 1080, height: 1080), Pixmap(width: 1080, height: 1080)]
            let renderer = try backend.makeRenderer()
            try renderer.load(snapshots: blank)
            let card = Layer(bounds: Self.frame, position: Point(540, 540), content: .color(.white),
                             mask: .continuousRect(rect, radius: radius))
            let image = try renderer.render(Self.list([card], snapshots: blank))
            let background = Color(red: 0.1, green: 0.2, blue: 0.3).backgroundPixel
            var wrong = 0, firstWrong = "", checked = 0
            // The top-left corner's square (the others are its mirror images in the per-pixel function).
            for y in 140..<(140 + 160) {
                for x in 140..<(140 + 160) {
                    let (inside, distance) = Self.reference((Double(x) + 0.5 - 140) / radius, (Double(y) + 0.5 - 140) / radius)
                    if distance * radius <= 0.0074 * radius + 1.2 { continue }
                    checked += 1
                    let pixel = image.pixels[y * 1080 + x]
                    let expected: UInt32 = inside ? 0xFFFF_FFFF : background
                    let near = stride(from: 0 as UInt32, to: 32, by: 8).allSatisfy {
                        abs(Int((pixel >> $0) & 0xFF) - Int((expected >> $0) & 0xFF)) <= backend.tolerance.maxLevelDiff
                    }
                    if !near {
                        if wrong == 0 { firstWrong = "(\(x), \(y)) \(inside ? "inside" : "outside")" }
                        wrong += 1
                    }
                }
            }
            #expect(wrong == 0, "\(backend): \(wrong) of \(checked) pixels wrong, the first at \(firstWrong)")
            #expect(checked > 20000)
            try backend.expectDrewOnItsPath(renderer, name: "matchesTheCurve")
        }

        static let transforms: [String: (layer: Transform3D, sublayer: Transform3D)] = [
            "identity": (.identity, .identity),
            "affine": (SectorMask.rotationZ(0.35) * .scale(0.85, 0.7), .identity),
            "perspective": (.rotationY(0.5) * .scale(0.9, 0.9), .perspective(900)),
        ]

        /// Cards with continuous corners, large and small radii, one faded, one wider than its radius allows,
        /// over a screen.
        static func scene(_ transformName: String, colour: Bool = false) -> [Layer] {
            let transform = transforms[transformName]!.layer
            var layers = [Layer.full(.from, frame: frame)]
            for (k, (rect, radius)) in [(Rect(100, 120, 600, 700), 60.0), (Rect(720, 80, 300, 260), 400), (Rect(650, 600, 380, 400), 12)].enumerated() {
                var card = Layer.piece(.to, rect)
                if colour { card.content = .color(Color(red: 0.9, green: 0.6, blue: 0.2)) }
                card.transform = transform
                card.mask = .continuousRect(Rect(0, 0, rect.width, rect.height), radius: radius)
                if k == 2 { card.opacity = 0.7 }
                layers.append(card)
            }
            return layers
        }

        @Test("continuous corners against the cpu reference, 1080x1080", arguments: TestBackend.all, ["identity", "affine", "perspective"])
        func matchesTheReference(_ backend: TestBackend, transformName: String) throws {
            let snapshots = TestTransitions.snapshots(width: 1080, height: 1080)
            let list = Self.list(Self.scene(transformName), snapshots: snapshots, sublayer: Self.transforms[transformName]!.sublayer)
            try backend.expectMatchesReference(list, snapshots: snapshots, name: "continuous.\(transformName)")
        }

        @Test("cpu: continuous-corner interiors match the general per-pixel function", arguments: ["identity", "affine", "perspective"])
        func shortcutsMatchTheGeneralFunction(transformName: String) throws {
            let snapshots = TestTransitions.snapshots(width: 1080, height: 1080)
            let list = Self.list(Self.scene(transformName, colour: true), snapshots: snapshots, sublayer: Self.transforms[transformName]!.sublayer)
            let differing = try TestBackend.pixelsTheShortcutsChange(list, snapshots: snapshots)
            #expect(differing == 0, "\(transformName): \(differing) pixels differ")
        }
    }
}
