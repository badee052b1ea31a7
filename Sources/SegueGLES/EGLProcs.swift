import CEGL

/// EGL extension entry points, looked up once with `eglGetProcAddress`.
struct EGLProcs {
    var getPlatformDisplay: PFNEGLGETPLATFORMDISPLAYEXTPROC?
    var queryDevices: PFNEGLQUERYDEVICESEXTPROC?
    var queryDeviceString: PFNEGLQUERYDEVICESTRINGEXTPROC?

    /// The entry points this process's EGL offers (nil where it has none).
    static func load() -> EGLProcs {
        EGLProcs(getPlatformDisplay: lookup("eglGetPlatformDisplayEXT"),
                 queryDevices: lookup("eglQueryDevicesEXT"),
                 queryDeviceString: lookup("eglQueryDeviceStringEXT"))
    }

    /// `eglGetProcAddress(name)` cast to the PFN type `T` (a C function pointer), or nil.
    private static func lookup<T>(_ name: String) -> T? {
        guard let raw = eglGetProcAddress(name) else { return nil }
        return unsafeBitCast(raw, to: T.self)
    }

    /// The client extensions (`EGL_EXT_platform_device`, ...), from `eglQueryString(EGL_NO_DISPLAY, ...)`.
    static func clientExtensions() -> Set<Substring> {
        guard let s = eglQueryString(nil, EGL_EXTENSIONS) else { return [] }
        return Set(String(cString: s).split(separator: " "))
    }
}
