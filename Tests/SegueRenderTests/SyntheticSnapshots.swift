import Foundation
import SegueCore

/// Snapshots drawn by code, busy enough that a wrong sample, edge or blend shows: gradients, stripes, a
/// checkerboard, "text" made of small blocks, and (in `to`) a translucent band and a transparent hole.
enum SyntheticSnapshots {
    /// The `from` screen: a diagonal gradient with stripes, a checker card and text-like rows.
    static func from(width: Int, height: Int) -> Pixmap {
        var p = Pixmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                var r = UInt32(x * 255 / max(1, width - 1)), g = UInt32(y * 255 / max(1, height - 1))
                var b = UInt32((x + y) % 64 * 4)
                if (x / 3) % 5 == 0 { r = 255 - r }  // thin vertical stripes
                if x > width / 5 && x < width * 4 / 5 && y > height / 8 && y < height / 3 {
                    let on = ((x / 4) + (y / 4)) % 2 == 0
                    (r, g, b) = on ? (250, 250, 245) : (20, 30, 90)
                }
                if textBlock(x, y, top: height / 2, width: width, height: height) { (r, g, b) = (10, 10, 10) }
                p[x, y] = Pixmap.pack(r: r, g: g, b: b, a: 255)
            }
        }
        return p
    }

    /// The `to` screen: concentric rings and horizontal stripes, text-like rows, a band at alpha 128 and a
    /// fully transparent hole (premultiplied, as snapshots are).
    static func to(width: Int, height: Int) -> Pixmap {
        var p = Pixmap(width: width, height: height)
        let cx = Double(width) * 0.3, cy = Double(height) * 0.6
        for y in 0..<height {
            for x in 0..<width {
                let d = ((Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy)).squareRoot()
                var r = UInt32(128 + 127 * sin(d / 3)), g = UInt32(y % 8 < 4 ? 200 : 40), b = UInt32(255 - x * 200 / max(1, width))
                var a: UInt32 = 255
                if textBlock(x, y, top: height / 6, width: width, height: height) { (r, g, b) = (240, 240, 240) }
                if y > height * 3 / 4 && y < height * 3 / 4 + max(2, height / 10) { a = 128 }
                if x > width * 3 / 4 && y < height / 10 { a = 0 }
                p[x, y] = Pixmap.premultiply(r: r, g: g, b: b, a: a)
            }
        }
        return p
    }

    /// Rows of short dark words: 3-pixel-high glyph blocks separated by gaps, like a paragraph of text.
    private static func textBlock(_ x: Int, _ y: Int, top: Int, width: Int, height: Int) -> Bool {
        let line = max(6, height / 25)
        guard y >= top, y < top + 5 * line, x >= width / 10, x < width * 9 / 10 else { return false }
        let row = (y - top) / line, inLine = (y - top) % line
        guard inLine >= 1, inLine <= line / 2 + 1 else { return false }
        let word = (x + row * 7) % 23
        return word < 17 && (x + row) % 3 != 0
    }
}
