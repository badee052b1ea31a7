import Foundation

/// One option of an effect, as its file declares it: its name (as the command line and storyboards spell it),
/// the kind of value, one line of help, its default and the values it accepts. The command line's flags,
/// storyboard `options`, validation, `--help`, `segue effects` and the demo all read an effect's options.
public struct EffectOption: Sendable, Hashable, CustomStringConvertible {
    /// The kind of value: how it is written (`0.5`, `x,y`, `x,y,w,h`, `RRGGBB`, `left`) and read from JSON.
    public enum Kind: String, Sendable {
        case number, point, rect, color, choice

        /// The value's form in help and messages.
        public var form: String {
            switch self {
            case .number: return "a number"
            case .point: return "a point x,y"
            case .rect: return "a rectangle x,y,w,h"
            case .color: return "a colour RRGGBB"
            case .choice: return "a name"
            }
        }

        /// How many numbers an expression sees for a value of this kind.
        public var arity: Int {
            switch self {
            case .number, .choice: return 1
            case .point: return 2
            case .rect, .color: return 4
            }
        }
    }

    /// The option's default.
    public enum Default: Sendable, Equatable {
        /// This value.
        case value(OptionValue)
        /// Worked out from the frame and the options declared before it (`R(center)`); `text` says how.
        case computed(EffectExpression, text: String)
        /// No default: the effect needs it.
        case required
    }

    /// The values an option accepts, checked before anything renders.
    public enum Range: String, Sendable, Equatable, CaseIterable {
        case any
        /// > 0
        case positive
        /// >= 0
        case nonNegative = "non-negative"
        /// 0 ... 1
        case unit
        /// (0, frame height in points]; a default above it is lowered to the frame's height.
        case upToFrameHeight = "up-to-frame-height"
        /// A rectangle with width and height > 0.
        case area
    }

    /// One value of a choice option and the named numbers expressions see for it (`edge.dx`).
    public struct Choice: Sendable, Hashable {
        public let name: String
        public let constants: [String: Double]
    }

    public let name: String
    public let kind: Kind
    /// The value's placeholder in `--help`: `k`, `x,y`, `RRGGBB`, `left|right`.
    public let valueName: String
    public let help: String
    public let defaultValue: Default
    public let range: Range
    /// Said in `--help` and `segue effects` after the default, e.g. "0 = none".
    public let note: String?
    /// A value that shows the option off in `segue demo` on the 375x667-point sample screens, where the
    /// default would not (hero has no default rectangles).
    public let example: OptionValue?
    /// The values of a choice option, in order.
    public let choices: [Choice]
    /// Whether it may be given several times (hero's matched pairs): its value is then a list, and a layer
    /// that repeats over it is drawn once for each.
    public let repeatable: Bool

    public init(name: String, kind: Kind, valueName: String, help: String, defaultValue: Default,
                range: Range = .any, note: String? = nil, example: OptionValue? = nil, choices: [Choice] = [],
                repeatable: Bool = false) {
        self.name = name; self.kind = kind; self.valueName = valueName; self.help = help
        self.defaultValue = defaultValue; self.range = range; self.note = note; self.example = example
        self.choices = choices; self.repeatable = repeatable
    }

    public var description: String { name }

    public static func == (a: EffectOption, b: EffectOption) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// The name expressions use: the option's name with `-` as `_` (`start-radius` is `start_radius`).
    public var expressionName: String { name.replacingOccurrences(of: "-", with: "_") }

    /// The text of the default ("0.7", "frame centre", "required").
    public var defaultText: String {
        var text: String
        switch defaultValue {
        case let .value(v): text = v.description
        case let .computed(_, how): text = how
        case .required: text = "required"
        }
        // A note that restates the value ("0 = none") stands for it.
        if let note { text = note.hasPrefix(text) ? note : "\(text), \(note)" }
        return text
    }

    /// The value `text` as the command line writes it, checked against the kind and the choices; nil when
    /// it is not of that form.
    public func parse(_ text: String) -> OptionValue? {
        if kind == .choice { return choices.contains { $0.name == text } ? .choice(text) : nil }
        return OptionValue(parsing: text, kind: kind)
    }

    /// The value of a storyboard's JSON; a repeatable option also takes a list of values.
    public func parse(json: Any) -> OptionValue? {
        if kind == .choice {
            guard let s = json as? String, choices.contains(where: { $0.name == s }) else { return nil }
            return .choice(s)
        }
        if repeatable, let items = json as? [Any], let first = items.first, first is [Any] || kind == .number && items.count > 1 {
            let values = items.compactMap { OptionValue(json: $0, kind: kind) }
            guard values.count == items.count, !values.isEmpty, values.count <= Self.maxRepeats else { return nil }
            return values.count == 1 ? values[0] : .list(values)
        }
        return OptionValue(json: json, kind: kind)
    }

    /// The form a storyboard writes a value in, for messages.
    public var jsonForm: String {
        if kind == .choice { return "one of " + choices.map { "\"\($0.name)\"" }.joined(separator: ", ") }
        let one = OptionValue.jsonForm(kind)
        return repeatable ? "\(one) or a list of at most \(Self.maxRepeats) of them" : one
    }

    /// The most values a repeatable option takes (hero's pairs): each is a layer or two of every frame.
    public static let maxRepeats = 64

