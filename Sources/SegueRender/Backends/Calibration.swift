import Foundation
import SegueCore
import SegueCPU
import SegueSamples

/// What `auto` measured on this machine: how long the CPU compositor, the GLES raster path and the GLES compute
/// path take a frame at a size class, read back as RGBA and as YCbCr planes, so that `auto` takes the fastest
/// for a job's output by measurement rather than by the GPU's name.
///
/// The first time a machine (its GLES device, its cores, and whether this is a debug build) meets a size class,
/// each candidate draws a door between the sample screens, one frame at a time at that class's size, in turn
/// until about a second has passed (after one small frame each, to compile what it needs); a candidate more
/// than 4x slower than the fastest is not timed again. The figures are kept in the user's cache directory
/// (`$XDG_CACHE_HOME/segue/calibration.json`, else `~/.cache/...`) for the next job. Where that file cannot be
/// written the calibration is measured again by each job that needs it, and each such job is told so once. A
/// cache this version cannot read (another shape, or too large) is measured again and replaced; a candidate it
/// names that this version does not know is not taken.
public struct Calibration: Codable, Sendable, Equatable {
    /// A job's frame size, to the nearest class measured: 1280x720, 1920x1080, 3840x2160 or 7680x4320.
    public enum SizeClass: String, Codable, Sendable, CaseIterable {
        /// 1280x720.
        case hd = "1280x720"
        /// 1920x1080.
        case fullHD = "1920x1080"
        /// 3840x2160.
        case uhd4K = "3840x2160"
        /// 7680x4320.
        case uhd8K = "7680x4320"

        /// The class of a `width` x `height` frame: 720p up to 1.5x its pixels, then each class up to 2x its own.
        public init(width: Int, height: Int) {
            let pixels = width * height
            if pixels <= 1280 * 720 * 3 / 2 { self = .hd }
            else if pixels <= 1920 * 1080 * 2 { self = .fullHD }
            else if pixels <= 3840 * 2160 * 2 { self = .uhd4K }
            else { self = .uhd8K }
        }

        /// The size the class is measured at.
        public var size: (width: Int, height: Int) {
            switch self {
            case .hd: return (1280, 720)
            case .fullHD: return (1920, 1080)
            case .uhd4K: return (3840, 2160)
            case .uhd8K: return (7680, 4320)
            }
        }
    }

    /// Milliseconds a frame, by candidate: `cpu`, `gles-raster`, `gles-compute` (absent where the context has
    /// no compute path), each drawn and read back as RGBA (`rgba`) and as 4:2:0 planes (`planes`: converted by
    /// the GPU for GLES, by the C kernel for the CPU compositor); and the C kernel's conversion alone
    /// (`convert`), which a GLES path that reads back RGBA pays on the CPU.
    public struct Figures: Codable, Sendable, Equatable {
        /// Milliseconds a frame read back as RGBA, by candidate.
        public var rgba: [String: Double]
        /// Milliseconds a frame read back as 4:2:0 planes, by candidate.
        public var planes: [String: Double]
        /// Milliseconds the C kernel takes to convert one RGBA frame to planes.
        public var convert: Double
    }

    /// `llvmpipe (LLVM 15.0.6, 256 bits); OpenGL ES 3.2 Mesa 22.3.6; 2 cores`.
    public var machine: String
    /// The size class measured.
    public var sizeClass: SizeClass
    /// What each candidate took.
    public var figures: Figures
    /// How long the calibration took, in seconds.
    public var seconds: Double

    /// One way `auto` can draw a job: the CPU compositor or a GLES path (`cpu`, `gles-raster`, `gles-compute`),
    /// and for GLES whether a job's planes are converted on the GPU (else by the C kernel).
    public struct Candidate: Sendable, Equatable {
        /// `.cpu`, `.glesRaster` or `.glesCompute`.
        public var backend: BackendChoice
        /// For GLES: whether the planes are converted on the GPU.
        public var planesOnGPU: Bool

        /// A candidate: `backend`, and for GLES whether it converts a job's planes on the GPU.
        public init(backend: BackendChoice, planesOnGPU: Bool = false) {
            self.backend = backend
            self.planesOnGPU = planesOnGPU
        }

        /// The backends a calibration times, by the names its figures are kept under (`BackendChoice`'s raw values).
        static let measured: [BackendChoice] = [.cpu, .glesRaster, .glesCompute]

        /// The candidate a cached figure's key names; nil for a key this version does not time.
        init?(key: String, planesOnGPU: Bool) {
            guard let backend = BackendChoice(rawValue: key), Self.measured.contains(backend) else { return nil }
            self.init(backend: backend, planesOnGPU: planesOnGPU && backend != .cpu)
        }
    }

    /// A candidate and the milliseconds a frame it was measured at, for the job's output.
    public struct Timed: Sendable, Equatable {
        /// The candidate measured.
        public var candidate: Candidate
        /// Milliseconds a frame, as measured for the job's output (RGBA, or planes with their conversion).
        public var milliseconds: Double
    }

