/// A transition written to the gl-transitions interface: a GLSL file that defines `vec4 transition(vec2 uv)`
/// and may call `getFromColor(vec2)`, `getToColor(vec2)` and read `progress` and `ratio`, all provided by the
/// renderer. Its parameters are the uniforms it declares (other than the reserved ones the renderer sets),
/// each with an optional default in a comment, GL's zero otherwise:
/// `uniform float amplitude; // = 0.03` or `uniform vec2 center /* = vec2(0.5) */;`.
///
/// This is the text side only (pure Swift): it finds the parameters, checks values given for them, and gives
/// the text the renderer compiles. Drawing it needs the GLES backend (`GLESRenderer.prepare`).
public struct ShaderTransition: Sendable, Equatable {
    /// Uniforms the renderer sets itself; a file may declare them, and those lines are dropped.
    public static let reservedNames: Set<String> = ["progress", "ratio", "from", "to"]

    /// The name errors use: the file's path as the user gave it, or a shipped transition's file name.
    public let name: String
    /// The file's text, as read.
    public let source: String
    /// Every parameter, in the order the file declares them.
    public let parameters: [ShaderParameter]
    /// The file's first comment line (its description), or empty.
    public let summary: String
    /// True for a GLSL ES 1.00-style file (`#version 100`, `texture2D`, `gl_FragColor`); both styles run.
    public let isGLSL100: Bool
    /// `source` with its `#version` and `precision` lines and its declarations of reserved uniforms blanked,
    /// so it can follow the renderer's preamble; it has as many lines as `source`, so line numbers agree.
    public let body: String

