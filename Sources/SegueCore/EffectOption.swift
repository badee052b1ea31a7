import Foundation

/// One effect option, declared once: its name (as the command line and storyboards spell it), the kind of
/// value it takes, one line of help, and each effect that takes it with that effect's default and range.
/// The command line's flags, storyboard `options`, validation, `--help`, `segue effects`, the demo and the
/// test fixtures all read `EffectOption.all`; adding an option is one entry here (and its use in the effect).
public struct EffectOption: Sendable, Hashable, CustomStringConvertible {
    /// The kind of value: how it is written (`0.5`, `x,y`, `x,y,w,h`, `RRGGBB`) and read from JSON.
    public enum Kind: String, Sendable {
        case number, point, rect, color

        /// The value's form in help and messages.
        public var form: String {
            switch self {
            case .number: return "a number"
            case .point: return "a point x,y"
            case .rect: return "a rectangle x,y,w,h"
            case .color: return "a colour RRGGBB"
            }
        }
    }

    /// An option's default for one effect.
    public enum Default: Sendable, Equatable {
        /// This value.
        case value(OptionValue)
        /// Worked out by the effect from the frame (the frame's centre, the farthest corner): the text says how.
        case computed(String)
        /// No default: the effect needs it.
        case required
    }

    /// The values an option accepts, checked before anything renders.
    public enum Range: Sendable, Equatable {
        case any
        /// > 0
        case positive
        /// >= 0
        case nonNegative
        /// 0 ... 1
        case unit
        /// (0, frame height in points]; a default above it is lowered to the frame's height.
        case upToFrameHeight
        /// A rectangle with width and height > 0.
        case area
    }

    /// An effect that takes the option, with its default and range there.
    public struct Use: Sendable, Hashable {
        public let effect: Effect
        public let defaultValue: Default
        public let range: Range
        /// Said in `--help` and `segue effects` after the default, e.g. "0 = none".
        public let note: String?

        public static func == (a: Use, b: Use) -> Bool { a.effect == b.effect }
        public func hash(into hasher: inout Hasher) { hasher.combine(effect) }
    }

    public let name: String
    public let kind: Kind
    /// The value's placeholder in `--help`: `k`, `x,y`, `RRGGBB`.
    public let valueName: String
    public let help: String
    public let uses: [Use]
    /// A value that shows the option off in `segue demo` on the 375x667-point sample screens, where the
    /// default would not (hero has no default rectangles).
    public let example: OptionValue?

    public var description: String { name }

    public static func == (a: EffectOption, b: EffectOption) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Its use by `effect`, nil when the effect does not take it.
    public func use(by effect: Effect) -> Use? { uses.first { $0.effect == effect } }

    /// The text of the default for `effect` ("0.7", "frame centre", "required").
    public func defaultText(for effect: Effect) -> String {
        guard let use = use(by: effect) else { return "" }
        var text: String
        switch use.defaultValue {
        case let .value(v): text = v.description
        case let .computed(how): text = how
        case .required: text = "required"
        }
        // A note that restates the value ("0 = none") stands for it.
        if let note = use.note { text = note.hasPrefix(text) ? note : "\(text), \(note)" }
        return text
    }

    /// The option named `name` (without `--`).
    public static func named(_ name: String) -> EffectOption? { all.first { $0.name == name } }

    /// The options `effect` takes, in the table's order.
    public static func options(of effect: Effect) -> [EffectOption] { all.filter { $0.use(by: effect) != nil } }

    private init(_ name: String, _ kind: Kind, _ valueName: String, help: String, example: OptionValue? = nil,
                 _ uses: [(Effect, Default, Range, String?)]) {
        self.name = name
        self.kind = kind
        self.valueName = valueName
        self.help = help
        self.example = example
        self.uses = uses.map { Use(effect: $0.0, defaultValue: $0.1, range: $0.2, note: $0.3) }
    }

    // MARK: The table

