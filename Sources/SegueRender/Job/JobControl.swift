import Foundation
import SegueCore
import SegueImageIO
import Synchronization

extension SegueError {
    /// Any error the library and the modules under it throw (a codec's `ImageIOError`, a backend's own errors, a
    /// storyboard's problems, a chunk's: each module's error types are `SegueErrorConvertible`) as a
    /// `SegueError`; nil for an error of another kind (a caller's own). Each public entry point of the library
    /// throws only what this gives.
    public init?(classifying error: any Error) {
        switch error {
        case let e as SegueError: self = e
        case let e as any SegueErrorConvertible: self = e.segueError
        default: return nil
        }
    }

    /// `error` as a `SegueError`: classified, or a failure carrying its description.
    package static func from(_ error: any Error) -> SegueError {
        SegueError(classifying: error) ?? .failed("\(error)")
    }

    /// `body`, with whatever it throws turned into a `SegueError`: the public entry points' boundary.
    static func converting<T>(_ body: () throws -> T) throws(SegueError) -> T {
        do { return try body() } catch { throw from(error) }
    }
}

/// A caller's handle on running jobs: it asks them to stop, and tells a watchdog how they are getting on.
///
/// `cancel()` asks the job to stop after the frame in flight (its partial output is removed and it throws
/// `SegueError.interrupted`); it is one atomic store, safe from a signal handler. `hasOutput` says whether a
/// job has begun creating output (before that there is nothing to clean up), `lastProgress` when the job
/// last moved on (a frame issued or delivered, a shader compiled) and `activity` what it is doing, so that a
/// watchdog can end a frame or a compile that never returns. `removeTemporaries()` deletes what the job has
/// under temporary names, for a process that must end without waiting for the job. `ended()` waits until
/// every job run under the control has ended: a server cancels a job, then awaits its end before it answers.
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

    // Guarded by `lock`: jobs running under the control (each `run`, and each thread that runs one), and
    // the callers of `ended()` waiting for none to be.
    private var runningJobs = 0
    private var endWaiters: [CheckedContinuation<Void, Never>] = []

    /// Children being spawned and not yet registered (`beginSpawn` ... `endSpawn`).
    private let spawning = Atomic<Int>(0)

    /// A control for a job that has not started (its last progress is now).
    public init() { touch() }

    /// Asks the jobs it controls to stop after the frame in flight (one atomic store: safe from a signal handler).
    public func cancel() { flag.store(1, ordering: .sequentiallyConsistent) }

    /// Returns once every job run under this control has ended (at once when none is running): its `run`
    /// returned or threw, the thread the library started for it (`RenderJob.run` async, `frameStream`) has
    /// returned, its children (ffmpeg) are reaped and its temporary files removed. With `cancel()` first, the
    /// wait is for the frame in flight. A job started under the control after this returns is not waited for
    /// (cancelled, it ends before it draws).
    public func ended() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = lock.withLock {
                if runningJobs == 0 { return true }
                endWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Cancels the jobs, then returns once every one has ended (`cancel()`, then `ended()`).
    public func cancelAndWait() async {
        cancel()
        await ended()
    }

    /// Jobs (and the library's threads running them) under this control now.
    package var running: Int { lock.withLock { runningJobs } }

    /// A job, or a thread that runs one, began under this control.
    package func jobBegan() { lock.withLock { runningJobs += 1 } }

    /// A job, or its thread, ended: the last one wakes the callers of `ended()`.
    package func jobEnded() {
        let woken: [CheckedContinuation<Void, Never>] = lock.withLock {
            runningJobs -= 1
            guard runningJobs == 0 else { return [] }
            defer { endWaiters = [] }
            return endWaiters
        }
        woken.forEach { $0.resume() }
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { flag.load(ordering: .sequentiallyConsistent) != 0 }

    /// True while a child is being spawned and its process group is not yet registered: a signal handler that
    /// ended the process then would leave that child behind, so it only cancels, and the spawner ends the child
    /// (`endSpawn` and a check of `isCancelled`). With `cancel` and `beginSpawn` both sequentially consistent,
    /// either the handler sees the spawn or the spawner sees the cancellation.
    package var isSpawning: Bool { spawning.load(ordering: .sequentiallyConsistent) != 0 }

    /// Before a child is spawned; throws `interrupted` (spawning nothing) once cancelled.
    func beginSpawn() throws(SegueError) {
        _ = spawning.wrappingAdd(1, ordering: .sequentiallyConsistent)
        if isCancelled {
            endSpawn()
            throw SegueError.interrupted
        }
    }

    /// After the child's process group is registered, or its spawn failed.
    func endSpawn() { _ = spawning.wrappingSubtract(1, ordering: .sequentiallyConsistent) }

    /// Throws `SegueError.interrupted` once cancelled.
    public func check() throws(SegueError) {
        if isCancelled { throw SegueError.interrupted }
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
        for directory in directories {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasPrefix(".") {
                guard let r = name.range(of: ".tmp-", options: .backwards),
                      FileWriter.temporaryOwner(name[r.upperBound...])?.isThisProcess == true else { continue }
                unlink(PathName.join(directory, name))
            }
        }
    }

    /// Ends the process group of every child the job has running (`kill(-pgid, SIGKILL)`): lock-free and
    /// async-signal-safe, for a signal handler that exits at once.
    package func endChildren() {
        for i in groups.indices {
            let group = groups[i].load(ordering: .acquiring)
            if group > 0 { kill(-group, SIGKILL) }
        }
    }

    // MARK: For the job

    /// The job moved on; `activity` says to what, and `timed` whether a time limit applies to it.
    package func touch(_ activity: String? = nil, timed: Bool = true) {
        progressNanos.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        self.timed.store(timed, ordering: .relaxed)
        if let activity { lock.withLock { activityText = activity } }
    }

    /// The job is done with timed work.
    package func idle() { timed.store(false, ordering: .relaxed) }

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
