import SegueCore
import SegueImageIO
import SegueTestSupport
import Testing

@Suite struct PNGRoundTripTests {
    /// A premultiplied image exercising every alpha level and colour values up to alpha.
    static func translucentImage(width: Int = 64, height: Int = 48) -> Pixmap {
        var random = SeededRandom()
        var pixmap = Pixmap(width: width, height: height)
        for i in 0..<pixmap.pixels.count {
            let a = UInt32(i % 256)
            pixmap.pixels[i] = Pixmap.premultiply(
                r: UInt32(random.byte()), g: UInt32(random.byte()), b: UInt32(random.byte()), a: a)
        }
        return pixmap
    }

    @Test func translucentImageRoundTripsExactly() throws {
        let original = Self.translucentImage()
        let png = try PNGEncoder.encode(original)
        #expect(png[25] == 6, "colour type should be RGBA")
        let decoded = try ImageDecoder.decode(data: png, name: "rgba.png")
        #expect(decoded == original)
    }

    @Test func opaqueImageIsWrittenAsRGB() throws {
        var random = SeededRandom()
        var original = Pixmap(width: 33, height: 17)
        for i in 0..<original.pixels.count {
            original.pixels[i] = Pixmap.pack(
                r: UInt32(random.byte()), g: UInt32(random.byte()), b: UInt32(random.byte()), a: 255)
        }
        let png = try PNGEncoder.encode(original)
        #expect(png[24] == 8 && png[25] == 2, "8-bit RGB expected")
        #expect(try ImageDecoder.decode(data: png, name: "rgb.png") == original)
    }

    @Test(arguments: [0, 1, 2, 6, 9])
    func everyCompressionLevelDecodes(level: Int) throws {
        let original = Self.translucentImage(width: 40, height: 30)
        let png = try PNGEncoder.encode(original, compressionLevel: level)
        #expect(try ImageDecoder.decodePNG(data: png, name: "level.png") == original)
    }

    @Test func roundTripThroughAFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let original = Self.translucentImage(width: 10, height: 10)
        let path = directory.file("frame.png")
        try FileWriter.writeAtomically(try PNGEncoder.encode(original), to: path)
        #expect(try ImageDecoder.decode(contentsOf: path) == original)
    }

    @Test func emptyPixmapCannotBeEncoded() {
        let message = thrownMessage { try PNGEncoder.encode(Pixmap(width: 0, height: 5)) }
        #expect(message?.contains("cannot encode PNG") == true)
    }
}
