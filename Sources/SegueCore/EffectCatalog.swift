/// What `segue effects` tells: each effect's summary, default timing and the seed it comes from; its options
/// are in the option table (`EffectOption`).
public struct EffectInfo: Sendable {
    public let effect: Effect
    public let summary: String
    public let duration: Double
    public let curve: TimingCurve
    /// Where `back` has its own defaults (the sheet's dismissal).
    public let backDuration: Double?
    public let backCurve: TimingCurve?
    public let seed: String

    /// The options it takes, from the option table.
    public var options: [EffectOption] { EffectOption.options(of: effect) }

    public func defaultDuration(_ direction: Direction) -> Double {
        direction == .back ? (backDuration ?? duration) : duration
    }

    public func defaultCurve(_ direction: Direction) -> TimingCurve {
        direction == .back ? (backCurve ?? curve) : curve
    }
}

public enum EffectCatalog {
    public static func info(_ effect: Effect) -> EffectInfo {
        all.first { $0.effect == effect }!
    }

    public static let all: [EffectInfo] = [
        EffectInfo(
            effect: .fade, summary: "cross-dissolve", duration: 0.25, curve: .easeInOut,
            backDuration: nil, backCurve: nil,
            seed: "UIView.transition(.transitionCrossDissolve); TransitionAnimationTest"),
        EffectInfo(
            effect: .door, summary: "the screen opens like a pair of doors onto the next, which zooms in",
            duration: 0.5, curve: .easeOut, backDuration: nil, backCurve: nil,
            seed: "GLTransitionAnimationDemo OpenDoor; WSLTransferAnimation door (--zoom 1 --duration 0.8 --curve ease-in-out)"),
        EffectInfo(
            effect: .circleSpread, summary: "circular reveal", duration: 0.5, curve: .linear,
            backDuration: nil, backCurve: nil,
            seed: "GLTransitionAnimationDemo CircleSpread; LRAnimations reveal (--duration 0.7 --curve ease-in-out)"),
        EffectInfo(
            effect: .circleZoom, summary: "a coloured disc grows from a point as the next screen zooms out of it",
            duration: 0.5, curve: .easeInOut, backDuration: nil, backCurve: nil,
            seed: "GLTransitionAnimationDemo CircleRectSpread"),
        EffectInfo(
            effect: .pageFlip, summary: "a book page turns over the middle, in perspective", duration: 1, curve: .linear,
            backDuration: nil, backCurve: nil,
            seed: "GLTransitionAnimationDemo MiddlePage"),
        EffectInfo(
            effect: .hero, summary: "a snapshot flies from one rectangle to another as the screens cross-fade",
            duration: 0.35, curve: .easeInOut, backDuration: nil, backCurve: nil,
            seed: "WhisperKarl QQ-music cover; WSLTransferAnimation photo zoom; TransitionAnimationTest (spring: --curve 'spring(0.5,2)')"),
        EffectInfo(
            effect: .spin, summary: "the screen turns edge-on, then the next turns in (0.4 s + 0.3 s)",
            duration: 0.7, curve: .easeInOut, backDuration: nil, backCurve: nil,
            seed: "WSLTransferAnimation NetEase-music transition"),
        EffectInfo(
            effect: .hinge, summary: "the next screen swings in on its right edge", duration: 0.4, curve: .linear,
            backDuration: nil, backCurve: nil,
            seed: "WhisperKarl flip (its m34 evaluates to 0)"),
        EffectInfo(
            effect: .sheet, summary: "a bottom sheet springs up over a receding screen", duration: 0.8,
            curve: .spring(damping: 0.55, velocity: 1 / 0.55), backDuration: 0.4, backCurve: .easeInOut,
            seed: "WhisperKarl spring sheet"),
    ]
}
