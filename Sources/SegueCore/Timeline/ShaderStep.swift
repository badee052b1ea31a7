/// A storyboard step that plays a custom transition in the gl-transitions interface
/// (`{"transition": "shader:NAME|FILE", "options": {"params": {...}}}`).
public struct ShaderStep: Sendable, Equatable {
    public var transition: ShaderTransition
    public var values: [String: ShaderValue]
    public var duration: Double
    public var curve: TimingCurve
    public var direction: Direction

    /// A custom transition lasts 1 s, linear, unless the step says otherwise (as `segue render --shader`).
    public static let defaultDuration = 1.0
    public static let defaultCurve = TimingCurve.linear

    public init(transition: ShaderTransition, values: [String: ShaderValue], duration: Double? = nil,
                curve: TimingCurve? = nil, direction: Direction = .forward) {
        self.transition = transition
        self.values = values
        self.duration = duration ?? Self.defaultDuration
        self.curve = curve ?? Self.defaultCurve
        self.direction = direction
    }

    /// The shader's `progress` at step progress `t`: eased, and run backwards for `back`, which is drawn with
    /// the two screens swapped, so it starts on `from` and ends on `to`.
    public func progress(at t: Double) -> Double {
        let p = curve.value(at: t, duration: duration)
        return direction == .back ? 1 - p : p
    }
}
