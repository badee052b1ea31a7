import SegueCore

/// The CPU twin of `Shaders/layer.frag`: one draw item prepared for drawing (single precision, as the GPU
/// computes), and the function that draws it over one row of pixels. The per-pixel function is the one
/// documented on `DrawItem`; read the two side by side.
struct LayerShader: @unchecked Sendable {
    enum MaskShape {
        case none
        case circle(cx: Float, cy: Float, r: Float)
        case roundedRect(cx: Float, cy: Float, hx: Float, hy: Float, r: Float)
    }

    // pixel -> local, `[x, y, 1] * m`
    let a, b, c, d, e, f, g, h, i: Float
    let width, height: Float
    let affine: Bool
    /// For affine items: 1 / |grad u| and 1 / |grad v| in pixels, constant over the item.
    let inverseGradU, inverseGradV: Float
    /// Half the largest pixel length of one local point (affine only): mask pixels farther than this from
    /// the outline are wholly in or out, so their coverage needs no square root.
    let maskSlack: Float
    let outline: [(x: Double, y: Double)]
    let bounds: PixelBounds
    let blit: DrawItem.Blit?

    // Content: a texture or a colour.
    let texels: UnsafePointer<UInt32>?
    let textureWidth, textureHeight: Int
    let originX, originY, scaleX, scaleY: Float
    let lowX, lowY, highX, highY: Float
    let color: UInt32

    let opacity: Float
    let opacity255: UInt32
    let isOpaque: Bool
    let mask: MaskShape
    let hasOverlay: Bool
    let overlayGradient: (Float, Float, Float)
    let overlayStart: (Float, Float, Float, Float)
    let overlayEnd: (Float, Float, Float, Float)

