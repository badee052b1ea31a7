import SegueCore
@testable import SegueCPU
import SegueTestSupport
import Testing

/// Four bilinear samples at once give what one at a time gives, bit for bit.
@Suite struct BilinearQuadTests {
    @Test func fourAtOnceEqualOneAtATime() {
        var pixmap = Pixmap(width: 37, height: 23)
        var random = SeededRandom(seed: 0x2545_F491_4F6C_DD1D)
        func next() -> UInt64 { random.next() }
        // Premultiplied: no channel above alpha.
        for k in 0..<pixmap.pixels.count {
            let alpha = UInt32(next() % 256)
            let channel = { UInt32(next() % UInt64(alpha + 1)) }
            pixmap.pixels[k] = Pixmap.pack(r: channel(), g: channel(), b: channel(), a: alpha)
        }
        let texture = Texture(pixmap)
        let texels = UnsafePointer(texture.base)
        let highX = Int64(pixmap.width - 1) << 32, highY = Int64(pixmap.height - 1) << 32
        var differing = 0
        for n in 0..<20_000 {
            var quad = BilinearQuad()
            var expected = SIMD4<UInt32>()
            for j in 0..<4 {
                // Whole-texel and edge positions as often as any other.
                var fx = Int64(next() % UInt64(highX + 1)), fy = Int64(next() % UInt64(highY + 1))
                switch (n + j) % 5 {
                case 0: fx &= ~0xFFFF_FFFF
                case 1: fy &= ~0xFFFF_FFFF
                case 2: fx = highX
                case 3: fy = highY
                default: break
                }
                quad.gather(j, texels, texture.width, texture.height, fx, fy)
                expected[j] = LayerShader.bilinear(texels, texture.width, texture.height, fx, fy)
            }
            if quad.pixels != expected { differing += 1 }
        }
        #expect(differing == 0, "\(differing) of 20000 quads differ")
    }
}
