import ArgumentParser
import Foundation
import SegueCore
import SegueImageIO
import SegueRender

/// Options every rendering command shares: inputs, frame size, timing, backend and output.
struct RenderOptions: ParsableArguments {
    @Option(help: ArgumentHelp("""
        The screen the transition starts from: a PNG, JPEG or HEIC, sample:home / sample:detail, or a video clip \
        (.mp4, .mov, .webm, .gif, .mkv ...: decoded by ffmpeg, it plays during the transition).
        """, valueName: "path"))
    var from: String

    @Option(help: ArgumentHelp("""
        The screen it ends on. Resampled (bicubic, area-averaged when shrinking) to the output size when sizes \
        differ; a clip is scaled by ffmpeg.
        """, valueName: "path"))
    var to: String

    @Option(name: .customLong("from-start"), parsing: .unconditional, help: ArgumentHelp(
        "When --from is a clip: seconds into it at the transition's start; frame k shows it at this + k/fps (0).",
        valueName: "s"))
    var fromStart: Double = 0

    @Option(name: .customLong("to-start"), parsing: .unconditional, help: ArgumentHelp(
        "When --to is a clip: seconds into it at the transition's start (0). A clip holds its last frame past its end.",
        valueName: "s"))
    var toStart: Double = 0

    @Option(help: ArgumentHelp("""
        Output: a .png file with --progress, else a directory for frame_00000.png ...; a .mp4, .webm, .mov or \
        .gif file is a video encoded by ffmpeg; with --format rgba or y4m, one stream file; '-' streams to \
        standard output.
        """, valueName: "path"))
    var out: String

    @Option(name: .customLong("ffmpeg-args"), parsing: .unconditional, help: ArgumentHelp(
        "With --out VIDEO: replace the codec arguments ffmpeg gets (split at spaces), e.g. '-c:v libx264 -crf 23 -pix_fmt yuv420p'.",
        valueName: "args"))
    var ffmpegArgs: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Render one frame at this progress, 0...1, instead of the whole sequence.", valueName: "t"))
    var progress: Double?

    @Option(help: ArgumentHelp("An interactive transition: a CSV of time,progress samples of the drag; renders the drag, then the finish or the cancel.", valueName: "csv"))
    var track: String?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "With --track: progress above which the release finishes the transition, else it cancels (0.5); with the spring, the progress projected from the release's velocity.",
        valueName: "p"))
    var threshold: Double?

    @Option(help: ArgumentHelp("""
        With --track: how the release completes: spring (the default: a damped spring starting at the drag's \
        velocity) or ease-in-out (ease-in-out over (1 - p) or p of the duration, the velocity ignored).
        """, valueName: "name"))
    var completion: String?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "With --track: the spring's damping ratio, 0.05 ... 10 (1, no overshoot; below 1 it oscillates).", valueName: "ratio"))
    var damping: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "With --track: the spring's response, the period of its undamped oscillation, in seconds (0.5).", valueName: "s"))
    var response: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Frames per second of the sequence: frames at k/fps, k = 0 ... round(duration*fps).", valueName: "n"))
    var fps: Double = 60

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds the transition lasts (the effect's own by default; see 'segue effects').", valueName: "s"))
    var duration: Double?

    @Option(help: "forward (push/present) or back (pop/dismiss).")
    var direction: Direction = .forward

    @Option(help: ArgumentHelp("""
        Timing curve: linear, ease-in, ease-out, ease-in-out, default, cubic(x1,y1,x2,y2), spring(damping,velocity) \
        (the effect's own by default).
        """, valueName: "name"), transform: Parse.curve)
    var curve: TimingCurve?

    @Option(parsing: .unconditional, help: ArgumentHelp("Pixels per point: the output keeps its pixel size and the frame is (pixels / scale) points.", valueName: "s"))
    var scale: Double = 1

    @Option(help: ArgumentHelp("Output size in pixels (default: the size of --from); inputs are resampled to it.", valueName: "WxH"),
            transform: Parse.pixelSize)
    var size: (Int, Int)?

    @Option(help: ArgumentHelp(
        "Colour where no layer is, or 'transparent' (alpha 0 there: PNG, --format rgba, .mov or .webm).",
        valueName: "RRGGBB|transparent"), transform: Parse.background)
    var background: Color = .black

    @Flag(help: "Skip what is already complete (frames in the output directory, or this --chunk) and render the rest.")
    var resume = false

    @OptionGroup var jobOptions: JobOptions

    func validate() throws {
        // --progress, --fps, --duration, --scale and --size's range are the job's to check (RenderJob.checkRequest),
        // for every caller alike: the library's message names them, and CommandWords says them as these flags.
        for (name, value) in [("--from-start", fromStart), ("--to-start", toStart)] where !(value >= 0 && value.isFinite) {
            throw ValidationError("\(name) must be a number of seconds, at least 0, not \(value.compact)")
        }
        // What --out means is the library's to decide (RenderJob.OutputPlan): checked here, before anything runs.
        try CommandWords.validating { try outputPlan(ffmpegArguments: ffmpegArgs.map { _ in [] }).check() }
    }
}

