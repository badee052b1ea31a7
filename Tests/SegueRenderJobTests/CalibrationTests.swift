import Foundation
import SegueCore
@testable import SegueRender
import SegueCPU
import SegueGLES
import Testing

/// `auto` takes the backend and path the calibration measured fastest for the job's output, from pipelined
/// frames, and keeps the figures per machine, build and size class, for 30 days.
@Suite(.serialized) struct CalibrationTests {
    /// Whether an EGL platform gives a GLES context here: the tests that measure GLES for real are skipped,
    /// and reported as skipped, where none does.
    static let hasGLES: Bool = (try? GLESRenderer()) != nil

    /// A GLES renderer's stand-in: its device and paths, and a log of the runs it is asked to draw (each
    /// `drawFrames` call: the path, what it reads back, how many frames and at what width), each frame
    /// delivered after `frameSeconds`.
    final class PathsRenderer: MultiPathRenderer {
        let name = "gles"
        let details = "a stand-in"
        var device: String { "a stand-in GPU" }
        let paths: [String]
        var currentPath = "raster"
        var frameSeconds = 0.0
        /// Seconds a frame on a path, where not `frameSeconds`.
        var pathSeconds: [String: Double] = [:]
        /// `raster rgba 8x1280`, one entry a `drawFrames` call.
        var runs: [String] = []
        /// Frames drawn by each path, where `counts`; a path in `fallsBack` hands its frames to `raster`.
        var counts = false
        var fallsBack: Set<String> = []
        private var drawn: [String: Int] = [:]
        var framesByPath: [String: Int] { counts ? drawn : [:] }
        private func count(_ frames: Int) { drawn[fallsBack.contains(currentPath) ? "raster" : currentPath, default: 0] += frames }
        init(paths: [String] = ["raster", "compute"]) { self.paths = paths }
        func use(path: String) throws {
            guard paths.contains(path) else { throw GLError.invalidInput("no path \(path)") }
            currentPath = path
        }
        func load(snapshots: [Pixmap]) throws {}
        func update(snapshot index: Int, with pixmap: Pixmap) throws {}
        func draw(_ list: DrawList, into target: inout Pixmap) throws {}
        func drawFrames(count: Int, frame: (Int) throws -> RenderFrame, lend: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
            runs.append("\(currentPath) rgba \(count)x\(try frame(0).width)")
            self.count(count)
            for k in 0..<count {
                Thread.sleep(forTimeInterval: pathSeconds[currentPath] ?? frameSeconds)
                try lend(k, UnsafeRawBufferPointer(start: nil, count: 0))
            }
        }
        func drawFrames(count: Int, frame: (Int) throws -> RenderFrame, planes: YCbCrPlanes,
                        deliver: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
            runs.append("\(currentPath) planes \(count)x\(try frame(0).width)")
            self.count(count)
            for k in 0..<count {
                Thread.sleep(forTimeInterval: pathSeconds[currentPath] ?? frameSeconds)
                try deliver(k, UnsafeRawBufferPointer(start: nil, count: 0))
            }
        }
    }

    /// A calibration of `gles` as `Calibration.load` would measure it, with made-up figures.
    static func madeUp(_ gles: any MultiPathRenderer, cores: Int, sizeClass: Calibration.SizeClass,
                       build: String = SegueBuild.identity, now: Date = Date()) -> Calibration {
        Calibration(machine: Calibration.machine(gles, cores: cores), sizeClass: sizeClass,
                    figures: figures(cpu: 2, raster: 8, compute: 30, rasterPlanes: 9, computePlanes: 40, convert: 1), seconds: 0,
                    build: build, measured: now)
    }

    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("segue-calibration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func figures(cpu: Double, raster: Double, compute: Double, rasterPlanes: Double, computePlanes: Double,
                        convert: Double) -> Calibration.Figures {
        Calibration.Figures(rgba: ["cpu": cpu, "gles-raster": raster, "gles-compute": compute],
                            planes: ["cpu": cpu + convert, "gles-raster": rasterPlanes, "gles-compute": computePlanes],
                            convert: convert)
    }

