import CTurboJPEG
import SegueCore

extension ImageDecoder {
    /// Decodes baseline or progressive JPEG bytes (YCbCr, grayscale, RGB, CMYK or YCCK) into an opaque pixmap,
    /// turned upright according to its EXIF orientation tag.
    ///
    /// TurboJPEG warnings are tolerated (many cameras write a few stray bytes) except a premature end of data,
    /// which would otherwise yield a grey-filled bottom part; that is reported as corrupt.
    ///
    /// An ICC profile in APP2 segments is honoured: the pixels are converted from it into `space` through
    /// Little CMS 2 (CMYK and YCCK through a CMYK profile; without one, by the naive formula below). An untagged
    /// JPEG is sRGB, and read into sRGB its values are kept exactly.
    public static func decodeJPEG(data: [UInt8], name: String, maxPixels: Int = defaultMaxPixels, into space: ColourSpace = .srgb) throws -> Pixmap {
        guard let handle = tjInitDecompress() else {
            throw ImageIOError.corruptJPEG(path: name, detail: "cannot initialise TurboJPEG")
        }
        defer { tjDestroy(handle) }

        func failure() -> ImageIOError {
            .corruptJPEG(path: name, detail: String(cString: tjGetErrorStr2(handle)))
        }

        return try data.withUnsafeBufferPointer { (source: UnsafeBufferPointer<UInt8>) throws -> Pixmap in
            let size = UInt(source.count)
            var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            if tjDecompressHeader3(handle, source.baseAddress, size, &w, &h, &subsampling, &colorspace) != 0 {
                throw failure()
            }
            // A tables-only or cut-off header "succeeds" with a size of zero.
            if w <= 0 || h <= 0 {
                throw ImageIOError.corruptJPEG(path: name, detail: "no frame header, the file may be truncated")
            }
            let width = Int(w), height = Int(h)
            try checkSize(width: width, height: height, name: name, maxPixels: maxPixels)

            // CMYK and YCCK JPEGs can only be decoded to CMYK; convert those to RGB ourselves below.
            let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
            let metadata = JPEGMetadata(scanning: source)
            let tag = try metadata.colourTag(name: name)
            var layout: SampleLayout = .rgba8
            if isCMYK {
                layout = .cmyk8(inverted: metadata.hasAdobeMarker)
            } else if colorspace == Int32(TJCS_GRAY.rawValue), case let .profile(profile) = try sourceColour(tag, name: name),
                      profile.channels == .grey {
                layout = .grey8
            }
            // CMYK without a profile keeps the naive conversion (no transform is asked for).
            let transform = isCMYK && tag == .untagged ? nil : try colourTransform(tag, into: space, layout: layout, name: name)
            let format = isCMYK ? TJPF_CMYK : TJPF_RGBA
            var status: Int32 = 0
            var pixels = [UInt32](unsafeUninitializedCapacity: width * height) { buffer, count in
                let destination = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: UInt8.self)
                status = tjDecompress2(
                    handle, source.baseAddress, size, destination, w, Int32(width * 4), h, format.rawValue,
                    TJFLAG_LIMITSCANS)
                count = width * height
            }
            if status != 0 {
                let isWarning = tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
                let message = String(cString: tjGetErrorStr2(handle))
                if !isWarning || message.lowercased().contains("premature end") {
                    throw ImageIOError.corruptJPEG(path: name, detail: message)
                }
            }

            if let transform {
                pixels.withUnsafeMutableBufferPointer { buffer in
                    if isCMYK {
                        // CMYK into a new buffer (lcms2 reads and writes RGBA of the same size; kept apart).
                        let cmyk = Array(buffer)
                        cmyk.withUnsafeBytes { transform.apply($0.baseAddress!, buffer.baseAddress!, count: buffer.count) }
                    } else {
                        transform.apply(UnsafeRawPointer(buffer.baseAddress!), buffer.baseAddress!, count: buffer.count)
                    }
                }
            } else if isCMYK {
                convertCMYKInPlace(&pixels, adobeInverted: metadata.hasAdobeMarker)
            }
            let pixmap = Pixmap(width: width, height: height, pixels: pixels)
            return pixmap.applyingEXIFOrientation(metadata.orientation)
        }
    }

    /// Naive CMYK → RGB (no colour management): R = (1 − C)(1 − K) and so on.
    ///
    /// Files with an Adobe APP14 marker (Photoshop and nearly every other CMYK writer) store the channels
    /// inverted, so there R = C · K.
    static func convertCMYKInPlace(_ pixels: inout [UInt32], adobeInverted: Bool) {
        let flip: UInt32 = adobeInverted ? 0 : 0xFFFF_FFFF
        pixels.withUnsafeMutableBufferPointer { buffer in
            for i in buffer.indices {
                let p = buffer[i] ^ flip  // now 255 means "no ink" in every channel
                let k = p >> 24
                func channel(_ v: UInt32) -> UInt32 { let t = v * k + 128; return (t + (t >> 8)) >> 8 }
                buffer[i] = Pixmap.pack(
                    r: channel(p & 0xFF), g: channel((p >> 8) & 0xFF), b: channel((p >> 16) & 0xFF), a: 255)
            }
        }
    }
}
