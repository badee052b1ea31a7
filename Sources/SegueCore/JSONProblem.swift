/// One problem in a JSON document (an effect file or a storyboard), at its JSON path:
/// `$.timeline[1].options.center: expected [x, y]`.
public struct JSONProblem: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(_ path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// The name this type had before effect files shared it with storyboards.
@available(*, deprecated, renamed: "JSONProblem")
public typealias StoryboardProblem = JSONProblem
