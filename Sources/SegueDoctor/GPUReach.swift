import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether GLES reached a GPU here, and when it did not, what is missing, in one line (`gpu: ...`): what a
/// user reads first in a container that was meant to have a GPU.
///
/// NVIDIA's EGL reaches a container through the NVIDIA container toolkit: it gives the device nodes
/// (`/dev/nvidiactl`, `/dev/nvidia0`) and mounts the driver's libraries (`libEGL_nvidia.so.0`) into a container
/// that asks for the `graphics` capability; glvnd finds that library through a vendor file
/// (`egl_vendor.d/10_nvidia.json`). Each of the three is looked for, and the missing ones named.
public struct GPUReach: Sendable, Equatable {
    /// What this machine or container has, as read by `look()`.
    public var gpus: [PCIDevice]
    /// A container that asks the NVIDIA container toolkit for GPUs (`NVIDIA_VISIBLE_DEVICES`, not `void`/`none`).
    public var asksForNVIDIA: String?
    public var nvidiaDeviceNodes: Bool
    public var renderNodes: Bool
    /// `libEGL_nvidia.so.0` loads.
    public var nvidiaEGL: Bool
    /// A glvnd EGL vendor file names NVIDIA's library.
    public var nvidiaVendorFile: Bool

    public init(gpus: [PCIDevice], asksForNVIDIA: String?, nvidiaDeviceNodes: Bool, renderNodes: Bool,
                nvidiaEGL: Bool, nvidiaVendorFile: Bool) {
        self.gpus = gpus
        self.asksForNVIDIA = asksForNVIDIA
        self.nvidiaDeviceNodes = nvidiaDeviceNodes
        self.renderNodes = renderNodes
        self.nvidiaEGL = nvidiaEGL
        self.nvidiaVendorFile = nvidiaVendorFile
    }

    /// Reads this machine: the PCI GPUs given, the environment, `/dev`, the glvnd vendor directories, and
    /// whether NVIDIA's EGL library loads.
    public static func look(gpus: [PCIDevice], environment: [String: String] = ProcessInfo.processInfo.environment) -> GPUReach {
        let files = FileManager.default
        let asks = environment["NVIDIA_VISIBLE_DEVICES"].flatMap { ["", "void", "none"].contains($0) ? nil : $0 }
        let dri = (try? files.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        let vendorDirectories = ["/etc/glvnd/egl_vendor.d", "/usr/share/glvnd/egl_vendor.d"]
            + (environment["__EGL_VENDOR_LIBRARY_DIRS"]?.split(separator: ":").map(String.init) ?? [])
        let vendorFile = vendorDirectories.contains { directory in
            ((try? files.contentsOfDirectory(atPath: directory)) ?? []).contains { name in
                name.hasSuffix(".json") && ((try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? "")
                    .contains("libEGL_nvidia")
            }
        }
        return GPUReach(gpus: gpus, asksForNVIDIA: asks, nvidiaDeviceNodes: files.fileExists(atPath: "/dev/nvidiactl"),
                        renderNodes: dri.contains { $0.hasPrefix("renderD") }, nvidiaEGL: loads("libEGL_nvidia.so.0"),
                        nvidiaVendorFile: vendorFile)
    }

    private static func loads(_ library: String) -> Bool {
        #if canImport(Glibc)
        guard let handle = dlopen(library, RTLD_LAZY | RTLD_LOCAL) else { return false }
        dlclose(handle)
        return true
        #else
        return false
        #endif
    }

    /// The line: `hardware` is the GLES backend that drew on a GPU (its details), nil when every one was
    /// software or none could be made.
    public func line(hardware: String?) -> String {
        if let hardware { return "gpu: \(hardware)" }
        let nvidia = gpus.first { $0.vendor == 0x10DE }
        guard asksForNVIDIA != nil || nvidia != nil || nvidiaDeviceNodes || nvidiaEGL else {
            if renderNodes { return "gpu: none reached: a render node is in /dev/dri, but EGL gave only a software rasterizer (is its Mesa driver installed?)" }
            return "gpu: none: no GPU on the PCI bus, no render node in /dev/dri and no NVIDIA driver; GLES draws on a software rasterizer"
        }
        var missing: [String] = []
        if !nvidiaDeviceNodes { missing.append("no NVIDIA device (/dev/nvidiactl)") }
        if !nvidiaEGL { missing.append("no NVIDIA EGL library (libEGL_nvidia.so.0)") }
        if !nvidiaVendorFile { missing.append("no glvnd vendor file naming it (egl_vendor.d/10_nvidia.json)") }
        let what = nvidia.map { "the \($0.vendorName) GPU at \($0.address) is on the PCI bus" }
            ?? "this container asks for NVIDIA GPUs (NVIDIA_VISIBLE_DEVICES=\(asksForNVIDIA ?? ""))"
        if missing.isEmpty {
            return "gpu: none reached: \(what) and its driver is here, but EGL gave only a software rasterizer (a driver older than the kernel module, or a device not in NVIDIA_VISIBLE_DEVICES?)"
        }
        return "gpu: none reached: \(what), but it has \(missing.joined(separator: ", ")): on a GPU node, give it the GPU "
            + "through the NVIDIA container toolkit (Podman: the CDI device nvidia.com/gpu=all; Docker: gpus all; "
            + "Kubernetes: the nvidia.com/gpu resource), with NVIDIA_DRIVER_CAPABILITIES including graphics"
    }
}
