import CSPNG
import CTurboJPEG
import Foundation
import SegueCore
import SegueImageIO
import SegueTestSupport

/// The hostile-input corpus, made by code at test time: valid images to damage, damaged images, files that are
/// not images, and valid but unusual images. Bytes only; the tests write them where they need them.
enum Corpus {
    /// A bad input for `--from`: what the file is, and its bytes (nil: a directory).
    struct BadImage: Sendable, CustomStringConvertible {
        let name: String
        let bytes: [UInt8]?
        /// Bit flips may leave a file that still decodes: then it must render.
        let mayDecode: Bool
        var description: String { name }
    }

    /// 40 × 72 noise (incompressible, so every offset of the file is image data).
    static let png: [UInt8] = {
        var p = Pixmap(width: 40, height: 72, fill: 0)
        var seed: UInt32 = 12345
        for i in p.pixels.indices {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            p.pixels[i] = seed | 0xFF00_0000
        }
        return try! PNGEncoder.encode(p, compressionLevel: 6)
    }()

    static let jpeg: [UInt8] = {
        var rgb: [UInt8] = []
        for y in 0..<72 { for x in 0..<40 { rgb += [UInt8(x * 6), UInt8(y * 3), UInt8((x * y) & 0xFF)] } }
        return try! jpegEncode(width: 40, height: 72, pixels: rgb, format: TJPF_RGB)
    }()

    /// Signature, IHDR for `width` × `height` RGBA, a tiny IDAT and IEND, all with valid CRCs.
    static func headerOnlyPNG(width: UInt32, height: UInt32) -> [UInt8] {
        let ihdr = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", ihdr)
            + pngChunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + pngChunk("IEND", [])
    }

    /// A baseline JPEG whose SOF0 says `width` × `height` (the scan data is the small image's).
    static func jpegClaiming(width: Int, height: Int) -> [UInt8] {
        var bytes = jpeg
        for i in 0..<(bytes.count - 9) where bytes[i] == 0xFF && bytes[i + 1] == 0xC0 {
            bytes[i + 5] = UInt8(height >> 8); bytes[i + 6] = UInt8(height & 0xFF)
            bytes[i + 7] = UInt8(width >> 8); bytes[i + 8] = UInt8(width & 0xFF)
            break
        }
        return bytes
    }

