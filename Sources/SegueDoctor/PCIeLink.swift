import Foundation
import SegueCore

/// A PCI Express link as Linux shows it in sysfs (`current_link_speed`, `current_link_width`, `max_link_speed`,
/// `max_link_width` of a PCI device): the generation and width it runs at now and the most it can, and what
/// each carries in one direction.
///
/// Read it while the device is busy: a GPU's driver lowers the link (to Gen1 on NVIDIA's) in its idle power
/// states, so a link read at rest says what the idle state is, not what a transfer gets.
public struct PCIeLink: Sendable, Codable, Equatable, CustomStringConvertible {
    /// GT/s (gigatransfers a second per lane), nil where sysfs says `Unknown`.
    public var speed: Double?
    public var width: Int?
    public var maxSpeed: Double?
    public var maxWidth: Int?

    public init(speed: Double?, width: Int?, maxSpeed: Double?, maxWidth: Int?) {
        self.speed = speed; self.width = width; self.maxSpeed = maxSpeed; self.maxWidth = maxWidth
    }

    /// The generation of a lane rate: 2.5 GT/s is Gen1, 5 Gen2, 8 Gen3, 16 Gen4, 32 Gen5, 64 Gen6; nil for any other.
    public static func generation(gigatransfers: Double) -> Int? {
        [2.5: 1, 5: 2, 8: 3, 16: 4, 32: 5, 64: 6].first { abs($0.key - gigatransfers) < 0.01 }?.value
    }

    /// What `lanes` lanes at `gigatransfers` GT/s carry in one direction, in GB/s (10^9 bytes), after the line
    /// code: 8b/10b up to 5 GT/s (Gen1, Gen2), 128b/130b from 8 to 32 GT/s (Gen3-Gen5), and Gen6's FLIT mode
    /// (242 bytes of every 256) at 64 GT/s. Gen4 x16: 31.5 GB/s; Gen5 x16: 63.0 GB/s. Packet headers and flow
    /// control take a further 10-20% of it in practice.
    public static func gigabytesPerSecond(gigatransfers: Double, lanes: Int) -> Double {
        let efficiency = gigatransfers < 8 ? 8.0 / 10 : gigatransfers < 64 ? 128.0 / 130 : 242.0 / 256
        return gigatransfers * efficiency / 8 * Double(lanes)
    }

    public var generation: Int? { speed.flatMap(Self.generation) }
    public var maxGeneration: Int? { maxSpeed.flatMap(Self.generation) }

    /// GB/s one way at the current speed and width; nil where either is unknown.
    public var gigabytesPerSecond: Double? {
        guard let speed, let width, width > 0 else { return nil }
        return Self.gigabytesPerSecond(gigatransfers: speed, lanes: width)
    }

    public var maxGigabytesPerSecond: Double? {
        guard let maxSpeed, let maxWidth, maxWidth > 0 else { return nil }
        return Self.gigabytesPerSecond(gigatransfers: maxSpeed, lanes: maxWidth)
    }

    /// Running below what it can (a lower generation or fewer lanes than its maximum).
    public var isBelowMaximum: Bool {
        guard let speed, let maxSpeed, let width, let maxWidth else { return false }
        return speed < maxSpeed - 0.01 || width < maxWidth
    }

    /// `Gen1 x16` (or `16 GT/s x16` for a rate with no generation, `unknown` where sysfs does not say).
    static func name(speed: Double?, width: Int?) -> String {
        guard let speed else { return "unknown" + (width.map { " x\($0)" } ?? "") }
        let rate = generation(gigatransfers: speed).map { "Gen\($0)" } ?? "\(speed.compact) GT/s"
        return rate + (width.map { " x\($0)" } ?? "")
    }

    /// `Gen1 x16 now (2.5 GT/s, 4.0 GB/s), Gen5 x16 at most (32 GT/s, 63.0 GB/s)`: GB/s one way.
    public var description: String {
        func rate(_ speed: Double?, _ gbps: Double?) -> String {
            guard let speed else { return "" }
            return " (\(speed.compact) GT/s" + (gbps.map { String(format: ", %.1f GB/s", $0) } ?? "") + ")"
        }
        return "\(Self.name(speed: speed, width: width)) now\(rate(speed, gigabytesPerSecond)), "
            + "\(Self.name(speed: maxSpeed, width: maxWidth)) at most\(rate(maxSpeed, maxGigabytesPerSecond))"
    }
}

/// One PCI device as sysfs shows it: its address, ids and class, and its PCI Express link where it has one.
public struct PCIDevice: Sendable, Codable, Equatable, CustomStringConvertible {
    /// `0000:01:00.0`.
    public var address: String
    public var vendor: UInt16
    public var device: UInt16
    /// The 24-bit class code (`0x030200`: a 3D controller).
    public var classCode: UInt32
    /// The link read when the device was found; nil where the device has no link files (an integrated GPU).
    public var link: PCIeLink?

    public init(address: String, vendor: UInt16, device: UInt16, classCode: UInt32, link: PCIeLink?) {
        self.address = address; self.vendor = vendor; self.device = device; self.classCode = classCode; self.link = link
    }

    /// GPU makers whose display controllers count as GPUs, in the order they are preferred.
    public static let gpuVendors: [(id: UInt16, name: String)] = [(0x10DE, "NVIDIA"), (0x1002, "AMD"), (0x8086, "Intel")]

    public var vendorName: String { Self.gpuVendors.first { $0.id == vendor }?.name ?? String(format: "vendor %04x", vendor) }