    /// Loads through `file` with a stand-in measurement; how many times it measured.
    static func load(_ gles: any MultiPathRenderer, _ file: URL, recalibrate: Bool = false, build: String = SegueBuild.identity,
                     now: Date = Date()) throws -> (calibration: Calibration, measured: Int) {
        var measured = 0
        let c = try Calibration.load(gles: gles, cores: 2, sizeClass: .hd, file: file, recalibrate: recalibrate, build: build, now: now,
                                     busy: { nil }, measure: { gles, cores, sizeClass in
            measured += 1
            return Self.madeUp(gles, cores: cores, sizeClass: sizeClass, build: build, now: now)
        })
        return (c, measured)
    }

    @Test func theDecisionIsTheFastestForTheOutput() {
        let c = Calibration(machine: "m", sizeClass: .uhd4K, figures: Self.figures(cpu: 10, raster: 8, compute: 3, rasterPlanes: 9, computePlanes: 1.5, convert: 4), seconds: 1)
        #expect(c.decision(planes: false).taken.candidate == .gles("compute"))
        let planes = c.decision(planes: true)
        #expect(planes.backend == .gles && planes.path == "compute" && planes.planesOnGPU && planes.milliseconds == 1.5)
        #expect(planes.runnerUp == .init(candidate: .gles("raster", planesOnGPU: true), milliseconds: 9))
        // Planes converted on the CPU cost the conversion: RGBA 3 + 4 = 7 loses to the GPU's 6.
        let slowPlanes = Calibration(machine: "m", sizeClass: .hd, figures: Self.figures(cpu: 10, raster: 8, compute: 3, rasterPlanes: 9, computePlanes: 6, convert: 4), seconds: 1)
        #expect(slowPlanes.decision(planes: true).planesOnGPU && slowPlanes.decision(planes: true).milliseconds == 6)
        let cpu = Calibration(machine: "m", sizeClass: .hd, figures: Self.figures(cpu: 2, raster: 8, compute: 30, rasterPlanes: 9, computePlanes: 40, convert: 1), seconds: 1)
        #expect(cpu.decision(planes: false).backend == .cpu && cpu.decision(planes: true).backend == .cpu)
        #expect(cpu.decision(planes: false).runnerUp == .init(candidate: .gles("raster"), milliseconds: 8))
        // RGBA and planes are decided apart: the raster path for RGBA, the compute path's planes for planes.
        var split = Self.figures(cpu: 10, raster: 4, compute: 5, rasterPlanes: 6, computePlanes: 2, convert: 3)
        split.rgba["gles-compute-staged"] = 4.5
        split.planes["gles-compute-staged"] = 1
        let both = Calibration(machine: "m", sizeClass: .hd, figures: split, seconds: 1)
        #expect(both.decision(planes: false, paths: ["raster", "compute"]).taken.candidate == .gles("raster"))
        #expect(both.decision(planes: true, paths: ["raster", "compute"]).taken.candidate == .gles("compute", planesOnGPU: true))
        // A third path is a candidate by its own name where the renderer has it.
        #expect(both.decision(planes: true, paths: ["raster", "compute", "compute-staged"]).taken.candidate
                == .gles("compute-staged", planesOnGPU: true))
        #expect(Calibration.Candidate.gles("compute-staged").name == "gles-compute-staged" && Calibration.Candidate.cpu.name == "cpu")
    }

    /// A figure may name a candidate this renderer does not have (a later version's, a path this context
    /// lacks, `gles` alone), or not be a time at all (negative, zero, NaN, infinite): it is never taken,
    /// however fast, and never read as another.
    @Test func aFigureThatIsNoCandidateOrNoTimeIsNotTaken() {
        var figures = Self.figures(cpu: 10, raster: 8, compute: 3, rasterPlanes: 9, computePlanes: 1.5, convert: 4)
        figures.rgba["gles-vulkan"] = 0.1
        figures.rgba["gles"] = 0.2
        figures.rgba["gles-"] = 0.2
        figures.planes["gles-vulkan"] = 0.1
        let c = Calibration(machine: "m", sizeClass: .hd, figures: figures, seconds: 1)
        #expect(c.decision(planes: false) == .init(taken: .init(candidate: .gles("compute"), milliseconds: 3),
                                                   runnerUp: .init(candidate: .gles("raster"), milliseconds: 8)))
        #expect(c.decision(planes: true).taken == .init(candidate: .gles("compute", planesOnGPU: true), milliseconds: 1.5))
        // The compute path's figures on a context without compute shaders.
        #expect(c.decision(planes: false, paths: ["raster"]).taken.candidate == .gles("raster"))
        #expect(!c.isSound(paths: ["raster", "compute"]))
        let unknown = Calibration(machine: "m", sizeClass: .hd, figures: .init(rgba: ["gles-vulkan": 1], planes: [:], convert: 1), seconds: 1)
        #expect(unknown.decision(planes: false) == .init(taken: .init(candidate: .cpu, milliseconds: 0), runnerUp: nil))
        for bad in [-1, 0, Double.nan, .infinity, -.infinity] {
            var damaged = Self.figures(cpu: 10, raster: 8, compute: 3, rasterPlanes: 9, computePlanes: 1.5, convert: 4)
            damaged.rgba["gles-compute"] = bad
            damaged.planes["gles-compute"] = bad
            let d = Calibration(machine: "m", sizeClass: .hd, figures: damaged, seconds: 1)
            #expect(d.decision(planes: false).taken.candidate == .gles("raster"), "a figure of \(bad) was taken")
            #expect(d.decision(planes: true).taken.candidate == .gles("raster", planesOnGPU: true), "a figure of \(bad) was taken")
            #expect(!d.isSound(paths: ["raster", "compute"]), "a figure of \(bad) was sound")
            // A conversion that is no time: no candidate that reads back RGBA can be timed for planes.
            var convert = Self.figures(cpu: 1, raster: 8, compute: 3, rasterPlanes: 9, computePlanes: 7, convert: 4)
            convert.convert = bad
            let noConvert = Calibration(machine: "m", sizeClass: .hd, figures: convert, seconds: 1)
            #expect(noConvert.decision(planes: true).taken.candidate == .gles("compute", planesOnGPU: true))
            #expect(!noConvert.isSound(paths: ["raster", "compute"]))
        }
        #expect(Calibration(machine: "m", sizeClass: .hd, figures: Self.figures(cpu: 10, raster: 8, compute: 3, rasterPlanes: 9, computePlanes: 1.5, convert: 4), seconds: 1)
            .isSound(paths: ["raster", "compute"]))
    }

    /// A cache as earlier versions wrote it (no build, no date) is measured again and replaced; one this
    /// version cannot read is measured again and replaced, never a crash.
    @Test func anEarlierOrUnreadableCacheIsMeasuredAgain() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("calibration.json")
        let gles = PathsRenderer()
        let machine = Calibration.machine(gles, cores: 2)
        let earlier = """
            [
              {
                "figures" : {
                  "convert" : 1.5,
                  "planes" : { "cpu" : 4.5, "gles-compute" : 40, "gles-raster" : 30 },
                  "rgba" : { "cpu" : 3, "gles-compute" : 50, "gles-raster" : 35 }
                },
                "machine" : "\(machine)",
                "seconds" : 1.02,
                "sizeClass" : "1280x720"
              }
            ]
            """
        for unreadable in [earlier, #"{"version": 2, "calibrations": []}"#, "[{\"machine\": 1}]", "not json", ""] {
            try Data(unreadable.utf8).write(to: file)
            let again = try Self.load(gles, file)
            #expect(again.measured == 1, "a cache of \(unreadable.debugDescription) was not measured again")
            #expect(Calibration.cached(in: file) == [again.calibration], "a cache of \(unreadable.debugDescription) was not replaced")
            #expect(again.calibration.build == SegueBuild.identity && again.calibration.measured != nil)
        }
        // What was written is read back, not measured again.
        #expect(try Self.load(gles, file).measured == 0)
    }

    /// A cache whose entry for this machine is damaged (a name that is no candidate here, a time that is
    /// negative, zero, NaN, infinite or too large for a Double, a conversion that is no time) is measured
    /// again and the entry replaced.
    @Test func aDamagedCacheIsMeasuredAgain() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("calibration.json")
        let gles = PathsRenderer()
        let machine = Calibration.machine(gles, cores: 2)
        let date = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-3600))
        func entry(rgba: String, convert: String = "1.5") -> String {
            """
            [{"build": "\(SegueBuild.identity)", "measured": "\(date)", "machine": "\(machine)", "seconds": 1, "sizeClass": "1280x720",
              "figures": {"convert": \(convert), "planes": {"cpu": 4.5, "gles-raster": 30}, "rgba": {"cpu": 3, \(rgba)}}}]
            """
        }
        // The entry as a sound one reads: not measured again.
        try Data(entry(rgba: #""gles-raster": 35, "gles-compute": 50"#).utf8).write(to: file)
        let sound = try Self.load(gles, file)
        #expect(sound.measured == 0 && sound.calibration.figures.rgba["gles-compute"] == 50)
        let damaged = [
            entry(rgba: #""gles-raster": 35, "gles-vulkan": 0.1"#),
            entry(rgba: #""gles-raster": 35, "gles": 0.1"#),
            entry(rgba: #""gles-raster": -35"#),
            entry(rgba: #""gles-raster": 0"#),
            entry(rgba: #""gles-raster": "nan""#),
            entry(rgba: #""gles-raster": "inf""#),
            entry(rgba: #""gles-raster": "-inf""#),
            entry(rgba: #""gles-raster": 1e999"#),
            entry(rgba: #""gles-raster": 35"#, convert: "-1"),
            entry(rgba: #""gles-raster": 35"#, convert: #""nan""#),
        ]
        for text in damaged {
            try Data(text.utf8).write(to: file)
            let again = try Self.load(gles, file)
            #expect(again.measured == 1, "a cache of \(text) was not measured again")
            #expect(Calibration.cached(in: file) == [again.calibration], "a cache of \(text) was not replaced")
        }
    }

    /// The cache is keyed by segue's build as well as the machine, and an entry is used for 30 days:
    /// another build's, or an older one, is measured again; `recalibrate` measures again whatever is cached.
    @Test func theCacheIsKeyedByBuildAndExpires() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("calibration.json")
        let gles = PathsRenderer()
        let now = Date()
        #expect(try Self.load(gles, file, build: "a", now: now).measured == 1)
        #expect(try Self.load(gles, file, build: "a", now: now.addingTimeInterval(29 * 86_400)).measured == 0)
        #expect(try Self.load(gles, file, build: "b", now: now).measured == 1, "another build's figures were used")
        #expect(Calibration.cached(in: file).count == 1, "the other build's entry for this machine was not replaced")
        let cached = try #require(Calibration.cached(in: file).first)
        let measured = try #require(cached.measured)
        #expect(try Self.load(gles, file, build: cached.build ?? "", now: measured.addingTimeInterval(31 * 86_400)).measured == 1,
                "figures 31 days old were used")
        #expect(try Self.load(gles, file, build: "b", now: now).measured == 1, "the entry measured at +31 days is not current at now - 1 day")
        #expect(try Self.load(gles, file, build: "b", now: now).measured == 0)
        #expect(try Self.load(gles, file, recalibrate: true, build: "b", now: now).measured == 1)
        #expect(Calibration.cached(in: file).count == 1, "a recalibration did not replace the entry")
    }

    /// Each candidate is timed by one pipelined run of 8 frames after a small warm-up frame (compiling) and one
    /// at the full size (the ring made at that size): the
    /// CPU compositor, then every GLES path as RGBA, then every path as planes, so the read-back ring is made
    /// for RGBA once and for planes once; every path a figure by its own name.
    @Test func eachCandidateIsTimedByOnePipelinedRunAfterAWarmUp() throws {
        let gles = PathsRenderer(paths: ["raster", "compute", "compute-staged"])
        gles.frameSeconds = 0.0005
        let c = try Calibration.measure(gles: gles, cores: 2, sizeClass: .hd)
        #expect(gles.runs == ["rgba", "planes"].flatMap { output in
            ["raster", "compute", "compute-staged"].flatMap { path in
                ["\(path) \(output) 1x64", "\(path) \(output) 1x1280", "\(path) \(output) 8x1280"]
            }
        })
        #expect(gles.currentPath == "raster", "the calibration left the renderer on \(gles.currentPath)")
        let names: Set = ["cpu", "gles-raster", "gles-compute", "gles-compute-staged"]
        #expect(Set(c.figures.rgba.keys) == names && Set(c.figures.planes.keys) == names)
        #expect(c.isSound(paths: gles.paths) && c.frames == 8 && c.build == SegueBuild.identity)
        // Each stand-in frame takes at least 0.5 ms, and the median is of the time between frames.
        #expect(c.figures.rgba["gles-compute"].map { $0 >= 0.5 && $0 < 100 } == true, "\(c.summary)")
    }

    /// A candidate whose one full-size frame took far longer than the fastest figure (here 40x) keeps that
    /// frame's time and is not timed further; the others by 8 pipelined frames.
    @Test func aFarSlowerCandidateIsTimedByOneFrame() throws {
        let gles = PathsRenderer(paths: ["raster", "compute"])
        gles.pathSeconds = ["raster": 0.0005, "compute": 0.02]
        let c = try Calibration.measure(gles: gles, cores: 2, sizeClass: .hd)
        #expect(gles.runs == ["raster rgba 1x64", "raster rgba 1x1280", "raster rgba 8x1280", "compute rgba 1x64", "compute rgba 1x1280",
                              "raster planes 1x64", "raster planes 1x1280", "raster planes 8x1280", "compute planes 1x64", "compute planes 1x1280"])
        #expect(c.figures.rgba["gles-compute"].map { $0 >= 20 } == true && c.decision(planes: false, paths: gles.paths).path == "raster",
                "\(c.summary)")
    }

    /// A path the renderer counted as having handed its frames to another (a fallback) gets no figure: its
    /// time would be the other path's.
    @Test func aPathThatFellBackHasNoFigure() throws {
        let gles = PathsRenderer(paths: ["raster", "compute", "compute-staged"])
        gles.frameSeconds = 0.0005
        gles.counts = true
        gles.fallsBack = ["compute-staged"]
        let c = try Calibration.measure(gles: gles, cores: 2, sizeClass: .hd)
        #expect(Set(c.figures.rgba.keys) == ["cpu", "gles-raster", "gles-compute"], "\(c.summary)")
        #expect(Set(c.figures.planes.keys) == ["cpu", "gles-raster", "gles-compute"], "\(c.summary)")
        #expect(c.isSound(paths: gles.paths))
    }

    @Test func sizeClasses() {
        #expect(Calibration.SizeClass(width: 375, height: 667) == .hd)
        #expect(Calibration.SizeClass(width: 1920, height: 1080) == .fullHD)
        #expect(Calibration.SizeClass(width: 3840, height: 2160) == .uhd4K)
        #expect(Calibration.SizeClass(width: 7680, height: 4320) == .uhd8K)
    }

    @Test func cacheFileFollowsXDG() {
        #expect(Calibration.cacheFile(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"])?.path == "/c/segue/calibration.json")
        #expect(Calibration.cacheFile(environment: ["HOME": "/h"])?.path == "/h/.cache/segue/calibration.json")
        #expect(Calibration.cacheFile(environment: ["XDG_CACHE_HOME": "relative"]) == nil)
    }

    /// What `auto` takes follows the measurement: measured for real here, llvmpipe loses to the CPU
    /// compositor for every output; a machine whose cache says a GLES path is fastest gets it, per output.
    // Skipped, and reported as skipped, where no EGL platform gives a GLES context.
    @Test(.enabled(if: hasGLES, "no EGL platform gives a GLES context here"))
    func autoFollowsTheMeasurement() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("calibration.json")
        let gles = try GLESRenderer()
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let machine = Calibration.machine(gles, cores: cores)

        // Measured for real, and cached.
        let measured = try Calibration.load(gles: gles, cores: cores, sizeClass: .hd, file: file, busy: { nil })
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(Set(measured.figures.rgba.keys) == Calibration.candidateNames(paths: gles.paths), "\(measured.summary)")
        #expect(measured.isSound(paths: gles.paths), "\(measured.summary)")
        print("calibration: \(measured.summary)")
        for planes in [false, true] {
            let real = try BackendChoice.auto.makeRenderer(frameSize: (1280, 720), planes: planes, calibrationFile: file)
            #expect(real.name == (measured.decision(planes: planes, paths: gles.paths).backend == .cpu ? "cpu" : "gles"))
            #if !DEBUG && !SEGUE_SANITIZED
            // Optimised (make test), the CPU compositor is several times faster than llvmpipe on the same cores:
            // auto takes it for every output because it was measured so. (A debug build's CPU compositor is
            // unoptimised Swift, and a sanitizer's is instrumented while Mesa is not: there the measurement may
            // rightly favour llvmpipe.)
            if gles.info.renderer.contains("llvmpipe") {
                #expect(real.name == "cpu", "on llvmpipe the CPU compositor measures faster (planes: \(planes)): \(measured.summary)")
            }
            #endif
        }
        // A second job reads the cache: the same figures, not measured again.
        #expect(Calibration.cached(in: file) == [measured])

        // A cache that says the GPU's compute path is fastest for RGBA, and the raster path's planes on the
        // GPU for planes.
        var figures = Self.figures(cpu: 50, raster: 20, compute: 2, rasterPlanes: 1, computePlanes: 3, convert: 9)
        figures.rgba = figures.rgba.filter { gles.paths.contains(String($0.key.dropFirst(5))) || $0.key == "cpu" }
        figures.planes = figures.planes.filter { gles.paths.contains(String($0.key.dropFirst(5))) || $0.key == "cpu" }
        let fake = Calibration(machine: machine, sizeClass: .uhd4K, figures: figures, seconds: 1)
        try Calibration.encoder().encode([measured, fake]).write(to: file)
        if gles.supportsCompute {
            let fast = try #require(try BackendChoice.auto.makeRenderer(frameSize: (3840, 2160), planes: false, calibrationFile: file) as? GLESRenderer)
            #expect(fast.path == .compute)
            // `gles` takes the path the cache found fastest for each output.
            let forRGBA = try #require(try BackendChoice.gles.makeRenderer(frameSize: (3840, 2160), planes: false, calibrationFile: file) as? GLESRenderer)
            #expect(forRGBA.path == .compute)
            // A forced `gles-compute` takes a compute path whatever the cache says of the raster path.
            let compute = try #require(try BackendChoice.glesCompute.makeRenderer(frameSize: (3840, 2160), planes: true, calibrationFile: file) as? GLESRenderer)
            #expect(compute.path == .compute)
        }
        let forPlanes = try #require(try BackendChoice.gles.makeRenderer(frameSize: (3840, 2160), planes: true, calibrationFile: file) as? GLESRenderer)
        #expect(forPlanes.path == .raster && forPlanes.convertsPlanesOnGPU)
        let plannedAuto = try #require(try BackendChoice.auto.makeRenderer(frameSize: (3840, 2160), planes: true, calibrationFile: file) as? GLESRenderer)
        #expect(plannedAuto.path == .raster && plannedAuto.convertsPlanesOnGPU)
        let raster = try #require(try BackendChoice.glesRaster.makeRenderer(frameSize: (3840, 2160), calibrationFile: file) as? GLESRenderer)
        #expect(raster.path == .raster)
    }

    /// Where the cache cannot be written (a file where its directory should be), each load says so once and
    /// measures again; beside it, a writable cache is measured once and read the second time.
    @Test func anUnwritableCacheIsSaidAndMeasuredAgain() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let blocker = directory.appendingPathComponent("segue")
        try Data("x".utf8).write(to: blocker)
        let gles = PathsRenderer()
        func loadTwice(_ file: URL) throws -> (measured: Int, notes: [String]) {
            var measured = 0
            var notes: [String] = []
            for _ in 0..<2 {
                _ = try Calibration.load(gles: gles, cores: 2, sizeClass: .hd, file: file, busy: { nil }, note: { notes.append($0) }, measure: { gles, cores, sizeClass in
                    measured += 1
                    return Self.madeUp(gles, cores: cores, sizeClass: sizeClass)
                })
            }
            return (measured, notes)
        }
        let unwritable = try loadTwice(blocker.appendingPathComponent("calibration.json"))
        #expect(unwritable.measured == 2, "an unwritable cache was measured \(unwritable.measured) times in two loads")
        #expect(unwritable.notes.count == 2 && unwritable.notes.allSatisfy { $0.contains("cannot be cached") }, "\(unwritable.notes)")
        let writable = try loadTwice(directory.appendingPathComponent("cache/calibration.json"))
        #expect(writable.measured == 1 && writable.notes.isEmpty, "\(writable)")
    }

    /// `auto` passes the note on to the job: one line saying the calibration cannot be cached.
    // Skipped, and reported as skipped, where no EGL platform gives a GLES context.
    @Test(.enabled(if: hasGLES, "no EGL platform gives a GLES context here"))
    func autoSaysAnUnwritableCache() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A file where the cache's directory should be.
        let blocker = directory.appendingPathComponent("segue")
        try Data("x".utf8).write(to: blocker)
        var notes: [String] = []
        _ = try BackendChoice.auto.makeRenderer(on: nil, threads: nil, needsShaders: nil, frameSize: (320, 240), planes: false,
                                                calibrationFile: blocker.appendingPathComponent("calibration.json"),
                                                busy: { nil }, note: { notes.append($0) })
        #expect(notes.count == 1 && notes[0].contains("cannot be cached"), "\(notes)")
    }

    /// A measurement begun while the machine is busy (load average above its cores) is said once and kept
    /// for an hour, not 30 days; a quiet machine measures again at once and keeps that one.
    @Test func aBusyMachinesCalibrationIsKeptForAnHour() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("calibration.json")
        let gles = PathsRenderer()
        let start = Date()
        var measured = 0
        var notes: [String] = []
        func load(busy: String?, after seconds: TimeInterval) throws -> Calibration {
            let now = start.addingTimeInterval(seconds)
            return try Calibration.load(gles: gles, cores: 2, sizeClass: .hd, file: file, now: now, busy: { busy }, note: { notes.append($0) },
                                        measure: { gles, cores, sizeClass in
                measured += 1
                return Self.madeUp(gles, cores: cores, sizeClass: sizeClass, now: now)
            })
        }
        let busy = "load average 3.64 on 2 cores"
        let first = try load(busy: busy, after: 0)
        #expect(first.busy == busy && first.summary.contains("while the machine was busy, \(busy)"), "\(first.summary)")
        #expect(notes.count == 1 && notes[0].contains("busy (\(busy))") && notes[0].contains("an hour"), "\(notes)")
        #expect(Calibration.cached(in: file).first?.busy == busy, "the cache keeps why it was busy")
        // Busy again within the hour: the cached one, no new measurement; past the hour: measured again.
        _ = try load(busy: busy, after: 1_800)
        #expect(measured == 1 && notes.count == 1, "measured \(measured) times within the hour")
        _ = try load(busy: busy, after: 3_700)
        #expect(measured == 2 && notes.count == 2, "measured \(measured) times past the hour")
        // Quiet: measured again at once, and that one is kept (30 days).
        let quiet = try load(busy: nil, after: 3_800)
        #expect(measured == 3 && quiet.busy == nil && notes.count == 2, "measured \(measured) times")
        _ = try load(busy: busy, after: 86_400)
        _ = try load(busy: nil, after: 2 * 86_400)
        #expect(measured == 3, "a quiet calibration was measured again (\(measured) times)")
        // The rule: above the cores is busy, at or below is not.
        #expect(Calibration.isBusy(loadAverage: 2.01, cores: 2) == "load average 2.01 on 2 cores")
        #expect(Calibration.isBusy(loadAverage: 2.0, cores: 2) == nil && Calibration.isBusy(loadAverage: 0.3, cores: 16) == nil)
    }
}
