@testable import SegueImageIO
import SegueTestSupport
import SegueCore
import Testing

/// The row filters as written against the PNG specification's per-byte definitions, written out here:
/// random rows of 1 to 13 pixels and of 3840 and 3847, three and four bytes a pixel, bit for bit.
@Suite struct PNGFilterTests {
    /// PNG's Paeth predictor, as the specification writes it.
    static func predictor(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    static func expected(_ type: UInt8, _ cur: [UInt8], _ prev: [UInt8], _ bpp: Int) -> [UInt8] {
        cur.indices.map { i in
            let x = Int(cur[i]), a = i >= bpp ? Int(cur[i - bpp]) : 0, b = Int(prev[i]), c = i >= bpp ? Int(prev[i - bpp]) : 0
            let predicted = switch type {
            case 0: 0
            case 1: a
            case 2: b
            case 3: (a + b) / 2
            default: predictor(a, b, c)
            }
            return UInt8(truncatingIfNeeded: x - predicted)
        }
    }

    @Test(arguments: [3, 4])
    func filtersMatchTheSpecification(bpp: Int) {
        var random = SeededRandom(seed: 0x9E37_79B9_7F4A_7C15 &+ UInt64(bpp))
        for n in (Array(1...13) + [3840, 3847]).map({ $0 * bpp }) {
            // Rows with long runs and noise, so that every branch of the predictor is taken.
            let cur = (0..<n).map { i in i % 37 < 20 ? random.byte() : UInt8(truncatingIfNeeded: i / 5) }
            let prev = (0..<n).map { i in i % 23 < 11 ? random.byte() : UInt8(truncatingIfNeeded: i / 7) }
            for type: UInt8 in 0...4 {
                var out = [UInt8](repeating: 0, count: n)
                cur.withUnsafeBufferPointer { c in
                    prev.withUnsafeBufferPointer { p in
                        out.withUnsafeMutableBufferPointer { o in
                            Filters.apply(type, c.baseAddress!, p.baseAddress!, o.baseAddress!, n, bpp)
                        }
                    }
                }
                #expect(out == Self.expected(type, cur, prev, bpp), "filter \(type), \(n) bytes, \(bpp) a pixel")
            }
        }
    }

    /// Both bodies of the C kernels where this CPU runs both (the baseline's alone elsewhere).
    static let kernelBodies = RowKernels.avx2 ? [false, true] : [false]

    /// Rows of several kinds, so that each of None, Sub, Up and Paeth wins somewhere: noise, horizontal ramps
    /// (Sub), the row above again (Up), a smooth slope in both directions (Paeth) and flat rows (None on a tie).
    static func rowPairs(bytes n: Int, bpp: Int, random: inout SeededRandom) -> [(cur: [UInt8], prev: [UInt8])] {
        let noise = (0..<n).map { _ in random.byte() }, above = (0..<n).map { _ in random.byte() }
        let ramp = (0..<n).map { i in UInt8(truncatingIfNeeded: i / bpp * 3 + i % bpp * 40) }
        let slope = { (row: Int) in (0..<n).map { i in UInt8(truncatingIfNeeded: (i / bpp) * 2 + row * 5 + i % bpp * 9) } }
        let flat = [UInt8](repeating: 0, count: n)
        var bumpy = ramp
        for i in stride(from: 0, to: n, by: 7) { bumpy[i] = random.byte() }
        return [(noise, above), (ramp, noise), (above, above), (slope(1), slope(0)), (flat, flat), (bumpy, ramp)]
    }

    @Test(arguments: [3, 4])
    func kernelsMatchTheSwiftRows(bpp: Int) {
        var random = SeededRandom(seed: 0xD1B5_4A32_D192_ED03 &+ UInt64(bpp))
        var picked = Set<UInt8>(), pickedFull = Set<UInt8>()
        for width in Array(1...13) + [1920, 3847] {
            let n = width * bpp
            for (cur, prev) in Self.rowPairs(bytes: n, bpp: bpp, random: &random) {
                cur.withUnsafeBufferPointer { c in
                    prev.withUnsafeBufferPointer { p in
                        for avx2 in Self.kernelBodies {
                            for type: UInt8 in 0...4 {
                                var out = [UInt8](repeating: 0, count: n)
                                out.withUnsafeMutableBufferPointer { o in
                                    RowKernels.apply(type, c.baseAddress!, p.baseAddress!, o.baseAddress!, n, bpp, avx2: avx2)
                                }
                                let same = out == Self.expected(type, cur, prev, bpp)
                                #expect(same, "filter \(type), \(width) px, avx2 \(avx2)")
                            }
                            for firstRow in [false, true] {
                                let swift = Filters.pickSampled(c.baseAddress!, p.baseAddress!, n, bpp, firstRow: firstRow)
                                let kernel = RowKernels.pickSampled(c.baseAddress!, p.baseAddress!, n, bpp, firstRow: firstRow, avx2: avx2)
                                #expect(kernel == swift, "\(width) px, first row \(firstRow), avx2 \(avx2)")
                                if !firstRow { picked.insert(kernel) }
                                let full = RowKernels.pickFull(c.baseAddress!, p.baseAddress!, n, bpp, firstRow: firstRow, avx2: avx2)
                                #expect(full == Filters.pickFull(c.baseAddress!, p.baseAddress!, n, bpp, firstRow: firstRow),
                                        "full search, \(width) px, first row \(firstRow), avx2 \(avx2)")
                                if !firstRow { pickedFull.insert(full) }
                            }
                        }
                    }
                }
            }
            let pixels = (0..<width).map { _ in UInt32(truncatingIfNeeded: random.next()) }
            var swift = [UInt8](repeating: 0, count: width * 3)
            pixels.withUnsafeBufferPointer { src in
                swift.withUnsafeMutableBufferPointer { Rows.rgb(src.baseAddress!, width, $0.baseAddress!) }
                for avx2 in Self.kernelBodies {
                    var kernel = [UInt8](repeating: 0, count: width * 3)
                    kernel.withUnsafeMutableBufferPointer { RowKernels.rgb(src.baseAddress!, width, $0.baseAddress!, avx2: avx2) }
                    let same = kernel == swift
                    #expect(same, "rgb, \(width) px, avx2 \(avx2)")
                }
            }
        }
        // The rows reached every outcome of the search, so the comparison above covered each.
        #expect(picked == [0, 1, 2, 4], "filters picked: \(picked.sorted())")
        #expect(pickedFull.isSuperset(of: [0, 1, 2, 4]), "filters picked by the full search: \(pickedFull.sorted())")
    }

