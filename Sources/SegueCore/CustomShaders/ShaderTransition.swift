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
    /// True for a GLSL ES 1.00 (WebGL 1) file, compiled as 1.00; false for one compiled as 3.00. See
    /// `ShaderTransition.isGLSL100(_:)` for how the dialect is told.
    public let isGLSL100: Bool
    /// `source` with its line endings made `\n`, its `#version` and `precision` statements and its declarations
    /// of reserved uniforms blanked, and the initialisers of its global variables taken out (see
    /// `globalInitializers`), so it can follow the renderer's preamble; it has as many lines as `source`, so
    /// line numbers agree.
    public let body: String
    /// The initialisers taken out of `body`'s global declarations (`float r = ratio * 2.0;` keeps `float r;`),
    /// as assignments to run, in order, before `transition` is called: WebGL allows a global to start from a
    /// uniform, GLSL ES does not.
    public let globalInitializers: [GlobalInitializer]

    /// One global's initialiser as an assignment (`r = ratio * 2.0;`) and the file's line it was on.
    public struct GlobalInitializer: Sendable, Equatable {
        public let line: Int
        public let assignment: String

        /// The variable assigned.
        public var variable: String { String(assignment.prefix { $0 != " " && $0 != "=" }) }

        public init(line: Int, assignment: String) {
            self.line = line
            self.assignment = assignment
        }
    }

    /// Parses `source`; `name` is how errors name the file. Throws `SegueError` `.invalidShader(path:)` naming the file and
    /// line for a uniform declaration it cannot read, a parameter of a type Segue cannot set, a default that
    /// is not of its type, a parameter declared twice, or a file with no `transition` function.
    public init(name: String, source: String) throws {
        self.name = name
        self.source = source
        let text = ShaderTransition.normalizingLineEndings(source)
        var parameters: [ShaderParameter] = []
        var bodyLines: [String] = []
        var summary: String?
        var comments: [Substring] = []  // the `//` lines just above the current line
        var inBlockComment = false
        var version: Substring?
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let number = index + 1
            var (chars, isComment) = ShaderTransition.mask(line, inBlockComment: &inBlockComment)
            let masked = chars.indices.map { isComment[$0] ? " " : chars[$0] }  // the line with its comments blanked
            let code = String(masked)[...].trimmingWhitespace
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
            if code.hasPrefix("#") {
                if code.dropFirst().trimmingWhitespace.hasPrefix("version") {
                    version = code.dropFirst().trimmingWhitespace.dropFirst("version".count).trimmingWhitespace
                    bodyLines.append("")
                } else {
                    bodyLines.append(String(line))
                }
                continue
            }
            // The line's statements, each up to its `;`; a comment up to the next statement's code is its own.
            let statements = ShaderTransition.statements(chars, isComment: isComment)
            var edits: [(range: Range<Int>, text: String)] = []
            for statement in statements {
                let words = String(masked[statement.code]).split(whereSeparator: \.isWhitespace)
                if words.first == "precision" {
                    edits.append((statement.whole, ""))
                    continue
                }
                guard words.first == "uniform" else { continue }
                guard statement.hasSemicolon else {
                    throw SegueError(.invalidShader(path: name), "\(name):\(number): end a uniform declaration on its line, as 'uniform T name; // = default': \(trimmed)")
                }
                let declaration = try ShaderTransition.declaration(String(masked[statement.code]), file: name, line: number)
                let kept = declaration.names.filter { !ShaderTransition.reservedNames.contains($0) }
                if kept.count < declaration.names.count {
                    let text = kept.isEmpty ? "" : "uniform \(declaration.type) \(kept.joined(separator: ", "));"
                    edits.append((statement.whole, text))
                }
                let defaultText = statement.comments.lazy.compactMap {
                    ShaderTransition.comment(String(chars[$0]))
                }.first
                for parameterName in kept {
                    guard let type = ShaderType(rawValue: declaration.type) else {
                        let types = ShaderType.allCases.map(\.rawValue).joined(separator: ", ")
                        throw SegueError(.invalidShader(path: name), "\(name):\(number): uniform \(declaration.type) \(parameterName): a parameter must be one of \(types)")
                    }
                    // A comment's default is the last declared name's: `uniform float a, b; // = 0.5` is b's.
                    let text = parameterName == declaration.names.last ? defaultText : nil
                    var value = ShaderValue.zero(type)
                    if let text {
                        guard type != .sampler2D else {
                            throw SegueError(.invalidShader(path: name), "\(name):\(number): \(parameterName) is a sampler2D: its image is given as a parameter value, not a default")
                        }
                        guard let parsed = ShaderTransition.defaultValue(text, type) else {
                            throw SegueError(.invalidShader(path: name), "\(name):\(number): the default '\(text)' of \(parameterName) is not a \(type.rawValue)")
                        }
                        value = parsed
                    }
                    if parameters.contains(where: { $0.name == parameterName }) {
                        throw SegueError(.invalidShader(path: name), "\(name):\(number): \(parameterName) is declared twice")
                    }
                    parameters.append(ShaderParameter(name: parameterName, type: type, defaultValue: value,
                                                      hasDeclaredDefault: text != nil,
                                                      help: comments.joined(separator: " "), line: number))
                }
            }
            for edit in edits.reversed() {
                chars.replaceSubrange(edit.range, with: Array(edit.text))
                isComment.replaceSubrange(edit.range, with: Array(repeating: false, count: edit.text.count))
            }
            bodyLines.append(String(chars))
        }
        guard ShaderTransition.definesTransition(text) else {
            throw SegueError(.invalidShader(path: name), "\(name): defines no 'vec4 transition(vec2 uv)'")
        }
        let (body, initializers) = ShaderTransition.takingGlobalInitializers(bodyLines.joined(separator: "\n"))
        self.parameters = parameters
        self.summary = summary ?? ""
        self.isGLSL100 = ShaderTransition.isGLSL100(text, version: version.map(String.init))
        self.body = body
        self.globalInitializers = initializers
    }

    public func parameter(named name: String) -> ShaderParameter? {
        parameters.first { $0.name == name }
    }

    /// Every parameter's default.
    public var defaults: [String: ShaderValue] {
        Dictionary(uniqueKeysWithValues: parameters.map { ($0.name, $0.defaultValue) })
    }

    // MARK: Reading the text

    /// `text` with each CRLF and each lone CR made LF, so that a line is what every editor shows as one.
    static func normalizingLineEndings(_ text: String) -> String {
        guard text.unicodeScalars.contains("\r") else { return text }
        var scalars = String.UnicodeScalarView()
        var afterCR = false
        for s in text.unicodeScalars {
            if s == "\r" {
                scalars.append("\n")
                afterCR = true
                continue
            }
            if !(s == "\n" && afterCR) { scalars.append(s) }
            afterCR = false
        }
        return String(scalars)
    }

    /// The characters of `line`, and which of them are in a comment; `inBlockComment` carries a `/* ... */`
    /// across lines.
    static func mask(_ line: Substring, inBlockComment: inout Bool) -> (chars: [Character], isComment: [Bool]) {
        let chars = Array(line)
        var isComment = Array(repeating: false, count: chars.count)
        var i = 0
        while i < chars.count {
            if inBlockComment {
                isComment[i] = true
                if chars[i] == "*", i + 1 < chars.count, chars[i + 1] == "/" {
                    isComment[i + 1] = true
                    inBlockComment = false
                    i += 1
                }
            } else if chars[i] == "/", i + 1 < chars.count, chars[i + 1] == "/" {
                for k in i..<chars.count { isComment[k] = true }
                break
            } else if chars[i] == "/", i + 1 < chars.count, chars[i + 1] == "*" {
                isComment[i] = true
                isComment[i + 1] = true
                inBlockComment = true
                i += 1
            }
            i += 1
        }
        return (chars, isComment)
    }

    /// The part of `line` outside comments; `inBlockComment` carries a `/* ... */` across lines.
    static func code(of line: Substring, inBlockComment: inout Bool) -> Substring {
        let (chars, isComment) = mask(line, inBlockComment: &inBlockComment)
        return Substring(String(chars.indices.map { isComment[$0] ? " " : chars[$0] }))
    }

    /// One statement of a line: `code` from its first character to before its `;` (or the line's end),
    /// `whole` the same with the `;`, and the comments from its start up to the next statement's code.
    struct LineStatement {
        var code: Range<Int>
        var whole: Range<Int>
        var hasSemicolon: Bool
        var comments: [Range<Int>]
    }

    static func statements(_ chars: [Character], isComment: [Bool]) -> [LineStatement] {
        let isCode = { (i: Int) in !isComment[i] && !chars[i].isWhitespace }
        var comments: [Range<Int>] = []  // each comment's characters
        var i = 0
        while i < chars.count {
            guard isComment[i] else { i += 1; continue }
            let start = i
            // A comment ends where `*/` ends or the line does; two comments may touch.
            while i < chars.count, isComment[i] {
                if chars[i] == "*", i + 1 < chars.count, chars[i + 1] == "/", i > start + 1 { i += 2; break }
                i += 1
            }
            comments.append(start..<i)
        }
        var result: [LineStatement] = []
        i = 0
        while i < chars.count {
            while i < chars.count, !isCode(i) { i += 1 }
            guard i < chars.count else { break }
            let start = i
            while i < chars.count, !(isCode(i) && chars[i] == ";") { i += 1 }
            let hasSemicolon = i < chars.count
            let end = i
            if hasSemicolon { i += 1 }
            result.append(LineStatement(code: start..<end, whole: start..<i, hasSemicolon: hasSemicolon, comments: []))
        }
        for k in result.indices {
            let from = result[k].code.lowerBound
            let to = k + 1 < result.count ? result[k + 1].code.lowerBound : chars.count
            result[k].comments = comments.filter { $0.lowerBound >= from && $0.lowerBound < to }
        }
        return result
    }

    /// `uniform [precision] TYPE NAME [, NAME ...]`, comments blanked (a statement of a line, without its `;`).
    static func declaration(_ statement: String, file: String, line number: Int) throws -> (type: String, names: [String]) {
        var rest = Substring(statement).trimmingWhitespace.dropFirst("uniform".count)
        func word() -> Substring {
            rest = rest.trimmingWhitespace
            let w = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            rest = rest.dropFirst(w.count)
            return w
        }
        var type = word()
        while ["lowp", "mediump", "highp"].contains(type) { type = word() }
        var names: [String] = []
        repeat {
            let name = word()
            rest = rest.trimmingWhitespace
            guard !type.isEmpty, !name.isEmpty, rest.isEmpty || rest.first == "," else {
                throw SegueError(.invalidShader(path: file), "\(file):\(number): cannot read this uniform declaration: \(Substring(statement).trimmingWhitespace);")
            }
            names.append(String(name))
            if !rest.isEmpty { rest = rest.dropFirst() }
        } while !rest.isEmpty
        return (String(type), names)
    }

    /// `// = value` or `/* = value */` gives `value`; any other comment gives nil.
    static func comment(_ text: String) -> String? {
        var t = Substring(text)
        if t.hasPrefix("//") { t = t.dropFirst(2) } else if t.hasPrefix("/*") {
            t = t.dropFirst(2)
            if t.hasSuffix("*/") { t = t.dropLast(2) }
        }
        t = t.trimmingWhitespace
        guard t.hasPrefix("=") else { return nil }
        let value = t.dropFirst().trimmingWhitespace
        return value.isEmpty ? nil : String(value)
    }

    /// A default as declared; a comment may go on after the value (`// = 0.5, the blur`): then the value is
    /// the constructor up to its `)`, or the first word.
    /// A `bool` may be written `1` or `0` (GLSL's `bool(1)` is true), as well as `true` or `false`.
    static func defaultValue(_ text: String, _ type: ShaderType) -> ShaderValue? {
        if type == .bool {
            let word = text.prefix { $0.isLetter || $0.isNumber || $0 == "." }
            if let n = Double(word), n == 0 || n == 1 { return ShaderValue(type: .bool, components: [n]) }
        }
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
