import Foundation
import SegueCore
import SegueCPU
import SegueImageIO
import SegueSamples

/// What `auto` measured on this machine: how long the CPU compositor and each GLES path take a frame at a size
/// class, read back as RGBA and as YCbCr planes, so that `auto` takes the fastest for a job's output by
/// measurement rather than by the GPU's name.
///
/// The first time a machine (its GLES device and driver, its cores, and whether this is a debug build) meets a
/// size class with this build of segue, each candidate (`cpu`, and `gles-<path>` for each of the renderer's
/// `paths`) draws a door between the sample screens at that class's size: a warm-up frame (compiling what it
/// needs, the read-back buffers made at the frame's size), then one pipelined run of 8 frames, as a job
/// draws them; its figure is the median time between frames delivered (a candidate whose one frame took more
/// than 12x the fastest keeps that frame's time: it cannot win). The CPU compositor goes first, then every GLES path read back as RGBA, then
/// every GLES path read back as 4:2:0 planes, so the read-back
/// buffers are made once for each and never between a warm-up and its timed run. The figures are kept in the
/// user's cache directory (`$XDG_CACHE_HOME/segue/calibration.json`, else `~/.cache/...`), with the build
/// that measured them and when, for the next job; an entry of another build, or older than 30 days
/// (`lifetime`), is measured again. Where that file cannot be written the calibration is measured again by
/// each job that needs it, and each such job is told so once. A cache this version cannot read (another
/// shape, or too large) is measured again and replaced, as is an entry with a figure that names no candidate
/// here, or is not a finite, positive number of milliseconds.
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

    /// Milliseconds a frame, by candidate name (`Candidate.name`: `cpu`, `gles-raster`, `gles-compute`, ...),
    /// each drawn and read back as RGBA (`rgba`) and as 4:2:0 planes (`planes`: converted by the GPU for GLES,
    /// by the C kernel for the CPU compositor); and the C kernel's conversion alone (`convert`), which a GLES
    /// path that reads back RGBA pays on the CPU.
    public struct Figures: Codable, Sendable, Equatable {
        /// Milliseconds a frame read back as RGBA, by candidate.
        public var rgba: [String: Double]
        /// Milliseconds a frame read back as 4:2:0 planes, by candidate.
        public var planes: [String: Double]
        /// Milliseconds the C kernel takes to convert one RGBA frame to planes.
        public var convert: Double

        /// Figures as measured.
        public init(rgba: [String: Double], planes: [String: Double], convert: Double) {
            self.rgba = rgba
            self.planes = planes
            self.convert = convert
        }
    }

    /// `llvmpipe (LLVM 15.0.6, 256 bits); OpenGL ES 3.2 Mesa 22.3.6; 2 cores`: the GLES device and its driver,
    /// and the cores.
    public var machine: String
    /// The size class measured.
    public var sizeClass: SizeClass
    /// What each candidate took.
    public var figures: Figures
    /// How long the calibration took, in seconds.
    public var seconds: Double
    /// The build of segue that measured it (`SegueBuild.identity`); nil in a cache an earlier version wrote.
    public var build: String?
    /// When it was measured; nil in a cache an earlier version wrote.
    public var measured: Date?
    /// The frames each candidate's timed run drew (1 for one whose frame took over 12x the fastest); nil in a
    /// cache an earlier version wrote.
    public var frames: Int?
    /// Why the machine was busy while it was measured (`load average 3.64 on 2 cores`: other work shared the
    /// cores, so the figures may be far from a quiet machine's); nil when it was quiet. Such a calibration is
    /// kept for `busyLifetime`, and a quiet machine measures again at once.
    public var busy: String?

    /// A calibration of `machine` at `sizeClass`, measured by `build` at `measured`.
    public init(machine: String, sizeClass: SizeClass, figures: Figures, seconds: Double,
                build: String? = SegueBuild.identity, measured: Date? = Date(), frames: Int? = nil, busy: String? = nil) {
        self.machine = machine
        self.sizeClass = sizeClass
        self.figures = figures
        self.seconds = seconds
        self.build = build
        // To the second, as the cache keeps it.
        self.measured = measured.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
        self.frames = frames
        self.busy = busy
    }

    /// How long a calibration is used for before it is measured again: 30 days.
    public static let lifetime: TimeInterval = 30 * 86_400
    /// How long one measured on a busy machine is used for: an hour (a farm node that is never quiet measures
    /// once an hour, not for every job).
    public static let busyLifetime: TimeInterval = 3_600


    /// One way `auto` can draw a job: the CPU compositor, or GLES on one of its paths, and for GLES whether a
    /// job's planes are converted on the GPU (else by the C kernel).
    public struct Candidate: Sendable, Hashable {
        /// `.cpu` or `.gles`.
        public var backend: BackendChoice
        /// For GLES, the path it draws by (one of `MultiPathRenderer.paths`: `raster`, `compute`, ...); nil for
        /// the CPU compositor.
        public var path: String?
        /// For GLES: whether the planes are converted on the GPU.
        public var planesOnGPU: Bool

        /// A candidate: `backend`, for GLES its `path`, and whether it converts a job's planes on the GPU.
        public init(backend: BackendChoice, path: String? = nil, planesOnGPU: Bool = false) {
            self.backend = backend
            self.path = backend == .cpu ? nil : path
            self.planesOnGPU = backend != .cpu && planesOnGPU
        }

        /// The CPU compositor.
        public static let cpu = Candidate(backend: .cpu)

        /// GLES on `path`, its planes converted on the GPU or not.
        public static func gles(_ path: String, planesOnGPU: Bool = false) -> Candidate {
            Candidate(backend: .gles, path: path, planesOnGPU: planesOnGPU)
        }

        /// The name its figures are kept under: `cpu`, or `gles-` and its path (`gles-compute-staged`).
        public var name: String { path.map { "gles-\($0)" } ?? "cpu" }

        /// The candidate a figure's `name` names among a renderer's `paths`; nil for a name that is none of
        /// them (a later version's, or `gles` alone).
        init?(name: String, paths: [String], planesOnGPU: Bool) {
            if name == "cpu" {
                self = .cpu
            } else if name.hasPrefix("gles-"), paths.contains(String(name.dropFirst(5))) {
                self = .gles(String(name.dropFirst(5)), planesOnGPU: planesOnGPU)
            } else {
                return nil
            }
        }
    }

    /// The candidates' names for a GLES renderer with `paths`: `cpu`, and `gles-<path>` for each path.
    public static func candidateNames(paths: [String]) -> Set<String> {
        Set(["cpu"] + paths.map { Candidate.gles($0).name })
    }

    /// A candidate and the milliseconds a frame it was measured at, for the job's output.
    public struct Timed: Sendable, Equatable {
        /// The candidate measured.
        public var candidate: Candidate
        /// Milliseconds a frame, as measured for the job's output (RGBA, or planes with their conversion).
        public var milliseconds: Double
    }

    /// What `auto` draws with for a job whose output is read back as planes or RGBA, and why: the fastest
    /// candidate as measured, and the next fastest other candidate (another backend, or another GLES path).
    public struct Decision: Sendable, Equatable {
        /// The candidate taken, with its milliseconds a frame; the CPU compositor at 0 ms when nothing was measured.
        public var taken: Timed
        /// The next fastest candidate of another name (`cpu`, `gles-raster`, ...; else the next fastest), nil
        /// when only one was measured.
        public var runnerUp: Timed?

        /// `.cpu` or `.gles`.
        public var backend: BackendChoice { taken.candidate.backend }
        /// For GLES, the path taken.
        public var path: String? { taken.candidate.path }
        /// For GLES: whether the planes are converted on the GPU (else by the C kernel).
        public var planesOnGPU: Bool { taken.candidate.planesOnGPU }
        /// Milliseconds a frame, as measured.
        public var milliseconds: Double { taken.milliseconds }
    }

    /// Every candidate for a job whose frames leave as planes (a Y4M stream or a video) or as RGBA, fastest
    /// first: a candidate that reads back RGBA pays the C kernel's conversion for planes; a GLES path may
    /// convert them on the GPU instead. A figure under a name that is not a candidate among `paths`, or that
    /// is not a finite, positive number of milliseconds, is left out.
    public func ranked(planes: Bool, paths: [String] = Calibration.knownPaths) -> [Timed] {
        var timed: [Timed] = []
        let convert = Self.sound(figures.convert) ? figures.convert : nil
        for (name, ms) in figures.rgba where Self.sound(ms) {
            guard let candidate = Candidate(name: name, paths: paths, planesOnGPU: false) else { continue }
            if !planes {
                timed.append(Timed(candidate: candidate, milliseconds: ms))
            } else if let convert {
                timed.append(Timed(candidate: candidate, milliseconds: ms + convert))
            }
        }
        if planes {
            for (name, ms) in figures.planes where Self.sound(ms) {
                guard let candidate = Candidate(name: name, paths: paths, planesOnGPU: true), candidate.planesOnGPU else { continue }
                timed.append(Timed(candidate: candidate, milliseconds: ms))
            }
        }
        // Fastest first; equal times in a fixed order (the figures are a dictionary).
        return timed.sorted {
            ($0.milliseconds, $0.candidate.name, $0.candidate.planesOnGPU ? 1 : 0)
                < ($1.milliseconds, $1.candidate.name, $1.candidate.planesOnGPU ? 1 : 0)
        }
    }

    /// The fastest candidate for a job whose frames leave as planes or as RGBA (`ranked`), and the next
    /// fastest of another name; the CPU compositor at 0 ms where no figure is sound.
    public func decision(planes: Bool, paths: [String] = Calibration.knownPaths) -> Decision {
        let timed = ranked(planes: planes, paths: paths)
        guard let best = timed.first else { return Decision(taken: Timed(candidate: .cpu, milliseconds: 0), runnerUp: nil) }
        let rest = timed.dropFirst()
        return Decision(taken: best, runnerUp: rest.first { $0.candidate.name != best.candidate.name } ?? rest.first)
    }

    /// Whether `ms` can be a time a frame took: finite and positive.
    static func sound(_ ms: Double) -> Bool { ms.isFinite && ms > 0 }

    /// Whether every figure names a candidate among `paths` (the CPU compositor's among them) and is a finite,
    /// positive number of milliseconds, the conversion's too: a cache that fails this is measured again.
    public func isSound(paths: [String]) -> Bool {
        let names = Self.candidateNames(paths: paths)
        guard figures.rgba["cpu"] != nil, Self.sound(figures.convert), seconds.isFinite, seconds >= 0 else { return false }
        return [figures.rgba, figures.planes].allSatisfy { $0.allSatisfy { names.contains($0.key) && Self.sound($0.value) } }
    }

    /// Whether it was measured by `build` no longer than `lifetime` (`busyLifetime` when `busy`) before `now`
    /// (and not later than a day after it).
    public func isCurrent(build: String = SegueBuild.identity, now: Date = Date()) -> Bool {
        guard self.build == build, let measured else { return false }
        let age = now.timeIntervalSince(measured)
        return age < (busy == nil ? Self.lifetime : Self.busyLifetime) && age > -86_400
    }

    /// One line for `segue info` and doctor: `at 1920x1080: RGBA cpu 3.20 ms, gles-raster 41.00 ms, ...; planes
    /// ...; the C kernel's conversion 1.10 ms (8 frames a candidate, 1 for one over 12x the fastest; measured in 2.10 s)`.
    public var summary: String {
        func list(_ figures: [String: Double]) -> String {
            figures.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map { "\($0.key) \(String(format: "%.2f", $0.value)) ms" }.joined(separator: ", ")
        }
        let frames = self.frames.map { "\($0) frames a candidate, 1 for one over 12x the fastest; " } ?? ""
        return "at \(sizeClass.rawValue): RGBA \(list(figures.rgba)); planes \(list(figures.planes)); "
            + "the C kernel's conversion \(String(format: "%.2f", figures.convert)) ms (\(frames)measured in \(String(format: "%.2f", seconds)) s"
            + (busy.map { " while the machine was busy, \($0)" } ?? "") + ")"
    }
}

