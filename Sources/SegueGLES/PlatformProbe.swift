/// One attempt at an EGL platform: whether it gave a GLES 3 context, and either why not or what it gave
/// (EGL vendor and version, `GL_RENDERER`, `GL_VERSION`, the texture and renderbuffer limits).
public struct PlatformProbe: Sendable, Equatable, CustomStringConvertible {
    public var platform: EGLPlatform
    public var ok: Bool
    public var detail: String

    public init(platform: EGLPlatform, ok: Bool, detail: String) {
        self.platform = platform; self.ok = ok; self.detail = detail
    }

    /// `surfaceless: ok: EGL 1.5 (Mesa Project); ...` or `gbm: no DRM render node (/dev/dri/renderD*)`.
    public var description: String { "\(platform.rawValue): \(ok ? "ok: " : "")\(detail)" }
}
