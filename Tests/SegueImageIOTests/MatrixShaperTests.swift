import CLCMS2
import CSegueKernels
import SegueCore
@testable import SegueImageIO
import Testing

/// The matrix/shaper fast path (issue 46) held to Little CMS 2's own transform, the path it replaced: every one
/// of the 2^24 RGB colours (with alpha varied, which must come through as it was) within one level, channel by
/// channel, for each pair of profiles; a 4K picture the same on all cores; its plain and AVX2 bodies bit for bit.
@Suite(.serialized) struct MatrixShaperTests {
    /// The largest difference from lcms2 allowed, in levels.
    static let tolerance = 1

    enum Pair: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case displayP3IntoSRGB = "display-p3 into srgb"
        case srgbIntoDisplayP3 = "srgb into display-p3"
        case bt2020IntoSRGB = "bt2020 into srgb"
        /// A PNG's gAMA 1/1.8 with sRGB's cHRM.
        case gamma18IntoSRGB = "gamma 1.8 into srgb"
        /// Display P3 as an ICC profile read from a file's bytes (what an iPhone's PNG or JPEG carries).
        case displayP3ICCIntoSRGB = "display-p3 icc into srgb"

        var testDescription: String { rawValue }

        var profiles: (ColourProfile, ColourProfile) {
            switch self {
            case .displayP3IntoSRGB: (ColourProfile.displayP3, ColourProfile.srgb)
            case .srgbIntoDisplayP3: (ColourProfile.srgb, ColourProfile.displayP3)
            case .bt2020IntoSRGB: (ColourProfile.rgb(.bt2020, curve: .bt709, description: "BT.2020")!, ColourProfile.srgb)
            case .gamma18IntoSRGB: (ColourProfile.rgb(.bt709, curve: .power(100_000 / 55_556), description: "gAMA 55556")!, ColourProfile.srgb)
            case .displayP3ICCIntoSRGB: (try! ColourProfile.open(icc: ColourProfile.displayP3.iccBytes).get(), ColourProfile.srgb)
            }
        }

