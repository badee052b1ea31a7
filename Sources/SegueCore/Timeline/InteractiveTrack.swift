import Foundation

/// A gesture driving a transition (docs/effects.md, "Interactive tracks"): `(time seconds, progress)` samples, as
/// `UIPercentDrivenInteractiveTransition` receives them from a pan.
///
/// While the finger is down (up to the last sample) progress is the track's, linear between samples and held
/// before the first. At the release, with progress `p` and the drag's velocity `v` (`releaseVelocity`, in
/// progress per second), the transition *finishes* (to 1) or *cancels* (back to 0), as `completion` says:
///
/// - `.spring` (the default, as UIKit's interactive pop finishes or cancels with a spring carrying the finger's
///   speed): the release decides on the projected progress `p + v * projectionTime` against `threshold`, and a
///   damped spring runs `t` from `p` to the end, starting at the drag's velocity normalised as UIKit normalises a
///   spring's initial velocity (`v` divided by the distance left); the completion lasts until the spring stays
///   within `settleEpsilon` of the end. `t` is held in `[0, 1]`: the transition does not run past its ends.
/// - `.easeInOut`: the release decides on `p > threshold`; `t` runs from `p` to 1 over `(1 - p) * duration`, or
///   from `p` back to 0 over `p * duration`, eased with ease-in-out over that span.
///
/// Time is passed in: `progress(at:)` is a pure function of the track.
public struct InteractiveTrack: Sendable, Equatable {
    public struct Sample: Sendable, Equatable {
        public var time: Double
        public var progress: Double

        public init(time: Double, progress: Double) {
            self.time = time
            self.progress = progress
        }
    }

    /// How the transition completes after the release.
    public enum Completion: Sendable, Equatable, CustomStringConvertible {
        /// A damped spring from the release to the end, starting at the drag's velocity: damping ratio
        /// `damping` (1 stops without overshoot, below 1 oscillates, above 1 creeps in) and `response`, the
        /// period in seconds of its undamped oscillation (SwiftUI's `Spring(response:dampingRatio:)`).
        case spring(damping: Double, response: Double)
        /// The fixed ease-in-out over `(1 - p)` or `p` of the transition's duration, the velocity ignored.
        case easeInOut

        /// The damping ratios a spring may have: enough damping that it settles within minutes.
        public static let dampingRange = 0.05...10.0
        /// The longest response, in seconds.
        public static let maxResponse = 10.0

        public var description: String {
            switch self {
            case let .spring(damping, response): return "spring(damping \(damping.compact), response \(response.compact) s)"
            case .easeInOut: return "ease-in-out"
            }
        }

        /// The completion named `name` (`spring` when nil), with a spring's `damping` and `response` (the
        /// default spring's where nil). Throws an invalid option naming `completion`, `damping` or `response`.
        public init(named name: String? = nil, damping: Double? = nil, response: Double? = nil) throws {
            switch name ?? "spring" {
            case "spring":
                self = .spring(damping: damping ?? InteractiveTrack.defaultDamping, response: response ?? InteractiveTrack.defaultResponse)
                try check()
            case "ease-in-out":
                for (option, value) in [(SegueError.Option.damping, damping), (.response, response)] {
                    if let value {
                        throw SegueError.invalidOption(option.rawValue, value: value.compact,
                            "\(option: option) applies to \(option: .completion, value: "spring", "the spring completion"), not ease-in-out")
                    }
                }
                self = .easeInOut
            case let other:
                throw SegueError.invalidOption("completion", value: other, "unknown \(option: .completion) '\(other)' (use spring or ease-in-out)")
            }
        }

