import SegueCore
import SegueGLES
import SegueImageIO
import Synchronization

/// Why a job did not finish, with the one line to show: a usage error (a bad option or file contents the user
/// must change), a failure (an input that cannot be read, a backend or a disk that failed), or an interruption.
public struct JobError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        case usage, failure, interrupted
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    public static func usage(_ message: String) -> JobError { JobError(.usage, message) }
    public static func failure(_ message: String) -> JobError { JobError(.failure, message) }
    public static let interrupted = JobError(.interrupted, "interrupted")

    /// Any error the library and the modules under it throw, as a job error; nil for an error of another kind
    /// (a caller's own).
    public init?(classifying error: Error) {
        switch error {
        case let e as JobError: self = e
        case let e as SegueError: self.init(e.isUsageError ? .usage : .failure, e.description)
        case let e as StoryboardError: self.init(.usage, e.description)
        case let e as ImageIOError: self.init(.failure, e.description)
        case let e as EGLError: self.init(.failure, e.description)
        case let e as GLError: self.init(.failure, e.description)
        default: return nil
        }
    }
}

/// Asks a running job to stop after the frame in flight (its partial output is removed and it throws
/// `JobError.interrupted`). `cancel()` is safe to call from a signal handler: it is one atomic store.
public final class CancellationFlag: Sendable {
    private let flag = Atomic<Int>(0)

    public init() {}

    public func cancel() { flag.store(1, ordering: .relaxed) }

    public var isCancelled: Bool { flag.load(ordering: .relaxed) != 0 }

    /// Throws `JobError.interrupted` once cancelled.
    public func check() throws {
        if isCancelled { throw JobError.interrupted }
    }
}
