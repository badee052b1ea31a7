import CEGL
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
    /// The pthread to join in `stop()`; nil once joined.
    private var handle_: pthread_t?
    private let name: String

    /// Starts the thread. Its stack is large: llvmpipe compiles shaders with LLVM on the calling thread.
    init(name: String) {
        self.name = name
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 16 << 20)
        var handle = pthread_t()
        // The thread holds the object until `serve` returns.
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&handle, &attributes, { context in
            Unmanaged<GLThread>.fromOpaque(context!).takeRetainedValue().serve()
            return nil
        }, context)
        pthread_attr_destroy(&attributes)
        precondition(status == 0, "pthread_create failed: \(status)")
        handle_ = handle
        condition.lock()
        while self.thread == nil { condition.wait() }
        condition.unlock()
    }

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
        let handle = handle_
        handle_ = nil
        condition.unlock()
        // Join, so the thread has wholly ended (its EGL state released) before the caller goes on: nothing of
        // EGL's may still be running on it when the process exits.
        if let handle { pthread_join(handle, nil) }
    }

    private func serve() {
        Thread.current.name = name
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
        // Release this thread's EGL state here, rather than in a thread-exit destructor that could race with
        // the driver's own clean-up at process exit.
        if GLESLibrary.isLoaded { eglReleaseThread() }
        finished = true
        condition.broadcast()
        condition.unlock()
    }
}
