import Foundation
import SegueCore
import SegueCPU
import SegueGLES
import SegueTestSupport
import Testing

extension GLESSuite {
    /// Values no well-behaved effect produces but a spring's overshoot or a careless effect file can: colour
    /// components outside `0...1` (or NaN) and masks with NaN, infinite or huge sides. Each case is drawn
    /// on every backend and compared with the CPU compositor's frame of the same scene written with the
    /// values the core makes of them by hand (components clamped to `0...1`, NaN as 0; a mask with a NaN
    /// keeps nothing; a side far past the layer clips nothing, as one just past it): exactly on the CPU, within
    /// `Tolerance.glesVsCPU` on GLES. So both backends clamp alike, and draw degenerate masks alike.
    @Suite struct HostileValues {
        static let frame = Size(120, 200)
        static let background = Color(red: 0.1, green: 0.2, blue: 0.3)

        /// A scene with hostile values, and the same scene as the core should read it.
        struct Case: Sendable, CustomTestStringConvertible {
            var name: String
            var hostile: [Layer]
            var meant: [Layer]
            var testDescription: String { name }
        }

        /// The `from` screen under everything, so that wrapped or unclamped colours show against texture.
        static var base: Layer { Layer.full(.from, frame: frame) }

        static func solid(_ color: Color, _ rect: Rect, opacity: Double = 1) -> Layer {
            Layer(bounds: rect.size, position: rect.center, opacity: opacity, content: .color(color))
        }

        static func gradient(_ rect: Rect, from: Color, to: Color, opacity: Double,
                             content: LayerContent = .color(.clear)) -> Layer {
            var layer = Layer(bounds: rect.size, position: rect.center, content: content)
            layer.overlay = GradientOverlay(start: Point(0, 0), end: Point(1, 1), startColor: from, endColor: to,
                                            opacity: opacity)
            return layer
        }

        static let colourCases: [Case] = [
            // A spring overshooting a lerp from orange to teal by 30%, and undershooting below 0.
            Case(name: "solid colour above 1 and below 0",
                 hostile: [base, solid(Color(red: 1.3, green: -0.2, blue: 0.5, alpha: 0.8), Rect(10, 20, 100, 70)),
                           solid(Color(red: -0.25, green: 1.4, blue: 1.2), Rect(20, 110, 80, 60), opacity: 0.9)],
                 meant: [base, solid(Color(red: 1, green: 0, blue: 0.5, alpha: 0.8), Rect(10, 20, 100, 70)),
                         solid(Color(red: 0, green: 1, blue: 1), Rect(20, 110, 80, 60), opacity: 0.9)]),
            Case(name: "solid colour with alpha above 1",
                 hostile: [base, solid(Color(red: 0.6, green: 0.3, blue: 1.2, alpha: 1.3), Rect(15, 30, 90, 140))],
                 meant: [base, solid(Color(red: 0.6, green: 0.3, blue: 1, alpha: 1), Rect(15, 30, 90, 140))]),
            Case(name: "gradient colours and opacity outside 0...1",
                 hostile: [base, gradient(Rect(5, 10, 110, 180), from: Color(red: 1.3, green: 0.5, blue: -0.2, alpha: 1.2),
                                          to: Color(red: -0.3, green: 1.25, blue: 0.6, alpha: 0.7), opacity: 1.15)],
                 meant: [base, gradient(Rect(5, 10, 110, 180), from: Color(red: 1, green: 0.5, blue: 0, alpha: 1),
                                        to: Color(red: 0, green: 1, blue: 0.6, alpha: 0.7), opacity: 1)]),
            Case(name: "overlay above 1 over a snapshot",
                 hostile: [base, gradient(Rect(0, 0, 120, 200), from: Color(red: 1.4, green: 1.4, blue: 1.4, alpha: 0.5),
                                          to: Color(red: 0.2, green: -0.5, blue: 0.9, alpha: 1.3), opacity: 1,
                                          content: .snapshot(.to, Rect(0, 0, 120, 200)))],
                 meant: [base, gradient(Rect(0, 0, 120, 200), from: Color(red: 1, green: 1, blue: 1, alpha: 0.5),
                                        to: Color(red: 0.2, green: 0, blue: 0.9, alpha: 1), opacity: 1,
                                        content: .snapshot(.to, Rect(0, 0, 120, 200)))]),
            Case(name: "NaN colour components",
                 hostile: [base, solid(Color(red: .nan, green: 0.7, blue: 0.2, alpha: 0.9), Rect(10, 20, 100, 70)),
                           gradient(Rect(10, 100, 100, 90), from: Color(red: 0.5, green: .nan, blue: 1, alpha: .nan),
                                    to: Color(red: .nan, green: 0.4, blue: 0.3, alpha: 1), opacity: 0.8)],
                 meant: [base, solid(Color(red: 0, green: 0.7, blue: 0.2, alpha: 0.9), Rect(10, 20, 100, 70)),
                         gradient(Rect(10, 100, 100, 90), from: Color(red: 0.5, green: 0, blue: 1, alpha: 0),
                                  to: Color(red: 0, green: 0.4, blue: 0.3, alpha: 1), opacity: 0.8)]),
        ]

