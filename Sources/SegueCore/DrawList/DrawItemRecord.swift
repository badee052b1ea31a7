/// Which outline a draw item's mask has, as every backend's per-pixel function switches on it: the CPU's
/// `LayerShader`, and `Shaders/draw-item.glsl` through the `#define`s of `DrawItemRecord.glslDefinitions`
/// (`MASK_CIRCLE` is `circle`'s raw value), so that no backend writes a kind as a bare number.
public enum MaskKind: Int32, Sendable, CaseIterable {
    case none = 0
    /// `DrawItemRecord.mask`: centre, radius.
    case circle
    /// `mask`: centre, half sides; `maskShape.x`: the corner radius.
    case roundedRect
    /// `mask`: centre, the first ray's unit direction; `maskShape.yz`: the last ray's, `maskShape.w`: 1 above a
    /// half turn (`Mask.sectorRays`).
    case sector
    /// `mask`: centre, half sides (`Mask.BlurShape`); `maskShape.y`: `1 / (sigma sqrt 2)`.
    case blurredRect
    /// As `blurredRect`, with `maskShape.x` the distance field's corner radius, `maskShape.z` its exponent and
    /// `maskShape.w` the exponent's inverse, and `blur`: the peak and the shorter side.
    case blurredRoundedRect
    /// `mask`: centre, half sides; `maskShape.x`: the corners' reach (the radius times `Mask.continuousReach`),
    /// `maskShape.y`: their superellipse exponent (`Mask.continuousExponent`).
    case continuousRect

    /// The kind of `mask` (nil: `none`).
    public init(_ mask: Mask?) {
        switch mask {
        case nil: self = .none
        case .circle?: self = .circle
        case .roundedRect?: self = .roundedRect
        case .sector?: self = .sector
        case .continuousRect?: self = .continuousRect
        case let .blurred(_, radius, _)?: self = radius > 0 ? .blurredRoundedRect : .blurredRect
        }
    }

    /// Its name in GLSL: `MASK_ROUNDED_RECT`.
    public var glslName: String {
        var name = "MASK_"
        for character in String(describing: self) {
            if character.isUppercase { name.append("_") }
            name.append(contentsOf: character.uppercased())
        }
        return name
    }

    /// Whether the per-pixel function multiplies an antialiased outline's coverage (a signed distance over its
    /// pixel length) into the edge coverage; the blurred kinds give their coverage directly.
    public var hasOutline: Bool {
        switch self {
        case .circle, .roundedRect, .sector, .continuousRect: return true
        case .none, .blurredRect, .blurredRoundedRect: return false
        }
    }
}

/// Everything a backend's per-pixel function reads of one draw item, decided once in the core when the draw
/// list is made (`DrawItem.record`) and read by every backend: the raster program's uniforms are a loop over
/// its fields (`fields`), the compute path's item buffer a copy of it, and the CPU's `LayerShader` takes its
/// single-precision values from it. It is laid out as `struct DrawItemRecord` of `Shaders/draw-item.glsl`: 19
/// four-word fields, the same in std430 and std140 (a test holds the two to each other word by word), the
/// integers first.
///
/// Its values are sanitised once, here, so that every backend draws the same picture for any input: the local
/// origin is moved next to what the frame shows when the layer's own origin lies so far away that single
/// precision would lose the pixel (`rebaseReach`), edges that lie far outside the frame are moved in to just
/// outside it (they clip nothing there either), and an item whose values are still not finite in single
/// precision is not drawn at all (`DrawItem.init` drops it).
public struct DrawItemRecord: Sendable, Equatable {
    /// The pixels the item may touch, x0, y0, x1, y1 (half-open); a blit's rectangle for a blit.
    public var bounds: SIMD4<Int32>
    /// The whole pixels it overwrites (`DrawItem.solidPixels`), or an empty rectangle.
    public var solid: SIMD4<Int32>
    /// The source (0 a colour, else 1 + the `SnapshotID`), the `MaskKind`, 1 for an overlay, 1 for perspective.
    public var kind: SIMD4<Int32>
    /// 1 for a blit (`DrawItem.blit`), its texel offset dx, dy; then the index of the item's draw list among a
    /// dispatch's samples (0 here; the compute upload writes it).
    public var blit: SIMD4<Int32>
    /// `pixelToLocal`'s rows (a, b, c), (d, e, f), (g, h, i), in the (possibly moved) local frame; w is 0.
    public var row0: SIMD4<Float>
    public var row1: SIMD4<Float>
    public var row2: SIMD4<Float>
    /// The layer's local rectangle u0, v0, u1, v1: (0, 0, width, height) unless moved.
    public var edges: SIMD4<Float>
    /// For affine maps, 1 / |grad u| and 1 / |grad v| in pixels; then the opacity; w is 0.
    public var gradientsOpacity: SIMD4<Float>
    /// The premultiplied colour when the source is a colour, components in 0...1.
    public var color: SIMD4<Float>
    /// The texel coordinate of local (0, 0), then texels per local point (`DrawItem.TexelMap`).
    public var texelMap: SIMD4<Float>
    /// The lowest and highest texel index sampling may reach.
    public var texelClamp: SIMD4<Float>
    /// 1 / the snapshot's size in texels (taken in single precision); zw are 0.
    public var inverseTextureSize: SIMD4<Float>
    /// The mask's centre and two more values, as `MaskKind` says.
    public var mask: SIMD4<Float>
    /// The mask's other values, as `MaskKind` says.
    public var maskShape: SIMD4<Float>
    /// A blurred rounded rectangle's peak and shorter side; zw are 0.
    public var blur: SIMD4<Float>
    /// The overlay's gradient: `g = u * x + v * y + z`; w is 0.
    public var gradient: SIMD4<Float>
    /// The overlay's premultiplied colour at `g = 0` and `g = 1`.
    public var overlayStart: SIMD4<Float>
    public var overlayEnd: SIMD4<Float>

