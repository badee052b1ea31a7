import SegueCore

// Interior pixels whose texel positions step by a constant (rotated affine rows, perspective sub-spans):
// four bilinear samples a step, then the overlay, the opacity and source-over on the same four pixels, in
// vectors that compute what the scalar functions compute.
extension LayerShader {
    /// Interior pixels `x0..<x1` whose texel positions step by a constant: `(fx, fy)` at the first pixel, then
    /// `(stepX, stepY)` a pixel, in 32.32 fixed point, each clamped to the sub-rectangle. The overlay, if any,
    /// is at local `(u + du X, v + dv X)`, X the pixel centre. Rotated affine rows take it whole; perspective
    /// rows one sub-span at a time.
    @inline(__always)
    func drawStepped(row: UnsafeMutablePointer<UInt32>, from x0: Int, to x1: Int, texels: UnsafePointer<UInt32>,
                     fx start: Int64, fy startY: Int64, stepX: Int64, stepY: Int64,
                     overlayRow: (u: Float, du: Float, v: Float, dv: Float)) {
        let clamp = texelClamp
        // The positions are linear along the row: when both ends lie inside the sub-rectangle, all do, and the
        // loop below needs no clamp (the branch is the same every turn). The last position is within the row's
        // pixels of steps of at most a sub-rectangle's size: far inside Int64.
        let endX = start &+ stepX &* Int64(x1 &- x0 &- 1), endY = startY &+ stepY &* Int64(x1 &- x0 &- 1)
        let inside = min(start, endX) >= clamp.lowX && max(start, endX) <= clamp.highX
            && min(startY, endY) >= clamp.lowY && max(startY, endY) <= clamp.highY
        var fx = start, fy = startY
        var x = x0
        // x < x1 before each step, so x + 4 cannot overflow.
        while x &+ 4 <= x1 {
            var quad = BilinearQuad()
            for j in 0..<4 {
                quad.gather(j, texels, textureWidth, textureHeight,
                            inside ? fx : min(max(fx, clamp.lowX), clamp.highX),
                            inside ? fy : min(max(fy, clamp.lowY), clamp.highY))
                fx &+= stepX
                fy &+= stepY
            }
            if storesInterior {
                UnsafeMutableRawPointer(row + x).storeBytes(of: quad.pixels, as: SIMD4<UInt32>.self)
            } else {
                // x is a column of the frame, exact in Float.
                let px = SIMD4<Float>(0, 1, 2, 3) + Float(x) + 0.5
                finish(quad.pixels, row: row, at: x, u: overlayRow.u + px * overlayRow.du, v: overlayRow.v + px * overlayRow.dv)
            }
            x &+= 4
        }
        while x < x1 {
            let px = Float(x) + 0.5
            finish(Self.bilinear(texels, textureWidth, textureHeight,
                                 min(max(fx, clamp.lowX), clamp.highX), min(max(fy, clamp.lowY), clamp.highY)),
                   row: row, at: x, u: overlayRow.u + px * overlayRow.du, v: overlayRow.v + px * overlayRow.dv)
            fx &+= stepX
            fy &+= stepY
            x &+= 1
        }
    }

    /// Four pixels of `row` from `x` on, from their content: the overlay at local `(u, v)` (lane by lane),
    /// then drawn at the item's opacity (`put`), four at once.
    @inline(__always)
    func finish(_ content: SIMD4<UInt32>, row: UnsafeMutablePointer<UInt32>, at x: Int, u: SIMD4<Float>, v: SIMD4<Float>) {
        let content = hasOverlay ? overlay(content, u, v) : content
        Self.put(content, row + x, store: storesInterior, k: opacity255)
    }

    /// One pixel of `row` at `x` from its content: the overlay at local `(u, v)`, then `put` at the item's
    /// opacity.
    @inline(__always)
    func finish(_ content: UInt32, row: UnsafeMutablePointer<UInt32>, at x: Int, u: Float, v: Float) {
        let content = hasOverlay ? overlay(content, u, v) : content
        Self.put(content, row + x, store: storesInterior, k: opacity255)
    }

    /// `overlay` of four pixels at once, lane by lane the same arithmetic in the same order, so the same
    /// result: the gradient position, the overlay colour's channels rounded down from `+ 0.5` (by the
    /// 2^23 trick, as Swift's vector float-to-integer conversion is a call), then source-over.
    @inline(__always)
    func overlay(_ content: SIMD4<UInt32>, _ u: SIMD4<Float>, _ v: SIMD4<Float>) -> SIMD4<UInt32> {
        let position = u * overlayGradient.0 + v * overlayGradient.1 + overlayGradient.2
        // min(max(0, t), 1): 0 for a NaN, as the scalar `max(0, t)` gives.
        var t = SIMD4<Float>(repeating: 0).replacing(with: position, where: position .>= 0)
        t.replace(with: 1, where: t .> 1)
        let magic = SIMD4<Float>(repeating: 8_388_608)
        @inline(__always) func channel(_ c: Int) -> SIMD4<UInt32> {
            // start + delta t + 0.5 lies in 0...256 (see `overlay`): under 2^22, where adding 2^23 rounds to
            // a whole number and leaves it in the low bits.
            let z = overlayStart255[c] + overlayDelta255[c] * t + 0.5
            var whole = (z + magic) - magic
            whole.replace(with: whole - 1, where: whole .> z)
            return unsafeBitCast(whole + magic, to: SIMD4<UInt32>.self) & 0x7F_FFFF
        }
        let color = channel(0) | channel(1) &<< 8 | channel(2) &<< 16 | channel(3) &<< 24
        return PixelMath.over(color, content)
    }
}
