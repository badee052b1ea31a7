import ArgumentParser
import Foundation
import SegueCore
import SegueStudio

/// `segue studio`: the preview page's server (SegueStudio), until interrupted.
struct StudioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "Serve a live preview page of effects and storyboards while you write them.",
        discussion: """
            Prints one URL, with a token every request must carry, and opens nothing by itself. The page plays \
            the transition in a loop, scrubs it frame by frame, edits its options, curve, duration and size, \
            draws it between the sample screens or images you drop on it, and shows GLES and the CPU side by \
            side with their PSNR. Every picture is drawn by segue's own renderer: a frame at a progress is the \
            PNG `segue render --progress` writes, byte for byte.

            The files named are watched: a saved change reaches the page within a second, and a file with \
            problems shows each at its JSON path beside the last good picture. The page's Render button writes \
            a video or a directory of frames inside the directory studio was started in, never replacing one.

            Examples:
              segue studio
              segue studio my-effect.json --from home.png --to detail.png
              segue studio story.json --port 9000
            """)

    @Argument(help: ArgumentHelp("Effect files (.json) and storyboards to preview and watch. Default: the built-in effects.", valueName: "file"))
    var files: [String] = []

    @Option(help: ArgumentHelp("The screen effects start from: an image, or sample:home.", valueName: "path"))
    var from = "sample:home"

    @Option(help: ArgumentHelp("The screen effects end on: an image, or sample:detail.", valueName: "path"))
    var to = "sample:detail"

    @Option(parsing: .unconditional, help: ArgumentHelp("The port to listen on; 0 takes any free port.", valueName: "n"))
    var port: UInt16 = 8417

    @Option(help: ArgumentHelp("The address to listen on. Anything but loopback (127.0.0.1, ::1) is reachable from the network: the token still guards every request.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(name: .customLong("max-pixels"), parsing: .unconditional, help: ArgumentHelp("Screens and uploaded images with more pixels are refused from their header.", valueName: "n"))
    var maxPixels = Limits.maxPixels

    func validate() throws {
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be > 0") }
    }

    /// What the studio is started with: the options, and the command line's words.
    var settings: Studio.Settings {
        var settings = Studio.Settings()
        settings.files = files
        settings.from = from
        settings.to = to
        settings.port = port
        settings.host = host
        settings.maxPixels = maxPixels
        // The page speaks the command line's words: the command it shows and its errors name flags.
        settings.naming = { CommandWords.flag($0) }
        return settings
    }

    func run() throws {
        let studio = try Studio(settings)
        if !studio.isLoopback {
            FileHandle.standardError.write(Data("segue studio: warning: listening on \(host), which other machines can reach; every request still needs the token\n".utf8))
        }
        // Ctrl-C, SIGTERM and SIGHUP (a closed terminal) stop the server here rather than ending the process in the
        // handler: a render the page started is cancelled and its partial output removed first (within 5 s, else
        // the process ends anyway). An ignored SIGHUP (`nohup`) stays ignored.
        var hangup = sigaction()
        sigaction(SIGHUP, nil, &hangup)
        let hangupIgnored = unsafeBitCast(hangup.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        for sig in [SIGINT, SIGTERM, SIGHUP] where !(sig == SIGHUP && hangupIgnored) {
            signal(sig) { _ in Signals.control.cancel() }
        }
        let ended = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        let server = Task {
            do {
                try await studio.run { url in
                    FileHandle.standardOutput.write(Data("segue studio: \(url)\nsegue studio: open it in a browser; Ctrl-C stops the server\n".utf8))
                }
            } catch is CancellationError {
            } catch {
                outcome.failure = error
            }
            ended.signal()
        }
        // Interrupted (Signals cancels its control): the server stops, a running render is cancelled.
        var deadline: DispatchTime?
        while ended.wait(timeout: .now() + 0.1) == .timedOut {
            guard Signals.control.isCancelled else { continue }
            server.cancel()
            if deadline == nil { deadline = .now() + 5 }
            if let deadline, DispatchTime.now() > deadline { throw SegueError.interrupted }
        }
        if let failure = outcome.failure {
            throw SegueError(classifying: failure) ?? SegueError.failed("segue studio stopped: \((failure as? LocalizedError)?.errorDescription ?? "its server failed")")
        }
        if Signals.control.isCancelled { throw SegueError.interrupted }
    }

    /// How the server ended, set by its task before the semaphore is signalled.
    final class Outcome: @unchecked Sendable {
        var failure: (any Error)?
    }
}
