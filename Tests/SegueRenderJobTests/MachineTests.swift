import Foundation
import SegueCore
@testable import SegueRender
@testable import SegueDoctor
import SegueTestSupport
import Testing

/// What the machine is: PCIe links read from a sysfs tree the test writes (laid out as Linux's, links and
/// all), and nvidia-smi as fake programs on a PATH of the test's own (one that answers, one that fails, one
/// that hangs).
@Suite struct MachineTests {
    /// A sysfs tree: an Intel host bridge and root ports, an NVIDIA GPU (Gen4 x16 at most, at Gen1 x16 now,
    /// as NVIDIA's driver leaves it at rest) behind renderD128 and card1, a server's ASPEED video (a display
    /// controller, but not a GPU), and an AMD GPU at Gen3 x8 of x16 behind renderD129.
    static func fakeSysfs() throws -> URL {
        let root = try temporaryDirectory("sysfs")
        let fm = FileManager.default
        func device(_ path: String, vendor: String, device: String, class code: String,
                    link: (speed: String, width: String, maxSpeed: String, maxWidth: String)? = nil, drm: [String] = []) throws {
            let dir = root.appendingPathComponent("sys/devices/pci0000:00/" + path)
            try fm.createDirectory(at: dir, withIntermediateDirectories: true)
            var files = ["vendor": vendor, "device": device, "class": code]
            if let link {
                files["current_link_speed"] = link.speed
                files["current_link_width"] = link.width
                files["max_link_speed"] = link.maxSpeed
                files["max_link_width"] = link.maxWidth
            }
            for (name, text) in files { try (text + "\n").write(to: dir.appendingPathComponent(name), atomically: false, encoding: .utf8) }
            let address = (path as NSString).lastPathComponent
            let bus = root.appendingPathComponent("sys/bus/pci/devices")
            try fm.createDirectory(at: bus, withIntermediateDirectories: true)
            try fm.createSymbolicLink(atPath: bus.appendingPathComponent(address).path,
                                      withDestinationPath: "../../../devices/pci0000:00/" + path)
            for node in drm {
                let nodeDir = dir.appendingPathComponent("drm/" + node)
                try fm.createDirectory(at: nodeDir, withIntermediateDirectories: true)
                try fm.createSymbolicLink(atPath: nodeDir.appendingPathComponent("device").path, withDestinationPath: "../../../" + address)
                let classDRM = root.appendingPathComponent("sys/class/drm")
                try fm.createDirectory(at: classDRM, withIntermediateDirectories: true)
                try fm.createSymbolicLink(atPath: classDRM.appendingPathComponent(node).path,
                                          withDestinationPath: "../../devices/pci0000:00/\(path)/drm/\(node)")
            }
        }
        try device("0000:00:00.0", vendor: "0x8086", device: "0x09a2", class: "0x060000")
        try device("0000:00:01.0", vendor: "0x8086", device: "0x347a", class: "0x060400",
                   link: ("16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16"))
        try device("0000:00:01.0/0000:01:00.0", vendor: "0x10de", device: "0x2335", class: "0x030200",
                   link: ("2.5 GT/s PCIe", "16", "16.0 GT/s PCIe", "16"), drm: ["renderD128", "card1"])
        try device("0000:00:02.0/0000:02:00.0", vendor: "0x1a03", device: "0x2000", class: "0x030000",
                   link: ("2.5 GT/s PCIe", "1", "5.0 GT/s PCIe", "1"), drm: ["card0"])
        try device("0000:00:03.0/0000:03:00.0", vendor: "0x1002", device: "0x740f", class: "0x038000",
                   link: ("8 GT/s", "8", "8 GT/s", "16"), drm: ["renderD129"])
        return root
    }

