import Foundation
import SegueCore
import SegueGLES
import SegueImageIO
import Synchronization

/// Why a job did not finish, with the one line to show: a usage error (a bad option or file contents the user
/// must change), a failure (an input that cannot be read, a backend or a disk that failed), or an interruption.
public struct JobError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        case usage, failure, interrupted
        /// The reader of a stream (standard output, a FIFO) closed it: the job ended cleanly, short.
        case outputClosed
    }

    public let kind: Kind
    public let message: String
    /// The message's lines: the message itself, or one line per problem of a list (a storyboard's, an effect
    /// file's). A line break inside a line (a file name holding one) is part of that line, never a line of its
    /// own: a program that shows each line on its own must escape it there.
    public let lines: [String]

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
        lines = [message]
    }

    /// An error of several problems, one a line.
    public init(_ kind: Kind, lines: [String]) {
        self.kind = kind
        self.lines = lines
        message = lines.joined(separator: "\n")
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
        case let e as Chunk.Problem: self.init(.usage, e.description)
        case let e as Scheduler.Problem: self.init(.usage, e.description)
        case let e as ChunkedVideo.Problem: self.init(e.isUsage ? .usage : .failure, e.description)
        case let e as StoryboardError: self.init(.usage, lines: e.problems.map(\.description))
        case let e as ImageIOError: self.init(.failure, e.description)
        case let e as EGLError: self.init(.failure, e.description)
        case let e as GLError: self.init(.failure, e.description)
        default: return nil
        }
    }
}

/// A caller's handle on running jobs: it asks them to stop, and tells a watchdog how they are getting on.
///
/// `cancel()` asks the job to stop after the frame in flight (its partial output is removed and it throws
/// `JobError.interrupted`); it is one atomic store, safe from a signal handler. `hasOutput` says whether a
/// job has begun creating output (before that there is nothing to clean up), `lastProgress` when the job
/// last moved on (a frame issued or delivered, a shader compiled) and `activity` what it is doing, so that a
/// watchdog can end a frame or a compile that never returns. `removeTemporaries()` deletes what the job has
/// under temporary names, for a process that must end without waiting for the job.
public final class JobControl: @unchecked Sendable {
    private let flag = Atomic<Int>(0)
    private let output = Atomic<Bool>(false)
    private let progressNanos = Atomic<UInt64>(0)
    private let timed = Atomic<Bool>(false)
    private let lock = NSLock()
    // Guarded by `lock`:
    private var activityText = "starting"
    private var temporaryFiles: Set<String> = []
    private var temporaryDirectories: Set<String> = []
    private var extraGroups: Set<Int32> = []
    /// The process groups of the job's children (`ChildProcess`), in slots a signal handler reads without a
    /// lock (0: free); past the slots, in `extraGroups`.
    private let groups: InlineArray<32, Atomic<Int32>> = InlineArray { _ in Atomic(0) }

    public init() { touch() }

    public func cancel() { flag.store(1, ordering: .relaxed) }

    public var isCancelled: Bool { flag.load(ordering: .relaxed) != 0 }

    /// Throws `JobError.interrupted` once cancelled.
    public func check() throws {
        if isCancelled { throw JobError.interrupted }
    }

    /// True once a job has begun creating output files.
    public var hasOutput: Bool { output.load(ordering: .relaxed) }

    /// Monotonic nanoseconds (`DispatchTime`) when the job last moved on.
    public var lastProgress: UInt64 { progressNanos.load(ordering: .relaxed) }

    /// True while the job draws frames or compiles a shader: the work a time limit applies to (reading and
    /// resampling large screens legitimately takes longer, and is bounded by `maxPixels` instead).
    public var isTimed: Bool { timed.load(ordering: .relaxed) }

    /// What the job is doing now ("drawing frame 12 (shader:ripple)"), for a watchdog's message.
    public var activity: String { lock.withLock { activityText } }

    /// Deletes every temporary file the job has open or in flight (a stream's, each frame's) and stops any
    /// ffmpeg it started, with its whole process group. Files under their final names are
    /// complete and stay.
    public func removeTemporaries() {
        endChildren()
        let (files, directories, extra) = lock.withLock { (temporaryFiles, temporaryDirectories, extraGroups) }
        for group in extra { kill(-group, SIGKILL) }
        for path in files { unlink(path) }
        let suffix = ".tmp-\(getpid())"
        for directory in directories {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasSuffix(suffix) {
                unlink((directory as NSString).appendingPathComponent(name))
            }
        }
    }

    /// Ends the process group of every child the job has running (`kill(-pgid, SIGKILL)`): lock-free and
    /// async-signal-safe, for a signal handler that exits at once.
    public func endChildren() {
        for i in groups.indices {
            let group = groups[i].load(ordering: .acquiring)
            if group > 0 { kill(-group, SIGKILL) }
        }
    }

    // MARK: For the job

    /// The job moved on; `activity` says to what, and `timed` whether a time limit applies to it.
    func touch(_ activity: String? = nil, timed: Bool = true) {
        progressNanos.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        self.timed.store(timed, ordering: .relaxed)
        if let activity { lock.withLock { activityText = activity } }
    }

    /// The job is done with timed work.
    func idle() { timed.store(false, ordering: .relaxed) }

    func creatingOutput() { output.store(true, ordering: .relaxed) }

    func register(temporaryFile path: String) { _ = lock.withLock { temporaryFiles.insert(path) } }
    func register(directory path: String) { _ = lock.withLock { temporaryDirectories.insert(path) } }
    /// A child's process group, ended with the job's temporaries; forgotten before its leader is reaped (so
    /// its id cannot be another's when it is ended).
    func register(processGroup group: Int32) {
        for i in groups.indices where groups[i].compareExchange(expected: 0, desired: group, ordering: .acquiringAndReleasing).exchanged {
            return
        }
        _ = lock.withLock { extraGroups.insert(group) }
    }
    func forget(processGroup group: Int32) {
        for i in groups.indices where groups[i].compareExchange(expected: group, desired: 0, ordering: .acquiringAndReleasing).exchanged {
            return
        }
        _ = lock.withLock { extraGroups.remove(group) }
    }
    func forget(temporaryFile path: String) { _ = lock.withLock { temporaryFiles.remove(path) } }
}