    static let badImages: [BadImage] = {
        var out: [BadImage] = []
        for cut in [1, 8, 16, 33, 60, png.count / 3, png.count / 2, png.count - 13, png.count - 12] {
            out.append(BadImage(name: "png-truncated-at-\(cut)", bytes: Array(png[..<cut]), mayDecode: false))
        }
        for cut in [3, 20, 100, 300, jpeg.count / 2, jpeg.count - 2] {
            out.append(BadImage(name: "jpeg-truncated-at-\(cut)", bytes: Array(jpeg[..<cut]), mayDecode: false))
        }
        // A flipped bit inside each chunk's CRC-checked bytes: the CRC no longer matches.
        for offset in [12, 20, 29, 40, png.count / 2, png.count - 20] {
            var b = png
            b[offset] ^= 0x10
            out.append(BadImage(name: "png-bad-crc-at-\(offset)", bytes: b, mayDecode: false))
        }
        var seed: UInt64 = 0x5EED
        for k in 0..<12 {
            var b = k % 2 == 0 ? png : jpeg
            for _ in 0..<(1 + k % 4) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let at = 2 + Int(seed >> 33) % (b.count - 2)
                b[at] ^= UInt8(1 << (Int(seed >> 20) % 8))
            }
            out.append(BadImage(name: "\(k % 2 == 0 ? "png" : "jpeg")-bit-flips-\(k)", bytes: b, mayDecode: true))
        }
        out += [
            BadImage(name: "png-100000x100000", bytes: headerOnlyPNG(width: 100_000, height: 100_000), mayDecode: false),
            BadImage(name: "png-0x72", bytes: headerOnlyPNG(width: 0, height: 72), mayDecode: false),
            BadImage(name: "png-2147483648x1", bytes: headerOnlyPNG(width: 1 << 31, height: 1), mayDecode: false),
            BadImage(name: "jpeg-65535x65535", bytes: jpegClaiming(width: 65535, height: 65535), mayDecode: false),
            BadImage(name: "jpeg-0x72", bytes: jpegClaiming(width: 0, height: 72), mayDecode: false),
            BadImage(name: "png-signature-only", bytes: Array(png[..<8]), mayDecode: false),
            BadImage(name: "jpeg-soi-only", bytes: [0xFF, 0xD8, 0xFF], mayDecode: false),
            BadImage(name: "text", bytes: Array("this is not an image\n".utf8), mayDecode: false),
            BadImage(name: "gif", bytes: Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B], mayDecode: false),
            BadImage(name: "empty", bytes: [], mayDecode: false),
            BadImage(name: "zeros", bytes: [UInt8](repeating: 0, count: 4096), mayDecode: false),
            BadImage(name: "directory", bytes: nil, mayDecode: false),
        ]
        return out
    }()

    // MARK: Valid but unusual images

    /// `jpeg` with an APP1 Exif segment (big-endian TIFF, one IFD0 Orientation entry) after SOI.
    static func withOrientation(_ jpeg: [UInt8], _ orientation: UInt8) -> [UInt8] {
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1,
                             0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif\0\0".utf8) + tiff
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg[2...]
    }

    /// An unusual valid image, and what the rendered frame must show: its size and (x, y, r, g, b) samples
    /// over the black background, within `tolerance`.
    struct UnusualImage: Sendable, CustomStringConvertible {
        let name: String
        let bytes: [UInt8]
        let width: Int, height: Int
        let samples: [(x: Int, y: Int, r: Int, g: Int, b: Int)]
        let tolerance: Int
        var description: String { name }
    }

    /// Every image is 16 × 16 (or 16 × 32 rotated) with a left half and a right half in different colours.
    static let unusualImages: [UnusualImage] = {
        let w = 16, h = 16
        func halves<T>(_ left: [T], _ right: [T]) -> [T] {
            var out: [T] = []
            for _ in 0..<h { for x in 0..<w { out += x < w / 2 ? left : right } }
            return out
        }
        let leftRight = [(x: 2, y: 8), (x: 13, y: 8)]
        func expect(_ l: (Int, Int, Int), _ r: (Int, Int, Int)) -> [(x: Int, y: Int, r: Int, g: Int, b: Int)] {
            [(leftRight[0].x, leftRight[0].y, l.0, l.1, l.2), (leftRight[1].x, leftRight[1].y, r.0, r.1, r.2)]
        }
        var out: [UnusualImage] = []
        out.append(UnusualImage(
            name: "png-interlaced-rgba",
            bytes: try! spngEncode(width: w, height: h, bitDepth: 8, colorType: SPNG_COLOR_TYPE_TRUECOLOR_ALPHA, interlaced: true,
                              samples: halves([200, 30, 40, 255], [20, 40, 220, 255])),
            width: w, height: h, samples: expect((200, 30, 40), (20, 40, 220)), tolerance: 0))
        out.append(UnusualImage(
            name: "png-16-bit-rgb",
            bytes: try! spngEncode(width: w, height: h, bitDepth: 16, colorType: SPNG_COLOR_TYPE_TRUECOLOR,
                              samples: halves([0xC8, 0xC8, 0x1E, 0x1E, 0x28, 0x28], [0x14, 0x14, 0x28, 0x28, 0xDC, 0xDC])),
            width: w, height: h, samples: expect((0xC8, 0x1E, 0x28), (0x14, 0x28, 0xDC)), tolerance: 0))
        out.append(UnusualImage(
            name: "png-palette-4-bit",
            bytes: try! spngEncode(width: w, height: h, bitDepth: 4, colorType: SPNG_COLOR_TYPE_INDEXED,
                              samples: (0..<h).flatMap { _ in [UInt8](repeating: 0x00, count: 4) + [UInt8](repeating: 0x11, count: 4) },
                              palette: [(10, 200, 30), (250, 240, 10)]),
            width: w, height: h, samples: expect((10, 200, 30), (250, 240, 10)), tolerance: 0))
        // Grey 200 at alpha 128 over black: 100; opaque grey 60: 60.
        out.append(UnusualImage(
            name: "png-gray-alpha",
            bytes: try! spngEncode(width: w, height: h, bitDepth: 8, colorType: SPNG_COLOR_TYPE_GRAYSCALE_ALPHA,
                              samples: halves([200, 128], [60, 255])),
            width: w, height: h, samples: expect((100, 100, 100), (60, 60, 60)), tolerance: 1))
        // Adobe CMYK as TurboJPEG writes it (inverted: 255 = no ink): magenta | 50% black.
        out.append(UnusualImage(
            name: "jpeg-cmyk",
            bytes: try! jpegEncode(width: w, height: h, pixels: halves([255, 0, 255, 255], [255, 255, 255, 128]), format: TJPF_CMYK),
            width: w, height: h, samples: expect((255, 0, 255), (128, 128, 128)), tolerance: 6))
        // Left red, right blue, EXIF orientation 6 (rotate 90° clockwise): red on top, blue at the bottom.
        let rgb: [UInt8] = (0..<16).flatMap { _ in (0..<32).flatMap { x -> [UInt8] in x < 16 ? [255, 0, 0] : [0, 0, 255] } }
        out.append(UnusualImage(
            name: "jpeg-exif-rotated",
            bytes: withOrientation(try! jpegEncode(width: 32, height: 16, pixels: rgb, format: TJPF_RGB), 6),
            width: 16, height: 32, samples: [(8, 3, 255, 0, 0), (8, 28, 0, 0, 255)], tolerance: 6))
        return out
    }()
}