    /// Every channel value under every alpha (also those above their alpha, which no premultiplied pixel has),
    /// in runs of eight opaque and eight clear pixels as well as mixed: the straight-alpha kernel against
    /// `Pixmap.unpremultiply`, both bodies, and whole frames against `Pixmap.straightRGBA()`.
    @Test func straightAlphaKernelMatchesUnpremultiply() {
        var pixels: [UInt32] = []
        for a in 0...255 {
            for c in 0...255 {
                pixels.append(UInt32(c) | UInt32((c &* 7) & 255) << 8 | UInt32((c &* 13) & 255) << 16 | UInt32(a) << 24)
            }
        }
        pixels += (0..<24).map { 0xFF00_0000 | UInt32($0 &* 0x010203) } + [UInt32](repeating: 0, count: 16) + [0x0000_0005, 0x8040_2010]
        let width = pixels.count
        var swift = [UInt8](repeating: 0, count: 4 * width)
        pixels.withUnsafeBufferPointer { src in
            swift.withUnsafeMutableBufferPointer { Rows.straightRGBA(src.baseAddress!, width, $0.baseAddress!) }
            for avx2 in Self.kernelBodies {
                var kernel = [UInt8](repeating: 0, count: 4 * width)
                kernel.withUnsafeMutableBufferPointer { RowKernels.straightRGBA(src.baseAddress!, width, $0.baseAddress!, avx2: avx2) }
                let first = (0..<kernel.count).first { kernel[$0] != swift[$0] }
                #expect(first == nil, "avx2 \(avx2): first difference at byte \(first ?? -1) (pixel \((first ?? 0) / 4))")
            }
        }
        let frame = Pixmap(width: 256, height: pixels.count / 256, pixels: Array(pixels.prefix(pixels.count / 256 * 256)))
        let same = StraightAlpha.bytes(of: frame) == frame.straightRGBA()
        #expect(same, "a \(frame.width)x\(frame.height) frame's straight bytes")
    }
}
