import CEGL

/// The offscreen framebuffer frames are drawn into: an FBO with one RGBA8 texture, reallocated when the frame
/// size changes. Row 0 of the texture is the frame's top row (the vertex stage does not flip). A texture, not a
/// renderbuffer, so a later pass can read the frame drawn (motion blur's sum, `ShutterAccumulator`).
final class RenderTarget {
    private(set) var width = 0
    private(set) var height = 0
    private var framebuffer: GLuint = 0
    /// The frame's pixels.
    private(set) var texture: GLuint = 0
    private let ledger: GLObjectLedger
    private let info: GLInfo

    init(ledger: GLObjectLedger, info: GLInfo) {
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
            glTexStorage2D(GLenum(GL_TEXTURE_2D), 1, GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
            glBindTexture(GLenum(GL_TEXTURE_2D), 0)
            try GLError.check("glTexStorage2D(GL_RGBA8, \(width)x\(height))")
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
