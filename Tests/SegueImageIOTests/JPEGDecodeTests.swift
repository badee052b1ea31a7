import CTurboJPEG
import SegueCore
import SegueImageIO
import SegueTestSupport
import Testing

@Suite struct JPEGDecodeTests {
    /// 64 × 64 in four flat quadrants: red, green / blue, grey.
    static let quadrants: [(UInt8, UInt8, UInt8)] = [(220, 30, 40), (40, 200, 60), (30, 50, 210), (128, 128, 128)]

    static func quadrantJPEG(subsampling: TJSAMP = TJSAMP_444) throws -> [UInt8] {
        let rgb = rgbImage(width: 64, height: 64) { x, y in quadrants[(y / 32) * 2 + x / 32] }
        return try jpegEncode(width: 64, height: 64, pixels: rgb, format: TJPF_RGB, subsampling: subsampling)
    }

    @Test(arguments: [TJSAMP_444, TJSAMP_420])
    func colorsSurviveApproximately(subsampling: TJSAMP) throws {
        let pixmap = try ImageDecoder.decode(data: try Self.quadrantJPEG(subsampling: subsampling), name: "q.jpg")
        #expect(pixmap.width == 64 && pixmap.height == 64)
        for (i, c) in Self.quadrants.enumerated() {
            let p = pixmap[16 + 32 * (i % 2), 16 + 32 * (i / 2)]
            #expect(close(p, Int(c.0), Int(c.1), Int(c.2), tolerance: 4), "quadrant \(i): \(rgba(p))")
        }
        #expect(pixmap.isOpaque)
    }

    @Test func grayscaleJPEG() throws {
        let gray = [UInt8](repeating: 90, count: 16 * 16)
        let jpeg = try jpegEncode(width: 16, height: 16, pixels: gray, format: TJPF_GRAY, subsampling: TJSAMP_GRAY)
        let pixmap = try ImageDecoder.decode(data: jpeg, name: "gray.jpg")
        #expect(pixmap.pixels.allSatisfy { close($0, 90, 90, 90, tolerance: 2) })
    }

    @Test func adobeCMYKIsConvertedToRGB() throws {
        // TurboJPEG writes YCCK with an Adobe marker, whose CMYK values are inverted (255 = no ink):
        // no cyan, full magenta, no yellow, no black -> magenta; half black on white -> mid grey.
        var cmyk: [UInt8] = []
        for y in 0..<16 {
            for _ in 0..<16 { cmyk += y < 8 ? [255, 0, 255, 255] : [255, 255, 255, 128] }
        }
        let jpeg = try jpegEncode(width: 16, height: 16, pixels: cmyk, format: TJPF_CMYK)
        let pixmap = try ImageDecoder.decode(data: jpeg, name: "cmyk.jpg")
        #expect(close(pixmap[4, 2], 255, 0, 255, tolerance: 4), "\(rgba(pixmap[4, 2]))")
        #expect(close(pixmap[4, 13], 128, 128, 128, tolerance: 4), "\(rgba(pixmap[4, 13]))")
    }

    /// `jpeg` with an APP1 Exif segment (big-endian TIFF, one IFD0 entry) inserted after SOI.
    static func withOrientation(_ jpeg: [UInt8], _ orientation: UInt8) -> [UInt8] {
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8,  // "MM", 42, IFD0 at 8
                             0, 1,  // one entry
                             0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0,  // Orientation, SHORT, 1
                             0, 0, 0, 0]  // no next IFD
        let payload = Array("Exif\0\0".utf8) + tiff
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg[2...]
    }

    /// 32 × 16, left half red and right half blue, rotated by its EXIF tag.
    @Test(arguments: [
        (UInt8(1), 32, 16, "red", "blue"),  // (orientation, width, height, colour of top-left, bottom-right)
        (3, 32, 16, "blue", "red"),
        (6, 16, 32, "red", "blue"),  // 90° clockwise: the left half becomes the top
        (8, 16, 32, "blue", "red"),
    ])
    func exifOrientationIsApplied(orientation: UInt8, width: Int, height: Int, topLeft: String, bottomRight: String)
        throws
    {
        let rgb = rgbImage(width: 32, height: 16) { x, _ in x < 16 ? (255, 0, 0) : (0, 0, 255) }
        let jpeg = Self.withOrientation(try jpegEncode(width: 32, height: 16, pixels: rgb, format: TJPF_RGB), orientation)
        let pixmap = try ImageDecoder.decode(data: jpeg, name: "exif.jpg")
        #expect(pixmap.width == width && pixmap.height == height)
        func name(_ p: UInt32) -> String { rgba(p).r > 128 ? "red" : "blue" }
        #expect(name(pixmap[2, 2]) == topLeft)
        #expect(name(pixmap[width - 3, height - 3]) == bottomRight)
    }
}
