import CHeif
import SegueCore

extension ImageDecoder {
    /// Whether `data` is a HEIF file (an iPhone's HEIC photo): an ISO base media `ftyp` box whose major or
    /// compatible brands name HEIF images.
    static func isHEIF(_ data: [UInt8]) -> Bool {
        guard data.count >= 16, Array(data[4..<8]) == Array("ftyp".utf8) else { return false }
        let size = min(data.count, Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3]))
        let brands = [8] + Array(stride(from: 16, to: size - 3, by: 4))
        return brands.contains { heifBrands.contains(String(decoding: data[$0..<$0 + 4], as: UTF8.self)) }
    }

    /// The longest side libheif reads (its own default, said here so that another libheif cannot loosen it):
    /// over `Limits.maxPixels`' 16384 a side, so the pixel limit is what refuses a large image, with its size.
    static let heifSideLimit: Int32 = 32768

    /// HEIF's image brands (HEVC stills and sequences, and the generic image brands).
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]

    /// Decodes HEIF bytes (an iPhone's HEIC photo) into a premultiplied pixmap through libheif, opened at run
    /// time: without libheif1 the image is refused in one line that says to install it.
    ///
    /// The primary image is decoded, turned and mirrored as the file says; 10- and 12-bit images are rounded to
    /// 8 bits. Its colour is the file's ICC profile (what iPhones write), else its `nclx` box's primaries and
    /// transfer (libheif has already used its matrix and range), else sRGB; converted into `space` as PNG and JPEG
    /// are. The size is checked against `maxPixels` from the file's boxes, before any pixel is decoded.
    public static func decodeHEIC(data: [UInt8], name: String, maxPixels: Int = defaultMaxPixels, into space: ColourSpace = .srgb) throws -> Pixmap {
        try withPrimaryImage(data, name: name) { handle throws -> Pixmap in
            let width = Int(segue_heif_image_handle_get_width(handle)), height = Int(segue_heif_image_handle_get_height(handle))
            try checkSize(width: width, height: height, name: name, maxPixels: maxPixels)
            let tag = try heifColourTag(handle, name: name)
            let bits = Int(segue_heif_image_handle_get_luma_bits_per_pixel(handle))
            let deep = bits > 8
            let transform = try colourTransform(tag, into: space, layout: deep ? .rgba16 : .rgba8, name: name)

            var image: OpaquePointer?
            try check(segue_heif_decode_image(handle, &image, deep ? SEGUE_HEIF_RGBA16_LE : SEGUE_HEIF_RGBA8), name: name)
            guard let image else { throw ImageIOError.corruptHEIC(path: name, detail: "no image decoded") }
            defer { segue_heif_image_release(image) }
            var stride: Int32 = 0
            guard Int(segue_heif_image_get_width(image)) == width, Int(segue_heif_image_get_height(image)) == height,
                  let plane = segue_heif_image_get_plane_readonly(image, &stride),
                  Int(stride) >= width * (deep ? 8 : 4)
            else {
                throw ImageIOError.corruptHEIC(path: name, detail: "the decoded image is not the \(width)x\(height) its header says")
            }
            let rowBytes = Int(stride)
            var pixels = [UInt32](unsafeUninitializedCapacity: width * height) { buffer, count in
                let out = UnsafeMutableRawPointer(buffer.baseAddress!)
                if deep {
                    // Samples of `bits` bits in 16-bit words, widened to 16 bits (the nearest of 65,535 levels),
                    // then through the transform or rounded to 8 bits.
                    let top = UInt32(1) << UInt32(min(bits, 16)) - 1
                    var wide = [UInt16](repeating: 0, count: width * 4)
                    for y in 0..<height {
                        let row = UnsafeRawPointer(plane + y * rowBytes)
                        for i in 0..<width * 4 {
                            let v = min(UInt32(UInt16(littleEndian: row.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self))), top)
                            wide[i] = UInt16((v * 65535 + top / 2) / top)
                        }
                        let target = buffer.baseAddress! + y * width
                        wide.withUnsafeBufferPointer { samples in
                            if let transform {
                                transform.apply(UnsafeRawPointer(samples.baseAddress!), target, count: width)
                            } else {
                                for x in 0..<width {
                                    func level(_ v: UInt16) -> UInt32 { (UInt32(v) * 255 + 32767) / 65535 }
                                    target[x] = Pixmap.pack(r: level(samples[4 * x]), g: level(samples[4 * x + 1]),
                                                            b: level(samples[4 * x + 2]), a: level(samples[4 * x + 3]))
                                }
                            }
                        }
                    }
                } else {
                    for y in 0..<height {
                        (out + y * width * 4).copyMemory(from: plane + y * rowBytes, byteCount: width * 4)
                    }
                    transform?.apply(UnsafeRawPointer(buffer.baseAddress!), buffer.baseAddress!, count: width * height)
                }
                count = width * height
            }
            premultiplyInPlace(&pixels)
            return Pixmap(width: width, height: height, pixels: pixels)
        }
    }

    /// What HEIF `data` says about its colour (`ImageDecoder.colour`), from its boxes alone.
    static func heifColourTag(data: [UInt8], name: String) throws -> ColourTag {
        try withPrimaryImage(data, name: name) { try heifColourTag($0, name: name) }
    }

    /// The primary image of HEIF `data`, read by libheif (its boxes only: nothing is decoded) and handed to
    /// `body`, which checks the size against the pixel limit. libheif refuses a side over `heifSideLimit` itself,
    /// as it reads the boxes.
    private static func withPrimaryImage<T>(_ data: [UInt8], name: String, _ body: (OpaquePointer) throws -> T) throws -> T {
        var line = [CChar](repeating: 0, count: 512)
        if segue_heif_load(&line, line.count) != 0 {
            throw ImageIOError.heifUnavailable(path: name, reason: String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard let context = segue_heif_context_alloc() else { throw ImageIOError.corruptHEIC(path: name, detail: "out of memory") }
        defer { segue_heif_context_free(context) }
        segue_heif_context_set_maximum_image_size_limit(context, heifSideLimit)
        return try data.withUnsafeBytes { bytes throws -> T in
            // The bytes outlive the context: it reads them in place.
            try check(segue_heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count), name: name)
            var handle: OpaquePointer?
            try check(segue_heif_context_get_primary_image_handle(context, &handle), name: name)
            guard let handle else { throw ImageIOError.corruptHEIC(path: name, detail: "no primary image") }
            defer { segue_heif_image_handle_release(handle) }
            return try body(handle)
        }
    }

    /// The image's ICC profile, else its `nclx` box, else nothing (sRGB).
    private static func heifColourTag(_ handle: OpaquePointer, name: String) throws(ImageIOError) -> ColourTag {
        let size = segue_heif_image_handle_get_raw_color_profile_size(handle)
        if size > 0 {
            if size > ColourProfile.byteLimit {
                throw .unusableColourProfile(path: name, reason: ColourProfile.Problem.tooLarge(size).words)
            }
            var profile = [UInt8](repeating: 0, count: size)
            try check(segue_heif_image_handle_get_raw_color_profile(handle, &profile), name: name)
            return .icc(profile)
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        guard segue_heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx else { return .untagged }
        defer { segue_heif_nclx_color_profile_free(nclx) }
        return .nclx(primaries: UInt16(clamping: nclx.pointee.color_primaries.rawValue),
                     transfer: UInt16(clamping: nclx.pointee.transfer_characteristics.rawValue))
    }

    /// libheif's error in its own words, on one line: a corrupt image, or one past libheif's own size limits.
    private static func check(_ error: heif_error, name: String) throws(ImageIOError) {
        guard error.code != heif_error_Ok else { return }
        let message = (error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)")
            .split(whereSeparator: \.isNewline).map { String($0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()) }
            .filter { !$0.isEmpty }
            .joined(separator: "; ")
        if error.subcode == heif_suberror_Security_limit_exceeded { throw .heicOverLimit(path: name, detail: message) }
        throw .corruptHEIC(path: name, detail: message)
    }
}
