import CTurboJPEG
import Foundation
import SegueCore
import SegueImageIO
import SegueTestSupport
import Testing

@Suite struct DecodeErrorTests {
    static func noisePNG() throws -> [UInt8] {
        var random = SeededRandom()
        var pixmap = Pixmap(width: 64, height: 64)
        for i in 0..<pixmap.pixels.count {
            pixmap.pixels[i] = Pixmap.pack(r: UInt32(random.byte()), g: UInt32(random.byte()), b: 7, a: 255)
        }
        return try PNGEncoder.encode(pixmap)
    }

    static func noiseJPEG() throws -> [UInt8] {
        var random = SeededRandom()
        let rgb = (0..<64 * 64 * 3).map { _ in random.byte() }
        return try jpegEncode(width: 64, height: 64, pixels: rgb, format: TJPF_RGB)
    }

    @Test func truncatedPNG() throws {
        let png = try Self.noisePNG()
        let message = thrownMessage { try ImageDecoder.decode(data: Array(png[..<(png.count / 2)]), name: "cut.png") }
        #expect(message?.hasPrefix("'cut.png': corrupt PNG data (libspng: ") == true, "\(message ?? "no error")")
    }

    @Test func flippedCRCBit() throws {
        var png = try Self.noisePNG()
        png[30] ^= 0x10  // inside the IHDR CRC
        let message = thrownMessage { try ImageDecoder.decode(data: png, name: "crc.png") }
        #expect(message?.hasPrefix("'crc.png': corrupt PNG data (libspng: ") == true, "\(message ?? "no error")")
        #expect(message?.lowercased().contains("crc") == true, "\(message ?? "no error")")
    }

    @Test func truncatedJPEG() throws {
        let jpeg = try Self.noiseJPEG()
        for cut in [jpeg.count / 2, 40] {
            let message = thrownMessage { try ImageDecoder.decode(data: Array(jpeg[..<cut]), name: "cut.jpg") }
            #expect(message?.hasPrefix("'cut.jpg': corrupt JPEG data (") == true, "cut at \(cut): \(message ?? "no error")")
        }
    }

    /// Signature, IHDR for `width` × `height` RGBA, a tiny IDAT and IEND, all with valid CRCs.
    static func headerOnlyPNG(width: UInt32, height: UInt32) -> [UInt8] {
        let ihdr = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", ihdr)
            + pngChunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + pngChunk("IEND", [])
    }

    @Test func hugePNGIsRefusedFromItsHeader() {
        let png = Self.headerOnlyPNG(width: 100_000, height: 100_000)
        let message = thrownMessage { try ImageDecoder.decode(data: png, name: "huge.png") }
        #expect(message == "'huge.png' is 100000x100000 pixels, over the limit of 268435456 pixels (maxPixels)")
    }

    /// What the default pixel limit (`Limits.maxPixels`, 16384 x 16384) protects: a header one row over it is
    /// refused from the header alone (the file holds no pixel data to decode), and one at it is let through to
    /// decoding (which then fails on the missing data, not on the limit). A job's own limit is where the
    /// decoder draws the line too: an image of exactly that many pixels decodes, one more pixel does not.
    @Test func thePixelLimitRefusesFromTheHeaderAndLetsTheLimitThrough() throws {
        let side = UInt32(Limits.maxSide)
        let over = thrownMessage { try ImageDecoder.decode(data: Self.headerOnlyPNG(width: side, height: side + 1), name: "over.png") }
        #expect(over == "'over.png' is \(side)x\(side + 1) pixels, over the limit of \(Limits.maxPixels) pixels (maxPixels)")
        let at = thrownMessage { try ImageDecoder.decode(data: Self.headerOnlyPNG(width: side, height: side), name: "at.png") }
        #expect(at?.hasPrefix("'at.png': corrupt PNG data") == true, "a \(side)x\(side) header: \(at ?? "decoded")")

        let png = try PNGEncoder.encode(Pixmap(width: 10, height: 10, fill: Pixmap.pack(r: 9, g: 8, b: 7, a: 255)))
        #expect(try ImageDecoder.decode(data: png, name: "ten.png", maxPixels: 100).pixels.count == 100)
        let small = thrownMessage { try ImageDecoder.decode(data: png, name: "ten.png", maxPixels: 99) }
        #expect(small == "'ten.png' is 10x10 pixels, over the limit of 99 pixels (maxPixels)")
    }

    @Test func wideImageOverASmallLimit() {
        // 100000 × 1 is over a 50000-pixel limit on one side alone (libspng's own limit fires first).
        let png = Self.headerOnlyPNG(width: 100_000, height: 1)
        let message = thrownMessage { try ImageDecoder.decode(data: png, name: "wide.png", maxPixels: 50_000) }
        #expect(message == "'wide.png' is 100000x1 pixels, over the limit of 50000 pixels (maxPixels)")
    }

    @Test func jpegOverTheLimit() throws {
        let message = thrownMessage { try ImageDecoder.decode(data: try Self.noiseJPEG(), name: "big.jpg", maxPixels: 4000) }
        #expect(message == "'big.jpg' is 64x64 pixels, over the limit of 4000 pixels (maxPixels)")
    }

    @Test func zeroWidthPNG() {
        let message = thrownMessage { try ImageDecoder.decode(data: Self.headerOnlyPNG(width: 0, height: 4), name: "zero.png") }
        #expect(message?.hasPrefix("'zero.png': corrupt PNG data") == true, "\(message ?? "no error")")
    }

    @Test func fileErrors() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let empty = try directory.write([], to: "empty.png")
        let text = try directory.write(Array("hello, world\n".utf8), to: "notes.png")
        let missing = directory.file("missing.png")

        #expect(thrownMessage { try ImageDecoder.decode(contentsOf: empty) } == "'\(empty)' is an empty file")
        #expect(thrownMessage { try ImageDecoder.decode(contentsOf: text) } == "'\(text)' is not a PNG, JPEG or HEIC image")
        #expect(thrownMessage { try ImageDecoder.decode(contentsOf: missing) } == "cannot read '\(missing)': no such file")
        #expect(
            thrownMessage { try ImageDecoder.decode(contentsOf: directory.path) }
                == "cannot read '\(directory.path)': is a directory")
    }

    @Test(.enabled(if: geteuid() != 0, "root ignores file permissions"))
    func unreadableFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = try directory.write(try Self.noisePNG(), to: "secret.png")
        chmod(path, 0)
        #expect(thrownMessage { try ImageDecoder.decode(contentsOf: path) } == "cannot read '\(path)': permission denied")
    }
}