        /// Checks a spring's damping ratio (in `dampingRange`) and response (in `(0, maxResponse]`).
        public func check() throws {
            guard case let .spring(damping, response) = self else { return }
            guard damping.isFinite, Self.dampingRange.contains(damping) else {
                throw SegueError.invalidOption("damping", value: damping.compact,
                    "\(option: .damping, "the spring's damping ratio") must be in [\(Self.dampingRange.lowerBound.compact), \(Self.dampingRange.upperBound.compact)], not \(damping.compact)")
            }
            guard response.isFinite, response > 0, response <= Self.maxResponse else {
                throw SegueError.invalidOption("response", value: response.compact,
                    "\(option: .response, "the spring's response") must be in (0, \(Self.maxResponse.compact)] seconds, not \(response.compact)")
            }
        }
    }

    /// Samples in time order, progress clamped to `[0, 1]`; at least one.
    public let samples: [Sample]
    /// Progress above which the release finishes the transition (0.5): the release's own with `.easeInOut`,
    /// the projected one with `.spring`.
    public let threshold: Double
    /// The transition's duration: an `.easeInOut` completion lasts `(1 - p)` or `p` of it.
    public let duration: Double
    /// How the transition completes after the release.
    public let completion: Completion
    /// The drag's velocity at the release, in progress per second (`estimateVelocity`).
    public let releaseVelocity: Double
    /// True when the release finishes the transition, false when it cancels.
    public let finishes: Bool
    /// Seconds the completion lasts.
    public let completionDuration: Double
    /// The spring of a `.spring` completion, in the unit of the distance left (0 at the release, 1 at the end);
    /// nil for `.easeInOut` and for a release already at its end.
    let spring: Spring?

    public static let defaultThreshold = 0.5
    /// A critically damped spring of response 0.5 s: UIKit's own spring defaults (`UIView.animate(springDuration:
    /// bounce:...)`: duration 0.5, bounce 0, a critically damped spring; developer.apple.com/documentation/uikit/
    /// uiview/animate(springduration:bounce:initialspringvelocity:delay:options:animations:completion:)). Apple
    /// does not publish the spring of the interactive pop itself: this is a choice.
    public static let defaultCompletion = Completion.spring(damping: defaultDamping, response: defaultResponse)
    public static let defaultDamping = 1.0
    public static let defaultResponse = 0.5
    /// The spring has settled when it stays within 0.001 of the distance left: SwiftUI's default epsilon
    /// (`Spring(settlingDuration:dampingRatio:epsilon:)`, developer.apple.com/documentation/swiftui/spring).
    public static let settleEpsilon = 0.001
    /// Seconds of samples before the release that the velocity is fitted to (`estimateVelocity`).
    public static let velocityWindow = 0.1
    /// The fastest drag, in progress per second: a bound on what a pair of nearly simultaneous samples reads as.
    public static let maxVelocity = 1000.0
    /// How far ahead a `.spring` completion looks to decide, in seconds of the release velocity: the distance a
    /// scroll view coasts at its normal deceleration rate, 0.998 a millisecond, `v * 0.998 / (1 - 0.998) / 1000`,
    /// the projection of Apple's "Designing Fluid Interfaces" (WWDC 2018, session 803).
    public static let projectionTime = 0.998 / (1 - 0.998) / 1000
    /// The latest time a sample may have, in seconds (an hour, as the longest step of a storyboard).
    public static let maxTime = Limits.maxSeconds

    /// Checks the samples (at least one, times finite, >= 0 and non-decreasing, progress finite) and clamps
    /// progress to `[0, 1]`; throws a usage error naming the first bad sample (1-based), or the bad option.
    public init(samples: [Sample], threshold: Double = defaultThreshold, duration: Double,
                completion: Completion = defaultCompletion) throws {
        guard !samples.isEmpty else { throw SegueError(.invalidInput(path: nil), "the track has no samples (expected lines 'time,progress')") }
        guard threshold.isFinite, (0...1).contains(threshold) else {
            throw SegueError.invalidOption("threshold", value: threshold.compact, "the threshold must be in [0, 1], not \(threshold.compact)")
        }
        guard duration.isFinite, duration > 0 else {
            throw SegueError.invalidOption("duration", value: duration.compact, "the duration must be a positive number of seconds, not \(duration.compact)")
        }
        var previous = 0.0
        for (i, s) in samples.enumerated() {
            guard s.time.isFinite, s.progress.isFinite else {
                throw SegueError(.invalidInput(path: nil), "track sample \(i + 1): time and progress must be finite numbers")
            }
            guard s.time <= Self.maxTime else {
                throw SegueError(.invalidInput(path: nil), "track sample \(i + 1): time \(s.time.compact) s is past \(Self.maxTime.compact) s, the longest a drag may last")
            }
            guard s.time >= previous else {
                throw SegueError(.invalidInput(path: nil), "track sample \(i + 1): time \(s.time.compact) is before the previous sample's (times must be >= 0 and non-decreasing)")
            }
            previous = s.time
        }
        try completion.check()
        let samples = samples.map { Sample(time: $0.time, progress: min(max($0.progress, 0), 1)) }
        self.samples = samples
        self.threshold = threshold
        self.duration = duration
        self.completion = completion
        let p = samples[samples.count - 1].progress, v = Self.estimateVelocity(samples)
        releaseVelocity = v
        switch completion {
        case .easeInOut:
            finishes = p > threshold
            completionDuration = (finishes ? 1 - p : p) * duration
            spring = nil
        case let .spring(damping, response):
            finishes = p + v * Self.projectionTime > threshold
            // UIKit's normalisation: the spring's initial velocity is the gesture's divided by the distance left,
            // "normalized to the total distance of the animation" (UISpringTimingParameters.initialVelocity,
            // developer.apple.com/documentation/uikit/uispringtimingparameters/initialvelocity): a value of 1 is
            // the whole distance in one second.
            let distance = (finishes ? 1 : 0) - p
            if abs(distance) < 1e-9 {
                completionDuration = 0
                spring = nil
            } else {
                let s = Spring(damping: damping, response: response, velocity: v / distance)
                completionDuration = s.settleTime(epsilon: Self.settleEpsilon, holdingOvershoot: true)
                spring = s
            }
        }
    }

    /// The drag's velocity at its end, in progress per second: the slope of the least-squares line through the
    /// samples of the last `velocityWindow` seconds (0.1 s: the last six or seven samples of a 60 Hz touch stream). When those
    /// samples span no time (one sample, or several at the release's time), the slope of the track's last
    /// segment, from the last earlier sample to the release; 0 for a track whose samples share one time. Held
    /// to `maxVelocity` either way.
    public static func estimateVelocity(_ samples: [Sample]) -> Double {
        guard let last = samples.last else { return 0 }
        let start = samples.lastIndex { $0.time < last.time - velocityWindow }.map { $0 + 1 } ?? 0
        let recent = samples[start...]
        var slope = 0.0
        if let first = recent.first, first.time < last.time {
            // Centred on the window's means, so that large times lose no digits.
            let n = Double(recent.count)
            let meanTime = recent.reduce(0) { $0 + ($1.time - last.time) } / n
            let meanProgress = recent.reduce(0) { $0 + $1.progress } / n
            var covariance = 0.0, variance = 0.0
            for s in recent {
                let dt = s.time - last.time - meanTime
                covariance += dt * (s.progress - meanProgress)
                variance += dt * dt
            }
            slope = covariance / variance
        } else if let earlier = samples.last(where: { $0.time < last.time }) {
            slope = (last.progress - earlier.progress) / (last.time - earlier.time)
        }
        guard slope.isFinite else { return slope.isNaN ? 0 : (slope > 0 ? maxVelocity : -maxVelocity) }
        return min(max(slope, -maxVelocity), maxVelocity)
    }

    /// Parses CSV text: one `time,progress` pair per line; a first line that is not two numbers (a header such
    /// as `time,progress`), blank lines and lines starting with `#` are skipped. Errors name the line.
    public static func parseCSV(_ text: String) throws -> [Sample] {
        var samples: [Sample] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let values = fields.map { Double($0) }
            guard fields.count == 2, let time = values[0], let progress = values[1] else {
                if samples.isEmpty && n == firstContentLine(text) { continue }  // a header
                throw SegueError(.invalidInput(path: nil), "line \(n + 1): '\(line)' is not 'time,progress' (two numbers)")
            }
            samples.append(Sample(time: time, progress: progress))
        }
        return samples
    }

