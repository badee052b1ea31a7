import CSPNG
import SegueCore

extension ImageDecoder {
    /// Largest ancillary chunk accepted (ICC profiles, text); image data (IDAT) is not limited by this.
    static let pngChunkSizeLimit = 16 << 20
    /// Total memory libspng may spend caching ancillary chunks.
    static let pngChunkCacheLimit = 64 << 20

    /// Decodes PNG bytes of any colour type, bit depth and interlacing into a premultiplied pixmap.
    ///
    /// libspng expands everything to RGBA8: palette and tRNS become alpha, 16-bit samples keep their high
    /// byte. Gamma (gAMA) is deliberately not applied, so values stay the stored 8-bit sRGB.
    public static func decodePNG(data: [UInt8], name: String, maxPixels: Int = defaultMaxPixels) throws -> Pixmap {
        guard let ctx = spng_ctx_new(0) else { throw ImageIOError.corruptPNG(path: name, detail: "out of memory") }
        defer { spng_ctx_free(ctx) }

        func check(_ rc: Int32) throws(ImageIOError) {
            if rc != 0 { throw .corruptPNG(path: name, detail: String(cString: spng_strerror(rc))) }
        }

        // Per-side limit so libspng itself refuses absurd headers; the area limit is checked below.
        let sideLimit = UInt32(clamping: min(maxPixels, Int(Int32.max)))
        try check(spng_set_image_limits(ctx, sideLimit, sideLimit))
        try check(spng_set_chunk_limits(ctx, pngChunkSizeLimit, pngChunkCacheLimit))

        return try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> Pixmap in
            try check(spng_set_png_buffer(ctx, bytes.baseAddress, bytes.count))

            var ihdr = spng_ihdr()
            let rc = spng_get_ihdr(ctx, &ihdr)
            if rc == Int32(SPNG_EUSER_WIDTH.rawValue) || rc == Int32(SPNG_EUSER_HEIGHT.rawValue) {
                // Over the per-side limit: report it like the area limit, with the header's own numbers.
                throw ImageIOError.tooManyPixels(
                    path: name, width: Int(bigEndianWord(bytes, at: 16)), height: Int(bigEndianWord(bytes, at: 20)),
                    limit: maxPixels)
            }
            try check(rc)
            let width = Int(ihdr.width), height = Int(ihdr.height)
            try checkSize(width: width, height: height, name: name, maxPixels: maxPixels)

            let format = Int32(SPNG_FMT_RGBA8.rawValue)
            var byteCount = 0
            try check(spng_decoded_image_size(ctx, format, &byteCount))
            guard byteCount == width * height * 4 else {
                throw ImageIOError.corruptPNG(path: name, detail: "unexpected decoded size \(byteCount)")
            }

            var status: Int32 = 0
            var pixels = [UInt32](unsafeUninitializedCapacity: width * height) { buffer, count in
                status = spng_decode_image(ctx, buffer.baseAddress, byteCount, format, Int32(SPNG_DECODE_TRNS.rawValue))
                count = width * height
            }
            try check(status)
            // Read on to IEND: a file cut after its image data (a partial download or copy) is refused, not
            // taken as complete with its last CRCs unchecked.
            try check(spng_decode_chunks(ctx))
            premultiplyInPlace(&pixels)
            return Pixmap(width: width, height: height, pixels: pixels)
        }
    }

    /// The big-endian 32-bit word at `offset`, or 0 when the data is too short.
    private static func bigEndianWord(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        guard bytes.count >= offset + 4 else { return 0 }
        return (offset..<offset + 4).reduce(0) { $0 << 8 | UInt32(bytes[$1]) }
    }
}
