/// One problem in a JSON document (an effect file or a storyboard), at its JSON path:
/// `$.timeline[1].options.center: expected [x, y]`, and where that path is in the document's text (`line` and
/// `column`, each from 1; nil where the problem has no place in a text: a storyboard given as values).
public struct JSONProblem: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String
    /// The line of the text where the path's key (an object's member) or value (a list's item) starts, from 1.
    public var line: Int?
    /// The column there, in Unicode scalars from 1.
    public var column: Int?
    /// The text is no JSON at `line` and `column`: that place is what is wrong, so `description` says it (the
    /// message does not: a page that shows the place beside it would say it twice).
    public var isSyntaxError: Bool

    public init(_ path: String, _ message: String, line: Int? = nil, column: Int? = nil, isSyntaxError: Bool = false) {
        self.path = path
        self.message = message
        self.line = line
        self.column = column
        self.isSyntaxError = isSyntaxError
    }

    /// `path: message`, and a syntax error's place: `$: not valid JSON: Invalid value at line 3, column 13`.
    public var description: String {
        if isSyntaxError, let line, let column { return "\(path): \(message) at line \(line), column \(column)" }
        return "\(path): \(message)"
    }
}

/// The name this type had before effect files shared it with storyboards.
@available(*, deprecated, renamed: "JSONProblem")
public typealias StoryboardProblem = JSONProblem
