/// Reading a transition's text as a whole: which dialect it is written in, and its global variables.
extension ShaderTransition {
    // MARK: The dialect

    /// Built-in functions of GLSL ES 3.00 that 1.00 does not have: a 1.00 file may define its own function of
    /// one of these names (`vec4 texture(vec2 p)`), which 3.00 refuses as a redefinition of a built-in.
    static let builtinsNewIn300: Set<String> = [
        "texture", "textureProj", "textureLod", "textureOffset", "texelFetch", "texelFetchOffset",
        "textureProjOffset", "textureLodOffset", "textureProjLod", "textureProjLodOffset", "textureGrad",
        "textureGradOffset", "textureProjGrad", "textureProjGradOffset", "textureSize",
        "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "trunc", "round", "roundEven", "modf", "isnan", "isinf",
        "floatBitsToInt", "floatBitsToUint", "intBitsToFloat", "uintBitsToFloat", "packSnorm2x16", "unpackSnorm2x16",
        "packUnorm2x16", "unpackUnorm2x16", "packHalf2x16", "unpackHalf2x16", "outerProduct", "transpose",
        "determinant", "inverse",
    ]

    /// Words only GLSL ES 1.00 has.
    static let only100: Set<String> = [
        "texture2D", "texture2DProj", "texture2DLod", "texture2DProjLod", "textureCube", "textureCubeLod",
        "gl_FragColor", "gl_FragData", "varying", "attribute",
    ]

    /// True when `text` (line endings normalised) is written in GLSL ES 1.00, the WebGL 1 dialect the
    /// gl-transitions collection is written in: `#version 100`; or, with no `#version` line (`version` nil),
    /// a file that defines a function named as a built-in new in 3.00 (`texture`, `round`, ...), or one that
    /// uses words only 1.00 has (`texture2D`, `gl_FragColor`, `varying`, ...) and calls none of those
    /// built-ins. Anything else is 3.00 (`#version 300 es`, or a file in neither style); the 3.00 preamble
    /// still reads `texture2D` as `texture`.
    public static func isGLSL100(_ text: String, version: String?) -> Bool {
        if let version { return version.split(whereSeparator: \.isWhitespace).first == "100" }
        let code = codeBytes(text, blankingDirectives: false)
        var uses100 = false
        var defined: Set<String> = [], called: Set<String> = []
        var depth = 0
        var previous: String?  // the identifier just before, with nothing but spaces between
        var i = 0
        while i < code.count {
            let c = code[i]
            if c == UInt8(ascii: "{") { depth += 1 } else if c == UInt8(ascii: "}") { depth -= 1 }
            guard isIdentifierStart(c) else {
                if !isSpace(c) { previous = nil }
                i += 1
                continue
            }
            let start = i
            while i < code.count, isIdentifier(code[i]) { i += 1 }
            let word = String(decoding: code[start..<i], as: UTF8.self)
            if only100.contains(word) { uses100 = true }
            var next = i
            while next < code.count, isSpace(code[next]) { next += 1 }
            if next < code.count, code[next] == UInt8(ascii: "(") {
                // `TYPE name(` at file scope defines (or declares) `name`; anything else calls it.
                if depth == 0, previous != nil { defined.insert(word) } else { called.insert(word) }
            }
            previous = word
        }
        if !defined.isDisjoint(with: builtinsNewIn300) { return true }
        return uses100 && called.isDisjoint(with: builtinsNewIn300)
    }

    // MARK: Global variables

    /// Words that start a file-scope declaration whose initialiser stays where it is (`const`), or that cannot
    /// have one.
    private static let keptDeclarations: Set<String> = [
        "const", "uniform", "precision", "in", "out", "varying", "attribute", "struct", "layout", "invariant",
    ]

    /// `body` with the initialiser of each global variable that is not `const` taken out (`float r = ratio;`
    /// becomes `float r;`, line breaks kept), and those initialisers as assignments in file order. WebGL runs
    /// a global that starts from a uniform or a function call; GLSL ES (and Mesa) refuse it, so the renderer
    /// runs the assignments before calling `transition`.
    static func takingGlobalInitializers(_ body: String) -> (body: String, initializers: [GlobalInitializer]) {
        let bytes = Array(body.utf8)
        let code = codeBytes(body, blankingDirectives: true)
        var edits: [(range: Range<Int>, bytes: [UInt8])] = []
        var initializers: [GlobalInitializer] = []
        var depth = 0, statementStart = 0
        var braceOpenedByFunction = false, inStructDeclaration = false
        for (i, c) in code.enumerated() {
            switch c {
            case UInt8(ascii: "{"):
                if depth == 0 { braceOpenedByFunction = code[statementStart..<i].contains(UInt8(ascii: "(")) }
                depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 {
                    // A function's body ends the statement; a struct's goes on to its `;`.
                    if braceOpenedByFunction { statementStart = i + 1 } else { inStructDeclaration = true }
                }
            case UInt8(ascii: ";") where depth == 0:
                if !inStructDeclaration,
                   let (edit, found) = globalDeclaration(code, bytes, statementStart..<i) {
                    edits.append(edit)
                    initializers += found
                }
                inStructDeclaration = false
                statementStart = i + 1
            default:
                break
            }
        }
        guard !edits.isEmpty else { return (body, []) }
        var out = bytes
        for edit in edits.reversed() { out.replaceSubrange(edit.range, with: edit.bytes) }
        return (String(decoding: out, as: UTF8.self), initializers)
    }

