import CSPNG
import Foundation
import SegueCore
import SegueCPU
import SegueImageIO

/// The PNG encoder on real-looking frames, one thread: Segue's encoder (row filters chosen by a cheap
/// heuristic, libdeflate, chunks written by Segue) against the libspng encoder it replaced, at libspng's
/// level 2 as `segue render` used it. Inputs are made here, at the bench's size: a transition frame between the
/// flat sample screens, lines of text (glyph-like rectangles of varied widths, with grey edges as anti-aliased
/// text has), and a photo-like picture (smooth gradients, value noise over several octaves, grain).
enum PNGBench {
    struct Input {
        var name: String
        var pixmap: Pixmap
    }

    static func inputs(width: Int, height: Int, scale: Double, screensFrame: Pixmap) -> [Input] {
        [Input(name: "screens", pixmap: screensFrame),
         Input(name: "text", pixmap: text(width: width, height: height, scale: scale)),
         Input(name: "photo", pixmap: photo(width: width, height: height))]
    }

    /// Deterministic pseudo-random numbers (xorshift).
    struct Random {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        mutating func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    }

    /// A page of text: a title bar, then lines of words made of glyph rectangles (x-height, ascenders and
    /// descenders), dark grey on white, some lines blue (links), anti-aliased by a lighter column at each edge.
    static func text(width: Int, height: Int, scale: Double) -> Pixmap {
        var p = Pixmap(width: width, height: height, fill: Pixmap.pack(r: 255, g: 255, b: 255, a: 255))
        var random = Random()
        func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ c: UInt32) {
            for y in max(0, y0)..<min(height, y1) where x0 < x1 {
                for x in max(0, x0)..<min(width, x1) { p.pixels[y * width + x] = c }
            }
        }
        func blend(_ ink: UInt32, _ coverage: Double) -> UInt32 {
            func channel(_ shift: UInt32) -> UInt32 {
                let i = Double((ink >> shift) & 0xFF)
                return UInt32((255 + (i - 255) * coverage).rounded())
            }
            return Pixmap.pack(r: channel(0), g: channel(8), b: channel(16), a: 255)
        }
        let s = scale
        let bar = Int(56 * s)
        fill(0, 0, width, bar, Pixmap.pack(r: 246, g: 246, b: 248, a: 255))
        fill(0, bar - 1, width, bar, Pixmap.pack(r: 220, g: 220, b: 224, a: 255))
        let lineHeight = Int(22 * s), xHeight = Int(8 * s), ascender = Int(12 * s), descender = Int(4 * s)
        let margin = Int(48 * s)
        var y = bar + Int(24 * s)
        while y + lineHeight < height - Int(16 * s) {
            let link = random.int(0...9) == 0
            let ink = link ? Pixmap.pack(r: 26, g: 95, b: 200, a: 255) : Pixmap.pack(r: 40, g: 40, b: 44, a: 255)
            let lineEnd = width - margin - (random.int(0...4) == 0 ? random.int(0...(width / 2)) : 0)
            var x = margin
            let base = y + ascender
            while x < lineEnd {
                let letters = random.int(1...9)
                for _ in 0..<letters {
                    let w = Int(Double(random.int(3...8)) * s)
                    let kind = random.int(0...5)
                    let top = kind == 0 ? base - ascender : base - xHeight
                    let bottom = kind == 1 ? base + descender : base
                    let stem = max(1, Int(1.5 * s))
                    // A glyph: two stems and a bar, edges at partial coverage.
                    fill(x, top, x + stem, bottom, ink)
                    fill(x + w - stem, top + (kind == 2 ? xHeight / 2 : 0), x + w, bottom, ink)
                    fill(x, top, x + w, top + stem, ink)
                    fill(x - 1, top, x, bottom, blend(ink, 0.35))
                    fill(x + w, top, x + w + 1, bottom, blend(ink, 0.2))
                    x += w + max(1, Int(1.2 * s))
                }
                x += Int(Double(random.int(4...6)) * s)  // a space
            }
            if link { fill(margin, base + 2, min(x, lineEnd), base + 3, ink) }
            y += lineHeight
            if random.int(0...7) == 0 { y += lineHeight / 2 }  // a paragraph break
        }
        return p
    }

    /// A photo-like picture: a sky-to-ground gradient, value noise over five octaves, and grain of +-3.
    static func photo(width: Int, height: Int) -> Pixmap {
        var random = Random(state: 0x9E37_79B9_7F4A_7C15)
        let lattice = 257
        let values = (0..<(lattice * lattice)).map { _ in random.unit() }
        func noise(_ x: Double, _ y: Double) -> Double {
            let xi = Int(x) % (lattice - 1), yi = Int(y) % (lattice - 1)
            let fx = x - x.rounded(.down), fy = y - y.rounded(.down)
            let sx = fx * fx * (3 - 2 * fx), sy = fy * fy * (3 - 2 * fy)
            let a = values[yi * lattice + xi], b = values[yi * lattice + xi + 1]
            let c = values[(yi + 1) * lattice + xi], d = values[(yi + 1) * lattice + xi + 1]
            return (a + (b - a) * sx) * (1 - sy) + (c + (d - c) * sx) * sy
        }
        var p = Pixmap(width: width, height: height)
        for y in 0..<height {
            let v = Double(y) / Double(height)
            for x in 0..<width {
                let u = Double(x) / Double(width)
                var n = 0.0, amplitude = 0.5, frequency = 4.0
                for _ in 0..<5 {
                    n += amplitude * noise(u * frequency * 1.7, v * frequency)
                    amplitude *= 0.5; frequency *= 2
                }
                let grain = Double(Int(random.next() % 7) - 3)
                func byte(_ value: Double) -> UInt32 { UInt32(min(255, max(0, value + grain)).rounded()) }
                let r = byte(60 + 120 * v + 90 * n), g = byte(110 + 60 * v + 80 * n - 30 * u), b = byte(200 - 120 * v + 40 * n)
                p.pixels[y * width + x] = Pixmap.pack(r: r, g: g, b: b, a: 255)
            }
        }
        return p
    }

    /// The libspng encoder as Segue used it before its own (libspng 0.7.3; level 2 restricted the per-row filter
    /// choice to None, Sub and Up), kept here as the reference the new encoder is measured against.
    static func encodeWithLibspng(_ pixmap: Pixmap, level: Int) throws -> [UInt8] {
        guard let ctx = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else { throw BenchError("spng_ctx_new") }
        defer { spng_ctx_free(ctx) }
        let opaque = pixmap.isOpaque
        var samples: [UInt8]
        if opaque {
            samples = [UInt8](repeating: 0, count: pixmap.width * pixmap.height * 3)
            for (i, p) in pixmap.pixels.enumerated() {
                samples[3 * i] = UInt8(truncatingIfNeeded: p)
                samples[3 * i + 1] = UInt8(truncatingIfNeeded: p >> 8)
                samples[3 * i + 2] = UInt8(truncatingIfNeeded: p >> 16)
            }
        } else {
            samples = pixmap.straightRGBA()
        }
        let colorType = opaque ? SPNG_COLOR_TYPE_TRUECOLOR : SPNG_COLOR_TYPE_TRUECOLOR_ALPHA
        var ihdr = spng_ihdr(width: UInt32(pixmap.width), height: UInt32(pixmap.height), bit_depth: 8,
                             color_type: UInt8(colorType.rawValue), compression_method: 0, filter_method: 0,
                             interlace_method: UInt8(SPNG_INTERLACE_NONE.rawValue))
        spng_set_ihdr(ctx, &ihdr)
        spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1)
        spng_set_option(ctx, SPNG_IMG_COMPRESSION_LEVEL, Int32(level))
        if level <= 2 {
            let cheap = level == 0
                ? SPNG_FILTER_CHOICE_NONE.rawValue
                : SPNG_FILTER_CHOICE_NONE.rawValue | SPNG_FILTER_CHOICE_SUB.rawValue | SPNG_FILTER_CHOICE_UP.rawValue
            spng_set_option(ctx, SPNG_FILTER_CHOICE, Int32(cheap))
        }
        let rc = samples.withUnsafeBytes {
            spng_encode_image(ctx, $0.baseAddress, $0.count, Int32(SPNG_FMT_PNG.rawValue), Int32(SPNG_ENCODE_FINALIZE.rawValue))
        }
        guard rc == 0 else { throw BenchError("libspng: \(String(cString: spng_strerror(rc)))") }
        var length = 0, error: Int32 = 0
        guard let buffer = spng_get_png_buffer(ctx, &length, &error) else { throw BenchError("libspng: no buffer") }
        defer { free(buffer) }
        return [UInt8](UnsafeRawBufferPointer(start: buffer, count: length))
    }

    struct Figure {
        var input: String
        var encoder: String
        var level: Int
        var ms: (Double, Double, Double)
        var bytes: Int
    }

    /// Each input through the old encoder at level 2 and the new one at `levels`, one thread; every new
    /// encoding is decoded and compared with its input (a mismatch stops the bench).
    static func measure(_ inputs: [Input], levels: [Int], runs: Int) throws -> [Figure] {
        var figures: [Figure] = []
        for input in inputs {
            var old: [UInt8] = []
            let t = try time(runs: runs, frames: 1) { old = try encodeWithLibspng(input.pixmap, level: 2) }
            figures.append(Figure(input: input.name, encoder: "libspng", level: 2, ms: t, bytes: old.count))
            for level in levels {
                var png: [UInt8] = []
                let t = try time(runs: runs, frames: 1) { png = try PNGEncoder.encode(input.pixmap, compressionLevel: level) }
                guard try ImageDecoder.decodePNG(data: png, name: "\(input.name).png") == input.pixmap else {
                    throw BenchError("PNG level \(level) of '\(input.name)' does not decode to its pixels")
                }
                figures.append(Figure(input: input.name, encoder: "segue", level: level, ms: t, bytes: png.count))
            }
        }
        return figures
    }
}
