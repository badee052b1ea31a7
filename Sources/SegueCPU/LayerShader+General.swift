import Foundation
import SegueCore

// The general per-pixel function, the reference every shortcut must match: coverage of the edges and the
// mask, then content, overlay and opacity. Its sampling and overlay serve the interiors too.
extension LayerShader {
    func drawGeneral(row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int) {
        let py = Float(y) + 0.5
        let rowU = d * py + g, rowV = e * py + h, rowQ = f * py + i
        let plainCopy = isOpaque && !hasOverlay
        for x in x0..<x1 {
            let px = Float(x) + 0.5
            var u = rowU + px * a, v = rowV + px * b
            // Pixel gradients of u and v (constant when affine).
            var dudx = a, dudy = d, dvdx = b, dvdy = e
            var coverage: Float
            if affine {
                let cu = min(u - minU, maxU - u) * inverseGradU + 0.5
                let cv = min(v - minV, maxV - v) * inverseGradV + 0.5
                if cu <= 0 || cv <= 0 { continue }
                coverage = min(cu, 1) * min(cv, 1)
            } else {
                let q = rowQ + px * c
                if q <= 0 { continue }
                let rq = 1 / q
                u *= rq; v *= rq
                dudx = (a - u * c) * rq; dudy = (d - u * f) * rq
                dvdx = (b - v * c) * rq; dvdy = (e - v * f) * rq
                let cu = min(u - minU, maxU - u) / (dudx * dudx + dudy * dudy).squareRoot() + 0.5
                let cv = min(v - minV, maxV - v) / (dvdx * dvdx + dvdy * dvdy).squareRoot() + 0.5
                if cu <= 0 || cv <= 0 { continue }
                coverage = min(cu, 1) * min(cv, 1)
            }

            switch mask {
            case .none:
                break
            case let .circle(cx, cy, r):
                let dx = u - cx, dy = v - cy
                let d2 = dx * dx + dy * dy
                if affine {
                    let outer = r + maskSlack
                    if d2 >= outer * outer { continue }
                    let inner = r - maskSlack
                    if inner > 0 && d2 <= inner * inner { break }
                }
                let distance = d2.squareRoot()
                let nx = distance > 0 ? dx / distance : 1, ny = distance > 0 ? dy / distance : 0
                coverage *= Self.maskCoverage(r - distance, nx, ny, dudx, dudy, dvdx, dvdy)
            case let .roundedRect(cx, cy, hx, hy, r):
                let ox = abs(u - cx) - (hx - r), oy = abs(v - cy) - (hy - r)
                let outside = (max(ox, 0) * max(ox, 0) + max(oy, 0) * max(oy, 0)).squareRoot()
                let signed = -(outside + min(max(ox, oy), 0) - r)
                if affine {
                    if signed <= -maskSlack { continue }
                    if signed >= maskSlack { break }
                }
                var nx: Float = 0, ny: Float = 0
                if ox > 0 && oy > 0 {
                    nx = (u < cx ? -ox : ox) / outside; ny = (v < cy ? -oy : oy) / outside
                } else if ox > oy {
                    nx = u < cx ? -1 : 1
                } else {
                    ny = v < cy ? -1 : 1
                }
                coverage *= Self.maskCoverage(signed, nx, ny, dudx, dudy, dvdx, dvdy)
            case let .sector(cx, cy, sx, sy, ex, ey, reflex):
                let px = u - cx, py = v - cy
                if affine {
                    // Beyond a ray's line by the slack, outside the sector (within its half-plane, or above a
                    // half turn within both) by at least that: no coverage, and no square root to find it.
                    let c0 = sx * py - sy * px, c1 = px * ey - py * ex
                    if (reflex ? max(c0, c1) : min(c0, c1)) <= -maskSlack { continue }
                }
                let (signed, nx, ny) = Self.sectorDistance(px, py, sx, sy, ex, ey, reflex)
                if affine {
                    if signed <= -maskSlack { continue }
                    if signed >= maskSlack { break }
                }
                coverage *= Self.maskCoverage(signed, nx, ny, dudx, dudy, dvdx, dvdy)
            case let .continuousRect(cx, cy, hx, hy, r):
                let (signed, nx, ny) = Self.continuousDistance(u - cx, v - cy, hx, hy, r)
                if affine {
                    if signed <= -maskSlack { continue }
                    if signed >= maskSlack { break }
                }
                coverage *= Self.maskCoverage(signed, nx, ny, dudx, dudy, dvdx, dvdy)
            case let .blurred(shape):
                coverage *= shape.coverage(u, v)
            }
            if coverage <= 0 { continue }

            var content = texels == nil ? color : sample(u, v)
            if hasOverlay { content = overlay(content, u, v) }
            // 0 < coverage < 1 and 0 < opacity <= 1: the value converted is in 0.5...255.5.
            let k = coverage >= 1 ? opacity255 : PixelMath.truncateToUInt32(coverage * opacity * 255 + 0.5)
            if k > 0 { Self.put(content, row + x, store: k == 255 && plainCopy, k: k) }
        }
    }

