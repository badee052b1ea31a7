import Foundation

/// One quad of the flat draw list: everything a backend needs to draw one layer, decided once in the core.
/// A backend never knows which effect it is drawing.
///
/// ## The per-pixel function (both backends compute exactly this; `Shaders/draw-item.glsl`, which the GPU's
/// raster and compute paths both include, and the CPU's `LayerShader.swift` are written side by side)
/// For the pixel whose centre is `(x, y)` (pixel units, origin top-left):
/// 1. `[U, V, Q] = [x, y, 1] * pixelToLocal`. If `Q <= 0` the point is behind the eye: nothing is drawn.
///    Otherwise the local point is `(u, v) = (U/Q, V/Q)`, in the layer's points.
/// 2. The local point's pixel gradients: `du/dx = (pixelToLocal.a - u*pixelToLocal.c)/Q`,
///    `du/dy = (pixelToLocal.d - u*pixelToLocal.f)/Q`, and the same for `v` with `b`, `e`.
/// 3. Edge coverage: `clamp(0.5 + min(u - u0, u1 - u) / |grad u|, 0, 1) * clamp(0.5 + min(v - v0, v1 - v) / |grad v|, 0, 1)`
///    over the layer's local rectangle `u0...u1` by `v0...v1` (`0...w` by `0...h`, unless the record moved it):
///    a pixel centre half a pixel inside an edge is fully covered, so edges on pixel boundaries are exact.
/// 4. Mask coverage (when there is a mask): the signed distance `s` to the mask outline in local points
///    (positive inside), divided by the pixel length of its local gradient `n` (`|J^T n|`), then
///    `clamp(0.5 + s_px, 0, 1)`. For a sector (held here with `0 < sweep < 2π`), with `p = (u, v) - center`
///    and unit rays `d0`, `d1` at `startAngle` and `startAngle + sweep` (`Mask.sectorRays`): `p` is inside
///    when `c0 = cross(d0, p) >= 0` and `c1 = cross(p, d1) >= 0`, or (sweep above π) either; the distance to
///    ray `k` is `|ck|` where `dot(p, dk) > 0`, else `|p|`, with `n` the ray's normal or `p / |p|`; `s` is
///    plus (inside) or minus (outside) the smaller distance.
///    A continuous rectangle (`Mask.continuousRect`, held with `R = continuousReach * radius` within half
///    each side) is a rounded rectangle of radius `R` whose corners, where `q = |p - centre| - (half sides -
///    R)` is above 0 in both coordinates, are the superellipse of exponent `P = continuousExponent`: with
///    `a = qx^P`, `b = qy^P` and `m = (a + b)^(1/P)`, `s = -(m - R) (a + b) / (m |g|)` along `n = g / |g|`,
///    `g = (a / qx, b / qy)` (signed back to the quadrant): the first-order distance to the curve.
///    A blurred mask (`Mask.blurred`, a shadow) gives its coverage directly, from `Mask.BlurShape`'s values:
///    with `du = u - center.x`, `dv = v - center.y`, `k = inverseScale` and `E` the error function as
///    `Mask.erf` approximates it, a rectangle (`cornerRadius` 0) covers
///    `1/4 (E((du + hx) k) - E((du - hx) k)) (E((dv + hy) k) - E((dv - hy) k))` (the Gaussian of a rectangle is
///    separable: exact, but for `E`); a rounded rectangle covers `peak (E((minEdge + s) k) - E(s k))`, where
///    `s = p + min(max(x0, y0), 0) - cornerRadius` with `x0 = |du| - (hx - cornerRadius)`, `y0` likewise,
///    `p = (x1^n + y1^n)^(1/n)` over `x1 = max(x0, 0)`, `y1 = max(y0, 0)` and `n = exponent` when both are
///    above 0, else `x1 + y1` (Raph Levien's approximation, `Mask.blurShape`).
/// 5. Content: a colour, or the bilinear sample of the snapshot at texel index
///    `fx = clamp(texelOrigin.x + u * texelScale.x - 0.5, clampMin.x, clampMax.x)` (likewise `fy`),
///    blending texels `floor(fx)` and `floor(fx) + 1` (clamped to the range) by `fx - floor(fx)`.
/// 6. Overlay (when there is one): `g = clamp(u * gradient.x + v * gradient.y + gradient.z, 0, 1)`,
///    `o = lerp(overlayStart, overlayEnd, g)` (premultiplied, overlay opacity folded in);
///    `content = o + content * (1 - o.a)`.
/// 7. `src = content * opacity * coverage`; the framebuffer gets `src + dst * (1 - src.a)`.
///
/// Every backend reads the values of these steps from one place: `record` (`DrawItemRecord`), made once with
/// the item, in single precision and sanitised (the local origin moved near what shows where it lies too far
/// for single precision, far edges moved in), so that the CPU and both GPU paths draw the same picture for any
/// input.
public struct DrawItem: Sendable, Equatable {
    /// Where the colour comes from.
    public enum Source: Sendable, Equatable {
        /// Snapshot `id`'s pixels through `texels`.
        case snapshot(SnapshotID, TexelMap)
        /// A premultiplied colour, components in `0...1` (the layer's colour taken `Color.clamped` first, so a
        /// spring's overshoot or a NaN reaches every backend as the same in-range value).
        case color(r: Double, g: Double, b: Double, a: Double)
    }

