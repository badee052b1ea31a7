import SegueCore

// Where each draw path applies along a row: the interior, where coverage is exactly 1, and the part of
// the span a sector mask may cover.
extension LayerShader {
    /// The columns of row `y` (within its span `x0..<x1`) that this item overwrites whole, whatever lies
    /// beneath: a blit's rectangle, or the interior of an item whose interior pixels are stored
    /// (`storesFinished`: opaque content at full opacity), where edge and mask coverage are exactly 1. A
    /// masked item counts (circle-spread's disc hides the screen beneath it). None when the shortcuts are
    /// off, so the reference draws every item whole. `core` is the row's `interiorColumns` over the span.
    func opaqueCover(row y: Int, from x0: Int, to x1: Int, interior core: (Int, Int)) -> (Int, Int)? {
        guard takesShortcuts, storesFinished, x0 < x1 else { return nil }
        if case let .blit(blit) = plan {
            guard y >= blit.rect.y0, y < blit.rect.y1 else { return nil }
            let start = max(x0, blit.rect.x0), end = min(x1, blit.rect.x1)
            return start < end ? (start, end) : nil
        }
        let start = max(x0, core.0), end = min(x1, core.1)
        return start < end ? (start, end) : nil
    }

    /// `opaqueCover` with the row's interior worked out here.
    func opaqueCover(row y: Int, from x0: Int, to x1: Int) -> (Int, Int)? {
        opaqueCover(row: y, from: x0, to: x1, interior: interiorColumns(row: y, from: x0, to: x1))
    }

    /// The columns of row `y` (within `x0..<x1`) whose pixel centres are at least half a pixel inside every
    /// edge and at least `maskSlack` inside the mask: their coverage is exactly 1.
    func interior(row y: Int, from x0: Int, to x1: Int) -> (Int, Int) {
        let (first, last) = interiorColumns(row: y, from: x0, to: x1)
        let start = max(x0, first), end = min(x1, last)
        return start < end ? (start, end) : (0, 0)
    }

    /// `interior` before it is clamped to `x0..<x1`: the columns `first..<last` of row `y` whose coverage is
    /// exactly 1, empty as `(Int.max, Int.min)`. The same for any `x0..<x1` but under a sector mask, whose
    /// slack grows with the columns (`interiorFollowsColumns`); so a row works it out once for its span and
    /// each stretch of the row clamps it.
    func interiorColumns(row y: Int, from x0: Int, to x1: Int) -> (Int, Int) {
        let none = (Int.max, Int.min)
        if !affine { return perspectiveInterior(row: y) }
        let line = affineRow(y, from: x0, to: x1)
        // Inside every edge by half a pixel, then inside the mask by its slack.
        let mu = edgeMarginU, mv = edgeMarginV
        let u = line.within(line.u0, line.da, Double(minU) + mu, Double(maxU) - mu)
        let v = line.within(line.v0, line.db, Double(minV) + mv, Double(maxV) - mv)
        let edges = (max(max(-Double.infinity, u.lo), v.lo), min(min(Double.infinity, u.hi), v.hi))
        guard let (lo, hi) = mask.interior(along: line, within: edges), lo <= hi else { return none }
        // Whole pixels whose centre X = x + 0.5 lies in [lo, hi], one pixel in from each end against rounding.
        return (PixelMath.ceilIndex(lo - 0.5) &+ 1, PixelMath.floorIndex(hi - 0.5))
    }

    /// The columns of row `y` (within `x0..<x1`) the mask of an affine item may cover, and one pixel more at
    /// each end: beyond them the general function gives no coverage (it skips a pixel `maskSlack` or more
    /// outside the mask). Where the mask reaches along the row is the mask's to say (`MaskShape.reach`).
    func maskSpan(row y: Int, from x0: Int, to x1: Int) -> (Int, Int) {
        guard affine, let (lo, hi) = mask.reach(along: affineRow(y, from: x0, to: x1)) else { return (x0, x1) }
        guard lo <= hi else { return (x0, x0) }
        // Whole pixels whose centre X = x + 0.5 may lie in [lo, hi], and one more at each end.
        let start = max(x0, PixelMath.floorIndex(lo - 0.5) &- 1)
        let end = min(x1, PixelMath.ceilIndex(hi - 0.5) &+ 2)
        return (start, max(start, end))
    }

    /// Row `y` of an affine item over columns `x0..<x1`, in local terms.
    @inline(__always)
    private func affineRow(_ y: Int, from x0: Int, to x1: Int) -> AffineRow {
        let py = Double(y) + 0.5
        return AffineRow(u0: Double(d) * py + Double(g), v0: Double(e) * py + Double(h), da: Double(a), db: Double(b),
                         slack: maskSlack, x0: x0, x1: x1)
    }

