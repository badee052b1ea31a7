import Foundation
import SegueCore
import SegueCPU
import SegueGLES
import SegueRender
import SegueSamples

/// A self-check of this machine's backends, for a user to run before a long job (`segue doctor`): every GLES
/// backend that can be made (one per EGL platform that initialises) draws the whole built-in catalogue, both
/// directions, at both ends and the middle, at a phone size and at 4K, and each frame is compared with the CPU
/// compositor's under `FrameTolerance.glesVsCPU`; the shipped custom shaders are checked against their own
/// contract (progress 0 shows `from`, 1 shows `to`, the middle is a picture of its own). Then each backend's
/// speed is measured at 1920x1080 and 3840x2160: drawing, reading back, both pipelined, and the read-back of a
/// frame with nothing drawn (the bus's own rate).
///
/// It also says what the machine is: the GPU's PCI Express link from sysfs (generation and width now and at
/// most) and `nvidia-smi`'s P-state and clocks where it exists, once at rest and again while each GLES backend
/// reads empty 4K frames back as fast as it can, with the device-to-host GB/s measured against the link's own rate.
public struct Doctor: Sendable {
    /// What to check.
    public struct Options: Sendable {
        /// The GLES platform (and device) to check; nil: every platform that initialises.
        public var target: BackendChoice.GLESTarget?
        /// Check GLES (against the CPU compositor), and time the CPU compositor.
        public var gles = true
        public var cpu = true
        /// The frames compared: (frame size in points, pixels per point).
        public var sizes: [(frame: Size, scale: Double)] = [(Size(375, 667), 1), (Size(1280, 720), 3)]
        public var progress: [Double] = [0, 0.5, 1]
        /// The frame sizes timed, in pixels, and how long each stage is timed for.
        public var timedSizes: [(width: Int, height: Int)] = [(1920, 1080), (3840, 2160)]
        public var secondsPerTiming = 1.0
        public var tolerance = FrameTolerance.glesVsCPU
        /// CPU compositor threads (all cores when nil).
        public var threads: Int?
        /// The read-back of empty frames of this size, for about this long, on each GLES backend: the
        /// device-to-host rate, with the PCIe link and nvidia-smi read while it runs.
        public var transferSize = (width: 3840, height: 2160)
        public var transferSeconds = 0.5
        /// Where the PCI devices are listed (`/`: this machine's sysfs).
        public var sysfs = SysfsPCI()
        /// The directories searched for `nvidia-smi` (PATH's form), and how long it may take to answer.
        public var path = ProcessInfo.processInfo.environment["PATH"]
        public var nvidiaSMITimeout = 10.0

        public init() {}
    }

    /// One backend's result.
    public struct BackendReport: Sendable, Codable {
        /// `gles` or `cpu`.
        public var backend: String
        /// The EGL platform (and device) for GLES.
        public var platform: String?
        /// What it runs on (`NVIDIA H200/PCIe/SSE2, OpenGL ES 3.2 NVIDIA 580.159.03, EGL device`).
        public var details: String
        public var software: Bool
        /// GL_RENDERER and GL_VERSION, for GLES.
        public var driver: String?
        public var framesCompared = 0
        /// The lowest PSNR of any compared frame (dB; nil when every frame was exact or none was compared).
        public var worstPSNR: Double?
        public var worstFrame: String?
        /// Every frame outside the tolerance: `door back t=0.5 3840x2160: upside down (...)`.
        public var failures: [String] = []
        public var timings: [Timing] = []
        /// Why it could not be made (a platform asked for that is not there).
        public var unavailable: String?
        /// Why it failed while drawing (a call that failed, a shader that did not compile).
        public var error: String?
        /// Empty frames read back, for GLES: the device-to-host rate against the link's.
        public var transfer: Transfer?
        /// For GLES: the paths checked (`raster`, `compute`, ...) and how the read-back buffers are mapped.
        public var paths: [String] = []
        /// For GLES: what jobs use checked on each path (`OutputCheck`), one entry a path.
        public var outputs: [OutputCheck] = []
        /// For GLES: which path drew the catalogue's frames on each path asked for, as the renderer counted
        /// them (`compute at 375x667: compute 174`); a path that drew none of them fails.
        public var catalogueDrawnBy: [String] = []
        public var readback: String?
        /// For GLES: what the driver said through `KHR_debug` while the checks ran (buffer placement, transfers
        /// synchronised with rendering, ...), as `GLESRenderer.driverMessages` gives them.
        public var driverMessages: [String] = []
        /// For GLES: the platform on which this driver was already checked in full, when it was (then this
        /// platform is compared at the first size on the raster path, and its shaders and timings are not repeated).
        public var checkedOn: String?
        /// Where the check's time went, part by part (`catalogue on raster at 375x667`, `timings`, ...).
        public var phases: [Phase] = []

        /// It was made and every frame it drew agrees with the reference.
        public var ok: Bool { unavailable == nil && error == nil && failures.isEmpty }

        /// One line: `gles on device (...): ok, 348 frames within ..., worst PSNR 52.1 dB (door back t=0.5)`.
        public var verdict: String {
            let name = backend + (platform.map { " on \($0)" } ?? "")
            if let unavailable { return "\(name): unavailable - \(unavailable)" }
            if let error { return "\(name): FAILED - \(error)" }
            let worst = worstPSNR.map { String(format: ", worst PSNR %.1f dB", $0) + (worstFrame.map { " (\($0))" } ?? "") } ?? ""
            if backend == "cpu" { return "\(name): ok (the reference), \(details)" }
            if let first = failures.first {
                return "\(name): FAILED - \(failures.count) of \(framesCompared) frames wrong; first: \(first)"
            }
            return "\(name): ok - \(framesCompared) frames agree with the CPU compositor\(worst); \(details)"
        }
    }

