import CEGL

/// What the renderer's passes do alike with textures: make one to sample, and draw a whole target from one.
enum GLTextures {
    /// A new texture, bound to `GL_TEXTURE_2D`: bilinear, no mipmaps, held to its edge texels (as
    /// `sampleSnapshot` in draw-item.glsl and the CPU's bilinear sample it); its storage is the caller's.
    static func bilinear(_ ledger: GLObjectLedger) -> GLuint {
        let texture = ledger.generate(.texture, glGenTextures)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        return texture
    }

    /// A bilinear texture of `width` x `height` RGBA8 texels from `bytes` (its rows in the order given), left
    /// bound; deleted again, and the GL error thrown naming `what`, where the upload fails.
    static func upload(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int, what: String, ledger: GLObjectLedger) throws -> GLuint {
        var texture = bilinear(ledger)
        glTexStorage2D(GLenum(GL_TEXTURE_2D), 1, GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
        glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE),
                        bytes.baseAddress)
        do {
            try GLError.check("glTexSubImage2D(\(what), \(width)x\(height))")
        } catch {
            ledger.delete(.texture, &texture, glDeleteTextures)
            throw error
        }
        return texture
    }

    /// Draws the current program's quad over the bound framebuffer with `texture` on unit 0 and no blending,
    /// then unbinds the texture, so that the next frame, drawn into it, never reads it.
    static func drawReplacing(from texture: GLuint) {
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glDisable(GLenum(GL_BLEND))
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glEnable(GLenum(GL_BLEND))
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
    }
}
