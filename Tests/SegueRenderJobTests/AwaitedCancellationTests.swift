import Foundation
import SegueCore
@testable import SegueRender
import SegueTestSupport
import Testing

/// Cancellation a program can await (`JobControl.ended()`, `FrameSequence.cancel()`): once it returns, the
/// job's thread has returned, its ffmpeg is reaped and its temporary files are gone.
@Suite struct AwaitedCancellationTests {
    /// A 600 s door at a small scale: far longer than any test waits.
    static func longJob(_ output: RenderJob.Output) -> RenderJob {
        var job = RenderJob(Transition(.door, duration: 600), from: "sample:home", to: "sample:detail", fps: 30,
                            scale: 0.125, output: output)
        job.backend = .cpu
        job.threads = 1
        return job
    }

    /// Whether ffmpeg is on the PATH (it is in CI: a test that needs it records a failure without it, rather
    /// than testing something else).
    static var hasFFmpeg: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/ffmpeg") }
    }

    /// This process's children whose command line names `text` (other tests run their own children meanwhile).
    static func children(naming text: String) -> [Int32] {
        let me = getpid()
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, Int32(fields[1]) == me else { return false }
            let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))).map { String(decoding: $0, as: UTF8.self) } ?? ""
            return command.contains(text)
        }
    }

    /// A long job writing a video through ffmpeg, stepped by a recording renderer that lets exactly 3 frames
    /// through and holds the 4th, then cancelled and awaited: when `ended()` returns, the job has thrown
    /// `interrupted` after the frame in flight (4 frames asked for, no 5th), its thread is gone, no child of
    /// this process that wrote its output remains (not even a zombie) and no temporary file is left.
    @Test func cancelAndWaitLeavesNoThreadChildOrTemporary() async throws {
        try #require(Self.hasFFmpeg, "ffmpeg is not on the PATH: this test needs the job's ffmpeg child to check that it is reaped")
        let dir = try temporaryDirectory("cancel")
        defer { try? FileManager.default.removeItem(at: dir) }
        let job = Self.longJob(.video(dir.appendingPathComponent("long.mp4").path))
        let gate = FrameGate(allowing: 3)
        let renderer = RecordingRenderer(gate: gate)
        let control = JobControl()
        let task = Task {
            defer { gate.finish() }
            return try await job.run(renderer: renderer, control: control)
        }
        // The job has drawn frames 0, 1 and 2 and holds at frame 3.
        let reached = await gate.arrival(of: 4)
        try #require(reached == 4, "the job ended after \(reached) frames, before its 4th")
        #expect(control.running > 0)
        #if !SEGUE_SANITIZED
        // Under ThreadSanitizer the job's ffmpeg was never seen among this process's children while the job wrote
        // all 18,001 frames through it: the /proc check that it ran holds in the builds users run. (ffmpeg is
        // started with the job's output, before its first frame is drawn.)
        #expect(!Self.children(naming: dir.path).isEmpty, "ffmpeg is not running while the job holds its 4th frame")
        #endif
        control.cancel()
        gate.open()
        await control.cancelAndWait()
        #expect(control.running == 0)
        #expect(renderer.frames.count == 4, "the job went on past the frame in flight: \(renderer.frames.count) frames asked for")
        #expect(Self.children(naming: dir.path).isEmpty)
        let left = Self.listing(dir)
        #expect(!left.contains { $0.contains(".tmp-") } && !left.contains("long.mp4"), "\(left)")
        await #expect(throws: SegueError.interrupted) { try await task.value }
    }

    /// A frame stream cancelled and awaited mid-way: its job's thread has returned.
    @Test func aFrameStreamsCancelWaitsForItsJob() async throws {
        let frames = Self.longJob(.frames(directory: "unused")).frameStream(bufferLimit: 1)
        var taken = 0
        do {
            for try await _ in frames {
                taken += 1
                if taken == 3 { await frames.cancel() }
                #expect(frames.control.running == 0 || taken < 3)
            }
        } catch let error as SegueError {
            #expect(error == .interrupted)
        }
        #expect(taken >= 3 && taken <= 5)
        #expect(frames.control.running == 0)
    }

    /// Awaiting a control that runs nothing returns at once.
    @Test func endedReturnsAtOnceWhenNothingRuns() async {
        let control = JobControl()
        await control.ended()
        #expect(control.running == 0)
    }

    /// Every name under `dir`, at any depth.
    static func listing(_ dir: URL) -> [String] {
        (FileManager.default.enumerator(atPath: dir.path)?.allObjects as? [String]) ?? []
    }
}
