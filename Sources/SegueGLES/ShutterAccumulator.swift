import CEGL

/// Motion blur on the GPU: a frame's shutter samples summed in a 32-bit float framebuffer, then their mean
/// drawn back into the render target, so a blurred frame is read back once, not once a sample. Each sample is
/// drawn into the render target as any frame is, then added to the sum as whole levels
/// (`Shaders/shutter-sum.frag`); the mean is rounded once, as `FrameAccumulator` rounds
/// (`Shaders/shutter-mean.frag`): the same bytes as summing the samples' read-backs on the CPU.
///
/// Needs `GL_EXT_color_buffer_float` (a float framebuffer) and `GL_EXT_float_blend` (blending into it); a
/// context without them accumulates on the CPU (`isAvailable`).
final class ShutterAccumulator {
    static let requiredExtensions = ["GL_EXT_color_buffer_float", "GL_EXT_float_blend"]
    static let vertexFile = "transition.vert"
    static let sumFile = "shutter-sum.frag"
    static let meanFile = "shutter-mean.frag"

    private let ledger: GLObjectLedger
    /// The sum, a 32-bit float texture.
    private let sum: RenderTarget
    private var sumProgram: GLuint = 0
    private var meanProgram: GLuint = 0
    private var countUniform: GLint = -1
    /// Samples added since `begin`.
    private(set) var count = 0

    init(ledger: GLObjectLedger, info: GLInfo) {
        self.ledger = ledger
        sum = RenderTarget(format: GL_RGBA32F, ledger: ledger, info: info)
    }

    /// Whether the current context can sum in a float framebuffer (its extension strings).
    static func isAvailable() -> Bool {
        var n: GLint = 0
        glGetIntegerv(GLenum(GL_NUM_EXTENSIONS), &n)
        let names = Set((0..<GLuint(max(n, 0))).compactMap { k in
            glGetStringi(GLenum(GL_EXTENSIONS), k).map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
        })
        return requiredExtensions.allSatisfy(names.contains)
    }

    /// Starts a sum of `width` x `height` frames at zero (allocating its framebuffer, and the programs the first
    /// time).
    func begin(width: Int, height: Int) throws {
        if sumProgram == 0 {
            guard let vertex = ShaderSources.text(of: Self.vertexFile), let sumText = ShaderSources.text(of: Self.sumFile),
                  let meanText = ShaderSources.text(of: Self.meanFile) else {
                throw GLError.invalidInput("ShaderSources lacks \(Self.vertexFile), \(Self.sumFile) or \(Self.meanFile)")
            }
            sumProgram = try LayerProgram.link(vertex: (Self.vertexFile, vertex), fragment: (Self.sumFile, sumText), ledger: ledger)
            meanProgram = try LayerProgram.link(vertex: (Self.vertexFile, vertex), fragment: (Self.meanFile, meanText), ledger: ledger)
            glUseProgram(sumProgram)
            glUniform1i(glGetUniformLocation(sumProgram, "uSample"), 0)
            glUseProgram(meanProgram)
            glUniform1i(glGetUniformLocation(meanProgram, "uSum"), 0)
            countUniform = glGetUniformLocation(meanProgram, "uCount")
            try GLError.check("glUseProgram(\(Self.meanFile))")
        }
        try sum.bind(width: width, height: height)
        glClearColor(0, 0, 0, 0)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        count = 0
    }

    /// Adds the frame in `sample` (an RGBA8 texture of the size given to `begin`) to the sum.
    func add(_ sample: GLuint) throws {
        try sum.bind(width: sum.width, height: sum.height)
        glUseProgram(sumProgram)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), sample)
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE))
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        // Unbound, so the next sample, drawn into that texture, never reads it.
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        try GLError.check("glDrawArrays(\(Self.sumFile))")
        count += 1
    }

    /// Draws the mean of the samples added into the bound framebuffer (the render target, at the same size).
    func drawMean() throws {
        glUseProgram(meanProgram)
        glUniform1f(countUniform, GLfloat(max(count, 1)))
        GLTextures.drawReplacing(from: sum.texture)
        try GLError.check("glDrawArrays(\(Self.meanFile))")
    }

    func delete() {
        sum.delete()
        ledger.delete(.program, &sumProgram) { _, name in glDeleteProgram(name.pointee) }
        ledger.delete(.program, &meanProgram) { _, name in glDeleteProgram(name.pointee) }
    }
}
