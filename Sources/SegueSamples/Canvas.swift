import SegueCore

/// A small painter for the built-in sample screens: antialiased rounded rectangles, circles and vertical
/// gradients, composited source-over into a premultiplied RGBA8 pixmap. Coordinates are in points; `scale`
/// gives pixels per point.
struct Canvas {
    private(set) var pixmap: Pixmap
    let scale: Double

    init(width: Int, height: Int, scale: Double, background: Color) {
        pixmap = Pixmap(width: width, height: height, fill: background.premultipliedPixel)
        self.scale = scale
    }

    /// Fills a rounded rectangle (radius in points) with `color`, or with a vertical gradient to `bottom`.
    mutating func fill(_ rect: Rect, radius: Double = 0, _ color: Color, to bottom: Color? = nil) {
        let x0 = rect.minX * scale, y0 = rect.minY * scale, x1 = rect.maxX * scale, y1 = rect.maxY * scale
        let r = min(radius * scale, (x1 - x0) / 2, (y1 - y0) / 2)
        let cx = (x0 + x1) / 2, cy = (y0 + y1) / 2, hx = (x1 - x0) / 2 - r, hy = (y1 - y0) / 2 - r
        let width = pixmap.width
        // On a screen only a few pixels wide, a rectangle may lie wholly off the canvas or have no area.
        let top = max(0, Int(y0.rounded(.down))), bottomRow = min(pixmap.height, Int(y1.rounded(.up)))
        let left = max(0, Int(x0.rounded(.down))), right = min(width, Int(x1.rounded(.up)))
        guard x1 > x0, y1 > y0, top < bottomRow, left < right else { return }
        let rows = top..<bottomRow, cols = left..<right
        pixmap.pixels.withUnsafeMutableBufferPointer { px in
            for y in rows {
                let py = Double(y) + 0.5
                let t = (py - y0) / max(1, y1 - y0)
                let c = bottom.map { b in
                    Color(red: lerp(color.red, b.red, t), green: lerp(color.green, b.green, t),
                          blue: lerp(color.blue, b.blue, t), alpha: lerp(color.alpha, b.alpha, t))
                } ?? color
                let pixel = c.premultipliedPixel
                // y is a row of the pixmap: y * width is within its pixel count.
                let line = px.baseAddress.unsafelyUnwrapped + y &* width
                for x in cols {
                    let qx = abs(Double(x) + 0.5 - cx) - hx, qy = abs(py - cy) - hy
                    let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
                    let distance = outside + min(max(qx, qy), 0) - r
                    let coverage = min(max(0.5 - distance, 0), 1)
                    if coverage <= 0 { continue }
                    let src = coverage >= 1 ? pixel : Self.scaled(pixel, coverage)
                    line[x] = Self.over(src, line[x])
                }
            }
        }
    }

    mutating func circle(center: Point, radius: Double, _ color: Color) {
        fill(Rect(center.x - radius, center.y - radius, 2 * radius, 2 * radius), radius: radius, color)
    }

    @inline(__always)
    private static func scaled(_ p: UInt32, _ k: Double) -> UInt32 {
        @inline(__always) func ch(_ s: UInt32) -> UInt32 { UInt32((Double(p >> s & 0xFF) * k).rounded()) << s }
        return ch(0) | ch(8) | ch(16) | ch(24)
    }

    @inline(__always)
    private static func over(_ s: UInt32, _ d: UInt32) -> UInt32 {
        // An opaque source: each channel below is min(255, s + round(d * 0 / 255)) = s.
        if s >> 24 == 255 { return s }
        let ia = 255 - Double(s >> 24)
        // Two bytes' sum: no overflow.
        @inline(__always) func ch(_ sh: UInt32) -> UInt32 {
            min(255, (s >> sh & 0xFF) &+ UInt32((Double(d >> sh & 0xFF) * ia / 255).rounded())) << sh
        }
        return ch(0) | ch(8) | ch(16) | ch(24)
    }
}