    /// One part of a backend's check and the seconds it took.
    public struct Phase: Sendable, Codable {
        public var name: String
        public var seconds: Double
    }

    /// Frames per second of one stage at one size.
    public struct Timing: Sendable, Codable {
        public var width: Int
        public var height: Int
        /// `draw`, `readback`, `draw+readback pipelined`, `readback of an empty frame`, or `draw` for the CPU.
        public var stage: String
        public var framesPerSecond: Double
        public var msPerFrame: Double { framesPerSecond > 0 ? 1000 / framesPerSecond : 0 }
    }

    /// What jobs use, checked on one GLES path: RGBA lent from the read-back ring against the CPU compositor,
    /// and 4:2:0 and 4:4:4 planes converted by the GPU against the C kernel, at an even and an odd size.
    public struct OutputCheck: Sendable, Codable {
        /// The path asked for: `raster`, `compute`, `compute-staged`.
        public var path: String
        /// The frame sizes checked: `640x360`, `647x367`.
        public var sizes: [String]
        /// Frames drawn: each size's frames as RGBA, as 4:2:0 planes and as 4:4:4 planes.
        public var frames: Int
        /// Frames the renderer counted as drawn by each path meanwhile, and each fallback by its reason
        /// (`GLESStats`); every frame should be the path's own.
        public var drawnBy: [String: Int]
        /// Frames wrong (outside the tolerance as RGBA, or a plane byte unlike the C kernel's).
        public var wrong: Int

        /// Whether every frame was drawn by the path asked for.
        public var drawnByThePath: Bool { drawnBy[path] == frames }

        /// `compute: RGBA from the read-back ring, 4:2:0 and 4:4:4 planes at 640x360 and 647x367: 18 frames, 18 drawn by compute`.
        public var line: String {
            let counted = drawnBy.sorted { $0.key < $1.key }.map { "\($0.value) drawn by \($0.key)" }.joined(separator: ", ")
            return "\(path): RGBA from the read-back ring, 4:2:0 and 4:4:4 planes at \(sizes.joined(separator: " and ")): "
                + "\(frames) frames, \(counted.isEmpty ? "none counted as drawn by any path" : counted)"
                + (wrong > 0 ? ", \(wrong) wrong" : "")
        }
    }

    /// Device-to-host: empty frames (a clear and nothing drawn) read back through the pipelined ring for
    /// `transferSeconds`, with the GPU's PCIe link and nvidia-smi read while they go.
    public struct Transfer: Sendable, Codable {
        public var width: Int
        public var height: Int
        public var frames: Int
        public var seconds: Double
        /// Bytes of RGBA read back a second, in GB/s (10^9 bytes).
        public var gigabytesPerSecond: Double
        /// The GPU the frames came from, its link as read halfway through the frames; nil on a software
        /// rasterizer or where none was found (`pcieProblem` says which).
        public var gpu: PCIDevice?
        /// How `gpu` was found (`the PCI device of /dev/dri/renderD128`, `the only PCI GPU`).
        public var gpuFoundAs: String?
        public var pcieProblem: String?
        /// `gigabytesPerSecond` over what the link carries one way at the generation and width read during it.
        public var fractionOfLink: Double?
        /// nvidia-smi started as the frames began (the GPU kept busy until it answered), or why not.
        public var nvidiaSMI: NvidiaSMI?
        public var nvidiaSMIProblem: String?

        /// `readback: 3840x2160 empty frames, 120 in 0.50 s: 19.9 GB/s device to host, 32% of the link (Gen5 x16 ...)`.
        public var lines: [String] {
            var first = String(format: "readback: %dx%d empty frames, %d in %.2f s: %.2f GB/s device to host",
                               width, height, frames, seconds, gigabytesPerSecond)
            if let fractionOfLink, let rate = gpu?.link?.gigabytesPerSecond {
                first += String(format: ", %.0f%% of the link's %.1f GB/s", fractionOfLink * 100, rate)
            }
            var lines = [first]
            if let gpu {
                let link = gpu.link.map { "\($0)" } ?? "no PCIe link in sysfs"
                lines.append("  pcie during it: \(gpu) (\(gpuFoundAs ?? "found")): \(link)")
            } else if let pcieProblem {
                lines.append("  pcie: \(pcieProblem)")
            }
            if let nvidiaSMI {
                lines += nvidiaSMI.readings.map { "  nvidia-smi during it: \($0)" }
            } else if let nvidiaSMIProblem {
                lines.append("  " + NvidiaSMI.line(nvidiaSMIProblem))
            }
            return lines
        }
    }

    /// What the machine is, read before any backend is checked (the GPU at rest): the GPUs' PCIe links from
    /// sysfs and nvidia-smi's P-state and clocks.
    public struct MachineReport: Sendable, Codable {
        /// Every PCI GPU, each with its link as read then.
        public var gpus: [PCIDevice]
        /// Why there is none.
        public var pcieProblem: String?
        public var nvidiaSMI: NvidiaSMI?
        public var nvidiaSMIProblem: String?

