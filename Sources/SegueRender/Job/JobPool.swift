import Foundation
import SegueCore

/// Threads and memory shared by the jobs that name it (`RenderJob.pool`), for a program that runs several at
/// once (a server): each job, once its checks pass and before it creates its outputs or draws, takes a lease
/// of threads (its compositor's and its encoders', at most the pool's total) and of memory (its peak for the
/// frames in flight it chose, cut down to fit the pool's total as to fit the machine), waiting while other
/// jobs hold too much of the pool, and gives it back when it ends, however it ends. A job that cannot run
/// within the whole pool is refused at once (`SegueError.Kind.resourceLimit`).
public final class JobPool: Sendable {
    /// The threads the pool's jobs may run at once (at least 2 for a job: one drawing, one encoding).
    public let threads: Int
    /// The bytes the pool's jobs may hold at once (`MemoryBudget`'s estimate of each job's peak).
    public let memoryBytes: Int
    private let state = State()

    /// A pool of `threads` threads and `memoryBytes` bytes.
    public init(threads: Int, memoryBytes: Int) {
        self.threads = threads
        self.memoryBytes = memoryBytes
    }

    /// Threads leased to running jobs now.
    public var threadsInUse: Int { state.withLock { $0.threads } }

    /// Bytes leased to running jobs now.
    public var memoryInUse: Int { state.withLock { $0.memory } }

    /// Jobs waiting for a lease now.
    public var waiting: Int { state.withLock { $0.waiting } }

    /// The fewest threads a job needs: one drawing, one encoding.
    static let minimumThreads = 2

    /// Takes `threads` threads and `memory` bytes, waiting while other jobs hold them; throws `interrupted`
    /// once `control` is cancelled while waiting. The wait is not timed work (`JobControl.isTimed`): a job's
    /// time limit counts what it does, not its place in the queue.
    func lease(threads: Int, memory: Int, control: JobControl) throws(SegueError) -> Lease {
        try state.wait(control: control) { held in
            held.threads + threads <= self.threads && held.memory + memory <= self.memoryBytes
        } then: { held in
            held.threads += threads
            held.memory += memory
        }
        return Lease(pool: self, threads: threads, memory: memory)
    }

    /// What a job holds of the pool; given back by `release()`, or when it goes.
    final class Lease: @unchecked Sendable {
        let threads: Int
        let memory: Int
        private let pool: JobPool
        private var released = false

        init(pool: JobPool, threads: Int, memory: Int) {
            self.pool = pool
            self.threads = threads
            self.memory = memory
        }

        /// Gives the lease back (once).
        func release() {
            pool.state.change { held in
                guard !released else { return }
                released = true
                held.threads -= threads
                held.memory -= memory
            }
        }

        deinit { release() }
    }

    /// What is leased, guarded by a condition that waiters wait on.
    private final class State: @unchecked Sendable {
        struct Held {
            var threads = 0
            var memory = 0
            var waiting = 0
        }
        private let condition = NSCondition()
        private var held = Held()

        func withLock<T>(_ body: (Held) -> T) -> T {
            condition.lock()
            defer { condition.unlock() }
            return body(held)
        }

        func change(_ body: (inout Held) -> Void) {
            condition.lock()
            body(&held)
            condition.broadcast()
            condition.unlock()
        }

        /// Waits until `fits`, then `take`s; checks `control` every 50 ms.
        func wait(control: JobControl, until fits: (Held) -> Bool, then take: (inout Held) -> Void) throws(SegueError) {
            condition.lock()
            defer { condition.unlock() }
            if !fits(held) {
                held.waiting += 1
                defer { held.waiting -= 1 }
                control.touch("waiting for the job pool", timed: false)
                while !fits(held) {
                    if control.isCancelled { throw SegueError.interrupted }
                    _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
                }
            }
            try control.check()
            take(&held)
        }
    }
}