    /// Whether a field holds 32-bit integers (`ivec4`) or floats (`vec4`).
    public enum FieldType: String, Sendable {
        case ivec4, vec4
    }

    /// The fields in order, with their names in GLSL and their types: what the raster path sets uniform by
    /// uniform (`uItem.<name>`) and what a test compares with the GLSL struct.
    public static let fields: [(name: String, type: FieldType, offset: Int)] = {
        func field<T>(_ name: String, _ path: KeyPath<DrawItemRecord, T>, _ type: FieldType) -> (String, FieldType, Int) {
            (name, type, MemoryLayout<DrawItemRecord>.offset(of: path)!)
        }
        return [field("bounds", \.bounds, .ivec4), field("solid", \.solid, .ivec4), field("kind", \.kind, .ivec4),
                field("blit", \.blit, .ivec4), field("row0", \.row0, .vec4), field("row1", \.row1, .vec4),
                field("row2", \.row2, .vec4), field("edges", \.edges, .vec4),
                field("gradientsOpacity", \.gradientsOpacity, .vec4), field("color", \.color, .vec4),
                field("texelMap", \.texelMap, .vec4), field("texelClamp", \.texelClamp, .vec4),
                field("inverseTextureSize", \.inverseTextureSize, .vec4), field("mask", \.mask, .vec4),
                field("maskShape", \.maskShape, .vec4), field("blur", \.blur, .vec4),
                field("gradient", \.gradient, .vec4), field("overlayStart", \.overlayStart, .vec4),
                field("overlayEnd", \.overlayEnd, .vec4)]
    }()

    /// 32-bit words a record takes (the GLSL struct's size in std430 and std140 alike).
    public static var words: Int { MemoryLayout<DrawItemRecord>.size / 4 }

    /// The lines a shader that includes `draw-item.glsl` gets after its `#version` line: each mask kind by
    /// name, how many there are, and the compute path's limits.
    public static let glslDefinitions: String = {
        var lines = MaskKind.allCases.map { "#define \($0.glslName) \($0.rawValue)" }
        lines.append("#define MASK_KINDS \(MaskKind.allCases.count)")
        lines.append("#define MAX_ITEMS \(Limits.maxItemsPerDispatch)")
        lines.append("#define MAX_SAMPLES \(Limits.maxMotionBlurSamples)")
        return lines.joined(separator: "\n") + "\n"
    }()

    /// A record of zeros: no item.
    public init() {
        (bounds, solid, kind, blit) = (.zero, .zero, .zero, .zero)
        (row0, row1, row2, edges, gradientsOpacity, color, texelMap, texelClamp) = (.zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero)
        (inverseTextureSize, mask, maskShape, blur, gradient, overlayStart, overlayEnd) = (.zero, .zero, .zero, .zero, .zero, .zero, .zero)
    }

    public var source: Int32 { kind.x }
    public var maskKind: MaskKind { MaskKind(rawValue: kind.y) ?? .none }
    public var hasOverlay: Bool { kind.z != 0 }
    public var isPerspective: Bool { kind.w != 0 }
    public var isBlit: Bool { blit.x != 0 }
    public var opacity: Float { gradientsOpacity.z }
    /// The item as a blit (its rectangle is `bounds`), when it is one.
    public var asBlit: DrawItem.Blit? {
        guard isBlit else { return nil }
        return DrawItem.Blit(rect: PixelBounds(x0: Int(bounds.x), y0: Int(bounds.y), x1: Int(bounds.z), y1: Int(bounds.w)),
                             dx: Int(blit.y), dy: Int(blit.z))
    }

