import SegueCore

// The interior of an affine item, where coverage is exactly 1: a row copy, a two-pass separable bilinear
// when the texel row is constant along the pixel row, else texel positions stepped in 32.32 fixed point.
extension LayerShader {
    /// Fully covered pixels of the item: content, overlay and opacity, no coverage or mask, as its plan's
    /// interior draws them.
    func drawInterior(row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int,
                      scratch: UnsafeMutablePointer<UInt32>) {
        guard case let .rows(_, inner) = plan else { return }
        drawInterior(inner, row: row, y: y, from: x0, to: x1, scratch: scratch)
    }

    /// `drawInterior` by `inner`, the plan's interior.
    @inline(__always)
    func drawInterior(_ inner: Plan.Interior, row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int,
                      scratch: UnsafeMutablePointer<UInt32>) {
        switch inner {
        case .perspective:
            drawPerspectiveInterior(row: row, y: y, from: x0, to: x1)
        case let .copy(dx, dy, stepX):
            guard !hasOverlay else {
                drawAxisAlignedInterior(row: row, y: y, from: x0, to: x1, stepX: stepX, scratch: scratch)
                return
            }
            // Interior pixels show texels inside the texture: row y + dy, columns from x0 + dx.
            let source = texels.unsafelyUnwrapped + ((y &+ dy) &* textureWidth &+ (x0 &+ dx))
            blendRow(row + x0, source, count: x1 &- x0)
        case .color:
            let py = Float(y) + 0.5
            let rowU = d * py + g, rowV = e * py + h
            let k = opacity255
            for x in x0..<x1 {
                var content = color
                if hasOverlay {
                    let px = Float(x) + 0.5
                    content = overlay(content, rowU + px * a, rowV + px * b)
                }
                Self.put(content, row + x, store: storesInterior, k: k)
            }
        case let .axisAligned(stepX):
            drawAxisAlignedInterior(row: row, y: y, from: x0, to: x1, stepX: stepX, scratch: scratch)
        case let .stepped(stepX, stepY):
            let py = Float(y) + 0.5
            let start = texelStart(y: y, x0: x0)
            drawStepped(row: row, from: x0, to: x1, texels: texels.unsafelyUnwrapped, fx: start.fx, fy: start.fy,
                        stepX: stepX, stepY: stepY, overlayRow: (d * py + g, a, e * py + h, b))
        }
    }

    /// The texel position of pixel `x0` of row `y` of an affine item, in 32.32 fixed point, unclamped. Texel
    /// indices then step by a constant along the row: exact enough over 8K columns. Every value converted is
    /// a texel position (the first pixel's centre lies inside the item): times 2^32, far inside Int64.
    @inline(__always)
    private func texelStart(y: Int, x0: Int) -> (fx: Int64, fy: Int64) {
        let one = 4_294_967_296.0
        let startX = Double(x0) + 0.5, startY = Double(y) + 0.5
        let u0 = Double(a) * startX + Double(d) * startY + Double(g), v0 = Double(b) * startX + Double(e) * startY + Double(h)
        return (PixelMath.truncate((Double(originX) + u0 * Double(scaleX) - 0.5) * one),
                PixelMath.truncate((Double(originY) + v0 * Double(scaleY) - 0.5) * one))
    }

    /// The axis-aligned interior of pixels `x0..<x1` of row `y`, texel columns `stepX` apart a pixel.
    @inline(__always)
    private func drawAxisAlignedInterior(row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int, stepX: Int64,
                                         scratch: UnsafeMutablePointer<UInt32>) {
        let start = texelStart(y: y, x0: x0), clamp = texelClamp
        drawAxisAlignedInterior(row: row, texels: texels.unsafelyUnwrapped, scratch: scratch, from: x0, to: x1, fx: start.fx,
                                stepX: stepX, fy: min(max(start.fy, clamp.lowY), clamp.highY), lowX: clamp.lowX,
                                highX: clamp.highX, py: Float(y) + 0.5)
    }

