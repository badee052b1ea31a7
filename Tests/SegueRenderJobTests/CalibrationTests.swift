import Foundation
import SegueCore
@testable import SegueRender
import SegueCPU
import SegueGLES
import Testing

/// `auto` takes the backend the calibration measured fastest for the job's output, and keeps the figures.
@Suite(.serialized) struct CalibrationTests {
    /// Whether an EGL platform gives a GLES context here: the tests that measure GLES for real are skipped,
    /// and reported as skipped, where none does.
    static let hasGLES: Bool = (try? GLESRenderer()) != nil

    /// A GLES renderer's stand-in for `Calibration.load`, which asks it only for its device and paths (the
    /// measuring is the test's own).
    final class PathsRenderer: MultiPathRenderer {
        let name = "gles"
        let details = "a stand-in"
        var device: String { "a stand-in GPU" }
        let paths = ["raster", "compute"]
        var currentPath = "raster"
        func use(path: String) throws { currentPath = path }
        func load(snapshots: [Pixmap]) throws {}
        func update(snapshot index: Int, with pixmap: Pixmap) throws {}
        func draw(_ list: DrawList, into target: inout Pixmap) throws {}
    }

    /// A calibration of `gles` as `Calibration.load` would measure it, with made-up figures.
    static func madeUp(_ gles: any MultiPathRenderer, cores: Int, sizeClass: Calibration.SizeClass) -> Calibration {
        Calibration(machine: Calibration.machine(gles, cores: cores), sizeClass: sizeClass,
                    figures: figures(cpu: 2, raster: 8, compute: 30, rasterPlanes: 9, computePlanes: 40, convert: 1), seconds: 0)
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

    @Test func theDecisionIsTheFastestForTheOutput() {
        let c = Calibration(machine: "m", sizeClass: .uhd4K, figures: Self.figures(cpu: 10, raster: 8, compute: 3, rasterPlanes: 9, computePlanes: 1.5, convert: 4), seconds: 1)
        #expect(c.decision(planes: false).backend == .glesCompute)
        let planes = c.decision(planes: true)
        #expect(planes.backend == .glesCompute && planes.planesOnGPU && planes.milliseconds == 1.5)
        #expect(planes.runnerUp == .init(candidate: .init(backend: .glesRaster, planesOnGPU: true), milliseconds: 9))
        // Planes converted on the CPU cost the conversion: RGBA 3 + 4 = 7 loses to the GPU's 6.
        let slowPlanes = Calibration(machine: "m", sizeClass: .hd, figures: Self.figures(cpu: 10, raster: 8, compute: 3, rasterPlanes: 9, computePlanes: 6, convert: 4), seconds: 1)
        #expect(slowPlanes.decision(planes: true).planesOnGPU && slowPlanes.decision(planes: true).milliseconds == 6)
        let cpu = Calibration(machine: "m", sizeClass: .hd, figures: Self.figures(cpu: 2, raster: 8, compute: 30, rasterPlanes: 9, computePlanes: 40, convert: 1), seconds: 1)
        #expect(cpu.decision(planes: false).backend == .cpu && cpu.decision(planes: true).backend == .cpu)
        #expect(cpu.decision(planes: false).runnerUp == .init(candidate: .init(backend: .glesRaster), milliseconds: 8))
    }

    /// A cache may name a candidate this version does not time (a later version's, or a choice that is not one
    /// path): it is never taken, however fast, and never read as another.
    @Test func aFigureOfACandidateThisVersionDoesNotKnowIsNotTaken() {
        var figures = Self.figures(cpu: 10, raster: 8, compute: 3, rasterPlanes: 9, computePlanes: 1.5, convert: 4)
        figures.rgba["gles-vulkan"] = 0.1
        figures.rgba["gles"] = 0.2
        figures.planes["gles-vulkan"] = 0.1
        let c = Calibration(machine: "m", sizeClass: .hd, figures: figures, seconds: 1)
        #expect(c.decision(planes: false) == .init(taken: .init(candidate: .init(backend: .glesCompute), milliseconds: 3),
                                                   runnerUp: .init(candidate: .init(backend: .glesRaster), milliseconds: 8)))
        #expect(c.decision(planes: true).taken == .init(candidate: .init(backend: .glesCompute, planesOnGPU: true), milliseconds: 1.5))
        let unknown = Calibration(machine: "m", sizeClass: .hd, figures: .init(rgba: ["gles-vulkan": 1], planes: [:], convert: 1), seconds: 1)
        #expect(unknown.decision(planes: false) == .init(taken: .init(candidate: .init(backend: .cpu), milliseconds: 0), runnerUp: nil))
    }

    /// A cache as earlier versions wrote it is read (the format is unchanged); one this version cannot read is
    /// measured again and replaced, never a crash.
    @Test func anEarlierCacheIsReadAndAnUnreadableOneMeasuredAgain() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("calibration.json")
        let gles = PathsRenderer()
        let machine = Calibration.machine(gles, cores: 2)
        try Data("""
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
            """.utf8).write(to: file)
        var measured = 0
        let read = try Calibration.load(gles: gles, cores: 2, sizeClass: .hd, file: file, measure: { gles, cores, sizeClass in
            measured += 1
            return Self.madeUp(gles, cores: cores, sizeClass: sizeClass)
        })
        #expect(measured == 0)
        #expect(read.figures.rgba == ["cpu": 3, "gles-compute": 50, "gles-raster": 35] && read.seconds == 1.02)
        #expect(read.decision(planes: true).taken == .init(candidate: .init(backend: .cpu), milliseconds: 4.5))

        for unreadable in [#"{"version": 2, "calibrations": []}"#, "[{\"machine\": 1}]", "not json", ""] {
            try Data(unreadable.utf8).write(to: file)
            measured = 0
            let again = try Calibration.load(gles: gles, cores: 2, sizeClass: .hd, file: file, measure: { gles, cores, sizeClass in
                measured += 1
                return Self.madeUp(gles, cores: cores, sizeClass: sizeClass)
            })
            #expect(measured == 1, "a cache of \(unreadable.debugDescription) was not measured again")
            #expect(Calibration.cached(in: file) == [again], "a cache of \(unreadable.debugDescription) was not replaced")
        }
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

    /// What `auto` takes follows the cached figures: a machine whose cache says the compute path is fastest
    /// gets it; here, measured for real, llvmpipe loses to the CPU compositor.
    // Skipped, and reported as skipped, where no EGL platform gives a GLES context.
    @Test(.enabled(if: hasGLES, "no EGL platform gives a GLES context here"))
    func autoFollowsTheMeasurement() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("calibration.json")
        let gles = try GLESRenderer()
        let machine = Calibration.machine(gles, cores: ProcessInfo.processInfo.activeProcessorCount)

        // Measured for real, and cached.
        let measured = try Calibration.load(gles: gles, cores: ProcessInfo.processInfo.activeProcessorCount, sizeClass: .hd, file: file)
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(Set(measured.figures.rgba.keys) == ["cpu", "gles-raster", "gles-compute"])
        print("calibration: \(measured.summary)")
        let real = try BackendChoice.auto.makeRenderer(frameSize: (1280, 720), calibrationFile: file)
        #expect(real.name == (measured.decision(planes: false).backend == .cpu ? "cpu" : "gles"))
        #if !DEBUG && !SEGUE_SANITIZED
        // Optimised (make test), the CPU compositor is several times faster than llvmpipe on the same cores: auto
        // takes it because it was measured so. (A debug build's CPU compositor is unoptimised Swift, and a
        // sanitizer's is instrumented while Mesa is not: there the measurement may rightly favour llvmpipe.)
        if gles.info.renderer.contains("llvmpipe") {
            #expect(real.name == "cpu", "on llvmpipe the CPU compositor measures faster: \(measured.summary)")
        }
        #endif
        // A second job reads the cache: the same figures, not measured again.
        #expect(Calibration.cached(in: file) == [measured])

        // A cache that says the GPU's compute path is fastest.
        let fake = Calibration(machine: machine, sizeClass: .uhd4K,
                               figures: Self.figures(cpu: 50, raster: 20, compute: 2, rasterPlanes: 18, computePlanes: 1, convert: 9),
                               seconds: 1)
        try JSONEncoder().encode([measured, fake]).write(to: file)
        let fast = try #require(try BackendChoice.auto.makeRenderer(frameSize: (3840, 2160), planes: true, calibrationFile: file) as? GLESRenderer)
        #expect(fast.path == .compute && fast.convertsPlanesOnGPU)
        // `gles` takes the path the cache found faster.
        let forced = try #require(try BackendChoice.gles.makeRenderer(frameSize: (3840, 2160), calibrationFile: file) as? GLESRenderer)
        #expect(forced.path == .compute)
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
                _ = try Calibration.load(gles: gles, cores: 2, sizeClass: .hd, file: file, note: { notes.append($0) }, measure: { gles, cores, sizeClass in
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
        _ = try BackendChoice.auto.makeRenderer(frameSize: (320, 240), calibrationFile: blocker.appendingPathComponent("calibration.json"),
                                                note: { notes.append($0) })
        #expect(notes.count == 1 && notes[0].contains("cannot be cached"), "\(notes)")
    }
}
