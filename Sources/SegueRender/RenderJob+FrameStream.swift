import Foundation
import SegueCore

extension RenderJob {
    /// The job's frames in order, as an asynchronous sequence, ignoring `outputs`: `frames(renderer:)` without
    /// holding every frame. The job starts on its own thread when the first frame is asked for, and waits
    /// whenever `bufferLimit` frames are ready that the consumer has not taken (no frame is dropped); besides
    /// those, only the frames the job has in flight are alive (at most two per core, fewer where memory is short).
    /// Ending the iteration early (`break`, a thrown error, the task cancelled) cancels the job, which stops
    /// after the frame in flight; a cancelled task's `next()` throws `JobError.interrupted`.
    ///
    /// `renderer`, when given, is the job's until the sequence ends (renderers are not `Sendable`). `observer`'s
    /// `progress` counts frames handed to the sequence's buffer.
    public func frameStream(renderer: (any Renderer)? = nil, bufferLimit: Int = 2,
                            observer: Observer = Observer()) -> FrameSequence {
        FrameSequence(job: self, renderer: Lent(renderer), bufferLimit: max(1, bufferLimit), observer: observer)
    }
}

/// A job's frames in order (`RenderJob.frameStream`), rendered as they are taken. Iterate it once.
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
                let result = Result {
                    _ = try job.run(renderer: renderer.renderer, control: channel.control, observer: observer,
                                    memory: channel)
                }
                channel.end(result)
            }
        })
    }

    public struct Iterator: AsyncIteratorProtocol, Sendable {
        /// Only the iterator holds it: when the iterator goes, the job is cancelled.
        let owner: Owner
        let start: @Sendable (FrameChannel) throws -> Void

        public mutating func next() async throws -> Pixmap? {
            let channel = owner.channel
            if channel.claimStart() {
                do { try start(channel) } catch { channel.end(.failure(error)) }
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

/// The bounded sink between the job's pipeline (its writer thread, in frame order) and the consumer: `write`
/// blocks while `limit` frames wait to be taken, and throws `JobError.interrupted` once the consumer is gone.
final class FrameChannel: FrameStream, @unchecked Sendable {
    let control = JobControl()
    private let limit: Int
    private let lock = NSCondition()
    // Guarded by `lock`:
    private var buffer: [Pixmap] = []
    private var started = false
    private var cancelled = false
    private var ended: Result<Void, Error>?
    private var waiter: CheckedContinuation<Pixmap?, Error>?

    init(limit: Int) { self.limit = limit }

    /// True the first time: the caller starts the job.
    func claimStart() -> Bool {
        lock.withLock {
            defer { started = true }
            return !started
        }
    }

    /// The next frame, waiting for it; nil after the last; the job's error once it failed and every frame
    /// before the failure was taken.
    func take() async throws -> Pixmap? {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Pixmap?, Error>) in
            lock.lock()
            if !buffer.isEmpty {
                let frame = buffer.removeFirst()
                lock.broadcast()
                lock.unlock()
                continuation.resume(returning: frame)
            } else if let ended {
                lock.unlock()
                continuation.resume(with: ended.map { nil })
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }

    /// The consumer is gone or its task cancelled: the job stops after the frame in flight.
    func cancel() {
        control.cancel()
        lock.withLock {
            cancelled = true
            lock.broadcast()
        }
    }

    /// The job ended (`.success` after its last frame).
    func end(_ result: Result<Void, Error>) {
        lock.lock()
        ended = result
        let waiting = waiter
        waiter = nil
        lock.unlock()
        waiting?.resume(with: result.map { nil })
    }

    // MARK: FrameStream (the job's side)

    func register(with control: JobControl) {}

    func encode(_ frame: Pixmap, knownOpaque: Bool) throws -> FramePayload { .pixels(frame) }

    func write(_ payload: FramePayload) throws {
        guard case let .pixels(frame) = payload else { return }
        lock.lock()
        while buffer.count >= limit && !cancelled { lock.wait() }
        if cancelled {
            lock.unlock()
            throw JobError.interrupted
        }
        if let waiting = waiter {
            // The consumer is waiting with nothing buffered: it takes this frame directly.
            waiter = nil
            lock.unlock()
            waiting.resume(returning: frame)
            return
        }
        buffer.append(frame)
        lock.unlock()
    }

    func finish() throws {}

    /// The frames already buffered stay for the consumer, who gets the job's error after them.
    func abandon() {}
}
