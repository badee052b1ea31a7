import Foundation

/// A value of an effect file: a number, a point `[x, y]`, a rectangle `[x, y, w, h]`, a colour `[r, g, b, a]`
/// (straight alpha, 0...1) or any short list of numbers; arithmetic works on each component.
public typealias Vector = [Double]

/// A small expression of an effect file (`lerp(zoom, 1, e)`, `R(center)`, `forward ? W : -W`), parsed and
/// type-checked once when the file is read: every name is resolved to a slot of the frame's `Slots` and every
/// value's arity (how many numbers it has) is known, so evaluating it per frame cannot fail.
///
/// Grammar, loosest first: `c ? a : b`, `||`, `&&`, comparisons (`<`, `<=`, `>`, `>=`, `==`, `!=`: 1 or 0),
/// `+ -`, `* /`, unary `-` and `!`, members (`.x .y .w .h`, `.size`, `.center`, a choice's constants),
/// then numbers, names, calls `f(a, ...)`, lists `[a, b]`, colours `#RRGGBB[AA]` and `( )`.
public indirect enum EffectExpression: Sendable, Equatable {
    case constant(Vector)
    case slot(Int)
    case negate(EffectExpression)
    case not(EffectExpression)
    case arithmetic(Character, EffectExpression, EffectExpression)
    case compare(String, EffectExpression, EffectExpression)
    case logical(Character, EffectExpression, EffectExpression)
    case choose(EffectExpression, EffectExpression, EffectExpression)
    case component(EffectExpression, Range<Int>)
    case list([EffectExpression])
    case call(Function, [EffectExpression])
    /// Keyframes over the value of `over`: `times` ascending, `values[k]` at `times[k]`, the segment from
    /// `k` to `k + 1` eased by `curves[k]` (linear when nil); held before the first and after the last.
    case keyframes(over: EffectExpression, times: [Double], values: [EffectExpression], curves: [TimingCurve?])

    /// The functions an expression may call, each with its arity rule (checked when parsed).
    public enum Function: String, Sendable, CaseIterable {
        case lerp, min, max, clamp, abs, sqrt, sin, cos, tan, atan2, floor, ceil, round, snap, R, rect, point, rad
    }
}

/// One frame's values of the names an effect uses, by slot; the frame size and scale for `snap` and `R`.
public struct Slots: Sendable {
    public var values: [Vector]
    public var frame: Size
    /// Pixels per point: `snap(x)` rounds `x` to a whole device pixel.
    public var scale: Double
    /// The transition's duration, for a spring in a keyframe segment.
    public var duration: Double

    public init(count: Int, frame: Size, scale: Double, duration: Double) {
        values = Array(repeating: [0], count: count)
        self.frame = frame; self.scale = scale; self.duration = duration
    }

    public subscript(slot: Int) -> Vector {
        get { values[slot] }
        set { values[slot] = newValue }
    }
}

extension EffectExpression {
    /// The expression's value with the names' values in `slots`.
    public func evaluate(_ slots: Slots) -> Vector {
        switch self {
        case let .constant(v):
            return v
        case let .slot(i):
            return slots.values[i]
        case let .negate(a):
            return a.evaluate(slots).map { -$0 }
        case let .not(a):
            return [a.evaluate(slots)[0] == 0 ? 1 : 0]
        case let .arithmetic(op, a, b):
            let x = a.evaluate(slots), y = b.evaluate(slots)
            let n = Swift.max(x.count, y.count)
            var r = Vector(repeating: 0, count: n)
            for k in 0..<n {
                let p = x[x.count == 1 ? 0 : k], q = y[y.count == 1 ? 0 : k]
                switch op {
                case "+": r[k] = p + q
                case "-": r[k] = p - q
                case "*": r[k] = p * q
                default: r[k] = p / q
                }
            }
            return r
        case let .compare(op, a, b):
            let p = a.evaluate(slots)[0], q = b.evaluate(slots)[0]
            let result: Bool
            switch op {
            case "<": result = p < q
            case "<=": result = p <= q
            case ">": result = p > q
            case ">=": result = p >= q
            case "==": result = p == q
            default: result = p != q
            }
            return [result ? 1 : 0]
        case let .logical(op, a, b):
            let p = a.evaluate(slots)[0] != 0
            if op == "&" { return [p && b.evaluate(slots)[0] != 0 ? 1 : 0] }
            return [p || b.evaluate(slots)[0] != 0 ? 1 : 0]
        case let .choose(c, a, b):
            return c.evaluate(slots)[0] != 0 ? a.evaluate(slots) : b.evaluate(slots)
        case let .component(a, range):
            return Array(a.evaluate(slots)[range])
        case let .list(items):
            return items.flatMap { $0.evaluate(slots) }
        case let .call(f, arguments):
            return f.apply(arguments.map { $0.evaluate(slots) }, slots)
        case let .keyframes(over, times, values, curves):
            let x = over.evaluate(slots)[0]
            if x <= times[0] || times.count == 1 { return values[0].evaluate(slots) }
            guard let k = times.lastIndex(where: { $0 <= x }), k < times.count - 1 else {
                return values[values.count - 1].evaluate(slots)
            }
            let span = times[k + 1] - times[k]
            var f = (x - times[k]) / span
            if let curve = curves[k] { f = curve.value(at: f, duration: slots.duration * span) }
            let a = values[k].evaluate(slots), b = values[k + 1].evaluate(slots)
            return zip(a, b).map { lerp($0, $1, f) }
        }
    }
}

