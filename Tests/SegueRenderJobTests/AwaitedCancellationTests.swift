import Foundation
import SegueCore
@testable import SegueRender
import SegueTestSupport
import Synchronization
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

    /// A long job writing a video (ffmpeg) or frames, cancelled once it has drawn frames and awaited: when
    /// `ended()` returns, the job has thrown `interrupted`, its thread is gone, no child of this process that
    /// wrote its output remains (not even a zombie) and no temporary file is left.
    @Test func cancelAndWaitLeavesNoThreadChildOrTemporary() async throws {
        let dir = try temporaryDirectory("cancel")
        defer { try? FileManager.default.removeItem(at: dir) }
        let output: RenderJob.Output = Self.hasFFmpeg ? .video(dir.appendingPathComponent("long.mp4").path)
                                                      : .frames(directory: dir.appendingPathComponent("frames").path)
        let job = Self.longJob(output)
        let control = JobControl()
        let drawn = Atomic<Int>(0)
        let task = Task { try await job.run(control: control, observer: RenderJob.Observer(progress: { done, _ in drawn.store(done, ordering: .relaxed) })) }
        // Until it has drawn frames. The whole suite runs in parallel on two cores (in CI one run of this waited
        // more than 120 s for its first frames), so the wait is long.
        let deadline = Date(timeIntervalSinceNow: 600)
        while drawn.load(ordering: .relaxed) < 3 && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(drawn.load(ordering: .relaxed) >= 3, "the job did not draw 3 frames within 600 s")
        #if !SEGUE_SANITIZED
        // Under ThreadSanitizer the job's ffmpeg was never seen among this process's children while the job wrote
        // all 18,001 frames through it: the /proc check that it ran holds in the builds users run.
        if Self.hasFFmpeg {
            let seen = Date(timeIntervalSinceNow: 60)
            while Self.children(naming: dir.path).isEmpty && Date() < seen { try await Task.sleep(for: .milliseconds(10)) }
            #expect(!Self.children(naming: dir.path).isEmpty, "ffmpeg was not seen running within 60 s of the job's third frame")
        }
        #endif
        await control.cancelAndWait()
        #expect(control.running == 0)
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
