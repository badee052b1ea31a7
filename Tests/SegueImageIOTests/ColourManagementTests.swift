import CSPNG
import CTurboJPEG
import SegueCore
@testable import SegueImageIO
import SegueTestSupport
import Testing

/// Colour-managed reading: what PNG and JPEG files say about their colour is honoured (through Little CMS 2),
/// sRGB and untagged images keep their bytes, and profiles that cannot be used are refused in one line.
@Suite struct ColourManagementTests {
    /// Pure red and green of a page, as Chromium stores them in a Display P3 screenshot (issue 46).
    static let p3Samples: [UInt8] = [234, 51, 35, 117, 251, 76]

    @Test func displayP3PNGReadsAsSRGB() throws {
        let png = try Self.p3PNG(samples: Self.p3Samples)
        let pixmap = try ImageDecoder.decode(data: png, name: "p3.png")
        #expect(close(pixmap.pixels[0], 255, 0, 0, tolerance: 3), "\(rgba(pixmap.pixels[0]))")
        #expect(close(pixmap.pixels[1], 0, 255, 0, tolerance: 3), "\(rgba(pixmap.pixels[1]))")
        let colour = try ImageDecoder.colour(data: png, name: "p3.png")
        #expect(colour == ImageColour(tag: .iccProfile, isSRGB: false, isWide: true))
    }

    @Test func displayP3PNGIntoDisplayP3KeepsItsValues() throws {
        let png = try Self.p3PNG(samples: Self.p3Samples)
        let pixmap = try ImageDecoder.decode(data: png, name: "p3.png", into: .displayP3)
        #expect(close(pixmap.pixels[0], 234, 51, 35, tolerance: 1), "\(rgba(pixmap.pixels[0]))")
        #expect(close(pixmap.pixels[1], 117, 251, 76, tolerance: 1), "\(rgba(pixmap.pixels[1]))")
    }

    @Test func srgbRedIntoDisplayP3() throws {
        let png = try spngEncode(width: 2, height: 1, bitDepth: 8, colorType: SPNG_COLOR_TYPE_TRUECOLOR, samples: [255, 0, 0, 0, 255, 0])
        let pixmap = try ImageDecoder.decode(data: png, name: "red.png", into: .displayP3)
        #expect(close(pixmap.pixels[0], 234, 51, 35, tolerance: 2), "\(rgba(pixmap.pixels[0]))")
        #expect(close(pixmap.pixels[1], 117, 251, 76, tolerance: 2), "\(rgba(pixmap.pixels[1]))")
    }

    /// Untagged, the sRGB chunk, cICP 1/13 and an sRGB ICC profile: read into sRGB, every value as stored.
    @Test(arguments: ["untagged", "sRGB", "cICP", "iCCP"])
    func srgbTaggedPNGKeepsItsBytes(tag: String) throws {
        var samples: [UInt8] = []
        for i in 0..<64 { samples += [UInt8(i * 4), UInt8(255 - i * 3), UInt8((i * 37) & 0xFF), UInt8(i * 2 + 100)] }
        var png = try spngEncode(width: 8, height: 8, bitDepth: 8, colorType: SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, samples: samples)
        let untagged = try ImageDecoder.decode(data: png, name: "plain.png")
        switch tag {
        case "sRGB": png = Self.inserting(pngChunk("sRGB", [0]), into: png)
        case "cICP": png = Self.inserting(pngChunk("cICP", [1, 13, 0, 1]), into: png)
        case "iCCP": png = Self.inserting(Self.iccpChunk(ColourProfile.srgb.iccBytes), into: png)
        default: break
        }
        let pixmap = try ImageDecoder.decode(data: png, name: "tagged.png")
        #expect(pixmap.pixels == untagged.pixels)
        #expect(try ImageDecoder.colour(data: png, name: "tagged.png").isSRGB)
    }

    @Test func cicpDisplayP3IsHonoured() throws {
        let png = Self.inserting(pngChunk("cICP", [12, 13, 0, 1]), into: try spngEncode(
            width: 2, height: 1, bitDepth: 8, colorType: SPNG_COLOR_TYPE_TRUECOLOR, samples: Self.p3Samples))
        let pixmap = try ImageDecoder.decode(data: png, name: "cicp.png")
        #expect(close(pixmap.pixels[0], 255, 0, 0, tolerance: 3), "\(rgba(pixmap.pixels[0]))")
        #expect(try ImageDecoder.colour(data: png, name: "cicp.png").isWide)
    }

