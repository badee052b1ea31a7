/// An image in the one pixel format Segue uses everywhere: **premultiplied RGBA8**, rows top to bottom,
/// no padding between rows.
///
/// Each pixel is one `UInt32` whose bytes in memory are R, G, B, A (so on a little-endian machine the value
/// is `r | g << 8 | b << 16 | a << 24`). Colour channels are already multiplied by alpha: `r, g, b <= a`.
/// Values are 8-bit sRGB with no linearisation, as Core Animation composites them.
public struct Pixmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt32]

    /// A pixmap filled with one premultiplied pixel value (transparent black by default).
    public init(width: Int, height: Int, fill: UInt32 = 0) {
        precondition(width >= 0 && height >= 0, "negative pixmap size")
        self.width = width
        self.height = height
        self.pixels = [UInt32](repeating: fill, count: width * height)
    }

    /// Wraps pixels that are already premultiplied RGBA8.
    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(pixels.count == width * height, "pixel count does not match size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// This pixmap in a larger `width` x `height` one, its last column and last row repeated into what it adds
    /// (a video's pad, which then shows the frame's edge).
    public func edgeExtended(width newWidth: Int, height newHeight: Int) -> Pixmap {
        guard newWidth >= width, newHeight >= height, width > 0, height > 0 else { return self }
        var out = [UInt32]()
        out.reserveCapacity(newWidth * newHeight)
        for y in 0..<newHeight {
            let row = pixels[min(y, height - 1) * width ..< min(y, height - 1) * width + width]
            out += row
            out += repeatElement(row.last!, count: newWidth - width)
        }
        return Pixmap(width: newWidth, height: newHeight, pixels: out)
    }

    public var byteCount: Int { width * height * 4 }

    public subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// True when every pixel has alpha 255.
    public var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { buffer in
            var all: UInt32 = 0xFF00_0000
            for p in buffer { all &= p }
            return all & 0xFF00_0000 == 0xFF00_0000
        }
    }
}

extension Pixmap {
    /// Packs premultiplied channel values into one pixel.
    @inline(__always)
    public static func pack(r: UInt32, g: UInt32, b: UInt32, a: UInt32) -> UInt32 {
        r | g << 8 | b << 16 | a << 24
    }

    /// Premultiplies a straight-alpha RGBA8 pixel, rounding to nearest.
    @inline(__always)
    public static func premultiply(r: UInt32, g: UInt32, b: UInt32, a: UInt32) -> UInt32 {
        if a == 255 { return pack(r: r, g: g, b: b, a: 255) }
        func mul(_ c: UInt32) -> UInt32 { let t = c * a + 128; return (t + (t >> 8)) >> 8 }
        return pack(r: mul(r), g: mul(g), b: mul(b), a: a)
    }

    /// The straight-alpha bytes (R, G, B, A) of a premultiplied pixel, rounding to nearest.
    @inline(__always)
    public static func unpremultiply(_ p: UInt32) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let a = p >> 24
        let r = p & 0xFF, g = (p >> 8) & 0xFF, b = (p >> 16) & 0xFF
        if a == 255 { return (UInt8(r), UInt8(g), UInt8(b), 255) }
        if a == 0 { return (0, 0, 0, 0) }
        // c and a are bytes (0 < a < 255 here): c * 255 + a / 2 cannot overflow, the quotient is clamped to a byte.
        func div(_ c: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: min(255, (c &* 255 &+ a / 2) / a)) }
        return (div(r), div(g), div(b), UInt8(a))
    }

    /// Straight-alpha RGBA bytes of the whole image, row by row. An opaque image (every output frame, over
    /// its opaque background) is already straight: its bytes are copied as they are.
    public func straightRGBA() -> [UInt8] {
        if isOpaque { return pixels.withUnsafeBytes { Array($0) } }
        var out = [UInt8](repeating: 0, count: byteCount)
        out.withUnsafeMutableBufferPointer { dst in
            pixels.withUnsafeBufferPointer { src in
                // Four bytes out per pixel in: `out` holds byteCount = 4 * pixels.count.
                guard var d = dst.baseAddress else { return }
                for p in src {
                    let (r, g, b, a) = Pixmap.unpremultiply(p)
                    d[0] = r; d[1] = g; d[2] = b; d[3] = a
                    d += 4
                }
            }
        }
        return out
    }
}
