/// A backend: draws frames (draw lists, and custom transitions where it can) into premultiplied RGBA8.
/// A job asks a renderer what it can do through `capabilities`, never by its type.
///
/// A renderer is confined, not `Sendable`: it is used by one thread at a time, one call at a time, and its
/// calls are a conversation (`load(snapshots:)`, then frames that draw them), which two users would mix up
/// even where each call is safe on its own. It is not bound to the thread that made it: a caller may hand it
/// to another thread, and give it up meanwhile, as `RenderJob`'s async `run` and `frameStream` do for the
/// job's duration. Inside a call a backend may use threads of its own (`CPUCompositor`'s bands, the GLES
/// backend's GL thread).
public protocol Renderer: AnyObject {
    /// A short name: `cpu`, `gles`.
    var name: String { get }
    /// One line on what it runs on (for `segue info` and reports).
    var details: String { get }
    /// The device it draws on, as its driver names it (`llvmpipe (LLVM 15.0.6, 256 bits); OpenGL ES 3.2 Mesa
    /// 22.3.6`; `cpu` for the CPU compositor): what a measurement of this renderer is kept under.
    var device: String { get }
    /// What it can do beyond drawing draw lists.
    var capabilities: RendererCapabilities { get }
    /// Objects it holds in a driver (GL textures, buffers, programs...), for checks that nothing leaks; 0 for
    /// a renderer that holds none.
    var liveObjects: Int { get }
    /// Takes the snapshots the frames refer to (`snapshots[id.rawValue]`); uploaded once per transition.
    func load(snapshots: [Pixmap]) throws
    /// Replaces the pixels of loaded snapshot `index` with `pixmap` (the same size) for the frames drawn after
    /// this call: a video clip's next frame. Snapshots that are not updated stay as they were loaded.
    func update(snapshot index: Int, with pixmap: Pixmap) throws
    /// Draws one frame into `target`, replacing its contents; `target` is resized to the frame if it differs.
    func draw(_ list: DrawList, into target: inout Pixmap) throws
    /// Compiles a custom transition with `values` over its defaults, for `RenderFrame.shader` (renderers with
    /// `.customShaders`; others throw).
    func prepareShader(_ transition: ShaderTransition, values: [String: ShaderValue]) throws -> any PreparedShader
    /// Draws one frame of any kind into `target`, as `draw(_:into:)` does.
    func draw(_ frame: RenderFrame, into target: inout Pixmap) throws
    /// Draws `count` frames in order, each into a buffer that `buffer` lends (a frame buffer the caller is done
    /// with; nil when it has none, and a buffer of another size is replaced), and hands each to `deliver` as
    /// soon as its pixels are ready, in order. With `.pipelinedReadback` frame k + 1 is drawn while frame k is
    /// read back.
    func drawFrames(count: Int, frame: (Int) throws -> RenderFrame, buffer: () -> Pixmap?,
                    deliver: (Int, Pixmap) throws -> Void) throws
    /// Draws `count` frames in order as `drawFrames(count:frame:buffer:deliver:)` does, but hands each to
    /// `deliver` as its YCbCr planes (`planes`: Y, then Cb, then Cr, `planes.byteCount` bytes), converted by the
    /// renderer (renderers with `.ycbcrPlanes`; others throw). The bytes are lent for the call only.
    func drawFrames(count: Int, frame: (Int) throws -> RenderFrame, planes: YCbCrPlanes,
                    deliver: (Int, UnsafeRawBufferPointer) throws -> Void) throws
    /// Draws `count` frames in order as `drawFrames(count:frame:buffer:deliver:)` does, but lends each frame's
    /// premultiplied RGBA8 bytes (rows top first, no padding) to `lend` for the call only: with `.lendsFrames`
    /// straight from where the renderer read it back, with no copy out; otherwise from a frame buffer.
    func drawFrames(count: Int, frame: (Int) throws -> RenderFrame,
                    lend: (Int, UnsafeRawBufferPointer) throws -> Void) throws
    /// Readies what drawing frames like `frames` needs (a GPU backend compiles the programs they use), so that
    /// the first frame of a run waits on no compiler; `planes` when they will be read back as YCbCr planes.
    /// Drawing works without it (what is missing is made when first needed).
    func prepare(frames: [RenderFrame], planes: YCbCrPlanes?) throws
}

/// What a renderer can do beyond drawing draw lists one at a time.
public struct RendererCapabilities: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Draws custom transitions in the gl-transitions interface (`prepareShader`, `RenderFrame.shader`).
    public static let customShaders = RendererCapabilities(rawValue: 1 << 0)
    /// Reads frame k back while it draws frame k + 1 in `drawFrames`.
    public static let pipelinedReadback = RendererCapabilities(rawValue: 1 << 1)
    /// Converts frames to YCbCr planes itself and reads back only the planes
    /// (`drawFrames(count:frame:planes:deliver:)`): 1.5 bytes a pixel at 4:2:0 instead of RGBA's 4.
    public static let ycbcrPlanes = RendererCapabilities(rawValue: 1 << 2)
    /// Lends each frame's bytes where it read them back (`drawFrames(count:frame:lend:)`): no copy out of its
    /// read-back buffer.
    public static let lendsFrames = RendererCapabilities(rawValue: 1 << 3)
    /// Draws on a software rasterizer that shares the CPU's cores (Mesa's llvmpipe), not on a GPU of its own.
    public static let softwareRasterizer = RendererCapabilities(rawValue: 1 << 4)
}

