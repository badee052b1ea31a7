import CEGL
import SegueCore

/// One variant of the layer program (`Shaders/layer.vert` + `Shaders/layer.frag` with a `LayerVariant`'s
/// switches), compiled once per renderer when an item first needs it, and how an item becomes its uniforms.
final class LayerProgram {
    private(set) var program: GLuint = 0
    private let ledger: GLObjectLedger
    private let u: Uniforms

    /// Uniform locations, looked up once: the quad's, and each field of the record's (`uItem.<field>`, in
    /// `DrawItemRecord.fields`' order; -1 where the variant does not read it, which GL ignores).
    private struct Uniforms {
        var bounds, frameSize, snapshot: GLint
        var fields: [(location: GLint, type: DrawItemRecord.FieldType, offset: Int)]

        init(_ program: GLuint) {
            func at(_ name: String) -> GLint { glGetUniformLocation(program, name) }
            bounds = at("uBounds"); frameSize = at("uFrameSize"); snapshot = at("uSnapshot")
            fields = DrawItemRecord.fields.map { (at("uItem.\($0.name)"), $0.type, $0.offset) }
        }
    }

    static let vertexFile = "layer.vert"
    static let fragmentFile = "layer.frag"

    /// Compiles and links `variant` from the sources built into the binary (or links the driver's binary of it
    /// kept in `binaries`).
    init(_ variant: LayerVariant, ledger: GLObjectLedger, binaries: ProgramBinaries? = nil) throws {
        self.ledger = ledger
        guard let vertexText = ShaderSources.text(of: Self.vertexFile),
              let fragmentText = ShaderSources.text(of: Self.fragmentFile, defines: variant.defines) else {
            throw GLError.invalidInput("ShaderSources lacks \(Self.vertexFile) or \(Self.fragmentFile) (Sources/SegueGLES/ShaderSources.swift)")
        }
        program = try Self.link(vertex: (Self.vertexFile, vertexText),
                                fragment: ("\(Self.fragmentFile) (\(variant))", fragmentText), ledger: ledger, binaries: binaries)
        u = Uniforms(program)
        glUseProgram(program)
        glUniform1i(u.snapshot, 0)
        try GLError.check("glUseProgram(layer)")
    }

