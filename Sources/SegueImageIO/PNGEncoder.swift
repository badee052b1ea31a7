#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CDeflate
import CSegueKernels
import SegueCore

/// Encodes pixmaps as 8-bit PNG: row filters chosen here, the zlib stream by libdeflate, the chunks (signature,
/// IHDR, IDAT, IEND, each with its CRC) written here. libspng decodes (`ImageDecoder`); it is not used to encode.
public enum PNGEncoder {
    /// PNG bytes for `pixmap`: colour type 2 (RGB) when every pixel is opaque, otherwise colour type 6 (RGBA,
    /// straight alpha as PNG requires).
    ///
    /// - Parameter compressionLevel: 0 (fastest, stored: no compression) ... 9 (smallest, slowest), clamped.
    ///   Each level picks a libdeflate level and how the per-row filter is chosen (see `Setting.forLevel`):
    ///   a higher level is never meant to give a larger file, only a slower one.
    /// - Parameter knownOpaque: true when the caller knows every pixel is opaque (a frame drawn over an opaque
    ///   background): the pass that looks for a translucent pixel is skipped and RGB is written, the alpha
    ///   dropped (a pixel that was not opaque after all keeps its colour bytes). False: the pixels are looked at.
    /// - Parameter workspace: memory kept from one call to the next (a pipeline's worker encodes every frame
    ///   in its own); nil: allocated for this call alone.
    /// - Parameter colourSpace: the space the pixels are in, which the file says: Display P3 as an `iCCP` chunk
    ///   (the profile lcms2 builds from P3's primaries and the sRGB curve) and a `cICP` chunk (12, 13, 0, 1);
    ///   sRGB as nothing, since an untagged PNG is sRGB (the bytes are those of earlier releases).
    public static func encode(_ pixmap: Pixmap, compressionLevel: Int = 6, knownOpaque: Bool = false,
                              workspace: Workspace? = nil, colourSpace: ColourSpace = .srgb) throws -> [UInt8] {
        try encode(pixmap, compressionLevel: compressionLevel, knownOpaque: knownOpaque, workspace: workspace, rowKernels: true,
                   colourSpace: colourSpace)
    }

    /// `encode`, its rows made by the C kernels (`RowKernels`) or, with `rowKernels` false, by their Swift
    /// twins (`Rows`, `Filters`), for the tests that hold the two to the same bytes.
    static func encode(_ pixmap: Pixmap, compressionLevel: Int, knownOpaque: Bool, workspace: Workspace?,
                       rowKernels: Bool, colourSpace: ColourSpace = .srgb) throws -> [UInt8] {
        let width = pixmap.width, height = pixmap.height
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw ImageIOError.encodingFailed(detail: "invalid image size \(width)x\(height)")
        }
        let opaque = knownOpaque || pixmap.isOpaque
        let bpp = opaque ? 3 : 4
        let (rowBytes, rowOverflow) = width.multipliedReportingOverflow(by: bpp)
        let (filteredCount, sizeOverflow) = (rowBytes + 1).multipliedReportingOverflow(by: height)
        guard !rowOverflow, !sizeOverflow else {
            throw ImageIOError.encodingFailed(detail: "image too large \(width)x\(height)")
        }
        let setting = Setting.forLevel(compressionLevel)
        let workspace = workspace ?? Workspace()
        guard let compressor = workspace.compressor(level: setting.deflateLevel) else {
            throw ImageIOError.encodingFailed(detail: "out of memory")
        }

        // The filtered image: each row is its filter type byte and the filtered samples.
        let filtered = workspace.filtered(filteredCount)
        // Two rows of raw samples, the current and the one above (zero above the first, as PNG defines).
        let rows = workspace.rows(2 * rowBytes)
        rows.initialize(repeating: 0, count: 2 * rowBytes)
        pixmap.pixels.withUnsafeBufferPointer { pixels in
            let src = pixels.baseAddress!
            for y in 0..<height {
                let cur = rows + (y & 1) * rowBytes, prev = rows + ((y & 1) ^ 1) * rowBytes
                let line = src + y * width
                let out = filtered + y * (rowBytes + 1)
                if rowKernels {
                    if opaque { RowKernels.rgb(line, width, cur) } else { RowKernels.straightRGBA(line, width, cur) }
                    let type: UInt8 = switch setting.filters {
                    case .sampled: RowKernels.pickSampled(cur, prev, rowBytes, bpp, firstRow: y == 0)
                    case .full: RowKernels.pickFull(cur, prev, rowBytes, bpp, firstRow: y == 0)
                    default: setting.filters.choose(cur, prev, rowBytes, bpp, y)
                    }
                    out[0] = type
                    RowKernels.apply(type, cur, prev, out + 1, rowBytes, bpp)
                } else {
                    if opaque { Rows.rgb(line, width, cur) } else { Rows.straightRGBA(line, width, cur) }
                    let type = setting.filters.choose(cur, prev, rowBytes, bpp, y)
                    out[0] = type
                    Filters.apply(type, cur, prev, out + 1, rowBytes, bpp)
                }
            }
        }

