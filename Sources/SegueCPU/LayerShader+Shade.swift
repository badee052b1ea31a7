import CSegueKernels

// A black overlay (page-flip's shadow) over opaque content, where the CPU has AVX2: the interior is drawn as
// if there were no overlay, by whichever path suits it, then shaded in place eight pixels a step; a
// perspective interior at full opacity is shaded as it is sampled, in one pass.
extension LayerShader {
    /// Interior pixels `x0..<x1` of row `y`: the content stored as sampled (`unshaded`), shaded, and stored
    /// where the item's opacity is full (the shaded content is still opaque), else drawn through a 64-pixel
    /// buffer and blended at the item's opacity. The same pixels as the overlay drawn pixel by pixel.
    func drawShadedInterior(row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int,
                            scratch: UnsafeMutablePointer<UInt32>, avx512: Bool = PixelMath.hasAVX512) {
        drawShadedInterior(row: row, y: y, from: x0, to: x1, plain: unshaded, scratch: scratch, avx512: avx512)
    }

    /// `drawShadedInterior` with `plain`, this shader's `unshaded`, made once for many rows.
    func drawShadedInterior(row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int, plain: LayerShader,
                            scratch: UnsafeMutablePointer<UInt32>, avx512: Bool = PixelMath.hasAVX512) {
        let line = shadeRow(y)
        if storesFinished {
            // A perspective interior is sampled and shaded in one pass, all but its last few pixels.
            let x = !affine && texels != nil ? plain.drawShadedPerspectivePixelsVector(row: row, y: y, from: x0, to: x1, shade: line, avx512: avx512)
                : x0
            plain.drawInterior(row: row, y: y, from: x, to: x1, scratch: scratch)
            shade(row, line, from: x, to: x1)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { samples in
            let buffer = samples.baseAddress!
            var x = x0
            while x < x1 {
                let n = min(64, x1 &- x)
                // Column x of the row lands on buffer[0].
                plain.drawInterior(row: buffer - x, y: y, from: x, to: x &+ n, scratch: scratch)
                shade(buffer - x, line, from: x, to: x &+ n)
                PixelMath.blendOpaqueRow(row + x, buffer, count: n, k: opacity255)
                x &+= n
            }
        }
    }

    /// The black overlay at row `y` in the terms of the AVX2 kernels.
    private func shadeRow(_ y: Int) -> SegueShadeRow {
        let py = Float(y) + 0.5
        // An affine item's rowQ is 1 and c 0: dividing by 1 leaves its local points as they are.
        return SegueShadeRow(rowU: d * py + g, rowV: e * py + h, rowQ: f * py + i, a: a, b: b, c: c,
                             gradientU: overlayGradient.0, gradientV: overlayGradient.1, gradientC: overlayGradient.2,
                             alphaStart: overlayStart255[3], alphaDelta: overlayDelta255[3])
    }

    /// The black overlay `line` drawn over pixels `x0..<x1` of `row` in place, as `overlay` draws it: the
    /// AVX2 kernel, then the last few pixels at the same local points.
    private func shade(_ row: UnsafeMutablePointer<UInt32>, _ line: SegueShadeRow, from x0: Int, to x1: Int) {
        var x = x0 &+ withUnsafePointer(to: line) { segue_shade_avx2(row + x0, $0, x0, x1 &- x0) }
        while x < x1 {
            let px = Float(x) + 0.5
            let q = 1 / (line.rowQ + px * c)
            row[x] = overlay(row[x], (line.rowU + px * a) * q, (line.rowV + px * b) * q)
            x &+= 1
        }
    }
}
