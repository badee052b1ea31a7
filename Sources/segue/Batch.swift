import ArgumentParser
import Foundation
import SegueCore
import SegueGLES
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

    @Option(parsing: .unconditional, help: ArgumentHelp("Render only frames k with k mod N = I (default: from SLURM_ARRAY_TASK_ID/COUNT or JOB_COMPLETION_INDEX/SEGUE_SHARDS).", valueName: "I/N"))
    var shard: String?

    @Flag(help: "Skip frames already complete in the output directory and render the rest.")
    var resume = false

    @OptionGroup var jobOptions: JobOptions

    func validate() throws {
        if let out, out.isEmpty { throw ValidationError("--out must not be empty") }
        if let video, !video.isEmpty { try RenderJob.checkVideo(video) }
        if let out, RenderJob.isVideoPath(out) {
            if video != nil { throw ValidationError("--out '\(out)' is a video, and so is --video: give one") }
            if jobOptions.format != "png" {
                throw ValidationError("--out '\(out)' is a video (ffmpeg chooses its format by the extension); --format \(jobOptions.format) applies to a stream: choose one")
            }
        }
        if ffmpegArgs != nil && video == nil && !(out.map(RenderJob.isVideoPath) ?? false) {
            throw ValidationError("--ffmpeg-args needs --video (or --out FILE.mp4, .webm, .mov, .gif)")
        }
    }

    func run() throws {
        var job = try RenderJob(storyboardFile: storyboard, output: .frames(directory: ""))
        let board = job.storyboard, relative = RenderJob.resolver(storyboard)

        // Shard: --shard, else the scheduler's task (Slurm, Kubernetes, AWS Batch, Cloud Run); none with --chunk,
        // which takes the task instead.
        let chunk = try jobOptions.chunk()
        if chunk != nil && shard != nil { throw ValidationError("--shard and --chunk do not combine: a job is split into shards of frames or chunks of a video") }
        do {
            job.shard = try shard.map { try Shard(parsing: $0) } ?? (chunk != nil ? nil : Shard.fromEnvironment(ProcessInfo.processInfo.environment)) ?? .whole
        } catch let error as SegueError {
            throw ValidationError(error.description)
        } catch let error as Scheduler.Problem {
            throw ValidationError(error.description)
        }
        job.resume = resume
        // --motion-blur replaces the storyboard's top-level "motionBlur" (a step's own still applies to it).
        if let blur = jobOptions.blur { job.storyboard.motionBlur = blur }

        // Outputs: --out and --video replace the storyboard's "output" (both its frames and its video).
        let format = jobOptions.outputFormat
        // --out FILE.mp4 (.webm, .mov, .gif) is --video FILE.mp4.
        let (outOption, videoOption) = out.map(RenderJob.isVideoPath) == true ? (nil, out) : (out, self.video)
        let explicit = outOption != nil || videoOption != nil
        // A chunk writes its part of the video only, never the storyboard's frames.
        var out = explicit ? outOption : chunk != nil ? nil : board.output.frames.map(relative)
        if format != .png && out == nil { out = "-" }
        var video = videoOption
        if !explicit, let v = board.output.video {
            if chunk == nil && (job.shard.count > 1 || resume) {
                let why = job.shard.count > 1 ? "shard \(job.shard) renders part of the frames" : "--resume renders part of the frames"
                Console.note("not writing the storyboard's video '\(v)': \(why); join the frames with ffmpeg afterwards")
            } else {
                video = relative(v)
            }
        }
        let stream = out == "-" || format != .png ? out : nil
        try Console.checkStandardOutput(stream)
        if stream != nil && video != nil {
            throw ValidationError("--video and a stream (--out - or --format \(format.rawValue)) do not combine: choose one")
        }
        job.outputs = []
        if let stream {
            job.outputs.append(.stream(stream, format: format, y4mChroma: jobOptions.chroma))
        } else if let out {
            job.outputs.append(.frames(directory: out))
        }
        if let video {
            job.outputs.append(.video(video, ffmpegArguments: try RenderJob.ffmpegArguments(ffmpegArgs)))
        }
        if job.outputs.isEmpty {
            throw ValidationError("nothing to write: give --out DIR, --video FILE or \"output\" in the storyboard")
        }
        try jobOptions.configure(&job)
        try jobOptions.run(job)
    }
}