        // The zlib stream, compressed aside (into memory the workspace keeps), then copied into IDAT chunks of
        // at most 2 GiB - 1 each: one, but for huge images stored uncompressed.
        let bound = libdeflate_zlib_compress_bound(compressor, filteredCount)
        let stream = workspace.compressed(bound)
        let length = libdeflate_zlib_compress(compressor, filtered, filteredCount, stream, bound)
        guard length > 0 else { throw ImageIOError.encodingFailed(detail: "compression failed") }
        let colour = colourChunks(colourSpace)
        let headerCount = 8 + 25 + colour.count  // signature, IHDR, colour chunks
        let chunkLimit = Int(Int32.max)
        let chunks = (length + chunkLimit - 1) / chunkLimit
        let capacity = headerCount + length + 12 * chunks + 12
        return [UInt8](unsafeUninitializedCapacity: capacity) { out, count in
            let base = out.baseAddress!
            writeHeader(base, width: width, height: height, colorType: opaque ? 2 : 6)
            (base + 33).update(from: colour, count: colour.count)
            var end = headerCount, done = 0
            while done < length {
                let part = min(chunkLimit, length - done)
                (base + end + 8).update(from: stream + done, count: part)
                end += writeChunk(base + end, type: "IDAT", dataLength: part)
                done += part
            }
            end += writeChunk(base + end, type: "IEND", dataLength: 0)
            count = end
        }
    }

    /// The memory `encode` needs, kept from one call to the next so that a long run of frames does not map,
    /// fault in and unmap a frame's worth of pages for each: the filtered image, two rows of samples, the
    /// compressed stream, and libdeflate's compressor (its hash tables). Each buffer grows to the largest
    /// asked for and stays. Not for two threads at once: one per encoding thread.
    public final class Workspace: @unchecked Sendable {
        /// Bytes that grow to the largest count asked for and stay, their contents undefined.
        private struct Buffer {
            var pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
            var capacity = 0

            mutating func atLeast(_ count: Int) -> UnsafeMutablePointer<UInt8> {
                if capacity < count {
                    pointer.deallocate()
                    pointer = .allocate(capacity: count)
                    capacity = count
                }
                return pointer
            }
        }

        private var filteredBuffer = Buffer(), rowsBuffer = Buffer(), compressedBuffer = Buffer()
        private var compressorLevel: Int32 = -1
        private var compressorPointer: OpaquePointer?

        public init() {}

        deinit {
            for b in [filteredBuffer, rowsBuffer, compressedBuffer] { b.pointer.deallocate() }
            if let compressorPointer { libdeflate_free_compressor(compressorPointer) }
        }

        func filtered(_ count: Int) -> UnsafeMutablePointer<UInt8> { filteredBuffer.atLeast(count) }
        func rows(_ count: Int) -> UnsafeMutablePointer<UInt8> { rowsBuffer.atLeast(count) }
        func compressed(_ count: Int) -> UnsafeMutablePointer<UInt8> { compressedBuffer.atLeast(count) }

        /// libdeflate's compressor at `level`, made once for each level asked for in turn.
        func compressor(level: Int32) -> OpaquePointer? {
            if compressorLevel != level || compressorPointer == nil {
                if let compressorPointer { libdeflate_free_compressor(compressorPointer) }
                compressorPointer = libdeflate_alloc_compressor(level)
                compressorLevel = level
            }
            return compressorPointer
        }
    }

    /// What one `compressionLevel` means: libdeflate's level (0 stored ... 12) and how row filters are chosen.
    struct Setting {
        var deflateLevel: Int32
        var filters: FilterChoice

        static func forLevel(_ level: Int) -> Setting {
            switch min(max(level, 0), 9) {
            case 0: Setting(deflateLevel: 0, filters: .none)
            // libdeflate's level 1 (its own match finder) was slower than its level 2 on frames of flat screens
            // and text: level 1 is level 2 with no filter search instead.
            case 1: Setting(deflateLevel: 2, filters: .up)
            case 2: Setting(deflateLevel: 2, filters: .sampled)
            case 3: Setting(deflateLevel: 4, filters: .sampled)
            case 4: Setting(deflateLevel: 5, filters: .full)
            case 5: Setting(deflateLevel: 6, filters: .full)
            case 6: Setting(deflateLevel: 7, filters: .full)
            case 7: Setting(deflateLevel: 9, filters: .full)
            case 8: Setting(deflateLevel: 10, filters: .full)
            default: Setting(deflateLevel: 12, filters: .full)
            }
        }
    }

    /// How each row's filter is picked. Both heuristics take the filter whose output has the least sum of
    /// absolute values (bytes read as signed), the usual predictor of what deflate compresses best.
    enum FilterChoice {
        /// Filter type 0 on every row (stored output: filtering would buy nothing).
        case none
        /// Up on every row but the first (Sub): no search at all.
        case up
        /// None, Sub, Up or Paeth, judged on every 8th pixel of the row (a few per cent of the work).
        case sampled
        /// All five filters, judged on the whole row.
        case full

        @inline(__always)
        func choose(_ cur: UnsafePointer<UInt8>, _ prev: UnsafePointer<UInt8>, _ n: Int, _ bpp: Int, _ y: Int) -> UInt8 {
            switch self {
            case .none: 0
            case .up: y == 0 ? 1 : 2
            case .sampled: Filters.pickSampled(cur, prev, n, bpp, firstRow: y == 0)
            case .full: Filters.pickFull(cur, prev, n, bpp, firstRow: y == 0)
            }
        }
    }

    // MARK: - Chunks

    /// The chunks that say `space`, made once: none for sRGB; for Display P3 its profile (zlib by libdeflate)
    /// in `iCCP` and its code points in `cICP` (P3 D65 primaries, sRGB transfer, RGB, full range).
    static func colourChunks(_ space: ColourSpace) -> [UInt8] {
        switch space {
        case .srgb: []
        case .displayP3: displayP3Chunks
        }
    }

    private static let displayP3Chunks: [UInt8] = {
        let profile = ColourProfile.displayP3.iccBytes
        guard !profile.isEmpty, let compressor = libdeflate_alloc_compressor(9) else { return [] }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, profile.count)
        var stream = [UInt8](repeating: 0, count: bound)
        let length = libdeflate_zlib_compress(compressor, profile, profile.count, &stream, bound)
        guard length > 0 else { return [] }
        return chunk("iCCP", Array("Display P3".utf8) + [0, 0] + stream[..<length]) + chunk("cICP", [12, 13, 0, 1])
    }()

    /// One whole chunk (length, type, data, CRC).
    private static func chunk(_ type: StaticString, _ data: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 12 + data.count) { out, count in
            (out.baseAddress! + 8).update(from: data, count: data.count)
            count = writeChunk(out.baseAddress!, type: type, dataLength: data.count)
        }
    }

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The signature and the IHDR chunk (33 bytes).
    private static func writeHeader(_ base: UnsafeMutablePointer<UInt8>, width: Int, height: Int, colorType: UInt8) {
        for (i, b) in signature.enumerated() { base[i] = b }
        let ihdr = base + 8
        let data = ihdr + 8
        putBigEndian(UInt32(width), data)
        putBigEndian(UInt32(height), data + 4)
        data[8] = 8  // bit depth
        data[9] = colorType
        data[10] = 0; data[11] = 0; data[12] = 0  // deflate, adaptive filtering, no interlace
        _ = writeChunk(ihdr, type: "IHDR", dataLength: 13)
    }

    /// Fills in the length, the type and the CRC around `dataLength` bytes already at `chunk + 8`; returns the
    /// chunk's whole size.
    @discardableResult
    private static func writeChunk(_ chunk: UnsafeMutablePointer<UInt8>, type: StaticString, dataLength: Int) -> Int {
        putBigEndian(UInt32(dataLength), chunk)
        type.withUTF8Buffer { t in for i in 0..<4 { chunk[4 + i] = t[i] } }
        let crc = libdeflate_crc32(0, chunk + 4, 4 + dataLength)
        putBigEndian(crc, chunk + 8 + dataLength)
        return 12 + dataLength
    }

    @inline(__always)
    private static func putBigEndian(_ v: UInt32, _ p: UnsafeMutablePointer<UInt8>) {
        p[0] = UInt8(truncatingIfNeeded: v >> 24)
        p[1] = UInt8(truncatingIfNeeded: v >> 16)
        p[2] = UInt8(truncatingIfNeeded: v >> 8)
        p[3] = UInt8(truncatingIfNeeded: v)
    }
}

