import Foundation
import Synchronization
@testable import SegueRender
import SegueCore
import SegueGLES
import SegueSamples
import SegueTestSupport
import Testing

/// YCbCr planes converted on the GPU (`GLESRenderer.drawFrames(count:frame:planes:deliver:)`, on llvmpipe here)
/// against the C kernel's planes (`Y4M.frame`) of the same frame read back as RGBA: for every encoding, both
/// chroma layouts, at real sizes with odd edges, under `Tolerance.gpuPlanes`.
@Suite(.serialized) struct GPUPlanesTests {
    static let encodings = YCbCrEncoding.Matrix.allCases.flatMap { matrix in
        YCbCrEncoding.Range.allCases.map { YCbCrEncoding(matrix, $0) }
    }
    static let sizes = [(1280, 720), (375, 667), (1921, 1081), (3, 1)]

    /// A door half open between the home screen and noise (every level of every channel, next to flat colour
    /// and edges), `width` x `height` pixels.
    static func frame(width: Int, height: Int) -> (snapshots: [Pixmap], frame: RenderFrame) {
        let snapshots = [SampleScreens.home(width: Double(width), height: Double(height)),
                         Y4MPlaneTests.noise(width: width, height: height, seed: UInt64(width * 31 + height))]
        let scene = Transition(.door).scene(at: 0.5, frame: Size(Double(width), Double(height)), scale: 1)
        let list = DrawList(scene: scene, scale: 1, snapshots: snapshots.map(SnapshotInfo.init))
        return (snapshots, .layers(list))
    }

    /// The largest difference between `gpu` and `kernel`, and how many samples differ.
    static func compare(_ gpu: [UInt8], _ kernel: ArraySlice<UInt8>) -> (worst: Int, differing: Int) {
        var worst = 0, differing = 0
        for (a, b) in zip(gpu, kernel) where a != b {
            worst = max(worst, abs(Int(a) - Int(b)))
            differing += 1
        }
        return (worst, differing)
    }

    /// On the raster path the planes pass converts the frame drawn; on the compute path the dispatch that draws
    /// the frame writes the planes itself (1280x720 at 4:2:0 and 4:4:4, 375x667 at neither: drawn into an
    /// image, then the pass).
    @Test(arguments: [Y4M.Chroma.c420, .c444], [BackendChoice.glesRaster, .glesCompute])
    func gpuPlanesMatchTheKernel(chroma: Y4M.Chroma, backend: BackendChoice) throws {
        let renderer = try backend.makeRenderer()
        for (width, height) in Self.sizes {
            let (snapshots, frame) = Self.frame(width: width, height: height)
            try renderer.load(snapshots: snapshots)
            var rgba = Pixmap(width: 0, height: 0)
            try renderer.drawFrames(count: 1, frame: { _ in frame }, buffer: { nil }, deliver: { rgba = $1 })
            for encoding in Self.encodings {
                let y4m = Y4M(width: width, height: height, fps: 30, chroma: chroma, encoding: encoding)
                let kernel = y4m.frame(rgba).dropFirst(6)
                var gpu: [UInt8] = []
                try renderer.drawFrames(count: 1, frame: { _ in frame }, planes: encoding.planes(subsampled: chroma == .c420),
                                        deliver: { gpu = Array($1) })
                let (worst, differing) = Self.compare(gpu, kernel)
                let what = "\(width)x\(height) \(chroma.rawValue) \(encoding.matrix.rawValue) \(encoding.range.rawValue)"
                #expect(gpu.count == kernel.count, "\(what): \(gpu.count) bytes, the kernel's \(kernel.count)")
                #expect(worst <= Tolerance.gpuPlanes.maxLevelDiff,
                        "\(what): \(differing) of \(kernel.count) samples differ, by up to \(worst) levels")
            }
        }
        Self.expectDrew(renderer, on: backend)
    }

    /// Every frame drawn on the path the renderer uses (`GLESStats.pathFrames`), none fallen back; the path one of
    /// those `backend` names (`gles-compute` takes `compute` or `compute-staged`, as a cached calibration found
    /// faster).
    static func expectDrew(_ renderer: any Renderer, on backend: BackendChoice) {
        guard let gles = renderer as? GLESRenderer, let forced = backend.forcedPath else { return }
        let stats = gles.stats, path = gles.path
        #expect(path.isCompute == forced.isCompute, "\(backend.rawValue) draws on \(path.rawValue)")
        #expect(stats.frames(by: path) == stats.frames && stats.frames > 0 && stats.fallbacks.isEmpty,
                "\(backend.rawValue) on \(path.rawValue): \(stats.frames) frames; \(stats.pathSummary)")
    }

    /// Frames of several sizes in one run, pipelined: each frame's planes are its own (no frame delivered
    /// with another's bytes or size), including an empty frame between two others.
    @Test(arguments: [BackendChoice.glesRaster, .glesCompute])
    func pipelinedFramesKeepTheirOwnPlanes(backend: BackendChoice) throws {
        let renderer = try backend.makeRenderer()
        let encoding = YCbCrEncoding.video(width: 64, height: 36)
        let sizes = [(64, 36), (64, 36), (64, 36), (64, 36), (0, 0), (33, 17), (33, 17), (64, 36)]
        let (snapshots, _) = Self.frame(width: 64, height: 36)
        try renderer.load(snapshots: snapshots)
        func list(_ k: Int) -> DrawList {
            let (w, h) = sizes[k]
            let scene = Transition(.door).scene(at: Double(k) / 8, frame: Size(Double(w), Double(h)), scale: 1)
            return DrawList(scene: scene, scale: 1, snapshots: snapshots.map(SnapshotInfo.init))
        }
        var rgba: [Pixmap] = []
        try renderer.drawFrames(count: sizes.count, frame: { .layers(list($0)) }, buffer: { nil }, deliver: { rgba.append($1) })
        var planes: [[UInt8]] = []
        try renderer.drawFrames(count: sizes.count, frame: { .layers(list($0)) }, planes: encoding.planes(subsampled: true),
                                deliver: { planes.append(Array($1)) })
        #expect(planes.count == sizes.count)
        Self.expectDrew(renderer, on: backend)
        for (k, frame) in rgba.enumerated() where k < planes.count {
            let kernel = Y4M(width: frame.width, height: frame.height, fps: 30, chroma: .c420, encoding: encoding).frame(frame).dropFirst(6)
            #expect(planes[k] == Array(kernel), "frame \(k) (\(frame.width)x\(frame.height))")
        }
    }
}

