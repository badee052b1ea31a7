/// The GLSL types a custom transition's parameters may have (`uniform T name; // = default`).
public enum ShaderType: String, Sendable, CaseIterable, Equatable, Hashable {
    case float, int, bool, vec2, vec3, vec4, ivec2
    /// An image (a PNG or JPEG file given as the parameter's value), sampled like the snapshots.
    case sampler2D

    /// How many numbers a value of this type holds (none for `sampler2D`, whose value is an image).
    public var componentCount: Int {
        switch self {
        case .float, .int, .bool: return 1
        case .vec2, .ivec2: return 2
        case .vec3: return 3
        case .vec4: return 4
        case .sampler2D: return 0
        }
    }

    /// True for `int` and `ivec2`, whose components must be whole numbers.
    public var isInteger: Bool { self == .int || self == .ivec2 }
}
