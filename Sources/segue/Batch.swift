import ArgumentParser
import Foundation
import SegueCore
import SegueRender

/// `segue batch STORYBOARD.json`: a storyboard's whole timeline, as PNG frames, a stream or a video, split over
/// machines with `--shard` (or a Slurm job array / Kubernetes Indexed Job).
struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a storyboard: named screens and a timeline of holds, transitions and interactive transitions.",
        discussion: """
            Frame k shows the timeline at k/fps, k = 0 ... round(total*fps), written as frame_%05d.png. The format \
            is docs/storyboard.schema.json; every problem in a file is reported with its JSON path before anything \
            renders. Paths in the file (screens, tracks, output) are relative to it; paths given here, to the \
            current directory.
            Examples:
              segue batch examples/storyboard.json --out frames/
              segue batch story.json --video story.mp4
              segue batch story.json --out - --format y4m | ffmpeg -i - story.webm
              segue batch story.json --out frames/ --shard 2/4 --resume
              segue batch story.json --video story.mp4 --chunk 2/4 --join
              segue join story.mp4
            """)

    @Argument(help: ArgumentHelp("The storyboard (JSON).", valueName: "storyboard"))
    var storyboard: String

    @Option(help: ArgumentHelp("""
        A directory for frame_00000.png ... (default: the storyboard's output.frames); a .mp4, .webm, .mov or \
        .gif file is a video (as --video); with --format rgba or y4m, a stream file; '-' streams to standard output.
        """, valueName: "dir"))
    var out: String?

    @Option(help: ArgumentHelp("Encode a video with ffmpeg: .mp4 (H.264), .webm (VP9), .mov (ProRes) or .gif (default: the storyboard's output.video); --out FILE.mp4 ... does the same.", valueName: "file"))
    var video: String?

    @Option(name: .customLong("ffmpeg-args"), parsing: .unconditional, help: ArgumentHelp("Replace the codec arguments ffmpeg gets for --video (split at spaces), e.g. '-c:v libx264 -crf 23 -pix_fmt yuv420p'.", valueName: "args"))
    var ffmpegArgs: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Render only frames k with k mod N = I; 'auto', or no --shard, takes I and N from the scheduler's task (a Slurm array's place of SLURM_ARRAY_TASK_ID among its task ids, or JOB_COMPLETION_INDEX/SEGUE_SHARDS ...).", valueName: "I/N|auto"))
    var shard: String?

    @Flag(help: "Skip frames already complete in the output directory and render the rest.")
    var resume = false

    @OptionGroup var jobOptions: JobOptions

    func validate() throws {
        // What --out and --video mean is the library's to decide (RenderJob.OutputPlan): checked here, before
        // anything is read. --ffmpeg-args need a video named here, not the storyboard's.
        try CommandWords.validating { try plan(ffmpegArguments: ffmpegArgs.map { _ in [] }).check() }
    }

    /// What `--out`, `--video`, `--format`, `--y4m-chroma` and `--ffmpeg-args` name, as the library's
    /// `RenderJob.OutputPlan`, which decides what the paths mean.
    func plan(ffmpegArguments: [String]?) -> RenderJob.OutputPlan {
        // Checked before JobOptions may have checked its own: an unknown format is its to report.
        RenderJob.OutputPlan(path: out, video: video, format: OutputFormat(rawValue: jobOptions.format) ?? .png,
                             y4mChroma: Y4M.Chroma(rawValue: jobOptions.y4mChroma) ?? .c444, ffmpegArguments: ffmpegArguments)
    }

    func run() throws {
        var job = try RenderJob(storyboardFile: storyboard, output: .frames(directory: ""))
        let board = job.storyboard, relative = RenderJob.resolver(storyboard)

        // Shard: --shard, else the scheduler's task (Slurm, Kubernetes, AWS Batch, Cloud Run); none with --chunk,
        // which takes the task instead.
        let chunk = try jobOptions.chunk()
        if chunk != nil && shard != nil { throw ValidationError("--shard and --chunk do not combine: a job is split into shards of frames or chunks of a video") }
        do {
            if shard == "auto" {
                // As with no --shard, but a task must be found.
                guard let task = try Shard.fromEnvironment(ProcessInfo.processInfo.environment) else {
                    throw ValidationError("--shard auto: no scheduler's task index is set (\(Scheduler.all.map(\.indexVariable).joined(separator: ", "))): give --shard I/N")
                }
                job.shard = task
            } else {
                job.shard = try shard.map { try Shard(parsing: $0) } ?? (chunk != nil ? nil : Shard.fromEnvironment(ProcessInfo.processInfo.environment)) ?? .whole
            }
        } catch let error as SegueError {
            throw ValidationError(error.description)
        } catch let error as Scheduler.Problem {
            throw ValidationError(error.description)
        }
        job.resume = resume
        // --motion-blur replaces the storyboard's top-level "motionBlur" (a step's own still applies to it).
        if let blur = jobOptions.blur { job.storyboard.motionBlur = blur }

        // Outputs: --out and --video replace the storyboard's "output" (both its frames and its video).
        let arguments = try RenderJob.ffmpegArguments(ffmpegArgs)
        var plan = plan(ffmpegArguments: arguments)
        if out == nil && video == nil {
            plan = RenderJob.OutputPlan(storyboard: board.output, resolve: relative, chunked: chunk != nil,
                                        partial: job.shard.count > 1 || resume, format: plan.format,
                                        y4mChroma: plan.y4mChroma, ffmpegArguments: arguments)
        }
        if let skipped = plan.skippedVideo {
            let why = job.shard.count > 1 ? "shard \(job.shard) renders part of the frames" : "--resume renders part of the frames"
            Console.note("not writing the storyboard's video '\(skipped)': \(why); join the frames with ffmpeg afterwards")
        }
        job.outputs = try plan.outputs()
        for case let .stream(path, _, _) in job.outputs { try Console.checkStandardOutput(path) }
        try jobOptions.configure(&job)
        try jobOptions.run(job)
    }
}
