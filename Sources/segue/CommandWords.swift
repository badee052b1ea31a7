import ArgumentParser
import Foundation
import SegueCore

/// The library's errors in the command line's words: the library names options as a program sets them (the
/// effect's option `zoom`, the job's `overwrite`); the user typed flags (`--zoom`, `--overwrite`). Each
/// rewrite is keyed on the error's kind, and only adds the flag the user would type.
enum CommandWords {
    /// The lines to print for `error`.
    static func lines(of error: SegueError) -> [String] {
        error.lines.map { line(error.kind, $0) }
    }

    /// Runs `body`, a check of the library's made in a command's `validate()`: its error becomes the argument
    /// parser's validation error, in these words.
    static func validating(_ body: () throws -> Void) throws {
        do { try body() } catch let error as SegueError {
            throw ValidationError(lines(of: error).joined(separator: "\n"))
        }
    }

    static func line(_ kind: SegueError.Kind, _ text: String) -> String {
        var text = text
        func replace(_ phrase: String, _ flagged: String) {
            text = text.replacingOccurrences(of: phrase, with: flagged)
        }
        switch kind {
        case let .invalidOption(effect, option, _):
            if effect != nil, text.hasPrefix("\(option) ") { text = "--" + text }
            // The job's own bounds (RenderJob.checkRequest), named as the flags that set them.
            if effect == nil, ["fps", "scale", "size", "duration", "progress"].contains(option), text.hasPrefix("\(option) ") {
                text = "--" + text
            }
            if let effect {
                replace("\(effect) needs \(option) ", "\(effect) needs --\(option) ")
                text = text.replacingOccurrences(of: " times but ([a-z][a-z0-9-]*) ([0-9]+) times", with: " times but --$1 $2 times",
                                                 options: .regularExpression)
            }
            replace("unknown shader '", "unknown --shader '")
            replace("or a custom shader FILE.glsl)", "or --shader FILE.glsl)")
            replace("which only PNG frames in a directory can do", "which only PNG frames in a directory (--out DIR) can do")
            replace("resuming skips frames already written", "--resume skips frames already written")
            replace("use PNG frames, raw RGBA frames, or a", "use PNG frames, --format rgba, or a")
            // What an output path means (RenderJob.OutputPlan), in the flags that named it.
            if option == "output" {
                replace("the output path is empty", "--out must not be empty")
                replace("nothing to write: name a directory of frames, a stream or a video",
                        "nothing to write: give --out DIR, --video FILE or \"output\" in the storyboard")
                text = text.replacingOccurrences(of: "^'(.*)' is a video \\(ffmpeg chooses its format by the extension\\); the format ([a-z0-9]+) applies",
                                                 with: "--out '$1' is a video (ffmpeg chooses its format by the extension); --format $2 applies",
                                                 options: .regularExpression)
                text = text.replacingOccurrences(of: "^'(.*)' is a video, and so is '.*': name one$", with: "--out '$1' is a video, and so is --video: give one",
                                                 options: .regularExpression)
                text = text.replacingOccurrences(of: "^a video \\('.*'\\) and a stream \\('.*', ([a-z0-9]+)\\) do not combine",
                                                 with: "--video and a stream (--out - or --format $1) do not combine", options: .regularExpression)
            }
            // An interactive track's completion (InteractiveTrack.Completion).
            if ["completion", "damping", "response"].contains(option) {
                replace("the spring's damping ratio must", "--damping must")
                replace("the spring's response must", "--response must")
                replace("unknown completion '", "unknown --completion '")
                replace("\(option) applies to the spring completion", "--\(option) applies to --completion spring")
            }
            if option == "ffmpegArguments" {
                replace("ffmpeg arguments need a video output: a file ending in", "--ffmpeg-args needs --out FILE ending in")
            }
            if option == "output", text.hasPrefix("the video '"), text.contains("' must end in") {
                text = text.replacingOccurrences(of: "^the video '(.*)' must end in", with: "--video '$1': the file must end in",
                                                 options: .regularExpression)
            }
        case let .outputInUse(_, byRunningJob):
            if byRunningJob {
                replace("choose another output", "choose another --out")
            } else {
                replace("allow overwriting to replace them, or resume to render", "use --overwrite to replace them, or --resume to render")
            }
        case .unsupported:
            replace("needs the GLES backend (auto or gles)", "needs the GLES backend (--backend auto or gles)")
        case .failed:
            replace("a video needs ffmpeg, which is not on PATH", "--video needs ffmpeg, which is not on PATH")
            replace("or write frames to a directory)", "or write frames with --out DIR)")
        default:
            break
        }
        replace("the custom shader needs the GLES backend", "--shader needs the GLES backend")
        replace("pixels (maxPixels)", "pixels (--max-pixels)")
        return text
    }
}
