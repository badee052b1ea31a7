/// Which GLES path draws draw lists (custom transitions are always fragment shaders).
public enum GLESPath: String, Sendable, CaseIterable {
    /// One quad per item through `layer.vert` and `layer.frag`, blended by the raster units.
    case raster
    /// One dispatch per frame through `composite.comp` (GLES 3.1): every item of a pixel evaluated and blended
    /// in registers, the frame (or its YCbCr planes) written once into the buffer that is read back.
    case compute
}