    @Test func findsTheGPUsAndTheirLinks() throws {
        let sysfs = SysfsPCI(root: try Self.fakeSysfs().path)
        let gpus = sysfs.gpus()
        // NVIDIA's first, then AMD's; not the bridges, not the BMC's video.
        #expect(gpus.map(\.address) == ["0000:01:00.0", "0000:03:00.0"])
        let nvidia = try #require(gpus.first)
        #expect(nvidia.vendorName == "NVIDIA" && nvidia.device == 0x2335 && nvidia.classCode == 0x030200)
        #expect("\(nvidia)" == "0000:01:00.0 NVIDIA 10de:2335")
        let link = try #require(nvidia.link)
        #expect(link.generation == 1 && link.width == 16 && link.maxGeneration == 4 && link.maxWidth == 16)
        #expect(link.isBelowMaximum)
        #expect(abs((link.gigabytesPerSecond ?? 0) - 4.0) < 1e-9)
        #expect(abs((link.maxGigabytesPerSecond ?? 0) - 31.5077) < 1e-3)
        #expect("\(link)" == "Gen1 x16 now (2.5 GT/s, 4.0 GB/s), Gen4 x16 at most (16 GT/s, 31.5 GB/s)")
        // An older kernel's `8 GT/s`, and fewer lanes than it has.
        let amd = try #require(gpus.last?.link)
        #expect(amd.generation == 3 && amd.width == 8 && amd.maxWidth == 16 && amd.isBelowMaximum)
        #expect("\(amd)".hasPrefix("Gen3 x8 now (8 GT/s, 7.9 GB/s), Gen3 x16 at most"))
    }

    @Test func findsTheGPUBehindADRMNode() throws {
        let sysfs = SysfsPCI(root: try Self.fakeSysfs().path)
        #expect(sysfs.device(ofDRMNode: "/dev/dri/renderD129")?.address == "0000:03:00.0")
        #expect(sysfs.device(ofDRMNode: "/dev/dri/card1")?.address == "0000:01:00.0")
        // The EGL device's node, where it names one; else the first GPU, saying so.
        let byNode = try #require(sysfs.gpu(drmNode: "/dev/dri/renderD129"))
        #expect(byNode.device.vendorName == "AMD" && byNode.how == "the PCI device of /dev/dri/renderD129")
        let first = try #require(sysfs.gpu(drmNode: nil))
        #expect(first.device.vendorName == "NVIDIA" && first.how == "the first of 2 PCI GPUs")
        #expect(sysfs.gpu(drmNode: "/dev/dri/renderD200")?.device.address == "0000:01:00.0")
        // The node inside a GLES renderer's location.
        #expect(SysfsPCI.drmNode(inLocation: "device 0 of 2, hardware /dev/dri/renderD128") == "/dev/dri/renderD128")
        #expect(SysfsPCI.drmNode(inLocation: "/dev/dri/card1") == "/dev/dri/card1")
        #expect(SysfsPCI.drmNode(inLocation: "device 0 of 1, hardware") == nil)
        #expect(SysfsPCI.drmNode(inLocation: nil) == nil)
    }

    /// The link is read again when asked: during a transfer the driver has raised it.
    @Test func readsTheLinkAgainDuringATransfer() throws {
        let root = try Self.fakeSysfs()
        let sysfs = SysfsPCI(root: root.path)
        let gpu = try #require(sysfs.gpus().first)
        let speed = root.appendingPathComponent("sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/current_link_speed")
        try "16.0 GT/s PCIe\n".write(to: speed, atomically: false, encoding: .utf8)
        let busy = try #require(sysfs.link(of: gpu))
        #expect(busy.generation == 4 && !busy.isBelowMaximum)
        #expect(gpu.link?.generation == 1)
        try "Unknown\n".write(to: speed, atomically: false, encoding: .utf8)
        let unknown = try #require(sysfs.link(of: gpu))
        #expect(unknown.speed == nil && unknown.gigabytesPerSecond == nil)
        #expect("\(unknown)".hasPrefix("unknown x16 now, Gen4 x16 at most"))
    }

    @Test func saysWhenThereIsNoGPU() throws {
        let empty = try temporaryDirectory("sysfs")
        let sysfs = SysfsPCI(root: empty.path)
        #expect(sysfs.gpus().isEmpty)
        #expect(sysfs.gpu(drmNode: "/dev/dri/renderD128") == nil)
        #expect(sysfs.noGPU == "no PCI GPU found (no display controller of NVIDIA, AMD or Intel under \(empty.path)/sys/bus/pci/devices)")
    }

