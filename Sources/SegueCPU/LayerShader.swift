import Foundation
import SegueCore

/// The CPU twin of `Shaders/draw-item.glsl` (the GPU paths' per-pixel function): one draw item prepared for drawing, and the function that draws it
/// over one row of pixels. Per-pixel positions, coverage, masks and overlays are single precision (`Float`),
/// as the GPU computes; each row's span and interior, the perspective margins, and the start and step of
/// the 32.32 fixed-point texel positions of the interior are worked out in double precision. The per-pixel
/// function is the one documented on `DrawItem`; read the two side by side. How the rows are drawn (a blit,
/// the reference, or edges and an interior of one kind) is chosen once, when the shader is made (`Plan`).
/// It holds no reference (its outline inline, a blurred rectangle's columns in a `ColumnStore`), so a copy
/// retains nothing.
struct LayerShader: @unchecked Sendable {
    enum MaskShape {
        case none
        case circle(cx: Float, cy: Float, r: Float)
        case roundedRect(cx: Float, cy: Float, hx: Float, hy: Float, r: Float)
        /// A rounded rectangle whose corners are superellipses reaching `r` along each side (iOS's continuous
        /// corner, `Mask.continuousRect`: `r` is the corner radius times `Mask.continuousReach`).
        case continuousRect(cx: Float, cy: Float, hx: Float, hy: Float, r: Float)
        /// Unit rays `(sx, sy)` and `(ex, ey)` from the centre (`Mask.sectorRays`); `reflex` above a half turn.
        case sector(cx: Float, cy: Float, sx: Float, sy: Float, ex: Float, ey: Float, reflex: Bool)
        /// A shadow's blurred rectangle or rounded rectangle: coverage evaluated, not an antialiased outline.
        case blurred(BlurredShape)
    }

    /// `Mask.BlurShape` in single precision, and how far inside its pixels are surely covered whole.
    struct BlurredShape {
        let cx, cy, hx, hy: Float
        /// `1 / (sigma * sqrt(2))`.
        let k: Float
        /// 0: a rectangle, evaluated as one; else the rounded rectangle's corner radius, exponent and its inverse.
        let r, n, inverseN: Float
        let peak, minEdge: Float
        /// Pixels whose centres are at least this far inside each side have coverage exactly 1; nil when no
        /// pixel has (a blur wide against the shape, or a shape narrower than twice the inset).
        let interiorInset: Double?

        /// The shape of a record whose mask is blurred (`MaskKind.blurredRect`, `.blurredRoundedRect`).
        init(_ record: DrawItemRecord, slack: Double) {
            (cx, cy, hx, hy) = (record.mask.x, record.mask.y, record.mask.z, record.mask.w)
            (r, k, n, inverseN) = (record.maskShape.x, record.maskShape.y, record.maskShape.z, record.maskShape.w)
            (peak, minEdge) = (record.blur.x, record.blur.y)
            // erf is exactly +-1 from its limit on: a pixel that far inside every side (and past the corners'
            // reach) is covered by 1, when the peak is exactly 1/2 and the shape is wide enough to hold it.
            let limit = Mask.erfLimit / Double(k) * 1.001 + slack
            let inset = r == 0 ? limit : max(limit, Double(r) + slack)
            let reaches = r == 0 || (peak == 0.5 && Double(minEdge) / 2 >= limit)
            interiorInset = reaches && Double(hx) > inset && Double(hy) > inset ? inset : nil
        }

        /// The coverage at local `(u, v)`: `DrawItem`'s step 4 for a blurred mask (`draw-item.glsl`'s `MASK_BLURRED_RECT` and `MASK_BLURRED_ROUNDED_RECT`).
        @inline(__always)
        func coverage(_ u: Float, _ v: Float) -> Float {
            let du = u - cx, dv = v - cy
            if r == 0 {
                return 0.25 * (Self.erf((du + hx) * k) - Self.erf((du - hx) * k)) * (Self.erf((dv + hy) * k) - Self.erf((dv - hy) * k))
            }
            let x0 = abs(du) - (hx - r), y0 = abs(dv) - (hy - r)
            let x1 = max(x0, 0), y1 = max(y0, 0)
            let p = x1 > 0 && y1 > 0 ? pow(pow(x1, n) + pow(y1, n), inverseN) : x1 + y1
            let s = p + min(max(x0, y0), 0) - r
            return peak * (Self.erf((minEdge + s) * k) - Self.erf(s * k))
        }

