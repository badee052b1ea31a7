/// A value of one custom-transition parameter: its type and its components (one for `float`, `int` and
/// `bool`, where `bool` is 0 or 1; two to four for the vectors). Integer types hold whole numbers. A
/// `sampler2D` has no components: its value is `image` (decoded by whoever reads the file; nil until given).
public struct ShaderValue: Sendable, Equatable, CustomStringConvertible {
    public let type: ShaderType
    public let components: [Double]
    /// The image of a `sampler2D` (premultiplied RGBA8, top row first), nil for every other type.
    public let image: Pixmap?

    /// Checks the count and, for `int`, `ivec2` and `bool`, that every component is whole (0 or 1 for `bool`).
    public init?(type: ShaderType, components: [Double]) {
        guard components.count == type.componentCount, components.allSatisfy(\.isFinite) else { return nil }
        if type.isInteger, !components.allSatisfy({ $0 == $0.rounded() && abs($0) <= Double(Int32.max) }) { return nil }
        if type == .bool, !components.allSatisfy({ $0 == 0 || $0 == 1 }) { return nil }
        self.type = type
        self.components = components
        image = nil
    }

    /// A `sampler2D`'s value: `image`.
    public init(image: Pixmap) {
        type = .sampler2D
        components = []
        self.image = image
    }

    /// The value GL gives a uniform nobody set: zero (false); a `sampler2D` with no image.
    public static func zero(_ type: ShaderType) -> ShaderValue {
        ShaderValue(type: type, components: Array(repeating: 0, count: type.componentCount))!
    }

    /// Parses `text` as a value of `type`: `0.5`, `3`, `true`, `1,2`, `vec2(1, 2)`, `vec3(0.5)` (one value
    /// for every component), `ivec2(4,3)`. Nil when it is not one.
    public init?(parsing text: String, as type: ShaderType) {
        guard type != .sampler2D else { return nil }  // an image is read from a file, not parsed
        var body = Substring(text).trimmingWhitespace
        var isConstructor = false
        if let open = body.firstIndex(of: "("), body.last == ")" {
            let head = body[..<open].trimmingWhitespace
            // The constructor must be the parameter's own type (a float parameter may be written float(2)).
            guard head == type.rawValue else { return nil }
            body = body[body.index(after: open)..<body.index(before: body.endIndex)]
            isConstructor = true
        }
        let parts = body.split(separator: ",", omittingEmptySubsequences: false).map(\.trimmingWhitespace)
        var numbers: [Double] = []
        for part in parts {
            switch (type, part) {
            case (.bool, "true"): numbers.append(1)
            case (.bool, "false"): numbers.append(0)
            case (.bool, _): return nil
            default:
                guard let v = ShaderValue.number(part, integer: type.isInteger) else { return nil }
                numbers.append(v)
            }
        }
        if isConstructor, numbers.count == 1, type.componentCount > 1 {
            numbers = Array(repeating: numbers[0], count: type.componentCount)
        }
        self.init(type: type, components: numbers)
    }

    /// A GLSL-style number: `1`, `-0.5`, `.5`, `2.`, `1e-3`; with `integer`, only whole literals (`3`, not `3.0`).
    private static func number(_ text: Substring, integer: Bool) -> Double? {
        if integer { return Int(text).map(Double.init) }
        guard let first = text.first, first.isNumber || first == "." || first == "-" || first == "+" else { return nil }
        return Double(text)
    }

    /// How GLSL would write it: `0.5`, `3`, `true`, `vec2(1, 2)`.
    public var description: String {
        func number(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)" }
        switch type {
        case .bool: return components[0] != 0 ? "true" : "false"
        case .float, .int: return number(components[0])
        case .vec2, .vec3, .vec4, .ivec2: return "\(type.rawValue)(\(components.map(number).joined(separator: ", ")))"
        case .sampler2D: return image.map { "image \($0.width)x\($0.height)" } ?? "no image"
        }
    }
}

extension Substring {
    var trimmingWhitespace: Substring {
        var s = self
        while let c = s.first, c.isWhitespace { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        return s
    }
}
