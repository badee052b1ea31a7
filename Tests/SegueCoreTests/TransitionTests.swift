import Testing
@testable import SegueCore

@Suite struct TransitionTests {
    let frame = Size(375, 667)

    /// The nine original effects' files keep the default timings of docs/effects.md section 3.
    @Test func theOriginalEffectsKeepTheirTimings() {
        let expected: [(Effect, Double, TimingCurve)] = [
            (.fade, 0.25, .easeInOut), (.door, 0.5, .easeOut), (.circleSpread, 0.5, .linear), (.circleZoom, 0.5, .easeInOut),
            (.pageFlip, 1, .linear), (.hero, 0.35, .easeInOut), (.spin, 0.7, .easeInOut), (.hinge, 0.4, .linear),
            (.sheet, 0.8, .spring(damping: 0.55, velocity: 1 / 0.55)),
        ]
        for (effect, duration, curve) in expected {
            let t = Transition(effect)
            #expect(t.duration == duration && t.curve == curve, "\(effect)")
        }
    }

    @Test func sheetDismissesWithItsOwnTiming() {
        let back = Transition(.sheet, direction: .back)
        #expect(back.duration == 0.4)
        #expect(back.curve == .easeInOut)
        #expect(Transition(.sheet).curve == .spring(damping: 0.55, velocity: 1 / 0.55))
    }

    @Test func optionsThatDoNotApplyAreRefused() {
        var o = EffectOptions()
        o.set("zoom", 0.5)
        #expect(throws: SegueError(.invalidOption(effect: "fade", option: "zoom", value: "0.5"), "zoom does not apply to fade, which takes no options")) {
            try Transition(.fade, options: o).validate(frame: frame)
        }
        #expect(throws: Never.self) { try Transition(.door, options: o).validate(frame: frame) }
    }

    @Test func badValuesAreRefusedWithTheirName() {
        func message(_ effect: Effect, _ set: (inout EffectOptions) -> Void) -> String? {
            var o = EffectOptions()
            set(&o)
            do { try Transition(effect, options: o).validate(frame: frame); return nil } catch { return "\(error)" }
        }
        #expect(message(.circleSpread) { $0.set("start-radius", -1) } == "start-radius must be >= 0, not -1")
        #expect(message(.hero) { $0.set("from-rect", Rect(0, 0, 0, 10)); $0.set("to-rect", Rect(0, 0, 5, 5)) }
                == "from-rect 0,0,0,10 has no area (width and height must be > 0)")
        #expect(message(.hero) { $0.set("to-rect", Rect(0, 0, 5, 5)) } == "hero needs from-rect x,y,w,h")
        #expect(message(.pageFlip) { $0.set("shadow", 2) } == "shadow must be in [0, 1], not 2")
        #expect(message(.pageFlip) { $0.set("perspective", 0) } == "perspective must be > 0, not 0")
        #expect(message(.sheet) { $0.set("height", 700) } == "height must be in (0, 667] (the frame's height in points), not 700")
        #expect(message(.door) { $0.set("zoom", 0) } == "zoom must be > 0, not 0")
        // The kind names the effect, the option and its value, for a program to switch on.
        var zero = EffectOptions()
        zero.set("zoom", 0)
        #expect(throws: SegueError(.invalidOption(effect: "door", option: "zoom", value: "0"), "zoom must be > 0, not 0")) {
            try Transition(.door, options: zero).validate(frame: frame)
        }
    }

    @Test func sceneIsAPureFunctionOfItsInputs() {
        for effect in EffectCatalog.builtIn {
            var o = EffectOptions()
            if effect == .hero { o.set("from-rect", Rect(10, 10, 50, 50)); o.set("to-rect", Rect(0, 0, 375, 200)) }
            // Any other required option takes its demo's example (container-transform's --from-rect).
            for option in effect.options where o[option.name] == nil {
                if case .required = option.defaultValue { o[option.name] = option.example }
            }
            let t = Transition(effect, options: o)
            #expect(t.scene(at: 0.37, frame: frame, scale: 1) == t.scene(at: 0.37, frame: frame, scale: 1))
        }
    }

    @Test func spinTurnsInTwoStages() {
        let spin = Transition(.spin)
        let early = spin.scene(at: 0.2, frame: frame, scale: 1), late = spin.scene(at: 0.8, frame: frame, scale: 1)
        #expect(early.layers.count == 1 && late.layers.count == 1)
        #expect(early.layers[0].content == .snapshot(.from, Rect(0, 0, 375, 667)))
        #expect(late.layers[0].content == .snapshot(.to, Rect(0, 0, 375, 667)))
        #expect(spin.scene(at: 1, frame: frame, scale: 1).layers[0].transform.m11 > 0.9999)
    }
}