extension EffectExpression.Function {
    /// The result's arity for arguments of `arities`, or a message saying what it takes.
    func arity(_ arities: [Int]) -> Result<Int, ExpressionError> {
        func fail(_ takes: String) -> Result<Int, ExpressionError> { .failure(ExpressionError("\(rawValue)() takes \(takes)")) }
        func same(_ a: Int, _ b: Int) -> Bool { a == b || a == 1 || b == 1 }
        switch self {
        case .lerp:
            guard arities.count == 3, same(arities[0], arities[1]), arities[2] == 1 else {
                return fail("(a, b, k): two values of one size and a number")
            }
            return .success(Swift.max(arities[0], arities[1]))
        case .min, .max:
            guard arities.count >= 2, arities.allSatisfy({ same($0, arities.max()!) }) else {
                return fail("two or more values of one size")
            }
            return .success(arities.max()!)
        case .clamp:
            guard arities.count == 3, arities[1] == 1, arities[2] == 1 else { return fail("(x, low, high)") }
            return .success(arities[0])
        case .abs, .sqrt, .sin, .cos, .tan, .floor, .ceil, .round, .snap, .rad:
            guard arities.count == 1 else { return fail("one value") }
            return .success(arities[0])
        case .atan2:
            guard arities == [1, 1] else { return fail("(y, x)") }
            return .success(1)
        case .R:
            guard arities == [2] else { return fail("a point: the distance from it to the farthest frame corner") }
            return .success(1)
        case .rect:
            guard arities == [2, 2] else { return fail("(origin, size): two points") }
            return .success(4)
        case .point:
            guard arities == [1, 1] else { return fail("(x, y)") }
            return .success(2)
        }
    }

    func apply(_ a: [Vector], _ slots: Slots) -> Vector {
        func each(_ f: (Double) -> Double) -> Vector { a[0].map(f) }
        func pairwise(_ f: (Double, Double) -> Double) -> Vector {
            let n = a.map(\.count).max()!
            return (0..<n).map { k in a.dropFirst().reduce(a[0][a[0].count == 1 ? 0 : k]) { f($0, $1[$1.count == 1 ? 0 : k]) } }
        }
        switch self {
        case .lerp:
            let n = Swift.max(a[0].count, a[1].count)
            return (0..<n).map { k in SegueCore.lerp(a[0][a[0].count == 1 ? 0 : k], a[1][a[1].count == 1 ? 0 : k], a[2][0]) }
        case .min: return pairwise { Swift.min($0, $1) }
        case .max: return pairwise { Swift.max($0, $1) }
        case .clamp: return each { Swift.min(Swift.max($0, a[1][0]), a[2][0]) }
        case .abs: return each { Swift.abs($0) }
        case .sqrt: return each { $0.squareRoot() }
        case .sin: return each { Foundation.sin($0) }
        case .cos: return each { Foundation.cos($0) }
        case .tan: return each { Foundation.tan($0) }
        case .floor: return each { $0.rounded(.down) }
        case .ceil: return each { $0.rounded(.up) }
        case .round: return each { $0.rounded() }
        case .rad: return each { $0 * .pi / 180 }
        case .snap: return each { ($0 * slots.scale).rounded() / slots.scale }
        case .atan2: return [Foundation.atan2(a[0][0], a[1][0])]
        case .R: return [farthestCorner(Point(a[0][0], a[0][1]), slots.frame)]
        case .rect: return a[0] + a[1]
        case .point: return a[0] + a[1]
        }
    }
}