        /// `pcie at rest: 0000:01:00.0 NVIDIA 10de:2335: Gen1 x16 now (...), Gen5 x16 at most (...)`, then nvidia-smi's.
        public var lines: [String] {
            var lines = gpus.map { "pcie at rest: \($0): \($0.link.map { "\($0)" } ?? "no PCIe link in sysfs")" }
            if let pcieProblem { lines.append("pcie: \(pcieProblem)") }
            if let nvidiaSMI {
                lines += nvidiaSMI.readings.map { "nvidia-smi at rest: \($0)" }
            } else if let nvidiaSMIProblem {
                lines.append(NvidiaSMI.line(nvidiaSMIProblem))
            }
            return lines
        }
    }

    public struct Report: Sendable, Codable {
        /// The GPUs' links and nvidia-smi, at rest.
        public var machine: MachineReport
        public var backends: [BackendReport]
        /// What `--backend auto` takes here and why.
        public var auto: String
        /// Whether GLES reached a GPU, and if not, what is missing (`GPUReach`): `gpu: none reached: ...`.
        public var gpu: String
        public var tolerance: String
        public var seconds: Double
        /// Every backend that could be made agrees with the CPU compositor; a platform that was asked for by
        /// name must also be there.
        public var ok: Bool { backends.allSatisfy { $0.ok || ($0.unavailable != nil && !forced) } }
        /// Whether GLES was asked for by name (a platform, or GLES alone: `segue doctor --backend gles`).
        public var forced: Bool

        /// For each size timed on both, which backend delivers frames faster here: GLES drawing and reading
        /// back pipelined against the CPU compositor drawing on all cores (what a job gets from each):
        /// `3840x2160: cpu 0.64 ms a frame, gles on device 2.02 ms: the CPU compositor is 3.2x faster here`.
        public var speedComparison: [String] {
            guard let cpu = backends.first(where: { $0.backend == "cpu" }),
                  let gles = backends.first(where: { $0.backend == "gles" && !$0.timings.isEmpty }) else { return [] }
            return cpu.timings.compactMap { c in
                guard let g = gles.timings.first(where: { $0.width == c.width && $0.height == c.height
                                                          && $0.stage == "draw+readback pipelined" }),
                      c.framesPerSecond > 0, g.framesPerSecond > 0 else { return nil }
                let ratio = max(c.framesPerSecond, g.framesPerSecond) / min(c.framesPerSecond, g.framesPerSecond)
                let winner = c.framesPerSecond >= g.framesPerSecond ? "the CPU compositor" : "GLES"
                return String(format: "%dx%d: cpu %.2f ms a frame, gles%@ %.2f ms: %@ is %.1fx faster here",
                              c.width, c.height, c.msPerFrame, gles.platform.map { " on \($0)" } ?? "", g.msPerFrame,
                              winner, ratio)
            }
        }
    }

    public var options: Options

    public init(options: Options = Options()) { self.options = options }

    /// Moves the job on (see `run`), or throws once it was cancelled.
    private func step(_ control: JobControl?, _ activity: @autoclosure () -> String) throws {
        guard let control else { return }
        try control.check()
        control.touch(activity())
    }

    /// Runs the checks; `progress` hears a line as each part starts. Each frame and each timing moves
    /// `control` on (so a watchdog on it catches a driver that hangs), and a cancelled `control` ends the
    /// check at the next frame with that backend reported as failed.
    public func run(control: JobControl? = nil, progress: (String) -> Void = { _ in }) -> Report {
        defer { control?.idle() }
        let start = Date()
        progress("reading the PCIe links and nvidia-smi")
        let machine = describeMachine(control: control)
        var backends: [BackendReport] = []
        let reference = CPUCompositor(threads: options.threads ?? ProcessInfo.processInfo.activeProcessorCount)
        if options.gles {
            var checked: [String: String] = [:]  // driver: the platform it was checked on in full
            let (targets, probes) = glesTargets()
            if targets.isEmpty {
                // No platform initialises (no driver, or no libEGL at all): one line saying why; a failure only
                // when GLES was asked for (`--backend gles`, `--egl-platform`).
                let why = probes.isEmpty ? "no EGL platform gave a GLES 3 context"
                    : Set(probes.map(\.detail)).count == 1 ? probes[0].detail : probes.map(\.description).joined(separator: "; ")
                backends.append(BackendReport(backend: "gles", details: "", software: false, unavailable: why))
            }
            for target in targets {
                progress("checking gles on \(target)")
                backends.append(checkGLES(target, reference: reference, checkedDrivers: checked, control: control, progress: progress))
                if let last = backends.last, let driver = last.driver, checked[driver] == nil, last.unavailable == nil {
                    checked[driver] = last.platform ?? target.description
                }
            }
        }
        if options.cpu {
            progress("timing cpu")
            var report = BackendReport(backend: "cpu", details: reference.details, software: true)
            let started = Self.now()
            report.timings = timeCPU(reference, control: control)
            report.phases = [Phase(name: "timings", seconds: Self.now() - started)]
            backends.append(report)
        }
        let hardware = backends.first { $0.backend == "gles" && $0.unavailable == nil && !$0.software }
        let gpu = GPUReach.look(gpus: machine.gpus).line(hardware: hardware.map { "\($0.details) (gles on \($0.platform ?? "?"))" })
        return Report(machine: machine, backends: backends, auto: BackendChoice.autoChoice(), gpu: gpu, tolerance: options.tolerance.description,
                      seconds: Date().timeIntervalSince(start), forced: options.target != nil || (options.gles && !options.cpu))
    }

