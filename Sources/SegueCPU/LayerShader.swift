import SegueCore

/// The CPU twin of `Shaders/layer.frag`: one draw item prepared for drawing, and the function that draws it
/// over one row of pixels. Per-pixel positions, coverage, masks and overlays are single precision (`Float`),
/// as the GPU computes; each row's span and interior, the perspective margins, and the start and step of
/// the 32.32 fixed-point texel positions of the interior are worked out in double precision. The per-pixel
/// function is the one documented on `DrawItem`; read the two side by side.
struct LayerShader: @unchecked Sendable {
    enum MaskShape {
        case none
        case circle(cx: Float, cy: Float, r: Float)
        case roundedRect(cx: Float, cy: Float, hx: Float, hy: Float, r: Float)
        /// Unit rays `(sx, sy)` and `(ex, ey)` from the centre (`Mask.sectorRays`); `reflex` above a half turn.
        case sector(cx: Float, cy: Float, sx: Float, sy: Float, ex: Float, ey: Float, reflex: Bool)
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
    /// For perspective items: local margins inside which edge coverage is surely 1 (the largest local length
    /// of a pixel over the outline's vertices, twice what coverage needs, for safety).
    let perspectiveMarginU, perspectiveMarginV: Double
    let outline: [(x: Double, y: Double)]
    let bounds: PixelBounds
    let blit: DrawItem.Blit?
    /// When texels map one to one onto pixels at a whole-texel offset (pixel x shows texel x + dx), whatever
    /// the edges and mask: the interior of each row is then a row copy.
    let identityOffset: (dx: Int, dy: Int)?
    /// False: every pixel of a row's span takes the general per-pixel function, with no interior spans and
    /// no span clipped to the mask (the tests compare the two).
    let takesShortcuts: Bool

    // Content: a texture or a colour.
    let texels: UnsafePointer<UInt32>?
    let textureWidth, textureHeight: Int
    let originX, originY, scaleX, scaleY: Float
    let lowX, lowY, highX, highY: Float
    let color: UInt32

    let opacity: Float
    let opacity255: UInt32
    let isOpaque: Bool
    /// The content alone is opaque (a mask or opacity may still make the item translucent).
    let isOpaqueContent: Bool
    let mask: MaskShape
    let hasOverlay: Bool
    let overlayGradient: (Float, Float, Float)
    /// The overlay's premultiplied colour at the gradient's start, times 255, and the change to its end.
    let overlayStart255: SIMD4<Float>
    let overlayDelta255: SIMD4<Float>

