import SegueCore
@testable import SegueCPU
import SegueSamples
import SegueTestSupport
import Testing

/// Every shortcut of the CPU compositor (blits, row copies, interior spans, the separable and the stepped
/// bilinear, perspective sub-spans, spans clipped to a mask, stretches skipped under opaque items) against
/// the general per-pixel function: every effect of the catalogue, both directions, at t = 0.15, 0.5 and
/// 0.85, within `Tolerance.fastPath`. The frame is 1280x720 points at scale 1.5, 1920x1080 pixels, in a
/// release build (`make test`); a debug build, and the sanitizers' builds (`SEGUE_SANITIZED`), draw the same
/// at scale 0.375, 480x270 pixels, where 1080p would take minutes (under ThreadSanitizer, 230 s of the suite).
@Suite struct FastPathTests {
    static let frame = Size(1280, 720)
    #if DEBUG || SEGUE_SANITIZED
    static let scale = 0.375
    #else
    static let scale = 1.5
    #endif
    static let progress = [0.15, 0.5, 0.85]

    static let snapshots = [SampleScreens.home(width: frame.width, height: frame.height, scale: scale),
                            SampleScreens.detail(width: frame.width, height: frame.height, scale: scale)]

    static func render(_ list: DrawList, shortcuts: Bool, tiles: Bool = true, skipsCovered: Bool = true) throws -> Pixmap {
        let cpu = CPUCompositor(threads: 2)
        cpu.takesShortcuts = shortcuts
        cpu.drawsTiles = tiles
        cpu.skipsCovered = skipsCovered
        try cpu.load(snapshots: snapshots)
        return try cpu.render(list)
    }

    /// The options an effect needs: for hero and container-transform, the two required rectangles, a rounded
    /// tile flying into a wide banner (the benchmark's).
    static func options(_ effect: Effect) -> EffectOptions {
        var options = EffectOptions()
        if effect == .hero || effect.name == "container-transform" {
            options.set("from-rect", Rect(80, 120, 160, 160)); options.set("to-rect", Rect(0, 0, 1280, 400))
            options.set("from-radius", 36)
        }
        return options
    }

    /// Draws the transition at each of `progress` two ways (`draw`: the way under test, then the reference)
    /// and records a failure where they differ beyond `tolerance`; lists `skip` says yes to are passed over.
    static func compareEachProgress(_ transition: Transition, name: String, tolerance: Tolerance,
                                    skip: (DrawList) -> Bool = { _ in false },
                                    _ draw: (DrawList) throws -> (Pixmap, Pixmap)) throws {
        for t in progress {
            let list = DrawList(scene: transition.scene(at: t, frame: frame, scale: scale), scale: scale,
                                snapshots: snapshots.map(SnapshotInfo.init))
            if skip(list) { continue }
            let (tested, reference) = try draw(list)
            if let failure = Golden.compare(tested, reference, name: "\(name)-\(t)-\(tested.width)x\(tested.height)",
                                            tolerance: tolerance) {
                Issue.record(Comment(rawValue: failure))
            }
        }
    }

    @Test("fast paths match the general per-pixel function, every effect", arguments: Case.all)
    func fastPathsMatchTheGeneralFunction(_ c: Case) throws {
        let transition = Transition(c.effect, direction: c.direction, options: Self.options(c.effect))
        try transition.validate(frame: Self.frame)
        try Self.compareEachProgress(transition, name: "fastpath-\(c)", tolerance: .fastPath) { list in
            (try Self.render(list, shortcuts: true), try Self.render(list, shortcuts: false))
        }
    }

