import SegueCore

// Rows that are copies: texels one to one onto pixels at a whole-texel offset.
extension LayerShader {
    /// One texel per pixel at a whole-texel offset: a copy, or a blend at the item's opacity.
    func drawBlit(_ blit: DrawItem.Blit, row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int) {
        guard x0 < x1, let texels else { return }
        // Row y + dy and columns from x0 + dx lie inside the texture (the blit's rectangle maps into it).
        let source = texels + ((y &+ blit.dy) &* textureWidth &+ (x0 &+ blit.dx))
        blendRow(row + x0, source, count: x1 &- x0)
    }

    /// `count` texels drawn over as many pixels at the item's opacity: a copy when the content is opaque and
    /// the opacity full, four pixels a step when the content alone is opaque.
    @inline(__always)
    func blendRow(_ target: UnsafeMutablePointer<UInt32>, _ source: UnsafePointer<UInt32>, count: Int) {
        let k = opacity255
        if isOpaqueContent && k == 255 {
            target.update(from: source, count: count)
        } else if isOpaqueContent {
            PixelMath.blendOpaqueRow(target, source, count: count, k: k)
        } else if k == 255 {
            for n in 0..<count { target[n] = PixelMath.over(source[n], target[n]) }
        } else {
            for n in 0..<count { target[n] = PixelMath.over(PixelMath.scale(source[n], k), target[n]) }
        }
    }
}