    init(_ item: DrawItem, textures: [Texture], shortcuts: Bool = true) {
        takesShortcuts = shortcuts
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
        var marginU = 0.0, marginV = 0.0
        if !item.isAffine {
            for p in item.outline {
                let (uu, vv, q) = m.apply(p.x, p.y)
                guard q > 1e-9 else { marginU = .infinity; marginV = .infinity; break }
                let u = uu / q, v = vv / q
                marginU = max(marginU, ((m.a - u * m.c) * (m.a - u * m.c) + (m.d - u * m.f) * (m.d - u * m.f)).squareRoot() / q)
                marginV = max(marginV, ((m.b - v * m.c) * (m.b - v * m.c) + (m.e - v * m.f) * (m.e - v * m.f)).squareRoot() / q)
            }
        }
        perspectiveMarginU = marginU
        perspectiveMarginV = marginV
        outline = item.outline.map { ($0.x, $0.y) }
        bounds = item.bounds
        blit = item.blit
        identityOffset = Self.identityOffset(item)
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
            isOpaqueContent = item.contentIsOpaque
        case let .color(r, g, b, a):
            texels = nil
            textureWidth = 0; textureHeight = 0
            originX = 0; originY = 0; scaleX = 0; scaleY = 0; lowX = 0; lowY = 0; highX = 0; highY = 0
            func byte(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255).rounded()) }
            color = Pixmap.pack(r: byte(r), g: byte(g), b: byte(b), a: byte(a))
            isOpaqueContent = a >= 1
        }

        switch item.mask {
        case nil:
            mask = .none
        case let .circle(center, radius)?:
            mask = .circle(cx: Float(center.x), cy: Float(center.y), r: Float(radius))
        case let .roundedRect(rect, radius)?:
            mask = .roundedRect(cx: Float(rect.center.x), cy: Float(rect.center.y),
                                hx: Float(rect.width / 2), hy: Float(rect.height / 2), r: Float(radius))
        case let .sector(center, startAngle, sweep)?:
            let rays = Mask.sectorRays(startAngle: startAngle, sweep: sweep)
            mask = .sector(cx: Float(center.x), cy: Float(center.y), sx: Float(rays.start.x), sy: Float(rays.start.y),
                           ex: Float(rays.end.x), ey: Float(rays.end.y), reflex: rays.isReflex)
        }

        if let o = item.overlay {
            hasOverlay = true
            overlayGradient = (Float(o.gradient.x), Float(o.gradient.y), Float(o.gradient.z))
            let start = SIMD4<Float>(Float(o.start.0), Float(o.start.1), Float(o.start.2), Float(o.start.3)) * 255
            let end = SIMD4<Float>(Float(o.end.0), Float(o.end.1), Float(o.end.2), Float(o.end.3)) * 255
            overlayStart255 = start
            overlayDelta255 = end - start
        } else {
            hasOverlay = false
            overlayGradient = (0, 0, 0)
            overlayStart255 = .zero
            overlayDelta255 = .zero
        }
    }

    /// The columns of row `y` the item may touch: the outline's extent over the rows around `y`, widened by
    /// one pixel for the antialiased edge, within the item's bounds.
    func span(row y: Int) -> (Int, Int) {
        let top = Double(y) - 0.5, bottom = Double(y) + 1.5
        var lo = Double.infinity, hi = -Double.infinity
        outline.withUnsafeBufferPointer { outline in
            // Each edge from vertex k to the next, the last back to the first.
            guard var p = outline.last else { return }
            for q in outline {
                defer { p = q }
                if max(p.y, q.y) < top || min(p.y, q.y) > bottom { continue }
                if p.y == q.y {
                    lo = min(lo, p.x, q.x); hi = max(hi, p.x, q.x)
                    continue
                }
                let s0 = min(max((top - p.y) / (q.y - p.y), 0), 1), s1 = min(max((bottom - p.y) / (q.y - p.y), 0), 1)
                let x0 = p.x + (q.x - p.x) * s0, x1 = p.x + (q.x - p.x) * s1
                lo = min(lo, x0, x1); hi = max(hi, x0, x1)
            }
        }
        guard lo <= hi else { return (0, 0) }
        // Held to +-1e9 (a frame is far narrower), as before, and now on both sides, for a conversion that
        // needs no check.
        let start = max(bounds.x0, PixelMath.clampedIndex((lo - 1).rounded(.down)))
        let end = min(bounds.x1, PixelMath.clampedIndex((hi + 1).rounded(.up)))
        return (start, max(start, end))
    }

    /// Draws the item over columns `x0..<x1` of row `y`, whose first pixel is at `row`. `scratch` holds at
    /// least `scratchCount` pixels that this call may overwrite (one buffer per band).
    func draw(row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int, scratch: UnsafeMutablePointer<UInt32>) {
        if let blit, y >= blit.rect.y0, y < blit.rect.y1 {
            drawBlit(blit, row: row, y: y, from: max(x0, blit.rect.x0), to: min(x1, blit.rect.x1))
            return
        }
        if blit != nil { return }  // rows of a blit outside its rectangle are not covered
        let (x0, x1) = takesShortcuts ? maskSpan(row: y, from: x0, to: x1) : (x0, x1)
        if x0 >= x1 { return }
        // Edge pixels take the whole per-pixel function; the interior, where edge and mask coverage are
        // exactly 1, takes a lean loop.
        let (i0, i1) = takesShortcuts ? interior(row: y, from: x0, to: x1) : (0, 0)
        if i0 >= i1 {
            drawGeneral(row: row, y: y, from: x0, to: x1)
            return
        }
        drawGeneral(row: row, y: y, from: x0, to: i0)
        drawInterior(row: row, y: y, from: i0, to: i1, scratch: scratch)
        drawGeneral(row: row, y: y, from: i1, to: x1)
    }

    /// The columns of row `y` (within `x0..<x1`) whose pixel centres are at least half a pixel inside every
    /// edge and at least `maskSlack` inside the mask: their coverage is exactly 1.
    func interior(row y: Int, from x0: Int, to x1: Int) -> (Int, Int) {
        if !affine { return perspectiveInterior(row: y, from: x0, to: x1) }
        let py = Double(y) + 0.5
        // Along the row, u = u0 + a X and v = v0 + b X, with X the pixel centre's x.
        let u0 = Double(d) * py + Double(g), v0 = Double(e) * py + Double(h)
        let da = Double(a), db = Double(b)
        var lo = -Double.infinity, hi = Double.infinity
        func keep(_ c: Double, _ slope: Double, _ low: Double, _ high: Double) {
            if slope == 0 {
                if c < low || c > high { lo = .infinity; hi = -.infinity }
                return
            }
            let p = (low - c) / slope, q = (high - c) / slope
            lo = max(lo, min(p, q)); hi = min(hi, max(p, q))
        }
        let mu = 0.5 / Double(inverseGradU), mv = 0.5 / Double(inverseGradV)
        keep(u0, da, mu, Double(width) - mu)
        keep(v0, db, mv, Double(height) - mv)
        switch mask {
        case .none:
            break
        case let .circle(cx, cy, r):
            let inner = Double(r - maskSlack)
            guard inner > 0 else { return (0, 0) }
            let du = u0 - Double(cx), dv = v0 - Double(cy)
            let qa = da * da + db * db, qb = 2 * (da * du + db * dv), qc = du * du + dv * dv - inner * inner
            if qa == 0 {
                if qc > 0 { return (0, 0) }
            } else {
                let disc = qb * qb - 4 * qa * qc
                guard disc > 0 else { return (0, 0) }
                let root = disc.squareRoot()
                lo = max(lo, (-qb - root) / (2 * qa)); hi = min(hi, (-qb + root) / (2 * qa))
            }
        case let .roundedRect(cx, cy, hx, hy, r) where db == 0:
            // Unrotated, v is constant along the row, which crosses the mask less the slack (a rounded
            // rectangle of half size h - slack and radius r - slack) over one interval: between the corner
            // arcs when the row is level with the corners, else the full width less the slack.
            let slack = Double(maskSlack), radius = Double(r), dy = abs(v0 - Double(cy))
            guard dy <= Double(hy) - slack else { return (0, 0) }
            let intoCorner = dy - (Double(hy) - radius)  // > 0 only when radius - slack >= intoCorner > 0
            let half = intoCorner > 0
                ? Double(hx) - radius + ((radius - slack) * (radius - slack) - intoCorner * intoCorner).squareRoot()
                : Double(hx) - slack
            keep(u0, da, Double(cx) - half, Double(cx) + half)
        case let .roundedRect(cx, cy, hx, hy, r):
            // The rectangle inside the rounded corners, less the slack: wholly inside the mask.
            let inset = Double(max(r, maskSlack))
            keep(u0, da, Double(cx) - Double(hx) + inset, Double(cx) + Double(hx) - inset)
            keep(v0, db, Double(cy) - Double(hy) + inset, Double(cy) + Double(hy) - inset)
        case let .sector(_, _, _, _, _, _, reflex):
            // The distance from p to ray k is at least the distance to its line, |ck|, so where both ck are
            // at least the slack the pixel is inside by at least the slack; above a half turn either is
            // enough (each ray lies wholly on the other's outer side).
            let c = sectorCrossings(row: y, from: x0, to: x1)
            let first = halfLine(c.c0, c.slope0, c.slack), last = halfLine(c.c1, c.slope1, c.slack)
            if !reflex {
                lo = max(lo, first.lo, last.lo); hi = min(hi, first.hi, last.hi)
            } else if max(first.lo, last.lo) <= min(first.hi, last.hi) {
                // The two overlap: their union is one interval.
                lo = max(lo, min(first.lo, last.lo)); hi = min(hi, max(first.hi, last.hi))
            } else {
                // Apart: keep the one with more of the row in it (the other's pixels take the general path).
                let a = (max(lo, first.lo), min(hi, first.hi)), b = (max(lo, last.lo), min(hi, last.hi))
                (lo, hi) = a.1 - a.0 >= b.1 - b.0 ? a : b
            }
        }
        guard lo <= hi else { return (0, 0) }
        // Whole pixels whose centre X = x + 0.5 lies in [lo, hi], one pixel in from each end against rounding.
        let first = max(x0, PixelMath.clampedIndex((lo - 0.5).rounded(.up)) &+ 1)
        let last = min(x1, PixelMath.clampedIndex((hi - 0.5).rounded(.down)))
        return first < last ? (first, last) : (0, 0)
    }

    /// The columns of row `y` (within `x0..<x1`) a sector mask of at most a half turn may cover, for an
    /// affine item: where both `ck` exceed minus the slack (beyond either ray's line by more, the general
    /// function gives no coverage), and one pixel more at each end. Other items keep the whole span.
    private func maskSpan(row y: Int, from x0: Int, to x1: Int) -> (Int, Int) {
        guard affine, case let .sector(_, _, _, _, _, _, reflex) = mask, !reflex else { return (x0, x1) }
        let c = sectorCrossings(row: y, from: x0, to: x1)
        let first = halfLine(c.c0, c.slope0, -c.slack), last = halfLine(c.c1, c.slope1, -c.slack)
        let lo = max(first.lo, last.lo), hi = min(first.hi, last.hi)
        guard lo <= hi else { return (x0, x0) }
        // Whole pixels whose centre X = x + 0.5 may lie in [lo, hi], and one more at each end.
        let start = max(x0, PixelMath.clampedIndex((lo - 0.5).rounded(.down)) &- 1)
        let end = min(x1, PixelMath.clampedIndex((hi - 0.5).rounded(.up)) &+ 2)
        return (start, max(start, end))
    }

    /// A sector's cross products along row `y` of an affine item, linear in the pixel centre's `X`:
    /// `c0 = cross(d0, p)` is `c0 + slope0 X`, `c1 = cross(p, d1)` is `c1 + slope1 X`; and the slack widened
    /// by a margin for the single-precision rounding of the per-pixel function's products, whose points stay
    /// within `extent` of the centre over columns `x0..<x1`.
    private func sectorCrossings(row y: Int, from x0: Int, to x1: Int)
        -> (c0: Double, slope0: Double, c1: Double, slope1: Double, slack: Double) {
        guard case let .sector(cx, cy, sx, sy, ex, ey, _) = mask else { return (0, 0, 0, 0, 0) }
        let py = Double(y) + 0.5
        // Along the row, p = (pu + a X, pv + b X).
        let pu = Double(d) * py + Double(g) - Double(cx), pv = Double(e) * py + Double(h) - Double(cy)
        let da = Double(a), db = Double(b)
        let dsx = Double(sx), dsy = Double(sy), dex = Double(ex), dey = Double(ey)
        let extent = abs(pu) + abs(pv) + (abs(da) + abs(db)) * (Double(max(abs(x0), abs(x1))) + 1)
        return (dsx * pv - dsy * pu, dsx * db - dsy * da, pu * dey - pv * dex, da * dey - db * dex,
                Double(maskSlack) + 1e-6 * extent)
    }

    /// Where `c + slope X >= low` along the row: a half-line, everything, or nothing.
    @inline(__always)
    private func halfLine(_ c: Double, _ slope: Double, _ low: Double) -> (lo: Double, hi: Double) {
        if slope == 0 { return c >= low ? (-.infinity, .infinity) : (.infinity, -.infinity) }
        let at = (low - c) / slope
        return slope > 0 ? (at, .infinity) : (-.infinity, at)
    }

    /// The interior of a perspective item's row. With Q = q0 + c X > 0, `u >= m` is `U - m Q >= 0`, linear in
    /// the pixel centre X, and so is every other edge condition. Masked perspective items take no interior.
    private func perspectiveInterior(row y: Int, from x0: Int, to x1: Int) -> (Int, Int) {
        guard case .none = mask, perspectiveMarginU.isFinite, perspectiveMarginV.isFinite else { return (0, 0) }
        let py = Double(y) + 0.5
        let u0 = Double(d) * py + Double(g), v0 = Double(e) * py + Double(h), q0 = Double(f) * py + Double(i)
        let da = Double(a), db = Double(b), dc = Double(c)
        let mu = perspectiveMarginU, mv = perspectiveMarginV, w = Double(width), h = Double(height)
        var lo = -Double.infinity, hi = Double.infinity
        // c0 + slope X >= 0
        func atLeastZero(_ c0: Double, _ slope: Double) {
            if slope == 0 {
                if c0 < 0 { lo = .infinity; hi = -.infinity }
            } else if slope > 0 {
                lo = max(lo, -c0 / slope)
            } else {
                hi = min(hi, -c0 / slope)
            }
        }
        atLeastZero(q0 - 1e-6, dc)
        atLeastZero(u0 - mu * q0, da - mu * dc)
        atLeastZero((w - mu) * q0 - u0, (w - mu) * dc - da)
        atLeastZero(v0 - mv * q0, db - mv * dc)
        atLeastZero((h - mv) * q0 - v0, (h - mv) * dc - db)
        guard lo <= hi else { return (0, 0) }
        let first = max(x0, PixelMath.clampedIndex((lo - 0.5).rounded(.up)) &+ 1)
        let last = min(x1, PixelMath.clampedIndex((hi - 0.5).rounded(.down)))
        return first < last ? (first, last) : (0, 0)
    }

    /// Fully covered pixels of an affine item: content, overlay and opacity, no coverage or mask.
    private func drawInterior(row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int,
                              scratch: UnsafeMutablePointer<UInt32>) {
        if !affine {
            drawPerspectiveInterior(row: row, y: y, from: x0, to: x1)
            return
        }
        if let identityOffset, !hasOverlay, let texels {
            // Interior pixels show texels inside the texture: row y + dy, columns from x0 + dx.
            let source = texels + ((y &+ identityOffset.dy) &* textureWidth &+ (x0 &+ identityOffset.dx))
            let target = row + x0, count = x1 &- x0
            if isOpaqueContent && opacity255 == 255 {
                target.update(from: source, count: count)
            } else if opacity255 == 255 {
                for k in 0..<count { target[k] = PixelMath.over(source[k], target[k]) }
            } else if isOpaqueContent {
                PixelMath.blendOpaqueRow(target, source, count: count, k: opacity255)
            } else {
                let k255 = opacity255
                for k in 0..<count { target[k] = PixelMath.over(PixelMath.scale(source[k], k255), target[k]) }
            }
            return
        }
        let py = Float(y) + 0.5
        let rowU = d * py + g, rowV = e * py + h
        let store = isOpaqueContent && !hasOverlay && opacity255 == 255
        let k = opacity255
        // Texel indices step by a constant along the row: 32.32 fixed point, exact enough over 8K columns.
        // Every value converted is a texel position or a step of at most one sub-rectangle's size (the first
        // pixel's centre lies inside the item, and so do the centres of a whole pixel's step): times 2^32,
        // far inside Int64.
        let one = 4_294_967_296.0
        let startX = Double(x0) + 0.5, startY = Double(y) + 0.5
        let u0 = Double(a) * startX + Double(d) * startY + Double(g), v0 = Double(b) * startX + Double(e) * startY + Double(h)
        var fx = PixelMath.truncate((Double(originX) + u0 * Double(scaleX) - 0.5) * one)
        var fy = PixelMath.truncate((Double(originY) + v0 * Double(scaleY) - 0.5) * one)
        let stepX = PixelMath.truncate(Double(a) * Double(scaleX) * one)
        let stepY = PixelMath.truncate(Double(b) * Double(scaleY) * one)
        let lowX = PixelMath.truncate(Double(self.lowX) * one), highX = PixelMath.truncate(Double(self.highX) * one)
        let lowY = PixelMath.truncate(Double(self.lowY) * one), highY = PixelMath.truncate(Double(self.highY) * one)
        if stepY == 0, let texels {
            drawAxisAlignedInterior(row: row, texels: texels, scratch: scratch, from: x0, to: x1, fx: fx, stepX: stepX,
                                    fy: min(max(fy, lowY), highY), lowX: lowX, highX: highX, py: py, store: store)
            return
        }
        for x in x0..<x1 {
            var content: UInt32
            if let texels {
                content = Self.bilinear(texels, textureWidth, textureHeight,
                                        min(max(fx, lowX), highX), min(max(fy, lowY), highY))
                fx &+= stepX
                fy &+= stepY
            } else {
                content = color
            }
            if hasOverlay {
                let px = Float(x) + 0.5
                content = overlay(content, rowU + px * a, rowV + px * b)
            }
            if store {
                row[x] = content
            } else {
                row[x] = PixelMath.over(k == 255 ? content : PixelMath.scale(content, k), row[x])
            }
        }
    }

    /// Fully covered pixels of a perspective item: one division per pixel, no coverage.
    private func drawPerspectiveInterior(row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int) {
        let py = Float(y) + 0.5
        let rowU = d * py + g, rowV = e * py + h, rowQ = f * py + i
        let store = isOpaqueContent && !hasOverlay && opacity255 == 255
        let k = opacity255
        for x in x0..<x1 {
            let px = Float(x) + 0.5
            let rq = 1 / (rowQ + px * c)
            let u = (rowU + px * a) * rq, v = (rowV + px * b) * rq
            var content = texels == nil ? color : sample(u, v)
            if hasOverlay { content = overlay(content, u, v) }
            if store {
                row[x] = content
            } else {
                row[x] = PixelMath.over(k == 255 ? content : PixelMath.scale(content, k), row[x])
            }
        }
    }

    /// The pixels of scratch space `draw` needs: one texel row of the widest snapshot and two more.
    static func scratchCount(textures: [Texture]) -> Int {
        (textures.map(\.width).max() ?? 0) + 2
    }

    /// The interior of an affine row along which the texel row does not change (no rotation), in two passes
    /// as the bilinear filter is separable: the two texel rows are blended vertically once per texel column
    /// the row reads (into `scratch`; none when the vertical weight is 0), then each pixel blends two
    /// neighbouring columns of that. The same arithmetic and rounding as `bilinear`, in another order.
    private func drawAxisAlignedInterior(row: UnsafeMutablePointer<UInt32>, texels: UnsafePointer<UInt32>,
                                         scratch: UnsafeMutablePointer<UInt32>,
                                         from x0: Int, to x1: Int, fx start: Int64, stepX: Int64, fy: Int64,
                                         lowX: Int64, highX: Int64, py: Float, store: Bool) {
        let iy = Int(truncatingIfNeeded: fy >> 32)
        let wy = UInt32(truncatingIfNeeded: ((fy & 0xFFFF_FFFF) &+ 0x80_0000) >> 24)
        // fy is clamped to the sub-rectangle: iy is a row of the texture.
        let top = texels + iy &* textureWidth
        let bottom = iy &+ 1 < textureHeight ? top + textureWidth : top
        let end = start &+ Int64(x1 - x0 - 1) &* stepX
        let firstX = min(max(start, lowX), highX), lastX = min(max(end, lowX), highX)
        // Vertical pass: `columns[c]` is texel column `c + origin` blended between the two rows, for the
        // columns from the row's leftmost texel to one past its rightmost (its right neighbour).
        let origin: Int, columns: UnsafePointer<UInt32>
        if wy == 0 {
            origin = 0
            columns = top
        } else {
            origin = Int(truncatingIfNeeded: min(firstX, lastX) >> 32)
            let through = min(Int(truncatingIfNeeded: max(firstX, lastX) >> 32) + 1, textureWidth - 1)
            PixelMath.lerpRows(scratch, top + origin, bottom + origin, count: through - origin + 1, w: wy)
            columns = UnsafePointer(scratch)
        }
        let shift = Int64(origin) << 32
        if store, let run = unitStepRun(first: firstX, last: lastX, unclamped: (start, end), count: x1 - x0) {
            PixelMath.lerpRows(row + x0, columns + (run.column - origin), columns + (run.column - origin + 1),
                               count: x1 - x0, w: run.weight)
            return
        }
        drawColumns(row: row, columns: columns, from: x0, to: x1, fx: start &- shift, stepX: stepX,
                    lowX: lowX &- shift, highX: highX &- shift, py: py, store: store)
    }

    /// When a row's pixels step exactly one texel column each with one horizontal weight (the texels at
    /// their own size, at a fractional offset), its first column and that weight. Checked at both ends:
    /// the offset from a whole-texel step changes monotonically along the row, so equal ends mean all equal.
    @inline(__always)
    private func unitStepRun(first: Int64, last: Int64, unclamped: (Int64, Int64), count: Int) -> (column: Int, weight: UInt32)? {
        guard first == unclamped.0, last == unclamped.1 else { return nil }
        let c0 = Int(truncatingIfNeeded: first >> 32), c1 = Int(truncatingIfNeeded: last >> 32)
        let w0 = UInt32(truncatingIfNeeded: ((first & 0xFFFF_FFFF) &+ 0x80_0000) >> 24)
        let w1 = UInt32(truncatingIfNeeded: ((last & 0xFFFF_FFFF) &+ 0x80_0000) >> 24)
        guard c1 - c0 == count - 1, w0 == w1 else { return nil }
        return (c0, w0)
    }

    /// The horizontal pass: each pixel blends the two columns around its texel position (32.32 fixed point,
    /// clamped to the sub-rectangle, in `columns`' own indices).
    private func drawColumns(row: UnsafeMutablePointer<UInt32>, columns: UnsafePointer<UInt32>, from x0: Int, to x1: Int,
                             fx start: Int64, stepX: Int64, lowX: Int64, highX: Int64, py: Float, store: Bool) {
        let k = opacity255
        var fx = start
        var x = x0
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
                    w[j] = UInt32(truncatingIfNeeded: ((cx & 0xFFFF_FFFF) &+ 0x80_0000) >> 24)
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
            let wx = UInt32(truncatingIfNeeded: ((cx & 0xFFFF_FFFF) &+ 0x80_0000) >> 24)
            // With wx = 0 the right column is read but weighs nothing (see `Texture`'s padding).
            var content = PixelMath.lerp(columns[ix], columns[ix &+ 1], wx)
            if hasOverlay {
                let px = Float(x) + 0.5
                content = overlay(content, d * py + g + px * a, e * py + h + px * b)
            }
            if store {
                row[x] = content
            } else {
                row[x] = PixelMath.over(k == 255 ? content : PixelMath.scale(content, k), row[x])
            }
        }
    }

    /// Bilinear sample at 32.32 fixed-point texel indices already clamped to the sub-rectangle.
    @inline(__always)
    private static func bilinear(_ texels: UnsafePointer<UInt32>, _ width: Int, _ height: Int,
                                 _ fx: Int64, _ fy: Int64) -> UInt32 {
        let ix = Int(truncatingIfNeeded: fx >> 32), iy = Int(truncatingIfNeeded: fy >> 32)
        let wx = UInt32(truncatingIfNeeded: ((fx & 0xFFFF_FFFF) &+ 0x80_0000) >> 24)
        let wy = UInt32(truncatingIfNeeded: ((fy & 0xFFFF_FFFF) &+ 0x80_0000) >> 24)
        // Clamped to the sub-rectangle: iy is a row of the texture, so iy * width is within its texel count.
        let top = texels + iy &* width
        let bottom = iy &+ 1 < height ? top + width : top
        if wx == 0 {
            return wy == 0 ? top[ix] : PixelMath.lerp(top[ix], bottom[ix], wy)
        }
        // wx > 0 means ix + 1 is inside the sub-rectangle: both columns interpolate at once in 16-bit lanes.
        return PixelMath.bilinear(top + ix, bottom + ix, wx, wy)
    }

    /// The whole-texel offset of an item whose texels map one to one onto pixels.
    private static func identityOffset(_ item: DrawItem) -> (dx: Int, dy: Int)? {
        guard item.isAffine, case let .snapshot(_, map) = item.source else { return nil }
        let m = item.pixelToLocal
        guard abs(map.scale.x * m.a - 1) < 1e-9, abs(map.scale.y * m.e - 1) < 1e-9,
              abs(m.d) < 1e-12, abs(m.b) < 1e-12 else { return nil }
        // texel index = origin + scale * u - 0.5 with u = a (x + 0.5) + g: x + origin + scale * g
        let offX = map.origin.x + map.scale.x * m.g, offY = map.origin.y + map.scale.y * m.h
        let rx = offX.rounded(), ry = offY.rounded()
        guard abs(offX - rx) < 1e-6, abs(offY - ry) < 1e-6 else { return nil }
        return (Int(rx), Int(ry))
    }

    /// One texel per pixel at a whole-texel offset: a copy, or a blend at the item's opacity.
    private func drawBlit(_ blit: DrawItem.Blit, row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int) {
        guard x0 < x1, let texels else { return }
        // Row y + dy and columns from x0 + dx lie inside the texture (the blit's rectangle maps into it).
        let source = texels + ((y &+ blit.dy) &* textureWidth &+ (x0 &+ blit.dx))
        let target = row + x0
        let count = x1 &- x0
        if isOpaque {
            target.update(from: source, count: count)
        } else if isOpaqueContent {
            PixelMath.blendOpaqueRow(target, source, count: count, k: opacity255)
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
            }
            if coverage <= 0 { continue }

            var content = texels == nil ? color : sample(u, v)
            if hasOverlay { content = overlay(content, u, v) }
            // 0 < coverage < 1 and 0 < opacity <= 1: the value converted is in 0.5...255.5.
            let k = coverage >= 1 ? opacity255 : PixelMath.truncateToUInt32(coverage * opacity * 255 + 0.5)
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

    /// A sector's signed distance at `p` (local, from the centre), positive inside, and the unit direction
    /// `n` it changes along: the nearer of the two rays, each of which is its line where `p` lies ahead of the
    /// centre along it, else the centre itself. `layer.frag`'s MASK 3 computes the same, in the same order.
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
    private func sample(_ u: Float, _ v: Float) -> UInt32 {
        // Clamped to the sub-rectangle (`max(low, t)` takes `low` for a NaN `t`), so each texel position is
        // finite and below the texture's size: times 2^32 it is far inside Int64.
        let fx = min(max(lowX, originX + u * scaleX - 0.5), highX)
        let fy = min(max(lowY, originY + v * scaleY - 0.5), highY)
        return Self.bilinear(texels.unsafelyUnwrapped, textureWidth, textureHeight,
                             PixelMath.truncate(fx * 4_294_967_296), PixelMath.truncate(fy * 4_294_967_296))
    }

    /// The gradient overlay drawn over `content`: the premultiplied overlay colour at this point, all four
    /// channels in one vector, then source-over.
    @inline(__always)
    private func overlay(_ content: UInt32, _ u: Float, _ v: Float) -> UInt32 {
        // `max(0, t)` takes 0 for a NaN `t`.
        let t = min(max(0, u * overlayGradient.0 + v * overlayGradient.1 + overlayGradient.2), 1)
        let o = overlayStart255 + overlayDelta255 * t + 0.5
        // Channel by channel: Swift's vector float-to-integer conversion is a generic call, not an instruction.
        // With t in 0...1 each channel lies between its start and end plus 0.5: below 256 for colours in
        // 0...1 at opacity up to 1, and the same as `UInt32(_:)` gives for anything below 2^32.
        let pixel = Pixmap.pack(r: PixelMath.truncateToUInt32(o[0]), g: PixelMath.truncateToUInt32(o[1]),
                                b: PixelMath.truncateToUInt32(o[2]), a: PixelMath.truncateToUInt32(o[3]))
        return PixelMath.over(pixel, content)
    }
}
