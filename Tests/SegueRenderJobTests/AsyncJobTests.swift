import Foundation
import SegueCore
import SegueCPU
import SegueRender
import SegueTestSupport
import Testing

/// The job from Swift concurrency: `try await run`, which task cancellation stops.
@Suite struct AsyncJobTests {
    /// 600 small frames (a 20 s fade at 30 frames/s, 94x167 pixels), far more than a test waits for.
    static func longJob(_ output: RenderJob.Output) -> RenderJob {
        var job = RenderJob(Transition(.fade, duration: 20), from: "sample:home", to: "sample:detail", fps: 30,
                            scale: 0.25, output: output)
        job.backend = .cpu
        job.threads = 1
        return job
    }

    /// An async run ends as the blocking one does: the same summary, the same files.
    @Test func anAsyncRunWritesTheFramesOfABlockingOne() async throws {
        let dir = try temporaryDirectory("async")
        defer { try? FileManager.default.removeItem(at: dir) }
        var job = RenderJob(Transition(.door, duration: 0.3), from: "sample:home", to: "sample:detail", fps: 30,
                            scale: 0.5, output: .frames(directory: dir.appendingPathComponent("async").path))
        job.backend = .cpu
        let summary = try await job.run(observer: RenderJob.Observer())
        #expect(summary.rendered == 10 && summary.renderer == "cpu")
        job.outputs = [.frames(directory: dir.appendingPathComponent("blocking").path)]
        try runBlocking(job)
        for k in 0..<10 {
            let name = String(format: "frame_%05d.png", k)
            let a = try Data(contentsOf: dir.appendingPathComponent("async/\(name)"))
            let b = try Data(contentsOf: dir.appendingPathComponent("blocking/\(name)"))
            #expect(a == b, "\(name) differs")
        }
    }

    /// Cancelling the task stops the job after the frame in flight, well before its end: it throws
    /// `interrupted`, the frames written are complete and no temporary file is left. The task is cancelled from
    /// the job's own progress report of its first frame, not by polling the directory from the cooperative
    /// pool, which parallel tests (and a sanitizer's slowdown) can keep busy for minutes.
    @Test func cancellingTheTaskStopsTheJobAndLeavesNoPartialFrame() async throws {
        let dir = try temporaryDirectory("async")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("frames")
        let job = Self.longJob(.frames(directory: out.path))
        let canceller = CancelAfterFirstFrame()
        let observer = RenderJob.Observer(progress: { done, _ in if done >= 1 { canceller.frameDone() } })
        canceller.start(Task { try await job.run(observer: observer) })
        await #expect(throws: SegueError.interrupted) { try await canceller.value() }
        /// What the job left in the directory, less `.segue` (its lock and manifest); a temporary file is
        /// `.frame_NNNNN.png.tmp-PID`.
        let left = ((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).filter { $0 != ".segue" }
        #expect(!left.isEmpty && left.count < 100, "\(left.count) frames left: the job did not stop after the frame in flight")
        #expect(left.allSatisfy { $0.range(of: #"^frame_\d{5}\.png$"#, options: .regularExpression) != nil },
                "partial output left: \(left.filter { $0.hasPrefix(".") })")
    }

    /// A task cancelled before the job starts ends it before anything is written.
    @Test func aTaskCancelledBeforeTheJobStartsWritesNothing() async throws {
        let dir = try temporaryDirectory("async")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("frames")
        let job = Self.longJob(.frames(directory: out.path))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await job.run(observer: RenderJob.Observer())
        }
        await #expect(throws: SegueError.interrupted) { try await task.value }
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("frame_00000.png").path))
    }
}

/// The blocking `run` (in an async context, `run` is the async one).
private func runBlocking(_ job: RenderJob) throws {
    try job.run()
}

/// Cancels a job's task once the job reports its first frame, whichever comes first: the report or the task.
private final class CancelAfterFirstFrame: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<RenderJob.Summary, any Error>?
    private var framed = false

    func start(_ task: Task<RenderJob.Summary, any Error>) {
        let cancelNow = lock.withLock { self.task = task; return framed }
        if cancelNow { task.cancel() }
    }

    func frameDone() {
        let task = lock.withLock { framed = true; return self.task }
        task?.cancel()
    }

    func value() async throws -> RenderJob.Summary {
        guard let task = lock.withLock({ self.task }) else { throw CancellationError() }
        return try await task.value
    }
}