/// The row work in C (png_rows.c): what `Rows.rgb`, `Rows.straightRGBA`, `Filters.apply`, `Filters.pickSampled`
/// and `Filters.pickFull` compute, byte for byte, in bodies compiled for AVX2 where the CPU has it (`avx2`) and
/// for the baseline elsewhere. With them the encoder's own share of a 1920x1080 PNG job fell from about a third
/// of its CPU time to a tenth, the rest being libdeflate's.
enum RowKernels {
    /// Whether the AVX2 bodies run on this CPU.
    static let avx2 = segue_has_avx2()

    @inline(__always)
    static func rgb(_ src: UnsafePointer<UInt32>, _ width: Int, _ out: UnsafeMutablePointer<UInt8>, avx2: Bool = avx2) {
        segue_png_rgb(src, width, out, avx2)
    }

    @inline(__always)
    static func straightRGBA(_ src: UnsafePointer<UInt32>, _ width: Int, _ out: UnsafeMutablePointer<UInt8>, avx2: Bool = avx2) {
        // 4 bytes a pixel: the row of samples is 4-byte aligned (its buffer is, and a row is 4 * width bytes).
        out.withMemoryRebound(to: UInt32.self, capacity: width) { segue_straight_rgba(src, width, $0, avx2) }
    }

