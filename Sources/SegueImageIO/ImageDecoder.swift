import SegueCore

/// Decodes PNG, JPEG and HEIC files into premultiplied RGBA8 `Pixmap`s.
///
/// The format is sniffed from the first bytes, never from the file name. PNG goes through libspng and JPEG
/// through TurboJPEG, HEIC through libheif (opened when the first one is read). Colour is managed: what the file says (an ICC profile, PNG's cICP, sRGB, gAMA and cHRM
/// chunks) is honoured and the pixels converted into the working space through Little CMS 2, once, here.
/// Untagged images are sRGB; an sRGB image read into sRGB keeps its stored values exactly.
/// Images with more than `maxPixels` pixels are refused from their header, before any pixel is allocated.
public enum ImageDecoder {
    /// The default pixel limit: 16384 × 16384 (268,435,456 pixels, 1 GiB decoded).
    public static let defaultMaxPixels = Limits.maxPixels

    /// Reads and decodes the PNG, JPEG or HEIC file at `path`; errors name `path`.
    public static func decode(contentsOf path: String, maxPixels: Int = defaultMaxPixels, into space: ColourSpace = .srgb) throws -> Pixmap {
        let bytes = try InputFile.read(path, limit: InputFile.imageLimit(maxPixels: maxPixels))
        return try decode(data: bytes, name: path, maxPixels: maxPixels, into: space)
    }

    /// Decodes PNG, JPEG or HEIC bytes into `space`; `name` is what error messages call the data (usually its path).
    public static func decode(data: [UInt8], name: String, maxPixels: Int = defaultMaxPixels, into space: ColourSpace = .srgb) throws -> Pixmap {
        if data.isEmpty { throw ImageIOError.empty(path: name) }
        if data.starts(with: pngSignature) {
            return try decodePNG(data: data, name: name, maxPixels: maxPixels, into: space)
        }
        if data.starts(with: jpegSignature) {
            return try decodeJPEG(data: data, name: name, maxPixels: maxPixels, into: space)
        }
        if isHEIF(data) {
            return try decodeHEIC(data: data, name: name, maxPixels: maxPixels, into: space)
        }
        throw ImageIOError.unknownFormat(path: name)
    }

    /// Bytes a pixel of `data` may take while it is decoded, by its format (an estimate that errs high): its
    /// RGBA8 and as much again for a PNG's or JPEG's rows and a 16-bit PNG's wider samples; for HEIC, libheif's
    /// YCbCr planes (up to 16 bits a sample, 4:4:4: 6 bytes) and its RGBA16 image (8) beside the RGBA8 (4),
    /// rounded up to 20.
    public static func decodingBytesPerPixel(of data: [UInt8]) -> Int { isHEIF(data) ? 20 : 8 }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Start-of-image marker followed by the first byte of the next marker.
    static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// Refuses empty images and images over the pixel limit, from header dimensions.
    static func checkSize(width: Int, height: Int, name: String, maxPixels: Int) throws(ImageIOError) {
        if width <= 0 || height <= 0 { throw .invalidSize(path: name, width: width, height: height) }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || count > maxPixels {
            throw .tooManyPixels(path: name, width: width, height: height, limit: maxPixels)
        }
    }

    /// Premultiplies straight-alpha RGBA8 pixels in place; opaque pixels are left as they are.
    static func premultiplyInPlace(_ pixels: inout [UInt32]) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            for i in buffer.indices {
                let p = buffer[i]
                let a = p >> 24
                if a == 255 { continue }
                buffer[i] = Pixmap.premultiply(r: p & 0xFF, g: (p >> 8) & 0xFF, b: (p >> 16) & 0xFF, a: a)
            }
        }
    }
}
