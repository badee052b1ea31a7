/// Which step of a timeline each frame shows, and that step's progress: the one place that maps frame `k` to
/// what it draws, for `segue render` (a timeline of one step), storyboards, the demo and the bench.
///
/// A timeline at `fps` has frames `k = 0 ... round(total * fps)`, frame `k` showing time `k / fps`; a frame on
/// the boundary of two steps belongs to the later one, and the last frame shows the end of the last step.
/// Planning is linear in the steps (their end times are summed once) and each frame is found by a binary
/// search, so a long timeline costs nothing until its frames are asked for.
public struct FrameSchedule: Sendable {
    /// One frame: its index, the step it falls in and that step's progress `t` (0 for a hold).
    public struct Frame: Sendable, Equatable {
        public var index: Int
        public var step: Int
        public var t: Double

        public init(index: Int, step: Int, t: Double) {
            self.index = index
            self.step = step
            self.t = t
        }
    }

    /// Consecutive frames of one step (a renderer loads each run's screens once).
    public struct Run: Sendable, Equatable {
        public var step: Int
        public var frames: [Frame]
    }

    private enum Source: Sendable {
        /// Steps played one after another at `fps`; `ends[i]` is the time step `i` ends.
        case timeline(steps: [Storyboard.Step], ends: [Double], fps: Double)
        /// Frames of step 0 at these progress values (one frame with `--progress`, the bench's samples); the
        /// step lasts `duration` seconds, for times after a frame's (motion blur).
        case progress([Double], duration: Double, fps: Double)
    }

    private let source: Source
    /// How many frames there are.
    public let count: Int

    /// The frames of `storyboard`'s timeline at its `fps`.
    public init(_ storyboard: Storyboard) {
        var ends: [Double] = []
        ends.reserveCapacity(storyboard.timeline.count)
        var total = 0.0
        for step in storyboard.timeline {
            total += step.duration
            ends.append(total)
        }
        source = .timeline(steps: storyboard.timeline, ends: ends, fps: storyboard.fps)
        // Past `Int`'s range only for timelines no parser lets through; `RenderJob` refuses such counts anyway.
        let frames = (total * storyboard.fps).rounded()
        count = storyboard.timeline.isEmpty ? 0 : frames.isFinite && frames < 1e15 ? Int(frames) + 1 : Int(1e15)
    }

    /// Frames of the first step at these values of its progress, in order. `duration` (the step's) and `fps`
    /// place times after a frame's (`samples(of:motionBlur:)`): progress moves `1 / duration` per second.
    public init(progress: [Double], duration: Double = 1, fps: Double = 60) {
        source = .progress(progress, duration: duration, fps: fps)
        count = progress.count
    }

    /// Frames per second (the time between frames that a shutter angle is a fraction of).
    public var fps: Double {
        switch source {
        case let .timeline(_, _, fps), let .progress(_, _, fps): return fps
        }
    }

    /// What the timeline shows `seconds` after frame `k`'s time, within frame `k`'s step (clamped to that
    /// step's end, and so to the timeline's end): a shutter sample of frame `k`. The frame keeps index `k`.
    /// A sample never crosses into the next step, whose screens the run has not loaded; at a transition's end
    /// that is the picture the next step starts on anyway.
    public func frame(_ k: Int, after seconds: Double) -> Frame {
        let base = frame(k)
        switch source {
        case let .progress(values, duration, _):
            return Frame(index: k, step: 0, t: min(max(values[k] + seconds / max(duration, 1e-12), 0), 1))
        case let .timeline(steps, ends, fps):
            let start = base.step == 0 ? 0 : ends[base.step - 1]
            let local = k == count - 1 ? steps[base.step].duration : Double(k) / fps - start
            return frame(atTime: start + local + seconds, index: k, step: base.step)
        }
    }

    /// What the timeline shows at `time` seconds, clamped to [0, duration]: the step it falls in (the later one
    /// on a boundary) and its progress; with `step`, that step's progress at `time`, clamped to the step. The
    /// frame is given `index`. (Progress samples: `time` from the start of step 0.)
    public func frame(atTime time: Double, index: Int = 0, step fixed: Int? = nil) -> Frame {
        switch source {
        case let .progress(_, duration, _):
            return Frame(index: index, step: 0, t: min(max(time / max(duration, 1e-12), 0), 1))
        case let .timeline(steps, ends, _):
            precondition(!steps.isEmpty, "an empty timeline shows nothing")
            let total = ends.last!
            let time = min(max(time, 0), total)
            let low = fixed ?? Self.step(at: time, ends: ends)
            let start = low == 0 ? 0 : ends[low - 1]
            let local = min(max(time - start, 0), steps[low].duration)
            return Frame(index: index, step: low, t: Self.progress(of: steps[low], at: local))
        }
    }

