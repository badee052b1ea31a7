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

/// A `width` x `height` PNG of one colour, `width` x `height` pixels however large, in a file of about
/// `height * width / 8` bytes: 1-bit palette rows of zeros in stored deflate blocks, 40 rows a block, each block
/// its own IDAT chunk (identical chunks share one CRC). For decoders and limits at sizes no test should encode.
public func flatPalettePNG(width: Int, height: Int, colour: (UInt8, UInt8, UInt8) = (0x20, 0x60, 0xA0)) -> [UInt8] {
    let rowBytes = 1 + (width + 7) / 8
    let rowsPerBlock = max(1, 65_535 / rowBytes)
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    png += pngChunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [1, 3, 0, 0, 0])
    png += pngChunk("PLTE", [colour.0, colour.1, colour.2])
    png += pngChunk("IDAT", [0x78, 0x01])  // zlib: deflate, 32 KiB window, no dictionary
    var made: [Int: [UInt8]] = [:]  // a block's chunk by its length (and whether it is the last)
    var rows = 0
    while rows < height {
        let n = min(rowsPerBlock, height - rows)
        rows += n
        let last = rows == height
        let length = n * rowBytes
        let key = length * 2 + (last ? 1 : 0)
        if made[key] == nil {
            let header: [UInt8] = [last ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            made[key] = pngChunk("IDAT", header + [UInt8](repeating: 0, count: length))
        }
        png += made[key]!
    }
    // Adler-32 of all-zero data: a stays 1, b adds 1 a byte.
    let b = UInt32((height * rowBytes) % 65_521)
    png += pngChunk("IDAT", bigEndian(b << 16 | 1))
    png += pngChunk("IEND", [])
    return png
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