    /// The interior columns of a perspective item's row, unclamped (`interiorColumns`). With Q = q0 + c X > 0, `u >= m` is `U - m Q >= 0`, linear in
    /// the pixel centre X, and so is every other edge condition. Masked perspective items take no interior.
    private func perspectiveInterior(row y: Int) -> (Int, Int) {
        let none = (Int.max, Int.min)
        guard case .none = mask, perspectiveMarginU.isFinite, perspectiveMarginV.isFinite else { return none }
        let py = Double(y) + 0.5
        let u0 = Double(d) * py + Double(g), v0 = Double(e) * py + Double(h), q0 = Double(f) * py + Double(i)
        let da = Double(a), db = Double(b), dc = Double(c)
        let mu = perspectiveMarginU, mv = perspectiveMarginV
        let lowU = Double(minU) + mu, highU = Double(maxU) - mu, lowV = Double(minV) + mv, highV = Double(maxV) - mv
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
        atLeastZero(u0 - lowU * q0, da - lowU * dc)
        atLeastZero(highU * q0 - u0, highU * dc - da)
        atLeastZero(v0 - lowV * q0, db - lowV * dc)
        atLeastZero(highV * q0 - v0, highV * dc - db)
        guard lo <= hi else { return none }
        return (PixelMath.ceilIndex(lo - 0.5) &+ 1, PixelMath.floorIndex(hi - 0.5))
    }
}

/// One row of an affine item in local terms: the pixel centre X of the row is at `(u0 + da X, v0 + db X)`,
/// over columns `x0..<x1`; `slack` is the item's `maskSlack`. A mask works out its reach and interior along it.
struct AffineRow {
    let u0, v0, da, db: Double
    let slack: Float
    let x0, x1: Int

    /// Where `(du + da X, dv + db X)`, a point of the row relative to a centre, lies within `radius` of it:
    /// between the two roots of a quadratic in `X`, everything (the row does not move in local space), or
    /// nothing.
    @inline(__always)
    func chord(_ du: Double, _ dv: Double, radius: Double) -> (lo: Double, hi: Double) {
        let qa = da * da + db * db, qb = 2 * (da * du + db * dv), qc = du * du + dv * dv - radius * radius
        if qa == 0 { return qc <= 0 ? (-.infinity, .infinity) : (.infinity, -.infinity) }
        let disc = qb * qb - 4 * qa * qc
        guard disc > 0 else { return (.infinity, -.infinity) }
        let root = disc.squareRoot()
        return ((-qb - root) / (2 * qa), (-qb + root) / (2 * qa))
    }

    /// How far the row's local points `(pu + da X, pv + db X)` stray from the origin over columns `x0..<x1`
    /// (at most): the scale of the single-precision rounding a span's margin must allow for.
    @inline(__always)
    func extent(_ pu: Double, _ pv: Double) -> Double {
        abs(pu) + abs(pv) + (abs(da) + abs(db)) * (Double(max(abs(x0), abs(x1))) + 1)
    }

    /// Where `low <= c + slope X <= high` along the row: an interval, everything, or nothing.
    @inline(__always)
    func within(_ c: Double, _ slope: Double, _ low: Double, _ high: Double) -> (lo: Double, hi: Double) {
        if slope == 0 { return c >= low && c <= high ? (-.infinity, .infinity) : (.infinity, -.infinity) }
        let p = (low - c) / slope, q = (high - c) / slope
        return (min(p, q), max(p, q))
    }

    /// Where `c + slope X >= low` along the row: a half-line, everything, or nothing.
    @inline(__always)
    func halfLine(_ c: Double, _ slope: Double, _ low: Double) -> (lo: Double, hi: Double) {
        if slope == 0 { return c >= low ? (-.infinity, .infinity) : (.infinity, -.infinity) }
        let at = (low - c) / slope
        return slope > 0 ? (at, .infinity) : (-.infinity, at)
    }
}

// Each mask's reach and interior along a row of an affine item: the mask owns where it may cover and where its
// coverage is surely 1, as it owns its coverage in `drawGeneral`.
extension LayerShader.MaskShape {
    /// Where along `row` the pixel centres (X) may be covered: an interval (which may be empty), or nil where the
    /// mask keeps the whole row (none, a sector above a half turn, a blur, whose item reaches no farther than
    /// the blur). A circle clips the row to its chord, a rounded rectangle to its box, a sector of at most a
    /// half turn to where both `ck` exceed minus the slack.
    func reach(along row: AffineRow) -> (lo: Double, hi: Double)? {
        switch self {
        case .none, .sector(_, _, _, _, _, _, true), .blurred:
            return nil
        case let .circle(cx, cy, r):
            // Within r + slack of the centre.
            let du = row.u0 - Double(cx), dv = row.v0 - Double(cy)
            return row.chord(du, dv, radius: Double(r) + Double(row.slack) + 1e-6 * row.extent(du, dv))
        case let .roundedRect(cx, cy, hx, hy, _), let .continuousRect(cx, cy, hx, hy, _):
            // Inside the rectangle widened by the slack: u and v each within an interval, linear in X.
            let slack = Double(row.slack) + 1e-6 * row.extent(row.u0, row.v0)
            let u = row.within(row.u0, row.da, Double(cx) - Double(hx) - slack, Double(cx) + Double(hx) + slack)
            let v = row.within(row.v0, row.db, Double(cy) - Double(hy) - slack, Double(cy) + Double(hy) + slack)
            return (max(u.lo, v.lo), min(u.hi, v.hi))
        case .sector:
            let c = sectorCrossings(along: row)
            let first = row.halfLine(c.c0, c.slope0, -c.slack), last = row.halfLine(c.c1, c.slope1, -c.slack)
            return (max(first.lo, last.lo), min(first.hi, last.hi))
        }
    }

