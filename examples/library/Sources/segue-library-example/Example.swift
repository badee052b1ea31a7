import Foundation
import Segue

/// Segue as a program outside the repository uses it (by version, see Package.swift): each part of the job
/// library once, into the directory named by the first argument.
///
///   door-half.png   one frame of door, forward, half way, by a job (`make example` compares it with the
///                   command line's PNG, byte for byte), and the same frame drawn into memory
///   door/           every frame of the same transition at 10 frames/s, by `try await job.run()`
///   an effect file of the program's own (slide-up.json, beside this package), drawn from screens in memory;
///   a storyboard from text; a missing screen caught by its error case; a long job cancelled through its task.
@main
struct Example {
    static func main() async {
        guard CommandLine.arguments.count == 2 else {
            FileHandle.standardError.write(Data("usage: segue-library-example OUTDIR\n".utf8))
            exit(2)
        }
        do {
            try await run(into: CommandLine.arguments[1])
        } catch {
            fail("\(error)")
        }
    }

    static func run(into out: String) async throws {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let door = Transition(.door, direction: .forward)

        // One frame to a PNG file, and the same frame in memory.
        var half = RenderJob(door, from: "sample:home", to: "sample:detail", output: .image("\(out)/door-half.png"))
        half.progress = [0.5]
        half.backend = .cpu
        try await half.run()
        let middle = try half.frames()[0]
        say("door-half.png: \(middle.width)x\(middle.height), and the same frame in memory")

        // Every frame to a directory.
        var frames = RenderJob(door, from: "sample:home", to: "sample:detail", fps: 10, scale: 0.5,
                               output: .frames(directory: "\(out)/door"))
        frames.backend = .cpu
        let summary = try await frames.run()
        say("door/: \(summary.rendered) frames at \(summary.width)x\(summary.height) on \(summary.renderer)")

        // An effect file of the program's own, drawn from two screens held in memory.
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let slideUp = try EffectFiles.load(package.appendingPathComponent("slide-up.json").path)
        var start = half
        start.progress = [0]
        var custom = RenderJob(Transition(slideUp), from: try start.frames()[0], to: middle,
                               output: .frames(directory: "\(out)/unused"))
        custom.progress = [0.25]
        custom.backend = .cpu
        say("\(slideUp.name): \(try custom.frames().count) frame in memory")

        // A storyboard from text.
        var story = RenderJob(storyboardJSON: """
            {"fps": 5, "size": [90, 160], "screens": {"a": "sample:home", "b": "sample:detail"},
             "timeline": [{"hold": "a", "duration": 0.4}, {"transition": "fade", "from": "a", "to": "b", "duration": 0.4}]}
            """, output: .frames(directory: "\(out)/story"))
        story.backend = .cpu
        say("storyboard: \(try await story.run().rendered) frames")

        // A missing input, told apart from other failures by its case.
        var missing = RenderJob(door, from: "\(out)/no-such-screen.png", to: "sample:detail",
                                output: .image("\(out)/never.png"))
        missing.progress = [0.5]
        missing.backend = .cpu
        do {
            try await missing.run()
            fail("a job with a missing screen succeeded")
        } catch {
            guard case let .inputUnreadable(path) = error.kind else { fail("a missing screen gave \(error.kind): \(error)") }
            say("missing input caught: \(path)")
        }

        // A long job cancelled through its task: it stops after the frame in flight and throws `interrupted`.
        var long = RenderJob(Transition(.door, duration: 600), from: "sample:home", to: "sample:detail", scale: 0.5,
                             output: .frames(directory: "\(out)/cancelled"))
        long.backend = .cpu
        let job = long
        let task = Task { try await job.run() }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        do {
            _ = try await task.value
            fail("the cancelled job finished")
        } catch let error as SegueError where error.kind == .interrupted {
            say("cancelled through the task: \(error)")
        }
    }

    static func say(_ line: String) { print("segue-library-example: \(line)") }

    static func fail(_ line: String) -> Never {
        FileHandle.standardError.write(Data("segue-library-example: \(line)\n".utf8))
        exit(1)
    }
}
