import CEGL
import SegueCore

/// A custom transition's program: `Shaders/transition.vert`, and `Shaders/transition.frag` followed by
/// `#line 1` and the transition file's text as the fragment stage. Compiled once per renderer and text.
final class TransitionProgram {
    private(set) var program: GLuint = 0
    /// The file's name, for messages.
    let name: String
    private let ledger: GLObjectLedger
    private let progress, ratio, frameSize, background: GLint
    private let parameters: [(ShaderParameter, GLint)]

    static let vertexFile = "transition.vert"
    static let preambleFile = "transition.frag"

    init(_ transition: ShaderTransition, ledger: GLObjectLedger) throws {
        self.ledger = ledger
        name = transition.name
        guard let vertex = ShaderSources.text(of: Self.vertexFile), let preamble = ShaderSources.text(of: Self.preambleFile) else {
            throw GLError.invalidInput("ShaderSources lacks \(Self.vertexFile) or \(Self.preambleFile) (Sources/SegueGLES/ShaderSources.swift)")
        }
        let fragment = Self.fragmentSource(preamble: preamble, body: transition.body)
        let program: GLuint
        do {
            program = try LayerProgram.link(vertex: (Self.vertexFile, vertex), fragment: (transition.name, fragment), ledger: ledger)
        } catch let GLError.shaderCompile(file, log) where file == transition.name {
            throw GLError.transitionCompile(file: file, messages: Self.messages(log, file: file))
        }
        self.program = program
        func at(_ name: String) -> GLint { glGetUniformLocation(program, name) }
        progress = at("progress"); ratio = at("ratio"); frameSize = at("segue_frameSize"); background = at("segue_background")
        parameters = transition.parameters.map { ($0, at($0.name)) }
        glUseProgram(program)
        glUniform1i(at("segue_from"), 0)
        glUniform1i(at("segue_to"), 1)
        try GLError.check("glUseProgram(\(transition.name))")
    }

    /// The fragment stage: the preamble, then the file from its line 1.
    static func fragmentSource(preamble: String, body: String) -> String {
        preamble + (preamble.hasSuffix("\n") ? "" : "\n") + "#line 1\n" + body + "\n"
    }

    /// The driver's info log as `FILE:LINE: message` lines. Mesa writes `0:7(12): error: ...`, others
    /// `ERROR: 0:7: ...`; a line of neither form is kept, after `FILE: `.
    static func messages(_ log: String, file: String) -> [String] {
        log.split(whereSeparator: \.isNewline).compactMap { raw -> String? in
            var line = Substring(String(raw).trimmingSpaces)
            guard !line.isEmpty else { return nil }
            var severity = ""
            for prefix in ["ERROR: ", "WARNING: "] where line.hasPrefix(prefix) {
                severity = prefix.dropLast(2).lowercased() + ": "
                line = line.dropFirst(prefix.count)
            }
            // source:line, then (column) or nothing, then ':'.
            let source = line.prefix(while: \.isNumber)
            var rest = line.dropFirst(source.count)
            guard !source.isEmpty, rest.first == ":" else { return "\(file): \(severity)\(line)" }
            rest = rest.dropFirst()
            let number = rest.prefix(while: \.isNumber)
            guard !number.isEmpty else { return "\(file): \(severity)\(line)" }
            rest = rest.dropFirst(number.count)
            var column = ""
            if rest.first == "(", let close = rest.firstIndex(of: ")") {
                column = ":" + rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
            }
            guard rest.first == ":" else { return "\(file): \(severity)\(line)" }
            return "\(file):\(number)\(column): \(severity)\(String(rest.dropFirst()).trimmingSpaces)"
        }
    }

    /// Makes the program current and sets its uniforms for one frame.
    func use(values: [String: ShaderValue], progress p: Double, width: Int, height: Int, background bg: UInt32) {
        glUseProgram(program)
        glUniform1f(progress, GLfloat(p))
        glUniform1f(ratio, GLfloat(Double(width) / Double(height)))
        glUniform2f(frameSize, GLfloat(width), GLfloat(height))
        func channel(_ shift: UInt32) -> GLfloat { GLfloat((bg >> shift) & 0xFF) / 255 }
        glUniform4f(background, channel(0), channel(8), channel(16), channel(24))
        for (parameter, location) in parameters where location >= 0 {
            let v = values[parameter.name] ?? parameter.defaultValue
            let f = v.components.map { GLfloat($0) }, i = v.components.map { GLint($0) }
            switch v.type {
            case .float: glUniform1f(location, f[0])
            case .int, .bool: glUniform1i(location, i[0])
            case .vec2: glUniform2f(location, f[0], f[1])
            case .vec3: glUniform3f(location, f[0], f[1], f[2])
            case .vec4: glUniform4f(location, f[0], f[1], f[2], f[3])
            case .ivec2: glUniform2i(location, i[0], i[1])
            }
        }
    }

    func delete() {
        ledger.delete(.program, &program) { _, name in glDeleteProgram(name.pointee) }
    }
}