    /// A file-scope statement (without its `;`) that declares variables with initialisers: the bytes to put
    /// in its place and its initialisers; nil for any other statement.
    private static func globalDeclaration(_ code: [UInt8], _ bytes: [UInt8], _ range: Range<Int>)
        -> ((range: Range<Int>, bytes: [UInt8]), [GlobalInitializer])? {
        // The declarators, split at the commas outside brackets: `float a = f(x, y), b = 2.0, c`.
        var parts: [Range<Int>] = []
        var nesting = 0, partStart = range.lowerBound
        for i in range {
            switch code[i] {
            case UInt8(ascii: "("), UInt8(ascii: "["): nesting += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"): nesting -= 1
            case UInt8(ascii: ",") where nesting == 0:
                parts.append(partStart..<i)
                partStart = i + 1
            default: break
            }
        }
        parts.append(partStart..<range.upperBound)
        // The first holds the type: `[qualifiers] TYPE name [ [N] ]`, then `= value` or nothing.
        func split(_ part: Range<Int>) -> (name: Range<Int>, value: Range<Int>?) {
            guard let eq = part.first(where: { code[$0] == UInt8(ascii: "=") }) else { return (part, nil) }
            return (part.lowerBound..<eq, eq + 1..<part.upperBound)
        }
        let first = split(parts[0])
        guard first.value != nil || parts.dropFirst().contains(where: { split($0).value != nil }) else { return nil }
        let words = text(code[first.name]).split { $0 == " " || $0 == "\t" || $0 == "\n" }
        guard let head = words.first, words.count >= 2, !keptDeclarations.contains(String(head)),
              words.allSatisfy({ $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "[" || $0 == "]" } })
        else { return nil }
        // The declaration keeps its type and names, and the line breaks of what it loses.
        var replacement = Array(bytes[first.name])
        while let last = replacement.last, last == 32 || last == 9 { replacement.removeLast() }
        let newline = UInt8(ascii: "\n")
        var initializers: [GlobalInitializer] = []
        for (k, part) in parts.enumerated() {
            let (name, value) = split(part)
            let nameWords = text(code[name]).split { $0 == " " || $0 == "\t" || $0 == "\n" }
            if k == 0 {
                replacement += bytes[name.upperBound..<part.upperBound].filter { $0 == newline }
            } else {
                replacement += Array(", ".utf8) + Array(nameWords.joined(separator: " ").utf8)
                replacement += bytes[part].filter { $0 == newline }
            }
            guard let value else { continue }
            let variable = nameWords.last.map { $0.prefix { $0 != "[" } } ?? ""
            let expression = text(code[value]).split { $0 == " " || $0 == "\t" || $0 == "\n" }.joined(separator: " ")
            let line = 1 + bytes[..<value.lowerBound].count { $0 == newline }
            initializers.append(GlobalInitializer(line: line, assignment: "\(variable) = \(expression);"))
        }
        return ((range, replacement), initializers)
    }

    // MARK: Bytes

    /// `text`'s UTF-8 bytes with every byte of a comment made a space (and, with `blankingDirectives`, of a
    /// preprocessor line), line breaks kept, so positions agree with the text's.
    static func codeBytes(_ text: String, blankingDirectives: Bool) -> [UInt8] {
        let original = Array(text.utf8)
        var b = original
        enum State { case code, lineComment, blockComment, directive }
        var state = State.code
        var lineStart = true  // only spaces so far on this line
        var i = 0
        let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), newline = UInt8(ascii: "\n")
        while i < b.count {
            let c = b[i]
            switch state {
            case .code:
                if c == slash, i + 1 < b.count, b[i + 1] == slash {
                    state = .lineComment
                    continue
                } else if c == slash, i + 1 < b.count, b[i + 1] == star {
                    b[i] = 32; b[i + 1] = 32
                    i += 2
                    state = .blockComment
                    continue
                } else if c == UInt8(ascii: "#"), lineStart, blankingDirectives {
                    state = .directive
                    continue
                }
                if c == newline { lineStart = true } else if !isSpace(c) { lineStart = false }
            case .lineComment:
                if c == newline { state = .code; lineStart = true } else { b[i] = 32 }
            case .blockComment:
                if c == star, i + 1 < b.count, b[i + 1] == slash {
                    b[i] = 32; b[i + 1] = 32
                    i += 2
                    state = .code
                    continue
                }
                if c != newline { b[i] = 32 }
            case .directive:
                // A directive runs to a line break not escaped by a backslash.
                if c == newline, i == 0 || original[i - 1] != UInt8(ascii: "\\") {
                    state = .code
                    lineStart = true
                } else if c != newline {
                    b[i] = 32
                }
            }
            i += 1
        }
        return b
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
    private static func isSpace(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 10 || c == 13 || c == 11 || c == 12 }
    private static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95
    }
    private static func isIdentifier(_ c: UInt8) -> Bool { isIdentifierStart(c) || (c >= 48 && c <= 57) }
}
