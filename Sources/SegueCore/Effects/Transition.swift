import Foundation

/// An effect with its direction, options, timing curve and duration: evaluated at progress `t` on a frame it
/// gives the scene of that frame, as a pure function of its inputs.
public struct Transition: Sendable, Equatable {
    public var effect: Effect
    public var direction: Direction
    public var options: EffectOptions
    public var curve: TimingCurve
    public var duration: Double

    /// `curve` and `duration` default to the effect's own for the direction.
    public init(_ effect: Effect, direction: Direction = .forward, options: EffectOptions = .init(),
                curve: TimingCurve? = nil, duration: Double? = nil) {
        self.effect = effect
        self.direction = direction
        self.options = options
        self.curve = curve ?? effect.defaultCurve(direction)
        self.duration = duration ?? effect.defaultDuration(direction)
    }

    /// `effect` with each option set to the example its declaration gives (the hero flies between two
    /// rects, the circles grow from the upper left): the transition `segue demo` and `segue doctor` draw.
    public static func example(_ effect: Effect, direction: Direction = .forward) -> Transition {
        var options = EffectOptions()
        for option in effect.options { options[option.name] = option.example }
        return Transition(effect, direction: direction, options: options)
    }

    /// Checks the options against the effect's declarations and a frame of `frame` points; throws a usage
    /// error naming the first problem.
    public func validate(frame: Size) throws {
        let takes = effect.options
        if let stray = options.setNames.first(where: { effect.option($0) == nil }) {
            let list = takes.isEmpty ? "takes no options" : "takes " + takes.map(\.name).joined(separator: ", ")
            throw SegueError.invalidOption(stray, of: effect.name, value: "\(options[stray].map { "\($0)" } ?? "")", "\(effectOption: stray) does not apply to \(effect.name), which \(list)")
        }
        guard duration.isFinite, duration > 0 else {
            throw SegueError.invalidOption("duration", of: effect.name, value: duration.compact, "\(option: .duration) must be a positive number of seconds, not \(duration.compact)")
        }
        var counts: [String: Int] = [:]
        for option in takes {
            guard let value = options[option.name] else {
                if option.defaultValue == .required {
                    throw SegueError.invalidOption(option.name, of: effect.name, value: "", "\(effect.name) needs \(effectOption: option.name, value: option.valueName)")
                }
                continue
            }
            do {
                try option.check(value, frame: frame)
            } catch let error as SegueError {
                guard case let .invalidOption(nil, name, text) = error.kind else { throw error }
                throw SegueError(.invalidOption(effect: effect.name, option: name, value: text), error.words[0])
            }
            if option.repeatable { counts[option.name] = value.items.count }
        }
        // Repeated options go in pairs: each given once (for every pair) or as often as the most repeated.
        if let most = counts.values.max(), most > 1,
           let odd = counts.sorted(by: { $0.key < $1.key }).first(where: { $0.value != 1 && $0.value != most }) {
            let longest = counts.first { $0.value == most }!.key
            throw SegueError.invalidOption(odd.key, of: effect.name, value: "\(options[odd.key].map { "\($0)" } ?? "")", "\(effectOption: odd.key) is given \(odd.value) times but \(effectOption: longest) \(most) times (give it once for all, or once for each)")
        }
    }

    /// The eased value at progress `t`.
    public func eased(_ t: Double) -> Double { curve.value(at: t, duration: duration) }

    /// The frame at progress `t` (the fraction of the duration that has passed) on a frame of `frame` points
    /// drawn at `scale` pixels per point (an effect may snap its splits to whole device pixels).
    public func scene(at t: Double, frame: Size, scale: Double) -> Scene {
        effect.scene(at: t, direction: direction, options: options, curve: curve, duration: duration,
                     frame: frame, scale: scale)
    }
}

/// `R(c)`: the distance from `c` to the farthest corner of the frame.
public func farthestCorner(_ c: Point, _ frame: Size) -> Double {
    let dx = max(c.x, frame.width - c.x), dy = max(c.y, frame.height - c.y)
    return (dx * dx + dy * dy).squareRoot()
}
