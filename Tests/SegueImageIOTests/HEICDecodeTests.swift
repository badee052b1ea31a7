import CSPNG
import Foundation
import SegueCore
@testable import SegueImageIO
import SegueTestSupport
import Testing

/// HEIC input through libheif: the fixtures in Fixtures/heic/ (made by scripts/make-heic-fixtures.sh with
/// libheif's own encoder: 24x16 pixels of six flat 8x8 patches of Display P3 values, tagged by an ICC profile or an
/// nclx box, 8 and 10 bits) read as the same patches in a Display P3 PNG do, and hostile HEIC refused in one line.
@Suite struct HEICDecodeTests {
    /// The patches' stored Display P3 values, left to right, top to bottom (heic-fixtures.c's table).
    static let patches: [[Int]] = [[234, 51, 35], [117, 251, 76], [226, 180, 150], [110, 170, 230], [128, 128, 128], [60, 40, 30]]

    static func fixture(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/heic/\(name)")
        return try [UInt8](Data(contentsOf: url))
    }

    /// The same 24x16 patches as a PNG tagged with the Display P3 profile lcms2 builds.
    static func referencePNG() throws -> [UInt8] {
        var samples: [UInt8] = []
        for y in 0..<16 { for x in 0..<24 { samples += patches[(y / 8) * 3 + x / 8].map { UInt8($0) } } }
        let png = try spngEncode(width: 24, height: 16, bitDepth: 8, colorType: SPNG_COLOR_TYPE_TRUECOLOR, samples: samples)
        return ColourManagementTests.inserting(ColourManagementTests.iccpChunk(ColourProfile.displayP3.iccBytes), into: png)
    }

    /// Each patch's inner 4x4 pixels (away from the patches' edges, where HEVC's 4:2:0 chroma is shared).
    static func inner(_ pixmap: Pixmap) -> [(Int, UInt32)] {
        (0..<6).flatMap { patch in
            (2..<6).flatMap { dy in (2..<6).map { dx in
                let i = ((patch / 3) * 8 + dy) * 24 + (patch % 3) * 8 + dx
                return (patch, pixmap.pixels[i])
            } }
        }
    }

    @Test(arguments: ["p3-icc.heic", "p3-nclx.heic", "p3-nclx-10bit.heic"], [ColourSpace.srgb, .displayP3])
    func decodesAsThePNGDoes(fixture: String, space: ColourSpace) throws {
        let heic = try ImageDecoder.decode(data: try Self.fixture(fixture), name: fixture, into: space)
        let png = try ImageDecoder.decode(data: try Self.referencePNG(), name: "p3.png", into: space)
        #expect(heic.width == 24 && heic.height == 16)
        for ((patch, h), (_, p)) in zip(Self.inner(heic), Self.inner(png)) {
            let a = rgba(h), b = rgba(p)
            #expect(close(h, b.r, b.g, b.b, tolerance: 3), "\(fixture) in \(space.name), patch \(patch): \(a), the PNG's \(b)")
        }
    }

    @Test func colourFromItsBoxes() throws {
        #expect(try ImageDecoder.colour(data: try Self.fixture("p3-icc.heic"), name: "a.heic") == ImageColour(tag: .iccProfile, isSRGB: false, isWide: true))
        #expect(try ImageDecoder.colour(data: try Self.fixture("p3-nclx.heic"), name: "b.heic") == ImageColour(tag: .nclx, isSRGB: false, isWide: true))
    }

    @Test func truncatedIsRefusedInOneLine() throws {
        let heic = try Self.fixture("p3-icc.heic")
        for cut in [heic.count - 100, heic.count / 2, 40] {
            let message = thrownMessage { try ImageDecoder.decode(data: Array(heic[..<cut]), name: "cut.heic") }
            #expect(message?.hasPrefix("'cut.heic': corrupt HEIC data (libheif: ") == true, "cut at \(cut): \(message ?? "no error")")
            #expect(message?.contains("\n") == false)
        }
    }

    @Test func garbageAfterItsHeaderIsRefused() throws {
        var heic = try Self.fixture("p3-nclx.heic")
        for i in 32..<heic.count { heic[i] = UInt8(truncatingIfNeeded: i &* 151 &+ 7) }
        let message = thrownMessage { try ImageDecoder.decode(data: heic, name: "garbage.heic") }
        #expect(message?.hasPrefix("'garbage.heic': corrupt HEIC data (libheif: ") == true, "\(message ?? "no error")")
        // Not an image at all: an ftyp box of another brand is no HEIC.
        let mp4 = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array(repeating: UInt8(0), count: 16)
        #expect(thrownMessage { try ImageDecoder.decode(data: mp4, name: "x.heic") } == "'x.heic' is not a PNG, JPEG or HEIC image")
    }

    /// The size is checked from the boxes (ispe), before any pixel is decoded: the pixel limit names the size,
    /// and a side past libheif's own limit is refused by libheif in one line.
    @Test func oversizedIsRefusedBeforeDecoding() throws {
        let heic = try Self.fixture("p3-icc.heic")
        let small = thrownMessage { try ImageDecoder.decode(data: heic, name: "small.heic", maxPixels: 100) }
        #expect(small?.hasPrefix("'small.heic' is 24x16 pixels, over the limit of 100 pixels") == true, "\(small ?? "no error")")
        for (width, height) in [(20000, 20000), (100_000, 100_000)] {
            let big = Self.withImageSize(heic, width: UInt32(width), height: UInt32(height))
            let message = thrownMessage { try ImageDecoder.decode(data: big, name: "big.heic") }
            #expect(message?.hasPrefix("'big.heic") == true && message?.contains("\n") == false, "\(message ?? "no error")")
            let said = width > 32768 ? "'big.heic' is larger than libheif reads (libheif: " : "'big.heic' is \(width)x\(height) pixels, over the limit of"
            #expect(message?.hasPrefix(said) == true, "\(message ?? "no error")")
        }
    }

    /// `heic` with every `ispe` box (the image's and its tiles') saying `width` x `height`.
    static func withImageSize(_ heic: [UInt8], width: UInt32, height: UInt32) -> [UInt8] {
        var bytes = heic
        let tag = Array("ispe".utf8)
        for i in 0..<(bytes.count - 16) where Array(bytes[i..<i + 4]) == tag {
            for (k, v) in [width, height].enumerated() {
                for j in 0..<4 { bytes[i + 8 + 4 * k + j] = UInt8(truncatingIfNeeded: v >> (24 - 8 * j)) }
            }
        }
        return bytes
    }
}