    /// A display controller (class 0x03xxxx) of NVIDIA, AMD or Intel (not a server's BMC video, as ASPEED's).
    public var isGPU: Bool { classCode >> 16 == 0x03 && Self.gpuVendors.contains { $0.id == vendor } }

    /// `0000:01:00.0 NVIDIA 10de:2335`.
    public var description: String { "\(address) \(vendorName) " + String(format: "%04x:%04x", vendor, device) }
}

/// The PCI devices Linux lists under `ROOT/sys/bus/pci/devices` and `ROOT/sys/class/drm`: `root` is `/` on a
/// machine, a directory of its own in a test (a tree of plain files and links laid out as sysfs is).
public struct SysfsPCI: Sendable {
    public var root: String

    public init(root: String = "/") { self.root = root }

    private func path(_ relative: String) -> String { PathName.join(root, relative) }
    private var devicesDirectory: String { path("sys/bus/pci/devices") }

    /// Why no GPU was found, for a report: `no PCI GPU found (...)`.
    public var noGPU: String {
        "no PCI GPU found (no display controller of NVIDIA, AMD or Intel under \(devicesDirectory))"
    }

    /// Every GPU (`PCIDevice.isGPU`): NVIDIA's first, then AMD's, then Intel's, each in address order.
    public func gpus() -> [PCIDevice] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: devicesDirectory)) ?? []
        let order = { (d: PCIDevice) in PCIDevice.gpuVendors.firstIndex { $0.id == d.vendor } ?? Int.max }
        return names.sorted().compactMap { device(at: PathName.join(devicesDirectory, $0)) }
            .filter(\.isGPU)
            .sorted { (order($0), $0.address) < (order($1), $1.address) }
    }

    /// The PCI device behind a DRM node (`/dev/dri/renderD128`, `/dev/dri/card0`): sysfs's
    /// `class/drm/NAME/device` link. Nil where there is no such node or it is not a PCI device.
    public func device(ofDRMNode node: String) -> PCIDevice? {
        let name = PathName.last(node)
        guard !name.isEmpty, name != "/" else { return nil }
        return device(at: path("sys/class/drm/\(name)/device"))
    }

    /// The GPU a GLES renderer draws on: the one behind `drmNode` where the renderer names a node (its EGL
    /// device's `EGL_EXT_device_drm` file, or the GBM platform's node), else the first GPU in `gpus()`; with
    /// how it was found.
    public func gpu(drmNode: String?) -> (device: PCIDevice, how: String)? {
        if let drmNode, let device = device(ofDRMNode: drmNode) { return (device, "the PCI device of \(drmNode)") }
        let all = gpus()
        guard let first = all.first else { return nil }
        return (first, all.count == 1 ? "the only PCI GPU" : "the first of \(all.count) PCI GPUs")
    }

    /// The device in a sysfs device directory (or a link to one), nil where it has no readable vendor and class.
    public func device(at directory: String) -> PCIDevice? {
        guard let resolved = realpath(directory, nil) else { return nil }
        defer { free(resolved) }
        let dir = String(cString: resolved)
        guard let vendor = Self.hex(read(dir, "vendor")), let classCode = Self.hex(read(dir, "class")) else { return nil }
        return PCIDevice(address: PathName.last(dir), vendor: UInt16(truncatingIfNeeded: vendor),
                         device: UInt16(truncatingIfNeeded: Self.hex(read(dir, "device")) ?? 0),
                         classCode: UInt32(truncatingIfNeeded: classCode), link: link(inDirectory: dir))
    }

    /// `device`'s link read now (during a transfer, to see what the transfer gets), nil where it has none.
    public func link(of device: PCIDevice) -> PCIeLink? {
        link(inDirectory: PathName.join(devicesDirectory, device.address))
    }

    private func link(inDirectory dir: String) -> PCIeLink? {
        let speed = read(dir, "current_link_speed"), maxSpeed = read(dir, "max_link_speed")
        guard speed != nil || maxSpeed != nil else { return nil }
        return PCIeLink(speed: speed.flatMap(Self.gigatransfers), width: read(dir, "current_link_width").flatMap { Int($0) },
                        maxSpeed: maxSpeed.flatMap(Self.gigatransfers), maxWidth: read(dir, "max_link_width").flatMap { Int($0) })
    }

    private func read(_ dir: String, _ name: String) -> String? {
        (try? String(contentsOfFile: PathName.join(dir, name), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `0x10de` as a number.
    static func hex(_ text: String?) -> UInt64? {
        guard let text, text.lowercased().hasPrefix("0x") else { return nil }
        return UInt64(text.dropFirst(2), radix: 16)
    }

    /// The GT/s of `16.0 GT/s PCIe` (or an older kernel's `8 GT/s`); nil for `Unknown`.
    static func gigatransfers(_ text: String) -> Double? {
        guard let number = text.split(separator: " ").first, text.contains("GT/s"), let value = Double(number), value > 0 else {
            return nil
        }
        return value
    }

    /// The DRM node a GLES renderer's location names (`device 0 of 2, hardware /dev/dri/renderD128`), if any.
    public static func drmNode(inLocation location: String?) -> String? {
        guard let location, let start = location.range(of: "/dev/dri/") else { return nil }
        let node = location[start.lowerBound...].prefix { !$0.isWhitespace && $0 != ")" && $0 != "," }
        return node.count > "/dev/dri/".count ? String(node) : nil
    }
}
