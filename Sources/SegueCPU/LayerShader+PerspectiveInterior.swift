import CSegueKernels
import SegueCore

// The interior of a perspective item, where coverage is exactly 1. Where the CPU has AVX2, a division a
// pixel, eight at once (the general function's texel positions exactly, and faster than sub-spans there).
// Elsewhere affine sub-spans: the texel position is computed exactly (one division) at every `subSpan`th
// pixel and at the row's last, and stepped linearly in 32.32 fixed point between, as a rotated affine row
// is, four bilinear samples a step.
extension LayerShader {
    /// The most a sub-span's straight line may stray from the perspective curve it stands for, in texels: two
    /// steps of the 8-bit bilinear weight. Against the per-pixel division (in single precision) on the
    /// benchmark's frames at 1280x720, this left under 0.1% of the pixels of a perspective effect a level
    /// apart and a handful two; 1/64 left more two apart, and 1/32 up to 5.
    static let subSpanError = 1.0 / 128

    /// The longest sub-span taken, in pixels: past 16 a division more or less no longer shows.
    static let longestSubSpan = 16

    /// Fully covered pixels of a perspective item: content, overlay and opacity, no coverage.
    func drawPerspectiveInterior(row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int) {
        if PixelMath.hasAVX2, texels != nil {
            drawPerspectivePixelsVector(row: row, y: y, from: x0, to: x1)
            return
        }
        let span = texels == nil ? 0 : subSpan(row: y, from: x0, to: x1)
        guard let texels, span >= 4 else {
            drawPerspectivePixels(row: row, y: y, from: x0, to: x1)
            return
        }
        let py = Double(y) + 0.5
        let rowU = Double(d) * py + Double(g), rowV = Double(e) * py + Double(h), rowQ = Double(f) * py + Double(i)
        let ox = Double(originX) - 0.5, oy = Double(originY) - 0.5, sx = Double(scaleX), sy = Double(scaleY)
        // The local point and the texel position at the centre of pixel x. Interior pixels have q > 0 and lie
        // inside the item, so every texel position is finite and within a texel of the texture: times 2^32,
        // far inside Int64.
        @inline(__always) func knot(_ x: Int) -> (u: Double, v: Double, tx: Double, ty: Double) {
            let px = Double(x) + 0.5
            let rq = 1 / (rowQ + Double(c) * px)
            let u = (rowU + Double(a) * px) * rq, v = (rowV + Double(b) * px) * rq
            return (u, v, ox + u * sx, oy + v * sy)
        }
        let one = 4_294_967_296.0
        let last = x1 &- 1
        var x = x0
        var start = knot(x0)
        while x < last {
            let n = min(span, last &- x)
            let end = knot(x &+ n)
            let perPixel = 1 / Double(n)
            let du = (end.u - start.u) * perPixel, dv = (end.v - start.v) * perPixel
            // The overlay's (u, v) at the centre X of a pixel of this sub-span is (u + du X, v + dv X).
            let centre = Double(x) + 0.5
            drawStepped(row: row, from: x, to: x &+ n, texels: texels,
                        fx: PixelMath.truncate(start.tx * one), fy: PixelMath.truncate(start.ty * one),
                        stepX: PixelMath.truncate((end.tx - start.tx) * perPixel * one),
                        stepY: PixelMath.truncate((end.ty - start.ty) * perPixel * one),
                        overlayRow: (Float(start.u - centre * du), Float(du), Float(start.v - centre * dv), Float(dv)))
            x &+= n
            start = end
        }
        // The last pixel, at its own exact position.
        drawStepped(row: row, from: last, to: x1, texels: texels,
                    fx: PixelMath.truncate(start.tx * one), fy: PixelMath.truncate(start.ty * one), stepX: 0, stepY: 0,
                    overlayRow: (Float(start.u), 0, Float(start.v), 0))
    }

    /// Pixels of sub-spans: the longest (a multiple of 4, at most `longestSubSpan`) over which a straight line
    /// strays from the texel positions by at most `subSpanError`, over row `y`'s interior `x0..<x1`; below 4
    /// (a strong perspective), every pixel takes its own division. Along the row the texel position is
    /// `T = s U / Q` with `U` and `Q` linear in the pixel centre X, so `T' = s K / Q^2` with `K = a Q - c U`
    /// the same all along, and `T'' = -2 c T' / Q`: largest where Q is, at one end. A line between points n
    /// pixels apart strays from the curve by at most `n^2 |T''| / 8`.
    private func subSpan(row y: Int, from x0: Int, to x1: Int) -> Int {
        let py = Double(y) + 0.5
        let u0 = Double(d) * py + Double(g), v0 = Double(e) * py + Double(h), q0 = Double(f) * py + Double(i)
        let dc = Double(c)
        let q = min(q0 + dc * (Double(x0) + 0.5), q0 + dc * (Double(x1) - 0.5))
        guard q > 0 else { return 0 }
        let ku = abs(Double(a) * q0 - dc * u0) * abs(Double(scaleX)), kv = abs(Double(b) * q0 - dc * v0) * abs(Double(scaleY))
        let curvature = 2 * abs(dc) * max(ku, kv) / (q * q * q)
        guard curvature > 0 else { return Self.longestSubSpan }
        let n = (8 * Self.subSpanError / curvature).squareRoot()
        guard n < Double(Self.longestSubSpan) else { return Self.longestSubSpan }
        return Int(n) & ~3
    }

