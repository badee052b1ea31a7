import CLCMS2
import Dispatch
import SegueCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an image file says about its colour, as read from its chunks or segments before its pixels. The
/// cache key for what it means (`ColourConversion`): a 10,000-frame job reads each profile once.
enum ColourTag: Hashable, Sendable {
    /// Nothing: read as sRGB.
    case untagged
    /// PNG's `sRGB` chunk.
    case srgb
    /// An ICC profile: PNG's `iCCP` (inflated by libspng), JPEG's APP2 segments joined.
    case icc([UInt8])
    /// PNG's `cICP`: code points of ITU-T H.273.
    case cicp(primaries: UInt8, transfer: UInt8, matrix: UInt8, fullRange: Bool)
    /// PNG's `gAMA` (the encoding gamma times 100,000) and, where given, `cHRM` (white, red, green, blue x and
    /// y, each times 100,000).
    case gamma(UInt32, chromaticities: [UInt32]?)
    /// HEIF's `nclx` colour box: its primaries and transfer (H.273), its matrix and range already used by libheif
    /// to make RGB. Unspecified (2) is BT.709's primaries and the sRGB curve, as browsers read it.
    case nclx(primaries: UInt16, transfer: UInt16)
}

/// What a colour tag means: the profile the pixels are in, or sRGB (taken as it is).
enum SourceColour: Sendable {
    case srgb
    case profile(ColourProfile)

    var isWide: Bool {
        if case let .profile(profile) = self { return profile.isWide }
        return false
    }
}

/// The layout of decoded samples handed to a conversion.
enum SampleLayout: Hashable, Sendable {
    /// Straight RGBA, 8 bits a sample (converted in place).
    case rgba8
    /// Straight RGBA, 16 bits a sample in host order (converted into RGBA8, rounded).
    case rgba16
    /// CMYK, 8 bits; `inverted` when 255 means no ink (Adobe's APP14 files).
    case cmyk8(inverted: Bool)
    /// Grey in every colour channel of RGBA8 (a grey image expanded), with a grey profile.
    case grey8
}

/// Converts decoded pixels from what their file says into a working space through Little CMS 2 (its transform,
/// or for 8-bit RGB between matrix/shaper profiles the tables it gives: `MatrixShaper`), each `ColourTransform`
/// made once per (tag, space, layout) and kept.
enum ColourConversion {
    /// A tag's meaning, or why it cannot be used.
    static func source(of tag: ColourTag) -> Result<SourceColour, ColourProfile.Problem> {
        if let known = sources.withLock({ $0[tag] }) { return known }
        let result = resolve(tag)
        sources.withLock { cache in
            if cache.count >= cacheLimit { cache.removeAll() }
            cache[tag] = result
        }
        return result
    }

    /// The transform from `tag` into `space` for samples laid out as `layout`; nil when none is needed (an sRGB
    /// image into sRGB: its bytes are kept exactly).
    static func transform(from tag: ColourTag, into space: ColourSpace, layout: SampleLayout)
        -> Result<ColourTransform?, ColourProfile.Problem>
    {
        let key = TransformKey(tag: tag, space: space, layout: layout)
        if let known = transforms.withLock({ $0[key] }) { return known }
        let result = source(of: tag).flatMap { source -> Result<ColourTransform?, ColourProfile.Problem> in
            let profile: ColourProfile
            switch source {
            case .srgb:
                if space == .srgb && layout != .rgba16 { return .success(nil) }
                profile = ColourProfile.srgb
            case let .profile(p): profile = p
            }
            return ColourTransform.make(from: profile, to: ColourProfile.of(space), layout: layout).map { $0 }
        }
        transforms.withLock { cache in
            if cache.count >= cacheLimit { cache.removeAll() }
            cache[key] = result
        }
        return result
    }

    /// Entries each cache keeps before it starts again (a job reads a handful of profiles).
    static let cacheLimit = 64