    /// The platforms to check: the one asked for, or each one that initialises (tried in order); with the
    /// probes, which say why none does.
    private func glesTargets() -> ([EGLTarget], [PlatformProbe]) {
        if let target = options.target { return ([target.egl], []) }
        let probes = GLESRenderer.probe()
        return (probes.filter(\.ok).map { EGLTarget(platform: $0.platform) }, probes)
    }

    // MARK: GLES against the CPU

    /// Checks one platform. A driver already checked in full on another platform (llvmpipe is both the
    /// `device` and the `surfaceless` platform where there is no GPU) is compared at the first size and on the
    /// raster path only, and its shipped shaders, planes and timings are not repeated: the platform changes how
    /// the context is made, not how the driver draws (on llvmpipe this took `segue doctor --quick` from 68 s to
    /// about 45 s; not repeating the shaders, planes and timings took `segue doctor` from 154 s to 120 s at a
    /// load average of 10).
    private func checkGLES(_ target: EGLTarget, reference: CPUCompositor, checkedDrivers: [String: String], control: JobControl?,
                           progress: (String) -> Void) -> BackendReport {
        let gles: GLESRenderer
        do {
            try step(control, "making a GLES context on \(target)")
            // Set as a job's is (on a software rasterizer: motion blur summed and planes converted on the CPU).
            gles = try GLESRenderer(platform: target.platform, device: target.device).tuneForDevice()
        } catch {
            return BackendReport(backend: "gles", platform: target.description, details: "", software: false,
                                 unavailable: "\(error)")
        }
        var report = BackendReport(backend: "gles", platform: target.description + (gles.location.map { " (\($0))" } ?? ""),
                                   details: gles.details, software: gles.softwareRasterizer != nil,
                                   driver: "\(gles.info.renderer), \(gles.info.version)")
        report.paths = gles.paths
        report.readback = gles.readbackMapping
        // Not in a `defer`: a defer runs after `return report` has copied the report, and the driver's messages
        // were never in it.
        do {
            report.checkedOn = checkedDrivers[report.driver ?? ""]
            let again = report.checkedOn != nil
            let sizes = again ? Array(options.sizes.prefix(1)) : options.sizes
            let paths = again ? [GLESPath.raster.rawValue] : gles.paths
            try compareCatalogue(gles, reference: reference, sizes: sizes, paths: paths, into: &report, control: control, progress: progress)
            var clock = Self.now()
            func lap(_ name: String) {
                let now = Self.now()
                report.phases.append(Phase(name: name, seconds: now - clock))
                clock = now
            }
            try checkOutputs(gles, reference: reference, paths: paths, into: &report, control: control, progress: progress)
            lap("what jobs use")
            // The shipped shaders, the planes' conversion and the timings are the driver's, whatever the platform:
            // on the H200 the second platform's timings were the first's within 4% (2.11 and 2.03 ms a 4K frame),
            // and on llvmpipe they took 40 of doctor's 113 s.
            if !again {
                try checkShippedShaders(gles, into: &report, control: control)
                try checkPlanes(gles, into: &report, control: control)
                lap("shaders and planes")
                progress("timing gles on \(target)")
                report.timings = try timeGLES(gles, control: control)
                lap("timings")
                report.transfer = try measureTransfer(gles, control: control)
                lap("transfer")
            }
        } catch {
            report.error = "\(error)"
        }
        report.driverMessages = gles.driverMessages()
        return report
    }

    private func compareCatalogue(_ gles: GLESRenderer, reference: CPUCompositor, sizes: [(frame: Size, scale: Double)],
                                  paths: [String], into report: inout BackendReport, control: JobControl?, progress: (String) -> Void) throws {
        for (index, (frame, scale)) in sizes.enumerated() {
            let snapshots = Self.samples(frame, scale: scale)
            try gles.load(snapshots: snapshots)
            try reference.load(snapshots: snapshots)
            let info = snapshots.map(SnapshotInfo.init)
            var actual = Pixmap(width: 0, height: 0), expected = Pixmap(width: 0, height: 0)
            progress("  \(snapshots[0].width)x\(snapshots[0].height): \(EffectCatalog.builtIn.count) effects")
            // Every frame on each GLES path: the raster path, then each other path where the context has it. On
            // a software rasterizer, which runs a compute dispatch's every branch on the CPU's cores, the other
            // paths are compared at the first size only (3840x2160 on the compute path took llvmpipe over a
            // minute), and in the middle of each effect only (where every effect has work: both ends are one
            // snapshot); `checkOutputs` checks them at an even and an odd size as jobs use them. The raster
            // path's larger sizes are compared in the middle only too (on 2 loaded cores, llvmpipe spent over
            // 240 s on the 174 raster frames at 3840x2160, against 75 s for every path at 375x667).
            for path in paths where path == GLESPath.raster.rawValue || gles.softwareRasterizer == nil || index == 0 {
            let started = Self.now()
            try gles.use(path: path)
            defer { try? gles.use(.raster) }
            gles.resetStats()
            defer {
                report.phases.append(Phase(name: "catalogue on \(path) at \(snapshots[0].width)x\(snapshots[0].height)", seconds: Self.now() - started))
                let stats = gles.stats
                report.catalogueDrawnBy.append("\(path) at \(snapshots[0].width)x\(snapshots[0].height): \(stats.pathSummary)")
                if stats.pathFrames[path, default: 0] == 0 {
                    report.failures.append("the \(path) path did not draw: the catalogue at \(snapshots[0].width)x\(snapshots[0].height) asked of it was drawn by \(stats.pathSummary)")
                }
            }
            for effect in EffectCatalog.builtIn {
                for direction in Direction.allCases {
                    let transition = Transition.example(effect, direction: direction)
                    for t in gles.softwareRasterizer == nil || (path == GLESPath.raster.rawValue && index == 0) ? options.progress : [0.5] {
                        let list = DrawList(scene: transition.scene(at: t, frame: frame, scale: scale), scale: scale,
                                            snapshots: info, background: Color(red: 0.1, green: 0.2, blue: 0.3))
                        try step(control, "drawing \(effect.name) \(direction.rawValue) t=\(t.formatted()) (segue doctor)")
                        try gles.draw(list, into: &actual)
                        try reference.draw(list, into: &expected)
                        let name = "\(effect.name) \(direction.rawValue) t=\(t.formatted()) \(list.width)x\(list.height)"
                            + (path == GLESPath.raster.rawValue ? "" : " (\(path) path)")
                        record(actual: actual, expected: expected, name: name, into: &report)
                    }
                }
            }
            }
        }
    }