    @Test func generationsAndRates() {
        let table: [(Double, Int)] = [(2.5, 1), (5, 2), (8, 3), (16, 4), (32, 5), (64, 6)]
        for (speed, generation) in table { #expect(PCIeLink.generation(gigatransfers: speed) == generation) }
        #expect(PCIeLink.generation(gigatransfers: 3) == nil)
        func rate(_ speed: Double, _ lanes: Int) -> Double { PCIeLink.gigabytesPerSecond(gigatransfers: speed, lanes: lanes) }
        #expect(abs(rate(2.5, 1) - 0.25) < 1e-9)       // 8b/10b
        #expect(abs(rate(5, 16) - 8) < 1e-9)
        #expect(abs(rate(8, 16) - 15.754) < 1e-3)     // 128b/130b
        #expect(abs(rate(32, 16) - 63.015) < 1e-3)
        #expect(abs(rate(64, 16) - 121.0) < 1e-3)     // FLIT, 242 of 256
        #expect(SysfsPCI.gigatransfers("32.0 GT/s PCIe") == 32 && SysfsPCI.gigatransfers("Unknown") == nil)
        #expect(SysfsPCI.gigatransfers("0 GT/s") == nil)
    }

    // MARK: nvidia-smi

    static let answer = "P0, 1980 MHz, 2619 MHz, 1980 MHz, 5, 5, 16, 37 %"

    /// A directory holding `nvidia-smi`, a shell script with `body`.
    static func fakeNvidiaSMI(_ body: String) throws -> String {
        let dir = try temporaryDirectory("bin")
        let path = dir.appendingPathComponent("nvidia-smi").path
        try "#!/bin/sh\n\(body)\n".write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return dir.path
    }

    @Test func parsesNvidiaSMI() throws {
        let smi = try #require(NvidiaSMI.parse(Self.answer + "\nP8, 345 MHz, 405 MHz, 1980 MHz, 1, 5, 16, 0 %\n"))
        #expect(smi.readings.count == 2)
        #expect(smi.readings[0].pstate == "P0" && smi.readings[1].linkGeneration == "1" && smi.readings[1].utilization == "0 %")
        #expect("\(smi.readings[0])" == "P0, SM 1980 MHz of 1980 MHz, memory 2619 MHz, PCIe Gen5 of Gen5 x16, 37 % busy")
        #expect(NvidiaSMI.parse("No devices were found") == nil)
        #expect(NvidiaSMI.parse("") == nil)
    }

    @Test func runsNvidiaSMIFromPath() throws {
        // It is asked for the fields in the order it is parsed in.
        let bin = try Self.fakeNvidiaSMI("[ \"$1\" = \"--query-gpu=\(NvidiaSMI.query)\" ] || exit 9\necho '\(Self.answer)'")
        let smi = try NvidiaSMI.read(path: "/nonexistent:" + bin, timeout: 10).get()
        #expect(smi.readings.map(\.smClock) == ["1980 MHz"])
        #expect(NvidiaSMI.find(path: "") == nil)
        let none = try temporaryDirectory("bin").path
        guard case let .failure(error) = NvidiaSMI.read(path: none) else { Issue.record("an nvidia-smi was found where there is none"); return }
        #expect(error.message == "nvidia-smi not present (not on PATH)")
    }

    @Test func aFailingNvidiaSMIIsOneLine() throws {
        let bin = try Self.fakeNvidiaSMI("echo 'NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver.' >&2\nexit 9")
        guard case let .failure(error) = NvidiaSMI.read(path: bin, timeout: 10) else { Issue.record("it succeeded"); return }
        #expect(error.message == "nvidia-smi failed (exit status 9): NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver.")
        let other = try Self.fakeNvidiaSMI("echo 'something else'")
        guard case let .failure(e2) = NvidiaSMI.read(path: other, timeout: 10) else { Issue.record("it succeeded"); return }
        #expect(e2.message == "nvidia-smi printed 'something else', not the fields asked for")
    }

    /// One that never answers is ended at its time limit, with whatever it started.
    @Test func aHangingNvidiaSMIIsEnded() throws {
        let marker = try temporaryDirectory("hang").appendingPathComponent("child.pid").path
        let bin = try Self.fakeNvidiaSMI("sleep 60 & echo $! > \(marker)\nwait")
        let start = Date()
        guard case let .failure(error) = NvidiaSMI.read(path: bin, timeout: 0.5) else { Issue.record("it answered"); return }
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(error.message == "nvidia-smi gave no answer within 0.5 s: ended")
        // Its child (the sleep) was in its process group, and is gone too.
        let pid = try #require(Int32(try String(contentsOfFile: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        var gone = false
        for _ in 0..<100 where !gone {
            gone = kill(pid, 0) != 0 || (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.contains(") Z ") == true
            if !gone { usleep(20_000) }
        }
        #expect(gone)
    }

    /// The doctor's report of the machine, at rest, from both.
    @Test func doctorReportsTheMachine() throws {
        var options = Doctor.Options()
        options.gles = false
        options.cpu = false
        options.sysfs = SysfsPCI(root: try Self.fakeSysfs().path)
        options.path = try Self.fakeNvidiaSMI("echo 'P8, 345 MHz, 405 MHz, 1980 MHz, 1, 5, 16, 0 %'")
        let report = Doctor(options: options).run()
        #expect(report.machine.gpus.count == 2)
        #expect(report.machine.lines == [
            "pcie at rest: 0000:01:00.0 NVIDIA 10de:2335: Gen1 x16 now (2.5 GT/s, 4.0 GB/s), Gen4 x16 at most (16 GT/s, 31.5 GB/s)",
            "pcie at rest: 0000:03:00.0 AMD 1002:740f: Gen3 x8 now (8 GT/s, 7.9 GB/s), Gen3 x16 at most (8 GT/s, 15.8 GB/s)",
            "nvidia-smi at rest: P8, SM 345 MHz of 1980 MHz, memory 405 MHz, PCIe Gen1 of Gen5 x16, 0 % busy",
        ])
        options.sysfs = SysfsPCI(root: try temporaryDirectory("sysfs").path)
        options.path = ""
        let bare = Doctor(options: options).run().machine
        #expect(bare.lines.count == 2)
        #expect(bare.lines.first?.hasPrefix("pcie: no PCI GPU found (") == true)
        #expect(bare.lines.last == "nvidia-smi not present (not on PATH)")
        // In the JSON report too.
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(bare)) as? [String: Any]
        #expect(json?["nvidiaSMIProblem"] as? String == "nvidia-smi not present (not on PATH)")
        #expect((json?["pcieProblem"] as? String)?.hasPrefix("no PCI GPU found") == true)
    }

    /// Where GLES reached no GPU, the one `gpu:` line says what is missing: nothing to reach on a bare
    /// machine; in a container that asks for NVIDIA's GPUs (the image's GPU variant) without the container
    /// toolkit, the device nodes, the EGL library and the vendor file, with how to give them.
    @Test func theGPULineSaysWhatIsMissing() throws {
        let bare = GPUReach(gpus: [], asksForNVIDIA: nil, nvidiaDeviceNodes: false, renderNodes: false, nvidiaEGL: false, nvidiaVendorFile: false)
        #expect(bare.line(hardware: nil) == "gpu: none: no GPU on the PCI bus, no render node in /dev/dri and no NVIDIA driver; GLES draws on a software rasterizer")
        var container = bare
        container.asksForNVIDIA = "all"
        container.nvidiaVendorFile = true
        let line = container.line(hardware: nil)
        #expect(line.hasPrefix("gpu: none reached: this container asks for NVIDIA GPUs (NVIDIA_VISIBLE_DEVICES=all), but it has no NVIDIA device (/dev/nvidiactl), no NVIDIA EGL library (libEGL_nvidia.so.0): "), "\(line)")
        #expect(line.contains("the CDI device nvidia.com/gpu=all") && line.contains("Docker: gpus all") && !line.contains("\n"), "\(line)")
        // A GPU on the bus whose driver is all here, yet not reached.
        let gpu = PCIDevice(address: "0000:01:00.0", vendor: 0x10DE, device: 0x2335, classCode: 0x030200, link: nil)
        let reached = GPUReach(gpus: [gpu], asksForNVIDIA: nil, nvidiaDeviceNodes: true, renderNodes: false, nvidiaEGL: true, nvidiaVendorFile: true)
        #expect(reached.line(hardware: nil).hasPrefix("gpu: none reached: the NVIDIA GPU at 0000:01:00.0 is on the PCI bus and its driver is here, but "))
        #expect(reached.line(hardware: "NVIDIA H200, EGL device") == "gpu: NVIDIA H200, EGL device")
        // NVIDIA_VISIBLE_DEVICES=void asks for none.
        #expect(GPUReach.look(gpus: [], environment: ["NVIDIA_VISIBLE_DEVICES": "void"]).asksForNVIDIA == nil)
        #expect(GPUReach.look(gpus: [], environment: ["NVIDIA_VISIBLE_DEVICES": "0,1"]).asksForNVIDIA == "0,1")
    }
}