/// A Y4M stream rendered on GLES, its planes converted on the GPU, against the same job on the same renderer
/// with the planes converted on the CPU by the C kernel (the renderer's `.ycbcrPlanes` hidden): the same bytes.
@Suite(.serialized) struct GPUPlanesJobTests {
    /// A renderer that forwards to `base`, with or without its `.ycbcrPlanes`, and counts the runs it converted.
    final class Forwarding: Renderer {
        let base: any Renderer
        let convertsPlanes: Bool
        private(set) var planeRuns = 0
        init(_ base: any Renderer, convertsPlanes: Bool) {
            self.base = base
            self.convertsPlanes = convertsPlanes
        }
        var name: String { base.name }
        var details: String { base.details }
        /// Whether it offers the base's `.lendsFrames` (frames lent from the read-back buffer).
        var lendsFrames = true
        private(set) var lentRuns = 0
        var capabilities: RendererCapabilities {
            var c = convertsPlanes ? base.capabilities : base.capabilities.subtracting(.ycbcrPlanes)
            if !lendsFrames { c.remove(.lendsFrames) }
            return c
        }
        func drawFrames(count: Int, frame: (Int) throws -> RenderFrame, lend: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
            lentRuns += 1
            try base.drawFrames(count: count, frame: frame, lend: lend)
        }
        func load(snapshots: [Pixmap]) throws { try base.load(snapshots: snapshots) }
        func update(snapshot index: Int, with pixmap: Pixmap) throws { try base.update(snapshot: index, with: pixmap) }
        func draw(_ list: DrawList, into target: inout Pixmap) throws { try base.draw(list, into: &target) }
        func draw(_ frame: RenderFrame, into target: inout Pixmap) throws { try base.draw(frame, into: &target) }
        func prepareShader(_ transition: ShaderTransition, values: [String: ShaderValue]) throws -> any PreparedShader {
            try base.prepareShader(transition, values: values)
        }
        func drawFrames(count: Int, frame: (Int) throws -> RenderFrame, buffer: () -> Pixmap?,
                        deliver: (Int, Pixmap) throws -> Void) throws {
            try base.drawFrames(count: count, frame: frame, buffer: buffer, deliver: deliver)
        }
        func drawFrames(count: Int, frame: (Int) throws -> RenderFrame, planes: YCbCrPlanes,
                        deliver: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
            planeRuns += 1
            try base.drawFrames(count: count, frame: frame, planes: planes, deliver: deliver)
        }
    }

