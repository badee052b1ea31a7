import CEGL
import SegueCore

/// One variant of the layer program (`Shaders/layer.vert` + `Shaders/layer.frag` with a `LayerVariant`'s
/// switches), compiled once per renderer when an item first needs it, and how an item becomes its uniforms.
final class LayerProgram {
    private(set) var program: GLuint = 0
    private let ledger: GLObjectLedger
    private let u: Uniforms

    /// Uniform locations, looked up once.
    private struct Uniforms {
        var bounds, frameSize, pixelToLocal, size, inverseGradients: GLint
        var color, snapshot, texelOrigin, texelScale, clampMin, clampMax, inverseTextureSize: GLint
        var mask, maskRadius, maskEnd, blur: GLint
        var gradient, overlayStart, overlayEnd: GLint
        var opacity, blitOffset: GLint

        init(_ program: GLuint) {
            func at(_ name: String) -> GLint { glGetUniformLocation(program, name) }
            bounds = at("uBounds"); frameSize = at("uFrameSize"); pixelToLocal = at("uPixelToLocal"); size = at("uSize")
            inverseGradients = at("uInverseGradients"); color = at("uColor"); snapshot = at("uSnapshot")
            texelOrigin = at("uTexelOrigin"); texelScale = at("uTexelScale")
            clampMin = at("uClampMin"); clampMax = at("uClampMax"); inverseTextureSize = at("uInverseTextureSize")
            mask = at("uMask"); maskRadius = at("uMaskRadius"); maskEnd = at("uMaskEnd"); blur = at("uBlur")
            gradient = at("uGradient")
            overlayStart = at("uOverlayStart"); overlayEnd = at("uOverlayEnd")
            opacity = at("uOpacity"); blitOffset = at("uBlitOffset")
        }
    }

    static let vertexFile = "layer.vert"
    static let fragmentFile = "layer.frag"

