import Foundation
import SegueCore

/// The bounded sink between the job's pipeline (its writer thread, in frame order) and the consumer: `write`
/// blocks while `limit` frames wait to be taken, and throws `SegueError.interrupted` once the consumer is gone.
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
            throw SegueError.interrupted
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