    private struct TransformKey: Hashable {
        var tag: ColourTag
        var space: ColourSpace
        var layout: SampleLayout
    }

    private static let sources = Mutex<[ColourTag: Result<SourceColour, ColourProfile.Problem>]>([:])
    private static let transforms = Mutex<[TransformKey: Result<ColourTransform?, ColourProfile.Problem>]>([:])

    /// The space H.273's primaries and transfer name (PNG's cICP, HEIF's nclx), or nil for one not read here.
    private static func codePoints(primaries: Int, transfer: Int, description: String) -> Result<SourceColour, ColourProfile.Problem>? {
        let gamut: ColourProfile.Primaries? = switch primaries {
        case 1: .bt709
        case 12: .displayP3
        case 9: .bt2020
        default: nil
        }
        let curve: ColourProfile.Curve? = switch transfer {
        case 13: .srgb
        case 1, 6, 14, 15: .bt709
        case 8: .power(1)
        default: nil
        }
        guard let gamut, let curve else { return nil }
        if gamut == .bt709 && curve == .srgb { return .success(.srgb) }
        guard let profile = ColourProfile.rgb(gamut, curve: curve, description: "\(description) \(primaries)/\(transfer)") else {
            return .failure(.noTransform)
        }
        return .success(.profile(profile))
    }

    /// What a tag means, worked out once per tag.
    private static func resolve(_ tag: ColourTag) -> Result<SourceColour, ColourProfile.Problem> {
        switch tag {
        case .untagged, .srgb:
            return .success(.srgb)
        case let .icc(bytes):
            return ColourProfile.open(icc: bytes).map { $0.isSRGB ? .srgb : .profile($0) }
        case let .cicp(primaries, transfer, matrix, fullRange):
            guard matrix == 0, fullRange, let source = codePoints(primaries: Int(primaries), transfer: Int(transfer), description: "cICP") else {
                return .failure(.unsupportedCICP(primaries: primaries, transfer: transfer, matrix: matrix, fullRange: fullRange))
            }
            return source
        case let .nclx(primaries, transfer):
            guard let source = codePoints(primaries: primaries == 2 ? 1 : Int(primaries), transfer: transfer == 2 ? 13 : Int(transfer), description: "nclx") else {
                return .failure(.unsupportedNCLX(primaries: primaries, transfer: transfer))
            }
            return source
        case let .gamma(gama, chromaticities):
            // A gamma PNG says nothing plausible about (0 or absurd) is read as untagged, as browsers do.
            guard (10_000...1_000_000).contains(gama) else { return .success(.srgb) }
            var gamut = ColourProfile.Primaries.bt709
            if let c = chromaticities, c.count == 8 {
                let v = c.map { Double($0) / 100_000 }
                let given = ColourProfile.Primaries(white: (v[0], v[1]), red: (v[2], v[3]), green: (v[4], v[5]), blue: (v[6], v[7]))
                if given.isPlausible { gamut = given }
            }
            // 1/2.2 with sRGB's primaries is how many writers say "sRGB": read as it is, as before.
            if (45_000...46_000).contains(gama) && gamut.isNear(.bt709) { return .success(.srgb) }
            guard let profile = ColourProfile.rgb(gamut, curve: .power(100_000 / Double(gama)), description: "gAMA \(gama)") else {
                return .failure(.noTransform)
            }
            return .success(.profile(profile))
        }
    }
}

/// A conversion from an input's profile into a working space, for one sample layout: relative colorimetric,
/// alpha copied. Its path is decided once, when it is made: 8-bit RGB between two matrix/shaper profiles goes
/// through the tables lcms2 gives (`MatrixShaper`), grey through a table of its 256 levels, everything else
/// through a Little CMS transform made with no one-pixel cache, so that threads may share it.
final class ColourTransform: @unchecked Sendable {
    /// How the pixels are converted.
    enum Path: Sendable {
        /// lcms2's own transform.
        case littleCMS
        /// `MatrixShaper`'s tables and kernel (8-bit RGB, both profiles matrix/shaper).
        case matrixShaper
        /// Each grey level's RGB looked up.
        case greyTable
    }