    public static let zoom = EffectOption(
        "zoom", .number, "k", help: "scale of the screen behind the doors when they start to open",
        [(.door, .value(.number(0.7)), .positive, nil)])
    public static let center = EffectOption(
        "center", .point, "x,y", help: "the centre the circle or disc grows from, in points",
        example: .point(Point(112.5, 166.75)),
        [(.circleSpread, .computed("frame centre"), .any, nil), (.circleZoom, .computed("frame centre"), .any, nil)])
    public static let startRadius = EffectOption(
        "start-radius", .number, "r", help: "the circle's radius at the start, in points",
        [(.circleSpread, .value(.number(30)), .nonNegative, nil)])
    public static let endRadius = EffectOption(
        "end-radius", .number, "r", help: "the circle's radius at the end, in points",
        [(.circleSpread, .computed("farthest corner"), .nonNegative, nil)])
    public static let color = EffectOption(
        "color", .color, "RRGGBB", help: "the disc's colour",
        [(.circleZoom, .value(.color(Color(hex: "FFA500")!)), .any, nil)])
    public static let perspective = EffectOption(
        "perspective", .number, "d",
        help: "eye distance d in points, m34 = -1/d (about 1.3 x the width for wide frames)",
        [(.pageFlip, .value(.number(500)), .positive, nil),
         (.spin, .value(.number(0)), .nonNegative, "0 = none"),
         (.hinge, .value(.number(0)), .nonNegative, "0 = none")])
    public static let shadow = EffectOption(
        "shadow", .number, "a", help: "opacity of the shadow at the spine, 0...1",
        [(.pageFlip, .value(.number(0.1)), .unit, nil)])
    public static let fromRect = EffectOption(
        "from-rect", .rect, "x,y,w,h", help: "where the snapshot starts, in points",
        example: .rect(Rect(22.5, 100, 65.625, 65.625)),
        [(.hero, .required, .area, nil)])
    public static let toRect = EffectOption(
        "to-rect", .rect, "x,y,w,h", help: "where the snapshot lands, in points",
        example: .rect(Rect(0, 0, 375, 280.14)),
        [(.hero, .required, .area, nil)])
    public static let fromRadius = EffectOption(
        "from-radius", .number, "r", help: "the snapshot's corner radius at the start, in points",
        example: .number(14.4375),
        [(.hero, .value(.number(0)), .nonNegative, nil)])
    public static let toRadius = EffectOption(
        "to-radius", .number, "r", help: "the snapshot's corner radius at the end, in points",
        [(.hero, .value(.number(0)), .nonNegative, nil)])
    public static let height = EffectOption(
        "height", .number, "h", help: "the sheet's height, in points",
        [(.sheet, .value(.number(400)), .upToFrameHeight, "at most the frame's height")])

    /// Every option, in the order `segue effects` and `--help` list them.
    public static let all: [EffectOption] = [
        zoom, center, startRadius, endRadius, color, perspective, shadow, fromRect, toRect, fromRadius, toRadius, height,
    ]
}

/// The value of an effect option.
public enum OptionValue: Sendable, Equatable, CustomStringConvertible {
    case number(Double)
    case point(Point)
    case rect(Rect)
    case color(Color)

    public var kind: EffectOption.Kind {
        switch self {
        case .number: return .number
        case .point: return .point
        case .rect: return .rect
        case .color: return .color
        }
    }

    /// As the command line writes it: `0.7`, `110,150`, `0,0,375,280`, `FFA500`.
    public var description: String {
        switch self {
        case let .number(x): return x.compact
        case let .point(p): return "\(p.x.compact),\(p.y.compact)"
        case let .rect(r): return "\(r)"
        case let .color(c): return c.hex
        }
    }

    /// Parses `text` as the command line writes a value of `kind`; nil when it is not of that form.
    public init?(parsing text: String, kind: EffectOption.Kind) {
        if kind == .color {
            guard let c = Color(hex: text) else { return nil }
            self = .color(c)
            return
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        self.init(numbers: parts.map { Double($0.trimmingCharacters(in: .whitespaces)) }, kind: kind)
    }

    /// A JSON value of `kind` as storyboards write it: `0.5`, `[x, y]`, `[x, y, w, h]`, `"RRGGBB"`.
    public init?(json: Any, kind: EffectOption.Kind) {
        if kind == .color {
            guard let s = json as? String, let c = Color(hex: s) else { return nil }
            self = .color(c)
            return
        }
        let items: [Any] = kind == .number ? [json] : (json as? [Any] ?? [])
        self.init(numbers: items.map(JSONNumber.value), kind: kind)
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
        }
    }
}