    /// `drawGeneral` for a blurred rectangle on an axis-aligned affine item (`Plan.Edges.blurredRect`): the same
    /// per-pixel function, bit for bit, with the blur's factor along `u` read from `columns` (one per column of
    /// the bounds, from `bounds.x0`) and the one along `v` worked out once for the row.
    func drawBlurredRect(row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int, columns: UnsafePointer<Float>) {
        guard case let .blurred(shape) = mask, x0 < x1 else { return }
        let py = Float(y) + 0.5
        // As `drawGeneral` has them: `u = (d py + g) + px a`, and `v = (e py + h) + px b`, where `px b` is 0.
        let rowU = d * py + g, v = e * py + h
        let cv = min(v - minV, maxV - v) * inverseGradV + 0.5
        if cv <= 0 { return }
        let dv = v - shape.cy
        let rowFactor = BlurredShape.erf((dv + shape.hy) * shape.k) - BlurredShape.erf((dv - shape.hy) * shape.k)
        if rowFactor <= 0 { return }
        let edgeV = min(cv, 1)
        let plainCopy = isOpaque && !hasOverlay
        // Four pixels a step, lane by lane the scalar loop's arithmetic: a lane with no coverage takes k = 0,
        // which leaves its pixel as it is (`scale` by 0 is 0, `over` of 0 is the pixel), and k = 255 scales
        // the colour to itself, as the scalar loop's unscaled colour. A masked item is never stored whole.
        var x = x0
        if !plainCopy {
            let colour = SIMD4<UInt32>(repeating: color)
            let lanes = SIMD4<Float>(0.5, 1.5, 2.5, 3.5)
            while x &+ 4 <= x1 {
                let u = rowU + (Float(x) + lanes) * a
                let cu = pointwiseMin(u - minU, maxU - u) * inverseGradU + 0.5
                let base = x &- bounds.x0
                let factors = SIMD4<Float>(columns[base], columns[base &+ 1], columns[base &+ 2], columns[base &+ 3])
                let coverage = pointwiseMin(cu, SIMD4(repeating: 1)) * edgeV * (factors * rowFactor)
                var k = SIMD4<UInt32>(repeating: 0)
                for j in 0..<4 where cu[j] > 0 && coverage[j] > 0 {
                    k[j] = coverage[j] >= 1 ? opacity255 : PixelMath.truncateToUInt32(coverage[j] * opacity * 255 + 0.5)
                }
                if k != .zero {
                    let target = UnsafeMutableRawPointer(row + x)
                    target.storeBytes(of: PixelMath.over(PixelMath.scale(colour, k), target.loadUnaligned(as: SIMD4<UInt32>.self)),
                                      as: SIMD4<UInt32>.self)
                }
                x &+= 4
            }
        }
        for x in x..<x1 {
            let px = Float(x) + 0.5
            let u = rowU + px * a
            let cu = min(u - minU, maxU - u) * inverseGradU + 0.5
            if cu <= 0 { continue }
            var coverage = min(cu, 1) * edgeV
            coverage *= columns[x &- bounds.x0] * rowFactor
            if coverage <= 0 { continue }
            let k = coverage >= 1 ? opacity255 : PixelMath.truncateToUInt32(coverage * opacity * 255 + 0.5)
            if k > 0 { Self.put(color, row + x, store: k == 255 && plainCopy, k: k) }
        }
    }

    /// `clamp(0.5 + s_px, 0, 1)`: `s` is the signed distance in local points, `n` its local gradient.
    @inline(__always)
    private static func maskCoverage(_ s: Float, _ nx: Float, _ ny: Float,
                                     _ dudx: Float, _ dudy: Float, _ dvdx: Float, _ dvdy: Float) -> Float {
        let gx = nx * dudx + ny * dvdx, gy = nx * dudy + ny * dvdy
        let length = (gx * gx + gy * gy).squareRoot()
        let px = length > 0 ? s / length : (s > 0 ? 1 : -1)
        return min(max(px + 0.5, 0), 1)
    }

    /// The exponent of a continuous corner's superellipse (`Mask.continuousExponent`).
    static let continuousExponent = Float(Mask.continuousExponent)

    /// A continuous rectangle's signed distance at `(du, dv)` from its centre, positive inside, and the unit
    /// direction `n` it changes along: a rounded rectangle's, but in the corners (both `q` above 0) the
    /// first-order distance to the superellipse `|qx|^P + |qy|^P = r^P`. `draw-item.glsl`'s `MASK_CONTINUOUS_RECT` computes the same.
    @inline(__always)
    static func continuousDistance(_ du: Float, _ dv: Float, _ hx: Float, _ hy: Float, _ r: Float) -> (Float, Float, Float) {
        let ox = abs(du) - (hx - r), oy = abs(dv) - (hy - r)
        if ox > 0 && oy > 0 {
            let a = pow(ox, continuousExponent), b = pow(oy, continuousExponent)
            let m = pow(a + b, 1 / continuousExponent)
            let gx = a / ox, gy = b / oy
            let g = (gx * gx + gy * gy).squareRoot()
            return (-(m - r) * (a + b) / (m * g), (du < 0 ? -gx : gx) / g, (dv < 0 ? -gy : gy) / g)
        }
        let signed = -(max(ox, 0) + max(oy, 0) + min(max(ox, oy), 0) - r)  // one of ox, oy at most is above 0
        return ox > oy ? (signed, du < 0 ? -1 : 1, 0) : (signed, 0, dv < 0 ? -1 : 1)
    }

