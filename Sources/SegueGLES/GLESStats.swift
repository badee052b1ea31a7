/// Where a GLES renderer's time went, summed over the frames since the last reset (for the benchmark).
///
/// On llvmpipe the GPU is the CPU, so the split is by what the renderer waits on: `draw` is issuing a frame's
/// commands plus, in `draw(_:into:)`, waiting on its fence (the rasterisation); `readback` is `glReadPixels`
/// into memory, or in `drawFrames` waiting on a frame's fence, mapping its pack buffer and copying it out.
public struct GLESStats: Sendable, Equatable {
    public var frames = 0
    /// Seconds spent uploading snapshots (`load(snapshots:)`).
    public var uploadSeconds = 0.0
    public var drawSeconds = 0.0
    public var readbackSeconds = 0.0

    public init() {}

    /// Mean seconds per frame of drawing and of read back.
    public var drawPerFrame: Double { frames > 0 ? drawSeconds / Double(frames) : 0 }
    public var readbackPerFrame: Double { frames > 0 ? readbackSeconds / Double(frames) : 0 }
}
