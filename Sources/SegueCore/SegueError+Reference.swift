extension SegueError {
    /// What a message names that its caller set: an option of the job (or of what it plays), or an option of
    /// an effect. The library says it in its own words (`damping`, `maxPixels`, "the output"); a command line
    /// says its flag instead (`--damping`, `--max-pixels`, `--out`), so that rewording a message never loses it.
    public enum Reference: Sendable, Hashable {
        /// An option of the job, its storyboard or what it plays.
        case option(Option)
        /// An effect's own option, by its declared name (`edge`, `from-rect`).
        case effectOption(String)

        /// The name a program sets it by: the option's, or the effect option's.
        public var name: String {
            switch self {
            case let .option(option): return option.rawValue
            case let .effectOption(name): return name
            }
        }
    }

    /// The options of the job, of its storyboard and of what it plays that the library's messages name. The
    /// raw value is the option's name in the library's words.
    public enum Option: String, Sendable, Hashable, CaseIterable {
        /// The screen a transition starts from.
        case from
        /// The screen a transition ends on.
        case to
        /// A transition's direction (forward or back).
        case direction
        /// A transition's timing curve.
        case curve
        /// Where the job writes: a directory of frames or a stream (`RenderJob.OutputPlan.path`).
        case output
        /// The video the job writes (`RenderJob.OutputPlan.video`).
        case video
        /// The format of a stream (`OutputFormat`).
        case format
        /// Replacing the frames or chunks of another job (`RenderJob.overwrite`).
        case overwrite
        /// Rendering only what is not complete yet (`RenderJob.resume`).
        case resume
        /// The most pixels an input image may have (`Limits.maxPixels`).
        case maxPixels
        /// The colour space a job works in (`RenderJob.colourSpace`).
        case colourSpace
        /// A custom GLSL transition.
        case shader
        /// A parameter of a custom shader (`name=value`).
        case parameter
        /// What draws the frames (`Backend`).
        case backend
        /// Arguments the job hands to ffmpeg (`RenderJob.OutputPlan.ffmpegArguments`).
        case ffmpegArguments
        /// Frames per second.
        case fps
        /// Pixels per point.
        case scale
        /// The frame's size in points.
        case size
        /// A transition's length in seconds.
        case duration
        /// The progress values of the frames to render.
        case progress
        /// How an interactive track completes (`InteractiveTrack.Completion`).
        case completion
        /// The damping ratio of a spring completion.
        case damping
        /// The response of a spring completion, in seconds.
        case response
    }
}
