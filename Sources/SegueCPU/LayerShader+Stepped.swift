import SegueCore

// Interior pixels whose texel positions step by a constant (rotated affine rows, perspective sub-spans):
// eight bilinear samples a step in the AVX2 kernel where no position needs clamping, else four in Swift,
// then the overlay, the opacity and source-over, in vectors that compute what the scalar functions compute.
extension LayerShader {
    /// Interior pixels `x0..<x1` whose texel positions step by a constant: `(fx, fy)` at the first pixel, then
    /// `(stepX, stepY)` a pixel, in 32.32 fixed point, each clamped to the sub-rectangle. The overlay, if any,
    /// is at local `(u + du X, v + dv X)`, X the pixel centre. Rotated affine rows take it whole; perspective
    /// rows one sub-span at a time.
    @inline(__always)
    func drawStepped(row: UnsafeMutablePointer<UInt32>, from x0: Int, to x1: Int, texels: UnsafePointer<UInt32>,
                     fx start: Int64, fy startY: Int64, stepX: Int64, stepY: Int64,
                     overlayRow: (u: Float, du: Float, v: Float, dv: Float)) {
        guard PixelMath.hasAVX2, x1 &- x0 >= 8 else {
            drawSteppedClamped(row: row, from: x0, to: x1, texels: texels, fx: start, fy: startY, stepX: stepX, stepY: stepY,
                               overlayRow: overlayRow)
            return
        }
        // The pixels whose positions need no clamping take the AVX2 kernel; those before and after them, the
        // loop. x1 - x0 pixels of steps of at most a sub-rectangle's size: far inside Int64.
        let clamp = texelClamp
        let count = x1 &- x0
        let endX = start &+ stepX &* Int64(count &- 1), endY = startY &+ stepY &* Int64(count &- 1)
        let j0: Int, j1: Int
        if min(start, endX) >= clamp.lowX && max(start, endX) <= clamp.highX
            && min(startY, endY) >= clamp.lowY && max(startY, endY) <= clamp.highY {
            // Both ends inside, so all (most sub-spans): no division.
            (j0, j1) = (0, count)
        } else {
            let along = Self.unclampedRun(start, stepX, clamp.lowX, clamp.highX, count: count)
            let across = Self.unclampedRun(startY, stepY, clamp.lowY, clamp.highY, count: count)
            (j0, j1) = (max(along.0, across.0), min(along.1, across.1))
        }
        guard j1 &- j0 >= 8 else {
            drawSteppedClamped(row: row, from: x0, to: x1, texels: texels, fx: start, fy: startY, stepX: stepX, stepY: stepY,
                               overlayRow: overlayRow)
            return
        }
        drawSteppedClamped(row: row, from: x0, to: x0 &+ j0, texels: texels, fx: start, fy: startY, stepX: stepX, stepY: stepY,
                           overlayRow: overlayRow)
        // The kernel's positions for pixels from column `at` on: j whole steps from the first.
        func sample(_ target: UnsafeMutablePointer<UInt32>, _ at: Int, _ count: Int) -> Int {
            let j = Int64(at &- x0)
            return PixelMath.bilinearSteppedAVX2(target, texels, width: textureWidth, height: textureHeight,
                                                 fx: start &+ j &* stepX, fy: startY &+ j &* stepY, stepX: stepX, stepY: stepY,
                                                 count: count)
        }
        let x = storesInterior
            ? x0 &+ j0 &+ sample(row + (x0 &+ j0), x0 &+ j0, j1 &- j0)
            : drawSampled(row: row, from: x0 &+ j0, to: x0 &+ j1, sample: sample) { px in
                (overlayRow.u + px * overlayRow.du, overlayRow.v + px * overlayRow.dv)
            }
        let j = Int64(x &- x0)
        let fx = start &+ j &* stepX, fy = startY &+ j &* stepY
        drawSteppedClamped(row: row, from: x, to: x1, texels: texels, fx: fx, fy: fy, stepX: stepX, stepY: stepY,
                           overlayRow: overlayRow)
    }

