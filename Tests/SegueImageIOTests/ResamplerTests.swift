import SegueCore
import SegueImageIO
import Testing

@Suite struct ResamplerTests {
    @Test(arguments: [(91, 17), (10, 50), (37, 23), (1, 1), (200, 3)])
    func constantImageStaysConstant(width: Int, height: Int) {
        let fill = Pixmap.pack(r: 100, g: 50, b: 25, a: 200)
        let result = Resampler.resample(Pixmap(width: 37, height: 23, fill: fill), width: width, height: height)
        #expect(result.width == width && result.height == height)
        #expect(result.pixels.allSatisfy { $0 == fill })
    }

    @Test func sameSizeIsUnchanged() {
        let pixmap = PNGRoundTripTests.translucentImage(width: 9, height: 7)
        #expect(Resampler.resample(pixmap, width: 9, height: 7) == pixmap)
    }

    @Test func halvingACheckerboardGivesMidGrey() {
        var board = Pixmap(width: 64, height: 64)
        for y in 0..<64 {
            for x in 0..<64 { board[x, y] = (x + y) % 2 == 0 ? 0xFFFF_FFFF : 0xFF00_0000 }
        }
        let half = Resampler.resample(board, width: 32, height: 32)
        #expect(half.pixels.allSatisfy { close($0, 128, 128, 128, 255, tolerance: 1) }, "\(rgba(half.pixels[0]))")
    }

    @Test(arguments: [(23, 11), (150, 90), (61, 200)])
    func premultipliedInvariantHolds(width: Int, height: Int) {
        // Hard edges between opaque white and transparent pixels make Catmull-Rom overshoot.
        var pixmap = PNGRoundTripTests.translucentImage(width: 61, height: 45)
        for i in stride(from: 0, to: pixmap.pixels.count, by: 3) { pixmap.pixels[i] = i % 2 == 0 ? 0xFFFF_FFFF : 0 }
        let result = Resampler.resample(pixmap, width: width, height: height)
        #expect(result.pixels.allSatisfy { let c = rgba($0); return c.r <= c.a && c.g <= c.a && c.b <= c.a })
    }

    @Test func upscalingKeepsSharpStepsInPlace() {
        // Left half black, right half white; doubled, the step stays in the middle and ends stay pure.
        var pixmap = Pixmap(width: 8, height: 1, fill: 0xFF00_0000)
        for x in 4..<8 { pixmap[x, 0] = 0xFFFF_FFFF }
        let wide = Resampler.resample(pixmap, width: 16, height: 2)
        #expect(wide[0, 0] == 0xFF00_0000 && wide[15, 1] == 0xFFFF_FFFF)
        #expect(rgba(wide[7, 0]).r < 128 && rgba(wide[8, 0]).r > 128)
    }

    @Test func emptySizes() {
        #expect(Resampler.resample(Pixmap(width: 4, height: 4), width: 0, height: 3).pixels.isEmpty)
    }
}
