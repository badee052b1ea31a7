import Foundation

/// libgbm, opened with `dlopen` the first time the GBM platform is tried rather than linked: a machine whose
/// driver has no GBM (NVIDIA's EGL device platform, a container with only libEGL) still runs the binary, and
/// the GBM platform then reports why it is unavailable instead of the loader refusing to start the program.
enum GBMLibrary {
    typealias CreateDevice = @convention(c) (Int32) -> OpaquePointer?
    typealias DestroyDevice = @convention(c) (OpaquePointer?) -> Void

    struct Entries {
        let createDevice: CreateDevice
        let destroyDevice: DestroyDevice
    }

    /// The soname every distribution ships (`libgbm1` on Debian and Ubuntu).
    static let soname = "libgbm.so.1"

    /// The two entry points the GBM platform needs, or why they could not be had. Opened once per process and
    /// never closed (the driver's backends stay loaded for the process's life anyway).
    static let entries: Result<Entries, EGLError> = {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            let why = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(.platformUnavailable(.gbm, reason: "cannot load \(soname): \(why)"))
        }
        guard let create = dlsym(handle, "gbm_create_device"), let destroy = dlsym(handle, "gbm_device_destroy") else {
            return .failure(.platformUnavailable(.gbm, reason: "\(soname) lacks gbm_create_device or gbm_device_destroy"))
        }
        return .success(Entries(createDevice: unsafeBitCast(create, to: CreateDevice.self),
                                destroyDevice: unsafeBitCast(destroy, to: DestroyDevice.self)))
    }()
}