    /// Where along `row`, within `edges` (where the item's edges leave coverage 1), the pixel centres are at
    /// least the slack inside the mask, so that its coverage is exactly 1: an interval (which may be empty),
    /// or nil for none.
    func interior(along row: AffineRow, within edges: (lo: Double, hi: Double)) -> (lo: Double, hi: Double)? {
        var (lo, hi) = edges
        func keep(_ c: Double, _ slope: Double, _ low: Double, _ high: Double) {
            let w = row.within(c, slope, low, high)
            lo = max(lo, w.lo); hi = min(hi, w.hi)
        }
        let (u0, v0, da, db) = (row.u0, row.v0, row.da, row.db)
        switch self {
        case .none:
            break
        case let .circle(cx, cy, r):
            let inner = Double(r - row.slack)
            guard inner > 0 else { return nil }
            let inside = row.chord(u0 - Double(cx), v0 - Double(cy), radius: inner)
            lo = max(lo, inside.lo); hi = min(hi, inside.hi)
        case let .roundedRect(cx, cy, hx, hy, r) where db == 0, let .continuousRect(cx, cy, hx, hy, r) where db == 0:
            // Unrotated, v is constant along the row, which crosses the mask less the slack (a rounded
            // rectangle of half size h - slack and radius r - slack) over one interval: between the corner
            // arcs when the row is level with the corners, else the full width less the slack.
            let slack = Double(row.slack), radius = Double(r), dy = abs(v0 - Double(cy))
            guard dy <= Double(hy) - slack else { return nil }
            let intoCorner = dy - (Double(hy) - radius)  // > 0 only when radius - slack >= intoCorner > 0
            let half = intoCorner > 0
                ? Double(hx) - radius + ((radius - slack) * (radius - slack) - intoCorner * intoCorner).squareRoot()
                : Double(hx) - slack
            keep(u0, da, Double(cx) - half, Double(cx) + half)
        case let .roundedRect(cx, cy, hx, hy, r), let .continuousRect(cx, cy, hx, hy, r):
            // The rectangle inside the rounded corners, less the slack: wholly inside the mask. (A continuous
            // corner's superellipse encloses the circular arc of its reach, so that arc's interior is inside it
            // too, by at least as much: its distance grows at most as fast as the arc's.)
            let inset = Double(max(r, row.slack))
            keep(u0, da, Double(cx) - Double(hx) + inset, Double(cx) + Double(hx) - inset)
            keep(v0, db, Double(cy) - Double(hy) + inset, Double(cy) + Double(hy) - inset)
        case let .blurred(shape):
            guard let inset = shape.interiorInset else { return nil }
            keep(u0, da, Double(shape.cx) - Double(shape.hx) + inset, Double(shape.cx) + Double(shape.hx) - inset)
            keep(v0, db, Double(shape.cy) - Double(shape.hy) + inset, Double(shape.cy) + Double(shape.hy) - inset)
        case let .sector(_, _, _, _, _, _, reflex):
            // The distance from p to ray k is at least the distance to its line, |ck|, so where both ck are
            // at least the slack the pixel is inside by at least the slack; above a half turn either is
            // enough (each ray lies wholly on the other's outer side).
            let c = sectorCrossings(along: row)
            let first = row.halfLine(c.c0, c.slope0, c.slack), last = row.halfLine(c.c1, c.slope1, c.slack)
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
        return (lo, hi)
    }

    /// A sector's cross products along `row`, linear in the pixel centre's `X`: `c0 = cross(d0, p)` is
    /// `c0 + slope0 X`, `c1 = cross(p, d1)` is `c1 + slope1 X`; and the slack widened by a margin for the
    /// single-precision rounding of the per-pixel function's products, whose points stay within the row's
    /// `extent` of the centre.
    private func sectorCrossings(along row: AffineRow) -> (c0: Double, slope0: Double, c1: Double, slope1: Double, slack: Double) {
        guard case let .sector(cx, cy, sx, sy, ex, ey, _) = self else { return (0, 0, 0, 0, 0) }
        // Along the row, p = (pu + da X, pv + db X).
        let pu = row.u0 - Double(cx), pv = row.v0 - Double(cy)
        let (da, db) = (row.da, row.db)
        let dsx = Double(sx), dsy = Double(sy), dex = Double(ex), dey = Double(ey)
        return (dsx * pv - dsy * pu, dsx * db - dsy * da, pu * dey - pv * dex, da * dey - db * dex,
                Double(row.slack) + 1e-6 * row.extent(pu, pv))
    }
}