    /// Frame `k`'s shutter samples under `blur` (see `MotionBlur`): the frames at `k`'s time plus each of the
    /// blur's offsets at this schedule's fps, within `k`'s step.
    public func samples(of k: Int, motionBlur blur: MotionBlur) -> [Frame] {
        blur.offsets(fps: fps).map { frame(k, after: $0) }
    }

    /// Seconds from the start of the timeline to frame `k`'s time: `k / fps`, or for progress samples the
    /// first step's time at that progress (`t * duration`, before its timing curve). A clip's clock.
    public func time(of k: Int) -> Double {
        switch source {
        case let .progress(values, duration, _): return values[k] * duration
        case let .timeline(_, ends, fps): return k == count - 1 ? ends.last ?? 0 : Double(k) / fps
        }
    }

    /// Seconds a timeline lasts (0 for progress samples).
    public var duration: Double {
        if case let .timeline(_, ends, _) = source { return ends.last ?? 0 }
        return 0
    }

    /// Frame `k`, `0 <= k < count`.
    public func frame(_ k: Int) -> Frame {
        precondition(k >= 0 && k < count, "frame \(k) is outside the schedule's \(count) frames")
        switch source {
        case let .progress(values, _, _):
            return Frame(index: k, step: 0, t: values[k])
        case let .timeline(steps, ends, fps):
            let time = Double(k) / fps
            let low = Self.step(at: time, ends: ends)
            let start = low == 0 ? 0 : ends[low - 1]
            // The last frame is the end of the last step exactly, whatever `k / fps - start` rounds to.
            let local = k == count - 1 ? steps[low].duration : time - start
            return Frame(index: k, step: low, t: Self.progress(of: steps[low], at: local))
        }
    }

    /// Progress of `step` at `local` seconds from its start.
    /// The first step whose end is after `time` (the later step on a boundary), else the last: a binary search
    /// of the steps' `ends`.
    static func step(at time: Double, ends: [Double]) -> Int {
        var low = 0, high = ends.count - 1
        while low < high {
            let mid = (low + high) / 2
            if time < ends[mid] { high = mid } else { low = mid + 1 }
        }
        return low
    }

    static func progress(of step: Storyboard.Step, at local: Double) -> Double {
        switch step {
        case .hold:
            return 0
        case let .interactive(_, _, _, track):
            return track.progress(at: max(0, local))
        case .transition, .shader:
            return min(max(local / step.duration, 0), 1)
        }
    }

    /// The frames `k` with `k mod shard.count == shard.index`, grouped into runs of consecutive frames that fall
    /// in the same step; only those in `range` when given (a chunk's frames).
    public func runs(shard: Shard = .whole, in range: Range<Int>? = nil) -> [Run] {
        var runs: [Run] = []
        for k in stride(from: shard.index, to: count, by: shard.count) where range?.contains(k) ?? true {
            let f = frame(k)
            if let last = runs.last, last.step == f.step {
                runs[runs.count - 1].frames.append(f)
            } else {
                runs.append(Run(step: f.step, frames: [f]))
            }
        }
        return runs
    }
}

extension Storyboard {
    /// The frames of the timeline.
    public var schedule: FrameSchedule { FrameSchedule(self) }

    /// The scene of `frame` on a frame of `size` points, drawn from two snapshots: `.from` is the step's
    /// `from` screen and `.to` its `to` screen (a hold shows its one screen as `.from`). Nil for a custom shader
    /// step, which is no layer tree: its frames are the shader's at `ShaderStep.progress(at: frame.t)`.
    public func scene(_ frame: FrameSchedule.Frame, size: Size) -> Scene? {
        switch timeline[frame.step] {
        case .hold:
            return Scene(size: size, layers: [.full(.from, frame: size)])
        case let .transition(transition, _, _), let .interactive(transition, _, _, _):
            return transition.scene(at: frame.t, frame: size, scale: scale)
        case .shader:
            return nil
        }
    }
}