    /// What `auto` draws with for a job whose output is read back as planes or RGBA, and why: the fastest
    /// candidate as measured, and the next fastest of another backend.
    public struct Decision: Sendable, Equatable {
        /// The candidate taken, with its milliseconds a frame; the CPU compositor at 0 ms when nothing was measured.
        public var taken: Timed
        /// The next fastest candidate of another backend (else the next fastest), nil when only one was measured.
        public var runnerUp: Timed?

        /// `cpu`, `gles-raster`, `gles-compute`.
        public var backend: BackendChoice { taken.candidate.backend }
        /// For GLES: whether the planes are converted on the GPU (else by the C kernel).
        public var planesOnGPU: Bool { taken.candidate.planesOnGPU }
        /// Milliseconds a frame, as measured.
        public var milliseconds: Double { taken.milliseconds }
    }

    /// The fastest candidate for a job whose frames leave as planes (a Y4M stream or a video) or as RGBA: a
    /// candidate that reads back RGBA pays the C kernel's conversion for planes; a GLES path may convert them
    /// on the GPU instead. Figures under a name this version does not time are left out.
    public func decision(planes: Bool) -> Decision {
        var timed: [Timed] = []
        for (key, ms) in figures.rgba {
            guard let candidate = Candidate(key: key, planesOnGPU: false) else { continue }
            timed.append(Timed(candidate: candidate, milliseconds: planes ? ms + figures.convert : ms))
        }
        if planes {
            for (key, ms) in figures.planes {
                guard let candidate = Candidate(key: key, planesOnGPU: true), candidate.planesOnGPU else { continue }
                timed.append(Timed(candidate: candidate, milliseconds: ms))
            }
        }
        // Fastest first; equal times in a fixed order (the figures are a dictionary).
        timed.sort {
            ($0.milliseconds, $0.candidate.backend.rawValue, $0.candidate.planesOnGPU ? 1 : 0)
                < ($1.milliseconds, $1.candidate.backend.rawValue, $1.candidate.planesOnGPU ? 1 : 0)
        }
        guard let best = timed.first else {
            return Decision(taken: Timed(candidate: Candidate(backend: .cpu), milliseconds: 0), runnerUp: nil)
        }
        let rest = timed.dropFirst()
        return Decision(taken: best, runnerUp: rest.first { $0.candidate.backend != best.candidate.backend } ?? rest.first)
    }

    /// One line for `segue info` and doctor: `cpu 3.2 ms, gles-raster 41.0 ms, gles-compute 55.1 ms a frame as
    /// RGBA at 1920x1080; as planes ...`.
    public var summary: String {
        func list(_ figures: [String: Double]) -> String {
            figures.sorted { $0.value < $1.value }.map { "\($0.key) \(String(format: "%.2f", $0.value)) ms" }.joined(separator: ", ")
        }
        return "at \(sizeClass.rawValue): RGBA \(list(figures.rgba)); planes \(list(figures.planes)); "
            + "the C kernel's conversion \(String(format: "%.2f", figures.convert)) ms (measured in \(String(format: "%.2f", seconds)) s)"
    }
}

extension Calibration {
    /// The machine's identity for the cache: the device the GPU renderer runs on and the cores (and a debug
    /// build's unoptimised CPU compositor apart from a release build's).
    static func machine(_ gpu: (any Renderer)?, cores: Int) -> String {
        #if DEBUG
        let build = "; debug build"
        #else
        let build = ""
        #endif
        if let gpu { return "\(gpu.device); \(cores) cores\(build)" }
        return "no GLES; \(cores) cores\(build)"
    }