extension Calibration {
    /// The machine's identity for the cache: the device the GPU renderer runs on and its driver
    /// (`Renderer.device`), and the cores (and a debug build's unoptimised CPU compositor apart from a release
    /// build's).
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
        UserCache.directory(environment: environment)?.appendingPathComponent("calibration.json")
    }

    /// The cache's JSON: dates as ISO 8601, and a NaN or an infinity (which JSON has no number for) as the
    /// strings `nan`, `inf` and `-inf`, so that a damaged entry is read and then found unsound, not the whole
    /// file lost.
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }

    /// The cache's JSON, as `decoder()` reads it.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    /// The calibrations cached in `file` (none when it is missing, unreadable or not ours).
    static func cached(in file: URL?) -> [Calibration] {
        guard let file, let data = try? Data(contentsOf: file), data.count < 1 << 20 else { return [] }
        return (try? decoder().decode([Calibration].self, from: data)) ?? []
    }

    /// The calibration cached in `file` that a job on `gles` at `sizeClass` may use: this machine's, measured
    /// by this build within `lifetime`, every figure sound (`isSound`); nil where there is none.
    static func current(in file: URL?, gles: any MultiPathRenderer, cores: Int, sizeClass: SizeClass,
                        build: String = SegueBuild.identity, now: Date = Date()) -> Calibration? {
        current(in: cached(in: file), machine: machine(gles, cores: cores), paths: gles.paths, sizeClass: sizeClass, build: build, now: now)
    }

    private static func current(in all: [Calibration], machine: String, paths: [String], sizeClass: SizeClass,
                                build: String, now: Date) -> Calibration? {
        all.first {
            $0.machine == machine && $0.sizeClass == sizeClass && $0.isCurrent(build: build, now: now) && $0.isSound(paths: paths)
        }
    }

    /// How a calibration is measured: `measure(gles:cores:sizeClass:frames:)`, or a test's stand-in.
    typealias Measure = (_ gles: any MultiPathRenderer, _ cores: Int, _ sizeClass: SizeClass) throws -> Calibration

    /// The cached calibration for this machine, build and size class (`current`), else a new one, measured now
    /// by `measure` and cached in place of any other for this machine and size class (and of any expired
    /// entry); `recalibrate` measures again whatever is cached. `note` says so once when the cache cannot be
    /// written: it is then measured again next time. A measurement begun while the machine was `busy` is said
    /// once and kept for `busyLifetime`, and replaced as soon as a job finds the machine quiet: figures taken
    /// while other work shared the cores (the CPU's 156 ms against 17 ms quiet, once) would otherwise decide
    /// every job for 30 days.
    static func load(gles: any MultiPathRenderer, cores: Int, sizeClass: SizeClass, file: URL? = cacheFile(),
                     recalibrate: Bool = false, build: String = SegueBuild.identity, now: Date = Date(),
                     busy: () -> String? = { Calibration.busyMachine() },
                     note: (String) -> Void = { _ in },
                     measure: Measure = { try Calibration.measure(gles: $0, cores: $1, sizeClass: $2) }) throws -> Calibration {
        let machine = machine(gles, cores: cores)
        var all = cached(in: file)
        if !recalibrate, let known = current(in: all, machine: machine, paths: gles.paths, sizeClass: sizeClass, build: build, now: now),
           known.busy == nil {
            return known
        }
        let busyness = busy()
        if !recalibrate, busyness != nil,
           let known = current(in: all, machine: machine, paths: gles.paths, sizeClass: sizeClass, build: build, now: now) {
            return known  // measured while busy, and busy again: kept for its hour
        }
        var measured = try measure(gles, cores, sizeClass)
        measured.busy = busyness
        if let busyness {
            note("auto was timed while the machine was busy (\(busyness)): the figures are kept for an hour, not 30 days")
        }
        all.removeAll { ($0.machine == machine && $0.sizeClass == sizeClass) || !$0.isCurrent(build: $0.build ?? "", now: now) }
        all.append(measured)
        do {
            guard let file else { throw CocoaError(.fileNoSuchFile) }
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileWriter.writeAtomically([UInt8](try encoder().encode(all)), to: file.path)
        } catch {
            note("the calibration of auto cannot be cached (\(file?.path ?? "no XDG_CACHE_HOME or HOME")): it will be measured again next time")
        }
        return measured
    }

    /// Why the machine is too busy for a calibration worth keeping (`load average 3.64 on 2 cores`), or nil:
    /// busy when the last minute's load average is above the cores online.
    public static func busyMachine(cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> String? {
        var load = [Double](repeating: 0, count: 1)
        guard getloadavg(&load, 1) == 1 else { return nil }
        return isBusy(loadAverage: load[0], cores: cores)
    }

    /// `busyMachine`'s rule, for a given load average.
    static func isBusy(loadAverage: Double, cores: Int) -> String? {
        loadAverage > Double(max(cores, 1)) ? String(format: "load average %.2f on %d cores", loadAverage, cores) : nil
    }

    /// Measures every candidate at `sizeClass`: the CPU compositor, then each of `gles`'s paths read back as
    /// RGBA (lent from the read-back ring, as a job's frames are), then each read back as 4:2:0 planes. Each
    /// has a small warm-up frame (programs compiled), one frame at the full size (buffers made at that size),
    /// then one pipelined run of `frames` frames whose figure is the median time between frames delivered
    /// (the first from the run's start). A candidate whose one full-size frame took more than 12x the fastest
    /// figure yet for its output keeps that frame's time (it cannot come within 4x pipelined: see `time`), so
    /// a path that cannot win, such as the compute path on a software rasterizer, costs 2 frames, not 10. A
    /// GLES candidate of which the renderer counted a frame as another path's
    /// (`MultiPathRenderer.framesByPath`: it fell back) gets no figure, as its time would be that path's. The
    /// C kernel's conversion is the median of three.
    static func measure(gles: any MultiPathRenderer, cores: Int, sizeClass: SizeClass, frames: Int = 8) throws -> Calibration {
        let started = ContinuousClock.now
        let (width, height) = sizeClass.size
        let snapshots = [SampleScreens.home(width: Double(width), height: Double(height)),
                         SampleScreens.detail(width: Double(width), height: Double(height))]
        let transition = Transition(EffectCatalog.named("door") ?? EffectCatalog.builtIn[0])
        let frame = Size(Double(width), Double(height))
        // The door at eight points of its way (two perspective layers and a shade: real work in every stage).
        let lists = (0..<8).map { k in
            DrawList(scene: transition.scene(at: 0.15 + 0.1 * Double(k), frame: frame, scale: 1), scale: 1,
                     snapshots: snapshots.map(SnapshotInfo.init))
        }
        func list(_ k: Int) -> RenderFrame { .layers(lists[k % lists.count]) }
        // A small frame, for the warm-up that compiles what a candidate needs (a program's compile costs the same
        // at any size; on a real driver it can be 50-300 ms, which no figure should hold).
        let small = Size(64, 36)
        let warmUpList = DrawList(scene: transition.scene(at: 0.5, frame: small, scale: 1), scale: 1,
                                  snapshots: snapshots.map(SnapshotInfo.init))
        func nextFrame(_ k: Int, warmUp: Bool) -> RenderFrame { warmUp ? .layers(warmUpList) : list(k) }
        let cpu = CPUCompositor(threads: cores)
        try cpu.load(snapshots: snapshots)
        try gles.load(snapshots: snapshots)

        /// Draws `count` frames (small warm-up ones, or at the class's size), calling `delivered` as each is
        /// delivered.
        typealias Run = (_ count: Int, _ warmUp: Bool, _ delivered: () -> Void) throws -> Void

        /// One run of `count` frames by `run`: the median of the times between deliveries, in milliseconds.
        func median(_ count: Int, _ run: Run) rethrows -> Double {
            var stamps: [ContinuousClock.Instant] = []
            stamps.reserveCapacity(count)
            let start = ContinuousClock.now
            try run(count, false) { stamps.append(ContinuousClock.now) }
            let intervals = zip([start] + stamps, stamps).map { ($1 - $0).seconds * 1000 }.sorted()
            guard !intervals.isEmpty else { return .nan }
            let middle = intervals.count / 2
            return intervals.count % 2 == 1 ? intervals[middle] : (intervals[middle - 1] + intervals[middle]) / 2
        }

        /// Times one candidate: a small warm-up frame (compiling what it needs), one frame at the class's size
        /// (the read-back buffers made at that size), then `frames` frames pipelined. But a candidate whose
        /// one frame took more than 12x the fastest figure yet for its output keeps that frame's time as its
        /// figure: a frame alone waits for every stage a pipelined run overlaps (drawing, the read-back, the
        /// copy out; at most three), so its pipelined time would still be over 4x the fastest: it cannot win.
        /// Its figure, and the frames drawn in all.
        func time(fastest: inout Double, _ run: Run) throws -> (ms: Double, frames: Int) {
            try run(1, true) {}
            let start = ContinuousClock.now
            try run(1, false) {}
            let one = (ContinuousClock.now - start).seconds * 1000
            var ms = one, drawn = 2
            if !(one > 12 * fastest) {
                ms = try median(frames, run)
                drawn += frames
            }
            if sound(ms) { fastest = min(fastest, ms) }
            return (ms, drawn)
        }

        /// Times GLES on `path`: its figure, nil where the renderer counted a frame of it as another path's (a
        /// fallback: the time would be that path's).
        func timeGLES(_ path: String, fastest: inout Double, _ run: Run) throws -> Double? {
            try gles.use(path: path)
            let before = gles.framesByPath
            let (ms, drawn) = try time(fastest: &fastest, run)
            let after = gles.framesByPath
            // A renderer that counts nothing (a stand-in) is taken at its word.
            if after.isEmpty { return ms }
            return (after[path] ?? 0) - (before[path] ?? 0) == drawn ? ms : nil
        }

        var rgba: [String: Double] = [:], planeFigures: [String: Double] = [:]
        func record(_ ms: Double, _ name: String, into figures: inout [String: Double]) {
            if sound(ms) { figures[name] = ms }
        }
        // The CPU compositor: a warm-up, then the timed run; its planes are its RGBA and the C kernel's
        // conversion (the median of three).
        var fastestRGBA = Double.infinity
        record(try time(fastest: &fastestRGBA) { count, warmUp, delivered in
            try cpu.drawFrames(count: count, frame: { nextFrame($0, warmUp: warmUp) }, buffer: { nil }, deliver: { _, _ in delivered() })
        }.ms, "cpu", into: &rgba)
        let rgbaFrame = try cpu.render(lists[0])
        let y4m = Y4M(width: width, height: height, fps: 30, chroma: .c420, encoding: YCbCrEncoding.video(width: width, height: height))
        let conversions = (0..<3).map { _ -> Double in
            let start = ContinuousClock.now
            _ = y4m.frame(rgbaFrame)
            return (ContinuousClock.now - start).seconds * 1000
        }.sorted()
        let convert = conversions[1]
        if let cpuFigure = rgba["cpu"] { record(cpuFigure + convert, "cpu", into: &planeFigures) }
        var fastestPlanes = planeFigures["cpu"] ?? .infinity

        // Each GLES path as RGBA (lent from the ring, as a job's frames are), then each as planes: the ring is
        // made for RGBA once and for planes once.
        let defaultPath = gles.currentPath
        defer { try? gles.use(path: defaultPath) }
        let planes = YCbCrEncoding.video(width: width, height: height).planes(subsampled: true)
        let smallPlanes = YCbCrEncoding.video(width: Int(small.width), height: Int(small.height)).planes(subsampled: true)
        for path in gles.paths {
            let ms = try timeGLES(path, fastest: &fastestRGBA) { count, warmUp, delivered in
                try gles.drawFrames(count: count, frame: { nextFrame($0, warmUp: warmUp) }, lend: { _, _ in delivered() })
            }
            if let ms { record(ms, Candidate.gles(path).name, into: &rgba) }
        }
        for path in gles.paths {
            let ms = try timeGLES(path, fastest: &fastestPlanes) { count, warmUp, delivered in
                let planes = warmUp ? smallPlanes : planes
                try gles.drawFrames(count: count, frame: { nextFrame($0, warmUp: warmUp) }, planes: planes, deliver: { _, _ in delivered() })
            }
            if let ms { record(ms, Candidate.gles(path).name, into: &planeFigures) }
        }
        return Calibration(machine: machine(gles, cores: cores), sizeClass: sizeClass,
                           figures: Figures(rgba: rgba, planes: planeFigures, convert: convert),
                           seconds: (ContinuousClock.now - started).seconds, frames: frames)
    }
}

extension Duration {
    fileprivate var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}