    /// How a local point maps onto a snapshot's texels, and the sub-rectangle sampling is held to.
    public struct TexelMap: Sendable, Equatable {
        /// Texel coordinate (texel centres at half-integers) of local point (0, 0).
        public var origin: Point
        /// Texels per local point, in x and y.
        public var scale: Point
        /// Lowest and highest texel index sampling may reach: the centres of the sub-rectangle's edge texels.
        public var clampMin: Point
        public var clampMax: Point
        /// The snapshot's size in pixels.
        public var textureWidth: Int
        public var textureHeight: Int
    }

    /// A linear gradient over the content, resolved to local points.
    public struct Overlay: Sendable, Equatable {
        /// `g = u * gradient.x + v * gradient.y + gradient.z` is the position along the gradient (0 at its start).
        public var gradient: (x: Double, y: Double, z: Double)
        /// Premultiplied RGBA at `g = 0` and `g = 1`, the overlay's opacity folded in; every component in `0...1`
        /// (colours `Color.clamped`, opacity at most 1).
        public var start: (Double, Double, Double, Double)
        public var end: (Double, Double, Double, Double)

        public static func == (l: Overlay, r: Overlay) -> Bool {
            l.gradient == r.gradient && l.start == r.start && l.end == r.end
        }
    }

    /// The layer's bounds in points: local `u` runs over `0...size.width`, `v` over `0...size.height`.
    public internal(set) var size: Size
    /// `[u, v, 1] * localToPixel` is the homogeneous pixel of local point `(u, v)`.
    public internal(set) var localToPixel: Matrix3
    /// The inverse, scaled so that `Q = 1` everywhere when the map is affine.
    public internal(set) var pixelToLocal: Matrix3
    /// True when the map has no perspective (`Q` is 1 everywhere).
    public internal(set) var isAffine: Bool
    /// The convex outline of the visible quad in pixels (clipped at the eye), clockwise or not.
    public var outline: [Point]
    /// Every pixel the item may touch, antialiased edges included, within the frame.
    public internal(set) var bounds: PixelBounds
    public internal(set) var source: Source
    public internal(set) var opacity: Double
    /// The layer's mask, normalised: a circle's radius above 0, a rounded rectangle's radius within half its
    /// sides, a sector's `startAngle` in `0..<2π` and its `sweep` in `0<..<2π` (turned round when it was
    /// negative); nil for a sector of 2π or more, which keeps everything. Every value is finite: a mask with a NaN
    /// keeps nothing (the item is dropped), a rounded rectangle's edges far past the layer are moved in
    /// (`heldMaskRect`), and a circle of infinite radius is no mask.
    public internal(set) var mask: Mask?
    public internal(set) var overlay: Overlay?
    /// True when every pixel inside the outline gets alpha 1 (opaque content, opacity 1, no mask).
    public internal(set) var isOpaque: Bool
    /// True when the content alone (snapshot or colour) is opaque.
    public internal(set) var contentIsOpaque: Bool
    /// What every backend's per-pixel function reads of the item, in single precision and sanitised, made
    /// once with the item (`DrawItemRecord`).
    public internal(set) var record = DrawItemRecord()
}