/// Why an expression could not be read, said at its place in the file.
public struct ExpressionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The names an expression may use: each a slot and an arity. Compound names (`edge.dx`, a choice's
/// constants) are looked up whole.
public struct ExpressionScope: Sendable {
    public private(set) var names: [String: (slot: Int, arity: Int)] = [:]
    public private(set) var slotCount = 0

    public init() {}

    /// Adds `name` with `arity` and returns its slot; a name declared again gets a new slot.
    @discardableResult
    public mutating func declare(_ name: String, arity: Int) -> Int {
        names[name] = (slotCount, arity)
        slotCount += 1
        return slotCount - 1
    }

    public func lookup(_ name: String) -> (slot: Int, arity: Int)? { names[name] }

    /// Parses `text` into an expression and its arity.
    public func parse(_ text: String) throws(ExpressionError) -> (EffectExpression, Int) {
        var parser = ExpressionParser(text: text, scope: self)
        return try parser.parseWhole()
    }

    /// Every name `text` may look up, found in one pass over its characters without parsing it (a name's
    /// arity is not known yet when this is asked): each identifier where the parser would look one up, so not
    /// a member after `.`, a function before `(`, or letters inside a number (`1e5`) or a colour (`#e0e0e0`).
    /// A name the parser looks up is always among them; a few more may be (in text that does not parse).
    static func names(in text: String) -> Set<String> {
        let bytes = Array(text.utf8)
        func isLetter(_ c: UInt8) -> Bool { (0x61...0x7A).contains(c | 0x20) || c == UInt8(ascii: "_") }
        func isDigit(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) }
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || (0x09...0x0D).contains(c) }
        var names: Set<String> = []
        var i = 0
        var afterDot = false  // a `.` came last (spaces aside): an identifier here is a member
        while i < bytes.count {
            let c = bytes[i]
            if isLetter(c) {
                let start = i
                while i < bytes.count, isLetter(bytes[i]) || isDigit(bytes[i]) { i += 1 }
                var next = i
                while next < bytes.count, isSpace(bytes[next]) { next += 1 }
                if !afterDot && !(next < bytes.count && bytes[next] == UInt8(ascii: "(")) {
                    names.insert(String(decoding: bytes[start..<i], as: UTF8.self))
                }
                afterDot = false
            } else if isDigit(c) || (c == UInt8(ascii: ".") && i + 1 < bytes.count && isDigit(bytes[i + 1])) {
                // A number as the parser reads one: digits and points, then an exponent only if digits follow.
                while i < bytes.count, isDigit(bytes[i]) || bytes[i] == UInt8(ascii: ".") { i += 1 }
                if i + 1 < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e"),
                   isDigit(bytes[i + 1]) || ((bytes[i + 1] == UInt8(ascii: "-") || bytes[i + 1] == UInt8(ascii: "+"))
                                             && i + 2 < bytes.count && isDigit(bytes[i + 2])) {
                    i += 2
                    while i < bytes.count, isDigit(bytes[i]) { i += 1 }
                }
                afterDot = false
            } else if c == UInt8(ascii: "#") {
                i += 1
                while i < bytes.count, isDigit(bytes[i]) || (0x61...0x66).contains(bytes[i] | 0x20) { i += 1 }
                afterDot = false
            } else {
                if !isSpace(c) { afterDot = c == UInt8(ascii: ".") }
                i += 1
            }
        }
        return names
    }
}

/// A recursive-descent parser over the characters of one expression; each rule returns the node and its arity.
private struct ExpressionParser {
    let chars: [Character]
    var i = 0
    let scope: ExpressionScope
    /// Deep nesting is refused before it can exhaust the stack.
    var depth = 0
    static let maxDepth = 64

    init(text: String, scope: ExpressionScope) {
        chars = Array(text)
        self.scope = scope
    }

    typealias Node = (EffectExpression, Int)

    mutating func parseWhole() throws(ExpressionError) -> Node {
        guard chars.count <= Limits.maxExpressionCharacters else {
            throw ExpressionError("expression longer than \(Limits.maxExpressionCharacters) characters")
        }
        let node = try conditional()
        skipSpace()
        guard i == chars.count else { throw ExpressionError("unexpected '\(String(chars[i...].prefix(12)))' at column \(i + 1)") }
        return node
    }

    mutating func skipSpace() { while i < chars.count, chars[i].isWhitespace { i += 1 } }

    mutating func take(_ s: String) -> Bool {
        skipSpace()
        let c = Array(s)
        guard i + c.count <= chars.count, Array(chars[i..<(i + c.count)]) == c else { return false }
        // `<` must not take the start of `<=`, nor `=` of `==`.
        if c.count == 1, "<>=!".contains(c[0]), i + 1 < chars.count, chars[i + 1] == "=" { return false }
        i += c.count
        return true
    }