        /// `Mask.erf` in single precision: Abramowitz and Stegun 7.1.27, exactly +-1 from `Mask.erfLimit` (3) on.
        @inline(__always)
        static func erf(_ x: Float) -> Float {
            let a = min(abs(x), 3)
            var t: Float = 1 + (0.278393 + (0.230389 + (0.000972 + 0.078108 * a) * a) * a) * a
            t *= t
            t *= t
            let e: Float = a >= 3 ? 1 : 1 - 1 / t
            return x < 0 ? -e : e
        }
    }

    // pixel -> local, `[x, y, 1] * m` (the record's rows)
    let a, b, c, d, e, f, g, h, i: Float
    /// The layer's local rectangle (`DrawItemRecord.edges`): `minU...maxU` by `minV...maxV`.
    let minU, minV, maxU, maxV: Float
    let affine: Bool
    /// For affine items: 1 / |grad u| and 1 / |grad v| in pixels, constant over the item.
    let inverseGradU, inverseGradV: Float
    /// Half a pixel in local lengths along u and v (affine only): how far inside each edge a pixel centre has
    /// edge coverage 1 (`interiorColumns`; worked out here, not once a row).
    let edgeMarginU, edgeMarginV: Double
    /// Half the largest pixel length of one local point (affine only): mask pixels farther than this from
    /// the outline are wholly in or out, so their coverage needs no square root.
    let maskSlack: Float
    /// For perspective items: local margins inside which edge coverage is surely 1 (the largest local length
    /// of a pixel over the outline's vertices, twice what coverage needs, for safety).
    let perspectiveMarginU, perspectiveMarginV: Double
    /// The outline's vertices, inline so that a copy of the shader (`unshaded`, per row) retains nothing:
    /// `outlineCount` of them, at most `outlineCapacity` (a quad clipped at the eye has five at most). An
    /// outline with more (`outlineOverflows`) keeps none, and its rows span the whole bounds.
    let outlineX, outlineY: SIMD8<Double>
    let outlineCount: Int
    let outlineOverflows: Bool
    static let outlineCapacity = 8
    let bounds: PixelBounds
    /// How the item's rows are drawn, chosen here once for every row (`Plan`).
    let plan: Plan
    /// The interior's columns depend on the columns asked about (a sector's slack grows with them): each
    /// stretch of a row works its interior out again, where other masks take the row's, clamped.
    let interiorFollowsColumns: Bool
    /// False: every pixel of a row's span takes the general per-pixel function (`Plan.reference`; a blit still
    /// copies), and no item covers what lies beneath it (the tests compare the two).
    let takesShortcuts: Bool

    // Content: a texture or a colour.
    let texels: UnsafePointer<UInt32>?
    let textureWidth, textureHeight: Int
    let originX, originY, scaleX, scaleY: Float
    let lowX, lowY, highX, highY: Float
    /// The sub-rectangle's texel positions in 32.32 fixed point, as the interiors step them.
    let texelClamp: (lowX: Int64, highX: Int64, lowY: Int64, highY: Int64)
    let color: UInt32

    private(set) var opacity: Float
    private(set) var opacity255: UInt32
    let isOpaque: Bool
    /// The content alone is opaque (a mask or opacity may still make the item translucent).
    let isOpaqueContent: Bool
    /// Fully covered pixels are stored as sampled: opaque content, no overlay, full opacity.
    private(set) var storesInterior: Bool
    /// Fully covered pixels are stored once overlaid (`finish`): opaque content at full opacity, where an
    /// overlay drawn over it leaves it opaque, so drawing it source-over would give it unchanged.
    private(set) var storesFinished: Bool
    let mask: MaskShape
    private(set) var hasOverlay: Bool
    let overlayGradient: (Float, Float, Float)
    /// The overlay's premultiplied colour at the gradient's start, times 255, and the change to its end.
    let overlayStart255: SIMD4<Float>
    let overlayDelta255: SIMD4<Float>
    /// The overlay's colour channels are 0 all along its gradient (a shadow): only its alpha is worked out.
    let overlayIsBlack: Bool
    /// A black overlay over opaque content, where the CPU has AVX2: the interior is sampled as if there were
    /// no overlay (`unshaded`), then shaded by the AVX2 kernel (`drawShadedInterior`).
    let shadesSampled: Bool
    /// A perspective item sampled by the vector kernels, a division a pixel: its rows may be drawn in pieces
    /// (`CPUCompositor`'s tiles) with the same pixels, and a narrow piece's texels stay in cache from one
    /// row to the next.
    let drawsInTiles: Bool

