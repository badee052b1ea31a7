/// What `segue effects` tells: each effect's summary, defaults, options and the seed it comes from.
public struct EffectInfo: Sendable {
    public struct Option: Sendable {
        public let name: String
        public let defaultValue: String
        public let help: String
    }

    public let effect: Effect
    public let summary: String
    public let duration: Double
    public let curve: TimingCurve
    /// Where `back` has its own defaults (the sheet's dismissal).
    public let backDuration: Double?
    public let backCurve: TimingCurve?
    public let options: [Option]
    public let seed: String

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
            backDuration: nil, backCurve: nil, options: [],
            seed: "UIView.transition(.transitionCrossDissolve); TransitionAnimationTest"),
        EffectInfo(
            effect: .door, summary: "the screen opens like a pair of doors onto the next, which zooms in",
            duration: 0.5, curve: .easeOut, backDuration: nil, backCurve: nil,
            options: [.init(name: "zoom", defaultValue: "0.7", help: "scale of the screen behind the doors when they start to open")],
            seed: "GLTransitionAnimationDemo OpenDoor; WSLTransferAnimation door (--zoom 1 --duration 0.8 --curve ease-in-out)"),
        EffectInfo(
            effect: .circleSpread, summary: "circular reveal", duration: 0.5, curve: .linear,
            backDuration: nil, backCurve: nil,
            options: [
                .init(name: "center", defaultValue: "frame centre", help: "x,y of the circle's centre, in points"),
                .init(name: "start-radius", defaultValue: "30", help: "radius at the start, in points"),
                .init(name: "end-radius", defaultValue: "farthest corner", help: "radius at the end, in points"),
            ],
            seed: "GLTransitionAnimationDemo CircleSpread; LRAnimations reveal (--duration 0.7 --curve ease-in-out)"),
        EffectInfo(
            effect: .circleZoom, summary: "a coloured disc grows from a point as the next screen zooms out of it",
            duration: 0.5, curve: .easeInOut, backDuration: nil, backCurve: nil,
            options: [
                .init(name: "center", defaultValue: "frame centre", help: "x,y the disc and screen grow from, in points"),
                .init(name: "color", defaultValue: "FFA500", help: "the disc's colour, RRGGBB"),
            ],
            seed: "GLTransitionAnimationDemo CircleRectSpread"),
        EffectInfo(
            effect: .pageFlip, summary: "a book page turns over the middle, in perspective", duration: 1, curve: .linear,
            backDuration: nil, backCurve: nil,
            options: [
                .init(name: "perspective", defaultValue: "500", help: "eye distance d in points (m34 = -1/d); about 1.3 x width for wide frames"),
                .init(name: "shadow", defaultValue: "0.1", help: "opacity of the shadow at the spine, 0...1"),
            ],
            seed: "GLTransitionAnimationDemo MiddlePage"),
        EffectInfo(
            effect: .hero, summary: "a snapshot flies from one rectangle to another as the screens cross-fade",
            duration: 0.35, curve: .easeInOut, backDuration: nil, backCurve: nil,
            options: [
                .init(name: "from-rect", defaultValue: "required", help: "x,y,w,h where the snapshot starts, in points"),
                .init(name: "to-rect", defaultValue: "required", help: "x,y,w,h where it lands, in points"),
                .init(name: "from-radius", defaultValue: "0", help: "corner radius at the start, in points"),
                .init(name: "to-radius", defaultValue: "0", help: "corner radius at the end, in points"),
            ],
            seed: "WhisperKarl QQ-music cover; WSLTransferAnimation photo zoom; TransitionAnimationTest (spring: --curve 'spring(0.5,2)')"),
        EffectInfo(
            effect: .spin, summary: "the screen turns edge-on, then the next turns in (0.4 s + 0.3 s)",
            duration: 0.7, curve: .easeInOut, backDuration: nil, backCurve: nil,
            options: [.init(name: "perspective", defaultValue: "0 (none)", help: "eye distance d in points; 0 turns without perspective")],
            seed: "WSLTransferAnimation NetEase-music transition"),
        EffectInfo(
            effect: .hinge, summary: "the next screen swings in on its right edge", duration: 0.4, curve: .linear,
            backDuration: nil, backCurve: nil,
            options: [.init(name: "perspective", defaultValue: "0 (none)", help: "eye distance d in points; 0 swings without perspective")],
            seed: "WhisperKarl flip (its m34 evaluates to 0)"),
        EffectInfo(
            effect: .sheet, summary: "a bottom sheet springs up over a receding screen", duration: 0.8,
            curve: .spring(damping: 0.55, velocity: 1 / 0.55), backDuration: 0.4, backCurve: .easeInOut,
            options: [.init(name: "height", defaultValue: "400", help: "the sheet's height, in points")],
            seed: "WhisperKarl spring sheet"),
    ]
}
