import CEGL

/// libEGL.so.1 and libGLESv2.so.2, opened with `dlopen` the first time a GLES context, probe or device list is
/// asked for rather than linked (as `GBMLibrary` opens libgbm): a program that draws on the CPU starts on a
/// machine with neither, and asking for GLES there fails with a line naming the missing library. Every EGL and
/// GL call goes through the table `segue_gles_load` fills (Sources/CEGL), so nothing may call one before
/// `load()` has succeeded.
enum GLESLibrary {
    /// Opens both libraries and resolves every entry point (once per process, from any thread), or throws
    /// `EGLError.libraryUnavailable` with the loader's line:
    /// `libEGL.so.1 cannot be loaded: libEGL.so.1: cannot open shared object file: ... (install libegl1 ...)`.
    static func load() throws {
        try result.get()
    }

    /// What `load()` throws or not, as a value.
    static let result: Result<Void, EGLError> = {
        var line = [CChar](repeating: 0, count: 512)
        guard segue_gles_load(&line, line.count) != 0 else { return .success(()) }
        let bytes = line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return .failure(.libraryUnavailable(String(decoding: bytes, as: UTF8.self)))
    }()

    /// Whether `load()` has succeeded, without trying it (for clean-up that may run when it never was).
    static var isLoaded: Bool { segue_gles_loaded() != 0 }
}
