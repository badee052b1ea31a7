/// A storyboard: named screens and a timeline of holds, transitions and interactive transitions, rendered
/// at `fps` into one sequence of frames (`segue batch`). The file format is documented in
/// `docs/storyboard.schema.json`; `Storyboard.parse` reads it and `FrameSchedule` says what each frame shows.
public struct Storyboard: Sendable, Equatable {
    /// One step of the timeline.
    public enum Step: Sendable, Equatable {
        /// `screen` shown still for `duration` seconds.
        case hold(screen: String, duration: Double)
        /// A transition from one screen to another, over the transition's duration.
        case transition(Transition, from: String, to: String)
        /// A transition driven by a gesture track, then finished or cancelled (docs/effects.md, "Interactive tracks").
        case interactive(Transition, from: String, to: String, track: InteractiveTrack)
        /// A custom transition in the gl-transitions interface (drawn by the GLES backend).
        case shader(ShaderStep, from: String, to: String)

        /// Seconds the step lasts.
        public var duration: Double {
            switch self {
            case let .hold(_, d): return d
            case let .transition(transition, _, _): return transition.duration
            case let .interactive(_, _, _, track): return track.totalDuration
            case let .shader(step, _, _): return step.duration
            }
        }

        /// What the step plays, for messages: `hold`, an effect's name, `shader:NAME`.
        public var name: String {
            switch self {
            case .hold: return "hold"
            case let .transition(t, _, _), let .interactive(t, _, _, _): return t.effect.name
            case let .shader(step, _, _): return "shader:\(step.transition.name)"
            }
        }

        /// The screens the step shows: `from` and `to` (the same screen twice for a hold).
        public var screens: (from: String, to: String) {
            switch self {
            case let .hold(screen, _): return (screen, screen)
            case let .transition(_, from, to), let .interactive(_, from, to, _), let .shader(_, from, to): return (from, to)
            }
        }

        /// The screens in the order the renderer holds them as snapshots (slot 0, slot 1) while the step plays,
        /// and the slots a frame of it draws: the one place that decides it for every kind of step.
        /// - A hold draws its one screen, from slot 0.
        /// - An effect's layers name `from` and `to` by role (`Effect` plays a direction without a program of its
        ///   own by running the forward one backwards over the same roles), so its slots are `from`, `to`.
        /// - A custom shader has no roles, only the gl-transitions interface's `from` (progress 0) and `to`
        ///   (progress 1): going back it plays in reverse between the swapped screens, so that it still starts
        ///   on `from` and ends on `to`; its slots are then `to`, `from`.
        public var slots: (screens: [String], drawn: [Int]) {
            let (from, to) = screens
            switch self {
            case .hold: return ([from, to], [0])
            case .transition, .interactive: return ([from, to], [0, 1])
            case let .shader(step, _, _): return (step.direction == .back ? [to, from] : [from, to], [0, 1])
            }
        }
    }

    /// Where the storyboard asks its output to go, relative to the storyboard file.
    public struct Output: Sendable, Equatable {
        public var frames: String?
        public var video: String?

        public init(frames: String? = nil, video: String? = nil) {
            self.frames = frames
            self.video = video
        }
    }

    /// Frames per second: frame `k` shows the timeline at `k / fps`.
    public var fps: Double
    /// Pixels per point: the frame is (pixel size / scale) points.
    public var scale: Double
    /// The output's pixel size; `nil` means the pixel size of the first screen the timeline shows.
    public var size: (width: Int, height: Int)?
    /// Colour where no layer is.
    public var background: Color
    /// Screen name -> image path (relative to the storyboard file) or `sample:home` / `sample:detail`.
    public var screens: [String: String]
    public var timeline: [Step]
    public var output: Output
    /// How screens that are video clips play, by screen name (a clip not named here starts at 0 and holds its
    /// last frame). A clip's clock starts at the first step that shows it and runs with storyboard time.
    public var playback: [String: ClipPlayback] = [:]
    /// Motion blur of every step (nil or one sample: none); `stepMotionBlur[i]` replaces it for step `i`.
    public var motionBlur: MotionBlur?
    /// Motion blur of single steps, by index in `timeline`.
    public var stepMotionBlur: [Int: MotionBlur] = [:]

    /// The motion blur of step `i`, when it blurs (a hold never does: its samples are all one picture).
    public func motionBlur(ofStep i: Int) -> MotionBlur? {
        if case .hold = timeline[i] { return nil }
        let blur = stepMotionBlur[i] ?? motionBlur
        return blur?.blurs == true ? blur : nil
    }

    public init(fps: Double = 30, scale: Double = 1, size: (width: Int, height: Int)? = nil, background: Color = .black,
                screens: [String: String], timeline: [Step], output: Output = .init()) {
        self.fps = fps
        self.scale = scale
        self.size = size
        self.background = background
        self.screens = screens
        self.timeline = timeline
        self.output = output
    }

    public static func == (a: Storyboard, b: Storyboard) -> Bool {
        a.fps == b.fps && a.scale == b.scale && a.size?.width == b.size?.width && a.size?.height == b.size?.height
            && a.background == b.background && a.screens == b.screens && a.timeline == b.timeline && a.output == b.output
            && a.motionBlur == b.motionBlur && a.stepMotionBlur == b.stepMotionBlur && a.playback == b.playback
    }

    /// Seconds from the timeline's start to the first step that shows `screen`: where a clip's clock starts
    /// (0 when no step shows it).
    public func firstShown(_ screen: String) -> Double {
        var time = 0.0
        for step in timeline {
            if step.screens.from == screen || step.screens.to == screen { return time }
            time += step.duration
        }
        return 0
    }

    /// The screens the timeline uses, in order of first use.
    public var usedScreens: [String] {
        var seen = Set<String>(), names: [String] = []
        for step in timeline {
            for name in [step.screens.from, step.screens.to] where seen.insert(name).inserted { names.append(name) }
        }
        return names
    }
}
