import CEGL

/// What a context runs on and its limits, read once it is current.
public struct GLInfo: Sendable, Equatable, CustomStringConvertible {
    /// `EGL_VENDOR` and `EGL_VERSION` of the display.
    public var eglVendor: String
    public var eglVersion: String
    /// `GL_RENDERER` (`llvmpipe (LLVM 15.0.6, 256 bits)`) and `GL_VERSION`.
    public var renderer: String
    public var version: String
    public var maxTextureSize: Int
    public var maxRenderbufferSize: Int
    /// `GL_MAX_VIEWPORT_DIMS`.
    public var maxViewportWidth: Int
    public var maxViewportHeight: Int

    /// Reads the strings and limits of the display and the current context.
    init(display: EGLDisplay) {
        func egl(_ name: Int32) -> String { eglQueryString(display, name).map { String(cString: $0) } ?? "?" }
        func gl(_ name: Int32) -> String {
            glGetString(GLenum(name)).map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) } ?? "?"
        }
        func integer(_ name: Int32) -> Int {
            var v: GLint = 0
            glGetIntegerv(GLenum(name), &v)
            return Int(v)
        }
        var dims: [GLint] = [0, 0]
        glGetIntegerv(GLenum(GL_MAX_VIEWPORT_DIMS), &dims)
        self.init(eglVendor: egl(EGL_VENDOR), eglVersion: egl(EGL_VERSION), renderer: gl(GL_RENDERER),
                  version: gl(GL_VERSION), maxTextureSize: integer(GL_MAX_TEXTURE_SIZE),
                  maxRenderbufferSize: integer(GL_MAX_RENDERBUFFER_SIZE),
                  maxViewportWidth: Int(dims[0]), maxViewportHeight: Int(dims[1]))
    }

    public init(eglVendor: String, eglVersion: String, renderer: String, version: String, maxTextureSize: Int,
                maxRenderbufferSize: Int, maxViewportWidth: Int, maxViewportHeight: Int) {
        self.eglVendor = eglVendor; self.eglVersion = eglVersion
        self.renderer = renderer; self.version = version
        self.maxTextureSize = maxTextureSize; self.maxRenderbufferSize = maxRenderbufferSize
        self.maxViewportWidth = maxViewportWidth; self.maxViewportHeight = maxViewportHeight
    }

    /// `EGL 1.5 (Mesa Project); llvmpipe (LLVM 15.0.6, 256 bits); OpenGL ES 3.2 Mesa 22.3.6; GL_MAX_TEXTURE_SIZE 16384; ...`
    public var description: String {
        "EGL \(eglVersion) (\(eglVendor)); \(renderer); \(version); GL_MAX_TEXTURE_SIZE \(maxTextureSize); "
            + "GL_MAX_RENDERBUFFER_SIZE \(maxRenderbufferSize); GL_MAX_VIEWPORT_DIMS \(maxViewportWidth)x\(maxViewportHeight)"
    }

    /// The current context's extensions (`GL_EXT_buffer_storage`, ...).
    static func currentExtensions() -> Set<String> {
        var n: GLint = 0
        glGetIntegerv(GLenum(GL_NUM_EXTENSIONS), &n)
        return Set((0..<GLuint(max(n, 0))).compactMap { k in
            glGetStringi(GLenum(GL_EXTENSIONS), k).map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
        })
    }
}
