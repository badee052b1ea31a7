import Foundation
import SegueCore

/// A job's frames in order (`RenderJob.frameStream`), rendered as they are taken. Iterate it once; `cancel()`
/// stops the job and waits for its end. Its
/// iterator throws `SegueError` only (the backends', the codecs' and a chunk's errors converted, as `run`
/// converts them).
public struct FrameSequence: AsyncSequence, Sendable {
    public typealias Element = Pixmap
    public typealias Failure = any Error

    let job: RenderJob
    let renderer: Lent
    let observer: RenderJob.Observer
    /// Between the job and the iterator; made with the sequence, so that `cancel()` reaches the job.
    let channel: FrameChannel

    init(job: RenderJob, renderer: Lent, bufferLimit: Int, observer: RenderJob.Observer) {
        self.job = job
        self.renderer = renderer
        self.observer = observer
        channel = FrameChannel(limit: bufferLimit)
    }

    /// The job's control: `running` counts its thread until it has returned.
    package var control: JobControl { channel.control }

    /// Cancels the job (the iterator's `next()` then throws `SegueError.interrupted`, or ends after the frames
    /// already taken), and returns once it has ended: its thread has returned, its children are reaped and its
    /// temporaries removed. At once when the job never started.
    public func cancel() async {
        channel.cancel()
        await channel.control.ended()
    }

    public func makeAsyncIterator() -> Iterator {
        let job = job, renderer = renderer, observer = observer
        return Iterator(owner: Owner(channel), start: { channel in
            try JobThread.start("segue-frames", control: channel.control) {
                let result = Result { () throws(SegueError) in
                    _ = try SegueError.converting {
                        try job.run(renderer: renderer.renderer, control: channel.control, observer: observer, memory: channel)
                    }
                }
                channel.end(result.mapError { $0 as any Error })
            }
        })
    }

    /// Starts the job on its first `next()`, and cancels it when it goes.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        /// Only the iterator holds it: when the iterator goes, the job is cancelled.
        let owner: Owner
        let start: @Sendable (FrameChannel) throws -> Void

        /// The next frame, in order; nil after the last; throws the job's error.
        public mutating func next() async throws -> Pixmap? {
            let channel = owner.channel
            if channel.claimStart() {
                do { try start(channel) } catch { channel.end(.failure(SegueError.from(error))) }
            }
            return try await withTaskCancellationHandler {
                try await channel.take()
            } onCancel: {
                channel.cancel()
            }
        }
    }

    /// Cancels the job when the iterator that owns it is gone (a consumer that broke out of its loop).
    final class Owner: Sendable {
        let channel: FrameChannel
        init(_ channel: FrameChannel) { self.channel = channel }
        deinit { channel.cancel() }
    }
}
