import Foundation
import SegueCore

/// A job's frames in order (`RenderJob.frameStream`), rendered as they are taken. Iterate it once. Its
/// iterator throws `SegueError` only (the backends', the codecs' and a chunk's errors converted, as `run`
/// converts them).
public struct FrameSequence: AsyncSequence, Sendable {
    public typealias Element = Pixmap
    public typealias Failure = any Error

    let job: RenderJob
    let renderer: Lent
    let bufferLimit: Int
    let observer: RenderJob.Observer

    public func makeAsyncIterator() -> Iterator {
        Iterator(owner: Owner(FrameChannel(limit: bufferLimit)), start: { channel in
            try JobThread.start("segue-frames") {
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
