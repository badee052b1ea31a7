import Foundation

/// A gesture driving a transition (docs/effects.md, "Interactive tracks"): `(time seconds, progress)` samples, as
/// `UIPercentDrivenInteractiveTransition` receives them from a pan.
///
/// While the finger is down (up to the last sample) progress is the track's, linear between samples and held
/// before the first. On release with progress `p`: above `threshold` the transition *finishes*, running `t`
/// from `p` to 1 over `(1 - p) * duration`, otherwise it *cancels*, running `t` from `p` back to 0 over
/// `p * duration`; that completion is eased with ease-in-out over its span. Time is passed in: `progress(at:)`
/// is a pure function.
public struct InteractiveTrack: Sendable, Equatable {
    public struct Sample: Sendable, Equatable {
        public var time: Double
        public var progress: Double

        public init(time: Double, progress: Double) {
            self.time = time
            self.progress = progress
        }
    }

    /// Samples in time order, progress clamped to `[0, 1]`; at least one.
    public let samples: [Sample]
    /// Progress above which the release finishes the transition (0.5).
    public let threshold: Double
    /// The transition's duration: the completion lasts `(1 - p)` or `p` of it.
    public let duration: Double

    public static let defaultThreshold = 0.5
    /// The latest time a sample may have, in seconds (an hour, as the longest step of a storyboard).
    public static let maxTime = Limits.maxSeconds

    /// Checks the samples (at least one, times finite, >= 0 and non-decreasing, progress finite) and clamps
    /// progress to `[0, 1]`; throws a usage error naming the first bad sample (1-based).
    public init(samples: [Sample], threshold: Double = defaultThreshold, duration: Double) throws {
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
        self.samples = samples.map { Sample(time: $0.time, progress: min(max($0.progress, 0), 1)) }
        self.threshold = threshold
        self.duration = duration
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
    /// True when the release finishes the transition (`p > threshold`), false when it cancels.
    public var finishes: Bool { releaseProgress > threshold }
    /// Seconds the completion lasts: `(1 - p) * duration` when finishing, `p * duration` when cancelling.
    public var completionDuration: Double { (finishes ? 1 - releaseProgress : releaseProgress) * duration }
    /// The whole interaction: the drag, then the completion.
    public var totalDuration: Double { releaseTime + completionDuration }
    /// Where progress ends: 1 when it finishes, 0 when it cancels.
    public var finalProgress: Double { finishes ? 1 : 0 }

    /// The transition's progress `t` at `time` seconds from the start of the interaction.
    public func progress(at time: Double) -> Double {
        if time >= releaseTime {
            let span = completionDuration
            let p = releaseProgress
            guard span > 0 else { return finalProgress }
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