    /// One division per pixel, eight or sixteen pixels a step, where the CPU has AVX2 (a division of eight
    /// lanes costs less than a sub-span's set-up): the per-pixel function's texel positions exactly, sampled
    /// in the vector kernels (`PixelMath.bilinearPerspective`; AVX-512 where `avx512`), then overlaid and
    /// drawn four at a time unless simply stored.
    func drawPerspectivePixelsVector(row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int,
                                     avx512: Bool = PixelMath.hasAVX512) {
        var line = perspectiveRow(y)
        // The kernel fetches the texels of the pixels up to x1 ahead of sampling them, past the `count` it
        // draws at a call.
        func sample(_ target: UnsafeMutablePointer<UInt32>, _ at: Int, _ count: Int) -> Int {
            PixelMath.bilinearPerspective(target, texels, width: textureWidth, height: textureHeight, row: &line, shade: nil,
                                          x0: at, count: count, ahead: x1 &- at &- count, avx512: avx512)
        }
        let x = storesInterior
            ? x0 &+ sample(row + x0, x0, x1 &- x0)
            : drawSampled(row: row, from: x0, to: x1, sample: sample) { px in
                // The overlay's local points, as `drawPerspectivePixels` works them out.
                let rq = 1 / (line.rowQ + px * c)
                return ((line.rowU + px * a) * rq, (line.rowV + px * b) * rq)
            }
        drawPerspectivePixels(row: row, y: y, from: x, to: x1)
    }

    /// Pixels `x0..<x1` of row `y` sampled and shaded (`line`, a black overlay at this row) in one pass of
    /// the vector kernels and stored, in blocks of eight or sixteen; returns the first column not drawn.
    func drawShadedPerspectivePixelsVector(row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int,
                                           shade line: SegueShadeRow, avx512: Bool = PixelMath.hasAVX512) -> Int {
        var perspective = perspectiveRow(y)
        return withUnsafePointer(to: line) { shade in
            x0 &+ PixelMath.bilinearPerspective(row + x0, texels, width: textureWidth, height: textureHeight, row: &perspective,
                                                shade: shade, x0: x0, count: x1 &- x0, ahead: 0, avx512: avx512)
        }
    }

    /// Row `y` in the terms of the AVX2 perspective kernel.
    private func perspectiveRow(_ y: Int) -> SeguePerspectiveRow {
        let py = Float(y) + 0.5
        return SeguePerspectiveRow(rowU: d * py + g, rowV: e * py + h, rowQ: f * py + i, a: a, b: b, c: c,
                                   originX: originX, originY: originY, scaleX: scaleX, scaleY: scaleY,
                                   lowX: lowX, lowY: lowY, highX: highX, highY: highY)
    }

    /// One division per pixel: colours, and rows whose perspective is too strong for sub-spans. Four pixels a
    /// step, lane by lane the arithmetic of `drawGeneral` in the same order, so the same positions.
    func drawPerspectivePixels(row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int) {
        let py = Float(y) + 0.5
        let rowU = d * py + g, rowV = e * py + h, rowQ = f * py + i
        var x = x0
        // x < x1 before each step, so x + 4 cannot overflow; x is a column of the frame, exact in Float.
        while x &+ 4 <= x1 {
            let px = SIMD4<Float>(0, 1, 2, 3) + Float(x) + 0.5
            let rq = 1 / (rowQ + px * c)
            let u = (rowU + px * a) * rq, v = (rowV + px * b) * rq
            let content = texels == nil ? SIMD4<UInt32>(repeating: color) : sample(u, v)
            if storesInterior {
                UnsafeMutableRawPointer(row + x).storeBytes(of: content, as: SIMD4<UInt32>.self)
            } else {
                finish(content, row: row, at: x, u: u, v: v)
            }
            x &+= 4
        }
        while x < x1 {
            let px = Float(x) + 0.5
            let rq = 1 / (rowQ + px * c)
            let u = (rowU + px * a) * rq, v = (rowV + px * b) * rq
            finish(texels == nil ? color : sample(u, v), row: row, at: x, u: u, v: v)
            x &+= 1
        }
    }
}
