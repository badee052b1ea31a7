import CEGL
import SegueCore

/// A custom transition's program: `Shaders/transition.vert`, and as the fragment stage the preamble of the
/// file's dialect (`Shaders/transition.frag` for GLSL ES 3.00, `transition100.frag` for 1.00) followed by
/// `#line 1`, the transition's body, and `segue_initGlobals` (its globals' initialisers). Compiled once per
/// renderer and text.
final class TransitionProgram {
    private(set) var program: GLuint = 0
    /// The file's name, for messages.
    let name: String
    /// The file says `discard`: a discarded pixel keeps what the framebuffer held, so each frame is cleared to
    /// the background first (a pass over the frame, paid only by such files).
    let discards: Bool
    private let ledger: GLObjectLedger
    private let progress, ratio, frameSize, background: GLint
    private let parameters: [(ShaderParameter, GLint)]
    /// The `sampler2D` parameters, in the order their textures are bound: unit 2, 3, ... (after the snapshots).
    let samplers: [ShaderParameter]

    static let vertexFile = "transition.vert"
    static let preambleFile = "transition.frag"
    static let vertex100File = "transition100.vert"
    static let preamble100File = "transition100.frag"
    /// The location of `segue_corner`, the corners' attribute of the GLSL ES 1.00 vertex stage; -1 for 3.00,
    /// whose vertex stage makes the corners from gl_VertexID.
    private(set) var cornerAttribute: GLint = -1
    /// The quad's corners for `segue_corner`, in triangle-strip order.
    static let corners: [GLfloat] = [0, 0, 1, 0, 0, 1, 1, 1]
    /// The first texture unit of the `sampler2D` parameters: 0 and 1 hold the snapshots.
    static let firstSamplerUnit = 2

    init(_ transition: ShaderTransition, ledger: GLObjectLedger) throws {
        discards = transition.body.contains("discard")
        self.ledger = ledger
        name = transition.name
        // A program's stages share one GLSL version: the file's.
        let (vertexFile, preambleFile) = transition.isGLSL100 ? (Self.vertex100File, Self.preamble100File) : (Self.vertexFile, Self.preambleFile)
        guard let vertex = ShaderSources.text(of: vertexFile), let preamble = ShaderSources.text(of: preambleFile) else {
            throw GLError.invalidInput("ShaderSources lacks \(vertexFile) or \(preambleFile) (Sources/SegueGLES/ShaderSources.swift)")
        }
        let fragment = Self.fragmentSource(preamble: preamble, transition: transition)
        let program: GLuint
        do {
            program = try LayerProgram.link(vertex: (vertexFile, vertex), fragment: (transition.name, fragment), ledger: ledger)
        } catch let GLError.shaderCompile(file, log) where file == transition.name {
            // A global whose initialiser was taken out reads as uninitialised to the driver: not the file's fault.
            let moved = transition.globalInitializers.map { "`\($0.variable)' used uninitialized" }
            let messages = Self.messages(log, file: file).filter { line in !moved.contains { line.hasSuffix("warning: " + $0) } }
            throw GLError.transitionCompile(file: file, messages: messages)
        }
        self.program = program
        if transition.isGLSL100 { cornerAttribute = glGetAttribLocation(program, "segue_corner") }
        func at(_ name: String) -> GLint { glGetUniformLocation(program, name) }
        progress = at("progress"); ratio = at("ratio"); frameSize = at("segue_frameSize"); background = at("segue_background")
        parameters = transition.parameters.filter { $0.type != .sampler2D }.map { ($0, at($0.name)) }
        samplers = transition.parameters.filter { $0.type == .sampler2D }
        glUseProgram(program)
        glUniform1i(at("segue_from"), 0)
        glUniform1i(at("segue_to"), 1)
        for (k, sampler) in samplers.enumerated() {
            glUniform1i(at(sampler.name), GLint(Self.firstSamplerUnit + k))
        }
        try GLError.check("glUseProgram(\(transition.name))")
    }

    /// The fragment stage: the preamble, then the file from its line 1, then `segue_initGlobals`, each of
    /// its assignments marked with its line in the file.
    static func fragmentSource(preamble: String, transition: ShaderTransition) -> String {
        var text = preamble + (preamble.hasSuffix("\n") ? "" : "\n") + "#line 1\n" + transition.body + "\n"
        text += "void segue_initGlobals() {\n"
        for initializer in transition.globalInitializers {
            text += "#line \(initializer.line)\n\(initializer.assignment)\n"
        }
        return text + "}\n"
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
            case .sampler2D: break  // bound to its unit when compiled
            }
        }
    }

    /// Draws the quad over the frame.
    func drawQuad() {
        guard cornerAttribute >= 0 else {
            glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
            return
        }
        // A client-side array (no vertex array object is bound): read during the call.
        let location = GLuint(cornerAttribute)
        Self.corners.withUnsafeBytes { corners in
            glEnableVertexAttribArray(location)
            glVertexAttribPointer(location, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, corners.baseAddress)
            glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
            glDisableVertexAttribArray(location)
        }
    }

    func delete() {
        ledger.delete(.program, &program) { _, name in glDeleteProgram(name.pointee) }
    }
}
