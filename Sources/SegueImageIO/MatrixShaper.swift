import CLCMS2
import CSegueKernels

/// The fast path of a relative colorimetric conversion between two matrix/shaper RGB profiles (Display P3,
/// sRGB, BT.2020, a gAMA and cHRM PNG's, most phones' ICC profiles): each source channel's curve, the 3x3
/// matrix between the two profiles' linear lights and the target's encoding, each asked of Little CMS 2 once,
/// laid out as fixed-point tables and applied by a C kernel (`segue_matrix_shaper_rows`). lcms2 stays the
/// authority: `MatrixShaperTests` holds this to its own transform over every 8-bit colour.
final class MatrixShaper: @unchecked Sendable {
    private let tables: UnsafeMutablePointer<segue_matrix_shaper>

    private init(tables: UnsafeMutablePointer<segue_matrix_shaper>) { self.tables = tables }

    deinit { tables.deallocate() }

    static let avx2 = segue_has_avx2()

    /// Steps of the encoding table over linear light 0...1.
    static let steps = 1 << Int(SEGUE_COLOUR_ENCODE_BITS)

    /// The tables from `source` into `target`, or nil where lcms2 would not convert them as matrix/shaper
    /// profiles (either is not one, or carries a LUT that lcms2 would take instead), the target's three curves
    /// differ, or a value is out of what the fixed point holds: those keep lcms2's own transform.
    static func make(from source: ColourProfile, to target: ColourProfile) -> MatrixShaper? {
        guard applies(from: source, to: target),
              let linear = linearLight(of: source.handle),
              let matrix = matrix(from: source.handle, to: target.handle),
              let encode = encoding(of: target.handle)
        else { return nil }
        let tables = UnsafeMutablePointer<segue_matrix_shaper>.allocate(capacity: 1)
        guard segue_matrix_shaper_init(tables, linear, matrix, encode) else {
            tables.deallocate()
            return nil
        }
        return MatrixShaper(tables: tables)
    }

    /// `count` straight RGBA8 pixels into `destination` (which may be `source`), alpha copied.
    func apply(_ source: UnsafePointer<UInt32>, _ destination: UnsafeMutablePointer<UInt32>, count: Int, avx2: Bool = MatrixShaper.avx2) {
        segue_matrix_shaper_rows(tables, source, destination, count, avx2)
    }

    /// Both profiles RGB, and lcms2 would convert between them as matrix/shaper profiles.
    static func applies(from source: ColourProfile, to target: ColourProfile) -> Bool {
        source.channels == .rgb && target.channels == .rgb
            && usesMatrixShaper(source.handle, lookUpTables: [cmsSigAToB0Tag, cmsSigAToB1Tag, cmsSigAToB2Tag, cmsSigDToB0Tag, cmsSigDToB1Tag, cmsSigDToB2Tag])
            && usesMatrixShaper(target.handle, lookUpTables: [cmsSigBToA0Tag, cmsSigBToA1Tag, cmsSigBToA2Tag, cmsSigBToD0Tag, cmsSigBToD1Tag, cmsSigBToD2Tag])
    }

    /// lcms2 says the profile is a matrix/shaper one (colorants and curves), and it has none of the LUTs that
    /// lcms2 would use in its place for some intent.
    private static func usesMatrixShaper(_ handle: cmsHPROFILE, lookUpTables: [cmsTagSignature]) -> Bool {
        cmsIsMatrixShaper(handle) != 0 && lookUpTables.allSatisfy { cmsIsTag(handle, $0) == 0 }
    }

    private static let curveTags = [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag]

    /// Each channel's linear light at each 8-bit level, from the profile's own curves (R's 256 first).
    private static func linearLight(of handle: cmsHPROFILE) -> [Double]? {
        var values: [Double] = []
        for tag in curveTags {
            guard let raw = cmsReadTag(handle, tag) else { return nil }
            let curve = OpaquePointer(raw)
            for level in 0...255 { values.append(Double(cmsEvalToneCurveFloat(curve, Float(level) / 255))) }
        }
        return values
    }

    /// The matrix from the source's linear light into the target's, row-major: the unit vectors transformed in
    /// double precision by lcms2 (relative colorimetric, unoptimised) between copies of the two profiles whose
    /// curves are made linear. lcms2 leaves matrix/shaper float transforms unbounded, so a source primary out of
    /// the target's gamut keeps its negative and over-one components.
    private static func matrix(from source: cmsHPROFILE, to target: cmsHPROFILE) -> [Double]? {
        guard let from = linearCopy(of: source) else { return nil }
        defer { cmsCloseProfile(from) }
        guard let to = linearCopy(of: target) else { return nil }
        defer { cmsCloseProfile(to) }
        guard let transform = cmsCreateTransform(from, CLCMS2_TYPE_RGB_DBL, to, CLCMS2_TYPE_RGB_DBL, UInt32(INTENT_RELATIVE_COLORIMETRIC),
                                                 CLCMS2_FLAGS_NOOPTIMIZE | CLCMS2_FLAGS_NOCACHE)
        else { return nil }
        defer { cmsDeleteTransform(transform) }
        let units: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        var columns = [Double](repeating: 0, count: 9)
        cmsDoTransform(transform, units, &columns, 3)
        // Unit vector k gives column k.
        let rows = (0..<9).map { columns[3 * ($0 % 3) + $0 / 3] }
        return rows.allSatisfy(\.isFinite) ? rows : nil
    }

    /// The profile again (saved and opened by lcms2), its three curves replaced by lcms2's gamma 1.
    private static func linearCopy(of handle: cmsHPROFILE) -> cmsHPROFILE? {
        var count: UInt32 = 0
        guard cmsSaveProfileToMem(handle, nil, &count) != 0, count > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(count))
        guard cmsSaveProfileToMem(handle, &bytes, &count) != 0,
              let copy = cmsOpenProfileFromMem(bytes, count) else { return nil }
        guard let linear = cmsBuildGamma(nil, 1) else { cmsCloseProfile(copy); return nil }
        defer { cmsFreeToneCurve(linear) }
        for tag in curveTags where cmsWriteTag(copy, tag, UnsafeRawPointer(linear)) == 0 {
            cmsCloseProfile(copy)
            return nil
        }
        return copy
    }

    /// The target's 8-bit level at each step of linear light, through lcms2's reversal of its curve; nil when
    /// its three curves do not give the same levels (one table serves all three channels).
    private static func encoding(of handle: cmsHPROFILE) -> [UInt8]? {
        var tables: [[UInt8]] = []
        for tag in curveTags {
            guard let raw = cmsReadTag(handle, tag), let reversed = cmsReverseToneCurve(OpaquePointer(raw)) else { return nil }
            defer { cmsFreeToneCurve(reversed) }
            tables.append((0...steps).map { step in
                let v = Double(cmsEvalToneCurveFloat(reversed, Float(step) / Float(steps))) * 255
                return UInt8(v.isFinite ? min(max(v.rounded(), 0), 255) : 0)
            })
        }
        return tables.allSatisfy { $0 == tables[0] } ? tables[0] : nil
    }
}
