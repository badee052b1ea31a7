import Foundation

extension ShaderTransition {
    /// Where parameter values come from, as messages name them: a caller's `name=value` assignments (the
    /// `parameter`, a reference a command line says as its flag), or a storyboard's `"params"`.
    public enum ParameterSource: Sendable, Equatable {
        case assignments
        case storyboard

        /// What a message calls a parameter of this source: `parameter 'count=abc': count is declared int`.
        var name: SegueError.Message {
            switch self {
            case .assignments: return "\(option: .parameter)"
            case .storyboard: return "params"
            }
        }

        /// How this source gives the sampler2D `name` an image.
        func givingImage(_ name: String) -> SegueError.Message {
            switch self {
            case .assignments: return "\(option: .parameter, value: "\(name)=FILE.png", "the parameter \(name)=FILE.png")"
            case .storyboard: return "params {\"\(name)\": \"FILE.png\"}"
            }
        }
    }

    /// The value of every parameter: its default, or what `assignments` (`name=value`)
    /// give. Throws a usage error naming the assignment and the parameter's declared type. A `sampler2D`'s
    /// value is an image file, read by `loadImage` (SegueCore decodes no files: SegueRender's
    /// `ShaderLibrary.image` does); every sampler must be given one.
    public func values(assigning assignments: [String], from source: ParameterSource = .assignments,
                       loadImage: ((String) throws -> Pixmap)? = nil) throws -> [String: ShaderValue] {
        try values(assignments.map { text in
            guard let eq = text.firstIndex(of: "="), eq != text.startIndex else {
                throw SegueError.invalidOption(text, of: name, value: text, "\(message: source.name) '\(text)' is not name=value")
            }
            return (String(text[..<eq]).trimmingCharacters(in: .whitespaces), String(text[text.index(after: eq)...]))
        }, from: source, loadImage: loadImage)
    }

    /// As `values(assigning:)` with the names and value texts apart (a storyboard's `"params"`); `source` names
    /// where they come from in messages: `parameter 'count=abc': count is declared int`.
    public func values(_ params: [(name: String, value: String)], from source: ParameterSource = .assignments,
                       loadImage: ((String) throws -> Pixmap)? = nil) throws -> [String: ShaderValue] {
        let said = source.name
        var values = defaults
        for (name, text) in params {
            guard let parameter = parameter(named: name) else {
                if ShaderTransition.reservedNames.contains(name) {
                    throw SegueError.invalidOption(name, of: self.name, value: text, "\(message: said) '\(name)': \(name) is set by Segue, not by a parameter")
                }
                let declared = parameters.isEmpty
                    ? "the shader declares no parameters"
                    : "the shader declares: " + parameters.map(\.signature).joined(separator: ", ")
                throw SegueError.invalidOption(name, of: self.name, value: text, "unknown \(message: said) '\(name)' (\(declared))")
            }
            if parameter.type == .sampler2D {
                guard let loadImage else {
                    throw SegueError.failed("\(message: said) '\(name)=\(text)': \(name) is a sampler2D, and no image can be read here")
                }
                do {
                    values[name] = ShaderValue(image: try loadImage(text))
                } catch {
                    throw SegueError(.inputUnreadable(path: text), "\(message: said) '\(name)=\(text)': cannot read the image of sampler2D \(name): \(message: SegueError.Message(describing: error))")
                }
                continue
            }
            guard let value = ShaderValue(parsing: text, as: parameter.type) else {
                let type = parameter.type
                throw SegueError.invalidOption(name, of: self.name, value: text,
                                               "\(message: said) '\(name)=\(text)': \(name) is declared \(type.rawValue) (for example \(type.example))")
            }
            values[name] = value
        }
        try checkImages(values, from: source)
        return values
    }

    /// Throws a usage error for the first `sampler2D` parameter `values` gives no image.
    public func checkImages(_ values: [String: ShaderValue], from source: ParameterSource = .assignments) throws {
        for parameter in parameters where parameter.type == .sampler2D && values[parameter.name]?.image == nil {
            throw SegueError.invalidOption(parameter.name, of: name, value: "",
                                           "\(parameter.name) is a sampler2D: give an image with \(message: source.givingImage(parameter.name))")
        }
    }

    @available(*, deprecated, renamed: "values(assigning:from:loadImage:)", message: "messages name the source, not a flag: `params` is .storyboard")
    public func values(assigning assignments: [String], flag: String,
                       loadImage: ((String) throws -> Pixmap)? = nil) throws -> [String: ShaderValue] {
        try values(assigning: assignments, from: flag == "params" ? .storyboard : .assignments, loadImage: loadImage)
    }

    @available(*, deprecated, renamed: "values(_:from:loadImage:)", message: "messages name the source, not a flag: `params` is .storyboard")
    public func values(_ params: [(name: String, value: String)], flag: String,
                       loadImage: ((String) throws -> Pixmap)? = nil) throws -> [String: ShaderValue] {
        try values(params, from: flag == "params" ? .storyboard : .assignments, loadImage: loadImage)
    }

    @available(*, deprecated, renamed: "checkImages(_:from:)", message: "messages name the source, not a flag: `params` is .storyboard")
    public func checkImages(_ values: [String: ShaderValue], flag: String) throws {
        try checkImages(values, from: flag == "params" ? .storyboard : .assignments)
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