        static func masked(_ mask: Mask) -> Layer {
            var layer = Layer.full(.to, frame: frame)
            layer.transform = .scale(0.8, 0.8)
            layer.mask = mask
            return layer
        }

        /// A side far past the layer (120 x 200 points) means the same as one well past it: 1000 points. Circles
        /// too, held to the same rules (a NaN keeps nothing; so does a centre at infinity).
        static let maskCases: [Case] = [
            Case(name: "rect mask with a NaN width", hostile: [base, masked(.roundedRect(Rect(10, 20, .nan, 100), radius: 8))],
                 meant: [base]),
            Case(name: "rect mask with a NaN origin", hostile: [base, masked(.roundedRect(Rect(.nan, 20, 60, 100), radius: 8))],
                 meant: [base]),
            Case(name: "rect mask with a NaN radius", hostile: [base, masked(.roundedRect(Rect(10, 20, 60, 100), radius: .nan))],
                 meant: [base]),
            Case(name: "rect mask with an infinite width",
                 hostile: [base, masked(.roundedRect(Rect(30, 20, .infinity, 100), radius: 8))],
                 meant: [base, masked(.roundedRect(Rect(30, 20, 1000, 100), radius: 8))]),
            Case(name: "rect mask from minus infinity",
                 hostile: [base, masked(.roundedRect(Rect(-.infinity, 20, .infinity, 100), radius: 8))],
                 meant: [base]),
            Case(name: "rect mask with an infinite height and radius",
                 hostile: [base, masked(.roundedRect(Rect(25, 40, 70, .infinity), radius: .infinity))],
                 meant: [base, masked(.roundedRect(Rect(25, 40, 70, 1000), radius: 35))]),
            Case(name: "rect mask with a side of 1e300",
                 hostile: [base, masked(.roundedRect(Rect(30, 20, 1e300, 100), radius: 8))],
                 meant: [base, masked(.roundedRect(Rect(30, 20, 1000, 100), radius: 8))]),
            Case(name: "rect mask 1e300 wide and high about the layer",
                 hostile: [base, masked(.roundedRect(Rect(-1e300, -1e300, 2e300, 2e300), radius: 0))],
                 meant: [base, masked(.roundedRect(Rect(-1000, -1000, 2000, 2000), radius: 0))]),
            Case(name: "circle mask with a NaN centre", hostile: [base, masked(.circle(center: Point(.nan, 80), radius: 40))],
                 meant: [base]),
            Case(name: "circle mask centred at infinity", hostile: [base, masked(.circle(center: Point(60, .infinity), radius: 40))],
                 meant: [base]),
            Case(name: "circle mask with an infinite radius",
                 hostile: [base, masked(.circle(center: Point(60, 80), radius: .infinity))],
                 meant: [base, masked(.circle(center: Point(60, 80), radius: 1000))]),
        ]

        static func shadowed(_ shadow: Shadow?) -> Layer {
            var layer = Layer.piece(.to, Rect(20, 30, 70, 110))
            layer.shadow = shadow
            return layer
        }

