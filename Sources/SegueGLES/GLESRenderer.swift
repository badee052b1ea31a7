import CEGL
import Foundation
import SegueCore

/// The GLES 3 backend: draws draw lists with the layer program (`Shaders/layer.vert`, `Shaders/layer.frag`,
/// one compiled variant per combination of `LayerVariant` switches the items need) into an offscreen
/// framebuffer on an EGL context with no surface, and reads the pixels back.
///
/// Every GL and EGL call goes through the renderer's own thread (`GLThread`), on which its context is current
/// for its whole life, so renderers can be created, used from any thread (one call at a time) and dropped
/// many times in one process; `deinit` deletes every GL object and the context. It is still confined, not
/// `Sendable` (see `Renderer`): each call is safe from any thread, but loaded snapshots and in-flight readbacks
/// belong to one user's sequence of calls.
public final class GLESRenderer: MultiPathRenderer {
    public let name = "gles"
    /// Read-back buffers, each a frame: three frames in flight on the GPU while the CPU reads the fourth.
    public static let readbackBuffers = 4
    /// The platform the context runs on.
    public let platform: EGLPlatform
    /// The context's strings and limits.
    public let info: GLInfo
    /// Each platform tried before the one that gave the context (and that one), in order.
    public let probes: [PlatformProbe]
    let thread: GLThread
    let pipeline: GLPipeline

    /// A renderer on `platform`, or on the first of gbm, device, surfaceless that gives a GLES 3 context; on
    /// the platform's `device` where given (with several, a hardware device is taken before a software one).
    /// Throws `EGLError.platformUnavailable` when a forced platform or device cannot be used,
    /// `EGLError.noPlatform` when none can, `EGLError.libraryUnavailable` when libEGL.so.1 or libGLESv2.so.2
    /// cannot be loaded, `EGLError.disabled` when `SEGUE_EGL_FAIL=1`, and `GLError.shaderCompile` if a shader fails.
    public convenience init(platform: EGLPlatform? = nil, device: EGLDeviceChoice? = nil) throws {
        try self.init(platform: platform, device: device, environment: ProcessInfo.processInfo.environment)
    }

    /// As `init(platform:device:)`, reading `SEGUE_EGL_FAIL` and `SEGUE_GLES_FAULT` from `environment` (tests
    /// pass their own rather than changing the process's, which other tests and child processes share).
    init(platform: EGLPlatform?, device: EGLDeviceChoice? = nil, environment: [String: String]) throws {
        let thread = GLThread(name: "segue.gles")
        do {
            pipeline = try thread.sync { try GLPipeline(platform: platform, device: device, environment: environment) }
        } catch {
            thread.stop()
            throw error
        }
        self.thread = thread
        self.platform = pipeline.context.platform
        self.info = pipeline.context.info
        self.probes = pipeline.probes
    }

    deinit {
        try? thread.sync { pipeline.destroy() }
        thread.stop()
    }

    /// `llvmpipe (LLVM 15.0.6, 256 bits), OpenGL ES 3.2 Mesa 22.3.6, EGL surfaceless`.
    public var details: String {
        "\(info.renderer), \(info.version), EGL \(platform.rawValue)" + (pipeline.context.location.map { " (\($0))" } ?? "")
    }

    /// Which device or render node it runs on (`device 0, hardware /dev/dri/renderD128 of 2`), where the
    /// platform has a choice.
    public var location: String? { pipeline.context.location }

    /// The devices `platform` offers here (the EGL devices, or the render nodes for `gbm`; none for
    /// `surfaceless`), or why it has none.
    public static func devices(on platform: EGLPlatform) -> Result<[EGLDeviceEntry], EGLError> {
        let thread = GLThread(name: "segue.gles.devices")
        defer { thread.stop() }
        do {
            return .success(try thread.sync {
                switch platform {
                case .gbm: return GLContext.renderNodes()
                case .device:
                    try GLESLibrary.load()
                    return try GLContext.eglDevices(EGLProcs.load(), client: EGLProcs.clientExtensions()).map(\.entry)
                case .surfaceless: return []
                }
            })
        } catch let error as EGLError {
            return .failure(error)
        } catch {
            return .failure(.platformUnavailable(platform, reason: "\(error)"))
        }
    }

    /// `GL_MAX_TEXTURE_SIZE`: the largest snapshot side it can load.
    public var maxTextureSize: Int { info.maxTextureSize }

