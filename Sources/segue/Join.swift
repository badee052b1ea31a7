import ArgumentParser
import Foundation
import SegueRender

/// `segue join VIDEO`: the chunks of a video rendered with `--chunk`, joined into it without re-encoding.
struct Join: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Join the chunks of a video rendered with --chunk into the video, without re-encoding.",
        discussion: """
            The chunks are in VIDEO.chunks/, each recorded with its job and hash. Every chunk must be complete \
            and of the same job; ffmpeg's concat demuxer copies them into VIDEO (written under a temporary name, \
            renamed when it holds exactly the job's frames). One join at a time: a second one fails while \
            VIDEO.chunks/join.lock is held. Joining the same chunks again does nothing.
            Example:
              segue batch story.json --video story.mp4 --chunk 0/4   # ... 3/4, on four machines
              segue join story.mp4
            """)

    @Argument(help: ArgumentHelp("The video the chunks were rendered for (.mp4, .webm or .mov).", valueName: "video"))
    var video: String

    @Flag(help: "Say nothing on success.")
    var quiet = false

    func validate() throws {
        if video.isEmpty { throw ValidationError("the video must not be empty") }
    }

    func run() throws {
        // A signal in the middle of a join removes its files (the watchdog ends the join a second after it).
        Signals.watch(frameTimeout: 86_400)
        switch try ChunkedVideo(video).join(control: Signals.control) {
        case let .joined(chunks, frames):
            if !quiet { Console.note("joined \(chunks) chunks (\(frames) frames) into '\(video)'") }
        case let .alreadyJoined(chunks, _):
            if !quiet { Console.note("'\(video)' is already joined from these \(chunks) chunks") }
        case let .notYet(problem):
            throw problem
        }
    }
}
