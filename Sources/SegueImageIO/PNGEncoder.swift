#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSPNG
import SegueCore

/// Encodes pixmaps as 8-bit PNG through libspng.
public enum PNGEncoder {
    /// PNG bytes for `pixmap`: colour type 2 (RGB) when every pixel is opaque, otherwise colour type 6 (RGBA,
    /// straight alpha as PNG requires).
    ///
    /// - Parameter compressionLevel: zlib level 0...9 (clamped). Levels 0...2 also restrict the per-row filter
    ///   search to the cheap filters, trading a little size for speed.
    public static func encode(_ pixmap: Pixmap, compressionLevel: Int = 6) throws -> [UInt8] {
        let opaque = pixmap.isOpaque
        let samples = opaque ? rgbBytes(pixmap) : pixmap.straightRGBA()
        let colorType = opaque ? SPNG_COLOR_TYPE_TRUECOLOR : SPNG_COLOR_TYPE_TRUECOLOR_ALPHA
        return try encode(
            samples: samples, width: pixmap.width, height: pixmap.height, colorType: UInt8(colorType.rawValue),
            compressionLevel: compressionLevel)
    }

    private static func encode(
        samples: [UInt8], width: Int, height: Int, colorType: UInt8, compressionLevel: Int
    ) throws(ImageIOError) -> [UInt8] {
        guard let ctx = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else {
            throw .encodingFailed(detail: "out of memory")
        }
        defer { spng_ctx_free(ctx) }
        func check(_ rc: Int32) throws(ImageIOError) {
            if rc != 0 { throw .encodingFailed(detail: String(cString: spng_strerror(rc))) }
        }

        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .encodingFailed(detail: "invalid image size \(width)x\(height)")
        }
        var ihdr = spng_ihdr(
            width: UInt32(width), height: UInt32(height), bit_depth: 8, color_type: colorType,
            compression_method: 0, filter_method: 0, interlace_method: UInt8(SPNG_INTERLACE_NONE.rawValue))
        try check(spng_set_ihdr(ctx, &ihdr))
        try check(spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1))
        let level = min(max(compressionLevel, 0), 9)
        try check(spng_set_option(ctx, SPNG_IMG_COMPRESSION_LEVEL, Int32(level)))
        if level <= 2 {
            let cheap = level == 0
                ? SPNG_FILTER_CHOICE_NONE.rawValue
                : SPNG_FILTER_CHOICE_NONE.rawValue | SPNG_FILTER_CHOICE_SUB.rawValue | SPNG_FILTER_CHOICE_UP.rawValue
            try check(spng_set_option(ctx, SPNG_FILTER_CHOICE, Int32(cheap)))
        }

        let status = samples.withUnsafeBytes { raw in
            spng_encode_image(
                ctx, raw.baseAddress, raw.count, Int32(SPNG_FMT_PNG.rawValue), Int32(SPNG_ENCODE_FINALIZE.rawValue))
        }
        try check(status)

        var length = 0
        var error: Int32 = 0
        guard let buffer = spng_get_png_buffer(ctx, &length, &error) else {
            throw .encodingFailed(detail: String(cString: spng_strerror(error)))
        }
        defer { free(buffer) }  // the caller owns the buffer libspng hands out
        try check(error)
        return [UInt8](UnsafeRawBufferPointer(start: buffer, count: length))
    }

    /// Packed R, G, B bytes of an opaque pixmap (premultiplied and straight values agree at alpha 255).
    private static func rgbBytes(_ pixmap: Pixmap) -> [UInt8] {
        let byteCount = pixmap.width * pixmap.height * 3
        return [UInt8](unsafeUninitializedCapacity: byteCount) { out, count in
            pixmap.pixels.withUnsafeBufferPointer { src in
                // Three bytes out per pixel in: `pixels.count == width * height`, so the last lands at the end.
                guard var o = out.baseAddress else { return }
                for p in src {
                    o[0] = UInt8(truncatingIfNeeded: p)
                    o[1] = UInt8(truncatingIfNeeded: p >> 8)
                    o[2] = UInt8(truncatingIfNeeded: p >> 16)
                    o += 3
                }
            }
            count = byteCount
        }
    }
}
