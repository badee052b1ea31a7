/// Four bilinear samples at once: the 2x2 texels around each of four 32.32 fixed-point texel positions and
/// their weights gathered lane by lane into vectors, then blended rows first and columns second, rounded
/// as `PixelMath.lerp` rounds. Each lane equals `LayerShader.bilinear` at the same position, bit for bit.
struct BilinearQuad {
    var topLeft = SIMD4<UInt32>(), topRight = SIMD4<UInt32>()
    var bottomLeft = SIMD4<UInt32>(), bottomRight = SIMD4<UInt32>()
    var wx = SIMD4<UInt32>(), wy = SIMD4<UInt32>()

    /// Lane `j`: the texels around `(fx, fy)`, a position already clamped to a sub-rectangle of the texture
    /// at `texels`, `width` by `height`.
    @inline(__always)
    mutating func gather(_ j: Int, _ texels: UnsafePointer<UInt32>, _ width: Int, _ height: Int, _ fx: Int64, _ fy: Int64) {
        let ix = Int(truncatingIfNeeded: fx >> 32), iy = Int(truncatingIfNeeded: fy >> 32)
        // iy is a row of the texture, so iy * width is within its texel count. The right column is read even
        // where it weighs nothing (wx = 0): at the last texel that is the texture's padding (see `Texture`).
        let top = texels + iy &* width
        let bottom = iy &+ 1 < height ? top + width : top
        topLeft[j] = top[ix]
        topRight[j] = top[ix &+ 1]
        bottomLeft[j] = bottom[ix]
        bottomRight[j] = bottom[ix &+ 1]
        wx[j] = PixelMath.weight(fx)
        wy[j] = PixelMath.weight(fy)
    }

    /// The four samples. With a weight of 0 a lerp gives its first pixel exactly, as `bilinear`'s shortcuts do.
    @inline(__always)
    var pixels: SIMD4<UInt32> {
        PixelMath.lerp(PixelMath.lerp(topLeft, bottomLeft, wy), PixelMath.lerp(topRight, bottomRight, wy), wx)
    }
}
