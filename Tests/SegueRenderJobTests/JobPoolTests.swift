import Foundation
import SegueCore
import SegueCPU
@testable import SegueRender
import SegueTestSupport
import Synchronization
import Testing

/// `JobPool`: jobs of one process sharing threads and memory.
@Suite struct JobPoolTests {
    static func job(_ transition: Transition, _ output: RenderJob.Output, pool: JobPool?) -> RenderJob {
        var job = RenderJob(transition, from: "sample:home", to: "sample:detail", fps: 30, scale: 0.25, output: output)
        job.backend = .cpu
        job.pool = pool
        return job
    }

    /// Keeps every frame's bytes.
    final class KeepingSink: FrameSink, @unchecked Sendable {
        private let lock = NSLock()
        private var frames: [[UInt8]] = []
        var written: [[UInt8]] { lock.withLock { frames } }
        func write(frame index: Int, bytes: [UInt8]) throws {
            lock.withLock { frames.append(bytes) }
        }
    }

    /// Two jobs at once in one process, with different outputs, sharing a pool of 2 threads (each needs 2):
    /// the second waits while the first holds the pool, the pool never lends more than it has, and each job's
    /// frames are those it writes alone. The first is stepped by a recording renderer (drawing with the CPU
    /// compositor): it holds its first frame until the second waits for the pool.
    @Test func twoJobsShareAPoolAndOneWaits() async throws {
        let dir = try temporaryDirectory("pool")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pool = JobPool(threads: 2, memoryBytes: 4 << 30)
        let mostThreads = Atomic<Int>(0), sawWaiting = Atomic<Bool>(false)
        let watch = RenderJob.Observer(progress: { _, _ in
            mostThreads.max(pool.threadsInUse)
            if pool.waiting > 0 { sawWaiting.store(true, ordering: .relaxed) }
        })
        let gate = FrameGate(allowing: 0)
        let stepped = RecordingRenderer(gate: gate, drawing: CPUCompositor(threads: 1))
        let kept = KeepingSink()
        let a = Self.job(Transition(.door, duration: 0.5), .sink(kept, format: .png), pool: pool)
        let b = Self.job(Transition(.circleSpread, duration: 0.4), .frames(directory: dir.appendingPathComponent("b").path), pool: pool)
        let first = Task {
            defer { gate.finish() }
            return try await a.run(renderer: stepped, observer: watch)
        }
        // A holds the whole pool and its first frame.
        #expect(await gate.arrival(of: 1) == 1)
        #expect(pool.threadsInUse == 2)
        let bEnded = Atomic<Bool>(false)
        let second = Task {
            defer { bEnded.store(true, ordering: .relaxed) }
            return try await b.run(observer: watch)
        }
        // B asks for the pool and waits (or, were the pool to lend more than it has, runs to its end).
        while pool.waiting == 0 && !bEnded.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(5)) }
        #expect(pool.waiting == 1, "the second job did not wait for the pool the first holds")
        gate.open()
        let ra = try await first.value, rb = try await second.value
        #expect(ra.rendered == 16 && rb.rendered == 13)
        #expect(stepped.frames.count == 16)
        let waited = sawWaiting.load(ordering: .relaxed), most = mostThreads.load(ordering: .relaxed)
        #expect(waited && most <= 2)
        #expect(pool.threadsInUse == 0 && pool.memoryInUse == 0 && pool.waiting == 0)

        // Each alone, without a pool.
        let alone = KeepingSink()
        try await Self.job(Transition(.door, duration: 0.5), .sink(alone, format: .png), pool: nil).run()
        #expect(kept.written == alone.written)
        try await Self.job(Transition(.circleSpread, duration: 0.4), .frames(directory: dir.appendingPathComponent("b-alone").path), pool: nil).run()
        for k in 0..<13 {
            let name = String(format: "frame_%05d.png", k)
            let shared = try Data(contentsOf: dir.appendingPathComponent("b/\(name)"))
            let own = try Data(contentsOf: dir.appendingPathComponent("b-alone/\(name)"))
            #expect(shared == own, "\(name) differs")
        }
    }

    /// A job that needs more than the whole pool is refused at once, naming the limit.
    @Test func aJobLargerThanThePoolIsRefusedAtOnce() async throws {
        let tooFewThreads = Self.job(Transition(.door, duration: 0.2), .sink(KeepingSink(), format: .png), pool: JobPool(threads: 1, memoryBytes: 4 << 30))
        #expect(throws: SegueError(.resourceLimit(name: "threads"), "a job needs at least 2 threads (one drawing, one encoding), but its job pool has 1")) {
            try tooFewThreads.run()
        }
        let tooLittleMemory = Self.job(Transition(.door, duration: 0.2), .sink(KeepingSink(), format: .png), pool: JobPool(threads: 4, memoryBytes: 1 << 20))
        #expect { try tooLittleMemory.run() } throws: { error in
            let e = error as? SegueError
            return e?.kind == .resourceLimit(name: "memory") && e?.message.hasSuffix("but 1 MiB are available in its job pool") == true
        }
    }

    /// A job waiting for its lease is cancelled by its control: it throws `interrupted`, having created nothing.
    @Test func aJobWaitingForThePoolIsCancellable() async throws {
        let dir = try temporaryDirectory("pool")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pool = JobPool(threads: 2, memoryBytes: 4 << 30)
        let held = try pool.lease(threads: 2, memory: 0, control: JobControl())
        let control = JobControl()
        let out = dir.appendingPathComponent("frames")
        let job = Self.job(Transition(.door, duration: 0.2), .frames(directory: out.path), pool: pool)
        let task = Task { try await job.run(control: control) }
        while pool.waiting == 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(!control.isTimed && control.activity == "waiting for the job pool")
        control.cancel()
        await #expect(throws: SegueError.interrupted) { try await task.value }
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(pool.threadsInUse == 2)
        held.release()
        #expect(pool.threadsInUse == 0 && pool.memoryInUse == 0)
    }
}

extension Atomic<Int> {
    fileprivate func max(_ value: Int) {
        var seen = load(ordering: .relaxed)
        while value > seen {
            let (exchanged, now) = compareExchange(expected: seen, desired: value, ordering: .relaxed)
            if exchanged { return }
            seen = now
        }
    }
}