    private static func firstContentLine(_ text: String) -> Int? {
        text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
            let l = $0.trimmingCharacters(in: .whitespacesAndNewlines)
            return !l.isEmpty && !l.hasPrefix("#")
        }
    }

    /// When the finger lifts: the last sample's time.
    public var releaseTime: Double { samples[samples.count - 1].time }
    /// Progress at release.
    public var releaseProgress: Double { samples[samples.count - 1].progress }
    /// The whole interaction: the drag, then the completion.
    public var totalDuration: Double { releaseTime + completionDuration }
    /// Where progress ends: 1 when it finishes, 0 when it cancels.
    public var finalProgress: Double { finishes ? 1 : 0 }

    /// The transition's progress `t` at `time` seconds from the start of the interaction.
    public func progress(at time: Double) -> Double {
        if time >= releaseTime {
            let span = completionDuration
            let p = releaseProgress
            // The end exactly from `totalDuration` on, though `totalDuration - releaseTime` may round below `span`.
            guard span > 0, time < totalDuration else { return finalProgress }
            if let spring {
                let tau = time - releaseTime
                if tau >= span { return finalProgress }
                return min(max(p + (finalProgress - p) * spring.value(at: tau), 0), 1)
            }
            let u = (time - releaseTime) / span
            if u >= 1 { return finalProgress }
            let e = TimingCurve.easeInOut.value(at: u, duration: span)
            return finishes ? p + (1 - p) * e : p - p * e
        }
        // Linear between the samples around `time`; the first sample's value before it. `next` is the first
        // sample after `time`, found by a binary search (a long track is asked once per frame).
        var low = 0, high = samples.count
        while low < high {
            let mid = (low + high) / 2
            if samples[mid].time > time { high = mid } else { low = mid + 1 }
        }
        let next = low
        if next == samples.count { return releaseProgress }
        if next == 0 { return samples[0].progress }
        let a = samples[next - 1], b = samples[next]
        let f = (time - a.time) / (b.time - a.time)
        return a.progress + (b.progress - a.progress) * f
    }
}