    /// The largest frame side it can draw (`GL_MAX_TEXTURE_SIZE`: frames are drawn into a texture, and
    /// `GL_MAX_VIEWPORT_DIMS`).
    public var maxFrameSize: (width: Int, height: Int) {
        (min(info.maxTextureSize, info.maxViewportWidth), min(info.maxTextureSize, info.maxViewportHeight))
    }

    /// Tries every platform on its own (each on a fresh context, released at once) and says what each gave.
    /// For `segue info`; `SEGUE_EGL_FAIL=1` makes every probe fail.
    public static func probe() -> [PlatformProbe] {
        probe(environment: ProcessInfo.processInfo.environment)
    }

    static func probe(environment: [String: String]) -> [PlatformProbe] {
        let thread = GLThread(name: "segue.gles.probe")
        defer { thread.stop() }
        return (try? thread.sync {
            EGLPlatform.allCases.map { platform in
                let (result, probes) = GLContext.create(forced: platform, environment: environment)
                if case let .success(context) = result { context.destroy() }
                return probes.first ?? PlatformProbe(platform: platform, ok: false, detail: "not tried")
            }
        }) ?? []
    }

    /// Time spent per stage since the last `resetStats()`.
    public var stats: GLESStats {
        (try? thread.sync { pipeline.stats }) ?? GLESStats()
    }

    public func resetStats() {
        try? thread.sync { pipeline.stats = GLESStats() }
    }

    /// How many GL objects (textures, buffers, framebuffers, programs, fences...) it holds now.
    public var liveGLObjects: Int {
        (try? thread.sync { pipeline.ledger.total }) ?? 0
    }

    public func load(snapshots: [Pixmap]) throws {
        try thread.sync { try pipeline.load(snapshots) }
    }

    public func update(snapshot index: Int, with pixmap: Pixmap) throws {
        try thread.sync { try pipeline.update(index, with: pixmap) }
    }

    public func draw(_ list: DrawList, into target: inout Pixmap) throws {
        var frame = target
        target = Pixmap(width: 0, height: 0)  // so writing the pixels does not copy them
        defer { target = frame }
        try thread.sync { try pipeline.draw(list, into: &frame) }
    }

    public var capabilities: RendererCapabilities {
        var all: RendererCapabilities = [.customShaders, .pipelinedReadback, .lendsFrames]
        if convertsPlanesOnGPU { all.insert(.ycbcrPlanes) }
        if softwareRasterizer != nil { all.insert(.softwareRasterizer) }
        return all
    }

    /// `llvmpipe (LLVM 15.0.6, 256 bits); OpenGL ES 3.2 Mesa 22.3.6`.
    public var device: String { "\(info.renderer); \(info.version)" }

    /// The software rasterizer this context runs on (`llvmpipe (LLVM 15.0.6, 256 bits)`), nil on hardware: told
    /// by its GL_RENDERER, as `EGL_MESA_device_software` marks the same devices.
    public var softwareRasterizer: String? {
        let lower = info.renderer.lowercased()
        return ["llvmpipe", "softpipe", "swiftshader", "software rasterizer"].contains { lower.contains($0) } ? info.renderer : nil
    }

    /// Sets the renderer for the device it runs on, as a job wants it: on a software rasterizer motion blur's
    /// samples are each read back and summed on the CPU, since a float pass over the frame costs llvmpipe more
    /// than a read-back and a sum (page-flip per sample on a quiet 2-core machine: 28.7 ms against 24.1 ms at
    /// 1920x1080, 104 against 87 ms at 4K); on hardware they are summed on the GPU. Likewise video frames'
    /// YCbCr planes are converted by the C kernel, not on the GPU (circle-spread at 1920x1080 on llvmpipe, 2
    /// cores: draw + readback 50 ms a frame as RGBA, 137 ms as 4:2:0 planes). The bytes are the same either way.
    /// A renderer made without this call does everything it can on the GPU (as the tests of those paths want).
    @discardableResult
    public func tuneForDevice() -> GLESRenderer {
        if softwareRasterizer != nil {
            sumsShutterOnGPU = false
            convertsPlanesOnGPU = false
        }
        return self
    }

