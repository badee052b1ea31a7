import SegueGLES
import Testing

/// Which EGL device a renderer opens, from a device list like a GPU server's (the GPU and Mesa's software
/// device) and from the command line's forms.
@Suite struct EGLDeviceChoiceTests {
    /// What `eglQueryDevicesEXT` lists on a server with NVIDIA's and Mesa's EGL: llvmpipe may come first.
    let server = [EGLDeviceEntry(index: 0, software: true, node: nil),
                  EGLDeviceEntry(index: 1, software: false, node: "/dev/dri/renderD128"),
                  EGLDeviceEntry(index: 2, software: false, node: "/dev/dri/renderD129")]

    @Test func hardwareIsTriedBeforeSoftware() throws {
        #expect(try EGLDeviceEntry.candidates(server, choice: nil).map(\.index) == [1, 2, 0])
        #expect(try EGLDeviceEntry.candidates([server[0]], choice: nil).map(\.index) == [0])
    }

    @Test func anIndexOrANodeChoosesOneDevice() throws {
        #expect(try EGLDeviceEntry.candidates(server, choice: .index(0)).map(\.index) == [0])
        #expect(try EGLDeviceEntry.candidates(server, choice: .node("/dev/dri/renderD129")).map(\.index) == [2])
    }

    @Test func aDeviceThatIsNotThereIsNamedWithWhatWasFound() {
        #expect(throws: EGLError.platformUnavailable(.device, reason: "no device 3 (found: device 0, software (EGL_MESA_device_software); device 1, hardware /dev/dri/renderD128; device 2, hardware /dev/dri/renderD129)")) {
            try EGLDeviceEntry.candidates(server, choice: .index(3))
        }
        #expect(throws: EGLError.platformUnavailable(.gbm, reason: "no device on /dev/dri/renderD130 (found: none)")) {
            try EGLDeviceEntry.candidates([], choice: .node("/dev/dri/renderD130"), platform: .gbm)
        }
    }

    @Test func targetsParse() {
        #expect(EGLTarget("device") == EGLTarget(platform: .device))
        #expect(EGLTarget("device:1") == EGLTarget(platform: .device, device: .index(1)))
        #expect(EGLTarget("gbm:/dev/dri/renderD129") == EGLTarget(platform: .gbm, device: .node("/dev/dri/renderD129")))
        #expect(EGLTarget("/dev/dri/renderD128") == EGLTarget(platform: .device, device: .node("/dev/dri/renderD128")))
        for bad in ["", "gpu", "device:", "device:-1", "device:x", "surfaceless:a:b"] { #expect(EGLTarget(bad) == nil, "\(bad)") }
        #expect(EGLTarget("device:1")?.description == "device:1")
    }

    /// On this machine: the one software device is device 0, chosen by index; a second index is refused.
    @Test func theMachinesDevicesAreListedAndChosen() throws {
        guard case let .success(devices) = GLESRenderer.devices(on: .device), !devices.isEmpty else { return }
        let gles = try GLESRenderer(platform: .device, device: .index(devices[0].index))
        #expect(gles.location?.hasPrefix("device \(devices[0].index) of \(devices.count), ") == true, "\(gles.location ?? "")")
        #expect(throws: EGLError.self) { try GLESRenderer(platform: .device, device: .index(devices.count)) }
        #expect(throws: EGLError.self) { try GLESRenderer(platform: .surfaceless, device: .index(0)) }
    }
}
