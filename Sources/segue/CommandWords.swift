import ArgumentParser
import SegueCore

/// The library's errors in the command line's words: the library's messages name what a caller set as
/// references (`SegueError.Reference`), which it says by their names (the job's `overwrite`, the effect's
/// option `zoom`); here each is the flag the user typed (`--overwrite`, `--zoom`). The prose is the library's.
enum CommandWords {
    /// The flag that sets each of the library's options: the one table of them.
    static let flags: [SegueError.Option: String] = [
        .from: "--from",
        .to: "--to",
        .direction: "--direction",
        .curve: "--curve",
        .output: "--out",
        .video: "--video",
        .format: "--format",
        .overwrite: "--overwrite",
        .resume: "--resume",
        .maxPixels: "--max-pixels",
        .colourSpace: "--colour-space",
        .shader: "--shader",
        .parameter: "--param",
        .backend: "--backend",
        .ffmpegArguments: "--ffmpeg-args",
        .fps: "--fps",
        .scale: "--scale",
        .size: "--size",
        .duration: "--duration",
        .progress: "--progress",
        .completion: "--completion",
        .damping: "--damping",
        .response: "--response",
    ]

    /// The flag for `reference`: an effect's option is `--NAME` (`EffectArguments`); an option the table
    /// lacks keeps the library's name.
    static func flag(_ reference: SegueError.Reference) -> String {
        switch reference {
        case let .option(option): return flags[option] ?? option.rawValue
        case let .effectOption(name): return "--" + name
        }
    }

    /// The lines to print for `error`.
    static func lines(of error: SegueError) -> [String] {
        error.words.map { $0.text(naming: flag) }
    }

    /// Runs `body`, a check of the library's made in a command's `validate()`: its error becomes the argument
    /// parser's validation error, in these words.
    static func validating(_ body: () throws -> Void) throws {
        do { try body() } catch let error as SegueError {
            throw ValidationError(lines(of: error).joined(separator: "\n"))
        }
    }
}
