import SegueCore

// The interior of a perspective item, where coverage is exactly 1.
extension LayerShader {
    /// Fully covered pixels of a perspective item: one division per pixel, no coverage.
    func drawPerspectiveInterior(row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int) {
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
            Self.put(content, row + x, store: store, k: k)
        }
    }
}