    /// Compiles one shader stage; a failure carries the file name and the info log.
    static func compile(_ type: Int32, file: String, source: String, ledger: GLObjectLedger) throws -> GLuint {
        var shader = glCreateShader(GLenum(type))
        guard shader != 0 else { throw GLError.call("glCreateShader(\(file))", code: glGetError()) }
        ledger.created(.shader)
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        var status: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &status)
        guard status == GL_TRUE else {
            let log = infoLog(shader, glGetShaderiv, glGetShaderInfoLog)
            ledger.delete(.shader, &shader) { _, name in glDeleteShader(name.pointee) }
            throw GLError.shaderCompile(file: file, log: log)
        }
        return shader
    }

    /// Compiles both stages and links them; the shaders are deleted once linked.
    static func link(vertex: (String, String), fragment: (String, String), ledger: GLObjectLedger,
                     binaries: ProgramBinaries? = nil) throws -> GLuint {
        try link([(GL_VERTEX_SHADER, vertex.0, vertex.1), (GL_FRAGMENT_SHADER, fragment.0, fragment.1)], ledger: ledger, binaries: binaries)
    }

    /// Compiles a compute shader and links it alone (GLES 3.1); the shader is deleted once linked.
    static func link(compute: (String, String), ledger: GLObjectLedger, binaries: ProgramBinaries? = nil) throws -> GLuint {
        try link([(GL_COMPUTE_SHADER, compute.0, compute.1)], ledger: ledger, binaries: binaries)
    }

    /// Compiles each stage (a failure deletes the ones compiled before it) and links them into one program;
    /// the shaders are deleted once linked, and a failed link names every stage's file. With `binaries`, the
    /// driver's binary kept for the same stages is linked instead where there is one, and the binary of a
    /// program compiled here is kept.
    private static func link(_ stages: [(type: Int32, file: String, source: String)], ledger: GLObjectLedger,
                             binaries: ProgramBinaries?) throws -> GLuint {
        let key = binaries?.key(stages.map { ($0.type, $0.source) })
        if let binaries, let key, let program = binaries.program(for: key, ledger: ledger) { return program }
        var shaders: [GLuint] = []
        func deleteShaders() {
            for k in shaders.indices { ledger.delete(.shader, &shaders[k]) { _, name in glDeleteShader(name.pointee) } }
        }
        do {
            for stage in stages { shaders.append(try compile(stage.type, file: stage.file, source: stage.source, ledger: ledger)) }
        } catch {
            deleteShaders()
            throw error
        }
        var program = glCreateProgram()
        ledger.created(.program)
        for shader in shaders { glAttachShader(program, shader) }
        if binaries != nil { glProgramParameteri(program, GLenum(GL_PROGRAM_BINARY_RETRIEVABLE_HINT), GL_TRUE) }
        glLinkProgram(program)
        deleteShaders()
        var status: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &status)
        guard status == GL_TRUE else {
            let log = infoLog(program, glGetProgramiv, glGetProgramInfoLog)
            ledger.delete(.program, &program) { _, name in glDeleteProgram(name.pointee) }
            throw GLError.programLink(files: stages.map(\.file), log: log)
        }
        if let binaries, let key { binaries.keep(program, for: key) }
        return program
    }

    private static func infoLog(_ object: GLuint,
                                _ get: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
                                _ read: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) -> Void) -> String {
        var length: GLint = 0
        get(object, GLenum(GL_INFO_LOG_LENGTH), &length)
        guard length > 0 else { return "(no info log)" }
        var buffer = [GLchar](repeating: 0, count: Int(length) + 1)
        read(object, GLsizei(buffer.count), nil, &buffer)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Makes the program current for a frame of `width` x `height` pixels (the frame size is set each time:
    /// a frame may draw with several variants).
    func use(width: Int, height: Int) {
        glUseProgram(program)
        glUniform2f(u.frameSize, GLfloat(width), GLfloat(height))
    }

    /// Sets the uniforms of one item from its record, field by field; `texture(id)` names the snapshot's texture.
    func set(_ item: DrawItem, texture: (SnapshotID) throws -> GLuint) throws {
        let record = item.record
        let b = record.bounds
        glUniform4f(u.bounds, GLfloat(b.x), GLfloat(b.y), GLfloat(b.z), GLfloat(b.w))
        if case let .snapshot(id, _) = item.source {
            glActiveTexture(GLenum(GL_TEXTURE0))
            glBindTexture(GLenum(GL_TEXTURE_2D), try texture(id))
        }
        withUnsafeBytes(of: record) { bytes in
            for field in u.fields where field.location >= 0 {
                let at = bytes.baseAddress! + field.offset
                switch field.type {
                case .ivec4: glUniform4iv(field.location, 1, at.assumingMemoryBound(to: GLint.self))
                case .vec4: glUniform4fv(field.location, 1, at.assumingMemoryBound(to: GLfloat.self))
                }
            }
        }
    }

    /// Draws the item's quad less `hole` (whole pixels an opaque item above overwrites): up to four
    /// rectangles, each its own quad; the fragment stage is the same for every pixel drawn.
    func drawQuad(_ item: DrawItem, less hole: PixelBounds?) {
        let b = item.record.bounds
        let quad = PixelBounds(x0: Int(b.x), y0: Int(b.y), x1: Int(b.z), y1: Int(b.w))
        guard let hole, case let cut = quad.intersection(hole), !cut.isEmpty else {
            glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
            return
        }
        let pieces = [PixelBounds(x0: quad.x0, y0: quad.y0, x1: quad.x1, y1: cut.y0),
                      PixelBounds(x0: quad.x0, y0: cut.y1, x1: quad.x1, y1: quad.y1),
                      PixelBounds(x0: quad.x0, y0: cut.y0, x1: cut.x0, y1: cut.y1),
                      PixelBounds(x0: cut.x1, y0: cut.y0, x1: quad.x1, y1: cut.y1)]
        for piece in pieces where !piece.isEmpty {
            glUniform4f(u.bounds, GLfloat(piece.x0), GLfloat(piece.y0), GLfloat(piece.x1), GLfloat(piece.y1))
            glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        }
    }

    func delete() {
        ledger.delete(.program, &program) { _, name in glDeleteProgram(name.pointee) }
    }
}
