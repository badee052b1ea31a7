import Foundation
import SegueCore

/// Starts the job's own threads (a clip's frame reader, a child's standard-error reader, the pipeline's encoders)
/// with `pthread_create`, whose failure is an error naming the thread: Foundation's `Thread.start` drops it, and
/// a reader that never starts leaves the job waiting for ever (under `ulimit -v`, or at a process's thread limit).
enum JobThread {
    /// Starts `body` on a new detached thread named `name`, with a
    /// stack of `stackSize` bytes (the system's default, 8 MiB under the usual `ulimit -s`, when nil); throws
    /// `SegueError.failed` saying which thread could not start, and why. A thread that runs a job under
    /// `control` counts as one of its running jobs until `body` has returned (`JobControl.ended()`).
    static func start(_ name: String, stackSize: Int? = nil, control: JobControl? = nil,
                      _ body: @escaping @Sendable () -> Void) throws {
        control?.jobBegan()
        let run: @Sendable () -> Void = {
            body()
            control?.jobEnded()
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, max(stackSize, Int(PTHREAD_STACK_MIN))) }
        let box = Unmanaged.passRetained(Body(name: name, run: run))
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            Thread.current.name = body.name  // (pthread_setname_np is not imported)
            body.run()
            return nil
        }, box.toOpaque())
        guard status == 0 else {
            box.release()
            control?.jobEnded()
            throw SegueError.failed("cannot start a thread (\(name)): \(String(cString: strerror(status)))")
        }
    }

    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}