    /// The cache file: `$XDG_CACHE_HOME/segue/calibration.json`, else `$HOME/.cache/segue/calibration.json`; nil
    /// where neither is set.
    public static func cacheFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("segue/calibration.json")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home).appendingPathComponent(".cache/segue/calibration.json")
        }
        return nil
    }

    /// The calibrations cached in `file` (none when it is missing, unreadable or not ours).
    static func cached(in file: URL?) -> [Calibration] {
        guard let file, let data = try? Data(contentsOf: file), data.count < 1 << 20 else { return [] }
        return (try? JSONDecoder().decode([Calibration].self, from: data)) ?? []
    }

    /// How a calibration is measured: `measure(gles:cores:sizeClass:budget:)`, or a test's stand-in.
    typealias Measure = (_ gles: any MultiPathRenderer, _ cores: Int, _ sizeClass: SizeClass) throws -> Calibration

    /// The cached calibration for this machine and size class, else a new one, measured now by `measure` and
    /// cached (`note` says so once when the cache cannot be written: it is then measured again next time).
    static func load(gles: any MultiPathRenderer, cores: Int, sizeClass: SizeClass, file: URL? = cacheFile(),
                     note: (String) -> Void = { _ in },
                     measure: Measure = { try Calibration.measure(gles: $0, cores: $1, sizeClass: $2) }) throws -> Calibration {
        let machine = machine(gles, cores: cores)
        var all = cached(in: file)
        if let known = all.first(where: { $0.machine == machine && $0.sizeClass == sizeClass }) { return known }
        let measured = try measure(gles, cores, sizeClass)
        all.removeAll { $0.machine == machine && $0.sizeClass == sizeClass }
        all.append(measured)
        do {
            guard let file else { throw CocoaError(.fileNoSuchFile) }
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let temporary = file.deletingLastPathComponent().appendingPathComponent(".calibration-\(getpid()).json")
            try encoder.encode(all).write(to: temporary)
            if rename(temporary.path, file.path) != 0 {
                try? FileManager.default.removeItem(at: temporary)
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            note("the calibration of auto cannot be cached (\(file?.path ?? "no XDG_CACHE_HOME or HOME")): it will be measured again next time")
        }
        return measured
    }

    /// Measures every candidate at `sizeClass` within about `budget` seconds: one frame each first at a small
    /// size (compiling what it needs), then a frame of each in turn until the time is spent, each candidate at
    /// least once (so a machine on which one frame of each takes longer spends that); a candidate more than 4x
    /// slower than the fastest after its first frame is not timed again.
    static func measure(gles: any MultiPathRenderer, cores: Int, sizeClass: SizeClass, budget: Double = 1) throws -> Calibration {
        let started = ContinuousClock.now
        let (width, height) = sizeClass.size
        let snapshots = [SampleScreens.home(width: Double(width), height: Double(height)),
                         SampleScreens.detail(width: Double(width), height: Double(height))]
        func list(_ k: Int, width: Int, height: Int) -> DrawList {
            let scene = Transition(EffectCatalog.named("door") ?? EffectCatalog.builtIn[0]).scene(at: 0.3 + 0.1 * Double(k % 4), frame: Size(Double(width), Double(height)), scale: 1)
            return DrawList(scene: scene, scale: 1, snapshots: snapshots.map(SnapshotInfo.init))
        }
        let cpu = CPUCompositor(threads: cores)
        try cpu.load(snapshots: snapshots)
        try gles.load(snapshots: snapshots)
        let frames = 1

        // Candidates: a name, what it reads back, and one run of `frames` frames.
        var candidates: [(name: String, planes: Bool, run: (Int, Int) throws -> Void)] = []
        candidates.append(("cpu", false, { w, h in
            try cpu.drawFrames(count: frames, frame: { .layers(list($0, width: w, height: h)) }, buffer: { nil }, deliver: { _, _ in })
        }))
        let defaultPath = gles.currentPath
        for path in gles.paths {
            let name = "gles-\(path)"
            candidates.append((name, false, { w, h in
                try gles.use(path: path)
                try gles.drawFrames(count: frames, frame: { .layers(list($0, width: w, height: h)) }, buffer: { nil }, deliver: { _, _ in })
            }))
            candidates.append((name, true, { w, h in
                try gles.use(path: path)
                let p = YCbCrEncoding.video(width: w, height: h).planes(subsampled: true)
                try gles.drawFrames(count: frames, frame: { .layers(list($0, width: w, height: h)) }, planes: p, deliver: { _, _ in })
            }))
        }
        defer { try? gles.use(path: defaultPath) }
        // Warm up at a small size: shaders compiled, buffers made.
        for candidate in candidates { try candidate.run(64, 36) }

        var totals = [Double](repeating: 0, count: candidates.count), runs = [Int](repeating: 0, count: candidates.count)
        func mean(_ k: Int) -> Double { totals[k] / Double(max(runs[k], 1)) / Double(frames) * 1000 }
        repeat {
            for k in candidates.indices {
                if runs[k] > 0, let fastest = candidates.indices.filter({ runs[$0] > 0 }).map(mean).min(), mean(k) > 4 * fastest { continue }
                let start = ContinuousClock.now
                try candidates[k].run(width, height)
                totals[k] += (ContinuousClock.now - start).seconds
                runs[k] += 1
            }
        } while (ContinuousClock.now - started).seconds < budget

        // The C kernel's conversion of one frame.
        let frame = try cpu.render(list(0, width: width, height: height))
        let y4m = Y4M(width: width, height: height, fps: 30, chroma: .c420, encoding: YCbCrEncoding.video(width: width, height: height))
        let convertStart = ContinuousClock.now
        _ = y4m.frame(frame)
        let convert = (ContinuousClock.now - convertStart).seconds * 1000

        var rgba: [String: Double] = [:], planeFigures: [String: Double] = [:]
        for k in candidates.indices {
            if candidates[k].planes { planeFigures[candidates[k].name] = mean(k) } else { rgba[candidates[k].name] = mean(k) }
        }
        planeFigures["cpu"] = rgba["cpu"].map { $0 + convert }
        return Calibration(machine: machine(gles, cores: cores), sizeClass: sizeClass,
                           figures: Figures(rgba: rgba, planes: planeFigures, convert: convert),
                           seconds: (ContinuousClock.now - started).seconds)
    }
}

extension Duration {
    fileprivate var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}
