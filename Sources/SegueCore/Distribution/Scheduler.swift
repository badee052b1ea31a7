/// A batch scheduler that runs one program as many indexed tasks, and the environment variables that tell a
/// task which one it is. One table (`all`) holds every scheduler Segue reads; nothing else names them.
public struct Scheduler: Sendable, Equatable, CustomStringConvertible {
    /// What the scheduler is called, as a user knows it ("Slurm job array").
    public let name: String
    /// The variable holding the task's index.
    public let indexVariable: String
    /// The variable holding the number of tasks (a scheduler's own, or `SEGUE_SHARDS` where the scheduler
    /// sets none and the job's author must).
    public let countVariable: String
    /// A variable holding the first index, subtracted from the index (Slurm arrays need not start at 0).
    public let firstVariable: String?
    /// Variables holding the last index and the step between indices (Slurm: `--array=0-4:2` runs the task ids
    /// 0, 2 and 4). A task's index is its position among the ids, `(id - first) / step`, where the ids are
    /// evenly spaced; where they are not (`--array=1-3,7`), the position cannot be known and the task is refused.
    public var lastVariable: String? = nil
    public var stepVariable: String? = nil

    public var description: String { name }

    public static let slurm = Scheduler(name: "Slurm job array", indexVariable: "SLURM_ARRAY_TASK_ID",
                                        countVariable: "SLURM_ARRAY_TASK_COUNT", firstVariable: "SLURM_ARRAY_TASK_MIN",
                                        lastVariable: "SLURM_ARRAY_TASK_MAX", stepVariable: "SLURM_ARRAY_TASK_STEP")
    public static let kubernetes = Scheduler(name: "Kubernetes Indexed Job", indexVariable: "JOB_COMPLETION_INDEX",
                                             countVariable: "SEGUE_SHARDS", firstVariable: nil)
    public static let awsBatch = Scheduler(name: "AWS Batch array job", indexVariable: "AWS_BATCH_JOB_ARRAY_INDEX",
                                           countVariable: "SEGUE_SHARDS", firstVariable: nil)
    public static let cloudRun = Scheduler(name: "Cloud Run job", indexVariable: "CLOUD_RUN_TASK_INDEX",
                                           countVariable: "CLOUD_RUN_TASK_COUNT", firstVariable: nil)

    /// Every scheduler, in the order they are looked for: the first whose index variable is set is the one.
    public static let all: [Scheduler] = [.slurm, .kubernetes, .awsBatch, .cloudRun]

    /// This task's place among the job's tasks, as a scheduler's environment gives it.
    public struct Task: Sendable, Equatable {
        public let scheduler: Scheduler
        /// 0 ..< count.
        public let index: Int
        public let count: Int

        public init(scheduler: Scheduler, index: Int, count: Int) {
            self.scheduler = scheduler
            self.index = index
            self.count = count
        }
    }

    /// Why a task's environment cannot be used: each case names the variables at fault.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// A variable that must be a whole number is not.
        case notAnInteger(variable: String, value: String)
        /// The index is set and the count is not.
        case countMissing(Scheduler)
        /// The count is below 1.
        case countOutOfRange(variable: String, count: Int)
        /// The index (less the first index) is not in 0 ..< count.
        case indexOutOfRange(Scheduler, index: Int, count: Int)
        /// The task ids are not `count` evenly spaced ids from the first to the last (a list such as `1-3,7`),
        /// or this task's id is not one of them: its position among them cannot be known.
        case unevenIds(Scheduler, id: Int, first: Int, last: Int, step: Int, count: Int)

        public var description: String {
            switch self {
            case let .notAnInteger(variable, value):
                "\(variable)='\(value)' is not a whole number"
            case let .countMissing(s):
                "\(s.indexVariable) is set (\(s.name)) but \(s.countVariable), the number of tasks, is not"
            case let .countOutOfRange(variable, count):
                "\(variable)=\(count): the number of tasks must be at least 1"
            case let .indexOutOfRange(s, index, count):
                "\(s.indexVariable) gives task \(index)\(s.firstVariable.map { " (counted from \($0))" } ?? ""), outside 0...\(count - 1) of \(s.countVariable)=\(count)"
            case let .unevenIds(s, id, first, last, step, count):
                "\(s.indexVariable)=\(id) of a \(s.name) of \(count) tasks from \(first) to \(last) (step \(step)): its task ids are not evenly spaced, so this task's place among them cannot be known; submit the array as a range, with a step if you like (0-\(max(count - 1, 0)) or \(first)-\(first + max(count - 1, 0) * 2):2), not a list"
            }
        }
    }

    /// The task of the first scheduler in `all` whose index variable is set (non-empty) in `environment`; nil
    /// when none is. Throws a `Problem` when that scheduler's variables are malformed or disagree.
    public static func task(in environment: [String: String]) throws(Problem) -> Task? {
        func int(_ name: String) throws(Problem) -> Int? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            let trimmed = text.trimmingPrefix(while: { $0 == " " })
            guard let n = Int(trimmed), n >= -1_000_000_000, n <= 1_000_000_000 else {
                throw .notAnInteger(variable: name, value: String(text.prefix(40)))
            }
            return n
        }
        for s in all {
            guard let raw = try int(s.indexVariable) else { continue }
            guard let count = try int(s.countVariable) else { throw .countMissing(s) }
            guard count >= 1 else { throw .countOutOfRange(variable: s.countVariable, count: count) }
            let first = try s.firstVariable.flatMap(int) ?? 0
            var index = raw - first
            let stepGiven = try s.stepVariable.flatMap(int), lastGiven = try s.lastVariable.flatMap(int)
            if let step = stepGiven ?? lastGiven.map({ _ in 1 }) {
                // The ids are first, first + step, ... last, count of them; this task's index is its place there.
                let last = lastGiven ?? first + step * (count - 1)
                guard step >= 1, last >= first, (last - first) % step == 0, (last - first) / step + 1 == count,
                      (raw - first) % step == 0 else {
                    throw .unevenIds(s, id: raw, first: first, last: last, step: step, count: count)
                }
                index = (raw - first) / step
            }
            guard (0..<count).contains(index) else { throw .indexOutOfRange(s, index: index, count: count) }
            return Task(scheduler: s, index: index, count: count)
        }
        return nil
    }
}

private extension String {
    func trimmingPrefix(while predicate: (Character) -> Bool) -> Substring { drop(while: predicate) }
}

extension Scheduler.Problem: SegueErrorConvertible {
    /// The scheduler's variable that is malformed or out of range, as the option.
    public var segueError: SegueError {
        let option: String, value: String
        switch self {
        case let .notAnInteger(variable, text): (option, value) = (variable, text)
        case let .countMissing(s): (option, value) = (s.countVariable, "")
        case let .countOutOfRange(variable, count): (option, value) = (variable, "\(count)")
        case let .indexOutOfRange(s, index, _): (option, value) = (s.indexVariable, "\(index)")
        case let .unevenIds(s, id, _, _, _, _): (option, value) = (s.indexVariable, "\(id)")
        }
        return SegueError(.invalidOption(effect: nil, option: option, value: value), description)
    }
}
