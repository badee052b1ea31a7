import Foundation
import SegueCore
@testable import SegueCPU
import SegueTestSupport
import Testing

extension GLESSuite {
    /// The sector mask (`layer.frag`'s MASK 3, the CPU's sector coverage) on each backend at a real size:
    /// against the analytic sector, against an unmasked layer at a whole turn, and against the CPU compositor
    /// (the reference) under an affine and a perspective transform; and the CPU's interior spans against its
    /// general per-pixel function.
    @Suite struct SectorMask {
        static let background = Color(red: 0.1, green: 0.2, blue: 0.3)

        /// 1080 x 1920 pixels: the frame in points at `scale`.
        static func frame(scale: Double) -> Size { Size(1080 / scale, 1920 / scale) }

        /// Opaque noise: any wrong texel shows.
        static let noise = SeededRandom.opaqueNoise(width: 1080, height: 1920, seed: 0x9E37_79B9_7F4A_7C15)

        static func list(_ layers: [Layer], frame: Size, scale: Double, sublayerTransform: Transform3D = .identity) -> DrawList {
            DrawList(scene: Scene(size: frame, sublayerTransform: sublayerTransform, layers: layers), scale: scale,
                     snapshots: [SnapshotInfo(noise), SnapshotInfo(noise)], background: background)
        }

        static func masked(_ frame: Size, _ mask: Mask?, transform: Transform3D = .identity) -> Layer {
            var layer = Layer.full(.from, frame: frame)
            layer.mask = mask
            layer.transform = transform
            return layer
        }