    init(_ item: DrawItem, textures: [Texture]) {
        let m = item.pixelToLocal
        (a, b, c, d, e, f, g, h, i) = (Float(m.a), Float(m.b), Float(m.c), Float(m.d), Float(m.e), Float(m.f),
                                       Float(m.g), Float(m.h), Float(m.i))
        width = Float(item.size.width)
        height = Float(item.size.height)
        affine = item.isAffine
        inverseGradU = 1 / (a * a + d * d).squareRoot()
        inverseGradV = 1 / (b * b + e * e).squareRoot()
        // Largest singular value of the Jacobian [[a, d], [b, e]].
        let t = a * a + b * b + d * d + e * e, det = a * e - b * d
        let sigmaMax = ((t + max(0, t * t - 4 * det * det).squareRoot()) / 2).squareRoot()
        maskSlack = 0.5 * sigmaMax * 1.001 + 1e-4
        outline = item.outline.map { ($0.x, $0.y) }
        bounds = item.bounds
        blit = item.blit
        opacity = Float(item.opacity)
        opacity255 = UInt32((item.opacity * 255).rounded())
        isOpaque = item.isOpaque

        switch item.source {
        case let .snapshot(id, map):
            let texture = textures[id.rawValue]
            texels = UnsafePointer(texture.base)
            textureWidth = texture.width
            textureHeight = texture.height
            originX = Float(map.origin.x); originY = Float(map.origin.y)
            scaleX = Float(map.scale.x); scaleY = Float(map.scale.y)
            lowX = Float(map.clampMin.x); lowY = Float(map.clampMin.y)
            highX = Float(map.clampMax.x); highY = Float(map.clampMax.y)
            color = 0
        case let .color(r, g, b, a):
            texels = nil
            textureWidth = 0; textureHeight = 0
            originX = 0; originY = 0; scaleX = 0; scaleY = 0; lowX = 0; lowY = 0; highX = 0; highY = 0
            func byte(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255).rounded()) }
            color = Pixmap.pack(r: byte(r), g: byte(g), b: byte(b), a: byte(a))
        }

        switch item.mask {
        case nil:
            mask = .none
        case let .circle(center, radius)?:
            mask = .circle(cx: Float(center.x), cy: Float(center.y), r: Float(radius))
        case let .roundedRect(rect, radius)?:
            mask = .roundedRect(cx: Float(rect.center.x), cy: Float(rect.center.y),
                                hx: Float(rect.width / 2), hy: Float(rect.height / 2), r: Float(radius))
        }

        if let o = item.overlay {
            hasOverlay = true
            overlayGradient = (Float(o.gradient.x), Float(o.gradient.y), Float(o.gradient.z))
            overlayStart = (Float(o.start.0), Float(o.start.1), Float(o.start.2), Float(o.start.3))
            overlayEnd = (Float(o.end.0), Float(o.end.1), Float(o.end.2), Float(o.end.3))
        } else {
            hasOverlay = false
            overlayGradient = (0, 0, 0)
            overlayStart = (0, 0, 0, 0)
            overlayEnd = (0, 0, 0, 0)
        }
    }

    /// The columns of row `y` the item may touch: the outline's extent over the rows around `y`, widened by
    /// one pixel for the antialiased edge, within the item's bounds.
    func span(row y: Int) -> (Int, Int) {
        let top = Double(y) - 0.5, bottom = Double(y) + 1.5
        var lo = Double.infinity, hi = -Double.infinity
        for k in outline.indices {
            let p = outline[k], q = outline[k == outline.count - 1 ? 0 : k + 1]
            if max(p.y, q.y) < top || min(p.y, q.y) > bottom { continue }
            if p.y == q.y {
                lo = min(lo, p.x, q.x); hi = max(hi, p.x, q.x)
                continue
            }
            let s0 = min(max((top - p.y) / (q.y - p.y), 0), 1), s1 = min(max((bottom - p.y) / (q.y - p.y), 0), 1)
            let x0 = p.x + (q.x - p.x) * s0, x1 = p.x + (q.x - p.x) * s1
            lo = min(lo, x0, x1); hi = max(hi, x0, x1)
        }
        guard lo <= hi else { return (0, 0) }
        let start = max(bounds.x0, Int(max(-1e9, (lo - 1).rounded(.down))))
        let end = min(bounds.x1, Int(min(1e9, (hi + 1).rounded(.up))))
        return (start, max(start, end))
    }

    /// Draws the item over columns `x0..<x1` of row `y`, whose first pixel is at `row`.
    func draw(row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int) {
        if let blit, y >= blit.rect.y0, y < blit.rect.y1 {
            drawBlit(blit, row: row, y: y, from: max(x0, blit.rect.x0), to: min(x1, blit.rect.x1))
            return
        }
        if blit != nil { return }  // rows of a blit outside its rectangle are not covered
        drawGeneral(row: row, y: y, from: x0, to: x1)
    }

    /// One texel per pixel at a whole-texel offset: a copy, or a blend at the item's opacity.
    private func drawBlit(_ blit: DrawItem.Blit, row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int) {
        guard x0 < x1, let texels else { return }
        let source = texels + (y + blit.dy) * textureWidth + (x0 + blit.dx)
        let target = row + x0
        let count = x1 - x0
        if isOpaque {
            target.update(from: source, count: count)
        } else if opacity255 == 255 {
            for k in 0..<count { target[k] = PixelMath.over(source[k], target[k]) }
        } else {
            let k255 = opacity255
            for k in 0..<count {
                let s = PixelMath.scale(source[k], k255)
                target[k] = PixelMath.over(s, target[k])
            }
        }
    }

    private func drawGeneral(row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int) {
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
                let cu = min(u, width - u) * inverseGradU + 0.5
                let cv = min(v, height - v) * inverseGradV + 0.5
                if cu <= 0 || cv <= 0 { continue }
                coverage = min(cu, 1) * min(cv, 1)
            } else {
                let q = rowQ + px * c
                if q <= 0 { continue }
                let rq = 1 / q
                u *= rq; v *= rq
                dudx = (a - u * c) * rq; dudy = (d - u * f) * rq
                dvdx = (b - v * c) * rq; dvdy = (e - v * f) * rq
                let cu = min(u, width - u) / (dudx * dudx + dudy * dudy).squareRoot() + 0.5
                let cv = min(v, height - v) / (dvdx * dvdx + dvdy * dvdy).squareRoot() + 0.5
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
            }
            if coverage <= 0 { continue }

            var content = texels == nil ? color : sample(u, v)
            if hasOverlay { content = overlay(content, u, v) }
            let k = coverage >= 1 ? opacity255 : UInt32(coverage * opacity * 255 + 0.5)
            if k == 255 && plainCopy {
                row[x] = content
            } else if k > 0 {
                row[x] = PixelMath.over(k == 255 ? content : PixelMath.scale(content, k), row[x])
            }
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

    /// Bilinear sample at local `(u, v)`, held to the snapshot's sub-rectangle.
    @inline(__always)
    private func sample(_ u: Float, _ v: Float) -> UInt32 {
        let fx = min(max(originX + u * scaleX - 0.5, lowX), highX)
        let fy = min(max(originY + v * scaleY - 0.5, lowY), highY)
        let ix = Int(fx), iy = Int(fy)
        let wx = UInt32((fx - Float(ix)) * 256 + 0.5), wy = UInt32((fy - Float(iy)) * 256 + 0.5)
        let ix1 = ix + 1 < textureWidth ? ix + 1 : ix
        let iy1 = iy + 1 < textureHeight ? iy + 1 : iy
        let texels = self.texels.unsafelyUnwrapped
        let top = texels + iy * textureWidth, bottom = texels + iy1 * textureWidth
        let upper = wx == 0 ? top[ix] : PixelMath.lerp(top[ix], top[ix1], wx)
        if wy == 0 { return upper }
        let lower = wx == 0 ? bottom[ix] : PixelMath.lerp(bottom[ix], bottom[ix1], wx)
        return PixelMath.lerp(upper, lower, wy)
    }

    /// The gradient overlay drawn over `content`.
    @inline(__always)
    private func overlay(_ content: UInt32, _ u: Float, _ v: Float) -> UInt32 {
        let t = min(max(u * overlayGradient.0 + v * overlayGradient.1 + overlayGradient.2, 0), 1)
        func channel(_ s: Float, _ e: Float) -> UInt32 { UInt32((s + (e - s) * t) * 255 + 0.5) }
        let o = Pixmap.pack(r: channel(overlayStart.0, overlayEnd.0), g: channel(overlayStart.1, overlayEnd.1),
                            b: channel(overlayStart.2, overlayEnd.2), a: channel(overlayStart.3, overlayEnd.3))
        return PixelMath.over(o, content)
    }
}