    /// `columns` keeps a blurred rectangle's per-column factors (`Plan.Edges.blurredRect`) for as long as the
    /// shader is drawn; without one, such an item's edges take the general function.
    init(_ item: DrawItem, textures: [Texture], shortcuts: Bool = true, columns: ColumnStore? = nil) {
        takesShortcuts = shortcuts
        // Every value the per-pixel function reads comes from the record, as the GPU's do; what only the CPU
        // needs (the outline, the margins of a perspective map) from the item.
        let record = item.record
        (a, b, c) = (record.row0.x, record.row0.y, record.row0.z)
        (d, e, f) = (record.row1.x, record.row1.y, record.row1.z)
        (g, h, i) = (record.row2.x, record.row2.y, record.row2.z)
        (minU, minV, maxU, maxV) = (record.edges.x, record.edges.y, record.edges.z, record.edges.w)
        affine = !record.isPerspective
        inverseGradU = record.gradientsOpacity.x
        inverseGradV = record.gradientsOpacity.y
        edgeMarginU = 0.5 / Double(inverseGradU)
        edgeMarginV = 0.5 / Double(inverseGradV)
        // Largest singular value of the Jacobian [[a, d], [b, e]].
        let t = a * a + b * b + d * d + e * e, det = a * e - b * d
        let sigmaMax = ((t + max(0, t * t - 4 * det * det).squareRoot()) / 2).squareRoot()
        maskSlack = 0.5 * sigmaMax * 1.001 + 1e-4
        // The margins are pixel lengths, the same wherever the record put the local origin.
        let m = item.pixelToLocal
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
        var xs = SIMD8<Double>(), ys = SIMD8<Double>()
        outlineOverflows = item.outline.count > Self.outlineCapacity
        outlineCount = outlineOverflows ? 0 : item.outline.count
        for (k, p) in item.outline.prefix(outlineCount).enumerated() { xs[k] = p.x; ys[k] = p.y }
        outlineX = xs
        outlineY = ys
        bounds = item.bounds
        opacity = record.opacity
        opacity255 = UInt32((Double(record.opacity) * 255).rounded())
        isOpaque = item.isOpaque

        if case let .snapshot(id, _) = item.source {
            let texture = textures[id.rawValue]
            texels = UnsafePointer(texture.base)
            textureWidth = texture.width
            textureHeight = texture.height
            color = 0
            isOpaqueContent = item.contentIsOpaque
        } else {
            texels = nil
            textureWidth = 0; textureHeight = 0
            func byte(_ v: Float) -> UInt32 { UInt32((min(max(Double(v), 0), 1) * 255).rounded()) }
            color = Pixmap.pack(r: byte(record.color.x), g: byte(record.color.y), b: byte(record.color.z), a: byte(record.color.w))
            isOpaqueContent = record.color.w >= 1
        }
        (originX, originY, scaleX, scaleY) = (record.texelMap.x, record.texelMap.y, record.texelMap.z, record.texelMap.w)
        (lowX, lowY, highX, highY) = (record.texelClamp.x, record.texelClamp.y, record.texelClamp.z, record.texelClamp.w)

        // Positions of texels of a texture: times 2^32, far inside Int64.
        let one = 4_294_967_296.0
        texelClamp = (PixelMath.truncate(Double(lowX) * one), PixelMath.truncate(Double(highX) * one),
                      PixelMath.truncate(Double(lowY) * one), PixelMath.truncate(Double(highY) * one))

        let (centre, shape) = (record.mask, record.maskShape)
        switch record.maskKind {
        case .none:
            mask = .none
        case .circle:
            mask = .circle(cx: centre.x, cy: centre.y, r: centre.z)
        case .roundedRect:
            mask = .roundedRect(cx: centre.x, cy: centre.y, hx: centre.z, hy: centre.w, r: shape.x)
        case .sector:
            mask = .sector(cx: centre.x, cy: centre.y, sx: centre.z, sy: centre.w, ex: shape.y, ey: shape.z, reflex: shape.w > 0.5)
        case .continuousRect:
            mask = .continuousRect(cx: centre.x, cy: centre.y, hx: centre.z, hy: centre.w, r: shape.x)
        case .blurredRect, .blurredRoundedRect:
            mask = .blurred(BlurredShape(record, slack: Double(maskSlack)))
        }

        hasOverlay = record.hasOverlay
        let gradient = record.gradient
        overlayGradient = (gradient.x, gradient.y, gradient.z)
        let start = record.overlayStart * 255, end = record.overlayEnd * 255
        overlayStart255 = start
        overlayDelta255 = end - start
        overlayIsBlack = hasOverlay && start[0] == 0 && start[1] == 0 && start[2] == 0 && end[0] == 0 && end[1] == 0 && end[2] == 0
        storesInterior = isOpaqueContent && !hasOverlay && opacity255 == 255
        storesFinished = isOpaqueContent && opacity255 == 255
        shadesSampled = hasOverlay && overlayIsBlack && isOpaqueContent && PixelMath.hasAVX2
        drawsInTiles = !item.isAffine && texels != nil && PixelMath.hasAVX2
        if case .sector = mask { interiorFollowsColumns = true } else { interiorFollowsColumns = false }
        plan = Self.plan(item, shortcuts: shortcuts, columns: columns, mask: mask, hasOverlay: hasOverlay,
                         shadesSampled: shadesSampled, bounds: bounds, matrix: (a, b, d, g), scale: (scaleX, scaleY))
    }