    /// The interior of an affine row along which the texel row does not change (no rotation), in two passes
    /// as the bilinear filter is separable: the two texel rows are blended vertically once per texel column
    /// the row reads (into `scratch`; none when the vertical weight is 0), then each pixel blends two
    /// neighbouring columns of that. The same arithmetic and rounding as `bilinear`, in another order.
    private func drawAxisAlignedInterior(row: UnsafeMutablePointer<UInt32>, texels: UnsafePointer<UInt32>,
                                         scratch: UnsafeMutablePointer<UInt32>,
                                         from x0: Int, to x1: Int, fx start: Int64, stepX: Int64, fy: Int64,
                                         lowX: Int64, highX: Int64, py: Float) {
        let iy = Int(truncatingIfNeeded: fy >> 32)
        let wy = PixelMath.weight(fy)
        // fy is clamped to the sub-rectangle: iy is a row of the texture.
        let top = texels + iy &* textureWidth
        let bottom = iy &+ 1 < textureHeight ? top + textureWidth : top
        let end = start &+ Int64(x1 - x0 - 1) &* stepX
        let firstX = min(max(start, lowX), highX), lastX = min(max(end, lowX), highX)
        // Vertical pass: `columns[c]` is texel column `c + origin` blended between the two rows, for the
        // columns from the row's leftmost texel to one past its rightmost (its right neighbour).
        // `readable`: how many columns from the first may be read (the texture's rows to its end and its
        // padding texel; the columns blended and the scratch space's slack).
        let origin: Int, columns: UnsafePointer<UInt32>, readable: Int
        if wy == 0 {
            origin = 0
            columns = top
            readable = (textureHeight &- iy) &* textureWidth &+ 1
        } else {
            origin = Int(truncatingIfNeeded: min(firstX, lastX) >> 32)
            let through = min(Int(truncatingIfNeeded: max(firstX, lastX) >> 32) + 1, textureWidth - 1)
            PixelMath.lerpRows(scratch, top + origin, bottom + origin, count: through - origin + 1, w: wy)
            columns = UnsafePointer(scratch)
            readable = through - origin + 1 + Self.scratchSlack
        }
        let shift = Int64(origin) << 32
        if storesInterior, let run = unitStepRun(first: firstX, last: lastX, unclamped: (start, end), count: x1 - x0) {
            PixelMath.lerpRows(row + x0, columns + (run.column - origin), columns + (run.column - origin + 1),
                               count: x1 - x0, w: run.weight)
            return
        }
        drawColumns(row: row, columns: columns, readable: readable, from: x0, to: x1, fx: start &- shift, stepX: stepX,
                    lowX: lowX &- shift, highX: highX &- shift, py: py)
    }

    /// When a row's pixels step exactly one texel column each with one horizontal weight (the texels at
    /// their own size, at a fractional offset), its first column and that weight. Checked at both ends:
    /// the offset from a whole-texel step changes monotonically along the row, so equal ends mean all equal.
    @inline(__always)
    private func unitStepRun(first: Int64, last: Int64, unclamped: (Int64, Int64), count: Int) -> (column: Int, weight: UInt32)? {
        guard first == unclamped.0, last == unclamped.1 else { return nil }
        let c0 = Int(truncatingIfNeeded: first >> 32), c1 = Int(truncatingIfNeeded: last >> 32)
        let w0 = PixelMath.weight(first)
        let w1 = PixelMath.weight(last)
        guard c1 - c0 == count - 1, w0 == w1 else { return nil }
        return (c0, w0)
    }