    /// Every float of the record is finite.
    public var isFinite: Bool {
        let floats: [SIMD4<Float>] = [row0, row1, row2, edges, gradientsOpacity, color, texelMap, texelClamp,
                                      inverseTextureSize, mask, maskShape, blur, gradient, overlayStart, overlayEnd]
        return floats.allSatisfy { v in (0..<4).allSatisfy { v[$0].isFinite } }
    }
}

extension DrawItemRecord {
    /// How far from the visible part of the layer, in pixel lengths, single precision still places a point to
    /// 1/512 of a pixel: a layer whose local origin lies farther has its origin moved to what shows.
    static let rebaseReach = 16384.0

    /// The record of `item`, sanitised (see the type's summary).
    init(_ item: DrawItem) {
        func int(_ v: Int) -> Int32 { Int32(clamping: v) }
        func float(_ values: Double...) -> SIMD4<Float> {
            var v = SIMD4<Float>()
            for (k, value) in values.enumerated() { v[k] = Float(value) }
            return v
        }
        let view = item.visibleLocalBox
        // The local origin moves to the middle of what shows when it lies too far for single precision.
        var shift = (u: 0.0, v: 0.0)
        let pixel = item.largestPixelLength
        if let view, pixel > 0, max(abs(view.center.x), abs(view.center.y)) > Self.rebaseReach * pixel {
            shift = (view.center.x.rounded(), view.center.y.rounded())
        }
        // Edges farther than `reach` outside what shows are moved to `reach` outside it: coverage is 1 half a
        // pixel inside an edge, so an edge a frame's width away clips nothing, there or where it was.
        let reach = view.map { max($0.width, $0.height) + 4 * pixel }
        func heldU(_ t: Double) -> Double {
            guard let view, let reach else { return t - shift.u }
            return min(max(t, view.minX - reach), view.maxX + reach) - shift.u
        }
        func heldV(_ t: Double) -> Double {
            guard let view, let reach else { return t - shift.v }
            return min(max(t, view.minY - reach), view.maxY + reach) - shift.v
        }

        let variantBlit = item.blit
        let shownBounds = variantBlit?.rect ?? item.bounds
        bounds = SIMD4(int(shownBounds.x0), int(shownBounds.y0), int(shownBounds.x1), int(shownBounds.y1))
        let solidPixels = item.solidPixels ?? PixelBounds(x0: 0, y0: 0, x1: 0, y1: 0)
        solid = SIMD4(int(solidPixels.x0), int(solidPixels.y0), int(solidPixels.x1), int(solidPixels.y1))
        var source: Int32 = 0
        if case let .snapshot(id, _) = item.source { source = Int32(id.rawValue + 1) }
        let maskKind = MaskKind(item.mask)
        kind = SIMD4(source, maskKind.rawValue, item.overlay == nil ? 0 : 1, item.isAffine ? 0 : 1)
        blit = SIMD4(variantBlit == nil ? 0 : 1, int(variantBlit?.dx ?? 0), int(variantBlit?.dy ?? 0), 0)

        // u' = u - su = (U - su Q) / Q: the columns of u and v take su and sv times the Q column.
        let m = item.pixelToLocal
        row0 = float(m.a - shift.u * m.c, m.b - shift.v * m.c, m.c)
        row1 = float(m.d - shift.u * m.f, m.e - shift.v * m.f, m.f)
        row2 = float(m.g - shift.u * m.i, m.h - shift.v * m.i, m.i)
        edges = float(heldU(0), heldV(0), heldU(item.size.width), heldV(item.size.height))
        gradientsOpacity = float(1 / (m.a * m.a + m.d * m.d).squareRoot(), 1 / (m.b * m.b + m.e * m.e).squareRoot(),
                                 item.opacity)

        color = .zero; texelMap = .zero; texelClamp = .zero; inverseTextureSize = .zero
        switch item.source {
        case let .color(r, g, b, a):
            color = float(r, g, b, a)
        case let .snapshot(_, map):
            texelMap = float(map.origin.x + shift.u * map.scale.x, map.origin.y + shift.v * map.scale.y,
                             map.scale.x, map.scale.y)
            texelClamp = float(map.clampMin.x, map.clampMin.y, map.clampMax.x, map.clampMax.y)
            inverseTextureSize = SIMD4(1 / Float(max(1, map.textureWidth)), 1 / Float(max(1, map.textureHeight)), 0, 0)
        }

        mask = .zero; maskShape = .zero; blur = .zero
        /// A rectangle's centre and half sides, its edges held as the layer's are.
        func heldRect(_ rect: Rect) -> (cx: Double, cy: Double, hx: Double, hy: Double) {
            let x0 = heldU(rect.minX), x1 = heldU(rect.maxX), y0 = heldV(rect.minY), y1 = heldV(rect.maxY)
            return ((x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2)
        }
        switch item.mask {
        case nil:
            break
        case let .circle(center, radius)?:
            mask = float(center.x - shift.u, center.y - shift.v, radius)
        case let .roundedRect(rect, radius)?:
            let r = heldRect(rect)
            mask = float(r.cx, r.cy, r.hx, r.hy)
            maskShape = float(min(radius, r.hx, r.hy))
        case let .sector(center, startAngle, sweep)?:
            let rays = Mask.sectorRays(startAngle: startAngle, sweep: sweep)
            mask = float(center.x - shift.u, center.y - shift.v, rays.start.x, rays.start.y)
            maskShape = float(0, rays.end.x, rays.end.y, rays.isReflex ? 1 : 0)
        case let .continuousRect(rect, radius)?:
            let r = heldRect(rect)
            mask = float(r.cx, r.cy, r.hx, r.hy)
            maskShape = float(min(radius * Mask.continuousReach, r.hx, r.hy), Mask.continuousExponent)
        case let .blurred(rect, radius, sigma)?:
            // A shadow's shape is held to `Shadow.maxExtent` already; only its centre moves with the origin.
            let shape = Mask.blurShape(rect, radius: radius, sigma: sigma)
            mask = float(shape.center.x - shift.u, shape.center.y - shift.v, shape.halfWidth, shape.halfHeight)
            // The exponent's inverse taken in double precision, then rounded.
            maskShape = float(shape.cornerRadius, shape.inverseScale, shape.exponent,
                              1 / shape.exponent)
            blur = float(shape.peak, shape.minEdge)
        }

        gradient = .zero; overlayStart = .zero; overlayEnd = .zero
        if let o = item.overlay {
            // g = gx u + gy v + gz = gx u' + gy v' + (gz + gx su + gy sv).
            gradient = float(o.gradient.x, o.gradient.y, o.gradient.z + o.gradient.x * shift.u + o.gradient.y * shift.v)
            overlayStart = float(o.start.0, o.start.1, o.start.2, o.start.3)
            overlayEnd = float(o.end.0, o.end.1, o.end.2, o.end.3)
        }
    }
}

extension DrawItem {
    /// The box, in local points, of what the frame shows of the item: the local points of its outline's
    /// part within its bounds (a projective map takes a convex polygon in front of the eye to one whose
    /// vertices' images bound it). Nil when it is not finite.
    var visibleLocalBox: Rect? {
        var polygon = outline
        let b = bounds
        // Sutherland-Hodgman against the bounds' four sides: keep where `inside` is true.
        func clip(_ inside: (Point) -> Bool, _ cross: (Point, Point) -> Point) {
            guard !polygon.isEmpty else { return }
            var kept: [Point] = []
            for k in polygon.indices {
                let p = polygon[k], q = polygon[(k + 1) % polygon.count]
                if inside(p) { kept.append(p) }
                if inside(p) != inside(q) { kept.append(cross(p, q)) }
            }
            polygon = kept
        }
        func atX(_ x: Double) -> (Point, Point) -> Point {
            { p, q in Point(x, p.y + (q.y - p.y) * ((x - p.x) / (q.x - p.x))) }
        }
        func atY(_ y: Double) -> (Point, Point) -> Point {
            { p, q in Point(p.x + (q.x - p.x) * ((y - p.y) / (q.y - p.y)), y) }
        }
        let x0 = Double(b.x0) - 1, x1 = Double(b.x1) + 1, y0 = Double(b.y0) - 1, y1 = Double(b.y1) + 1
        clip({ $0.x >= x0 }, atX(x0)); clip({ $0.x <= x1 }, atX(x1))
        clip({ $0.y >= y0 }, atY(y0)); clip({ $0.y <= y1 }, atY(y1))
        guard !polygon.isEmpty else { return nil }
        var minU = Double.infinity, maxU = -Double.infinity, minV = Double.infinity, maxV = -Double.infinity
        for p in polygon {
            let (uu, vv, q) = pixelToLocal.apply(p.x, p.y)
            guard q > 0 else { return nil }
            let u = uu / q, v = vv / q
            minU = min(minU, u); maxU = max(maxU, u); minV = min(minV, v); maxV = max(maxV, v)
        }
        guard minU.isFinite, maxU.isFinite, minV.isFinite, maxV.isFinite else { return nil }
        return Rect(minU, minV, maxU - minU, maxV - minV)
    }
}