    @inline(__always)
    static func apply(_ type: UInt8, _ cur: UnsafePointer<UInt8>, _ prev: UnsafePointer<UInt8>,
                      _ out: UnsafeMutablePointer<UInt8>, _ n: Int, _ bpp: Int, avx2: Bool = avx2) {
        segue_png_filter(Int32(type), cur, prev, out, n, bpp, avx2)
    }

    @inline(__always)
    static func pickSampled(_ cur: UnsafePointer<UInt8>, _ prev: UnsafePointer<UInt8>, _ n: Int, _ bpp: Int,
                            firstRow: Bool, avx2: Bool = avx2) -> UInt8 {
        UInt8(truncatingIfNeeded: segue_png_pick_sampled(cur, prev, n, bpp, firstRow, avx2))
    }

    @inline(__always)
    static func pickFull(_ cur: UnsafePointer<UInt8>, _ prev: UnsafePointer<UInt8>, _ n: Int, _ bpp: Int,
                         firstRow: Bool, avx2: Bool = avx2) -> UInt8 {
        UInt8(truncatingIfNeeded: segue_png_pick_full(cur, prev, n, bpp, firstRow, avx2))
    }
}

/// One row of pixels as PNG samples.
enum Rows {
    /// R, G, B of opaque premultiplied pixels (premultiplied and straight agree at alpha 255).
    @inline(__always)
    static func rgb(_ src: UnsafePointer<UInt32>, _ width: Int, _ out: UnsafeMutablePointer<UInt8>) {
        var o = out
        for x in 0..<width {
            let p = src[x]
            o[0] = UInt8(truncatingIfNeeded: p)
            o[1] = UInt8(truncatingIfNeeded: p &>> 8)
            o[2] = UInt8(truncatingIfNeeded: p &>> 16)
            o += 3
        }
    }

    /// Straight-alpha R, G, B, A of premultiplied pixels.
    @inline(__always)
    static func straightRGBA(_ src: UnsafePointer<UInt32>, _ width: Int, _ out: UnsafeMutablePointer<UInt8>) {
        var o = out
        for x in 0..<width {
            let (r, g, b, a) = Pixmap.unpremultiply(src[x])
            o[0] = r; o[1] = g; o[2] = b; o[3] = a
            o += 4
        }
    }
}

