/// What a backend needs to know of a snapshot before drawing: its pixel size and whether it is opaque.
public struct SnapshotInfo: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var isOpaque: Bool

    public init(width: Int, height: Int, isOpaque: Bool) {
        self.width = width; self.height = height; self.isOpaque = isOpaque
    }

    public init(_ pixmap: Pixmap) { self.init(width: pixmap.width, height: pixmap.height, isOpaque: pixmap.isOpaque) }
}

/// A frame as backends draw it: a pixel size, a background and a flat list of quads, bottom to top, from
/// which everything that cannot show has been removed (zero opacity, no area, seen edge-on, behind the eye,
/// outside the frame, masked away, seen from the back when not double-sided, or hidden under an opaque quad
/// above).
public struct DrawList: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// The background, premultiplied RGBA8: opaque, or 0 (transparent) for a `Color.clear` background.
    public var background: UInt32
    /// False when an opaque quad covers the whole frame, so filling the background would be wasted.
    public var clearsBackground: Bool
    public var items: [DrawItem]

    /// Flattens `scene` at `scale` pixels per point onto a frame of `round(W*scale) x round(H*scale)` pixels.
    /// `snapshots[id.rawValue]` describes the image behind each `SnapshotID`; every snapshot covers the whole
    /// frame, so its texels per point are its pixel size over the frame's size in points.
    public init(scene: Scene, scale: Double, snapshots: [SnapshotInfo], background: Color = .black) {
        width = Int((scene.size.width * scale).rounded())
        height = Int((scene.size.height * scale).rounded())
        self.background = background.backgroundPixel
        let frameBounds = PixelBounds(x0: 0, y0: 0, x1: width, y1: height)
        let toPixels = scene.toPixels(scale: scale)

        var items: [DrawItem] = []
        for layer in scene.layers {
            func item(_ layer: Layer) -> DrawItem? {
                DrawItem(layer: layer, toPixels: toPixels, frame: scene.size, frameBounds: frameBounds, snapshots: snapshots)
            }
            // A shadow is an item of its own just beneath its layer. Its blur is at least 0.4 pixel, which
            // antialiases its edge as the box filter of an unblurred edge would (the slopes at the edge agree).
            if let shadow = layer.shadowLayer(), let cast = item(shadow) {
                if case let .blurred(_, _, sigma)? = cast.mask, case let least = 0.4 * cast.largestPixelLength, sigma < least {
                    if let wider = layer.shadowLayer(leastSigma: least).flatMap(item) { items.append(wider) }
                } else {
                    items.append(cast)
                }
            }
            guard let item = item(layer) else { continue }
            items.append(item)
        }

        // Occlusion: an opaque, axis-aligned, affine quad hides whatever lies wholly inside the whole pixels
        // it fully covers. Walk from the top so each item is tested against every cover above it.
        var covers: [PixelBounds] = []
        var kept: [DrawItem] = []
        for item in items.reversed() {
            if covers.contains(where: { $0.contains(item.bounds) }) { continue }
            kept.append(item)
            if let solid = item.solidPixels { covers.append(solid) }
        }
        self.items = kept.reversed()
        clearsBackground = !covers.contains { $0.contains(frameBounds) }
    }
}

