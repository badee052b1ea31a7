import Foundation

extension ShaderTransition {
    /// The value of every parameter: its default, or what `assignments` (`name=value`)
    /// give. Throws a usage error naming the assignment and the parameter's declared type. A `sampler2D`'s
    /// value is an image file, read by `loadImage` (SegueCore decodes no files: SegueRender's
    /// `ShaderLibrary.image` does); every sampler must be given one.
    public func values(assigning assignments: [String], flag: String = "parameter",
                       loadImage: ((String) throws -> Pixmap)? = nil) throws -> [String: ShaderValue] {
        try values(assignments.map { text in
            guard let eq = text.firstIndex(of: "="), eq != text.startIndex else {
                throw SegueError.invalidOption(text, of: name, value: text, "\(flag) '\(text)' is not name=value")
            }
            return (String(text[..<eq]).trimmingCharacters(in: .whitespaces), String(text[text.index(after: eq)...]))
        }, flag: flag, loadImage: loadImage)
    }

    /// As `values(assigning:)` with the names and value texts apart (a storyboard's `"params"`); `flag` names
    /// where they come from in messages: `parameter 'count=abc': count is declared int`.
    public func values(_ params: [(name: String, value: String)], flag: String = "parameter",
                       loadImage: ((String) throws -> Pixmap)? = nil) throws -> [String: ShaderValue] {
        var values = defaults
        for (name, text) in params {
            guard let parameter = parameter(named: name) else {
                if ShaderTransition.reservedNames.contains(name) {
                    throw SegueError.invalidOption(name, of: self.name, value: text, "\(flag) '\(name)': \(name) is set by Segue, not by a parameter")
                }
                let declared = parameters.isEmpty
                    ? "the shader declares no parameters"
                    : "the shader declares: " + parameters.map(\.signature).joined(separator: ", ")
                throw SegueError.invalidOption(name, of: self.name, value: text, "unknown \(flag) '\(name)' (\(declared))")
            }
            if parameter.type == .sampler2D {
                guard let loadImage else {
                    throw SegueError.failed("\(flag) '\(name)=\(text)': \(name) is a sampler2D, and no image can be read here")
                }
                do {
                    values[name] = ShaderValue(image: try loadImage(text))
                } catch {
                    throw SegueError(.inputUnreadable(path: text), "\(flag) '\(name)=\(text)': cannot read the image of sampler2D \(name): \(error)")
                }
                continue
            }
            guard let value = ShaderValue(parsing: text, as: parameter.type) else {
                throw SegueError.invalidOption(name, of: self.name, value: text, "\(flag) '\(name)=\(text)': \(name) is declared \(parameter.type.rawValue)"
                                              + " (for example \(parameter.type.example))")
            }
            values[name] = value
        }
        try checkImages(values, flag: flag)
        return values
    }

    /// Throws a usage error for the first `sampler2D` parameter `values` gives no image.
    public func checkImages(_ values: [String: ShaderValue], flag: String = "parameter") throws {
        for parameter in parameters where parameter.type == .sampler2D && values[parameter.name]?.image == nil {
            let how = flag.hasPrefix("-") ? "\(flag) \(parameter.name)=FILE.png"
                : flag == "params" ? "\(flag) {\"\(parameter.name)\": \"FILE.png\"}" : "the \(flag) \(parameter.name)=FILE.png"
            throw SegueError.invalidOption(parameter.name, of: name, value: "", "\(parameter.name) is a sampler2D: give an image with \(how)")
        }
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
        case .sampler2D: return "FILE.png or FILE.jpg"
        }
    }
}
