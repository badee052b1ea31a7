/// One parameter a custom transition declares, as gl-transitions files do:
/// `uniform float amplitude; // = 0.03` or `uniform ivec2 cells /* = ivec2(16, 9) */;`.
public struct ShaderParameter: Sendable, Equatable {
    public let name: String
    public let type: ShaderType
    /// The declared default, or GL's zero when the declaration has none.
    public let defaultValue: ShaderValue
    /// True when the declaration gives a default (`// = value`).
    public let hasDeclaredDefault: Bool
    /// The `//` comment lines right above the declaration, joined; empty when there are none.
    public let help: String
    /// The line of the file it is declared on, from 1.
    public let line: Int

    public init(name: String, type: ShaderType, defaultValue: ShaderValue, hasDeclaredDefault: Bool, help: String, line: Int) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.hasDeclaredDefault = hasDeclaredDefault
        self.help = help
        self.line = line
    }

    /// `amplitude (float)`.
    public var signature: String { "\(name) (\(type.rawValue))" }
}
