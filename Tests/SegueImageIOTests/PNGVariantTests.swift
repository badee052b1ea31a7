import CSPNG
import SegueCore
import SegueImageIO
import SegueTestSupport
import Testing

/// PNG colour types and bit depths that `PNGEncoder` never writes, made with libspng's encoder.
@Suite struct PNGVariantTests {
    @Test func gray8() throws {
        let png = try spngEncode(
            width: 4, height: 1, bitDepth: 8, colorType: SPNG_COLOR_TYPE_GRAYSCALE, samples: [0, 1, 128, 255])
        let pixmap = try ImageDecoder.decode(data: png, name: "gray.png")
        #expect(pixmap.pixels == [0, 1, 128, 255].map { Pixmap.pack(r: $0, g: $0, b: $0, a: 255) })
    }

    @Test func grayAlpha8IsPremultiplied() throws {
        let png = try spngEncode(
            width: 3, height: 1, bitDepth: 8, colorType: SPNG_COLOR_TYPE_GRAYSCALE_ALPHA,
            samples: [200, 255, 200, 128, 77, 0])
        let pixmap = try ImageDecoder.decode(data: png, name: "ga.png")
        #expect(pixmap.pixels == [
            Pixmap.pack(r: 200, g: 200, b: 200, a: 255),
            Pixmap.premultiply(r: 200, g: 200, b: 200, a: 128),
            0,
        ])
    }

    /// 16-bit samples are rounded to the nearest of 255 levels, not cut to their high byte: 0x12FF is 19 (its
    /// high byte 18), 0x3FF0 is 64 (63).
    @Test func rgba16IsRoundedToEightBits() throws {
        // 16-bit samples in host order, as libspng's SPNG_FMT_PNG expects.
        let samples: [UInt16] = [0x12FF, 0x3FF0, 0x0080, 0xFFFF, 0xC0C0, 0x4040, 0x0000, 0x8080]
        let bytes = samples.withUnsafeBytes { Array($0) }
        let png = try spngEncode(
            width: 2, height: 1, bitDepth: 16, colorType: SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, samples: bytes)
        let pixmap = try ImageDecoder.decode(data: png, name: "rgba16.png")
        #expect(close(pixmap.pixels[0], 19, 64, 0, 255), "\(rgba(pixmap.pixels[0]))")
        let expected = rgba(Pixmap.premultiply(r: 0xC0, g: 0x40, b: 0, a: 0x80))
        #expect(close(pixmap.pixels[1], expected.r, expected.g, expected.b, expected.a, tolerance: 1))
    }

    @Test func paletteWithTransparency() throws {
        let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (10, 20, 30)]
        let png = try spngEncode(
            width: 4, height: 1, bitDepth: 8, colorType: SPNG_COLOR_TYPE_INDEXED, samples: [0, 1, 2, 3],
            palette: palette, paletteAlpha: [255, 128, 0])  // entry 3 has no alpha: opaque
        let pixmap = try ImageDecoder.decode(data: png, name: "palette.png")
        #expect(pixmap.pixels == [
            Pixmap.pack(r: 255, g: 0, b: 0, a: 255),
            Pixmap.premultiply(r: 0, g: 255, b: 0, a: 128),
            0,
            Pixmap.pack(r: 10, g: 20, b: 30, a: 255),
        ])
    }

    @Test func lowBitDepthPalette() throws {
        // 2-bit indices, four pixels packed in one byte: 0, 1, 2, 3.
        let palette: [(UInt8, UInt8, UInt8)] = [(0, 0, 0), (255, 255, 255), (255, 0, 0), (0, 0, 255)]
        let png = try spngEncode(
            width: 4, height: 1, bitDepth: 2, colorType: SPNG_COLOR_TYPE_INDEXED, samples: [0b00_01_10_11],
            palette: palette)
        let pixmap = try ImageDecoder.decode(data: png, name: "palette2.png")
        #expect(pixmap.pixels == palette.map { Pixmap.pack(r: UInt32($0.0), g: UInt32($0.1), b: UInt32($0.2), a: 255) })
    }

    @Test func rgbColorKeyBecomesTransparent() throws {
        let png = try spngEncode(
            width: 2, height: 1, bitDepth: 8, colorType: SPNG_COLOR_TYPE_TRUECOLOR,
            samples: [1, 2, 3, 9, 8, 7], colorKey: (1, 2, 3))
        let pixmap = try ImageDecoder.decode(data: png, name: "key.png")
        #expect(pixmap.pixels == [0, Pixmap.pack(r: 9, g: 8, b: 7, a: 255)])
    }

    @Test func interlacedRGBA() throws {
        let width = 13, height = 11
        var random = SeededRandom()
        let samples = (0..<width * height * 4).map { _ in random.byte() }
        let png = try spngEncode(
            width: width, height: height, bitDepth: 8, colorType: SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, interlaced: true,
            samples: samples)
        #expect(png[28] == 1, "IHDR should say Adam7")
        let pixmap = try ImageDecoder.decode(data: png, name: "adam7.png")
        for i in 0..<width * height {
            let s = samples[4 * i..<4 * i + 4].map(UInt32.init)
            #expect(pixmap.pixels[i] == Pixmap.premultiply(r: s[0], g: s[1], b: s[2], a: s[3]))
        }
    }
}
