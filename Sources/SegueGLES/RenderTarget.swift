import CEGL

/// An offscreen framebuffer: an FBO with one texture, reallocated when the frame size changes. Frames are drawn
/// into an RGBA8 one; motion blur sums into a 32-bit float one (`ShutterAccumulator`). Row 0 of the texture is
/// the frame's top row (the vertex stage does not flip). A texture, not a renderbuffer, so a later pass can
/// read what was drawn.
final class RenderTarget {
    private(set) var width = 0
    private(set) var height = 0
    private var framebuffer: GLuint = 0
    /// The pixels drawn.
    private(set) var texture: GLuint = 0
    /// The texture's sized internal format: `GL_RGBA8`, `GL_RGBA32F`.
    private let format: Int32
    private let ledger: GLObjectLedger
    private let info: GLInfo

    init(format: Int32 = GL_RGBA8, ledger: GLObjectLedger, info: GLInfo) {
        self.format = format
        self.ledger = ledger
        self.info = info
    }

    /// Throws when a `width` x `height` frame is over the texture or viewport limits.
    static func checkLimits(width: Int, height: Int, info: GLInfo) throws {
        let what = "frame \(width)x\(height)"
        if max(width, height) > info.maxTextureSize {
            throw GLError.limitExceeded(what: what, limit: "GL_MAX_TEXTURE_SIZE", value: info.maxTextureSize)
        }
        if width > info.maxViewportWidth {
            throw GLError.limitExceeded(what: what, limit: "GL_MAX_VIEWPORT_DIMS width", value: info.maxViewportWidth)
        }
        if height > info.maxViewportHeight {
            throw GLError.limitExceeded(what: what, limit: "GL_MAX_VIEWPORT_DIMS height", value: info.maxViewportHeight)
        }
    }

    /// Binds the framebuffer for a `width` x `height` frame, (re)allocating it when the size changed.
    func bind(width: Int, height: Int) throws {
        if width != self.width || height != self.height || framebuffer == 0 {
            try Self.checkLimits(width: width, height: height, info: info)
            delete()
            framebuffer = ledger.generate(.framebuffer, glGenFramebuffers)
            texture = ledger.generate(.texture, glGenTextures)
            glBindTexture(GLenum(GL_TEXTURE_2D), texture)
            glTexStorage2D(GLenum(GL_TEXTURE_2D), 1, GLenum(format), GLsizei(width), GLsizei(height))
            glBindTexture(GLenum(GL_TEXTURE_2D), 0)
            try GLError.check("glTexStorage2D(\(format == GL_RGBA8 ? "GL_RGBA8" : "format 0x\(String(format, radix: 16))"), \(width)x\(height))")
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
            glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
            let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
            guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
                delete()
                throw GLError.framebufferIncomplete(status: status)
            }
            self.width = width
            self.height = height
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glViewport(0, 0, GLsizei(width), GLsizei(height))
    }

    func delete() {
        if framebuffer != 0 { glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0) }
        ledger.delete(.framebuffer, &framebuffer, glDeleteFramebuffers)
        ledger.delete(.texture, &texture, glDeleteTextures)
        width = 0
        height = 0
    }
}
