import Foundation

extension ShaderTransition {
    /// The value of every parameter: its default, or what `assignments` (`name=value`, as `--param` takes them)
    /// give. Throws a usage error naming the assignment and the parameter's declared type.
    public func values(assigning assignments: [String], flag: String = "--param") throws -> [String: ShaderValue] {
        try values(assignments.map { text in
            guard let eq = text.firstIndex(of: "="), eq != text.startIndex else {
                throw SegueError.invalidValue("\(flag) '\(text)' is not name=value")
            }
            return (String(text[..<eq]).trimmingCharacters(in: .whitespaces), String(text[text.index(after: eq)...]))
        }, flag: flag)
    }

    /// As `values(assigning:)` with the names and value texts apart (a storyboard's `"params"`); `flag` names
    /// where they come from in messages: `--param 'count=abc': count is declared int`.
    public func values(_ params: [(name: String, value: String)], flag: String = "--param") throws -> [String: ShaderValue] {
        var values = defaults
        for (name, text) in params {
            guard let parameter = parameter(named: name) else {
                if ShaderTransition.reservedNames.contains(name) {
                    throw SegueError.invalidValue("\(flag) '\(name)': \(name) is set by Segue, not by a parameter")
                }
                let declared = parameters.isEmpty
                    ? "the shader declares no parameters"
                    : "the shader declares: " + parameters.map(\.signature).joined(separator: ", ")
                throw SegueError.invalidValue("unknown \(flag) '\(name)' (\(declared))")
            }
            guard let value = ShaderValue(parsing: text, as: parameter.type) else {
                throw SegueError.invalidValue("\(flag) '\(name)=\(text)': \(name) is declared \(parameter.type.rawValue)"
                                              + " (for example \(parameter.type.example))")
            }
            values[name] = value
        }
        return values
    }
}

extension ShaderType {
    /// How a value of this type may be written: `0.5`, `1,2 or vec2(1,2)`.
    public var example: String {
        switch self {
        case .float: return "0.5"
        case .int: return "3"
        case .bool: return "true or false"
        case .vec2: return "0.5,1 or vec2(0.5,1)"
        case .vec3: return "1,0.5,0 or vec3(1,0.5,0)"
        case .vec4: return "1,0.5,0,1 or vec4(1,0.5,0,1)"
        case .ivec2: return "4,3 or ivec2(4,3)"
        }
    }
}
