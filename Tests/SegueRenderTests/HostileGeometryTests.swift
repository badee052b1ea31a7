import SegueCore
import SegueTestSupport
import Testing

extension GLESSuite {
    /// Geometry no well-behaved effect produces but an option can ask for: a hero snapshot flying from a
    /// rectangle millions to 1e308 points wide (`segue render hero --from-rect 0,0,1e308,1e308 --to-rect
    /// 10,10,20,20 --progress 0.5`). Its layer starts 5 points in and runs far past the frame, showing the `from`
    /// screen at about twice its size; single precision cannot hold its far edges, so the core's record
    /// (`DrawItemRecord`) moves them in to just past what shows. Every backend must draw the same picture at
    /// each magnitude (the CPU bit for bit, GLES within its tolerance of the CPU), and up to 1e10 the same
    /// picture as at 1e6, where nothing needed moving. Past about 1e15 double precision itself loses the
    /// layer's 5-point inset before any backend sees it (the effect places the layer by its centre, 5e29 + 10
    /// points, and takes half its size off), so there the backends are held only to each other. An infinite
    /// rectangle is no layer at all: the screens cross-fade, alike everywhere.
    @Suite struct HostileGeometry {
        static let frame = Size(180, 320)
        static let magnitudes: [Double] = [1e6, 1e10, 1e30, 1e308, .infinity]

        static func list(_ magnitude: Double, snapshots: [Pixmap]) -> DrawList {
            var options = EffectOptions()
            options.set("from-rect", Rect(0, 0, magnitude, magnitude))
            options.set("to-rect", Rect(10, 10, 20, 20))
            let hero = Transition(.hero, options: options)
            return DrawList(scene: hero.scene(at: 0.5, frame: frame, scale: 1), scale: 1,
                            snapshots: snapshots.map(SnapshotInfo.init))
        }

        @Test("a hero rectangle of 1e6 to 1e308 points and infinity: every backend alike",
              arguments: TestBackend.all, magnitudes)
        func heroRectangles(backend: TestBackend, magnitude: Double) throws {
            let snapshots = TestTransitions.snapshots(width: 180, height: 320)
            let list = Self.list(magnitude, snapshots: snapshots)
            try backend.expectMatchesReference(list, snapshots: snapshots, name: "hero-rect-\(magnitude)")
            guard magnitude.isFinite else {
                // Not drawn: the from screen, and the to screen over it at the progress's opacity.
                #expect(list.items.count == 2, "an infinite hero rectangle is no layer")
                return
            }
            #expect(list.items.count == 3, "the hero layer is drawn at \(magnitude)")
            guard magnitude <= 1e10 else { return }
            // The picture at 1e6 (its far edges held by nothing), on the reference.
            let reference = TestBackend.reference(), renderer = try backend.makeRenderer()
            try reference.load(snapshots: snapshots)
            try renderer.load(snapshots: snapshots)
            let expected = try reference.render(Self.list(1e6, snapshots: snapshots))
            let actual = try renderer.render(list)
            let tolerance = backend.tolerance == .exact ? Tolerance.glesVsCPU : backend.tolerance
            let comparison = ImageComparison(actual: actual, expected: expected, levels: tolerance.maxLevelDiff)
            let name = "hero-rect-\(backend)-\(magnitude)-vs-1e6"
            print("\(name): \(comparison)")
            if !comparison.passes(tolerance) {
                let paths = FailureReport.write(name: name, actual: actual, expected: expected, comparison: comparison,
                                                tolerance: tolerance, context: ["actual": renderer.details])
                Issue.record("\(name): \(comparison), needs \(tolerance)\n  \(paths)")
            }
            try backend.expectDrewOnItsPath(renderer, name: "heroRectangles")
        }
    }
}
