@testable import SegueImageIO
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
        var random = TestRandom(state: 0x9E37_79B9_7F4A_7C15 &+ UInt64(bpp))
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
}