        /// The rotation by `theta` in the frame's plane (clockwise on screen).
        static func rotationZ(_ theta: Double) -> Transform3D {
            Transform3D(cos(theta), sin(theta), 0, 0, -sin(theta), cos(theta), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
        }

        /// Where the local point `p` lies against the sector as `Mask.sector` defines it, computed in double
        /// precision from the angle itself: inside or not, and its distance to the nearer ray.
        static func reference(_ p: Point, center: Point, start: Double, sweep: Double) -> (inside: Bool, distance: Double) {
            let dx = p.x - center.x, dy = p.y - center.y
            let turn = 2 * Double.pi
            let theta = atan2(dy, dx)
            var from = sweep >= 0 ? theta - start : start - theta
            from = from.truncatingRemainder(dividingBy: turn)
            if from < 0 { from += turn }
            let inside = from <= abs(sweep)
            func toRay(_ angle: Double) -> Double {
                let rx = cos(angle), ry = sin(angle)
                let along = dx * rx + dy * ry
                return along > 0 ? abs(dx * ry - dy * rx) : (dx * dx + dy * dy).squareRoot()
            }
            return (inside, min(toRay(start), toRay(start + sweep)))
        }

        static let centers: [(String, Double, Double)] = [
            ("centre", 0.5, 0.5), ("off-centre", 0.2, 0.8), ("outside-top-left", -0.3, -0.1), ("outside-right", 1.4, 0.45),
        ]

        /// One sector per case: a centre, a first ray, a sweep and a scale (2: 540 x 960 points).
        struct Case: CustomStringConvertible, Sendable {
            var centerName: String
            var fx, fy, start, sweep, scale: Double
            var description: String {
                "\(centerName), start \(start), sweep \((sweep / .pi).formatted())π, scale \(scale.formatted())"
            }
            var center: Point { Point(1080 / scale * fx, 1920 / scale * fy) }
            var mask: Mask { .sector(center: center, startAngle: start, sweep: sweep) }
        }

        /// Every sweep with every kind of centre (frame centre, off-centre, beyond the top-left corner, beyond
        /// the right edge), the rays of the outer centres turned so that the sector crosses the frame.
        static func cases(scale: Double) -> [Case] {
            let pi = Double.pi
            return [("centre", -pi / 2, 0.1 * pi), ("off-centre", 0.3, 0.5 * pi), ("outside-top-left", 0.3, pi),
                    ("outside-right", 2.5, 1.5 * pi), ("centre", 0.3, 1.99 * pi), ("off-centre", -pi / 2, -0.75 * pi),
                    ("outside-top-left", 0.3, -0.75 * pi), ("outside-right", -pi / 2, -0.75 * pi), ("centre", 0.3, 1.5 * pi),
                    ("outside-right", 3, pi), ("outside-top-left", 0.3, 0.1 * pi), ("off-centre", 0.3, 1.99 * pi),
                    ("centre", -pi / 2, -1.5 * pi), ("off-centre", 2, pi), ("centre", 1, 0.5 * pi)].map { name, start, sweep in
                let (_, fx, fy) = centers.first { $0.0 == name }!
                return Case(centerName: name, fx: fx, fy: fy, start: start, sweep: sweep, scale: scale)
            }
        }

        /// Pixels farther than 1.5 pixels from both rays are the layer's content or the background, at scale 1
        /// and at scale 2 (where 1.5 pixels are 0.75 points): on the CPU exactly, on GLES within
        /// `Tolerance.glesVsCPU.maxLevelDiff` levels per channel (the backend's `tolerance`).
        @Test("sector coverage against the analytic sector, 1080x1920",
              arguments: TestBackend.all, cases(scale: 1).prefix(8) + cases(scale: 2).suffix(5))
        func matchesTheAnalyticSector(_ backend: TestBackend, _ c: Case) throws {
            let frame = Self.frame(scale: c.scale)
            let background = Self.background.backgroundPixel
            let levels = backend.tolerance.maxLevelDiff
            let renderer = try backend.makeRenderer()
            try renderer.load(snapshots: [Self.noise, Self.noise])
            let image = try renderer.render(Self.list([Self.masked(frame, c.mask)], frame: frame, scale: c.scale))
            func near(_ a: UInt32, _ b: UInt32) -> Bool {
                stride(from: 0 as UInt32, to: 32, by: 8).allSatisfy { abs(Int((a >> $0) & 0xFF) - Int((b >> $0) & 0xFF)) <= levels }
            }
            var wrong = 0, firstWrong = "", inside = 0, outside = 0
            image.pixels.withUnsafeBufferPointer { actual in
                Self.noise.pixels.withUnsafeBufferPointer { content in
                    for y in 0..<image.height {
                        for x in 0..<image.width {
                            let local = Point((Double(x) + 0.5) / c.scale, (Double(y) + 0.5) / c.scale)
                            let reference = Self.reference(local, center: c.center, start: c.start, sweep: c.sweep)
                            if reference.distance * c.scale <= 1.5 { continue }
                            if reference.inside { inside += 1 } else { outside += 1 }
                            let k = y * image.width + x
                            if !near(actual[k], reference.inside ? content[k] : background) {
                                if wrong == 0 { firstWrong = "(\(x), \(y)), \(reference.inside ? "inside" : "outside")" }
                                wrong += 1
                            }
                        }
                    }
                }
            }
            #expect(wrong == 0, "\(backend): \(wrong) pixels more than \(levels) levels wrong, the first at \(firstWrong)")
            #expect(inside > 0 && outside > 0, "the sector should leave pixels on both sides")
            try backend.expectDrewOnItsPath(renderer, name: "matchesTheAnalyticSector")
        }

        /// A whole turn (either way, or more) is no mask: byte for byte the unmasked layer, under a transform too.
        @Test("a whole turn equals the unmasked layer", arguments: TestBackend.all)
        func wholeTurnIsUnmasked(_ backend: TestBackend) throws {
            let frame = Self.frame(scale: 1)
            let renderer = try backend.makeRenderer()
            try renderer.load(snapshots: [Self.noise, Self.noise])
            for (sweep, transform) in [(2 * Double.pi, Transform3D.identity), (-2 * Double.pi, .identity), (5 * Double.pi, .identity),
                                       (2 * Double.pi, Self.rotationZ(0.4) * .scale(0.8, 0.9))] {
                let mask = Mask.sector(center: Point(300, 700), startAngle: 0.7, sweep: sweep)
                let masked = try renderer.render(Self.list([Self.masked(frame, mask, transform: transform)], frame: frame, scale: 1))
                let plain = try renderer.render(Self.list([Self.masked(frame, nil, transform: transform)], frame: frame, scale: 1))
                #expect(masked == plain, "\(backend): sweep \(sweep / .pi)π")
            }
            try backend.expectDrewOnItsPath(renderer, name: "wholeTurnIsUnmasked")
        }

        static let transforms: [String: (layer: Transform3D, sublayer: Transform3D)] = [
            "identity": (.identity, .identity),
            "affine": (rotationZ(0.35) * .scale(0.85, 0.7), .identity),
            "perspective": (.rotationY(0.55) * .scale(0.9, 0.9), .perspective(400)),
        ]

        /// Sweeps from a sliver to a whole turn and both ways, about the frame's centre, a point off it and a
        /// point outside the frame; the first ray at 12 o'clock or elsewhere.
        static var referenceCases: [(center: Point, start: Double, sweep: Double)] {
            let centers = [Point(120, 200), Point(70, 290), Point(-60, -40)]
            let sweeps = [0.1, 0.5, 1, 1.5, 1.99, 2, -0.6, -1.3].map { $0 * Double.pi }
            return centers.enumerated().flatMap { i, center in
                sweeps.enumerated().map { k, sweep in
                    // Outside the frame the rays must point into it for the sector to cross it.
                    (center, i == 2 ? 0.35 + 0.1 * Double(k) : ((i + k) % 2 == 0 ? -Double.pi / 2 : 0.9), sweep)
                }
            }
        }

        /// Every sector of `referenceCases` over a white layer, some faded, at 240x400 under each transform,
        /// against the reference within the backend's tolerance.
        @Test("sector masks against the cpu reference", arguments: TestBackend.all, ["identity", "affine", "perspective"])
        func sectors(_ backend: TestBackend, transformName: String) throws {
            let frame = Size(240, 400)
            let (transform, sublayer) = Self.transforms[transformName]!
            let snapshots = TestTransitions.snapshots(width: 240, height: 400)
            let renderer = try backend.makeRenderer(), reference = TestBackend.reference()
            try renderer.load(snapshots: snapshots)
            try reference.load(snapshots: snapshots)
            let tolerance = backend.tolerance
            var worstDiff = 0, worstName = "", lowestPSNR = Double.infinity, lowestWithin = 1.0
            for (k, c) in Self.referenceCases.enumerated() {
                var layer = Layer.full(k % 3 == 2 ? .to : .from, frame: frame)
                layer.transform = transform
                layer.mask = .sector(center: c.center, startAngle: c.start, sweep: c.sweep)
                if k % 4 == 3 { layer.opacity = 0.7 }
                let list = DrawList(scene: Scene(size: frame, sublayerTransform: sublayer,
                                                 layers: [Layer(bounds: frame, position: Point(120, 200), content: .color(.white)),
                                                          layer]),
                                    scale: 1, snapshots: snapshots.map(SnapshotInfo.init), background: Self.background)
                let actual = try renderer.render(list)
                let expected = try reference.render(list)
                let comparison = ImageComparison(actual: actual, expected: expected, levels: tolerance.maxLevelDiff)
                let name = "\(backend)-vs-cpu.sector.\(transformName).c\(c.center.x),\(c.center.y).s\(c.start.formatted()).w\((c.sweep / .pi).formatted())pi"
                if comparison.maxDiff > worstDiff { (worstDiff, worstName) = (comparison.maxDiff, "\(name) at \(comparison.worstPixel)") }
                lowestPSNR = min(lowestPSNR, comparison.psnr)
                lowestWithin = min(lowestWithin, comparison.fractionWithin)
                if !comparison.passes(tolerance) {
                    let paths = FailureReport.write(
                        name: name, actual: actual, expected: expected, comparison: comparison, tolerance: tolerance,
                        context: ["actual": renderer.details, "expected": reference.details, "items": "\(list.items.count)"])
                    Issue.record("\(name): \(comparison), needs \(tolerance)\n  \(paths)")
                }
            }
            print("\(backend)-vs-cpu.sector.\(transformName): \(Self.referenceCases.count) frames, worst max diff \(worstDiff) (\(worstName)), lowest PSNR "
                  + String(format: "%.1f dB, lowest %.3f%% within %d levels", lowestPSNR, lowestWithin * 100, tolerance.maxLevelDiff))
            try backend.expectDrewOnItsPath(renderer, name: "sectors")
        }

        static let interiorTransforms: [String: Transform3D] = [
            "identity": .identity, "scale 2": .scale(2, 2), "rotated": rotationZ(0.4) * .scale(1.1, 1.1),
            "rotated and squeezed": .scale(0.6, 1.3) * rotationZ(-1.1), "mirrored": .scale(-0.9, 0.9),
        ]

        /// The CPU compositor's own shortcut, so on the CPU only: the interior spans (stretches of a row drawn
        /// with no coverage computed) give what the general function gives pixel by pixel: byte for byte for a
        /// colour, opaque or not, where only coverage could differ; and for the noise where texels fall on whole
        /// pixels. (Rotated, the interior steps texel positions in fixed point where the general function samples
        /// in single precision: a bilinear weight may round a level or two apart there, masked or not, so the
        /// colour is what tests the mask.)
        @Test("cpu: sector interior spans match the general per-pixel function, 1080x1920",
              arguments: ["identity", "scale 2", "rotated", "rotated and squeezed", "mirrored"])
        func interiorSpansMatchTheGeneralFunction(transformName: String) throws {
            let frame = Self.frame(scale: 1)
            let transform = Self.interiorTransforms[transformName]!
            let index = ["identity", "scale 2", "rotated", "rotated and squeezed", "mirrored"].firstIndex(of: transformName)!
            func render(_ layer: Layer, shortcuts: Bool) throws -> Pixmap {
                let cpu = CPUCompositor(threads: 2)
                cpu.takesShortcuts = shortcuts
                try cpu.load(snapshots: [Self.noise, Self.noise])
                return try cpu.render(Self.list([layer], frame: frame, scale: 1))
            }
            for (k, c) in Self.cases(scale: 1)[(index * 3)..<(index * 3 + 3)].enumerated() {
                var colour = Self.masked(frame, c.mask, transform: transform)
                colour.content = .color(Color(red: 0.9, green: 0.5, blue: 0.2))
                var layers = [colour]
                if k == 0 {
                    var faint = colour
                    faint.opacity = 0.6
                    layers.append(faint)
                }
                if k == 1 && ["identity", "scale 2", "mirrored"].contains(transformName) {
                    layers.append(Self.masked(frame, c.mask, transform: transform))
                }
                for layer in layers {
                    let fast = try render(layer, shortcuts: true)
                    let general = try render(layer, shortcuts: false)
                    let differing = zip(fast.pixels, general.pixels).filter { $0 != $1 }.count
                    #expect(differing == 0, "\(c), \(layer.content), opacity \(layer.opacity): \(differing) pixels differ")
                }
            }
        }
    }
}
