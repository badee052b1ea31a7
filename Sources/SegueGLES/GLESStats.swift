/// Where a GLES renderer's time went, and which path drew its frames, summed over the frames since the last
/// reset (for the benchmark, doctor and the tests that mean one path).
///
/// On llvmpipe the GPU is the CPU, so the split is by what the renderer waits on: `draw` is issuing a frame's
/// commands plus, in `draw(_:into:)`, waiting on its fence (the rasterisation); `readback` is `glReadPixels`
/// into memory, or in `drawFrames` waiting on a frame's fence, mapping its pack buffer and copying it out.
/// Where the context has `GL_EXT_disjoint_timer_query`, `gpuDrawSeconds` and `gpuTransferSeconds` are the
/// GPU's own clock for the frames `drawFrames` pipelined.
public struct GLESStats: Sendable, Equatable {
    public var frames = 0
    /// Seconds spent uploading snapshots (`load(snapshots:)`, `update(snapshot:with:)`): issuing the upload;
    /// the GPU's copy overlaps the first frame.
    public var uploadSeconds = 0.0
    public var drawSeconds = 0.0
    public var readbackSeconds = 0.0
    /// Frames drawn by each path: `raster`, `compute`, `compute-staged` (`GLESPath`), `transition` (a custom
    /// transition's fragment shader) and `uploaded` (a frame drawn on the CPU, uploaded for its planes).
    public var pathFrames: [String: Int] = [:]
    /// Frames the path in use could not draw, by reason; each was drawn by the raster path (and counted there).
    public var fallbacks: [String: Int] = [:]
    /// Programs compiled (layer variants and compute programs), and the seconds `prepare` spent compiling.
    public var programsCompiled = 0
    /// Of those, the ones linked from the driver's binary kept on disk by an earlier process (not compiled).
    public var programsLoaded = 0
    public var compileSeconds = 0.0
    /// Snapshots `load(snapshots:)` found already on the GPU (the same pixels), and did not upload again.
    public var snapshotsKept = 0
    /// Bytes written into the read-back buffers for the CPU (the frames, or their planes).
    public var transferBytes = 0
    /// Frames timed by the GPU's clock, and the GPU's seconds for them: drawing (the dispatch, which on the
    /// `compute` path includes its stores across the bus; the raster path's quads), and moving them into the
    /// read-back buffer (`compute-staged`'s copy; the raster path's `glReadPixels` into a pack buffer).
    public var gpuTimedFrames = 0
    public var gpuDrawSeconds = 0.0
    public var gpuTransferSeconds = 0.0

    public init() {}

    /// Mean seconds per frame of drawing and of read back.
    public var drawPerFrame: Double { frames > 0 ? drawSeconds / Double(frames) : 0 }
    public var readbackPerFrame: Double { frames > 0 ? readbackSeconds / Double(frames) : 0 }

    /// Frames drawn by `path` (`raster`, `compute`, `compute-staged`).
    public func frames(by path: GLESPath) -> Int { pathFrames[path.rawValue] ?? 0 }

    /// `compute 12, raster 2 (compute fell back: 2 over 1024 items)`: for messages and reports.
    public var pathSummary: String {
        let drawn = pathFrames.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \($0.value)" }
        let fell = fallbacks.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        return (drawn.isEmpty ? "no frames" : drawn.joined(separator: ", "))
            + (fell.isEmpty ? "" : " (fell back to raster: \(fell.joined(separator: ", ")))")
    }
}
