import Foundation
@testable import SegueRender
import SegueCPU
import SegueGLES
import Testing

/// `auto` takes the backend the calibration measured fastest for the job's output, and keeps the figures.
@Suite(.serialized) struct CalibrationTests {
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
        // Planes converted on the CPU cost the conversion: RGBA 3 + 4 = 7 loses to the GPU's 6.
        let slowPlanes = Calibration(machine: "m", sizeClass: .hd, figures: Self.figures(cpu: 10, raster: 8, compute: 3, rasterPlanes: 9, computePlanes: 6, convert: 4), seconds: 1)
        #expect(slowPlanes.decision(planes: true).planesOnGPU && slowPlanes.decision(planes: true).milliseconds == 6)
        let cpu = Calibration(machine: "m", sizeClass: .hd, figures: Self.figures(cpu: 2, raster: 8, compute: 30, rasterPlanes: 9, computePlanes: 40, convert: 1), seconds: 1)
        #expect(cpu.decision(planes: false).backend == .cpu && cpu.decision(planes: true).backend == .cpu)
        #expect(cpu.decision(planes: false).runnerUp?.name == "gles-raster")
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
    @Test func autoFollowsTheMeasurement() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("calibration.json")
        let gles: GLESRenderer
        do { gles = try GLESRenderer() } catch { try Test.cancel("no GLES context here: \(error)") }
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

    @Test func anUnwritableCacheIsSaidAndMeasuredAgain() throws {
        do { _ = try GLESRenderer() } catch { try Test.cancel("no GLES context here: \(error)") }
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A file where the cache's directory should be.
        let blocker = directory.appendingPathComponent("segue")
        try Data("x".utf8).write(to: blocker)
        var notes: [String] = []
        let renderer = try BackendChoice.auto.makeRenderer(frameSize: (320, 240), calibrationFile: blocker.appendingPathComponent("calibration.json"),
                                                           note: { notes.append($0) })
        #expect(notes.count == 1 && notes[0].contains("cannot be cached"), "\(notes)")
    }
}