    /// Checks a set value against its kind and range on a frame of `frame` points; throws a usage error.
    public func check(_ value: OptionValue, frame: Size) throws {
        let option: SegueError.Message = "\(effectOption: name)"
        func invalid(_ message: SegueError.Message) -> SegueError { .invalidOption(name, value: "\(value)", message) }
        if case let .list(items) = value {
            guard repeatable else { throw invalid("\(option) is given \(items.count) times") }
            guard items.count <= Self.maxRepeats else {
                throw invalid("\(option) is given \(items.count) times, more than \(Self.maxRepeats)")
            }
            for item in items { try check(item, frame: frame) }
            return
        }
        guard value.kind == kind else { throw invalid("\(option) takes \(kind.form), not \(value)") }
        switch value {
        case let .number(x):
            guard x.isFinite else { throw invalid("\(option) must be a finite number, not \(x.compact)") }
            switch range {
            case .positive where !(x > 0):
                throw invalid("\(option) must be > 0, not \(x.compact)")
            case .nonNegative where !(x >= 0):
                throw invalid("\(option) must be >= 0, not \(x.compact)")
            case .unit where !(0...1).contains(x):
                throw invalid("\(option) must be in [0, 1], not \(x.compact)")
            case .upToFrameHeight where !(x > 0 && x <= frame.height):
                throw invalid("\(option) must be in (0, \(frame.height.compact)] (the frame's height in points), not \(x.compact)")
            default:
                break
            }
        case let .point(p):
            guard p.x.isFinite, p.y.isFinite else { throw invalid("\(option) must be two finite numbers") }
        case let .rect(r):
            let hasArea = r.width > 0 && r.height > 0
            guard [r.x, r.y, r.width, r.height].allSatisfy(\.isFinite), hasArea || range != .area else {
                throw invalid("\(option) \(r) has no area (width and height must be > 0)")
            }
        case let .choice(c):
            guard choices.contains(where: { $0.name == c }) else {
                throw invalid("\(option) is one of \(choices.map(\.name).joined(separator: ", ")), not '\(c)'")
            }
        case .color, .list:
            break
        }
    }
}

/// The value of an effect option.
public enum OptionValue: Sendable, Equatable, CustomStringConvertible {
    case number(Double)
    case point(Point)
    case rect(Rect)
    case color(Color)
    case choice(String)
    /// A repeatable option given several times, in order.
    indirect case list([OptionValue])

    public var kind: EffectOption.Kind {
        switch self {
        case .number: return .number
        case .point: return .point
        case .rect: return .rect
        case .color: return .color
        case .choice: return .choice
        case let .list(items): return items.first?.kind ?? .number
        }
    }

    /// Each value: the items of a list, or this one.
    public var items: [OptionValue] {
        if case let .list(items) = self { return items }
        return [self]
    }

    /// As the command line writes it: `0.7`, `110,150`, `0,0,375,280`, `FFA500`, `left`; a list's items
    /// separated by spaces.
    public var description: String {
        switch self {
        case let .number(x): return x.compact
        case let .point(p): return "\(p.x.compact),\(p.y.compact)"
        case let .rect(r): return "\(r)"
        case let .color(c): return c.hex
        case let .choice(c): return c
        case let .list(items): return items.map(\.description).joined(separator: " ")
        }
    }

    /// The numbers an expression sees: a colour as straight `[r, g, b, a]` in 0...1 (a choice has none of
    /// its own: its constants are separate names).
    public var vector: Vector {
        switch self {
        case let .number(x): return [x]
        case let .point(p): return [p.x, p.y]
        case let .rect(r): return [r.x, r.y, r.width, r.height]
        case let .color(c): return [c.red, c.green, c.blue, c.alpha]
        case .choice: return [0]
        case let .list(items): return items.first?.vector ?? [0]
        }
    }

    /// Parses `text` as the command line writes a value of `kind`; nil when it is not of that form.
    public init?(parsing text: String, kind: EffectOption.Kind) {
        switch kind {
        case .color:
            guard let c = Color(hex: text) else { return nil }
            self = .color(c)
        case .choice:
            self = .choice(text)
        default:
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            self.init(numbers: parts.map { Double($0.trimmingCharacters(in: .whitespaces)) }, kind: kind)
        }
    }

    /// A JSON value of `kind` as storyboards write it: `0.5`, `[x, y]`, `[x, y, w, h]`, `"RRGGBB"`, `"left"`.
    public init?(json: Any, kind: EffectOption.Kind) {
        switch kind {
        case .color:
            guard let s = json as? String, let c = Color(hex: s) else { return nil }
            self = .color(c)
        case .choice:
            guard let s = json as? String else { return nil }
            self = .choice(s)
        default:
            let items: [Any] = kind == .number ? [json] : (json as? [Any] ?? [])
            self.init(numbers: items.map(JSONNumber.value), kind: kind)
        }
    }

    /// A number, point or rectangle from exactly its 1, 2 or 4 finite numbers.
    private init?(numbers: [Double?], kind: EffectOption.Kind) {
        let v = numbers.compactMap { $0 }.filter(\.isFinite)
        guard v.count == numbers.count else { return nil }
        switch (kind, v.count) {
        case (.number, 1): self = .number(v[0])
        case (.point, 2): self = .point(Point(v[0], v[1]))
        case (.rect, 4): self = .rect(Rect(v[0], v[1], v[2], v[3]))
        default: return nil
        }
    }

    /// The form storyboards write a value of `kind` in, for messages.
    public static func jsonForm(_ kind: EffectOption.Kind) -> String {
        switch kind {
        case .number: return "a number"
        case .point: return "[x, y]"
        case .rect: return "[x, y, w, h]"
        case .color: return "a colour \"RRGGBB\""
        case .choice: return "a name"
        }
    }
}
