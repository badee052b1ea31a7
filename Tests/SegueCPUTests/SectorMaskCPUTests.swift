import Foundation
import SegueCore
@testable import SegueCPU
import SegueTestSupport
import Testing

/// The CPU compositor's sector mask at a real size: against the analytic sector, against an unmasked layer
/// at a whole turn, and its interior spans against the general per-pixel function.
@Suite struct SectorMaskCPUTests {
    /// 1080 x 1920 pixels: the frame in points at `scale`.
    static func frame(scale: Double) -> Size { Size(1080 / scale, 1920 / scale) }

    /// Opaque noise: any wrong texel shows.
    static let noise = SeededRandom.opaqueNoise(width: 1080, height: 1920, seed: 0x9E37_79B9_7F4A_7C15)

    static func render(_ layers: [Layer], frame: Size, scale: Double, shortcuts: Bool = true,
                       sublayerTransform: Transform3D = .identity) throws -> (Pixmap, DrawList) {
        let cpu = CPUCompositor(threads: 2)
        cpu.takesShortcuts = shortcuts
        try cpu.load(snapshots: [noise, noise])
        let list = DrawList(scene: Scene(size: frame, sublayerTransform: sublayerTransform, layers: layers), scale: scale,
                            snapshots: [SnapshotInfo(noise), SnapshotInfo(noise)], background: Color(red: 0.1, green: 0.2, blue: 0.3))
        return (try cpu.render(list), list)
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

    /// Every sweep with every kind of centre (frame centre, off-centre, beyond the top-left corner, beyond the
    /// right edge), the rays of the outer centres turned so that the sector crosses the frame.
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

    /// Pixels farther than 1.5 pixels from both rays are the layer's content exactly or the background
    /// exactly, at scale 1 and at scale 2 (where 1.5 pixels are 0.75 points).
    @Test("sector coverage against the analytic sector, 1080x1920", arguments: cases(scale: 1).prefix(8) + cases(scale: 2).suffix(5))
    func matchesTheAnalyticSector(_ c: Case) throws {
        let frame = Self.frame(scale: c.scale)
        let background = Color(red: 0.1, green: 0.2, blue: 0.3).backgroundPixel
        let (image, _) = try Self.render([Self.masked(frame, c.mask)], frame: frame, scale: c.scale)
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
                        if actual[k] != (reference.inside ? content[k] : background) {
                            if wrong == 0 { firstWrong = "(\(x), \(y)), \(reference.inside ? "inside" : "outside")" }
                            wrong += 1
                        }
                    }
                }
            }
        }
        #expect(wrong == 0, "\(wrong) pixels wrong, the first at \(firstWrong)")
        #expect(inside > 0 && outside > 0, "the sector should leave pixels on both sides")
    }

    /// A whole turn (either way, or more) is no mask: byte for byte the unmasked layer, under a transform too.
    @Test("a whole turn equals the unmasked layer")
    func wholeTurnIsUnmasked() throws {
        let frame = Self.frame(scale: 1)
        for (sweep, transform) in [(2 * Double.pi, Transform3D.identity), (-2 * Double.pi, .identity), (5 * Double.pi, .identity),
                                   (2 * Double.pi, Self.rotationZ(0.4) * .scale(0.8, 0.9))] {
            let mask = Mask.sector(center: Point(300, 700), startAngle: 0.7, sweep: sweep)
            let (masked, _) = try Self.render([Self.masked(frame, mask, transform: transform)], frame: frame, scale: 1)
            let (plain, _) = try Self.render([Self.masked(frame, nil, transform: transform)], frame: frame, scale: 1)
            #expect(masked == plain, "sweep \(sweep / .pi)π")
        }
    }

    static let interiorTransforms: [String: Transform3D] = [
        "identity": .identity, "scale 2": .scale(2, 2), "rotated": rotationZ(0.4) * .scale(1.1, 1.1),
        "rotated and squeezed": .scale(0.6, 1.3) * rotationZ(-1.1), "mirrored": .scale(-0.9, 0.9),
    ]

    /// The interior spans (stretches of a row drawn with no coverage computed) give what the general function
    /// gives pixel by pixel: byte for byte for a colour, opaque or not, where only coverage could differ; and
    /// for the noise where texels fall on whole pixels. (Rotated, the interior steps texel positions in fixed
    /// point where the general function samples in single precision: a bilinear weight may round a level or
    /// two apart there, masked or not, so the colour is what tests the mask.)
    @Test("sector interior spans match the general per-pixel function, 1080x1920",
          arguments: ["identity", "scale 2", "rotated", "rotated and squeezed", "mirrored"])
    func interiorSpansMatchTheGeneralFunction(transformName: String) throws {
        let frame = Self.frame(scale: 1)
        let transform = Self.interiorTransforms[transformName]!
        let index = ["identity", "scale 2", "rotated", "rotated and squeezed", "mirrored"].firstIndex(of: transformName)!
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
                let (fast, _) = try Self.render([layer], frame: frame, scale: 1)
                let (general, _) = try Self.render([layer], frame: frame, scale: 1, shortcuts: false)
                let differing = zip(fast.pixels, general.pixels).filter { $0 != $1 }.count
                #expect(differing == 0, "\(c), \(layer.content), opacity \(layer.opacity): \(differing) pixels differ")
            }
        }
    }
}
