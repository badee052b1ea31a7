import Foundation
import Synchronization
import SegueCore
import SegueCPU
import SegueRender
import Testing

/// `RenderJob.frameStream`: the job's frames as an async sequence, a bounded number waiting for the consumer.
@Suite struct FrameStreamTests {
    /// The sequence holds the frames `frames()` returns, in order, pixel for pixel.
    @Test func theStreamHoldsTheFramesOfFrames() async throws {
        var job = RenderJob(Transition(.door, duration: 0.3), from: "sample:home", to: "sample:detail", fps: 30,
                            scale: 0.5, output: .frames(directory: "unused"))
        job.backend = .cpu
        let all = try job.frames()
        var streamed: [Pixmap] = []
        for try await frame in job.frameStream(bufferLimit: 2) { streamed.append(frame) }
        #expect(all.count == 10)
        #expect(streamed.count == all.count)
        #expect(zip(streamed, all).allSatisfy { $0.width == $1.width && $0.height == $1.height && $0.pixels == $1.pixels })
    }

    /// A slow consumer holds the job back: frames handed to the sequence but not yet taken never exceed the
    /// buffer's limit (none is dropped).
    @Test func aSlowConsumerHoldsTheJobBack() async throws {
        let job = AsyncJobTests.longJob(.frames(directory: "unused"))
        let delivered = Atomic<Int>(0)
        let observer = RenderJob.Observer(progress: { done, _ in delivered.store(done, ordering: .relaxed) })
        var taken = 0
        var mostWaiting = 0
        for try await _ in job.frameStream(bufferLimit: 2, observer: observer) {
            taken += 1
            try await Task.sleep(for: .milliseconds(30))
            mostWaiting = max(mostWaiting, delivered.load(ordering: .relaxed) - taken)
            if taken == 20 { break }
        }
        #expect(taken == 20)
        // The frame being written when the consumer takes one may count as delivered before it is buffered.
        #expect(mostWaiting <= 2 + 1, "\(mostWaiting) frames waited for the consumer")
    }

    /// A consumer that breaks out of its loop ends the job promptly: it lets go of its renderer and
    /// delivers nothing more.
    @Test func breakingOutEndsTheJob() async throws {
        let job = AsyncJobTests.longJob(.frames(directory: "unused"))
        let delivered = Atomic<Int>(0)
        let observer = RenderJob.Observer(progress: { done, _ in delivered.store(done, ordering: .relaxed) })
        var renderer = CPUCompositor(threads: 1)
        func takeTwo(_ renderer: CPUCompositor) async throws -> Int {
            var taken = 0
            for try await _ in job.frameStream(renderer: renderer, bufferLimit: 2, observer: observer) {
                taken += 1
                if taken == 2 { break }
            }
            return taken
        }
        #expect(try await takeTwo(renderer) == 2)
        let clock = ContinuousClock()
        let broke = clock.now
        // The job's thread holds the renderer until the job has ended.
        while !isKnownUniquelyReferenced(&renderer) {
            try #require(clock.now - broke < .seconds(10), "the job still runs 10 s after the consumer left")
            try await Task.sleep(for: .milliseconds(5))
        }
        let after = delivered.load(ordering: .relaxed)
        #expect(after <= 2 + 2 + 1, "\(after) frames delivered to a consumer that took 2")
        try await Task.sleep(for: .milliseconds(200))
        #expect(delivered.load(ordering: .relaxed) == after)
    }

    /// Cancelling the consuming task ends the job: `next()` throws `interrupted`.
    @Test func cancellingTheConsumerThrowsInterrupted() async throws {
        let job = AsyncJobTests.longJob(.frames(directory: "unused"))
        let task = Task {
            var taken = 0
            for try await _ in job.frameStream(bufferLimit: 1) {
                taken += 1
                if taken == 3 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return taken
        }
        await #expect(throws: SegueError.interrupted) { try await task.value }
    }
}
