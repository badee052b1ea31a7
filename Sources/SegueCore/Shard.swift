/// One part of a job split over machines: shard `index` of `count` renders every frame `k` with
/// `k mod count == index`.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public static let whole = Shard(uncheckedIndex: 0, count: 1)

    private init(uncheckedIndex: Int, count: Int) {
        self.index = uncheckedIndex
        self.count = count
    }

    public init(index: Int, count: Int) throws {
        guard count >= 1 else { throw SegueError.invalidValue("the shard count must be >= 1, not \(count)") }
        guard (0..<count).contains(index) else {
            throw SegueError.invalidValue("the shard index must be in 0...\(count - 1), not \(index)")
        }
        self.init(uncheckedIndex: index, count: count)
    }

    /// Parses `I/N`.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
            throw SegueError.invalidValue("'\(text)' is not a shard I/N (for example 0/4)")
        }
        try self.init(index: i, count: n)
    }

    /// The shard of a Slurm job array (`SLURM_ARRAY_TASK_ID` of `SLURM_ARRAY_TASK_COUNT`, counted from
    /// `SLURM_ARRAY_TASK_MIN`) or of a Kubernetes Indexed Job (`JOB_COMPLETION_INDEX` of `SEGUE_SHARDS`);
    /// `nil` when neither is set.
    public static func fromEnvironment(_ env: [String: String]) throws -> Shard? {
        func int(_ name: String) throws -> Int? {
            guard let v = env[name], !v.isEmpty else { return nil }
            guard let n = Int(v) else { throw SegueError.invalidValue("\(name)='\(v)' is not an integer") }
            return n
        }
        if let id = try int("SLURM_ARRAY_TASK_ID") {
            guard let count = try int("SLURM_ARRAY_TASK_COUNT") else {
                throw SegueError.invalidValue("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")
            }
            let first = try int("SLURM_ARRAY_TASK_MIN") ?? 0
            return try Shard(index: id - first, count: count)
        }
        if let index = try int("JOB_COMPLETION_INDEX") {
            guard let count = try int("SEGUE_SHARDS") else {
                throw SegueError.invalidValue("JOB_COMPLETION_INDEX is set but SEGUE_SHARDS (the Job's completions) is not")
            }
            return try Shard(index: index, count: count)
        }
        return nil
    }

    public func contains(_ k: Int) -> Bool { k % count == index }

    public var description: String { "\(index)/\(count)" }
}