    /// Compiles and links `variant` from the sources built into the binary.
    init(_ variant: LayerVariant, ledger: GLObjectLedger) throws {
        self.ledger = ledger
        guard let vertexText = ShaderSources.text(of: Self.vertexFile),
              let fragmentText = ShaderSources.text(of: Self.fragmentFile) else {
            throw GLError.invalidInput("ShaderSources lacks \(Self.vertexFile) or \(Self.fragmentFile) (Sources/SegueGLES/ShaderSources.swift)")
        }
        program = try Self.link(vertex: (Self.vertexFile, vertexText),
                                fragment: ("\(Self.fragmentFile) (\(variant))", variant.apply(to: fragmentText)), ledger: ledger)
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
    static func link(vertex: (String, String), fragment: (String, String), ledger: GLObjectLedger) throws -> GLuint {
        try link([(GL_VERTEX_SHADER, vertex.0, vertex.1), (GL_FRAGMENT_SHADER, fragment.0, fragment.1)], ledger: ledger)
    }

    /// Compiles a compute shader and links it alone (GLES 3.1); the shader is deleted once linked.
    static func link(compute: (String, String), ledger: GLObjectLedger) throws -> GLuint {
        try link([(GL_COMPUTE_SHADER, compute.0, compute.1)], ledger: ledger)
    }

    /// Compiles each stage (a failure deletes the ones compiled before it) and links them into one program;
    /// the shaders are deleted once linked, and a failed link names every stage's file.
    private static func link(_ stages: [(type: Int32, file: String, source: String)], ledger: GLObjectLedger) throws -> GLuint {
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
        glLinkProgram(program)
        deleteShaders()
        var status: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &status)
        guard status == GL_TRUE else {
            let log = infoLog(program, glGetProgramiv, glGetProgramInfoLog)
            ledger.delete(.program, &program) { _, name in glDeleteProgram(name.pointee) }
            throw GLError.programLink(files: stages.map(\.file), log: log)
        }
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

    /// Sets the uniforms of one item; `texture(id)` names the snapshot's texture.
    func set(_ item: DrawItem, texture: (SnapshotID) throws -> GLuint) throws {
        if let blit = item.blit, case let .snapshot(id, _) = item.source {
            // The quad is the blit's rectangle; nothing else of the item shows.
            let r = blit.rect
            glUniform4f(u.bounds, GLfloat(r.x0), GLfloat(r.y0), GLfloat(r.x1), GLfloat(r.y1))
            glActiveTexture(GLenum(GL_TEXTURE0))
            glBindTexture(GLenum(GL_TEXTURE_2D), try texture(id))
            glUniform2i(u.blitOffset, GLint(blit.dx), GLint(blit.dy))
            glUniform1f(u.opacity, GLfloat(item.opacity))
            return
        }
        let b = item.bounds
        glUniform4f(u.bounds, GLfloat(b.x0), GLfloat(b.y0), GLfloat(b.x1), GLfloat(b.y1))
        let matrix = item.pixelToLocal.rowMajor.map { GLfloat($0) }
        glUniformMatrix3fv(u.pixelToLocal, 1, GLboolean(GL_FALSE), matrix)
        glUniform2f(u.size, GLfloat(item.size.width), GLfloat(item.size.height))
        let m = item.pixelToLocal
        glUniform2f(u.inverseGradients, GLfloat(1 / (m.a * m.a + m.d * m.d).squareRoot()),
                    GLfloat(1 / (m.b * m.b + m.e * m.e).squareRoot()))

        switch item.source {
        case let .color(r, g, b, a):
            glUniform4f(u.color, GLfloat(r), GLfloat(g), GLfloat(b), GLfloat(a))
        case let .snapshot(id, map):
            glActiveTexture(GLenum(GL_TEXTURE0))
            glBindTexture(GLenum(GL_TEXTURE_2D), try texture(id))
            glUniform2f(u.texelOrigin, GLfloat(map.origin.x), GLfloat(map.origin.y))
            glUniform2f(u.texelScale, GLfloat(map.scale.x), GLfloat(map.scale.y))
            glUniform2f(u.clampMin, GLfloat(map.clampMin.x), GLfloat(map.clampMin.y))
            glUniform2f(u.clampMax, GLfloat(map.clampMax.x), GLfloat(map.clampMax.y))
            glUniform2f(u.inverseTextureSize, 1 / GLfloat(max(1, map.textureWidth)), 1 / GLfloat(max(1, map.textureHeight)))
        }

        switch item.mask {
        case nil:
            break
        case let .circle(center, radius)?:
            glUniform4f(u.mask, GLfloat(center.x), GLfloat(center.y), GLfloat(radius), 0)
        case let .roundedRect(rect, radius)?:
            glUniform4f(u.mask, GLfloat(rect.x), GLfloat(rect.y), GLfloat(rect.width), GLfloat(rect.height))
            glUniform1f(u.maskRadius, GLfloat(radius))
        case let .sector(center, startAngle, sweep)?:
            let rays = Mask.sectorRays(startAngle: startAngle, sweep: sweep)
            glUniform4f(u.mask, GLfloat(center.x), GLfloat(center.y), GLfloat(rays.start.x), GLfloat(rays.start.y))
            glUniform3f(u.maskEnd, GLfloat(rays.end.x), GLfloat(rays.end.y), rays.isReflex ? 1 : 0)
        case let .continuousRect(rect, radius)?:
            glUniform4f(u.mask, GLfloat(rect.x), GLfloat(rect.y), GLfloat(rect.width), GLfloat(rect.height))
            glUniform1f(u.maskRadius, GLfloat(radius * Mask.continuousReach))
            glUniform3f(u.maskEnd, GLfloat(Mask.continuousExponent), 0, 0)
        case let .blurred(rect, radius, sigma)?:
            let shape = Mask.blurShape(rect, radius: radius, sigma: sigma)
            glUniform4f(u.mask, GLfloat(shape.center.x), GLfloat(shape.center.y), GLfloat(shape.halfWidth), GLfloat(shape.halfHeight))
            glUniform1f(u.maskRadius, GLfloat(shape.cornerRadius))
            glUniform3f(u.maskEnd, GLfloat(shape.inverseScale), GLfloat(shape.exponent), GLfloat(1 / shape.exponent))
            glUniform2f(u.blur, GLfloat(shape.peak), GLfloat(shape.minEdge))
        }

        if let o = item.overlay {
            glUniform3f(u.gradient, GLfloat(o.gradient.x), GLfloat(o.gradient.y), GLfloat(o.gradient.z))
            glUniform4f(u.overlayStart, GLfloat(o.start.0), GLfloat(o.start.1), GLfloat(o.start.2), GLfloat(o.start.3))
            glUniform4f(u.overlayEnd, GLfloat(o.end.0), GLfloat(o.end.1), GLfloat(o.end.2), GLfloat(o.end.3))
        }
        glUniform1f(u.opacity, GLfloat(item.opacity))
    }

    /// Draws the item's quad less `hole` (whole pixels an opaque item above overwrites): up to four
    /// rectangles, each its own quad; the fragment stage is the same for every pixel drawn.
    func drawQuad(_ item: DrawItem, less hole: PixelBounds?) {
        let quad = item.blit?.rect ?? item.bounds
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
