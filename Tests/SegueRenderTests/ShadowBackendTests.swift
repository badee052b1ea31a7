import Foundation
import SegueCore
@testable import SegueCPU
import SegueTestSupport
import Testing

extension GLESSuite {
    /// Shadows (`Layer.shadow`, drawn as an item whose mask is the shape blurred: `layer.frag`'s MASK 4 and 5,
    /// the CPU's `BlurredShape`) on each backend at a real size: against a numerically blurred shape, against
    /// the CPU compositor (the reference) under an affine and a perspective transform, and the CPU's interior
    /// spans and covered stretches against its general per-pixel function.
    @Suite struct Shadows {
        /// How far a rectangle's shadow may be from the numerically blurred rectangle, in levels of 255: its
        /// formula is exact but for `Mask.erf` (within 5e-4) and single precision.
        static let rectangleLevels = 2
        /// How far a rounded rectangle's or a circle's may be, as a fraction of full coverage: Levien's
        /// approximation, measured at 0.032 at worst over these shapes (where the blur is at most a fifth of
        /// the shorter side), plus a level of rounding.
        static let roundedCoverage = 0.036

        /// One shape casting a black shadow of opacity 1 onto white, alone (the caster is clear, its shadow
        /// cast by `path`): every pixel shows `1 - coverage`.
        struct Case: CustomStringConvertible, Sendable {
            var name: String
            var rect: Rect
            var cornerRadius: Double
            var sigma: Double
            var scale: Double
            var description: String { "\(name), sigma \(sigma.formatted()), scale \(scale.formatted())" }
        }

        static let cases: [Case] = [
            Case(name: "rectangle", rect: Rect(100, 150, 700, 500), cornerRadius: 0, sigma: 12, scale: 1),
            Case(name: "thin rectangle", rect: Rect(60, 300, 900, 30), cornerRadius: 0, sigma: 20, scale: 1),
            Case(name: "rounded rectangle", rect: Rect(140, 200, 600, 400), cornerRadius: 40, sigma: 10, scale: 1),
            Case(name: "card", rect: Rect(70, 90, 380, 250), cornerRadius: 16, sigma: 6, scale: 2),
            Case(name: "circle", rect: Rect(300, 500, 400, 400), cornerRadius: 200, sigma: 15, scale: 1),
        ]

        static let frame = Size(1080, 1080)

        /// The shape blurred by a Gaussian of standard deviation `sigma`, by quadrature across the rows of the
        /// shape (each row's extent is exact, the row's blur along it is the difference of two `erf`s): an
        /// independent check of the closed forms the backends evaluate.
        static func blurred(_ p: Point, _ c: Case) -> Double {
            let sigma = c.sigma, r = c.cornerRadius
            let cx = c.rect.center.x, cy = c.rect.center.y, hx = c.rect.width / 2, hy = c.rect.height / 2
            let u = p.x - cx, v = p.y - cy
            let lo = max(-hy, v - 7 * sigma), hi = min(hy, v + 7 * sigma)
            guard lo < hi else { return 0 }
            let steps = 400
            let step = (hi - lo) / Double(steps)
            var sum = 0.0
            for k in 0..<steps {
                let y = lo + (Double(k) + 0.5) * step
                let into = abs(y) - (hy - r)
                let inset = into > 0 ? r - max(0, r * r - into * into).squareRoot() : 0
                let left = -hx + inset, right = hx - inset
                let weight = exp(-(v - y) * (v - y) / (2 * sigma * sigma)) / (sigma * (2 * Double.pi).squareRoot())
                sum += weight * 0.5 * (Foundation.erf((right - u) / (sigma * 2.0.squareRoot())) - Foundation.erf((left - u) / (sigma * 2.0.squareRoot()))) * step
            }
            return sum
        }

        static func castingLayer(_ c: Case) -> Layer {
            var caster = Layer.full(.from, frame: frame)
            caster.content = .color(.clear)
            caster.shadow = Shadow(opacity: 1, radius: c.sigma / Shadow.sigmaPerRadius, offset: Point(0, 0),
                                   path: ShadowPath(rect: c.rect, cornerRadius: c.cornerRadius))
            return caster
        }

        static func list(_ layers: [Layer], snapshots: [Pixmap], scale: Double, sublayer: Transform3D = .identity) -> DrawList {
            DrawList(scene: Scene(size: frame, sublayerTransform: sublayer, layers: layers), scale: scale,
                     snapshots: snapshots.map(SnapshotInfo.init), background: .white)
        }