/// A renderer that draws draw lists by one of several paths giving the same pixels (GLES: `raster`, the
/// default, and `compute`), so that a calibration can time each and a job use the faster.
public protocol MultiPathRenderer: Renderer {
    /// The paths it can draw by here, the default first.
    var paths: [String] { get }
    /// The path it draws by now.
    var currentPath: String { get }
    /// Draws by `path` from now on; one not in `paths` throws.
    func use(path: String) throws
    /// Frames drawn by each path since the renderer was made or its statistics last reset (a path may hand a
    /// frame it cannot take to another, which counts it).
    var framesByPath: [String: Int] { get }
    /// Frames the path in use could not draw since then, by reason (each drawn by another path).
    var fallbacks: [String: Int] { get }
}

extension MultiPathRenderer {
    /// None counted.
    public var framesByPath: [String: Int] { [:] }
    /// None counted.
    public var fallbacks: [String: Int] { [:] }
}

/// A custom transition compiled by one renderer, with the value of each of its parameters.
public protocol PreparedShader: AnyObject, Sendable {
    var transition: ShaderTransition { get }
}

/// One frame for a renderer to draw.
public enum RenderFrame {
    /// A draw list (every built-in effect, holds, storyboard steps).
    case layers(DrawList)
    /// A custom transition at `progress` (after its timing curve) on a `width` x `height` frame over
    /// `background` (opaque, or transparent: the shader's colour as it returns it), sampling the loaded snapshots `[from, to]` stretched to the frame.
    case shader(any PreparedShader, progress: Double, width: Int, height: Int, background: Color)
    /// The mean of these frames (all of one size): motion blur's shutter samples, accumulated at 32 bits per
    /// channel and rounded once.
    indirect case average([RenderFrame])

    public var width: Int {
        switch self {
        case let .layers(list): return list.width
        case let .shader(_, _, width, _, _): return width
        case let .average(frames): return frames.first?.width ?? 0
        }
    }

    public var height: Int {
        switch self {
        case let .layers(list): return list.height
        case let .shader(_, _, _, height, _): return height
        case let .average(frames): return frames.first?.height ?? 0
        }
    }
}

extension Renderer {
    /// Nothing to ready.
    public func prepare(frames: [RenderFrame], planes: YCbCrPlanes?) throws {}
    public var capabilities: RendererCapabilities { [] }
    public var device: String { name }
    public var liveObjects: Int { 0 }

    public func prepareShader(_ transition: ShaderTransition, values: [String: ShaderValue]) throws -> any PreparedShader {
        throw unsupported(transition)
    }

    private func unsupported(_ transition: ShaderTransition) -> SegueError {
        SegueError(.unsupported(backend: name), "\(transition.name) is a custom shader, which the \(name) backend does not run (it needs GLES)")
    }

    public func draw(_ frame: RenderFrame, into target: inout Pixmap) throws {
        switch frame {
        case let .layers(list): try draw(list, into: &target)
        case let .shader(prepared, _, _, _, _): throw unsupported(prepared.transition)
        case let .average(frames): try drawAverage(frames, into: &target)
        }
    }

    /// Draws `frames` one by one and writes their mean into `target`, accumulated on the CPU at 32 bits per
    /// channel and rounded once (motion blur on any backend).
    public func drawAverage(_ frames: [RenderFrame], into target: inout Pixmap) throws {
        var sample = Pixmap(width: 0, height: 0)
        var sum = FrameAccumulator()
        sum.reset(width: frames.first?.width ?? 0, height: frames.first?.height ?? 0)
        for frame in frames {
            try draw(frame, into: &sample)
            sum.add(sample)
        }
        sum.average(into: &target)
    }

    public func drawFrames(count: Int, frame: (Int) throws -> RenderFrame, buffer: () -> Pixmap?,
                           deliver: (Int, Pixmap) throws -> Void) throws {
        for k in 0..<count {
            var target = buffer() ?? Pixmap(width: 0, height: 0)
            try draw(try frame(k), into: &target)
            try deliver(k, target)
        }
    }

    public func drawFrames(count: Int, frame: (Int) throws -> RenderFrame, planes: YCbCrPlanes,
                           deliver: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
        throw SegueError(.unsupported(backend: name), "the \(name) backend does not convert frames to YCbCr planes")
    }

    public func drawFrames(count: Int, frame: (Int) throws -> RenderFrame,
                           lend: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
        var spare: Pixmap?
        try drawFrames(count: count, frame: frame, buffer: { spare.take() }, deliver: { k, pixmap in
            try pixmap.pixels.withUnsafeBytes { try lend(k, $0) }
            spare = pixmap
        })
    }

    /// Draws `count` draw lists in order into new buffers (see `drawFrames(count:frame:buffer:deliver:)`).
    public func drawFrames(count: Int, list: (Int) throws -> DrawList, deliver: (Int, Pixmap) throws -> Void) throws {
        try drawFrames(count: count, frame: { .layers(try list($0)) }, buffer: { nil }, deliver: deliver)
    }

    /// Draws one frame into a new pixmap.
    public func render(_ list: DrawList) throws -> Pixmap {
        var frame = Pixmap(width: list.width, height: list.height)
        try draw(list, into: &frame)
        return frame
    }
}
