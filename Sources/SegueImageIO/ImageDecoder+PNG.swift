import CSPNG
import SegueCore

extension ImageDecoder {
    /// Largest ancillary chunk accepted (ICC profiles, text); image data (IDAT) is not limited by this.
    static let pngChunkSizeLimit = 16 << 20
    /// Total memory libspng may spend caching ancillary chunks.
    static let pngChunkCacheLimit = 64 << 20

    /// Decodes PNG bytes of any colour type, bit depth and interlacing into a premultiplied pixmap.
    ///
    /// libspng expands everything to RGBA (palette and tRNS become alpha); 16-bit samples are rounded to 8 bits.
    /// The colour is read as the file says it (`cICP`, then `iCCP`, then `sRGB`, then `gAMA` with `cHRM`) and
    /// converted into `space` through Little CMS 2; an sRGB or untagged image read into sRGB keeps its values
    /// exactly.
    public static func decodePNG(data: [UInt8], name: String, maxPixels: Int = defaultMaxPixels, into space: ColourSpace = .srgb) throws -> Pixmap {
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

            // The colour tag and its transform, before any pixel is decoded (a profile that cannot be used is
            // refused first). A grey image with a grey profile goes through a table of its 256 levels.
            let tag = try pngColourTag(ctx, bytes: bytes, name: name)
            let sixteen = ihdr.bit_depth == 16
            let isGrey = ihdr.color_type == UInt8(SPNG_COLOR_TYPE_GRAYSCALE.rawValue)
                || ihdr.color_type == UInt8(SPNG_COLOR_TYPE_GRAYSCALE_ALPHA.rawValue)
            var layout: SampleLayout = sixteen ? .rgba16 : .rgba8
            if isGrey, case .icc = tag, case let .profile(profile) = try sourceColour(tag, name: name), profile.channels == .grey {
                layout = .grey8
            }
            let transform = try colourTransform(tag, into: space, layout: layout, name: name)

            let format = Int32((layout == .rgba16 ? SPNG_FMT_RGBA16 : SPNG_FMT_RGBA8).rawValue)
            let bytesPerPixel = layout == .rgba16 ? 8 : 4
            var byteCount = 0
            try check(spng_decoded_image_size(ctx, format, &byteCount))
            guard byteCount == width * height * bytesPerPixel else {
                throw ImageIOError.corruptPNG(path: name, detail: "unexpected decoded size \(byteCount)")
            }

            var status: Int32 = 0
            var pixels: [UInt32]
            if layout == .rgba16 {
                // 16-bit samples (host order), then into RGBA8: through the transform, or rounded as they are.
                var wide = [UInt16](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
                    status = spng_decode_image(ctx, buffer.baseAddress, byteCount, format, Int32(SPNG_DECODE_TRNS.rawValue))
                    count = width * height * 4
                }
                try check(status)
                pixels = [UInt32](unsafeUninitializedCapacity: width * height) { buffer, count in
                    wide.withUnsafeMutableBytes { samples in
                        if let transform {
                            transform.apply(samples.baseAddress!, buffer.baseAddress!, count: width * height)
                        } else {
                            roundSixteenBit(samples.assumingMemoryBound(to: UInt16.self), into: buffer)
                        }
                    }
                    count = width * height
                }
                wide = []
            } else {
                pixels = [UInt32](unsafeUninitializedCapacity: width * height) { buffer, count in
                    status = spng_decode_image(ctx, buffer.baseAddress, byteCount, format, Int32(SPNG_DECODE_TRNS.rawValue))
                    count = width * height
                }
                try check(status)
                if let transform {
                    pixels.withUnsafeMutableBufferPointer { buffer in
                        transform.apply(UnsafeRawPointer(buffer.baseAddress!), buffer.baseAddress!, count: buffer.count)
                    }
                }
            }
            // Read on to IEND: a file cut after its image data (a partial download or copy) is refused, not
            // taken as complete with its last CRCs unchecked.
            try check(spng_decode_chunks(ctx))
            premultiplyInPlace(&pixels)
            return Pixmap(width: width, height: height, pixels: pixels)
        }
    }

    /// Straight RGBA16 samples into RGBA8 pixels, each rounded to the nearest of 255 levels.
    private static func roundSixteenBit(_ samples: UnsafeMutableBufferPointer<UInt16>, into pixels: UnsafeMutableBufferPointer<UInt32>) {
        @inline(__always) func level(_ v: UInt16) -> UInt32 { (UInt32(v) * 255 + 32767) / 65535 }
        for i in pixels.indices {
            pixels[i] = Pixmap.pack(r: level(samples[4 * i]), g: level(samples[4 * i + 1]), b: level(samples[4 * i + 2]), a: level(samples[4 * i + 3]))
        }
    }

    /// What PNG `data`'s chunks say about its colour (`ImageDecoder.colour`).
    static func pngColourTag(data: [UInt8], name: String) throws -> ColourTag {
        guard let ctx = spng_ctx_new(0) else { throw ImageIOError.corruptPNG(path: name, detail: "out of memory") }
        defer { spng_ctx_free(ctx) }
        func check(_ rc: Int32) throws(ImageIOError) {
            if rc != 0 { throw .corruptPNG(path: name, detail: String(cString: spng_strerror(rc))) }
        }
        try check(spng_set_chunk_limits(ctx, pngChunkSizeLimit, pngChunkCacheLimit))
        return try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> ColourTag in
            try check(spng_set_png_buffer(ctx, bytes.baseAddress, bytes.count))
            var ihdr = spng_ihdr()
            try check(spng_get_ihdr(ctx, &ihdr))
            return try pngColourTag(ctx, bytes: bytes, name: name)
        }
    }

    /// The colour chunks before the image data, in PNG's order of precedence: `cICP` (which libspng 0.7 does
    /// not read: found here by walking the chunk headers), `iCCP`, `sRGB`, then `gAMA` with `cHRM`.
    private static func pngColourTag(_ ctx: OpaquePointer, bytes: UnsafeRawBufferPointer, name: String) throws(ImageIOError) -> ColourTag {
        if let cicp = cicpChunk(bytes) { return cicp }
        var iccp = spng_iccp()
        let iccpStatus = spng_get_iccp(ctx, &iccp)
        if iccpStatus == 0, let profile = iccp.profile {
            if iccp.profile_len > ColourProfile.byteLimit {
                throw .unusableColourProfile(path: name, reason: ColourProfile.Problem.tooLarge(iccp.profile_len).words)
            }
            return .icc(Array(UnsafeRawBufferPointer(start: profile, count: iccp.profile_len)))
        }
        if iccpStatus != Int32(SPNG_ECHUNKAVAIL.rawValue) {
            // The chunks before the image data are read here first: a broken CRC or chunk shows here.
            throw .corruptPNG(path: name, detail: String(cString: spng_strerror(iccpStatus)))
        }
        var intent: UInt8 = 0
        if spng_get_srgb(ctx, &intent) == 0 { return .srgb }
        var gama: UInt32 = 0
        guard spng_get_gama_int(ctx, &gama) == 0 else { return .untagged }
        var chrm = spng_chrm_int()
        let chromaticities: [UInt32]? = spng_get_chrm_int(ctx, &chrm) == 0
            ? [chrm.white_point_x, chrm.white_point_y, chrm.red_x, chrm.red_y, chrm.green_x, chrm.green_y, chrm.blue_x, chrm.blue_y]
            : nil
        return .gamma(gama, chromaticities: chromaticities)
    }

    /// A `cICP` chunk before the first IDAT, read from the chunk headers (lengths checked against the data).
    private static func cicpChunk(_ bytes: UnsafeRawBufferPointer) -> ColourTag? {
        var at = 8
        while at + 12 <= bytes.count {
            let length = Int(bigEndianWord(bytes, at: at))
            let type = bigEndianWord(bytes, at: at + 4)
            if type == 0x4944_4154 { return nil }  // IDAT: colour chunks come before it
            guard length <= bytes.count - at - 12 else { return nil }
            if type == 0x6349_4350, length == 4 {  // cICP
                let d = at + 8
                return .cicp(primaries: bytes[d], transfer: bytes[d + 1], matrix: bytes[d + 2], fullRange: bytes[d + 3] == 1)
            }
            at += 12 + length
        }
        return nil
    }

    /// The big-endian 32-bit word at `offset`, or 0 when the data is too short.
    private static func bigEndianWord(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        guard bytes.count >= offset + 4 else { return 0 }
        return (offset..<offset + 4).reduce(0) { $0 << 8 | UInt32(bytes[$1]) }
    }
}