    /// Parses `source`; `name` is how errors name the file. Throws `SegueError.failed` naming the file and
    /// line for a uniform declaration it cannot read, a parameter of a type Segue cannot set, a default that
    /// is not of its type, a parameter declared twice, or a file with no `transition` function.
    public init(name: String, source: String) throws {
        self.name = name
        self.source = source
        var parameters: [ShaderParameter] = []
        var bodyLines: [Substring] = []
        var summary: String?
        var comments: [Substring] = []  // the `//` lines just above the current line
        var inBlockComment = false
        var isGLSL100 = source.contains("texture2D") || source.contains("gl_FragColor")
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            var line = raw
            if line.last == "\r" { line = line.dropLast() }
            let code = ShaderTransition.code(of: line, inBlockComment: &inBlockComment).trimmingWhitespace
            let trimmed = line.trimmingWhitespace
            if summary == nil {
                if trimmed.hasPrefix("//") {
                    summary = String(trimmed.dropFirst(2).trimmingWhitespace)
                } else if !trimmed.isEmpty {
                    summary = ""
                }
            }
            defer {
                if code.isEmpty, trimmed.hasPrefix("//") { comments.append(trimmed.dropFirst(2).trimmingWhitespace) } else { comments = [] }
            }
            if code.hasPrefix("#version") {
                if code.contains("100") { isGLSL100 = true }
                bodyLines.append("")
                continue
            }
            if code.hasPrefix("precision ") || code == "precision" {
                bodyLines.append("")
                continue
            }
            guard code.hasPrefix("uniform ") || code.hasPrefix("uniform\t") else {
                bodyLines.append(line)
                continue
            }
            let declaration = try ShaderTransition.declaration(line, file: name, line: number)
            if ShaderTransition.reservedNames.contains(declaration.name) {
                bodyLines.append("")
                continue
            }
            bodyLines.append(line)
            guard let type = ShaderType(rawValue: declaration.type) else {
                let types = ShaderType.allCases.map(\.rawValue).joined(separator: ", ")
                throw SegueError.failed("\(name):\(number): uniform \(declaration.type) \(declaration.name): a parameter must be one of \(types)")
            }
            var value = ShaderValue.zero(type)
            if let text = declaration.defaultText {
                guard let parsed = ShaderTransition.defaultValue(text, type) else {
                    throw SegueError.failed("\(name):\(number): the default '\(text)' of \(declaration.name) is not a \(type.rawValue)")
                }
                value = parsed
            }
            if parameters.contains(where: { $0.name == declaration.name }) {
                throw SegueError.failed("\(name):\(number): \(declaration.name) is declared twice")
            }
            parameters.append(ShaderParameter(name: declaration.name, type: type, defaultValue: value,
                                              hasDeclaredDefault: declaration.defaultText != nil,
                                              help: comments.joined(separator: " "), line: number))
        }
        guard ShaderTransition.definesTransition(source) else {
            throw SegueError.failed("\(name): defines no 'vec4 transition(vec2 uv)'")
        }
        self.parameters = parameters
        self.summary = summary ?? ""
        self.isGLSL100 = isGLSL100
        self.body = bodyLines.joined(separator: "\n")
    }

    public func parameter(named name: String) -> ShaderParameter? {
        parameters.first { $0.name == name }
    }

    /// Every parameter's default.
    public var defaults: [String: ShaderValue] {
        Dictionary(uniqueKeysWithValues: parameters.map { ($0.name, $0.defaultValue) })
    }

    // MARK: Reading the text

    /// The part of `line` outside comments; `inBlockComment` carries a `/* ... */` across lines.
    static func code(of line: Substring, inBlockComment: inout Bool) -> Substring {
        var out = Substring()
        var rest = line
        while !rest.isEmpty {
            if inBlockComment {
                guard let end = rest.range(of: "*/") else { return out }
                rest = rest[end.upperBound...]
                inBlockComment = false
                out += " "
            } else if rest.hasPrefix("//") {
                return out
            } else if rest.hasPrefix("/*") {
                inBlockComment = true
                rest = rest.dropFirst(2)
            } else {
                out.append(rest.removeFirst())
            }
        }
        return out
    }

    /// `uniform [precision] TYPE NAME [/* = default */] ; [// = default]`.
    static func declaration(_ line: Substring, file: String, line number: Int) throws
        -> (type: String, name: String, defaultText: String?) {
        var rest = line.trimmingWhitespace.dropFirst("uniform".count)
        func word() -> Substring {
            rest = rest.trimmingWhitespace
            let w = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            rest = rest.dropFirst(w.count)
            return w
        }
        var type = word()
        while ["lowp", "mediump", "highp"].contains(type) { type = word() }
        let name = word()
        guard !type.isEmpty, !name.isEmpty else {
            throw SegueError.failed("\(file):\(number): cannot read this uniform declaration: \(line.trimmingWhitespace)")
        }
        // What follows the name: an optional comment, then `;`, then an optional comment.
        var defaultText: String?
        rest = rest.trimmingWhitespace
        if rest.hasPrefix("/*"), let end = rest.range(of: "*/") {
            defaultText = comment(rest[rest.index(rest.startIndex, offsetBy: 2)..<end.lowerBound])
            rest = rest[end.upperBound...].trimmingWhitespace
        }
        guard rest.hasPrefix(";") else {
            throw SegueError.failed("\(file):\(number): declare one parameter per line, as 'uniform T name; // = default': \(line.trimmingWhitespace)")
        }
        rest = rest.dropFirst().trimmingWhitespace
        if defaultText == nil {
            if rest.hasPrefix("//") {
                defaultText = comment(rest.dropFirst(2))
            } else if rest.hasPrefix("/*"), let end = rest.range(of: "*/") {
                defaultText = comment(rest[rest.index(rest.startIndex, offsetBy: 2)..<end.lowerBound])
            }
        }
        return (String(type), String(name), defaultText)
    }

    /// `= value` inside a comment gives `value`; any other comment gives nil.
    private static func comment(_ text: Substring) -> String? {
        let t = text.trimmingWhitespace
        guard t.hasPrefix("=") else { return nil }
        let value = t.dropFirst().trimmingWhitespace
        return value.isEmpty ? nil : String(value)
    }

    /// A default as declared; a comment may go on after the value (`// = 0.5, the blur`): then the value is
    /// the constructor up to its `)`, or the first word.
    static func defaultValue(_ text: String, _ type: ShaderType) -> ShaderValue? {
        if let v = ShaderValue(parsing: text, as: type) { return v }
        if let close = text.firstIndex(of: ")"), let v = ShaderValue(parsing: String(text[...close]), as: type) { return v }
        let word = text.prefix { !$0.isWhitespace && $0 != "," && $0 != ";" }
        return ShaderValue(parsing: String(word), as: type)
    }

    /// True when the text has `transition` followed by `(` outside comments.
    static func definesTransition(_ source: String) -> Bool {
        var inBlockComment = false
        for line in source.split(separator: "\n") {
            let code = ShaderTransition.code(of: line, inBlockComment: &inBlockComment)
            var rest = code[...]
            while let r = rest.range(of: "transition") {
                let after = rest[r.upperBound...].trimmingWhitespace
                let before = rest[..<r.lowerBound].last
                if after.hasPrefix("("), before.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true { return true }
                rest = rest[r.upperBound...]
            }
        }
        return false
    }
}