    /// A sector's signed distance at `p` (local, from the centre), positive inside, and the unit direction
    /// `n` it changes along: the nearer of the two rays, each of which is its line where `p` lies ahead of the
    /// centre along it, else the centre itself. `draw-item.glsl`'s `MASK_SECTOR` computes the same, in the same order.
    @inline(__always)
    static func sectorDistance(_ px: Float, _ py: Float, _ sx: Float, _ sy: Float, _ ex: Float, _ ey: Float,
                               _ reflex: Bool) -> (Float, Float, Float) {
        let c0 = sx * py - sy * px  // cross(d0, p): > 0 past the first ray
        let c1 = px * ey - py * ex  // cross(p, d1): > 0 short of the last ray
        let inside = reflex ? (c0 >= 0 || c1 >= 0) : (c0 >= 0 && c1 >= 0)
        let length = (px * px + py * py).squareRoot()
        let nc: (Float, Float) = length > 0 ? (px / length, py / length) : (1, 0)
        var distance: Float, n: (Float, Float)
        if px * sx + py * sy > 0 { distance = abs(c0); n = (-sy, sx) } else { distance = length; n = nc }
        let ahead = px * ex + py * ey > 0
        let other = ahead ? abs(c1) : length
        if other < distance { distance = other; n = ahead ? (-ey, ex) : nc }
        return (inside ? distance : -distance, n.0, n.1)
    }

    /// Bilinear sample at local `(u, v)`, held to the snapshot's sub-rectangle.
    @inline(__always)
    func sample(_ u: Float, _ v: Float) -> UInt32 {
        // Clamped to the sub-rectangle (`max(low, t)` takes `low` for a NaN `t`), so each texel position is
        // finite and below the texture's size: times 2^32 it is far inside Int64.
        let fx = min(max(lowX, originX + u * scaleX - 0.5), highX)
        let fy = min(max(lowY, originY + v * scaleY - 0.5), highY)
        return Self.bilinear(texels.unsafelyUnwrapped, textureWidth, textureHeight,
                             PixelMath.truncate(fx * 4_294_967_296), PixelMath.truncate(fy * 4_294_967_296))
    }

    /// `sample` at four local points at once: the same clamp lane by lane, then four bilinear samples
    /// (`BilinearQuad`, equal to `bilinear` bit for bit).
    @inline(__always)
    func sample(_ u: SIMD4<Float>, _ v: SIMD4<Float>) -> SIMD4<UInt32> {
        // min(max(low, t), high) as the scalar form: `low` for a NaN `t`.
        let x = originX + u * scaleX - 0.5, y = originY + v * scaleY - 0.5
        var fx = SIMD4<Float>(repeating: lowX).replacing(with: x, where: x .>= lowX)
        fx.replace(with: highX, where: fx .> highX)
        var fy = SIMD4<Float>(repeating: lowY).replacing(with: y, where: y .>= lowY)
        fy.replace(with: highY, where: fy .> highY)
        var quad = BilinearQuad()
        for j in 0..<4 {
            // Clamped to the sub-rectangle: finite and below the texture's size, times 2^32 far inside Int64.
            quad.gather(j, texels.unsafelyUnwrapped, textureWidth, textureHeight,
                        PixelMath.truncate(fx[j] * 4_294_967_296), PixelMath.truncate(fy[j] * 4_294_967_296))
        }
        return quad.pixels
    }

    /// The gradient overlay drawn over `content`: the premultiplied overlay colour at this point, all four
    /// channels in one vector, then source-over.
    @inline(__always)
    func overlay(_ content: UInt32, _ u: Float, _ v: Float) -> UInt32 {
        // `max(0, t)` takes 0 for a NaN `t`.
        let t = min(max(0, u * overlayGradient.0 + v * overlayGradient.1 + overlayGradient.2), 1)
        let o = overlayStart255 + overlayDelta255 * t + 0.5
        // Channel by channel: Swift's vector float-to-integer conversion is a generic call, not an instruction.
        // With t in 0...1 each channel lies between its start and end plus 0.5: below 256, since `DrawItem`
        // holds the overlay's colours to 0...1 and its opacity to 1 (a channel past 255 would spill into the
        // next), and the same as `UInt32(_:)` gives for anything below 2^32.
        let pixel = Pixmap.pack(r: PixelMath.truncateToUInt32(o[0]), g: PixelMath.truncateToUInt32(o[1]),
                                b: PixelMath.truncateToUInt32(o[2]), a: PixelMath.truncateToUInt32(o[3]))
        return PixelMath.over(pixel, content)
    }
}
