/// The options set for one transition, by name; an option not set takes its default from the effect's file.
public struct EffectOptions: Sendable, Equatable {
    private var values: [String: OptionValue] = [:]

    public init() {}

    /// Options from `(name, value)` pairs.
    public init(_ pairs: [String: OptionValue]) { values = pairs }

    /// The value set for the option `name`, nil when it is not set.
    public subscript(name: String) -> OptionValue? {
        get { values[name] }
        set { values[name] = newValue }
    }

    public mutating func set(_ name: String, _ value: Double) { self[name] = .number(value) }
    public mutating func set(_ name: String, _ value: Point) { self[name] = .point(value) }
    public mutating func set(_ name: String, _ value: Rect) { self[name] = .rect(value) }
    public mutating func set(_ name: String, _ value: Color) { self[name] = .color(value) }
    public mutating func set(_ name: String, choice: String) { self[name] = .choice(choice) }
    /// Several values of a repeatable option (hero's pairs).
    public mutating func set(_ name: String, _ values: [Rect]) { self[name] = .list(values.map { .rect($0) }) }

    /// The names of the options that are set, sorted.
    public var setNames: [String] { values.keys.sorted() }

    public func number(_ name: String) -> Double? {
        if case let .number(x)? = self[name] { return x }
        return nil
    }
}
