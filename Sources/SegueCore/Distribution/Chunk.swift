/// One part of a video split over machines: chunk `index` of `count` renders the contiguous frames
/// `[index * F / count, (index + 1) * F / count)` of a job of `F` frames, and encodes them as a video of their
/// own, which a join puts end to end with the others without re-encoding.
public struct Chunk: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// The most chunks a job may be split into.
    public static let maxCount = Limits.maxChunks

    public init(index: Int, count: Int) throws(Problem) {
        guard (1...Self.maxCount).contains(count) else { throw .countOutOfRange(count) }
        guard (0..<count).contains(index) else { throw .indexOutOfRange(index: index, count: count) }
        self.index = index
        self.count = count
    }

    /// Parses `I/N`.
    public init(parsing text: String) throws(Problem) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else { throw .malformed(String(text.prefix(40))) }
        try self.init(index: i, count: n)
    }

    /// The chunk a scheduler's task is.
    public init(_ task: Scheduler.Task) throws(Problem) {
        try self.init(index: task.index, count: task.count)
    }

    /// The frames of this chunk in a job of `frameCount` frames; throws when the job has fewer frames than
    /// chunks (a chunk would be empty).
    public func frames(of frameCount: Int) throws(Problem) -> Range<Int> {
        guard frameCount >= count else { throw .moreChunksThanFrames(chunks: count, frames: frameCount) }
        return Self.frames(index, of: count, in: frameCount)
    }

    /// Chunk `index` of `count` of `frameCount` frames (no check).
    public static func frames(_ index: Int, of count: Int, in frameCount: Int) -> Range<Int> {
        (index * frameCount / count)..<((index + 1) * frameCount / count)
    }

    public var description: String { "\(index)/\(count)" }

    /// Why a chunk cannot be made.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case malformed(String)
        case countOutOfRange(Int)
        case indexOutOfRange(index: Int, count: Int)
        case moreChunksThanFrames(chunks: Int, frames: Int)

        public var description: String {
            switch self {
            case let .malformed(text): "'\(text)' is not a chunk I/N (for example 0/4)"
            case let .countOutOfRange(n): "the number of chunks must be 1...\(Chunk.maxCount), not \(n)"
            case let .indexOutOfRange(i, n): "chunk \(i) of \(n) does not exist: the index must be in 0...\(n - 1)"
            case let .moreChunksThanFrames(n, f): "\(n) chunks of a job of \(f) frames: every chunk needs at least one frame"
            }
        }
    }
}

extension Chunk.Problem: SegueErrorConvertible {
    /// The job's `chunk` option, malformed or out of range.
    public var segueError: SegueError {
        let value: String
        switch self {
        case let .malformed(text): value = text
        case let .countOutOfRange(n): value = "\(n)"
        case let .indexOutOfRange(i, n): value = "\(i)/\(n)"
        case let .moreChunksThanFrames(n, _): value = "\(n)"
        }
        return SegueError(.invalidOption(effect: nil, option: "chunk", value: value), description)
    }
}
