import CEGL
import Foundation

/// An EGL display and a GLES 3 context made current with no surface on the thread that created it; drawing
/// goes into framebuffer objects. Create, use and `destroy()` it on one thread (the renderer's `GLThread`).
final class GLContext {
    let platform: EGLPlatform
    let display: EGLDisplay
    let context: EGLContext
    let info: GLInfo
    /// Which device or node it runs on, when the platform has a choice (`/dev/dri/renderD128`).
    let location: String?
    private var gbmDevice: OpaquePointer?
    private var drmFD: Int32
    private var destroyed = false

    private init(platform: EGLPlatform, display: EGLDisplay, context: EGLContext, info: GLInfo, location: String?,
                 gbmDevice: OpaquePointer?, drmFD: Int32) {
        self.platform = platform; self.display = display; self.context = context; self.info = info
        self.location = location; self.gbmDevice = gbmDevice; self.drmFD = drmFD
    }

    /// What a probe of this context reports.
    var probeDetail: String { (location.map { $0 + ": " } ?? "") + info.description }

    /// Unbinds and destroys the context, lets go of the display and closes the GBM device and node.
    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        eglMakeCurrent(display, nil, nil, nil)
        eglDestroyContext(display, context)
        EGLDisplayRegistry.release(display)
        if let gbmDevice, case let .success(gbm) = GBMLibrary.entries { gbm.destroyDevice(gbmDevice) }
        if drmFD >= 0 { close(drmFD) }
        gbmDevice = nil
        drmFD = -1
    }

    deinit { destroy() }

    // MARK: Creation

    /// The environment switch that makes context creation fail, for fault tests.
    static let failSwitch = "SEGUE_EGL_FAIL"

    /// A context on `forced` (on its device `device`, where given), or on the first platform of
    /// `EGLPlatform.allCases` that gives one; with the probe of each platform tried. `environment` is the
    /// process's unless a test passes its own.
    static func create(forced: EGLPlatform?, device: EGLDeviceChoice? = nil,
                       environment: [String: String] = ProcessInfo.processInfo.environment)
        -> (Result<GLContext, EGLError>, [PlatformProbe]) {
        let platforms = forced.map { [$0] } ?? EGLPlatform.allCases
        if environment[failSwitch] == "1" {
            let why = "\(failSwitch)=1 is set"
            return (.failure(.disabled(why)), platforms.map { PlatformProbe(platform: $0, ok: false, detail: why) })
        }
        if case let .failure(error) = GLESLibrary.result {
            return (.failure(error), platforms.map { PlatformProbe(platform: $0, ok: false, detail: error.description) })
        }
        var probes: [PlatformProbe] = []
        for platform in platforms {
            do {
                let context = try open(platform, device: device)
                probes.append(PlatformProbe(platform: platform, ok: true, detail: context.probeDetail))
                return (.success(context), probes)
            } catch {
                probes.append(PlatformProbe(platform: platform, ok: false, detail: reason(error)))
                if forced != nil {
                    return (.failure(.platformUnavailable(platform, reason: reason(error))), probes)
                }
            }
        }
        return (.failure(.noPlatform(probes)), probes)
    }

    /// Why a platform failed, without the platform's name.
    private static func reason(_ error: Error) -> String {
        if case let EGLError.platformUnavailable(_, reason) = error { return reason }
        return "\(error)"
    }

    /// The DRM render nodes (`/dev/dri/renderD*`), in name order: the GBM platform's devices.
    static func renderNodes() -> [EGLDeviceEntry] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? [])
            .filter { $0.hasPrefix("renderD") }.sorted()
            .enumerated().map { EGLDeviceEntry(index: $0.offset, software: false, node: "/dev/dri/" + $0.element) }
    }

    /// The EGL devices `eglQueryDevicesEXT` lists, with each one's handle; throws where EGL has no
    /// `EGL_EXT_platform_device` or lists none.
    static func eglDevices(_ procs: EGLProcs, client: Set<Substring>) throws -> [(entry: EGLDeviceEntry, handle: EGLDeviceEXT)] {
        guard client.contains("EGL_EXT_platform_device"), let queryDevices = procs.queryDevices,
              let queryDeviceString = procs.queryDeviceString else {
            throw EGLError.platformUnavailable(.device, reason: "EGL has no EGL_EXT_platform_device / eglQueryDevicesEXT")
        }
        var count: EGLint = 0
        guard queryDevices(0, nil, &count) != 0 else { throw EGLError.last("eglQueryDevicesEXT") }
        var devices = [EGLDeviceEXT?](repeating: nil, count: Int(count))
        guard count > 0, queryDevices(count, &devices, &count) != 0 else {
            throw EGLError.platformUnavailable(.device, reason: "eglQueryDevicesEXT found no device")
        }
        return devices.prefix(Int(count)).enumerated().compactMap { index, device in
            guard let device else { return nil }
            func string(_ name: EGLint) -> String? { queryDeviceString(device, name).map { String(cString: $0) } }
            let software = (string(EGL_EXTENSIONS) ?? "").split(separator: " ").contains("EGL_MESA_device_software")
            let node = string(EGL_DRM_RENDER_NODE_FILE_EXT) ?? string(EGL_DRM_DEVICE_FILE_EXT)
            return (EGLDeviceEntry(index: index, software: software, node: node), device)
        }
    }

    /// A context on `platform` (on `device`, where given; else its first device that works, hardware before
    /// software), made current on this thread.
    static func open(_ platform: EGLPlatform, device choice: EGLDeviceChoice? = nil) throws -> GLContext {
        let procs = EGLProcs.load()
        let client = EGLProcs.clientExtensions()
        guard let getPlatformDisplay = procs.getPlatformDisplay, client.contains("EGL_EXT_platform_base") else {
            throw EGLError.platformUnavailable(platform, reason: "EGL has no EGL_EXT_platform_base (eglGetPlatformDisplayEXT)")
        }
        switch platform {
        case .gbm:
            guard client.contains("EGL_KHR_platform_gbm") || client.contains("EGL_MESA_platform_gbm") else {
                throw EGLError.platformUnavailable(.gbm, reason: "EGL has no EGL_KHR_platform_gbm")
            }
            let nodes = renderNodes()
            guard !nodes.isEmpty else {
                throw EGLError.platformUnavailable(.gbm, reason: "no DRM render node (/dev/dri/renderD*)")
            }
            let gbm = try GBMLibrary.entries.get()
            var failures: [String] = []
            for entry in try EGLDeviceEntry.candidates(nodes, choice: choice, platform: .gbm) {
                let node = entry.node ?? ""
                let fd = Foundation.open(node, O_RDWR | O_CLOEXEC)
                guard fd >= 0 else {
                    failures.append("open \(node): \(String(cString: strerror(errno)))")
                    continue
                }
                guard let device = gbm.createDevice(fd) else {
                    close(fd)
                    failures.append("gbm_create_device(\(node)) failed")
                    continue
                }
                do {
                    guard let display = getPlatformDisplay(EGLenum(EGL_PLATFORM_GBM_KHR), UnsafeMutableRawPointer(device), nil) else {
                        throw EGLError.last("eglGetPlatformDisplayEXT(EGL_PLATFORM_GBM_KHR)")
                    }
                    return try finish(.gbm, display: display, location: node, gbmDevice: device, drmFD: fd)
                } catch {
                    gbm.destroyDevice(device)
                    close(fd)
                    failures.append("\(node): \(error)")
                }
            }
            throw EGLError.platformUnavailable(.gbm, reason: failures.joined(separator: "; "))

        case .device:
            let devices = try eglDevices(procs, client: client)
            var failures: [String] = []
            for entry in try EGLDeviceEntry.candidates(devices.map(\.entry), choice: choice) {
                let name = "device \(entry.index) of \(devices.count), \(entry.kind)"
                do {
                    let handle = devices.first { $0.entry == entry }!.handle
                    guard let display = getPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), handle, nil) else {
                        throw EGLError.last("eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT)")
                    }
                    return try finish(.device, display: display, location: name, gbmDevice: nil, drmFD: -1)
                } catch {
                    failures.append("\(name): \(error)")
                }
            }
            throw EGLError.platformUnavailable(.device, reason: failures.joined(separator: "; "))

        case .surfaceless:
            if let choice {
                throw EGLError.platformUnavailable(.surfaceless, reason: "it has no devices to choose from (\(choice) given)")
            }
            guard client.contains("EGL_MESA_platform_surfaceless") else {
                throw EGLError.platformUnavailable(.surfaceless, reason: "EGL has no EGL_MESA_platform_surfaceless")
            }
            guard let display = getPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil) else {
                throw EGLError.last("eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA)")
            }
            return try finish(.surfaceless, display: display, location: nil, gbmDevice: nil, drmFD: -1)
        }
    }

    /// Initialises `display`, creates a GLES 3 context on it and makes it current with no surface.
    private static func finish(_ platform: EGLPlatform, display: EGLDisplay, location: String?,
                               gbmDevice: OpaquePointer?, drmFD: Int32) throws -> GLContext {
        _ = try EGLDisplayRegistry.retain(display)
        var context: EGLContext?
        do {
            let extensions = Set((eglQueryString(display, EGL_EXTENSIONS).map { String(cString: $0) } ?? "").split(separator: " "))
            guard extensions.contains("EGL_KHR_surfaceless_context") else {
                throw EGLError.platformUnavailable(platform, reason: "the display has no EGL_KHR_surfaceless_context")
            }
            guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) != 0 else { throw EGLError.last("eglBindAPI(EGL_OPENGL_ES_API)") }
            var config: EGLConfig?
            if !extensions.contains("EGL_KHR_no_config_context") {
                let attributes: [EGLint] = [EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, 0,
                                            EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE]
                var found: EGLint = 0
                guard eglChooseConfig(display, attributes, &config, 1, &found) != 0 else { throw EGLError.last("eglChooseConfig") }
                guard found > 0 else {
                    throw EGLError.platformUnavailable(platform, reason: "eglChooseConfig: no config with EGL_OPENGL_ES3_BIT")
                }
            }
            let attributes: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE]
            guard let created = eglCreateContext(display, config, nil, attributes) else {
                throw EGLError.last("eglCreateContext(GLES 3)")
            }
            context = created
            guard eglMakeCurrent(display, nil, nil, created) != 0 else { throw EGLError.last("eglMakeCurrent(no surface)") }
            let info = GLInfo(display: display)
            return GLContext(platform: platform, display: display, context: created, info: info, location: location,
                             gbmDevice: gbmDevice, drmFD: drmFD)
        } catch {
            if let context { eglDestroyContext(display, context) }
            EGLDisplayRegistry.release(display)
            throw error
        }
    }
}