        /// The fast path's transform and lcms2's, from the same profiles.
        func transforms() throws -> (fast: ColourTransform, general: ColourTransform) {
            let (source, target) = profiles
            return (try ColourTransform.make(from: source, to: target, layout: .rgba8).get(),
                    try ColourTransform.make(from: source, to: target, layout: .rgba8, matrixShaper: false).get())
        }
    }

    /// The worst channel difference between two conversions of the same pixels, how many pixels are equal, and
    /// whether every alpha is `input`'s.
    static func compare(_ a: [UInt32], _ b: [UInt32], input: [UInt32]) -> (worst: Int, equal: Int, alphaKept: Bool) {
        var worst = 0, equal = 0, alphaKept = true
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                input.withUnsafeBufferPointer { input in
                    for i in 0..<a.count {
                        let p = a[i], q = b[i]
                        if p >> 24 != input[i] >> 24 { alphaKept = false }
                        if p == q { equal += 1; continue }
                        for shift: UInt32 in [0, 8, 16] {
                            worst = max(worst, abs(Int(p >> shift & 0xFF) - Int(q >> shift & 0xFF)))
                        }
                    }
                }
            }
        }
        return (worst, equal, alphaKept)
    }

    @Test(arguments: Pair.allCases)
    func everyColourWithinOneLevelOfLittleCMS(pair: Pair) throws {
        let (fast, general) = try pair.transforms()
        #expect(fast.path == .matrixShaper)
        #expect(general.path == .littleCMS)
        let count = 1 << 24
        let input = [UInt32](unsafeUninitializedCapacity: count) { buffer, written in
            for i in 0..<count { buffer[i] = UInt32(i) | UInt32(truncatingIfNeeded: i &* 131) << 24 }
            written = count
        }
        var fastOut = input, generalOut = input
        fastOut.withUnsafeMutableBufferPointer { fast.apply(UnsafeRawPointer($0.baseAddress!), $0.baseAddress!, count: count) }
        generalOut.withUnsafeMutableBufferPointer { general.apply(UnsafeRawPointer($0.baseAddress!), $0.baseAddress!, count: count) }
        let (worst, equal, alphaKept) = Self.compare(fastOut, generalOut, input: input)
        let share = Double(equal) / Double(count) * 100
        print("MatrixShaperTests: \(pair.rawValue): worst \(worst) level(s) from lcms2, \(equal) of 2^24 colours equal (\(share)%)")
        #expect(worst <= Self.tolerance, "\(pair.rawValue): \(worst) levels from lcms2's transform")
        #expect(alphaKept)
        // Black stays black and white white.
        #expect(fastOut[0] & 0xFF_FFFF == 0)
        #expect(fastOut[count - 1] & 0xFF_FFFF == 0xFF_FFFF)
    }

    /// Against lcms2's unoptimised transform too (its float pipeline, without the 8-bit matrix/shaper
    /// optimisation its default transform makes): every colour of a grid of every third level and every grey.
    @Test(arguments: Pair.allCases)
    func gridWithinOneLevelOfUnoptimisedLittleCMS(pair: Pair) throws {
        let (fast, general) = try pair.transforms()
        let (source, target) = pair.profiles
        let handle = try #require(cmsCreateTransform(source.handle, CLCMS2_TYPE_RGBA_8, target.handle, CLCMS2_TYPE_RGBA_8,
                                                     UInt32(INTENT_RELATIVE_COLORIMETRIC),
                                                     CLCMS2_FLAGS_COPY_ALPHA | CLCMS2_FLAGS_NOOPTIMIZE | CLCMS2_FLAGS_NOCACHE))
        defer { cmsDeleteTransform(handle) }
        var input: [UInt32] = []
        for b in stride(from: 0, through: 255, by: 3) {
            for g in stride(from: 0, through: 255, by: 3) {
                for r in stride(from: 0, through: 255, by: 3) { input.append(UInt32(r | g << 8 | b << 16) | 0xFF00_0000) }
            }
        }
        for v in 0...255 { input.append(UInt32(v * 0x01_0101) | 0x8000_0000) }
        var fastOut = input, reference = input, generalOut = input
        fastOut.withUnsafeMutableBufferPointer { fast.apply(UnsafeRawPointer($0.baseAddress!), $0.baseAddress!, count: $0.count) }
        generalOut.withUnsafeMutableBufferPointer { general.apply(UnsafeRawPointer($0.baseAddress!), $0.baseAddress!, count: $0.count) }
        reference.withUnsafeMutableBufferPointer { cmsDoTransform(handle, $0.baseAddress!, $0.baseAddress!, UInt32($0.count)) }
        let (worst, equal, alphaKept) = Self.compare(fastOut, reference, input: input)
        // lcms2's optimised transform against its own unoptimised one, for scale: it too is a level off in places.
        let own = Self.compare(generalOut, reference, input: input)
        print("MatrixShaperTests: \(pair.rawValue): worst \(worst) level(s) from lcms2 unoptimised, \(equal) of \(input.count) equal "
              + "(lcms2's default transform: worst \(own.worst), \(own.equal) equal)")
        #expect(worst <= Self.tolerance)
        #expect(alphaKept)
    }

    /// A 4K picture (smooth gradients through the whole cube, with grain) on all cores, against lcms2 on all
    /// cores and against the fast path on one thread; the plain body against the AVX2 body.
    @Test func fourKScreenOnAllCores() throws {
        let (fast, general) = try Pair.displayP3IntoSRGB.transforms()
        let (width, height) = (3840, 2160)
        let count = width * height
        var state: UInt32 = 0x9E37_79B9
        let input = [UInt32](unsafeUninitializedCapacity: count) { buffer, written in
            for y in 0..<height {
                for x in 0..<width {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let grain = Int(state >> 29) - 4
                    func level(_ v: Int) -> UInt32 { UInt32(min(255, max(0, v + grain))) }
                    let r = level(x * 255 / (width - 1)), g = level(y * 255 / (height - 1)), b = level(((x + y) / 7) % 256)
                    buffer[y * width + x] = r | g << 8 | b << 16 | UInt32(state >> 24) << 24
                }
            }
            written = count
        }
        var fastOut = input, generalOut = input, oneThread = input
        fastOut.withUnsafeMutableBufferPointer { fast.apply(UnsafeRawPointer($0.baseAddress!), $0.baseAddress!, count: count) }
        generalOut.withUnsafeMutableBufferPointer { general.apply(UnsafeRawPointer($0.baseAddress!), $0.baseAddress!, count: count) }
        oneThread.withUnsafeMutableBufferPointer { fast.apply(UnsafeRawPointer($0.baseAddress!), $0.baseAddress!, count: count, threads: 1) }
        let (worst, equal, alphaKept) = Self.compare(fastOut, generalOut, input: input)
        print("MatrixShaperTests: 4K display-p3 into srgb: worst \(worst), \(equal) of \(count) pixels equal to lcms2's")
        #expect(worst <= Self.tolerance)
        #expect(alphaKept)
        #expect(oneThread == fastOut)

        // The plain body and the AVX2 body (where this CPU has it), not in place.
        let tables = try #require(MatrixShaper.make(from: ColourProfile.displayP3, to: ColourProfile.srgb))
        var plain = [UInt32](repeating: 0, count: count), vector = plain
        input.withUnsafeBufferPointer { src in
            plain.withUnsafeMutableBufferPointer { tables.apply(src.baseAddress!, $0.baseAddress!, count: count, avx2: false) }
            vector.withUnsafeMutableBufferPointer { tables.apply(src.baseAddress!, $0.baseAddress!, count: count, avx2: MatrixShaper.avx2) }
        }
        #expect(plain == fastOut)
        #expect(vector == fastOut)
    }

    /// A profile with colorants and curves that also carries an A2B0 table: lcms2 converts through the table, so
    /// the fast path is not taken.
    @Test func aProfileWithALookUpTableKeepsLittleCMS() throws {
        let bytes = ColourProfile.displayP3.iccBytes
        let handle = try #require(cmsOpenProfileFromMem(bytes, UInt32(bytes.count)))
        defer { cmsCloseProfile(handle) }
        let pipeline = try #require(cmsPipelineAlloc(nil, 3, 3))
        defer { cmsPipelineFree(pipeline) }
        #expect(cmsPipelineInsertStage(pipeline, cmsAT_BEGIN, cmsStageAllocToneCurves(nil, 3, nil)) != 0)
        #expect(cmsWriteTag(handle, cmsSigAToB0Tag, UnsafeRawPointer(pipeline)) != 0)
        var count: UInt32 = 0
        #expect(cmsSaveProfileToMem(handle, nil, &count) != 0)
        var saved = [UInt8](repeating: 0, count: Int(count))
        #expect(cmsSaveProfileToMem(handle, &saved, &count) != 0)
        let profile = try ColourProfile.open(icc: saved).get()
        #expect(cmsIsMatrixShaper(profile.handle) != 0)
        #expect(!MatrixShaper.applies(from: profile, to: .srgb))
        // As a target lcms2 reads its B2A tags, of which it has none: its colorants and curves serve.
        #expect(MatrixShaper.applies(from: .srgb, to: profile))
        #expect(MatrixShaper.make(from: profile, to: .srgb) == nil)
        #expect(try ColourTransform.make(from: profile, to: .srgb, layout: .rgba8).get().path == .littleCMS)
        // The same profile without the table takes the fast path.
        let plain = try ColourProfile.open(icc: bytes).get()
        #expect(MatrixShaper.applies(from: plain, to: .srgb))
        #expect(MatrixShaper.make(from: plain, to: .srgb) != nil)
    }

    /// Which path each conversion takes: sRGB into sRGB is skipped; 8-bit RGB between matrix/shaper profiles takes
    /// the fast path; 16-bit, CMYK and grey keep theirs.
    @Test func pathsChosen() throws {
        #expect(PixelConversion(from: .srgb, into: .srgb)?.path == "skipped")
        #expect(PixelConversion(from: .displayP3, into: .srgb)?.path == "matrix-shaper")
        #expect(PixelConversion(from: .displayP3, into: .srgb, method: .littleCMS)?.path == "lcms2")
        #expect(PixelConversion(from: .srgb, into: .displayP3)?.path == "matrix-shaper")
        #expect(PixelConversion(from: .bt2020, into: .displayP3)?.path == "matrix-shaper")
        #expect(try ColourTransform.make(from: .displayP3, to: .srgb, layout: .rgba16).get().path == .littleCMS)
        let grey = try #require(ColourProfile.grey(gamma: 2.2))
        #expect(try ColourTransform.make(from: grey, to: .srgb, layout: .grey8).get().path == .greyTable)
    }
}
