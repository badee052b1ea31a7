/// Errors of the core: each carries the one line the command line prints.
public enum SegueError: Error, Equatable, CustomStringConvertible {
    /// A value the user gave that is out of range or malformed (a usage error).
    case invalidValue(String)
    /// Work that could not be done (a failure).
    case failed(String)

    public var description: String {
        switch self {
        case let .invalidValue(m), let .failed(m): return m
        }
    }

    public var isUsageError: Bool {
        if case .invalidValue = self { return true }
        return false
    }
}
