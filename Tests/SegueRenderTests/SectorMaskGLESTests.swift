import Foundation
import SegueCore
import SegueCPU
import SegueGLES
import SegueTestSupport
import Testing

extension GLESSuite {
    /// The sector mask (`layer.frag`'s MASK 3) on GLES against the CPU compositor, within `Tolerance.glesVsCPU`.
    @Suite struct SectorMask {
        static let frame = Size(240, 400)
        static let background = Color(red: 0.1, green: 0.2, blue: 0.3)

        static let transforms: [String: (layer: Transform3D, sublayer: Transform3D)] = [
            "identity": (.identity, .identity),
            "affine": (Transform3D(cos(0.35), sin(0.35), 0, 0, -sin(0.35), cos(0.35), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
                       * .scale(0.85, 0.7), .identity),
            "perspective": (.rotationY(0.55) * .scale(0.9, 0.9), .perspective(400)),
        ]

        /// Sweeps from a sliver to a whole turn and both ways, about the frame's centre, a point off it and a
        /// point outside the frame; the first ray at 12 o'clock or elsewhere.
        static var cases: [(center: Point, start: Double, sweep: Double)] {
            let centers = [Point(120, 200), Point(70, 290), Point(-60, -40)]
            let sweeps = [0.1, 0.5, 1, 1.5, 1.99, 2, -0.6, -1.3].map { $0 * Double.pi }
            return centers.enumerated().flatMap { i, center in
                sweeps.enumerated().map { k, sweep in
                    // Outside the frame the rays must point into it for the sector to cross it.
                    (center, i == 2 ? 0.35 + 0.1 * Double(k) : ((i + k) % 2 == 0 ? -Double.pi / 2 : 0.9), sweep)
                }
            }
        }

        @Test("gles matches cpu: sector masks", arguments: ["identity", "affine", "perspective"])
        func sectors(transformName: String) throws {
            let (transform, sublayer) = Self.transforms[transformName]!
            let snapshots = TestTransitions.snapshots(width: 240, height: 400)
            let gles = try GLESRenderer()
            let cpu = CPUCompositor(threads: 2)
            try gles.load(snapshots: snapshots)
            try cpu.load(snapshots: snapshots)
            let tolerance = Tolerance.glesVsCPU
            var worstDiff = 0, worstName = "", lowestPSNR = Double.infinity, lowestWithin = 1.0
            for (k, c) in Self.cases.enumerated() {
                var layer = Layer.full(k % 3 == 2 ? .to : .from, frame: Self.frame)
                layer.transform = transform
                layer.mask = .sector(center: c.center, startAngle: c.start, sweep: c.sweep)
                if k % 4 == 3 { layer.opacity = 0.7 }
                let list = DrawList(scene: Scene(size: Self.frame, sublayerTransform: sublayer,
                                                 layers: [Layer(bounds: Self.frame, position: Point(120, 200), content: .color(.white)),
                                                          layer]),
                                    scale: 1, snapshots: snapshots.map(SnapshotInfo.init), background: Self.background)
                let actual = try gles.render(list)
                let expected = try cpu.render(list)
                let comparison = ImageComparison(actual: actual, expected: expected, levels: tolerance.maxLevelDiff)
                let name = "gles-vs-cpu.sector.\(transformName).c\(c.center.x),\(c.center.y).s\(c.start.formatted()).w\((c.sweep / .pi).formatted())pi"
                if comparison.maxDiff > worstDiff { (worstDiff, worstName) = (comparison.maxDiff, "\(name) at \(comparison.worstPixel)") }
                lowestPSNR = min(lowestPSNR, comparison.psnr)
                lowestWithin = min(lowestWithin, comparison.fractionWithin)
                if !comparison.passes(tolerance) {
                    let paths = FailureReport.write(
                        name: name, actual: actual, expected: expected, comparison: comparison, tolerance: tolerance,
                        context: ["actual": gles.details, "expected": cpu.details, "items": "\(list.items.count)"])
                    Issue.record("\(name): \(comparison), needs \(tolerance)\n  \(paths)")
                }
            }
            print("gles-vs-cpu.sector.\(transformName): \(Self.cases.count) frames, worst max diff \(worstDiff) (\(worstName)), lowest PSNR "
                  + String(format: "%.1f dB, lowest %.3f%% within %d levels", lowestPSNR, lowestWithin * 100, tolerance.maxLevelDiff))
        }
    }
}
