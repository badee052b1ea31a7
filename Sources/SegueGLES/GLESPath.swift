/// Which GLES path draws draw lists (custom transitions are always fragment shaders).
public enum GLESPath: String, Sendable, CaseIterable {
    /// One quad per item through `layer.vert` and `layer.frag`, blended by the raster units.
    case raster
    /// One dispatch per frame through `composite.comp` (GLES 3.1): every item of a pixel evaluated and blended
    /// in registers, the frame (or its YCbCr planes) written once, straight into the read-back buffer (pinned
    /// host memory where the context offers `GL_EXT_buffer_storage`): the dispatch's stores cross the bus.
    case compute
    /// The same dispatch writing a buffer in the GPU's own memory, then one `glCopyBufferSubData` into the
    /// read-back buffer: the copy engine moves the frame across the bus in one transfer. The same bytes as
    /// `compute`; which is faster depends on the device (a calibration times both).
    case computeStaged = "compute-staged"

    /// Whether the path draws with `composite.comp`.
    public var isCompute: Bool { self != .raster }
}
