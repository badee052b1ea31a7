import SegueCore
import SegueCPU
import SegueSamples
import SegueTestSupport
import Testing

/// Every effect, both directions, at t = 0, 0.25, 0.5, 0.75 and 1, against goldens recorded from the CPU
/// compositor (one strip of the five frames per effect and direction).
@Suite struct CPUGoldenTests {
    @Test(arguments: Case.all)
    func matchesGolden(_ c: Case) throws {
        let transition = Fixture.transition(c.effect, c.direction)
        try transition.validate(frame: Fixture.frame)
        let frames = try Fixture.progressSteps.map { try Fixture.render(transition, at: $0) }
        if let failure = try Golden.check(Fixture.strip(frames), name: c.description, tolerance: .golden) {
            Issue.record(Comment(rawValue: failure))
        }
    }

    /// End states that docs/effects.md makes exact: the frame equals one of the inputs, pixel for pixel.
    @Test(arguments: [
        (Effect.door, Direction.forward, 1.0, SnapshotID.to), (.door, .back, 0, .from), (.door, .back, 1, .to),
        (.fade, .forward, 0, .from), (.fade, .forward, 1, .to), (.fade, .back, 0, .from), (.fade, .back, 1, .to),
        (.pageFlip, .forward, 1, .to), (.pageFlip, .back, 1, .to),
        (.hinge, .forward, 0, .from), (.hinge, .forward, 1, .to), (.hinge, .back, 0, .from), (.hinge, .back, 1, .to),
        (.spin, .forward, 0, .from), (.spin, .forward, 1, .to), (.circleSpread, .back, 0, .from),
    ])
    func exactEndStates(_ effect: Effect, _ direction: Direction, _ t: Double, _ shows: SnapshotID) throws {
        let snapshots = Fixture.snapshots(scale: 1)
        var transition = Fixture.transition(effect, direction)
        // Hinge with its default (no perspective): in perspective an edge-on layer's first-order antialiasing
        // leaks up to 2 levels into the column beside it.
        if effect == .hinge { transition.options["perspective"] = nil }
        let frame = try Fixture.render(transition, at: t, snapshots: snapshots)
        let differing = zip(frame.pixels, snapshots[shows.rawValue].pixels).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) pixels differ from \(shows)")
    }

    /// Effects whose ends are not one of the screens: a disc, a card, a flying snapshot or a still-turning
    /// page is left at one end by design.
    static let inexactEnds: Set<String> = ["circle-spread", "circle-zoom", "page-flip", "hero", "sheet", "page-sheet", "container-transform"]

    /// Every other effect of the catalogue starts exactly on `from` and ends exactly on `to`, both directions,
    /// at a real phone size (375x667 points, scale 1) where a half-pixel split would show as a seam.
    @Test(arguments: EffectCatalog.builtIn.filter { !inexactEnds.contains($0.name) }, Direction.allCases)
    func startsOnFromAndEndsOnTo(_ effect: Effect, _ direction: Direction) throws {
        let size = Size(375, 667)
        let snapshots = [SampleScreens.home(width: size.width, height: size.height, scale: 1),
                         SampleScreens.detail(width: size.width, height: size.height, scale: 1)]
        let renderer = CPUCompositor(threads: 2)
        try renderer.load(snapshots: snapshots)
        // Every value of each choice option (--edge, --axis), the others at their defaults.
        var variants = [EffectOptions()]
        for option in effect.options where option.kind == .choice {
            variants += option.choices.map { var o = EffectOptions(); o.set(option.name, choice: $0.name); return o }
        }
        for options in variants {
            let transition = Transition(effect, direction: direction, options: options)
            try transition.validate(frame: size)
            for (t, shows) in [(0.0, SnapshotID.from), (1.0, SnapshotID.to)] {
                let list = DrawList(scene: transition.scene(at: t, frame: size, scale: 1), scale: 1,
                                    snapshots: snapshots.map(SnapshotInfo.init))
                let frame = try renderer.render(list)
                let differing = zip(frame.pixels, snapshots[shows.rawValue].pixels).filter { $0 != $1 }.count
                #expect(differing == 0, "\(effect) \(direction) \(options.setNames.map { "\($0) \(options[$0]!)" }) at t = \(t): \(differing) pixels differ from \(shows)")
            }
        }
    }

    /// The same effect at scale 1 and at scale 2 box-filtered down agree: the picture does not depend on the
    /// resolution it is drawn at.
    @Test(arguments: Case.all.filter { $0.direction == .forward })
    func scaleIndependent(_ c: Case) throws {
        let transition = Fixture.transition(c.effect, c.direction)
        for t in [0.3, 0.7] {
            let one = try Fixture.render(transition, at: t, scale: 1)
            let two = Fixture.halve(try Fixture.render(transition, at: t, scale: 2))
            if let failure = Golden.compare(two, one, name: "scale-\(c)-\(t)", tolerance: .scaleIndependence) {
                Issue.record(Comment(rawValue: failure))
            }
        }
    }

    /// One thread and many threads draw the same bytes.
    @Test func threadCountDoesNotChangeThePicture() throws {
        for c in Case.all {
            let transition = Fixture.transition(c.effect, c.direction)
            let one = try Fixture.render(transition, at: 0.4, renderer: CPUCompositor(threads: 1))
            let many = try Fixture.render(transition, at: 0.4, renderer: CPUCompositor(threads: 7))
            let same = one == many
            #expect(same, "\(c)")
        }
    }
}
