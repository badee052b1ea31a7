/// Which device of a platform to open, where the platform has several: an EGL device (`eglQueryDevicesEXT`
/// lists the GPU and Mesa's software device on a typical GPU server) or a GBM render node.
public enum EGLDeviceChoice: Sendable, Hashable, CustomStringConvertible {
    /// The platform's device at this index, counting from 0: `eglQueryDevicesEXT`'s order for `device`, the
    /// render nodes in name order (`renderD128` first) for `gbm`.
    case index(Int)
    /// The device on this DRM node (`/dev/dri/renderD129` or `/dev/dri/card1`).
    case node(String)

    public var description: String {
        switch self {
        case let .index(k): "\(k)"
        case let .node(path): path
        }
    }

    /// `1` as `.index(1)`, `/dev/dri/renderD129` as `.node`; nil for anything else.
    public init?(_ text: String) {
        if let k = Int(text), k >= 0 {
            self = .index(k)
        } else if text.hasPrefix("/dev/") {
            self = .node(text)
        } else {
            return nil
        }
    }
}

/// One device a platform offers, as `segue info` and `segue doctor` list it.
public struct EGLDeviceEntry: Sendable, Hashable, CustomStringConvertible {
    /// Its index in the platform's list (what `EGLDeviceChoice.index` names).
    public var index: Int
    /// A software rasterizer (`EGL_MESA_device_software`): llvmpipe on the CPU's cores.
    public var software: Bool
    /// Its DRM render node (or primary node), when EGL names one.
    public var node: String?

    public init(index: Int, software: Bool, node: String?) {
        self.index = index; self.software = software; self.node = node
    }

    /// `device 0, hardware /dev/dri/renderD128` or `device 1, software (EGL_MESA_device_software)`.
    public var description: String { "device \(index), \(kind)" }

    /// `hardware /dev/dri/renderD128` or `software (EGL_MESA_device_software)`.
    public var kind: String {
        software ? "software (EGL_MESA_device_software)" : "hardware" + (node.map { " " + $0 } ?? "")
    }

    /// The devices to try, in order: the one `choice` names, or with no choice every hardware device before
    /// every software one (so a GPU server's `auto` takes the GPU, not llvmpipe), each in list order. Throws
    /// `EGLError.platformUnavailable` naming what was found when `choice` matches none.
    public static func candidates(_ devices: [EGLDeviceEntry], choice: EGLDeviceChoice?,
                                  platform: EGLPlatform = .device) throws -> [EGLDeviceEntry] {
        let found = devices.isEmpty ? "none" : devices.map(\.description).joined(separator: "; ")
        switch choice {
        case nil:
            return devices.filter { !$0.software } + devices.filter(\.software)
        case let .index(k):
            guard let device = devices.first(where: { $0.index == k }) else {
                throw EGLError.platformUnavailable(platform, reason: "no device \(k) (found: \(found))")
            }
            return [device]
        case let .node(path):
            guard let device = devices.first(where: { $0.node == path }) else {
                throw EGLError.platformUnavailable(platform, reason: "no device on \(path) (found: \(found))")
            }
            return [device]
        }
    }
}

/// A platform and, optionally, which of its devices: `device`, `device:1`, `gbm:/dev/dri/renderD129`, or a
/// bare DRM node (`/dev/dri/renderD129`, the EGL device on that node).
public struct EGLTarget: Sendable, Hashable, CustomStringConvertible {
    public var platform: EGLPlatform
    public var device: EGLDeviceChoice?

    public init(platform: EGLPlatform, device: EGLDeviceChoice? = nil) {
        self.platform = platform; self.device = device
    }

    /// Parses the forms above; nil for anything else.
    public init?(_ text: String) {
        if let node = EGLDeviceChoice(text), case .node = node {
            self.init(platform: .device, device: node)
            return
        }
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let platform = EGLPlatform(rawValue: parts[0]) else { return nil }
        if parts.count == 1 {
            self.init(platform: platform)
        } else if let device = EGLDeviceChoice(parts[1]) {
            self.init(platform: platform, device: device)
        } else {
            return nil
        }
    }

    public var description: String { platform.rawValue + (device.map { ":\($0)" } ?? "") }
}