extension DrawItem {
    /// A plain copy of snapshot texels: the item covers the whole-pixel rectangle `rect` exactly, with one texel
    /// per pixel at a whole-texel offset (pixel `(x, y)` shows texel `(x + dx, y + dy)`).
    public struct Blit: Sendable, Equatable {
        public var rect: PixelBounds
        public var dx: Int
        public var dy: Int
    }

    /// The blit this item is, when it is one: axis-aligned, unscaled, on whole pixels, with no mask or overlay.
    /// Backends may draw it as a copy (opacity 1, opaque) or a blend; the picture is the same as the general path.
    /// (`record.blit` holds it for the backends, worked out once.)
    public var blit: Blit? {
        guard mask == nil, overlay == nil, let offset = texelOffset else { return nil }
        // The quad's corners must sit on whole pixels.
        let xs = outline.map(\.x), ys = outline.map(\.y)
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max(),
              [x0, x1, y0, y1].allSatisfy({ abs($0 - $0.rounded()) < 1e-6 }) else { return nil }
        let rect = PixelBounds(x0: Int(x0.rounded()), y0: Int(y0.rounded()), x1: Int(x1.rounded()), y1: Int(y1.rounded()))
            .intersection(bounds)
        return Blit(rect: rect, dx: offset.dx, dy: offset.dy)
    }

    /// The whole-texel offset of a snapshot whose texels map one to one onto pixels (pixel `(x, y)` shows
    /// texel `(x + dx, y + dy)`, wherever the item covers it): affine, axis-aligned, unscaled, at a whole-texel
    /// offset. A blit is such an item with no mask or overlay on whole pixels; the CPU copies the interior rows
    /// of the others.
    public var texelOffset: (dx: Int, dy: Int)? {
        guard isAffine, case let .snapshot(_, map) = source else { return nil }
        let m = pixelToLocal
        // texel index fx = origin.x + scale.x * u - 0.5 with u = a (x + 0.5) + d (y + 0.5) + g
        guard abs(map.scale.x * m.a - 1) < 1e-9, abs(map.scale.y * m.e - 1) < 1e-9,
              abs(m.d) < 1e-12, abs(m.b) < 1e-12 else { return nil }
        let offX = map.origin.x + map.scale.x * m.g, offY = map.origin.y + map.scale.y * m.h
        let rx = offX.rounded(), ry = offY.rounded()
        guard abs(offX - rx) < 1e-6, abs(offY - ry) < 1e-6, abs(rx) < 1e9, abs(ry) < 1e9 else { return nil }
        return (Int(rx), Int(ry))
    }
}

extension Mask {
    /// How far from its corner, in radii, iOS's continuous corner leaves each side: 1.52866 (the curve of
    /// `UIBezierPath(roundedRect:cornerRadius:)` since iOS 7, as measured from the paths UIKit returns; its
    /// control points are published, e.g. by Kael Yang's ContinuousPath, coefficients 1.528665, 1.088493,
    /// 0.868407, ...).
    public static let continuousReach = 1.52866483

    /// The exponent of the superellipse both backends draw a continuous corner with: the corner is
    /// `|qx|^p + |qy|^p = R^p` about a centre `R = continuousReach * radius` in from both sides, which touches
    /// the sides where iOS's curve does, and with `p = 3.34` (fitted to the curve's three Bezier segments) lies
    /// within 0.0074 radii of it everywhere (0.27 pixel at a 36-pixel radius: page-sheet at 3x).
    public static let continuousExponent = 3.34

    /// What both backends evaluate a blurred mask (`Mask.blurred`) with: the shape's centre and half sides,
    /// and for a rounded rectangle the values of Raph Levien's approximation ("Blurred rounded rectangles",
    /// 2020, raphlinus.github.io/graphics/2020/04/21/blurred-rounded-rects.html): a superellipse-cornered
    /// distance field whose corner radius and exponent grow with the blur, run through the 1D blurred box.
    /// Against a numerically blurred rounded rectangle it is within 0.033 of coverage where the blur is at
    /// most a fifth of the shorter side (`ShadowTests`); the rectangle's own formula is exact but for `erf`.
    public struct BlurShape: Sendable, Equatable {
        public var center: Point
        /// Half the sides: the shape's own for a rectangle, Levien's adjusted ones for a rounded rectangle.
        public var halfWidth: Double
        public var halfHeight: Double
        /// `1 / (sigma * sqrt(2))`: the error function's argument per point.
        public var inverseScale: Double
        /// 0 for a rectangle; else the distance field's corner radius.
        public var cornerRadius: Double
        /// The corners' superellipse exponent (2 is a circular arc).
        public var exponent: Double
        /// The coverage's largest value over 2 (below 1/2 when the blur is wide against the shape).
        public var peak: Double
        /// The shorter side.
        public var minEdge: Double
    }