    /// Counts a compared frame, keeps the worst PSNR, and names a failure with what is wrong with it (the
    /// first few are diagnosed; the rest only counted, as diagnosing tries several transforms of the frame).
    private func record(actual: Pixmap, expected: Pixmap, name: String, into report: inout BackendReport) {
        report.framesCompared += 1
        let comparison = FrameComparison(actual: actual, expected: expected, levels: options.tolerance.maxLevelDiff)
        if comparison.psnr.isFinite, comparison.psnr < (report.worstPSNR ?? .infinity) {
            report.worstPSNR = comparison.psnr
            report.worstFrame = name
        }
        guard !comparison.passes(options.tolerance) else { return }
        if report.failures.count < 3 {
            let fault = FrameFault.diagnose(actual: actual, expected: expected, tolerance: options.tolerance) ?? .differs
            report.failures.append("\(name): \(fault) (\(comparison))")
        } else {
            report.failures.append("\(name): \(comparison)")
        }
    }

    /// Each shipped shader at progress 0 against `from`, at 1 against `to` (both stretched to the frame, which
    /// is their size here), and in the middle: a picture that is neither blank nor either end.
    private func checkShippedShaders(_ gles: GLESRenderer, into report: inout BackendReport, control: JobControl?) throws {
        guard let (frame, scale) = options.sizes.first else { return }
        let ends = Self.samples(frame, scale: scale)
        try gles.load(snapshots: ends)
        var actual = Pixmap(width: 0, height: 0)
        for (name, transition) in ShippedTransitions.all {
            try step(control, "drawing shader:\(name) (segue doctor)")
            let prepared = try gles.prepare(transition)
            for (t, expected) in [(0.0, ends[0]), (1.0, ends[1])] {
                try gles.draw(prepared, progress: t, width: expected.width, height: expected.height, into: &actual)
                record(actual: actual, expected: expected, name: "shader:\(name) t=\(t.formatted()) \(actual.width)x\(actual.height)",
                       into: &report)
            }
            try gles.draw(prepared, progress: 0.5, width: ends[0].width, height: ends[0].height, into: &actual)
            report.framesCompared += 1
            let first = actual.pixels.first
            let middle = "shader:\(name) t=0.5 \(actual.width)x\(actual.height)"
            if !actual.pixels.contains(where: { $0 != first }) {
                report.failures.append("\(middle): \(FrameFault.blank(first ?? 0))")
            } else if ends.contains(where: { FrameComparison(actual: actual, expected: $0, levels: 0).psnr.isInfinite }) {
                report.failures.append("\(middle): the same as one end (nothing moved)")
            }
        }
    }

    /// The YCbCr planes the GPU converts for video against the C kernel's from the same frame read back:
    /// every matrix and range, 4:2:0 and 4:4:4, at an odd size, and the 4K video encoding at 4:2:0. Byte for
    /// byte: the shader does the kernel's integer arithmetic.
    private func checkPlanes(_ gles: GLESRenderer, into report: inout BackendReport, control: JobControl?) throws {
        let every = YCbCrEncoding.Matrix.allCases.flatMap { m in YCbCrEncoding.Range.allCases.map { YCbCrEncoding(m, $0) } }
        let cases: [(width: Int, height: Int, encoding: YCbCrEncoding, chroma: Y4M.Chroma)] =
            every.flatMap { e in [Y4M.Chroma.c420, .c444].map { (1921, 1081, e, $0) } }
            + [(3840, 2160, YCbCrEncoding.video(width: 3840, height: 2160), .c420)]
        var drawn: (width: Int, height: Int, frame: RenderFrame, rgba: Pixmap)?
        for c in cases {
            try step(control, "converting \(c.width)x\(c.height) to YCbCr (segue doctor)")
            if drawn == nil || drawn!.width != c.width {
                let frame = Size(Double(c.width), Double(c.height))
                let snapshots = Self.samples(frame, scale: 1)
                try gles.load(snapshots: snapshots)
                let list = DrawList(scene: Transition.example(EffectCatalog.named("door") ?? EffectCatalog.builtIn[0]).scene(at: 0.5, frame: frame, scale: 1),
                                    scale: 1, snapshots: snapshots.map(SnapshotInfo.init))
                var rgba = Pixmap(width: 0, height: 0)
                try gles.drawFrames(count: 1, frame: { _ in .layers(list) }, buffer: { nil }, deliver: { rgba = $1 })
                drawn = (c.width, c.height, .layers(list), rgba)
            }
            let y4m = Y4M(width: c.width, height: c.height, fps: 30, chroma: c.chroma, encoding: c.encoding)
            let kernel = y4m.frame(drawn!.rgba).dropFirst(6)
            var gpu: [UInt8] = []
            try gles.drawFrames(count: 1, frame: { _ in drawn!.frame }, planes: y4m.planes, deliver: { gpu = Array($1) })
            report.framesCompared += 1
            var worst = 0, differing = 0
            for (a, b) in zip(gpu, kernel) where a != b {
                worst = max(worst, abs(Int(a) - Int(b)))
                differing += 1
            }
            let name = "YCbCr 4:\(c.chroma == .c420 ? "2:0" : "4:4") \(c.encoding.matrix.rawValue) \(c.encoding.range.rawValue) \(c.width)x\(c.height)"
            if gpu.count != kernel.count {
                report.failures.append("\(name): \(gpu.count) bytes of planes, the C kernel's \(kernel.count)")
            } else if differing > 0 {
                report.failures.append("\(name): \(differing) of \(kernel.count) samples differ from the C kernel's, by up to \(worst) levels")
            }
        }
    }