extension DrawItem {
    /// Builds the item of one layer, or nil when nothing of it can show.
    init?(layer: Layer, toPixels: Transform3D, frame: Size, frameBounds: PixelBounds, snapshots: [SnapshotInfo]) {
        let w = layer.bounds.width, h = layer.bounds.height
        guard w > 0, h > 0, w.isFinite, h.isFinite, layer.opacity > 0 else { return nil }
        let m = layer.toParent * toPixels
        // Local points have z = 0, so only rows 1, 2, 4 and columns 1, 2, 4 matter.
        let forward = Matrix3(m.m11, m.m12, m.m14, m.m21, m.m22, m.m24, m.m41, m.m42, m.m44)
        guard let inverse = forward.inverse else { return nil }
        // Seen from the back: the local rectangle reaches the pixels mirrored. Where the homogeneous W is
        // positive (in front of the eye, all that is drawn) the projection's Jacobian determinant is
        // det(forward) / W^3, so the sign of det(forward) tells the winding of everything visible.
        if !layer.isDoubleSided && forward.determinant < 0 { return nil }

        // Clip the quad at the eye (Q > 0) and project what is left.
        let corners = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)].map { forward.apply($0.0, $0.1) }
        let outline = Self.clipInFront(corners).map { Point($0.0 / $0.2, $0.1 / $0.2) }
        guard outline.count >= 3, Self.area(outline) > 1e-6 else { return nil }
        let affine = abs(forward.c) < 1e-12 && abs(forward.f) < 1e-12
        // Pixels whose centre lies within `margin` of the outline: coverage reaches half a pixel past an edge,
        // and up to 0.71 pixel past a corner that is not axis-aligned.
        let axisAligned = affine && abs(forward.b) < 1e-12 && abs(forward.d) < 1e-12
        let margin = axisAligned ? 0.5 : 0.75
        let xs = outline.map(\.x), ys = outline.map(\.y)
        let bounds = PixelBounds(x0: Self.clampedInt((xs.min()! - margin - 0.5).rounded(.down)) + 1,
                                 y0: Self.clampedInt((ys.min()! - margin - 0.5).rounded(.down)) + 1,
                                 x1: Self.clampedInt((xs.max()! + margin - 0.5).rounded(.up)),
                                 y1: Self.clampedInt((ys.max()! + margin - 0.5).rounded(.up))).intersection(frameBounds)
        guard !bounds.isEmpty else { return nil }

        // For affine maps, scale the inverse so Q is exactly 1; with perspective Q = 1/W stays positive in
        // front of the eye and negative behind it.
        let pixelToLocal = affine ? inverse.scaled(by: 1 / inverse.i) : inverse

        let opaqueContent: Bool
        let source: Source
        let showsOverlay = layer.overlay.map { $0.opacity > 0 && ($0.startColor.alpha > 0 || $0.endColor.alpha > 0) } ?? false
        switch layer.content {
        case let .color(colour):
            // Components held to 0...1 here, once, for every backend (`Color.clamped`). A clear layer with an
            // overlay is a gradient layer: only the overlay shows.
            let c = colour.clamped
            guard c.alpha > 0 || showsOverlay else { return nil }
            source = .color(r: c.red * c.alpha, g: c.green * c.alpha, b: c.blue * c.alpha, a: c.alpha)
            opaqueContent = c.alpha >= 1
        case let .snapshot(id, rect):
            let info = snapshots[id.rawValue]
            let kx = Double(info.width) / frame.width, ky = Double(info.height) / frame.height
            let minX = rect.minX * kx, minY = rect.minY * ky, maxX = rect.maxX * kx, maxY = rect.maxY * ky
            // Texel indices (centres at i + 0.5) reachable inside the sub-rectangle.
            let loX = min(max(minX, 0), Double(info.width - 1)), hiX = min(max(maxX - 1, loX), Double(info.width - 1))
            let loY = min(max(minY, 0), Double(info.height - 1)), hiY = min(max(maxY - 1, loY), Double(info.height - 1))
            source = .snapshot(id, TexelMap(origin: Point(minX, minY), scale: Point(rect.width * kx / w, rect.height * ky / h),
                                            clampMin: Point(loX, loY), clampMax: Point(hiX, hiY),
                                            textureWidth: info.width, textureHeight: info.height))
            opaqueContent = info.isOpaque
        }

        var overlay: Overlay?
        if let o = layer.overlay, showsOverlay {
            let p0 = Point(o.start.x * w, o.start.y * h), p1 = Point(o.end.x * w, o.end.y * h)
            let d = p1 - p0
            let len2 = d.x * d.x + d.y * d.y
            let gx = len2 > 0 ? d.x / len2 : 0, gy = len2 > 0 ? d.y / len2 : 0
            // Colours and opacity held to 0...1 (`Color.clamped`), so the premultiplied ends are too.
            let opacity = min(o.opacity, 1)
            func premultiplied(_ colour: Color) -> (Double, Double, Double, Double) {
                let c = colour.clamped
                let a = c.alpha * opacity
                return (c.red * a, c.green * a, c.blue * a, a)
            }
            overlay = Overlay(gradient: (gx, gy, -(p0.x * gx + p0.y * gy)),
                              start: premultiplied(o.startColor), end: premultiplied(o.endColor))
        }

        var mask = layer.mask
        switch mask {
        case let .circle(center, radius)?:
            // A NaN keeps nothing, as does a centre at infinity; an infinite radius about a finite centre keeps
            // everything (no mask, rather than infinities in the backends' single-precision arithmetic).
            guard radius > 0, center.x.isFinite, center.y.isFinite else { return nil }
            mask = radius.isFinite ? .circle(center: center, radius: radius) : nil
        case let .roundedRect(rect, radius)?:
            guard let held = Self.heldMaskRect(rect, radius: radius, layer: layer.bounds) else { return nil }
            mask = .roundedRect(held.rect, radius: held.radius)
        case let .sector(center, startAngle, sweep)?:
            // A sweep of 0 keeps nothing, one of a whole turn or more everything (no mask, so no seam along
            // the ray); otherwise the sector starts at its first ray counting clockwise, in 0..<2π.
            let turn = 2 * Double.pi
            guard sweep != 0, !sweep.isNaN else { return nil }
            if abs(sweep) >= turn {
                mask = nil
            } else {
                guard center.x.isFinite, center.y.isFinite, startAngle.isFinite else { return nil }
                var first = (sweep > 0 ? startAngle : startAngle + sweep).truncatingRemainder(dividingBy: turn)
                if first < 0 { first += turn }
                if first >= turn { first = 0 }  // -tiny + 2π rounds up to 2π
                mask = .sector(center: center, startAngle: first, sweep: abs(sweep))
            }
        case let .continuousRect(rect, radius)?:
            // Held so that the curve's reach fits half of each side, as a circular radius is held to it.
            guard let held = Self.heldMaskRect(rect, radius: radius * Mask.continuousReach, layer: layer.bounds) else { return nil }
            mask = .continuousRect(held.rect, radius: held.radius / Mask.continuousReach)
        case let .blurred(rect, radius, sigma)?:
            // A blur of infinite width (or a NaN) covers nothing.
            guard sigma > 0, sigma.isFinite, let held = Self.heldMaskRect(rect, radius: radius, layer: layer.bounds) else { return nil }
            mask = .blurred(held.rect, radius: held.radius, sigma: sigma)
        case nil:
            break
        }

        self.init(size: layer.bounds, localToPixel: forward, pixelToLocal: pixelToLocal, isAffine: affine,
                  outline: outline, bounds: bounds, source: source, opacity: min(layer.opacity, 1), mask: mask,
                  overlay: overlay, isOpaque: opaqueContent && layer.opacity >= 1 && mask == nil,
                  contentIsOpaque: opaqueContent)
        // What the backends read, sanitised once: an item that single precision cannot hold is not drawn.
        record = DrawItemRecord(self)
        guard record.isFinite else { return nil }
    }

    /// The whole pixels this item paints with alpha 1, when it is an opaque axis-aligned affine quad: whatever
    /// lies beneath them is overwritten, so a backend need not draw it.
    public var solidPixels: PixelBounds? {
        guard isOpaque, isAffine, abs(localToPixel.b) < 1e-12, abs(localToPixel.d) < 1e-12 else { return nil }
        let xs = outline.map(\.x), ys = outline.map(\.y)
        let r = PixelBounds(x0: Self.clampedInt((xs.min()! - 1e-6).rounded(.up)),
                            y0: Self.clampedInt((ys.min()! - 1e-6).rounded(.up)),
                            x1: Self.clampedInt((xs.max()! + 1e-6).rounded(.down)),
                            y1: Self.clampedInt((ys.max()! + 1e-6).rounded(.down)))
        return r.isEmpty ? nil : r
    }

    /// The largest length in local points of one pixel step, over the visible outline (where the map has
    /// perspective it varies; affine, it is the same everywhere): the largest singular value of the local
    /// point's pixel Jacobian.
    var largestPixelLength: Double {
        let m = pixelToLocal
        var largest = 0.0
        for p in outline {
            let (uu, vv, q) = m.apply(p.x, p.y)
            guard q > 1e-12 else { continue }
            let u = uu / q, v = vv / q
            let dudx = (m.a - u * m.c) / q, dudy = (m.d - u * m.f) / q
            let dvdx = (m.b - v * m.c) / q, dvdy = (m.e - v * m.f) / q
            let t = dudx * dudx + dudy * dudy + dvdx * dvdx + dvdy * dvdy, det = dudx * dvdy - dudy * dvdx
            largest = max(largest, ((t + max(0, t * t - 4 * det * det).squareRoot()) / 2).squareRoot())
        }
        return largest
    }

    /// Sutherland-Hodgman against the plane Q = epsilon: what of the polygon lies in front of the eye.
    static func clipInFront(_ poly: [(Double, Double, Double)]) -> [(Double, Double, Double)] {
        let epsilon = 1e-5
        var out: [(Double, Double, Double)] = []
        for k in poly.indices {
            let p = poly[k], q = poly[(k + 1) % poly.count]
            let pIn = p.2 > epsilon, qIn = q.2 > epsilon
            if pIn { out.append(p) }
            if pIn != qIn {
                let s = (epsilon - p.2) / (q.2 - p.2)
                out.append((p.0 + (q.0 - p.0) * s, p.1 + (q.1 - p.1) * s, epsilon))
            }
        }
        return out
    }

    static func area(_ poly: [Point]) -> Double {
        var sum = 0.0
        for k in poly.indices {
            let p = poly[k], q = poly[(k + 1) % poly.count]
            sum += p.x * q.y - q.x * p.y
        }
        return abs(sum) / 2
    }

    /// A rect mask as both backends can draw it, or nil when it keeps nothing. A NaN anywhere (in its
    /// origin, its sides or its radius, or an edge at infinity minus infinity) keeps nothing, as a NaN circle
    /// radius or sector sweep does; so does a side of 0 or less. An edge more than `reach` beyond the layer's
    /// bounds (four times their width plus height: infinite, 1e300) is moved in to `reach` beyond them: it
    /// clipped nothing there and clips nothing here, and the mask's coordinates stay a few layer sizes wide,
    /// which single precision (both backends' arithmetic) holds to a small fraction of a point. The radius is
    /// then held within half of each side, as ever: a corner rounded wider than the layer, on a rect that
    /// reached past `reach`, is rounded to what fits the rect so moved.
    static func heldMaskRect(_ rect: Rect, radius: Double, layer: Size) -> (rect: Rect, radius: Double)? {
        let x0 = rect.minX, x1 = rect.maxX, y0 = rect.minY, y1 = rect.maxY
        guard !radius.isNaN, x1 > x0, y1 > y0 else { return nil }  // false for any NaN
        let reach = 4 * (layer.width + layer.height)
        func held(_ t: Double, _ side: Double) -> Double { min(max(t, -reach), side + reach) }
        let hx0 = held(x0, layer.width), hx1 = held(x1, layer.width)
        let hy0 = held(y0, layer.height), hy1 = held(y1, layer.height)
        // Wholly beyond one side (both edges moved onto the same place): nothing of the layer is inside.
        guard hx1 > hx0, hy1 > hy0 else { return nil }
        let kept = Rect(hx0, hy0, hx1 - hx0, hy1 - hy0)
        return (kept, max(0, min(radius, kept.width / 2, kept.height / 2)))
    }

    static func clampedInt(_ v: Double) -> Int {
        Int(max(-1e9, min(1e9, v.isNaN ? 0 : v)))
    }
}