    /// The item's content alone: no overlay, full opacity, interior pixels stored as sampled (for opaque
    /// content, which `drawShadedInterior` then shades and draws at the item's opacity).
    var unshaded: LayerShader {
        var plain = self
        plain.hasOverlay = false
        plain.opacity = 1
        plain.opacity255 = 255
        plain.storesInterior = isOpaqueContent
        plain.storesFinished = isOpaqueContent
        return plain
    }

    /// The columns of row `y` the item may touch: the outline's extent over the rows around `y`, widened by
    /// one pixel for the antialiased edge, within the item's bounds.
    func span(row y: Int) -> (Int, Int) {
        let top = Double(y) - 0.5, bottom = Double(y) + 1.5
        if outlineOverflows { return bounds.y0 <= y && y < bounds.y1 ? (bounds.x0, max(bounds.x0, bounds.x1)) : (0, 0) }
        guard outlineCount > 0 else { return (0, 0) }
        var lo = Double.infinity, hi = -Double.infinity
        // The vertices read through pointers: a SIMD8 element at a varying index is a trip through memory.
        withUnsafeBytes(of: outlineX) { xs in
            withUnsafeBytes(of: outlineY) { ys in
                @inline(__always) func vertex(_ k: Int) -> (x: Double, y: Double) {
                    (xs.load(fromByteOffset: k &* 8, as: Double.self), ys.load(fromByteOffset: k &* 8, as: Double.self))
                }
                // Each edge from vertex k to the next, the last back to the first.
                var p = vertex(outlineCount &- 1)
                for k in 0..<outlineCount {
                    let q = vertex(k)
                    defer { p = q }
                    if max(p.y, q.y) < top || min(p.y, q.y) > bottom { continue }
                    // A level edge reaches its two ends; an upright one (every edge of an unturned item) its
                    // column, where the crossing below would add 0 to it, with no division.
                    if p.y == q.y || p.x == q.x {
                        lo = min(lo, p.x, q.x); hi = max(hi, p.x, q.x)
                        continue
                    }
                    let s0 = min(max((top - p.y) / (q.y - p.y), 0), 1), s1 = min(max((bottom - p.y) / (q.y - p.y), 0), 1)
                    let x0 = p.x + (q.x - p.x) * s0, x1 = p.x + (q.x - p.x) * s1
                    lo = min(lo, x0, x1); hi = max(hi, x0, x1)
                }
            }
        }
        guard lo <= hi else { return (0, 0) }
        // Held to +-1e9 (a frame is far narrower), as before, and now on both sides, for a conversion that
        // needs no check.
        let start = max(bounds.x0, PixelMath.floorIndex(lo - 1))
        let end = min(bounds.x1, PixelMath.ceilIndex(hi + 1))
        return (start, max(start, end))
    }