/// `segue render EFFECT`: one frame or the whole sequence of one transition, as a job of one step.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render one transition: one frame (--progress) or every frame of it.",
        discussion: """
            Examples:
              segue render door --from a.png --to b.png --out frames/
              segue render door --from a.mp4 --to b.mov --to-start 2.5 --out doors.mp4
              segue render circle-spread --from a.png --to b.png --center 110,150 --progress 0.5 --out mid.png
              segue render page-flip --from a.png --to b.png --out - --format y4m | ffmpeg -i - flip.mp4
              segue render --shader ripple --from a.png --to b.png --param amplitude=0.05 --out frames/
              segue render ./my-effect.json --from a.png --to b.png --set depth=40 --out frames/
            Each effect's options, defaults and sources, and the shipped shaders: 'segue effects'. An effect of
            your own is a JSON file of layers (docs/effects.md); its options are --NAME VALUE or --set NAME=VALUE.

            Effect options (each taken by the effects named; their defaults in parentheses):
            \(EffectArguments.help)
            """)

    /// The effect and its options (`door --zoom 0.5`), read by the effect's declarations through
    /// `EffectArguments`: the argument parser hands over everything it does not know itself.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp(
        "The effect: \(EffectCatalog.names), or an effect file (./NAME.json), or --shader; and its options (below).",
        valueName: "effect"))
    var effectArguments: [String] = []

    @OptionGroup var render: RenderOptions
    @OptionGroup(title: "Custom GLSL transition") var shaderOptions: ShaderArguments

    func validate() throws {
        let effect = try EffectArguments.split(effectArguments).effect
        if effect != nil && shaderOptions.shader != nil { throw ValidationError("give an effect or --shader, not both") }
        if effect == nil && shaderOptions.shader == nil { throw ValidationError("give an effect, or --shader FILE.glsl") }
        if shaderOptions.shader == nil, let param = shaderOptions.params.first {
            throw ValidationError("--param '\(param)' applies only to --shader")
        }
        if render.track != nil && render.progress != nil {
            throw ValidationError("--track renders the whole interaction; it does not combine with --progress")
        }
        let trackOnly = [("--threshold", render.threshold != nil), ("--completion", render.completion != nil),
                         ("--damping", render.damping != nil), ("--response", render.response != nil)]
        if render.track == nil, let (flag, _) = trackOnly.first(where: \.1) { throw ValidationError("\(flag) needs --track") }
        if render.track != nil { try CommandWords.validating { _ = try render.trackCompletion } }
        if render.track != nil && shaderOptions.shader != nil { throw ValidationError("--track applies to effects, not --shader") }
    }

    func run() throws {
        let split = try EffectArguments.split(effectArguments)
        let step: Storyboard.Step
        if let spec = shaderOptions.shader {
            if let stray = split.settings.first?.name {
                throw ValidationError("--\(stray) does not apply to --shader (set the shader's parameters with --param)")
            }
            let transition = try ShaderLibrary.load(spec)
            step = .shader(ShaderStep(transition: transition, values: try transition.values(assigning: shaderOptions.params,
                                                                                       loadImage: ShaderLibrary.image),
                                      duration: render.duration, curve: render.curve, direction: render.direction),
                           from: "from", to: "to")
        } else {
            let effect = try EffectArguments.resolve(split.effect!)
            let transition = Transition(effect, direction: render.direction,
                                        options: try EffectArguments.options(split.settings, for: effect),
                                        curve: render.curve, duration: render.duration)
            if let path = render.track {
                // The track is read before the images: a bad track is a usage error and nothing is decoded.
                let track = try InteractiveTrack(samples: try Self.readTrack(path),
                                                 threshold: render.threshold ?? InteractiveTrack.defaultThreshold,
                                                 duration: transition.duration, completion: try render.trackCompletion)
                step = .interactive(transition, from: "from", to: "to", track: track)
            } else {
                step = .transition(transition, from: "from", to: "to")
            }
        }
        var job = RenderJob(storyboard: Storyboard(fps: render.fps, scale: render.scale,
                                                   size: render.size.map { (width: $0.0, height: $0.1) },
                                                   background: render.background,
                                                   screens: ["from": render.from, "to": render.to], timeline: [step]),
                            output: try render.output)
        job.progress = render.progress.map { [$0] }
        job.storyboard.playback = ["from": ClipPlayback(start: render.fromStart), "to": ClipPlayback(start: render.toStart)]
        job.storyboard.motionBlur = render.jobOptions.blur
        job.resume = render.resume
        try render.jobOptions.configure(&job)
        try render.jobOptions.run(job)
    }

    /// The samples of a track CSV; errors name the file.
    static func readTrack(_ path: String) throws -> [InteractiveTrack.Sample] {
        let data = try InputFile.read(path, limit: RenderJob.textLimit)
        do {
            return try InteractiveTrack.parseCSV(String(decoding: data, as: UTF8.self))
        } catch {
            throw SegueError(.invalidInput(path: path), "track '\(path)': \(error)")
        }
    }
}