    /// Draws frames as `drawFrames(count:frame:buffer:deliver:)` does and lends each frame's bytes to `lend`
    /// straight from the read-back buffer (persistently mapped where the context can), for the call only: the
    /// frame is never copied out of it. Motion blur summed on the CPU is drawn frame by frame, its mean lent.
    public func drawFrames(count: Int, frame: (Int) throws -> RenderFrame,
                           lend: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
        if count > 0, case let .average(first) = try frame(0), sumsOnCPU(first) {
            var mean = Pixmap(width: 0, height: 0)
            for k in 0..<count {
                guard case let .average(samples) = k == 0 ? .average(first) : try frame(k) else {
                    throw GLError.invalidInput("a run mixes motion-blurred frames with others")
                }
                try drawAverage(samples, into: &mean)
                try mean.pixels.withUnsafeBytes { try lend(k, $0) }
            }
            return
        }
        try thread.sync {
            try pipeline.drawFrames(count: count, frame: { try pipelineFrame(try frame($0)) }, lend: lend)
        }
    }

    /// Whether it offers `.ycbcrPlanes` to jobs (true by default): the planes are worth converting on the GPU
    /// where reading back is what costs; on a software rasterizer the pass costs more than the bytes it saves.
    /// `drawFrames(count:frame:planes:deliver:)` works either way.
    public var convertsPlanesOnGPU: Bool {
        get { (try? thread.sync { pipeline.convertsPlanesOnGPU }) ?? false }
        set { try? thread.sync { pipeline.convertsPlanesOnGPU = newValue } }
    }

    public var liveObjects: Int { liveGLObjects }

    /// Whether the read-back buffers are persistent, coherent maps of client storage (`GL_EXT_buffer_storage`),
    /// mapped once, rather than mapped for each frame.
    public var mapsReadbackPersistently: Bool {
        (try? thread.sync { pipeline.mapsPersistently }) ?? false
    }

    /// How the read-back buffers are mapped, in words: what `segue info` and `segue doctor` say.
    public var readbackMapping: String {
        mapsReadbackPersistently ? "persistent coherent maps of client storage (GL_EXT_buffer_storage)" : "pack buffers mapped each frame"
    }

    /// The driver's `KHR_debug` messages since the last call (performance warnings such as NVIDIA's buffer
    /// placement or "pixel transfer is synchronized with 3D rendering"), each `type/severity: text`, oldest
    /// first, with a last line counting any dropped; empty where the context has no `KHR_debug`. The messages
    /// of every renderer in the process are collected together.
    public func driverMessages() -> [String] {
        (try? thread.sync { () -> [String] in
            glFinish()  // messages about work still queued arrive once it has run
            var messages: [String] = []
            var text = [CChar](repeating: 0, count: 256)
            var type: UInt32 = 0, severity: UInt32 = 0
            while segue_gles_debug_take(&text, text.count, &type, &severity) != 0 {
                let words = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                messages.append("\(Self.debugName(type: type))/\(Self.debugName(severity: severity)): \(words)")
            }
            let dropped = segue_gles_debug_dropped()
            if dropped > 0 { messages.append("(\(dropped) more messages dropped since the process started)") }
            return messages
        }) ?? []
    }

    private static func debugName(type: UInt32) -> String {
        switch Int32(type) {
        case GL_DEBUG_TYPE_ERROR_KHR: return "error"
        case GL_DEBUG_TYPE_PERFORMANCE_KHR: return "performance"
        case GL_DEBUG_TYPE_PORTABILITY_KHR: return "portability"
        case GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR_KHR: return "deprecated"
        case GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR_KHR: return "undefined"
        default: return "other"
        }
    }

    private static func debugName(severity: UInt32) -> String {
        switch Int32(severity) {
        case GL_DEBUG_SEVERITY_HIGH_KHR: return "high"
        case GL_DEBUG_SEVERITY_MEDIUM_KHR: return "medium"
        case GL_DEBUG_SEVERITY_LOW_KHR: return "low"
        default: return "note"
        }
    }

    /// Compiles the programs frames like `frames` need on the current path (`planes` when read back as YCbCr
    /// planes), so the first frame of a job waits on no compiler (50-300 ms a program on a GPU's driver).
    /// Custom transitions are compiled by `prepareShader`.
    public func prepare(frames: [RenderFrame], planes: YCbCrPlanes?) throws {
        let lists = frames.compactMap { frame -> [DrawList]? in
            switch frame {
            case let .layers(list): return [list]
            case let .average(samples):
                let lists = samples.compactMap { if case let .layers(list) = $0 { list } else { nil } }
                return lists.count == samples.count ? lists : nil
            case .shader: return nil
            }
        }
        try thread.sync { try pipeline.prepare(lists, planes: planes) }
    }

