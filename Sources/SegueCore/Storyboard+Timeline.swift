/// What each frame of a storyboard shows: frame `k` is the timeline at time `k / fps`, for
/// `k = 0 ... round(total * fps)`.
extension Storyboard {
    /// One frame: which step it falls in and that step's progress `t` (0 for a hold).
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

    /// Seconds the whole timeline lasts.
    public var totalDuration: Double { timeline.reduce(0) { $0 + $1.duration } }

    /// How many frames the storyboard renders: `round(total * fps) + 1`.
    public var frameCount: Int { Int((totalDuration * fps).rounded()) + 1 }

    /// The frame at index `k`. A frame on the boundary between two steps belongs to the later one; the last
    /// frame shows the end of the last step.
    public func frame(_ k: Int) -> Frame {
        precondition(!timeline.isEmpty, "an empty timeline has no frames")
        let time = Double(k) / fps
        var start = 0.0
        for (i, step) in timeline.enumerated() {
            let end = start + step.duration
            if time < end || i == timeline.count - 1 {
                return Frame(index: k, step: i, t: progress(of: step, at: time - start))
            }
            start = end
        }
        fatalError("unreachable")
    }

    /// Progress of `step` at `local` seconds from its start.
    func progress(of step: Step, at local: Double) -> Double {
        switch step {
        case .hold:
            return 0
        case let .transition(transition, _, _):
            return min(max(local / transition.duration, 0), 1)
        case let .shader(step, _, _):
            return min(max(local / step.duration, 0), 1)
        case let .interactive(_, _, _, track):
            return track.progress(at: max(0, local))
        }
    }

    /// The scene of `frame` on a frame of `size` points, drawn from two snapshots: `.from` is the step's
    /// `from` screen and `.to` its `to` screen (a hold shows its one screen as `.from`). Nil for a custom shader
    /// step, which is no layer tree: its frames are the shader's at `ShaderStep.progress(at: frame.t)`.
    public func scene(_ frame: Frame, size: Size) -> Scene? {
        switch timeline[frame.step] {
        case .hold:
            return Scene(size: size, layers: [.full(.from, frame: size)])
        case let .transition(transition, _, _), let .interactive(transition, _, _, _):
            return transition.scene(at: frame.t, frame: size)
        case .shader:
            return nil
        }
    }

    /// The frame indices `k` with `k mod count == index`, grouped into runs of consecutive indices that fall in
    /// the same step (a renderer loads each run's two screens once).
    public func runs(shard: Shard = .whole) -> [(step: Int, frames: [Frame])] {
        var runs: [(step: Int, frames: [Frame])] = []
        for k in stride(from: shard.index, to: frameCount, by: shard.count) {
            let f = frame(k)
            if let last = runs.last, last.step == f.step {
                runs[runs.count - 1].frames.append(f)
            } else {
                runs.append((f.step, [f]))
            }
        }
        return runs
    }
}