/// PNG's five row filters (type 0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth) and the choice between them.
enum Filters {
    @inline(__always)
    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let ia = Int32(a), ib = Int32(b), ic = Int32(c)
        let pa = abs(ib &- ic), pb = abs(ia &- ic), pc = abs(ia &+ ib &- 2 &* ic)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// The cost of one filtered byte: its distance from zero, read as signed.
    @inline(__always)
    static func cost(_ v: UInt8) -> Int { v < 128 ? Int(v) : 256 &- Int(v) }

    /// Filters `n` bytes of `cur` (the row above is `prev`) with `type` into `out`.
    static func apply(_ type: UInt8, _ cur: UnsafePointer<UInt8>, _ prev: UnsafePointer<UInt8>,
                      _ out: UnsafeMutablePointer<UInt8>, _ n: Int, _ bpp: Int) {
        switch type {
        case 0:
            out.update(from: cur, count: n)
        case 1:
            for i in 0..<bpp { out[i] = cur[i] }
            for i in bpp..<n { out[i] = cur[i] &- cur[i &- bpp] }
        case 2:
            for i in 0..<n { out[i] = cur[i] &- prev[i] }
        case 3:
            for i in 0..<bpp { out[i] = cur[i] &- prev[i] &>> 1 }
            for i in bpp..<n {
                out[i] = cur[i] &- UInt8(truncatingIfNeeded: (UInt16(cur[i &- bpp]) &+ UInt16(prev[i])) &>> 1)
            }
        default:
            for i in 0..<bpp { out[i] = cur[i] &- prev[i] }  // Paeth with a = c = 0 picks b
            for i in bpp..<n { out[i] = cur[i] &- paeth(cur[i &- bpp], prev[i], prev[i &- bpp]) }
        }
    }

    /// None, Sub, Up or Paeth by their cost on every 8th pixel (Sub on the first row, which has nothing above).
    static func pickSampled(_ cur: UnsafePointer<UInt8>, _ prev: UnsafePointer<UInt8>, _ n: Int, _ bpp: Int,
                            firstRow: Bool) -> UInt8 {
        let step = 8 &* bpp
        var none = 0, sub = 0, up = 0, pae = 0
        var i = bpp
        while i < n {
            for k in i..<min(i &+ bpp, n) {
                let x = cur[k], a = cur[k &- bpp], b = prev[k], c = prev[k &- bpp]
                none &+= cost(x)
                sub &+= cost(x &- a)
                up &+= cost(x &- b)
                pae &+= cost(x &- paeth(a, b, c))
            }
            i &+= step
        }
        if firstRow { return sub <= none ? 1 : 0 }
        var best: UInt8 = 0, least = none
        if sub < least { best = 1; least = sub }
        if up < least { best = 2; least = up }
        if pae < least { best = 4 }
        return best
    }

    /// The filter of least cost over the whole row, of all five.
    static func pickFull(_ cur: UnsafePointer<UInt8>, _ prev: UnsafePointer<UInt8>, _ n: Int, _ bpp: Int,
                         firstRow: Bool) -> UInt8 {
        var none = 0, sub = 0, up = 0, avg = 0, pae = 0
        for k in 0..<min(bpp, n) {
            let x = cur[k], b = prev[k]
            none &+= cost(x); sub &+= cost(x); up &+= cost(x &- b)
            avg &+= cost(x &- b &>> 1); pae &+= cost(x &- b)
        }
        var k = bpp
        while k < n {
            let x = cur[k], a = cur[k &- bpp], b = prev[k], c = prev[k &- bpp]
            none &+= cost(x)
            sub &+= cost(x &- a)
            up &+= cost(x &- b)
            avg &+= cost(x &- UInt8(truncatingIfNeeded: (UInt16(a) &+ UInt16(b)) &>> 1))
            pae &+= cost(x &- paeth(a, b, c))
            k &+= 1
        }
        if firstRow { return sub <= none ? 1 : 0 }
        var best: UInt8 = 0, least = none
        if sub < least { best = 1; least = sub }
        if up < least { best = 2; least = up }
        if avg < least { best = 3; least = avg }
        if pae < least { best = 4 }
        return best
    }
}