    /// The horizontal pass: each pixel blends the two columns around its texel position (32.32 fixed point,
    /// clamped to the sub-rectangle, in `columns`' own indices).
    private func drawColumns(row: UnsafeMutablePointer<UInt32>, columns: UnsafePointer<UInt32>, readable: Int,
                             from x0: Int, to x1: Int, fx start: Int64, stepX: Int64, lowX: Int64, highX: Int64,
                             py: Float) {
        let k = opacity255, store = storesInterior
        var fx = start
        var x = x0
        if !hasOverlay && (store || isOpaqueContent) && PixelMath.hasAVX2 && stepX > 0 {
            // The pixels whose positions need no clamping, j0..<j1 from x0, take the vector kernels; those
            // before and after them take the loops below.
            let j0 = start >= lowX ? 0 : Int((lowX &- start &+ stepX &- 1) / stepX)
            let j1 = start > highX ? 0 : min(x1 &- x0, Int((highX &- start) / stepX) &+ 1)
            if j1 &- j0 >= 8 {
                drawColumns(row: row, columns: columns, readable: 0, from: x0, to: x0 &+ j0, fx: start, stepX: stepX,
                            lowX: lowX, highX: highX, py: py)
                func sample(_ target: UnsafeMutablePointer<UInt32>, _ at: Int, _ count: Int) -> Int {
                    PixelMath.lerpColumnsVector(target, columns, readable: readable, fx: start &+ Int64(at &- x0) &* stepX,
                                                step: stepX, count: count)
                }
                // Opaque content at an opacity (not stored): drawn through a buffer by the AVX2 blend.
                x = store
                    ? x0 &+ j0 &+ sample(row + (x0 &+ j0), x0 &+ j0, j1 &- j0)
                    : drawSampled(row: row, from: x0 &+ j0, to: x0 &+ j1, sample: sample) { px in
                        (d * py + g + px * a, e * py + h + px * b)
                    }
                fx = start &+ Int64(x &- x0) &* stepX
            }
        }
        if store && !hasOverlay {
            // Four pixels a step: their columns and weights gathered into vectors, blended at once.
            // x < x1 before each step, so x + 4 cannot overflow; ix is a column of the clamped sub-rectangle,
            // far from Int.max.
            while x &+ 4 <= x1 {
                var p = SIMD4<UInt32>(), q = SIMD4<UInt32>(), w = SIMD4<UInt32>()
                for j in 0..<4 {
                    let cx = min(max(fx, lowX), highX)
                    fx &+= stepX
                    let ix = Int(truncatingIfNeeded: cx >> 32)
                    p[j] = columns[ix]
                    q[j] = columns[ix &+ 1]
                    w[j] = PixelMath.weight(cx)
                }
                UnsafeMutableRawPointer(row + x).storeBytes(of: PixelMath.lerp(p, q, w), as: SIMD4<UInt32>.self)
                x &+= 4
            }
        }
        while x < x1 {
            defer { x &+= 1 }
            let cx = min(max(fx, lowX), highX)
            fx &+= stepX
            let ix = Int(truncatingIfNeeded: cx >> 32)
            let wx = PixelMath.weight(cx)
            // With wx = 0 the right column is read but weighs nothing (see `Texture`'s padding).
            var content = PixelMath.lerp(columns[ix], columns[ix &+ 1], wx)
            if hasOverlay {
                let px = Float(x) + 0.5
                content = overlay(content, d * py + g + px * a, e * py + h + px * b)
            }
            Self.put(content, row + x, store: store, k: k)
        }
    }

    /// Bilinear sample at 32.32 fixed-point texel indices already clamped to the sub-rectangle.
    @inline(__always)
    static func bilinear(_ texels: UnsafePointer<UInt32>, _ width: Int, _ height: Int,
                         _ fx: Int64, _ fy: Int64) -> UInt32 {
        let ix = Int(truncatingIfNeeded: fx >> 32), iy = Int(truncatingIfNeeded: fy >> 32)
        let wx = PixelMath.weight(fx)
        let wy = PixelMath.weight(fy)
        // Clamped to the sub-rectangle: iy is a row of the texture, so iy * width is within its texel count.
        let top = texels + iy &* width
        let bottom = iy &+ 1 < height ? top + width : top
        if wx == 0 {
            return wy == 0 ? top[ix] : PixelMath.lerp(top[ix], bottom[ix], wy)
        }
        // wx > 0 means ix + 1 is inside the sub-rectangle: both columns interpolate at once in 16-bit lanes.
        return PixelMath.bilinear(top + ix, bottom + ix, wx, wy)
    }
}