    mutating func expect(_ s: String, _ what: String) throws(ExpressionError) {
        guard take(s) else { throw ExpressionError("expected '\(s)' \(what) at column \(i + 1)") }
    }

    mutating func nested<T>(_ body: (inout ExpressionParser) throws(ExpressionError) -> T) throws(ExpressionError) -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw ExpressionError("expression nested deeper than \(Self.maxDepth)") }
        return try body(&self)
    }

    func scalar(_ node: Node, _ what: String) throws(ExpressionError) -> EffectExpression {
        guard node.1 == 1 else { throw ExpressionError("\(what) needs a number, not a value of \(node.1) numbers") }
        return node.0
    }

    mutating func conditional() throws(ExpressionError) -> Node {
        try nested { (p: inout ExpressionParser) throws(ExpressionError) -> Node in
            let condition = try p.logicalOr()
            guard p.take("?") else { return condition }
            let c = try p.scalar(condition, "a condition")
            let a = try p.conditional()
            try p.expect(":", "in 'condition ? a : b'")
            let b = try p.conditional()
            guard a.1 == b.1 else { throw ExpressionError("the two sides of '? :' differ in size (\(a.1) and \(b.1) numbers)") }
            return (.choose(c, a.0, b.0), a.1)
        }
    }

    mutating func logicalOr() throws(ExpressionError) -> Node {
        var left = try logicalAnd()
        while take("||") {
            let right = try logicalAnd()
            left = (.logical("|", try scalar(left, "'||'"), try scalar(right, "'||'")), 1)
        }
        return left
    }

    mutating func logicalAnd() throws(ExpressionError) -> Node {
        var left = try comparison()
        while take("&&") {
            let right = try comparison()
            left = (.logical("&", try scalar(left, "'&&'"), try scalar(right, "'&&'")), 1)
        }
        return left
    }

    mutating func comparison() throws(ExpressionError) -> Node {
        let left = try sum()
        for op in ["<=", ">=", "==", "!=", "<", ">"] where take(op) {
            let right = try sum()
            return (.compare(op, try scalar(left, "'\(op)'"), try scalar(right, "'\(op)'")), 1)
        }
        return left
    }

    mutating func sum() throws(ExpressionError) -> Node {
        var left = try product()
        while true {
            let op: Character
            if take("+") { op = "+" } else if take("-") { op = "-" } else { return left }
            left = try combine(op, left, try product())
        }
    }

    mutating func product() throws(ExpressionError) -> Node {
        var left = try unary()
        while true {
            let op: Character
            if take("*") { op = "*" } else if take("/") { op = "/" } else { return left }
            left = try combine(op, left, try unary())
        }
    }

    func combine(_ op: Character, _ a: Node, _ b: Node) throws(ExpressionError) -> Node {
        guard a.1 == b.1 || a.1 == 1 || b.1 == 1 else {
            throw ExpressionError("'\(op)' between values of \(a.1) and \(b.1) numbers")
        }
        // Constants fold: `pi / 2` is one number.
        if case let .constant(x) = a.0, case let .constant(y) = b.0 {
            return (.constant(EffectExpression.arithmetic(op, .constant(x), .constant(y)).evaluate(Slots(count: 0, frame: Size(0, 0), scale: 1, duration: 1))), Swift.max(a.1, b.1))
        }
        return (.arithmetic(op, a.0, b.0), Swift.max(a.1, b.1))
    }

    mutating func unary() throws(ExpressionError) -> Node {
        if take("-") {
            let a = try nested { (p: inout ExpressionParser) throws(ExpressionError) -> Node in try p.unary() }
            if case let .constant(v) = a.0 { return (.constant(v.map { -$0 }), a.1) }
            return (.negate(a.0), a.1)
        }
        if take("!") {
            let a = try nested { (p: inout ExpressionParser) throws(ExpressionError) -> Node in try p.unary() }
            return (.not(try scalar(a, "'!'")), 1)
        }
        return try postfix()
    }

    mutating func postfix() throws(ExpressionError) -> Node {
        var node = try primary()
        while take(".") {
            let name = identifier()
            guard !name.isEmpty else { throw ExpressionError("expected a member name after '.' at column \(i + 1)") }
            node = try member(node, name)
        }
        return node
    }

    func member(_ node: Node, _ name: String) throws(ExpressionError) -> Node {
        let ranges: [String: (Range<Int>, Set<Int>)] = [
            "x": (0..<1, [2, 4]), "y": (1..<2, [2, 4]), "w": (2..<3, [4]), "h": (3..<4, [4]), "size": (2..<4, [4]),
            "r": (0..<1, [4]), "g": (1..<2, [4]), "b": (2..<3, [4]), "a": (3..<4, [4]),
        ]
        if name == "center" {
            guard node.1 == 4 else { throw ExpressionError(".center needs a rectangle [x, y, w, h]") }
            // origin + size / 2
            return (.arithmetic("+", .component(node.0, 0..<2), .arithmetic("/", .component(node.0, 2..<4), .constant([2]))), 2)
        }
        guard let (range, arities) = ranges[name] else { throw ExpressionError("unknown member '.\(name)'") }
        guard arities.contains(node.1) else { throw ExpressionError("'.\(name)' does not apply to a value of \(node.1) numbers") }
        return (.component(node.0, range), range.count)
    }

    mutating func identifier() -> String {
        skipSpace()
        let start = i
        while i < chars.count, chars[i].isLetter || chars[i] == "_" || (i > start && chars[i].isNumber), chars[i].isASCII { i += 1 }
        return String(chars[start..<i])
    }

    mutating func primary() throws(ExpressionError) -> Node {
        skipSpace()
        guard i < chars.count else { throw ExpressionError(chars.isEmpty ? "empty expression" : "the expression ends too soon") }
        let c = chars[i]
        if c.isNumber || c == "." { return (.constant([try number()]), 1) }
        if c == "#" { return try colour() }
        if take("(") {
            let inner = try conditional()
            try expect(")", "to close '('")
            return inner
        }
        if take("[") {
            var items: [Node] = []
            repeat { items.append(try conditional()) } while take(",")
            try expect("]", "to close '['")
            let arity = items.reduce(0) { $0 + $1.1 }
            guard arity <= 4 else { throw ExpressionError("a list holds at most 4 numbers") }
            let constants = items.compactMap { item -> Vector? in
                if case let .constant(v) = item.0 { return v }
                return nil
            }
            if constants.count == items.count { return (.constant(constants.flatMap { $0 }), arity) }
            return (.list(items.map(\.0)), arity)
        }
        let name = identifier()
        guard !name.isEmpty else { throw ExpressionError("unexpected '\(c)' at column \(i + 1)") }
        if take("(") {
            guard let f = EffectExpression.Function(rawValue: name) else {
                throw ExpressionError("unknown function '\(name)' (functions: \(EffectExpression.Function.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            var arguments: [Node] = []
            if !take(")") {
                repeat { arguments.append(try conditional()) } while take(",")
                try expect(")", "to close \(name)(")
            }
            switch f.arity(arguments.map(\.1)) {
            case let .success(arity): return (.call(f, arguments.map(\.0)), arity)
            case let .failure(error): throw error
            }
        }
        if name == "pi" { return (.constant([.pi]), 1) }
        // A choice's constant is one compound name: `edge.dx`.
        var whole = name
        let mark = i
        if take("."), case let member = identifier(), !member.isEmpty, scope.lookup(name + "." + member) != nil {
            whole = name + "." + member
        } else {
            i = mark
        }
        guard let found = scope.lookup(whole) else {
            let known = scope.names.keys.filter { !$0.hasPrefix("$") }.sorted().joined(separator: ", ")
            throw ExpressionError("unknown name '\(name)' (names here: \(known), pi)")
        }
        return (.slot(found.slot), found.arity)
    }

    mutating func number() throws(ExpressionError) -> Double {
        let start = i
        while i < chars.count, chars[i].isNumber || chars[i] == "." { i += 1 }
        if i < chars.count, chars[i] == "e" || chars[i] == "E",
           i + 1 < chars.count, chars[i + 1].isNumber || ((chars[i + 1] == "-" || chars[i + 1] == "+") && i + 2 < chars.count && chars[i + 2].isNumber) {
            i += 2
            while i < chars.count, chars[i].isNumber { i += 1 }
        }
        let text = String(chars[start..<i])
        guard let v = Double(text), v.isFinite else { throw ExpressionError("'\(text)' is not a number") }
        return v
    }

    mutating func colour() throws(ExpressionError) -> Node {
        let start = i
        i += 1
        while i < chars.count, chars[i].isHexDigit { i += 1 }
        let text = String(chars[start..<i])
        guard let c = Color(hex: text) else { throw ExpressionError("'\(text)' is not a colour #RRGGBB or #RRGGBBAA") }
        return (.constant([c.red, c.green, c.blue, c.alpha]), 4)
    }
}