        /// Every pixel against the blurred shape: within `rectangleLevels` for a rectangle, `roundedCoverage` for
        /// the others.
        @Test("shadow against the numerically blurred shape, 1080x1080", arguments: TestBackend.all, cases)
        func matchesTheBlurredShape(_ backend: TestBackend, _ c: Case) throws {
            let renderer = try backend.makeRenderer()
            let width = Int(Self.frame.width * c.scale)
            let blank = [Pixmap(width: width, height: width), Pixmap(width: width, height: width)]
            try renderer.load(snapshots: blank)
            let image = try renderer.render(Self.list([Self.castingLayer(c)], snapshots: blank, scale: c.scale))
            let allowed = c.cornerRadius == 0 ? Double(Self.rectangleLevels) : Self.roundedCoverage * 255 + 1
            var worst = 0.0, worstAt = (0, 0), shaded = 0
            // Every third pixel each way: the reference is a quadrature per pixel.
            for y in stride(from: 0, to: image.height, by: 3) {
                for x in stride(from: 0, to: image.width, by: 3) {
                    let p = Point((Double(x) + 0.5) / c.scale, (Double(y) + 0.5) / c.scale)
                    let expected = 255 * (1 - Self.blurred(p, c))
                    let pixel = image.pixels[y * image.width + x]
                    let red = Double(pixel & 0xFF)
                    if expected < 254 { shaded += 1 }
                    let diff = abs(red - expected)
                    if diff > worst { (worst, worstAt) = (diff, (x, y)) }
                }
            }
            print("shadow \(backend) \(c): worst \(String(format: "%.2f", worst)) levels at \(worstAt), \(shaded) pixels shaded")
            #expect(worst <= allowed, "\(backend) \(c): \(worst) levels from the blurred shape at \(worstAt), allowed \(allowed)")
            #expect(shaded > 1000)
            try backend.expectDrewOnItsPath(renderer, name: "matchesTheBlurredShape")
        }

        static let transforms: [String: (layer: Transform3D, sublayer: Transform3D)] = [
            "identity": (.identity, .identity),
            "affine": (SectorMask.rotationZ(0.35) * .scale(0.85, 0.7), .identity),
            "perspective": (.rotationY(0.5) * .scale(0.9, 0.9), .perspective(900)),
        ]

        /// Screens casting shadows over a screen, as the catalogue's effects do: a plain and a rounded screen,
        /// a faded one, a coloured shadow offset down and a circle, under each transform.
        static func scene(_ transformName: String) -> [Layer] {
            let (transform, _) = transforms[transformName]!
            var base = Layer.full(.from, frame: frame)
            base.transform = .identity
            var card = Layer.piece(.to, Rect(200, 150, 600, 700))
            card.transform = transform
            card.mask = .roundedRect(Rect(0, 0, 600, 700), radius: 36)
            card.shadow = Shadow(opacity: 0.5, radius: 14, offset: Point(0, 8))
            var plain = Layer.piece(.to, Rect(40, 40, 300, 260))
            plain.transform = transform
            plain.shadow = Shadow(color: Color(red: 0.2, green: 0.1, blue: 0.6), opacity: 0.8, radius: 5, offset: Point(-6, 4))
            var faded = Layer.piece(.from, Rect(640, 700, 380, 300))
            faded.transform = transform
            faded.opacity = 0.6
            faded.shadow = Shadow(opacity: 0.35, radius: 30)
            var disc = Layer(bounds: Size(200, 200), position: Point(850, 200), transform: transform,
                             content: .color(Color(red: 0.9, green: 0.4, blue: 0.1)), mask: .circle(center: Point(100, 100), radius: 100))
            disc.shadow = Shadow(opacity: 0.6, radius: 8, offset: Point(0, 6))
            return [base, card, plain, faded, disc]
        }

        @Test("shadows against the cpu reference, 1080x1080", arguments: TestBackend.all, ["identity", "affine", "perspective"])
        func matchesTheReference(_ backend: TestBackend, transformName: String) throws {
            let snapshots = TestTransitions.snapshots(width: 1080, height: 1080)
            let list = Self.list(Self.scene(transformName), snapshots: snapshots, scale: 1, sublayer: Self.transforms[transformName]!.sublayer)
            #expect(list.items.count == 9, "4 shadows beneath 4 layers, over the screen")
            try backend.expectMatchesReference(list, snapshots: snapshots, name: "shadows.\(transformName)")
        }

        /// The CPU's own shortcuts, so on the CPU only: interior spans, and the stretches a shadow's opaque
        /// caster overwrites (skipped beneath it), give what the general function gives pixel by pixel.
        @Test("cpu: shadow interiors and covered stretches match the general per-pixel function",
              arguments: ["identity", "affine", "perspective"])
        func shortcutsMatchTheGeneralFunction(transformName: String) throws {
            let snapshots = TestTransitions.snapshots(width: 1080, height: 1080)
            // Colour screens over the noise: only coverage could differ (a rotated or perspective screen's
            // interior steps texel positions apart from the general function's, `Tolerance.fastPath`).
            let layers = Self.scene(transformName).enumerated().map { k, layer in
                var plain = layer
                if k > 0, case .snapshot = layer.content { plain.content = .color(Color(red: 0.3, green: 0.7, blue: 0.5)) }
                return plain
            }
            let list = Self.list(layers, snapshots: snapshots, scale: 1, sublayer: Self.transforms[transformName]!.sublayer)
            let differing = try TestBackend.pixelsTheShortcutsChange(list, snapshots: snapshots)
            #expect(differing == 0, "\(transformName): \(differing) pixels differ")
        }
    }
}