    /// Draws the item over columns `x0..<x1` of row `y`, whose first pixel is at `row`, with the row's interior
    /// already worked out (`interiorColumns`, over the row's span or any columns that hold `x0..<x1`): this call clamps it to its columns, or works it out again where the
    /// mask's interior depends on them (`interiorFollowsColumns`). `plain` is `unshaded` where the item
    /// `shadesSampled`, made once for many rows.
    @inline(__always)
    func draw(row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int, interior core: (Int, Int),
              plain: LayerShader?, scratch: UnsafeMutablePointer<UInt32>) {
        switch plan {
        case let .blit(blit):
            // Rows of a blit outside its rectangle are not covered.
            if y >= blit.rect.y0, y < blit.rect.y1 {
                drawBlit(blit, row: row, y: y, from: max(x0, blit.rect.x0), to: min(x1, blit.rect.x1))
            }
        case .reference:
            if x0 < x1 { drawGeneral(row: row, y: y, from: x0, to: x1) }
        case let .rows(edges, inner):
            let (x0, x1) = maskSpan(row: y, from: x0, to: x1)
            if x0 >= x1 { return }
            // Edge pixels take the whole per-pixel function; the interior, where edge and mask coverage are
            // exactly 1, takes a lean loop.
            let (i0, i1) = interiorFollowsColumns ? interior(row: y, from: x0, to: x1) : (max(x0, core.0), min(x1, core.1))
            if i0 >= i1 {
                drawEdge(edges, row: row, y: y, from: x0, to: x1)
                return
            }
            drawEdge(edges, row: row, y: y, from: x0, to: i0)
            if shadesSampled, let plain {
                drawShadedInterior(row: row, y: y, from: i0, to: i1, plain: plain, scratch: scratch)
            } else {
                drawInterior(inner, row: row, y: y, from: i0, to: i1, scratch: scratch)
            }
            drawEdge(edges, row: row, y: y, from: i1, to: x1)
        }
    }

    /// The per-pixel function over columns `x0..<x1` of row `y`: the general one, or its separable form for a
    /// blurred rectangle.
    @inline(__always)
    private func drawEdge(_ edges: Plan.Edges, row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int) {
        switch edges {
        case let .blurredRect(columns): drawBlurredRect(row: row, y: y, from: x0, to: x1, columns: columns)
        case .general: drawGeneral(row: row, y: y, from: x0, to: x1)
        }
    }

    /// One pixel's content written over `pixel`: stored as it is when `store` says nothing shows through
    /// (opaque content, full coverage and opacity, no overlay), else drawn source-over at `k / 255`. Every
    /// draw path ends a pixel with this.
    @inline(__always)
    static func put(_ content: UInt32, _ pixel: UnsafeMutablePointer<UInt32>, store: Bool, k: UInt32) {
        if store {
            pixel.pointee = content
        } else {
            pixel.pointee = PixelMath.over(k == 255 ? content : PixelMath.scale(content, k), pixel.pointee)
        }
    }

    /// `put` of four pixels from `pixel` on.
    @inline(__always)
    static func put(_ content: SIMD4<UInt32>, _ pixel: UnsafeMutablePointer<UInt32>, store: Bool, k: UInt32) {
        let target = UnsafeMutableRawPointer(pixel)
        if store {
            target.storeBytes(of: content, as: SIMD4<UInt32>.self)
        } else {
            let source = k == 255 ? content : PixelMath.scale(content, SIMD4(repeating: k))
            target.storeBytes(of: PixelMath.over(source, target.loadUnaligned(as: SIMD4<UInt32>.self)), as: SIMD4<UInt32>.self)
        }
    }

    /// The pixels of scratch space `draw` needs: one texel row of the widest snapshot, two more, and
    /// `scratchSlack`.
    static func scratchCount(textures: [Texture]) -> Int {
        (textures.map(\.width).max() ?? 0) + 2 + scratchSlack
    }

    /// Pixels of scratch space past those a row fills, which a row kernel may read (and ignore).
    static let scratchSlack = 16
}