extension RenderOptions {
    /// What `--completion`, `--damping` and `--response` name, as the library's `InteractiveTrack.Completion`.
    var trackCompletion: InteractiveTrack.Completion {
        get throws { try InteractiveTrack.Completion(named: completion, damping: damping, response: response) }
    }

    /// What `--out`, `--format`, `--y4m-chroma`, `--ffmpeg-args` and `--progress` name, as the library's
    /// `RenderJob.OutputPlan`, which decides what the path means.
    func outputPlan(ffmpegArguments: [String]?) -> RenderJob.OutputPlan {
        // Checked before JobOptions may have checked its own: an unknown format is its to report.
        RenderJob.OutputPlan(path: out, format: OutputFormat(rawValue: jobOptions.format) ?? .png,
                             y4mChroma: Y4M.Chroma(rawValue: jobOptions.y4mChroma) ?? .c444,
                             ffmpegArguments: ffmpegArguments, oneFrame: progress != nil)
    }

    /// Where the frames go (`RenderJob.OutputPlan`: a video by its extension, a stream for `-` or a stream
    /// format, one PNG file for `--progress` unless `--out` is a directory, else a directory of frames).
    var output: RenderJob.Output {
        get throws {
            let outputs = try outputPlan(ffmpegArguments: try RenderJob.ffmpegArguments(ffmpegArgs)).outputs()
            for case let .stream(path, _, _) in outputs { try Console.checkStandardOutput(path) }
            return outputs[0]
        }
    }
}