    /// Whether pipelined frames are timed on the GPU's own clock (`GL_EXT_disjoint_timer_query`): then
    /// `stats.gpuDrawSeconds` and `gpuTransferSeconds` are the GPU's.
    public var timesOnGPU: Bool {
        (try? thread.sync { pipeline.timesOnGPU }) ?? false
    }

    /// Whether the context runs the compute path (OpenGL ES 3.1 compute shaders).
    public var supportsCompute: Bool {
        (try? thread.sync { pipeline.compositor != nil }) ?? false
    }

    /// Which path draws draw lists: `.raster` (the default), `.compute` (one dispatch a frame, `composite.comp`,
    /// writing the read-back buffer) or `.computeStaged` (the same dispatch into GPU memory, then one copy).
    /// All draw the same picture. Setting a compute path where the context lacks compute shaders
    /// (`supportsCompute` false) throws `GLError.invalidInput`. A frame beyond one dispatch (over 1,024 items or
    /// 64 motion blur samples, or a frame larger than the context's largest storage buffer) is drawn by the
    /// raster path either way, counted with its reason in `stats.fallbacks`.
    public var path: GLESPath {
        (try? thread.sync { pipeline.path }) ?? .raster
    }

    /// `raster`, and `compute` and `compute-staged` where the context runs compute shaders.
    public var paths: [String] {
        supportsCompute ? GLESPath.allCases.map(\.rawValue) : [GLESPath.raster.rawValue]
    }
    public var currentPath: String { path.rawValue }
    /// Whether the programs compiled are kept on disk as the driver's binaries (`$XDG_CACHE_HOME/segue/programs`)
    /// and linked from there by later processes: where the driver offers a binary format and there is a cache
    /// directory, unless `SEGUE_PROGRAM_CACHE=0`. `stats.programsLoaded` counts those linked from disk.
    public var keepsProgramBinaries: Bool { (try? thread.sync { pipeline.binaries != nil }) ?? false }

    /// `stats.pathFrames`.
    public var framesByPath: [String: Int] { stats.pathFrames }
    /// `stats.fallbacks`.
    public var fallbacks: [String: Int] { stats.fallbacks }

