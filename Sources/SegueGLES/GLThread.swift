import Foundation

/// A dedicated thread that runs every GL and EGL call of one renderer, one job at a time.
///
/// An EGL context is current on one thread at a time, while Swift callers (Swift Testing, a command line
/// with tasks) may call in from any thread. The renderer's context is made current once, on this thread,
/// and stays so; `sync` hands it a job and blocks until the job is done. Jobs submitted from the thread
/// itself (a `deliver` callback calling back into the renderer) run inline.
final class GLThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var stopping = false
    private var finished = false
    private var thread: pthread_t?

    /// Starts the thread. Its stack is large: llvmpipe compiles shaders with LLVM on the calling thread.
    init(name: String) {
        let thread = Thread { [self] in serve() }
        thread.name = name
        thread.stackSize = 16 << 20
        thread.start()
        condition.lock()
        while self.thread == nil { condition.wait() }
        condition.unlock()
    }

    /// True on the GL thread itself.
    var isCurrent: Bool {
        guard let thread else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }

    /// Runs `body` on the GL thread and returns what it returns (or throws what it throws).
    func sync<T>(_ body: () throws -> T) throws -> T {
        if isCurrent { return try body() }
        return try withoutActuallyEscaping(body) { body in
            var result: Result<T, Error>?
            // The job reaches `body` through this variable and drops it before signalling, so `body` has
            // not escaped when this call returns (the queue may still hold the job itself for a moment).
            var pending: (() throws -> T)? = body
            let done = DispatchSemaphore(value: 0)
            condition.lock()
            precondition(!stopping, "GLThread used after stop()")
            jobs.append {
                result = Result { try pending!() }
                pending = nil
                done.signal()
            }
            condition.signal()
            condition.unlock()
            done.wait()
            return try result!.get()
        }
    }

    /// Runs what is queued, then ends the thread and waits for it to end.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        while !finished { condition.wait() }
        condition.unlock()
    }

    private func serve() {
        condition.lock()
        thread = pthread_self()
        condition.broadcast()
        while true {
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty { break }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
            condition.lock()
        }
        finished = true
        condition.broadcast()
        condition.unlock()
    }
}
