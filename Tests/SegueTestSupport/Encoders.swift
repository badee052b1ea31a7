import CSPNG
import CTurboJPEG
import Foundation

// PNG and JPEG bytes made by code, for the tests that need files PNGEncoder never writes (every colour type,
// bit depth, palette and interlacing; JPEGs; hand-built chunks with valid or broken CRCs).

/// An encoder call that failed while making a test file.
public struct EncodingFailure: Error, CustomStringConvertible {
    public let description: String

    static func require<T>(_ value: T?, _ what: String = "an encoder call failed") throws -> T {
        guard let value else { throw EncodingFailure(description: what) }
        return value
    }

    static func require(_ ok: Bool, _ what: String = "an encoder call failed") throws {
        if !ok { throw EncodingFailure(description: what) }
    }
}

/// CRC-32 as PNG chunks use it (reflected polynomial 0xEDB88320).
public func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// One PNG chunk: length, type, data, CRC over type and data.
public func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body[...]))
}

public func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

/// Encodes raw samples (in libspng's SPNG_FMT_PNG layout, 16-bit samples host-endian) with libspng, for
/// PNG variants that `PNGEncoder` never writes.
public func spngEncode(
    width: Int, height: Int, bitDepth: UInt8, colorType: spng_color_type, interlaced: Bool = false,
    samples: [UInt8], palette: [(UInt8, UInt8, UInt8)] = [], paletteAlpha: [UInt8] = [],
    colorKey: (UInt16, UInt16, UInt16)? = nil
) throws -> [UInt8] {
    let ctx = try EncodingFailure.require(spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)))
    defer { spng_ctx_free(ctx) }
    var ihdr = spng_ihdr(
        width: UInt32(width), height: UInt32(height), bit_depth: bitDepth, color_type: UInt8(colorType.rawValue),
        compression_method: 0, filter_method: 0, interlace_method: interlaced ? 1 : 0)
    try EncodingFailure.require(spng_set_ihdr(ctx, &ihdr) == 0)
    try EncodingFailure.require(spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1) == 0)
    if !palette.isEmpty {
        var plte = spng_plte()
        plte.n_entries = UInt32(palette.count)
        withUnsafeMutableBytes(of: &plte.entries) { raw in
            let entries = raw.bindMemory(to: spng_plte_entry.self)
            for (i, c) in palette.enumerated() { entries[i] = spng_plte_entry(red: c.0, green: c.1, blue: c.2, alpha: 255) }
        }
        try EncodingFailure.require(spng_set_plte(ctx, &plte) == 0)
    }
    if !paletteAlpha.isEmpty || colorKey != nil {
        var trns = spng_trns()
        if let key = colorKey { (trns.red, trns.green, trns.blue) = key; trns.gray = key.0 }
        trns.n_type3_entries = UInt32(paletteAlpha.count)
        withUnsafeMutableBytes(of: &trns.type3_alpha) { raw in
            for (i, a) in paletteAlpha.enumerated() { raw[i] = a }
        }
        try EncodingFailure.require(spng_set_trns(ctx, &trns) == 0)
    }
    let rc = samples.withUnsafeBytes {
        spng_encode_image(ctx, $0.baseAddress, $0.count, Int32(SPNG_FMT_PNG.rawValue), Int32(SPNG_ENCODE_FINALIZE.rawValue))
    }
    try EncodingFailure.require(rc == 0, "spng_encode_image: \(String(cString: spng_strerror(rc)))")
    var length = 0
    var error: Int32 = 0
    let buffer = try EncodingFailure.require(spng_get_png_buffer(ctx, &length, &error))
    defer { free(buffer) }
    return [UInt8](UnsafeRawBufferPointer(start: buffer, count: length))
}

/// Compresses packed pixels with TurboJPEG (quality 95).
public func jpegEncode(
    width: Int, height: Int, pixels: [UInt8], format: TJPF, subsampling: TJSAMP = TJSAMP_444
) throws -> [UInt8] {
    let handle = try EncodingFailure.require(tjInitCompress())
    defer { tjDestroy(handle) }
    var output: UnsafeMutablePointer<UInt8>? = nil
    var size: UInt = 0
    let rc = pixels.withUnsafeBufferPointer {
        tjCompress2(
            handle, $0.baseAddress, Int32(width), 0, Int32(height), format.rawValue, &output, &size,
            Int32(subsampling.rawValue), 95, 0)
    }
    try EncodingFailure.require(rc == 0, "tjCompress2: \(String(cString: tjGetErrorStr2(handle)))")
    defer { tjFree(output) }
    return [UInt8](UnsafeBufferPointer(start: output, count: Int(size)))
}