    @Test func cicpHDRIsRefusedInOneLine() throws {
        let png = Self.inserting(pngChunk("cICP", [9, 16, 0, 1]), into: try spngEncode(
            width: 1, height: 1, bitDepth: 8, colorType: SPNG_COLOR_TYPE_TRUECOLOR, samples: [1, 2, 3]))
        #expect { try ImageDecoder.decode(data: png, name: "pq.png") } throws: { error in
            guard case let ImageIOError.unusableColourProfile(path, reason) = error else { return false }
            return path == "pq.png" && reason.contains("transfer 16") && !"\(error)".contains("\n")
        }
    }

    /// gAMA 1/1.8 with sRGB's chromaticities: a stored 128 is 0.289 linear, which sRGB stores as 146.
    @Test func gammaAndChromaticities() throws {
        var png = try spngEncode(width: 1, height: 1, bitDepth: 8, colorType: SPNG_COLOR_TYPE_TRUECOLOR, samples: [128, 128, 128])
        let chrm = [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000].flatMap { bigEndian(UInt32($0)) }
        png = Self.inserting(pngChunk("gAMA", bigEndian(55556)) + pngChunk("cHRM", chrm), into: png)
        let pixmap = try ImageDecoder.decode(data: png, name: "gamma18.png")
        #expect(close(pixmap.pixels[0], 146, 146, 146, tolerance: 1), "\(rgba(pixmap.pixels[0]))")
        // 1/2.2 alone is how many writers say sRGB: kept as stored.
        var plain = try spngEncode(width: 1, height: 1, bitDepth: 8, colorType: SPNG_COLOR_TYPE_TRUECOLOR, samples: [128, 128, 128])
        plain = Self.inserting(pngChunk("gAMA", bigEndian(45455)), into: plain)
        #expect(try ImageDecoder.decode(data: plain, name: "gamma22.png").pixels[0] == Pixmap.pack(r: 128, g: 128, b: 128, a: 255))
    }

    /// 0x01FF is 1.99 levels: rounded to 2 (the high byte alone would say 1).
    @Test func sixteenBitSamplesAreRounded() throws {
        let samples: [UInt16] = [0x01FF, 0x7F7F, 0xFF00, 0xFFFF]
        let png = try spngEncode(width: 1, height: 1, bitDepth: 16, colorType: SPNG_COLOR_TYPE_TRUECOLOR_ALPHA,
                                 samples: samples.withUnsafeBytes { Array($0) })
        let pixmap = try ImageDecoder.decode(data: png, name: "sixteen.png")
        #expect(pixmap.pixels[0] == Pixmap.pack(r: 2, g: 127, b: 254, a: 255))
    }

    @Test func sixteenBitDisplayP3() throws {
        let samples: [UInt16] = [234 * 257, 51 * 257, 35 * 257, 65535]
        let png = Self.inserting(Self.iccpChunk(ColourProfile.displayP3.iccBytes), into: try spngEncode(
            width: 1, height: 1, bitDepth: 16, colorType: SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, samples: samples.withUnsafeBytes { Array($0) }))
        let pixmap = try ImageDecoder.decode(data: png, name: "p3-16.png")
        #expect(close(pixmap.pixels[0], 255, 0, 0, tolerance: 3), "\(rgba(pixmap.pixels[0]))")
    }

    /// Translucent pixels are converted as straight colour, then premultiplied.
    @Test func translucentP3() throws {
        let png = Self.inserting(Self.iccpChunk(ColourProfile.displayP3.iccBytes), into: try spngEncode(
            width: 1, height: 1, bitDepth: 8, colorType: SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, samples: [234, 51, 35, 128]))
        let pixmap = try ImageDecoder.decode(data: png, name: "p3-alpha.png")
        let expected = rgba(Pixmap.premultiply(r: 255, g: 0, b: 0, a: 128))
        #expect(close(pixmap.pixels[0], expected.r, expected.g, expected.b, 128, tolerance: 2), "\(rgba(pixmap.pixels[0]))")
    }

    @Test func greyProfileOnGreyPNG() throws {
        // A grey profile of gamma 1.8 (built with lcms2 as a grey image's iCCP would carry it).
        let grey = try #require(ColourProfile.grey(gamma: 1.8))
        let png = Self.inserting(Self.iccpChunk(grey.iccBytes), into: try spngEncode(
            width: 2, height: 1, bitDepth: 8, colorType: SPNG_COLOR_TYPE_GRAYSCALE, samples: [128, 255]))
        let pixmap = try ImageDecoder.decode(data: png, name: "grey.png")
        #expect(close(pixmap.pixels[0], 146, 146, 146, tolerance: 2), "\(rgba(pixmap.pixels[0]))")
        #expect(pixmap.pixels[1] == Pixmap.pack(r: 255, g: 255, b: 255, a: 255))
    }

    // MARK: - JPEG

    /// The profile split over two APP2 segments, as large profiles are.
    @Test func jpegICCProfileAcrossSegments() throws {
        let pixels = [UInt8]((0..<64).flatMap { _ in [234, 51, 35, 255] as [UInt8] })
        let plain = try jpegEncode(width: 8, height: 8, pixels: pixels, format: TJPF_RGBA)
        let jpeg = Self.withICC(ColourProfile.displayP3.iccBytes, pieces: 2, into: plain)
        let pixmap = try ImageDecoder.decode(data: jpeg, name: "p3.jpg")
        #expect(close(pixmap.pixels[27], 255, 0, 0, tolerance: 4), "\(rgba(pixmap.pixels[27]))")
        #expect(try ImageDecoder.colour(data: jpeg, name: "p3.jpg").isWide)
        // Untagged, the same bytes are read as they are.
        let untagged = try ImageDecoder.decode(data: plain, name: "plain.jpg")
        #expect(close(untagged.pixels[27], 234, 51, 35, tolerance: 3))
    }

    @Test func jpegWithAPieceMissingIsRefused() throws {
        let plain = try jpegEncode(width: 8, height: 8, pixels: [UInt8](repeating: 200, count: 256), format: TJPF_RGBA)
        var jpeg = Self.withICC(ColourProfile.displayP3.iccBytes, pieces: 3, into: plain)
        // Drop the second segment.
        let second = Self.segmentOffsets(jpeg)[1]
        let length = Int(jpeg[second + 2]) << 8 | Int(jpeg[second + 3])
        jpeg.removeSubrange(second..<second + 2 + length)
        #expect(throws: ImageIOError.unusableColourProfile(path: "cut.jpg", reason: "its ICC profile's APP2 segments are incomplete (2 of 3)")) {
            try ImageDecoder.decode(data: jpeg, name: "cut.jpg")
        }
    }

    // MARK: - Hostile profiles

    @Test func garbageProfileIsRefusedInOneLine() throws {
        let png = Self.inserting(Self.iccpChunk([UInt8](repeating: 0x41, count: 300)), into: try spngEncode(
            width: 1, height: 1, bitDepth: 8, colorType: SPNG_COLOR_TYPE_TRUECOLOR, samples: [1, 2, 3]))
        #expect(throws: ImageIOError.unusableColourProfile(path: "bad.png", reason: "Little CMS cannot read it")) {
            try ImageDecoder.decode(data: png, name: "bad.png")
        }
        #expect("\(ImageIOError.unusableColourProfile(path: "bad.png", reason: "Little CMS cannot read it"))"
            == "'bad.png': its colour profile cannot be used: Little CMS cannot read it")
    }

    @Test func greyProfileOnRGBIsRefused() throws {
        let grey = try #require(ColourProfile.grey(gamma: 2.2))
        let png = Self.inserting(Self.iccpChunk(grey.iccBytes), into: try spngEncode(
            width: 1, height: 1, bitDepth: 8, colorType: SPNG_COLOR_TYPE_TRUECOLOR, samples: [1, 2, 3]))
        #expect(throws: ImageIOError.unusableColourProfile(path: "g.png", reason: "it is a grey profile, which does not fit the image's pixels")) {
            try ImageDecoder.decode(data: png, name: "g.png")
        }
    }

    @Test func absurdPrimariesAreRefused() throws {
        var profile = ColourProfile.displayP3.iccBytes
        // The rXYZ tag's X, set to 32767.
        let at = try #require(Self.tagOffset(profile, "rXYZ"))
        profile.replaceSubrange(at + 8..<at + 12, with: [0x7F, 0xFF, 0, 0])
        let png = Self.inserting(Self.iccpChunk(profile), into: try spngEncode(
            width: 1, height: 1, bitDepth: 8, colorType: SPNG_COLOR_TYPE_TRUECOLOR, samples: [1, 2, 3]))
        #expect(throws: ImageIOError.unusableColourProfile(path: "absurd.png", reason: "its primaries are not those of any display")) {
            try ImageDecoder.decode(data: png, name: "absurd.png")
        }
    }

    @Test func oversizeProfileIsRefused() throws {
        var profile = ColourProfile.displayP3.iccBytes
        profile += [UInt8](repeating: 0, count: ColourProfile.byteLimit)
        let plain = try jpegEncode(width: 8, height: 8, pixels: [UInt8](repeating: 200, count: 256), format: TJPF_RGBA)
        let jpeg = Self.withICC(profile, pieces: 70, into: plain)
        #expect { try ImageDecoder.decode(data: jpeg, name: "huge.jpg") } throws: { error in
            guard case let ImageIOError.unusableColourProfile(path, reason) = error else { return false }
            return path == "huge.jpg" && reason.contains("over the limit")
        }
    }

    /// A 10,000-frame job reads a profile once: the same bytes give the same transform.
    @Test func transformsAreCachedByContent() throws {
        let bytes = ColourProfile.displayP3.iccBytes
        let a = try ColourConversion.transform(from: .icc(bytes), into: .srgb, layout: .rgba8).get()
        let b = try ColourConversion.transform(from: .icc(Array(bytes)), into: .srgb, layout: .rgba8).get()
        #expect(a != nil && a === b)
    }

    // MARK: - Outputs and colours given as numbers

    @Test func displayP3OutputCarriesItsProfileAndCICP() throws {
        let red = Pixmap(width: 2, height: 1, pixels: [Pixmap.pack(r: 234, g: 51, b: 35, a: 255), Pixmap.pack(r: 117, g: 251, b: 76, a: 255)])
        let png = try PNGEncoder.encode(red, colourSpace: .displayP3)
        #expect(Self.contains(png, "iCCP") && Self.contains(png, "cICP"))
        // Read back by its profile: the colours it stands for in sRGB, and its own values in Display P3.
        let srgb = try ImageDecoder.decode(data: png, name: "out.png")
        #expect(close(srgb.pixels[0], 255, 0, 0, tolerance: 3), "\(rgba(srgb.pixels[0]))")
        #expect(close(srgb.pixels[1], 0, 255, 0, tolerance: 3), "\(rgba(srgb.pixels[1]))")
        let p3 = try ImageDecoder.decode(data: png, name: "out.png", into: .displayP3)
        #expect(close(p3.pixels[0], 234, 51, 35, tolerance: 1), "\(rgba(p3.pixels[0]))")
        #expect(try ImageDecoder.colour(data: png, name: "out.png") == ImageColour(tag: .cicp, isSRGB: false, isWide: true))
    }

    /// sRGB output says nothing (an untagged PNG is sRGB): the bytes of earlier releases.
    @Test func srgbOutputIsUntagged() throws {
        let pixmap = Pixmap(width: 3, height: 2, pixels: [UInt32](repeating: Pixmap.pack(r: 9, g: 99, b: 199, a: 255), count: 6))
        let png = try PNGEncoder.encode(pixmap, colourSpace: .srgb)
        #expect(png == (try PNGEncoder.encode(pixmap)))
        #expect(!Self.contains(png, "iCCP") && !Self.contains(png, "sRGB") && !Self.contains(png, "cICP"))
    }

    /// An effect's #ff0000 in Display P3 is the red of sRGB's primaries there: about 0.917, 0.200, 0.139.
    @Test func srgbColourIntoDisplayP3() {
        let red = ColourSpace.displayP3.converting(sRGB: Color(red: 1, green: 0, blue: 0, alpha: 0.5))
        #expect(abs(red.red - 0.9175) < 0.005 && abs(red.green - 0.2003) < 0.005 && abs(red.blue - 0.1387) < 0.005, "\(red)")
        #expect(red.alpha == 0.5)
        #expect(ColourSpace.srgb.converting(sRGB: Color(red: 1, green: 0, blue: 0)) == Color(red: 1, green: 0, blue: 0))
        let white = ColourSpace.displayP3.converting(sRGB: .white)
        #expect(abs(white.red - 1) < 0.002 && abs(white.green - 1) < 0.002 && abs(white.blue - 1) < 0.002, "\(white)")
    }

    @Test func srgbPixmapIntoDisplayP3() {
        let pixmap = Pixmap(width: 2, height: 1, pixels: [Pixmap.pack(r: 255, g: 0, b: 0, a: 255), Pixmap.premultiply(r: 255, g: 0, b: 0, a: 128)])
        let p3 = ColourSpace.displayP3.converting(sRGB: pixmap)
        #expect(close(p3.pixels[0], 234, 51, 35, tolerance: 1), "\(rgba(p3.pixels[0]))")
        let half = rgba(Pixmap.premultiply(r: 234, g: 51, b: 35, a: 128))
        #expect(close(p3.pixels[1], half.r, half.g, half.b, 128, tolerance: 1), "\(rgba(p3.pixels[1]))")
        #expect(ColourSpace.srgb.converting(sRGB: pixmap) == pixmap)
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        return bytes.indices.dropLast(needle.count).contains { Array(bytes[$0..<$0 + needle.count]) == needle }
    }

    // MARK: - Making tagged files

    static func p3PNG(samples: [UInt8]) throws -> [UInt8] {
        let png = try spngEncode(width: samples.count / 3, height: 1, bitDepth: 8, colorType: SPNG_COLOR_TYPE_TRUECOLOR, samples: samples)
        return inserting(iccpChunk(ColourProfile.displayP3.iccBytes), into: png)
    }

    /// `chunks` placed right after IHDR (byte 33).
    static func inserting(_ chunks: [UInt8], into png: [UInt8]) -> [UInt8] { Array(png[..<33]) + chunks + Array(png[33...]) }

    /// An iCCP chunk: a name, the compression method, and the profile as a zlib stream of stored blocks.
    static func iccpChunk(_ profile: [UInt8]) -> [UInt8] { pngChunk("iCCP", Array("test".utf8) + [0, 0] + zlibStored(profile)) }

    /// A zlib stream that stores `data` uncompressed (blocks of at most 65,535 bytes), with its Adler-32.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var at = 0
        repeat {
            let n = min(65_535, data.count - at)
            let final: UInt8 = at + n == data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[at..<at + n]
            at += n
        } while at < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        return out + bigEndian(b << 16 | a)
    }

    /// `profile` in `pieces` APP2 segments right after SOI.
    static func withICC(_ profile: [UInt8], pieces: Int, into jpeg: [UInt8]) -> [UInt8] {
        var segments: [UInt8] = []
        let size = (profile.count + pieces - 1) / pieces
        for k in 0..<pieces {
            let piece = profile[min(profile.count, k * size)..<min(profile.count, (k + 1) * size)]
            let length = 2 + 14 + piece.count
            segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + Array("ICC_PROFILE\0".utf8) + [UInt8(k + 1), UInt8(pieces)] + piece
        }
        return Array(jpeg[..<2]) + segments + Array(jpeg[2...])
    }

    /// Where each APP2 segment starts.
    static func segmentOffsets(_ jpeg: [UInt8]) -> [Int] {
        var at = 2, found: [Int] = []
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF, jpeg[at + 1] != 0xDA {
            if jpeg[at + 1] == 0xE2 { found.append(at) }
            at += 2 + (Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3]))
        }
        return found
    }

    /// The offset of an ICC tag's data, from the tag table.
    static func tagOffset(_ profile: [UInt8], _ signature: String) -> Int? {
        func word(_ at: Int) -> Int { Int(profile[at]) << 24 | Int(profile[at + 1]) << 16 | Int(profile[at + 2]) << 8 | Int(profile[at + 3]) }
        let sig = Array(signature.utf8)
        for k in 0..<word(128) where Array(profile[132 + 12 * k..<136 + 12 * k]) == sig { return word(136 + 12 * k) }
        return nil
    }
}
