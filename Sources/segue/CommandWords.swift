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

    static func line(_ kind: SegueError.Kind, _ text: String) -> String {
        var text = text
        func replace(_ phrase: String, _ flagged: String) {
            text = text.replacingOccurrences(of: phrase, with: flagged)
        }
        switch kind {
        case let .invalidOption(effect, option, _):
            if effect != nil, text.hasPrefix("\(option) ") { text = "--" + text }
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