    let path: Path
    private let handle: cmsHTRANSFORM?
    private let matrixShaper: MatrixShaper?
    let layout: SampleLayout
    /// For `.grey8`: each grey level's RGB in the working space (packed as a pixmap's pixel, alpha 0).
    private let greyTable: [UInt32]
    /// The profiles the transform was made from, kept alive with it.
    private let profiles: (ColourProfile, ColourProfile)

    private init(path: Path, handle: cmsHTRANSFORM? = nil, matrixShaper: MatrixShaper? = nil, layout: SampleLayout,
                 greyTable: [UInt32] = [], profiles: (ColourProfile, ColourProfile)) {
        self.path = path
        self.handle = handle
        self.matrixShaper = matrixShaper
        self.layout = layout
        self.greyTable = greyTable
        self.profiles = profiles
    }

    deinit { if let handle { cmsDeleteTransform(handle) } }

    /// The transform from `source` into `target` for `layout`; `matrixShaper: false` keeps lcms2's own
    /// transform where the fast path would be taken (what the tests and the bench hold the fast path to).
    static func make(from source: ColourProfile, to target: ColourProfile, layout: SampleLayout, matrixShaper allowed: Bool = true)
        -> Result<ColourTransform, ColourProfile.Problem>
    {
        let expected: ColourProfile.Channels = switch layout {
        case .rgba8, .rgba16: .rgb
        case .cmyk8: .cmyk
        case .grey8: .grey
        }
        guard source.channels == expected else { return .failure(.channels(source.channels)) }
        let intent = UInt32(INTENT_RELATIVE_COLORIMETRIC)
        if layout == .grey8 {
            // 256 levels through lcms2 once; the pixels are then looked up.
            guard let grey = cmsCreateTransform(source.handle, CLCMS2_TYPE_GRAY_8, target.handle, CLCMS2_TYPE_RGB_8, intent, CLCMS2_FLAGS_NOCACHE) else {
                return .failure(.noTransform)
            }
            defer { cmsDeleteTransform(grey) }
            let levels = (0...255).map { UInt8($0) }
            var rgb = [UInt8](repeating: 0, count: 256 * 3)
            cmsDoTransform(grey, levels, &rgb, 256)
            let table = (0..<256).map { Pixmap.pack(r: UInt32(rgb[3 * $0]), g: UInt32(rgb[3 * $0 + 1]), b: UInt32(rgb[3 * $0 + 2]), a: 0) }
            return .success(ColourTransform(path: .greyTable, layout: layout, greyTable: table, profiles: (source, target)))
        }
        if layout == .rgba8, allowed, let tables = MatrixShaper.make(from: source, to: target) {
            return .success(ColourTransform(path: .matrixShaper, matrixShaper: tables, layout: layout, profiles: (source, target)))
        }
        let (input, flags): (UInt32, UInt32) = switch layout {
        case .rgba8: (CLCMS2_TYPE_RGBA_8, CLCMS2_FLAGS_COPY_ALPHA)
        // 16-bit input is not optimised: lcms2 would sample the conversion into a grid, whose interpolation
        // lands a few levels off near the gamut's edge (P3's 234,51,35 as 253,6,4, where it is 255,0,0).
        case .rgba16: (CLCMS2_TYPE_RGBA_16, CLCMS2_FLAGS_COPY_ALPHA | CLCMS2_FLAGS_NOOPTIMIZE)
        case let .cmyk8(inverted): (inverted ? CLCMS2_TYPE_CMYK_8_REV : CLCMS2_TYPE_CMYK_8, 0)
        case .grey8: (0, 0)
        }
        guard let handle = cmsCreateTransform(source.handle, input, target.handle, CLCMS2_TYPE_RGBA_8, intent, flags | CLCMS2_FLAGS_NOCACHE) else {
            return .failure(.noTransform)
        }
        return .success(ColourTransform(path: .littleCMS, handle: handle, layout: layout, profiles: (source, target)))
    }