        /// A NaN or infinite radius, offset or path casts nothing; an opacity or colour outside 0...1 is held
        /// to it; a blur past `Shadow.maxSigma` is held to it (and shows nothing on this frame), and a path far
        /// past the frame is held to `Shadow.maxExtent` (and shows nothing either).
        static let shadowCases: [Case] = [
            Case(name: "shadow with a NaN radius", hostile: [base, shadowed(Shadow(opacity: 0.5, radius: .nan))], meant: [base, shadowed(nil)]),
            Case(name: "shadow with an infinite radius", hostile: [base, shadowed(Shadow(opacity: 0.5, radius: .infinity))],
                 meant: [base, shadowed(nil)]),
            Case(name: "shadow with a radius of 1e300", hostile: [base, shadowed(Shadow(opacity: 0.5, radius: 1e300))],
                 meant: [base, shadowed(Shadow(opacity: 0.5, radius: Shadow.maxSigma))]),
            Case(name: "shadow with a NaN offset", hostile: [base, shadowed(Shadow(opacity: 0.5, radius: 4, offset: Point(.nan, 2)))],
                 meant: [base, shadowed(nil)]),
            Case(name: "shadow offset by 1e300", hostile: [base, shadowed(Shadow(opacity: 0.5, radius: 4, offset: Point(1e300, 0)))],
                 meant: [base, shadowed(nil)]),
            Case(name: "shadow of opacity 5 and colour past 1",
                 hostile: [base, shadowed(Shadow(color: Color(red: 2, green: -1, blue: 0.5, alpha: 3), opacity: 5, radius: 4))],
                 meant: [base, shadowed(Shadow(color: Color(red: 1, green: 0, blue: 0.5, alpha: 1), opacity: 1, radius: 4))]),
            Case(name: "shadow with a NaN opacity", hostile: [base, shadowed(Shadow(opacity: .nan, radius: 4))], meant: [base, shadowed(nil)]),
            Case(name: "shadow path 1e300 wide",
                 hostile: [base, shadowed(Shadow(opacity: 0.5, radius: 4, path: ShadowPath(rect: Rect(-1e300, 10, 2e300, 20))))],
                 meant: [base, shadowed(Shadow(opacity: 0.5, radius: 4, path: ShadowPath(rect: Rect(-Shadow.maxExtent, 10, 2 * Shadow.maxExtent, 20))))]),
            Case(name: "shadow path with a NaN radius",
                 hostile: [base, shadowed(Shadow(opacity: 0.5, radius: 4, path: ShadowPath(rect: Rect(0, 0, 50, 50), cornerRadius: .nan)))],
                 meant: [base, shadowed(nil)]),
            Case(name: "continuous mask with an infinite radius",
                 hostile: [base, masked(.continuousRect(Rect(10, 20, 60, 100), radius: .infinity))],
                 meant: [base, masked(.continuousRect(Rect(10, 20, 60, 100), radius: 30 / Mask.continuousReach))]),
            Case(name: "continuous mask with a NaN radius", hostile: [base, masked(.continuousRect(Rect(10, 20, 60, 100), radius: .nan))],
                 meant: [base]),
        ]

        static func draw(_ layers: [Layer], on renderer: any Renderer, snapshots: [Pixmap]) throws -> Pixmap {
            let list = DrawList(scene: Scene(size: frame, layers: layers), scale: 1,
                                snapshots: snapshots.map(SnapshotInfo.init), background: background)
            return try renderer.render(list)
        }

        static func check(_ c: Case, backend: TestBackend) throws {
            let snapshots = TestTransitions.snapshots(width: 120, height: 200)
            let renderer = try backend.makeRenderer()
            let cpu = TestBackend.reference()
            try renderer.load(snapshots: snapshots)
            try cpu.load(snapshots: snapshots)
            let actual = try draw(c.hostile, on: renderer, snapshots: snapshots)
            let expected = try draw(c.meant, on: cpu, snapshots: snapshots)
            if backend != .cpu {
                // For the record: how far the two backends are apart on the hostile scene itself.
                let reference = try draw(c.hostile, on: cpu, snapshots: snapshots)
                print("hostile.\(backend)-vs-cpu.\(c.name): \(ImageComparison(actual: actual, expected: reference, levels: 2))")
            }
            let tolerance = backend.tolerance
            let comparison = ImageComparison(actual: actual, expected: expected, levels: tolerance.maxLevelDiff)
            let name = "hostile.\(backend)-vs-cpu-meant.\(c.name)"
            print("\(name): \(comparison)")
            // A wrapped channel or a dropped layer is tens of levels off somewhere: no pixel may be.
            if !comparison.passes(tolerance) || comparison.maxDiff > 8 {
                let paths = FailureReport.write(name: name, actual: actual, expected: expected, comparison: comparison,
                                                tolerance: tolerance, context: ["actual": renderer.details])
                Issue.record("\(name): \(comparison), needs \(tolerance) and no pixel over 8 levels\n  \(paths)")
            }
        }

        @Test("colours outside 0...1 are clamped alike", arguments: TestBackend.all, colourCases)
        func colours(backend: TestBackend, c: Case) throws {
            try Self.check(c, backend: backend)
        }

        @Test("hostile shadows and continuous corners draw alike", arguments: TestBackend.all, shadowCases)
        func shadows(backend: TestBackend, c: Case) throws {
            try Self.check(c, backend: backend)
        }

        @Test("degenerate masks draw alike", arguments: TestBackend.all, maskCases)
        func masks(backend: TestBackend, c: Case) throws {
            try Self.check(c, backend: backend)
        }
    }
}