    @Test(arguments: [Y4M.Chroma.c420, .c444])
    func aY4MStreamFromGLESIsTheCPUConvertedOne(chroma: Y4M.Chroma) throws {
        let dir = try temporaryDirectory("job")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Offered on llvmpipe too, so the job takes the path a GPU takes.
        let gles = try GLESRenderer()
        #expect(gles.capabilities.contains(.ycbcrPlanes))
        var outputs: [[UInt8]] = []
        for convertsPlanes in [true, false] {
            let path = dir.appendingPathComponent("\(convertsPlanes ? "gpu" : "cpu").y4m").path
            // An odd size: 4:2:0's last chroma column and row average fewer pixels.
            var job = RenderJob(Transition(.circleSpread, curve: .linear, duration: 1), from: "sample:home", to: "sample:detail",
                                fps: 10, size: (187, 333), output: .stream(path, format: .y4m, y4mChroma: chroma))
            job.backend = .gles
            let renderer = Forwarding(gles, convertsPlanes: convertsPlanes)
            try job.run(renderer: renderer)
            #expect((renderer.planeRuns > 0) == convertsPlanes)
            outputs.append(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        let (gpu, cpu) = (outputs[0], outputs[1])
        let differing = zip(gpu, cpu).filter { $0 != $1 }.count
        let worst = zip(gpu, cpu).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(gpu.count == cpu.count && cpu.count > 11 * 187 * 333)
        #expect(worst <= Tolerance.gpuPlanes.maxLevelDiff, "\(differing) of \(cpu.count) bytes differ, by up to \(worst)")
    }

    /// A raw RGBA stream written from frames lent where GLES read them back (persistently mapped pack buffers,
    /// on both paths) is byte for byte the one written from frames copied out into buffers.
    @Test(arguments: [BackendChoice.glesRaster, .glesCompute])
    func aRawStreamFromLentFramesIsTheCopiedOne(backend: BackendChoice) throws {
        let dir = try temporaryDirectory("lent")
        defer { try? FileManager.default.removeItem(at: dir) }
        let gles = try #require(try backend.makeRenderer() as? GLESRenderer)
        #expect(gles.capabilities.contains(.lendsFrames))
        var outputs: [[UInt8]] = []
        for lends in [true, false] {
            let path = dir.appendingPathComponent("\(lends ? "lent" : "copied").rgba").path
            var job = RenderJob(Transition(.door, curve: .linear, duration: 1), from: "sample:home", to: "sample:detail",
                                fps: 12, size: (188, 334), output: .stream(path, format: .rgba))
            job.backend = backend
            let renderer = Forwarding(gles, convertsPlanes: false)
            renderer.lendsFrames = lends
            try job.run(renderer: renderer)
            #expect((renderer.lentRuns > 0) == lends)
            outputs.append(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        #expect(outputs[0].count == 13 * 188 * 334 * 4)
        #expect(outputs[0] == outputs[1], "a lent frame's bytes differ from the copied frame's")
    }
}

/// A job that forces a compute path is told, once, of the frames that path could not draw: here a 5800x5800
/// frame, whose RGBA words (134.6 MB) are more than one storage buffer may hold on llvmpipe (128 MiB).
@Suite(.serialized) struct ComputeFallbackJobTests {
    #if SEGUE_SANITIZED
    static let runs = false  // a gigabyte of frames and textures: not under a sanitizer's shadow memory
    #else
    static let runs = true
    #endif

    @Test(.enabled(if: runs)) func aForcedComputeJobThatFallsBackSaysSoOnce() throws {
        let gles = try GLESRenderer()
        let side = 5800
        guard gles.supportsCompute, side * side * 4 > 134_217_728 else { return }
        let picture = Pixmap(width: side, height: side, fill: 0xFF20_4060)
        var job = RenderJob(Transition(.fade, curve: .linear, duration: 1), from: picture, to: picture, fps: 10,
                            size: (side, side), output: .stream("/dev/null", format: .rgba))
        job.progress = [0.25, 0.5]
        job.backend = .glesCompute
        let notes = Mutex<[String]>([])
        try job.run(observer: RenderJob.Observer(note: { line in notes.withLock { $0.append(line) } }))
        let said = notes.withLock { $0 }
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.contains("could not draw every frame of 2 (2 over GL_MAX_SHADER_STORAGE_BLOCK_SIZE") == true, "\(said)")
    }
}
