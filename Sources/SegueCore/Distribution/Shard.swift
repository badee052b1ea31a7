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
        guard count >= 1 else { throw SegueError.invalidOption("shard", value: "\(index)/\(count)", "the shard count must be >= 1, not \(count)") }
        guard (0..<count).contains(index) else {
            throw SegueError.invalidOption("shard", value: "\(index)/\(count)", "the shard index must be in 0...\(count - 1), not \(index)")
        }
        self.init(uncheckedIndex: index, count: count)
    }

    /// Parses `I/N`.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
            throw SegueError.invalidOption("shard", value: text, "'\(text)' is not a shard I/N (for example 0/4)")
        }
        try self.init(index: i, count: n)
    }

    /// The shard of the scheduler's task this process is (`Scheduler.task(in:)`: a Slurm job array, a
    /// Kubernetes Indexed Job, an AWS Batch array job, a Cloud Run job); `nil` when no scheduler's index is set.
    public static func fromEnvironment(_ env: [String: String]) throws(Scheduler.Problem) -> Shard? {
        guard let task = try Scheduler.task(in: env) else { return nil }
        return Shard(uncheckedIndex: task.index, count: task.count)
    }

    public func contains(_ k: Int) -> Bool { k % count == index }

    public var description: String { "\(index)/\(count)" }
}
