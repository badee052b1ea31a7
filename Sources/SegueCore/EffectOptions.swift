/// The options set for one transition, by name (`EffectOption`); an option not set takes the effect's
/// default from the option table.
public struct EffectOptions: Sendable, Equatable {
    private var values: [String: OptionValue] = [:]

    public init() {}

    /// Options from `(option, value)` pairs.
    public init(_ pairs: [EffectOption: OptionValue]) {
        for (option, value) in pairs { values[option.name] = value }
    }

    /// The value set for `option`, nil when it is not set.
    public subscript(option: EffectOption) -> OptionValue? {
        get { values[option.name] }
        set { values[option.name] = newValue }
    }

    public mutating func set(_ option: EffectOption, _ value: Double) { self[option] = .number(value) }
    public mutating func set(_ option: EffectOption, _ value: Point) { self[option] = .point(value) }
    public mutating func set(_ option: EffectOption, _ value: Rect) { self[option] = .rect(value) }
    public mutating func set(_ option: EffectOption, _ value: Color) { self[option] = .color(value) }

    /// The options that are set, in the table's order.
    public var setOptions: [EffectOption] { EffectOption.all.filter { values[$0.name] != nil } }

    /// The names of the options that are set, as the command line spells them.
    public var setNames: [String] { setOptions.map(\.name) }

    public func number(_ option: EffectOption) -> Double? {
        if case let .number(x)? = self[option] { return x }
        return nil
    }

    public func point(_ option: EffectOption) -> Point? {
        if case let .point(p)? = self[option] { return p }
        return nil
    }

    public func rect(_ option: EffectOption) -> Rect? {
        if case let .rect(r)? = self[option] { return r }
        return nil
    }

    public func color(_ option: EffectOption) -> Color? {
        if case let .color(c)? = self[option] { return c }
        return nil
    }

    /// These options with every default of `effect` that is a value filled in (`computed` and `required` ones
    /// stay unset), a default above its range lowered into it for a frame of `frame` points.
    public func resolved(for effect: Effect, frame: Size) -> EffectOptions {
        var all = self
        for option in EffectOption.options(of: effect) where all[option] == nil {
            let use = option.use(by: effect)!
            guard case var .value(v) = use.defaultValue else { continue }
            if use.range == .upToFrameHeight, case let .number(x) = v { v = .number(min(x, frame.height)) }
            all[option] = v
        }
        return all
    }
}