    /// Where the error function as approximated here reaches exactly 1: `erf` is `±1` from `|x| >= erfLimit`,
    /// so a blurred mask covers nothing past `erfLimit * sqrt(2) * sigma` (4.24 sigma) outside its shape.
    public static let erfLimit = 3.0

    /// The error function as both backends evaluate it (in single precision there): Abramowitz and Stegun
    /// 7.1.27, `1 - 1 / (1 + a1 x + a2 x^2 + a3 x^3 + a4 x^4)^4` for `x >= 0` (odd), within 5e-4 of `erf`,
    /// held at exactly 1 from `erfLimit` on (where it is within 1e-4 of 1), so that coverage reaches exactly 1
    /// and 0 and the backends' interiors stay equal to the per-pixel function.
    public static func erf(_ x: Double) -> Double {
        let a = Swift.min(abs(x), erfLimit)
        var t = 1 + (0.278393 + (0.230389 + (0.000972 + 0.078108 * a) * a) * a) * a
        t *= t; t *= t
        let e = a >= erfLimit ? 1 : 1 - 1 / t
        return x < 0 ? -e : e
    }

    /// How far past its shape a blurred mask of standard deviation `sigma` may cover anything.
    public static func blurReach(sigma: Double) -> Double { erfLimit * 2.0.squareRoot() * sigma * 1.001 }

    /// The values both backends evaluate `.blurred(rect, radius, sigma)` with (`DrawItem` step 4).
    public static func blurShape(_ rect: Rect, radius: Double, sigma: Double) -> BlurShape {
        let w = rect.width, h = rect.height
        let s = sigma * 2.0.squareRoot()
        let minEdge = Swift.min(w, h)
        guard radius > 0 else {
            return BlurShape(center: rect.center, halfWidth: w / 2, halfHeight: h / 2, inverseScale: 1 / s,
                             cornerRadius: 0, exponent: 2, peak: 0.5, minEdge: minEdge)
        }
        // Levien's values, his blur width being sigma * sqrt(2): the corner radius grows with the blur and its
        // curve turns from a circle toward a superellipse; the long sides are pulled in where the blur is wide
        // against the short one; the peak falls where the blur is wide against the shape.
        let most = minEdge / 2
        let r0 = Swift.min((radius * radius + 1.15 * 1.15 * s * s).squareRoot(), most)
        let r1 = Swift.min((radius * radius + 4 * s * s).squareRoot(), most)
        let delta = 1.25 * s * (exp(-(0.5 * w / s) * (0.5 * w / s)) - exp(-(0.5 * h / s) * (0.5 * h / s)))
        let wide = w + Swift.min(delta, 0), tall = h - Swift.max(delta, 0)
        let peak = 0.5 * erf(0.5 * (Swift.max(wide, tall) - 0.5 * radius) / s)
        return BlurShape(center: rect.center, halfWidth: wide / 2, halfHeight: tall / 2, inverseScale: 1 / s,
                         cornerRadius: Swift.max(r1, 1e-9), exponent: 2 * r1 / r0, peak: peak, minEdge: minEdge)
    }

    /// A sector's rays, for `0 < sweep < 2π` as a `DrawItem` holds it: the unit directions of its first ray (at
    /// `startAngle`) and its last (at `startAngle + sweep`), and whether it spans more than a half turn (then
    /// the region is the union of the two half-planes the rays bound, not their intersection). Both backends
    /// take the rays from here, so they agree to the last bit on where they point.
    public static func sectorRays(startAngle: Double, sweep: Double) -> (start: Point, end: Point, isReflex: Bool) {
        let end = startAngle + sweep
        return (Point(cos(startAngle), sin(startAngle)), Point(cos(end), sin(end)), sweep > .pi)
    }
}