    public func use(path name: String) throws {
        guard let path = GLESPath(rawValue: name) else {
            throw GLError.invalidInput("no GLES path '\(name)' (\(GLESPath.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        try use(path)
    }

    public func use(_ path: GLESPath) throws {
        try thread.sync {
            if path.isCompute, pipeline.compositor == nil {
                throw GLError.invalidInput("the \(path.rawValue) path needs OpenGL ES 3.1 compute shaders; this context is \(info.version)")
            }
            pipeline.path = path
        }
    }

    /// Whether the CPU must sum this motion-blurred frame's samples: not where the GPU sums them, nor where the
    /// compute path draws their mean in one dispatch.
    private func sumsOnCPU(_ samples: [RenderFrame]) -> Bool {
        guard !sumsShutterOnGPU else { return false }
        return !((try? thread.sync { computeDraws(samples) }) ?? false)
    }

    public func prepareShader(_ transition: ShaderTransition, values: [String: ShaderValue]) throws -> any PreparedShader {
        try prepare(transition, values: values)
    }

    /// Whether motion blur's samples are summed on the GPU, so that only their mean is read back: true by
    /// default where the context has float framebuffers with blending (`GL_EXT_color_buffer_float`,
    /// `GL_EXT_float_blend`), and never true where it has not. Else (or set false) each sample is read back
    /// and summed on the CPU. The bytes are the same either way.
    public var sumsShutterOnGPU: Bool {
        get { (try? thread.sync { pipeline.sumsShutterOnGPU }) ?? false }
        set { try? thread.sync { pipeline.sumsShutterOnGPU = newValue } }
    }

    public func draw(_ frame: RenderFrame, into target: inout Pixmap) throws {
        switch frame {
        case let .layers(list):
            try draw(list, into: &target)
        case let .average(samples) where sumsOnCPU(samples):
            try drawAverage(samples, into: &target)
        default:
            var out = target
            target = Pixmap(width: 0, height: 0)  // so writing the pixels does not copy them
            defer { target = out }
            try thread.sync { try pipeline.draw(try pipelineFrame(frame), into: &out) }
        }
    }

    public func drawFrames(count: Int, frame: (Int) throws -> RenderFrame, buffer: () -> Pixmap?,
                           deliver: (Int, Pixmap) throws -> Void) throws {
        // Without sums on the GPU, a run of motion-blurred frames is drawn frame by frame, each sample read back
        // and summed on the CPU; a run's frames are all blurred or none.
        if count > 0, case let .average(first) = try frame(0), sumsOnCPU(first) {
            for k in 0..<count {
                var target = buffer() ?? Pixmap(width: 0, height: 0)
                guard case let .average(samples) = k == 0 ? .average(first) : try frame(k) else {
                    throw GLError.invalidInput("a run mixes motion-blurred frames with others")
                }
                try drawAverage(samples, into: &target)
                try deliver(k, target)
            }
            return
        }
        try thread.sync {
            try pipeline.drawFrames(count: count, frame: { try pipelineFrame(try frame($0)) }, buffer: buffer, deliver: deliver)
        }
    }

    /// Draws `count` frames as `drawFrames(count:frame:buffer:deliver:)` does, then converts each to YCbCr planes
    /// on the GPU (`Shaders/ycbcr-planes.frag`: the C kernel's weights and rounding, byte for byte) and reads back
    /// only the planes, pipelined as RGBA frames are: 1.5 bytes a pixel at 4:2:0 instead of 4. The planes are
    /// lent to `deliver` for the call only. Motion blur summed on the CPU (`sumsShutterOnGPU` false) is drawn
    /// frame by frame, its mean uploaded and converted.
    public func drawFrames(count: Int, frame: (Int) throws -> RenderFrame, planes: YCbCrPlanes,
                           deliver: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
        let summedOnCPU = !sumsShutterOnGPU
        try thread.sync {
            try pipeline.drawFrames(count: count, frame: { k in
                let next = try frame(k)
                if summedOnCPU, case let .average(samples) = next, !computeDraws(samples) {
                    var mean = Pixmap(width: 0, height: 0)
                    try drawAverageOnThread(samples, into: &mean)
                    return pipeline.uploadedFrame(mean)
                }
                return try pipelineFrame(next)
            }, planes: planes, deliver: deliver)
        }
    }

    /// `drawAverage` on the GL thread (each sample drawn and read back, summed on the CPU).
    private func drawAverageOnThread(_ samples: [RenderFrame], into target: inout Pixmap) throws {
        var sample = Pixmap(width: 0, height: 0)
        var sum = FrameAccumulator()
        sum.reset(width: samples.first?.width ?? 0, height: samples.first?.height ?? 0)
        for frame in samples {
            if case .average = frame { throw GLError.invalidInput("motion blur within motion blur") }
            try pipeline.draw(try pipelineFrame(frame), into: &sample)
            sum.add(sample)
        }
        sum.average(into: &target)
    }

    /// Whether the compute path draws the mean of `samples` in one dispatch. Call on the GL thread.
    private func computeDraws(_ samples: [RenderFrame]) -> Bool {
        let lists = samples.compactMap { frame -> DrawList? in if case let .layers(list) = frame { return list } else { return nil } }
        return lists.count == samples.count && pipeline.computeDraws(samples: lists)
    }

    /// `frame` as the pipeline draws it: its size and the commands that draw it into the render target. Call
    /// on the GL thread.
    private func pipelineFrame(_ frame: RenderFrame) throws -> GLPipeline.Frame {
        switch frame {
        case let .layers(list):
            return pipeline.frame(list)
        case let .shader(prepared, progress, width, height, background):
            let transition = try own(prepared)
            return pipeline.transitionFrame(transition.program, values: transition.values, images: transition.images, progress: progress,
                                            width: width, height: height, background: Self.opaque(background))
        case let .average(samples) where computeDraws(samples):
            return try pipeline.averageFrame(lists: samples.map { sample in
                guard case let .layers(list) = sample else { throw GLError.invalidInput("motion blur within motion blur") }
                return list
            })
        case let .average(samples):
            return try pipeline.averageFrame(samples.map { sample in
                if case .average = sample { throw GLError.invalidInput("motion blur within motion blur") }
                return try pipelineFrame(sample)
            })
        }
    }
}