    /// The pixels `j` in `0..<count` (a run from 0) whose positions `start + j step` lie in `low...high`: a
    /// run, as the positions are linear. Their values stay far inside Int64 (see `drawStepped`).
    @inline(__always)
    static func unclampedRun(_ start: Int64, _ step: Int64, _ low: Int64, _ high: Int64, count: Int) -> (Int, Int) {
        if step == 0 { return start >= low && start <= high ? (0, count) : (0, 0) }
        // Where the positions enter and leave low...high, in steps, rounded inwards.
        let (enter, leave) = step > 0 ? (low &- start, high &- start) : (start &- high, start &- low)
        let size = step > 0 ? step : 0 &- step
        guard leave >= 0 else { return (0, 0) }
        let first = enter <= 0 ? 0 : (enter &+ size &- 1) / size
        let end = leave / size &+ 1
        return (Int(min(first, Int64(count))), Int(min(end, Int64(count))))
    }

    /// `drawStepped` with every position clamped to the sub-rectangle: four bilinear samples a step, each
    /// gathered in Swift.
    @inline(__always)
    private func drawSteppedClamped(row: UnsafeMutablePointer<UInt32>, from x0: Int, to x1: Int, texels: UnsafePointer<UInt32>,
                                    fx start: Int64, fy startY: Int64, stepX: Int64, stepY: Int64,
                                    overlayRow: (u: Float, du: Float, v: Float, dv: Float)) {
        if x0 >= x1 { return }
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

    /// Interior pixels `x..<end` that are not stored as sampled, drawn through a 64-pixel buffer: `sample`
    /// fills it with up to that many pixels from a column on and says how many (an AVX2 kernel: whole blocks
    /// of eight; none stops here). Opaque content without an overlay then takes the AVX2 opaque blend at the
    /// item's opacity, anything else `finish` four pixels at a time, at the local points `local` gives for
    /// their centres. Returns the first column not drawn.
    @inline(__always)
    func drawSampled(row: UnsafeMutablePointer<UInt32>, from x: Int, to end: Int,
                     sample: (UnsafeMutablePointer<UInt32>, Int, Int) -> Int,
                     local: (SIMD4<Float>) -> (u: SIMD4<Float>, v: SIMD4<Float>)) -> Int {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { samples in
            let buffer = samples.baseAddress!
            var x = x
            while end &- x >= 8 {
                let done = sample(buffer, x, min(64, end &- x))
                if done == 0 { break }
                if !hasOverlay && isOpaqueContent {
                    PixelMath.blendOpaqueRow(row + x, buffer, count: done, k: opacity255)
                } else {
                    var k = 0
                    while k < done {
                        // x + k is a column of the frame, exact in Float.
                        let point = local(SIMD4<Float>(0, 1, 2, 3) + Float(x &+ k) + 0.5)
                        finish(UnsafeRawPointer(buffer + k).loadUnaligned(as: SIMD4<UInt32>.self), row: row, at: x &+ k,
                               u: point.u, v: point.v)
                        k &+= 4
                    }
                }
                x &+= done
            }
            return x
        }
    }

    /// Four pixels of `row` from `x` on, from their content: the overlay at local `(u, v)` (lane by lane),
    /// then drawn at the item's opacity (`put`, stored where that leaves them opaque), four at once.
    @inline(__always)
    func finish(_ content: SIMD4<UInt32>, row: UnsafeMutablePointer<UInt32>, at x: Int, u: SIMD4<Float>, v: SIMD4<Float>) {
        let content = hasOverlay ? overlay(content, u, v) : content
        Self.put(content, row + x, store: storesFinished, k: opacity255)
    }

    /// One pixel of `row` at `x` from its content: the overlay at local `(u, v)`, then `put` at the item's
    /// opacity.
    @inline(__always)
    func finish(_ content: UInt32, row: UnsafeMutablePointer<UInt32>, at x: Int, u: Float, v: Float) {
        let content = hasOverlay ? overlay(content, u, v) : content
        Self.put(content, row + x, store: storesFinished, k: opacity255)
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
        // A black overlay's colour channels come out 0 (0.5 rounded down): only its alpha is worked out.
        let color = overlayIsBlack ? channel(3) &<< 24 : channel(0) | channel(1) &<< 8 | channel(2) &<< 16 | channel(3) &<< 24
        return PixelMath.over(color, content)
    }
}
