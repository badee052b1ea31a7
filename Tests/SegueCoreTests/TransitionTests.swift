import Testing
@testable import SegueCore

@Suite struct TransitionTests {
    let frame = Size(375, 667)

    @Test(arguments: Effect.allCases)
    func defaultsComeFromTheCatalog(_ effect: Effect) {
        let info = EffectCatalog.info(effect)
        let t = Transition(effect)
        #expect(t.duration == info.duration)
        #expect(t.curve == info.curve)
    }

    @Test func sheetDismissesWithItsOwnTiming() {
        let back = Transition(.sheet, direction: .back)
        #expect(back.duration == 0.4)
        #expect(back.curve == .easeInOut)
        #expect(Transition(.sheet).curve == .spring(damping: 0.55, velocity: 1 / 0.55))
    }

    @Test func optionsThatDoNotApplyAreRefused() {
        var o = EffectOptions()
        o.set(.zoom, 0.5)
        #expect(throws: SegueError.invalidValue("--zoom does not apply to fade, which takes no options")) {
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
        #expect(message(.circleSpread) { $0.set(.startRadius, -1) } == "--start-radius must be >= 0, not -1")
        #expect(message(.hero) { $0.set(.fromRect, Rect(0, 0, 0, 10)); $0.set(.toRect, Rect(0, 0, 5, 5)) }
                == "--from-rect 0,0,0,10 has no area (width and height must be > 0)")
        #expect(message(.hero) { $0.set(.toRect, Rect(0, 0, 5, 5)) } == "hero needs --from-rect x,y,w,h")
        #expect(message(.pageFlip) { $0.set(.shadow, 2) } == "--shadow must be in [0, 1], not 2")
        #expect(message(.pageFlip) { $0.set(.perspective, 0) } == "--perspective must be > 0 for page-flip (500 by default), not 0")
        #expect(message(.sheet) { $0.set(.height, 700) } == "--height must be in (0, 667] (the frame's height in points), not 700")
        #expect(message(.door) { $0.set(.zoom, 0) } == "--zoom must be > 0, not 0")
    }

    @Test func sceneIsAPureFunctionOfItsInputs() {
        for effect in Effect.allCases {
            var o = EffectOptions()
            if effect == .hero { o.set(.fromRect, Rect(10, 10, 50, 50)); o.set(.toRect, Rect(0, 0, 375, 200)) }
            let t = Transition(effect, options: o)
            #expect(t.scene(at: 0.37, frame: frame) == t.scene(at: 0.37, frame: frame))
        }
    }

    @Test func spinTurnsInTwoStages() {
        let spin = Transition(.spin)
        let early = spin.scene(at: 0.2, frame: frame), late = spin.scene(at: 0.8, frame: frame)
        #expect(early.layers.count == 1 && late.layers.count == 1)
        #expect(early.layers[0].content == .snapshot(.from, Rect(0, 0, 375, 667)))
        #expect(late.layers[0].content == .snapshot(.to, Rect(0, 0, 375, 667)))
        #expect(spin.scene(at: 1, frame: frame).layers[0].transform.m11 > 0.9999)
    }
}