    /// What jobs use, on each GLES path: RGBA lent from the read-back ring (`drawFrames(count:frame:lend:)`)
    /// against the CPU compositor under the tolerance, and 4:2:0 and 4:4:4 planes converted by the GPU
    /// (`drawFrames(count:frame:planes:deliver:)`) byte for byte against the C kernel's conversion of the same
    /// path's RGBA frame (so a GPU whose RGBA differs from the CPU's within the tolerance is not failed for its
    /// planes), at 640x360 and at 647x367 (7 pixels off a multiple of 8 each way: the planes' route for frames
    /// a dispatch's 8x8 tiles do not divide). Each path's frames must be counted as its own
    /// (`GLESStats.pathFrames`): a path that fell back fails, naming what drew instead.
    private func checkOutputs(_ gles: GLESRenderer, reference: CPUCompositor, paths: [String], into report: inout BackendReport,
                              control: JobControl?, progress: (String) -> Void) throws {
        let sizes = [(width: 640, height: 360), (width: 647, height: 367)]
        let transition = Transition.example(EffectCatalog.named("door") ?? EffectCatalog.builtIn[0])
        let original = gles.currentPath
        defer { try? gles.use(path: original) }
        progress("  what jobs use on \(paths.count == 1 ? "the \(paths[0]) path" : "each path"): RGBA from the read-back ring, 4:2:0 and 4:4:4 planes")
        for path in paths {
            try gles.use(path: path)
            gles.resetStats()
            var check = OutputCheck(path: path, sizes: sizes.map { "\($0.width)x\($0.height)" }, frames: 0, drawnBy: [:], wrong: 0)
            for (width, height) in sizes {
                try step(control, "checking \(width)x\(height) RGBA and planes on the \(path) path (segue doctor)")
                let frame = Size(Double(width), Double(height))
                let snapshots = Self.samples(frame, scale: 1)
                try gles.load(snapshots: snapshots)
                try reference.load(snapshots: snapshots)
                let lists = [0.3, 0.7].map {
                    DrawList(scene: transition.scene(at: $0, frame: frame, scale: 1), scale: 1, snapshots: snapshots.map(SnapshotInfo.init),
                             background: Color(red: 0.1, green: 0.2, blue: 0.3))
                }
                var rgba: [Pixmap] = []
                try gles.drawFrames(count: lists.count, frame: { .layers(lists[$0]) }, lend: { _, bytes in
                    var pixmap = Pixmap(width: width, height: height)
                    pixmap.pixels.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix($0.count))) }
                    rgba.append(pixmap)
                })
                check.frames += lists.count
                let failuresBefore = report.failures.count
                for (k, list) in lists.enumerated() {
                    let name = "door t=\(k == 0 ? "0.3" : "0.7") \(width)x\(height) RGBA from the read-back ring (\(path) path)"
                    guard k < rgba.count else {
                        report.failures.append("\(name): no frame lent")
                        continue
                    }
                    record(actual: rgba[k], expected: try reference.render(list), name: name, into: &report)
                }
                check.wrong += report.failures.count - failuresBefore
                for chroma in [Y4M.Chroma.c420, .c444] {
                    let y4m = Y4M(width: width, height: height, fps: 30, chroma: chroma, encoding: .video(width: width, height: height))
                    let name = "YCbCr 4:\(chroma == .c420 ? "2:0" : "4:4") \(width)x\(height) planes (\(path) path)"
                    var wrong = 0
                    try gles.drawFrames(count: lists.count, frame: { .layers(lists[$0]) }, planes: y4m.planes, deliver: { k, bytes in
                        report.framesCompared += 1
                        guard k < rgba.count else { return }
                        let kernel = y4m.frame(rgba[k]).dropFirst(6)
                        if bytes.count != kernel.count {
                            report.failures.append("\(name) frame \(k): \(bytes.count) bytes of planes, the C kernel's \(kernel.count)")
                            wrong += 1
                        } else if let first = zip(bytes, kernel).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                            let differing = zip(bytes, kernel).filter { $0 != $1 }.count
                            report.failures.append("\(name) frame \(k): \(differing) of \(kernel.count) samples differ from the C kernel's, the first at byte \(first)")
                            wrong += 1
                        }
                    })
                    check.frames += lists.count
                    check.wrong += wrong
                }
            }
            check.drawnBy = Self.drawnBy(gles.stats)
            if !check.drawnByThePath {
                report.failures.append("the \(path) path did not draw what jobs use: \(check.line)")
            }
            report.outputs.append(check)
        }
    }

    /// Frames drawn by each path, and each fallback as `fallback (its reason)`, as `stats` counted them.
    private static func drawnBy(_ stats: GLESStats) -> [String: Int] {
        var drawn = stats.pathFrames.filter { $0.value > 0 }
        for (reason, frames) in stats.fallbacks where frames > 0 { drawn["fallback (\(reason))", default: 0] += frames }
        return drawn
    }

    /// The built-in home and detail screens, `from` and `to` of every frame the doctor draws.
    private static func samples(_ frame: Size, scale: Double) -> [Pixmap] {
        [SampleScreens.home(width: frame.width, height: frame.height, scale: scale),
         SampleScreens.detail(width: frame.width, height: frame.height, scale: scale)]
    }

    // MARK: Speed

    /// The frames timed at `width` x `height`: the door half open (two perspective layers and a shade), a
    /// frame with real work in every stage.
    private func timedLists(width: Int, height: Int) -> (snapshots: [Pixmap], lists: [DrawList]) {
        let scale = Double(width) / 1280
        let frame = Size(1280, Double(height) / scale)
        let snapshots = Self.samples(frame, scale: scale)
        let transition = Transition(EffectCatalog.named("door") ?? EffectCatalog.builtIn[0])
        let lists = stride(from: 0.1, through: 0.9, by: 0.1).map {
            DrawList(scene: transition.scene(at: $0, frame: frame, scale: scale), scale: scale, snapshots: snapshots.map(SnapshotInfo.init))
        }
        return (snapshots, lists)
    }

    /// Seconds on the monotonic clock.
    private static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Runs `body` (which draws `frames` frames) once to warm up, then until `secondsPerTiming` have passed (at
    /// least once); frames/s.
    private func rate(frames: Int, _ body: () throws -> Void) rethrows -> Double {
        try body()  // warm-up: programs compiled, buffers sized
        let start = Date()
        var done = 0
        repeat {
            try body()
            done += frames
        } while Date().timeIntervalSince(start) < options.secondsPerTiming
        return Double(done) / Date().timeIntervalSince(start)
    }

    private func timeGLES(_ gles: GLESRenderer, control: JobControl?) throws -> [Timing] {
        var timings: [Timing] = []
        for (width, height) in options.timedSizes {
            try step(control, "timing gles at \(width)x\(height) (segue doctor)")
            let (snapshots, lists) = timedLists(width: width, height: height)
            try gles.load(snapshots: snapshots)
            var out = Pixmap(width: width, height: height)
            // Warmed first: on a GPU for a second (its clocks rise from idle), on a software rasterizer by one frame
            // (the programs compile; its 4K frames take 0.2-0.7 s each on 2 cores, and the old second of warm-up
            // and two passes at least made the timings 40 of doctor's 113 s).
            if gles.softwareRasterizer == nil {
                _ = try rate(frames: lists.count) { for list in lists { try gles.draw(list, into: &out) } }
            } else {
                try gles.draw(lists[0], into: &out)
            }
            // Drawn one at a time: the stats split each frame into drawing (to its fence) and reading back.
            gles.resetStats()
            for list in lists { try gles.draw(list, into: &out) }
            let stats = gles.stats
            timings.append(Timing(width: width, height: height, stage: "draw", framesPerSecond: 1 / max(stats.drawPerFrame, 1e-9)))
            timings.append(Timing(width: width, height: height, stage: "readback", framesPerSecond: 1 / max(stats.readbackPerFrame, 1e-9)))
            let pipelined = try rate(frames: lists.count) {
                try gles.drawFrames(count: lists.count, list: { lists[$0] }, deliver: { _, _ in })
            }
            timings.append(Timing(width: width, height: height, stage: "draw+readback pipelined", framesPerSecond: pipelined))
            // The compute path: the frame, and its 4:2:0 planes, written by one dispatch into the read-back buffer.
            // Not on a software rasterizer, which runs a compute dispatch's every branch on the CPU's cores (auto's
            // calibration times it there, in its second).
            if gles.supportsCompute, gles.softwareRasterizer == nil {
                try step(control, "timing the compute path at \(width)x\(height) (segue doctor)")
                try gles.use(.compute)
                defer { try? gles.use(.raster) }
                let planes = YCbCrEncoding.video(width: width, height: height).planes(subsampled: true)
                try gles.drawFrames(count: 1, frame: { _ in .layers(lists[0]) }, planes: planes, deliver: { _, _ in })  // compiles
                let compute = try rate(frames: lists.count) {
                    try gles.drawFrames(count: lists.count, list: { lists[$0] }, deliver: { _, _ in })
                }
                timings.append(Timing(width: width, height: height, stage: "compute draw+readback pipelined", framesPerSecond: compute))
                let computePlanes = try rate(frames: lists.count) {
                    try gles.drawFrames(count: lists.count, frame: { .layers(lists[$0]) }, planes: planes, deliver: { _, _ in })
                }
                timings.append(Timing(width: width, height: height, stage: "compute draw+readback 4:2:0 pipelined", framesPerSecond: computePlanes))
            }
            // The same frames as a video takes them: converted to 4:2:0 on the GPU, 1.5 bytes a pixel read back.
            // Not on a software rasterizer, where jobs convert on the CPU (`GLESRenderer.convertsPlanesOnGPU`).
            if gles.convertsPlanesOnGPU {
                let planes = YCbCrEncoding.video(width: width, height: height).planes(subsampled: true)
                let converted = try rate(frames: lists.count) {
                    try gles.drawFrames(count: lists.count, frame: { .layers(lists[$0]) }, planes: planes, deliver: { _, _ in })
                }
                timings.append(Timing(width: width, height: height, stage: "draw+readback 4:2:0 pipelined", framesPerSecond: converted))
            }
            // Nothing drawn but the clear: what reading a frame back costs on its own.
            let cleared = DrawList(scene: Scene(size: Size(Double(width), Double(height)), layers: []), scale: 1, snapshots: [])
            gles.resetStats()
            _ = try rate(frames: 4) { for _ in 0..<4 { try gles.draw(cleared, into: &out) } }
            let readOnly = gles.stats
            timings.append(Timing(width: width, height: height, stage: "readback of an empty frame",
                                  framesPerSecond: 1 / max(readOnly.readbackPerFrame, 1e-9)))
        }
        return timings
    }

    private func timeCPU(_ cpu: CPUCompositor, control: JobControl?) -> [Timing] {
        options.timedSizes.compactMap { width, height in
            guard (try? step(control, "timing cpu at \(width)x\(height) (segue doctor)")) != nil else { return nil }
            let (snapshots, lists) = timedLists(width: width, height: height)
            guard (try? cpu.load(snapshots: snapshots)) != nil else { return nil }
            var out = Pixmap(width: width, height: height)
            let fps = try? rate(frames: lists.count) { for list in lists { try cpu.draw(list, into: &out) } }
            return fps.map { Timing(width: width, height: height, stage: "draw", framesPerSecond: $0) }
        }
    }

    // MARK: The machine

    /// The GPUs' links and nvidia-smi, before anything is drawn.
    private func describeMachine(control: JobControl?) -> MachineReport {
        let gpus = options.sysfs.gpus()
        var report = MachineReport(gpus: gpus, pcieProblem: gpus.isEmpty ? options.sysfs.noGPU : nil)
        switch NvidiaSMI.read(path: options.path, timeout: options.nvidiaSMITimeout, control: control) {
        case let .success(smi): report.nvidiaSMI = smi
        case let .failure(error): report.nvidiaSMIProblem = error.message
        }
        return report
    }

    /// Empty frames at `transferSize` read back for about `transferSeconds` (the frame count set from a
    /// warm-up's pace): bytes a second, with the link read halfway through and nvidia-smi started with the
    /// first frame. Frames go on (uncounted) until nvidia-smi has answered, so that it reads a busy GPU.
    private func measureTransfer(_ gles: GLESRenderer, control: JobControl?) throws -> Transfer {
        let (width, height) = options.transferSize
        try step(control, "reading back empty \(width)x\(height) frames (segue doctor)")
        let cleared = DrawList(scene: Scene(size: Size(Double(width), Double(height)), layers: []), scale: 1, snapshots: [])
        let warm = DispatchTime.now().uptimeNanoseconds
        try gles.drawFrames(count: 4, list: { _ in cleared }, deliver: { _, _ in })
        let perFrame = max(Double(DispatchTime.now().uptimeNanoseconds - warm) / 4e9, 1e-6)
        let count = min(20_000, max(8, Int(options.transferSeconds / perFrame)))

        var gpu: (device: PCIDevice, how: String)?
        var pcieProblem: String?
        var query: NvidiaSMI.Query?
        var smiProblem: String?
        if let software = gles.softwareRasterizer {
            pcieProblem = "none: \(software) is a software rasterizer, whose frames cross no bus"
            smiProblem = "not asked: a software rasterizer"
        } else {
            gpu = options.sysfs.gpu(drmNode: SysfsPCI.drmNode(inLocation: gles.location))
            if gpu == nil { pcieProblem = options.sysfs.noGPU }
            if let executable = NvidiaSMI.find(path: options.path) {
                do { query = try NvidiaSMI.Query(executable: executable, timeout: options.nvidiaSMITimeout, control: control) } catch {
                    smiProblem = SegueError.from(error).message
                }
            } else {
                smiProblem = NvidiaSMI.notPresent
            }
        }
        var during: PCIeLink?
        let start = DispatchTime.now().uptimeNanoseconds
        try gles.drawFrames(count: count, list: { _ in cleared }, deliver: { k, _ in
            if k == count / 2, let gpu { during = options.sysfs.link(of: gpu.device) }
        })
        let seconds = max(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, 1e-9)
        var smi: NvidiaSMI?
        if let query {
            while !query.isDone, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 < query.timeout {
                try step(control, "reading back empty frames while nvidia-smi answers (segue doctor)")
                try gles.drawFrames(count: 8, list: { _ in cleared }, deliver: { _, _ in })
            }
            switch query.finish() {
            case let .success(answer): smi = answer
            case let .failure(error): smiProblem = error.message
            }
        }
        let rate = Double(count) * Double(width * height * 4) / seconds / 1e9
        var device = gpu?.device
        if let during { device?.link = during }
        return Transfer(width: width, height: height, frames: count, seconds: seconds, gigabytesPerSecond: rate,
                        gpu: device, gpuFoundAs: gpu?.how, pcieProblem: pcieProblem,
                        fractionOfLink: device?.link?.gigabytesPerSecond.map { rate / $0 },
                        nvidiaSMI: smi, nvidiaSMIProblem: smiProblem)
    }
}