    /// Converts `count` pixels of `source` (laid out as `layout`) into straight RGBA8 at `destination`, which
    /// may be `source` itself for `.rgba8` and `.grey8`, in bands over `threads` threads (all cores unless told).
    /// CMYK's alpha is set opaque.
    func apply(_ source: UnsafeRawPointer, _ destination: UnsafeMutablePointer<UInt32>, count: Int, threads: Int = ColourTransform.cores) {
        switch path {
        case .greyTable:
            let pixels = source.assumingMemoryBound(to: UInt32.self)
            greyTable.withUnsafeBufferPointer { table in
                for i in 0..<count {
                    let p = pixels[i]
                    destination[i] = table[Int(p & 0xFF)] | (p & 0xFF00_0000)
                }
            }
        case .matrixShaper:
            let tables = matrixShaper!
            Self.inBands(source, destination, count: count, sourceStride: 4, threads: threads) { from, to, n in
                tables.apply(from.assumingMemoryBound(to: UInt32.self), to, count: n)
            }
        case .littleCMS:
            if case .cmyk8 = layout { destination.update(repeating: 0xFF00_0000, count: count) }
            let (stride, transform) = (layout == .rgba16 ? 8 : 4, UInt(bitPattern: handle))
            Self.inBands(source, destination, count: count, sourceStride: stride, threads: threads) { from, to, n in
                cmsDoTransform(UnsafeMutableRawPointer(bitPattern: transform), from, to, UInt32(n))
            }
        }
    }

    /// Pixels a thread converts at least: an image under twice this is converted on the calling thread.
    static let minimumPiece = 1 << 16
    /// The cores the pieces are spread over.
    static let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// `body` over the pixels in pieces (bands of rows; the pieces never overlap, in place or not), each at most
    /// 2^24 pixels (lcms2's count is 32-bit): on all cores, 4 pieces a core (a 4K screen is 32 pieces on 8
    /// cores), or one after another on the calling thread for `threads` 1. A transform made with NOCACHE, and
    /// the matrix/shaper tables, keep no state between calls, so threads share them.
    private static func inBands(_ source: UnsafeRawPointer, _ destination: UnsafeMutablePointer<UInt32>, count: Int, sourceStride: Int,
                                threads: Int, _ body: @escaping @Sendable (UnsafeRawPointer, UnsafeMutablePointer<UInt32>, Int) -> Void) {
        let limit = 1 << 24
        let pieces = threads <= 1
            ? (count + limit - 1) / limit
            : max((count + limit - 1) / limit, min(count / minimumPiece, 4 * min(threads, cores)))
        guard pieces > 1 else {
            if count > 0 { body(source, destination, count) }
            return
        }
        let share = (count + pieces - 1) / pieces
        // The addresses cross to the worker threads as integers: each converts its own range only, and
        // concurrentPerform returns after every one is done.
        let (from, to) = (UInt(bitPattern: source), UInt(bitPattern: destination))
        let piece: @Sendable (Int) -> Void = { k in
            let start = k * share
            let n = min(share, count - start)
            guard n > 0 else { return }
            body(UnsafeRawPointer(bitPattern: from + UInt(start * sourceStride))!,
                 UnsafeMutablePointer(bitPattern: to + UInt(start * 4))!, n)
        }
        if threads <= 1 {
            for k in 0..<pieces { piece(k) }
        } else {
            DispatchQueue.concurrentPerform(iterations: pieces, execute: piece)
        }
    }
}

extension ColourProfile.Primaries {
    /// Each chromaticity within 0.005 of `other`'s.
    func isNear(_ other: Self) -> Bool { zip(values, other.values).allSatisfy { abs($0 - $1) <= 0.005 } }
}