extension Layer {
    /// The layer that draws this layer's shadow, when it has one that shows: a colour layer over the shape
    /// (offset, and widened by `Mask.blurReach` all round) whose mask is the shape blurred, placed by a
    /// translation before this layer's own map so that it moves with it. `leastSigma` holds the blur to at
    /// least that many points.
    func shadowLayer(leastSigma: Double = 0) -> Layer? {
        guard let shadow, opacity > 0 else { return nil }
        let colour = shadow.color.clamped
        let alpha = colour.alpha * min(max(shadow.opacity, 0), 1)  // a NaN opacity is NaN: no shadow
        // A NaN or infinite radius casts nothing; one past `Shadow.maxSigma` is held to it.
        let sigma = min(max(shadow.radius * Shadow.sigmaPerRadius, leastSigma, 1e-3), Shadow.maxSigma)
        guard alpha > 0, sigma.isFinite, shadow.radius.isFinite else { return nil }
        let path = shadow.path ?? castPath
        let moved = Rect(path.rect.x + shadow.offset.x, path.rect.y + shadow.offset.y, path.rect.width, path.rect.height)
        // A NaN anywhere casts nothing; an edge past `Shadow.maxExtent` is held there (as a mask's far edge is
        // held, so that single precision keeps the coordinates), and the radius within half of each side.
        func held(_ t: Double) -> Double { min(max(t, -Shadow.maxExtent), Shadow.maxExtent) }
        let x0 = held(moved.minX), x1 = held(moved.maxX), y0 = held(moved.minY), y1 = held(moved.maxY)
        guard x1 > x0, y1 > y0, !path.cornerRadius.isNaN else { return nil }  // false for any NaN
        let shape = Rect(x0, y0, x1 - x0, y1 - y0)
        let cornerRadius = min(max(path.cornerRadius, 0), shape.width / 2, shape.height / 2)
        let reach = Mask.blurReach(sigma: sigma)
        let outer = Rect(shape.x - reach, shape.y - reach, shape.width + 2 * reach, shape.height + 2 * reach)
        return Layer(bounds: outer.size, position: Point(0, 0), anchor: Point(0, 0),
                     transform: Transform3D.translation(outer.x, outer.y) * toParent, opacity: opacity,
                     content: .color(Color(red: colour.red, green: colour.green, blue: colour.blue, alpha: alpha)),
                     mask: .blurred(Rect(reach, reach, shape.width, shape.height), radius: cornerRadius, sigma: sigma),
                     isDoubleSided: isDoubleSided)
    }

    /// The shape a layer casts when its shadow names none: its bounds, or the part of its rounded-rectangle
    /// mask within them with the mask's radius, or its circle mask.
    var castPath: ShadowPath {
        let whole = Rect(0, 0, bounds.width, bounds.height)
        switch mask {
        case let .roundedRect(rect, radius)?, let .continuousRect(rect, radius)?:
            // A continuous corner casts the circular corner of its radius (a close blur of it).
            let x0 = max(rect.minX, 0), y0 = max(rect.minY, 0)
            let x1 = min(rect.maxX, bounds.width), y1 = min(rect.maxY, bounds.height)
            guard x1 > x0, y1 > y0 else { return ShadowPath(rect: whole) }
            return ShadowPath(rect: Rect(x0, y0, x1 - x0, y1 - y0), cornerRadius: radius)  // held by `shadowLayer`
        case let .circle(center, radius)? where radius > 0 && radius.isFinite:
            return .circle(center: center, radius: radius)
        default:
            return ShadowPath(rect: whole)
        }
    }
}
