import Foundation
import SegueCore

// Swift concurrency over the blocking job: the job runs on a thread of its own (never on the cooperative pool,
// whose threads a job of minutes would hold), and task cancellation is `JobControl.cancel()`.

extension RenderJob {
    /// Renders the job as `run(renderer:control:observer:)` does, on a thread of its own, suspending the caller
    /// until it ends. Cancelling the calling task stops it after the frame in flight: its partial output is
    /// removed and a `SegueError` of kind `.interrupted` is thrown.
    ///
    /// `renderer`, when given, is the job's until this returns: renderers are not `Sendable`, and the job uses
    /// it on its thread (see `Renderer`). `control`, when given, is cancelled with the task, and tells a
    /// watchdog how the job is getting on.
    @discardableResult
    public func run(renderer: (any Renderer)? = nil, control: JobControl? = nil,
                    observer: Observer = Observer()) async throws(SegueError) -> Summary {
        let control = control ?? JobControl()
        let lent = Lent(renderer)
        do {
            return try await runOnThread(lent, control: control, observer: observer)
        } catch {
            throw SegueError.from(error)
        }
    }

    private func runOnThread(_ lent: Lent, control: JobControl, observer: Observer) async throws -> Summary {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Summary, Error>) in
                do {
                    try JobThread.start("segue-job", control: control) {
                        continuation.resume(with: Result {
                            try self.run(renderer: lent.renderer, control: control, observer: observer, memory: nil)
                        })
                    }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            control.cancel()
        }
    }
}