    /// Every row plan (`LayerShader.Plan`) is compared with the general function by the test above: for each
    /// plan, some item of the catalogue's effects at the progress values above takes it and shows in the frame
    /// compared (the frame drawn with the shortcuts changes when the item is left out, so neither an opaque item
    /// above nor the frame's edge hides it), while the reference draws that item with the general function.
    @Test func everyRowPlanIsCompared() throws {
        let textures = Self.snapshots.map(Texture.init), columns = ColumnStore()
        func plan(_ item: DrawItem, shortcuts: Bool) -> String {
            switch LayerShader(item, textures: textures, shortcuts: shortcuts, columns: columns).plan {
            case .reference: return "reference"
            case .blit: return "blit"
            case let .rows(edges, interior):
                if case .blurredRect = edges { return "blurred rectangle" }
                switch interior {
                case .color: return "colour"
                case .copy: return "copy"
                case .axisAligned: return "axis-aligned"
                case .stepped: return "stepped"
                case .perspective: return "perspective"
                }
            }
        }
        // No effect of the catalogue turns a layer in its plane: `steppedInteriorsMatchTheGeneralFunction` does.
        let all: Set = ["blit", "colour", "copy", "axis-aligned", "perspective", "blurred rectangle"]
        var compared: [String: String] = [:]
        search: for c in Case.all {
            let transition = Transition(c.effect, direction: c.direction, options: Self.options(c.effect))
            guard (try? transition.validate(frame: Self.frame)) != nil else { continue }
            for t in Self.progress {
                let list = DrawList(scene: transition.scene(at: t, frame: Self.frame, scale: Self.scale), scale: Self.scale,
                                    snapshots: Self.snapshots.map(SnapshotInfo.init))
                var whole: Pixmap?
                for (k, item) in list.items.enumerated() {
                    let name = plan(item, shortcuts: true)
                    guard compared[name] == nil else { continue }
                    #expect(plan(item, shortcuts: false) == "reference", "\(c) at \(t): the reference draws item \(k) as \(name)")
                    var without = list
                    without.items.remove(at: k)
                    if whole == nil { whole = try Self.render(list, shortcuts: true) }
                    if try Self.render(without, shortcuts: true).pixels != whole!.pixels { compared[name] = "\(c) at \(t)" }
                    if Set(compared.keys).isSuperset(of: all) { break search }
                }
            }
        }
        #expect(Set(compared.keys) == all, "not compared: \(all.subtracting(compared.keys).sorted())")
        #expect(Self.turnedCards.contains { list in
            list.items.contains { plan($0, shortcuts: true) == "stepped" }
        })
    }

    /// A card of the next screen turned in its plane over the first (the stepped interior): opaque, at an
    /// opacity, and under a gradient overlay, at three angles.
    static var turnedCards: [DrawList] {
        [0.05, 0.6, -2.3].flatMap { angle in
            [(1.0, false), (0.6, false), (1.0, true)].map { opacity, overlaid in
                var card = Layer.piece(.to, Rect(frame.width * 0.2, frame.height * 0.15, frame.width * 0.6, frame.height * 0.7))
                card.transform = .rotationZ(angle)
                card.opacity = opacity
                if overlaid {
                    card.overlay = GradientOverlay(start: Point(0, 0), end: Point(1, 1), startColor: Color(red: 0.2, green: 0.1, blue: 0.5),
                                                   endColor: Color(red: 0, green: 0, blue: 0, alpha: 0), opacity: 0.7)
                }
                return DrawList(scene: Scene(size: frame, layers: [Layer.piece(.from, Rect(0, 0, frame.width, frame.height)), card]),
                                scale: scale, snapshots: snapshots.map(SnapshotInfo.init))
            }
        }
    }

    @Test func steppedInteriorsMatchTheGeneralFunction() throws {
        for (k, list) in Self.turnedCards.enumerated() {
            let tested = try Self.render(list, shortcuts: true), reference = try Self.render(list, shortcuts: false)
            if let failure = Golden.compare(tested, reference, name: "fastpath-turned-\(k)-\(tested.width)x\(tested.height)",
                                            tolerance: .fastPath) {
                Issue.record(Comment(rawValue: failure))
            }
        }
    }

    /// Perspective items drawn a tile at a time draw what they draw row by row, bit for bit: every effect of
    /// the catalogue with a perspective item (where the CPU has AVX2, which tiles need).
    /// Skipped on a CPU without AVX2.
    @Test("tiles draw what whole rows draw, every perspective effect",
          .enabled(if: PixelMath.hasAVX2, "this CPU has no AVX2"), arguments: Case.all)
    func tilesMatchWholeRows(_ c: Case) throws {
        var options = EffectOptions()
        // spin and hinge turn flat unless given an eye distance.
        if c.effect.options.contains(where: { $0.name == "perspective" }) { options.set("perspective", 2000) }
        let transition = Transition(c.effect, direction: c.direction, options: options)
        guard (try? transition.validate(frame: Self.frame)) != nil else { return }  // effects that need options
        try Self.compareEachProgress(transition, name: "tiles-\(c)", tolerance: .exact,
                                     skip: { list in !list.items.contains { !$0.isAffine } }) { list in
            (try Self.render(list, shortcuts: true), try Self.render(list, shortcuts: true, tiles: false))
        }
    }

    /// Skipping the stretches of a row that opaque items above overwrite whole (interiors of unmasked and
    /// masked items alike: circle-spread's disc, hero's rounded tile) changes no pixel: every effect of the
    /// catalogue, bit for bit against every item drawn whole.
    @Test("skipping what opaque items hide changes no pixel, every effect", arguments: Case.all)
    func skippingCoveredStretchesChangesNoPixel(_ c: Case) throws {
        let transition = Transition(c.effect, direction: c.direction, options: Self.options(c.effect))
        try transition.validate(frame: Self.frame)
        try Self.compareEachProgress(transition, name: "covered-\(c)", tolerance: .exact) { list in
            (try Self.render(list, shortcuts: true), try Self.render(list, shortcuts: true, skipsCovered: false))
        }
    }

    /// An outline of more vertices than a shader keeps inline (a public `DrawItem` may carry any) spans its
    /// whole bounds, and draws what the same quad with its own outline draws: every item of page-flip,
    /// spin and hero, each edge cut in three.
    @Test func longOutlinesDrawTheirQuad() throws {
        for (effect, t) in [(Effect.pageFlip, 0.3), (.spin, 0.2), (.hero, 0.5)] {
            var options = EffectOptions()
            if effect == .hero {
                options.set("from-rect", Rect(80, 120, 160, 160)); options.set("to-rect", Rect(0, 0, 1280, 400))
            }
            let list = DrawList(scene: Transition(effect, options: options).scene(at: t, frame: Self.frame, scale: Self.scale),
                                scale: Self.scale, snapshots: Self.snapshots.map(SnapshotInfo.init))
            var long = list
            for k in long.items.indices {
                let outline = long.items[k].outline
                long.items[k].outline = outline.indices.flatMap { j -> [Point] in
                    let p = outline[j], q = outline[(j + 1) % outline.count]
                    return [p, Point(p.x + (q.x - p.x) / 3, p.y + (q.y - p.y) / 3), Point(p.x + (q.x - p.x) * 2 / 3, p.y + (q.y - p.y) * 2 / 3)]
                }
                #expect(long.items[k].outline.count > LayerShader.outlineCapacity)
            }
            let drawn = try Self.render(long, shortcuts: true), reference = try Self.render(list, shortcuts: true)
            if let failure = Golden.compare(drawn, reference, name: "long-outline-\(effect.name)-\(drawn.width)x\(drawn.height)",
                                            tolerance: .exact) {
                Issue.record(Comment(rawValue: failure))
            }
        }
    }

    /// A frame with nothing on it is its background, on one thread and on several bands, however tall.
    @Test func emptyFramesAreTheirBackground() throws {
        for (height, threads) in [(1, 1), (7, 2), (1080, 2), (33, 1)] {
            let list = DrawList(scene: Scene(size: Size(64, Double(height)), layers: []), scale: 1, snapshots: [],
                                background: Color(red: 0.2, green: 0.4, blue: 0.6))
            #expect(list.items.isEmpty)
            let frame = try CPUCompositor(threads: threads).render(list)
            #expect(frame.width == 64 && frame.height == height)
            #expect(frame.pixels.allSatisfy { $0 == list.background }, "\(height) rows on \(threads) thread(s)")
        }
    }
}
