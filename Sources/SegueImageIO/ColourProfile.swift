import CLCMS2
import SegueCore

/// An ICC profile opened by Little CMS 2: an input's (read from its file, or built from what its PNG chunks
/// say) or a working space's (built from the standard primaries and transfer curve). Never public: the module's
/// API speaks of `ColourSpace` and `ImageColour`.
final class ColourProfile: @unchecked Sendable {
    /// What the profile's pixels are made of.
    enum Channels: String, Sendable { case rgb = "RGB", grey, cmyk = "CMYK" }

    let handle: cmsHPROFILE
    let channels: Channels
    /// The profile is sRGB in all but name (sRGB's colorants and curve, within a fraction of a level): an image
    /// tagged with it is taken as it is, not converted.
    let isSRGB: Bool
    /// Its primaries span more than sRGB's (Display P3, Adobe RGB, BT.2020): `auto` works in Display P3 for it.
    let isWide: Bool

    /// Takes ownership of `handle`; nil (and the handle closed) when the profile cannot describe pixels here:
    /// `problem` says why, in a few words.
    private init(handle: cmsHPROFILE, channels: Channels, isSRGB: Bool, isWide: Bool) {
        self.handle = handle
        self.channels = channels
        self.isSRGB = isSRGB
        self.isWide = isWide
    }

    deinit { cmsCloseProfile(handle) }

    /// The largest ICC profile read (the profile of an image is a few hundred bytes to a few hundred KiB).
    static let byteLimit = 4 << 20

    /// Opens ICC `bytes`, or says why not in a few lower-case words.
    static func open(icc bytes: [UInt8]) -> Result<ColourProfile, Problem> {
        if bytes.count > byteLimit { return .failure(.tooLarge(bytes.count)) }
        guard let handle = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }) else {
            return .failure(.rejected)
        }
        return checked(handle)
    }

    /// Why a profile is not used.
    enum Problem: Error, Equatable, Sendable {
        /// lcms2 could not read it.
        case rejected
        /// More than `byteLimit` bytes.
        case tooLarge(Int)
        /// Not an RGB, grey or CMYK profile, or a device link / abstract profile.
        case unsupportedKind
        /// Its colorants are not primaries of any display: a chromaticity out of range, a flat triangle, or
        /// colorants that do not add up to the white.
        case absurdPrimaries
        /// lcms2 could not make a transform from it.
        case noTransform
        /// A profile of other channels than the image's pixels (a grey profile on an RGB image).
        case channels(Channels)
        /// A PNG cICP chunk naming a space not read here (HDR's PQ and HLG, YCbCr matrices, narrow range).
        case unsupportedCICP(primaries: UInt8, transfer: UInt8, matrix: UInt8, fullRange: Bool)
        /// A HEIF nclx box naming primaries or a transfer not read here (HDR's PQ and HLG among them).
        case unsupportedNCLX(primaries: UInt16, transfer: UInt16)

        var words: String {
            switch self {
            case .rejected: "Little CMS cannot read it"
            case let .tooLarge(count): "it is \(count) bytes, over the limit of \(byteLimit)"
            case .unsupportedKind: "it is not an RGB, grey or CMYK image profile"
            case .absurdPrimaries: "its primaries are not those of any display"
            case .noTransform: "Little CMS cannot convert from it"
            case let .channels(channels): "it is a \(channels.rawValue) profile, which does not fit the image's pixels"
            case let .unsupportedCICP(primaries, transfer, matrix, fullRange):
                "its cICP chunk (primaries \(primaries), transfer \(transfer), matrix \(matrix), \(fullRange ? "full" : "narrow") range) names a space Segue does not read (HDR stills are not tone-mapped)"
            case let .unsupportedNCLX(primaries, transfer):
                "its nclx colour box (primaries \(primaries), transfer \(transfer)) names a space Segue does not read (HDR stills are not tone-mapped)"
            }
        }
    }

    /// Wraps an opened profile after checking what kind it is and, for a matrix/shaper RGB profile, its colorants.
    private static func checked(_ handle: cmsHPROFILE) -> Result<ColourProfile, Problem> {
        let deviceClass = cmsGetDeviceClass(handle)
        guard deviceClass == cmsSigDisplayClass || deviceClass == cmsSigInputClass
            || deviceClass == cmsSigOutputClass || deviceClass == cmsSigColorSpaceClass
        else { cmsCloseProfile(handle); return .failure(.unsupportedKind) }
        let channels: Channels
        switch cmsGetColorSpace(handle) {
        case cmsSigRgbData: channels = .rgb
        case cmsSigGrayData: channels = .grey
        case cmsSigCmykData: channels = .cmyk
        default: cmsCloseProfile(handle); return .failure(.unsupportedKind)
        }
        var isSRGB = false, isWide = false
        if channels == .rgb, let colorants = colorants(of: handle) {
            guard plausible(colorants) else { cmsCloseProfile(handle); return .failure(.absurdPrimaries) }
            isWide = area(colorants) > area(srgbColorants) * 1.1
            isSRGB = matches(colorants, srgbColorants, within: 0.002) && hasSRGBCurves(handle)
        }
        return .success(ColourProfile(handle: handle, channels: channels, isSRGB: isSRGB, isWide: isWide))
    }

    // MARK: - Profiles built from numbers

    /// A transfer curve lcms2 builds from its parameters.
    enum Curve: Hashable, Sendable {
        /// IEC 61966-2-1's piecewise curve (sRGB, Display P3).
        case srgb
        /// BT.709's (and BT.601's, BT.2020's SDR) piecewise curve, inverted to decode.
        case bt709
        /// A pure power: decoded = encoded ^ exponent (1 is linear).
        case power(Double)

        /// lcms2's parametric curve type and its parameters.
        var parametric: (type: Int32, params: [Double]) {
            switch self {
            case .srgb: (4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
            case .bt709: (4, [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081])
            case let .power(exponent): (1, [exponent])
            }
        }
    }

    /// Chromaticities (CIE xy) of a white and three primaries.
    struct Primaries: Hashable, Sendable {
        var white: (x: Double, y: Double)
        var red: (x: Double, y: Double)
        var green: (x: Double, y: Double)
        var blue: (x: Double, y: Double)

        static let bt709 = Primaries(white: (0.3127, 0.3290), red: (0.640, 0.330), green: (0.300, 0.600), blue: (0.150, 0.060))
        static let displayP3 = Primaries(white: (0.3127, 0.3290), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060))
        static let bt2020 = Primaries(white: (0.3127, 0.3290), red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046))

        static func == (a: Primaries, b: Primaries) -> Bool { a.values == b.values }
        func hash(into hasher: inout Hasher) { hasher.combine(values) }
        var values: [Double] { [white.x, white.y, red.x, red.y, green.x, green.y, blue.x, blue.y] }

        /// Each chromaticity inside the unit triangle (x, y > 0, x + y ≤ 1: a laser red such as P3's lies on its edge)
        /// and the primaries not in a line.
        var isPlausible: Bool {
            let points = [white, red, green, blue]
            guard points.allSatisfy({ $0.x > 0 && $0.y > 0 && $0.x + $0.y <= 1.000_1 }) else { return false }
            let area = ((green.x - red.x) * (blue.y - red.y) - (blue.x - red.x) * (green.y - red.y)) / 2
            return abs(area) > 0.01
        }
    }

    /// An RGB profile lcms2 builds from `primaries` and `curve`: the working spaces, and the inputs whose PNG
    /// chunks (cICP, gAMA and cHRM) describe their colour as numbers.
    static func rgb(_ primaries: Primaries, curve: Curve, description: String) -> ColourProfile? {
        guard primaries.isPlausible else { return nil }
        var white = cmsCIExyY(x: primaries.white.x, y: primaries.white.y, Y: 1)
        var triple = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: primaries.red.x, y: primaries.red.y, Y: 1),
            Green: cmsCIExyY(x: primaries.green.x, y: primaries.green.y, Y: 1),
            Blue: cmsCIExyY(x: primaries.blue.x, y: primaries.blue.y, Y: 1))
        let (type, params) = curve.parametric
        guard let tone = params.withUnsafeBufferPointer({ cmsBuildParametricToneCurve(nil, type, $0.baseAddress) }) else { return nil }
        defer { cmsFreeToneCurve(tone) }
        let curves: [OpaquePointer?] = [tone, tone, tone]
        guard let handle = curves.withUnsafeBufferPointer({ cmsCreateRGBProfile(&white, &triple, $0.baseAddress) }) else { return nil }
        if let mlu = cmsMLUalloc(nil, 1) {
            _ = cmsMLUsetASCII(mlu, "en", "US", description)
            _ = cmsWriteTag(handle, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu))
            cmsMLUfree(mlu)
        }
        return try? checked(handle).get()
    }

    /// A grey profile of a pure power curve with the D65 white (what a grey image's profile usually is).
    static func grey(gamma: Double) -> ColourProfile? {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        guard let tone = [gamma].withUnsafeBufferPointer({ cmsBuildParametricToneCurve(nil, 1, $0.baseAddress) }) else { return nil }
        defer { cmsFreeToneCurve(tone) }
        guard let handle = cmsCreateGrayProfile(&white, tone) else { return nil }
        return try? checked(handle).get()
    }

    /// The working space's profile, built once.
    static func of(_ space: ColourSpace) -> ColourProfile {
        switch space {
        case .srgb: srgb
        case .displayP3: displayP3
        }
    }

    /// The profile as ICC bytes (an output's iCCP chunk), with a fixed creation date and no profile ID, so that
    /// the same frame always makes the same file.
    var iccBytes: [UInt8] {
        var count: UInt32 = 0
        guard cmsSaveProfileToMem(handle, nil, &count) != 0, count >= 128 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(count))
        guard cmsSaveProfileToMem(handle, &bytes, &count) != 0 else { return [] }
        // dateTimeNumber at 24: 2026-01-01 00:00:00 (big-endian 16-bit fields); profile ID at 84, zero.
        let date: [UInt8] = [0x07, 0xEA, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0]
        bytes.replaceSubrange(24..<36, with: date)
        bytes.replaceSubrange(84..<100, with: [UInt8](repeating: 0, count: 16))
        return bytes
    }

    static let srgb = rgb(.bt709, curve: .srgb, description: "sRGB")!
    static let displayP3 = rgb(.displayP3, curve: .srgb, description: "Display P3")!

    // MARK: - Colorants

    /// sRGB's colorants as an ICC profile holds them (adapted to the D50 white by Bradford), read from the
    /// profile lcms2 builds, so that both are compared in the same terms.
    private static let srgbColorants: [cmsCIEXYZ] = {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var triple = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: 0.64, y: 0.33, Y: 1), Green: cmsCIExyY(x: 0.30, y: 0.60, Y: 1),
            Blue: cmsCIExyY(x: 0.15, y: 0.06, Y: 1))
        let linear = [1.0].withUnsafeBufferPointer { cmsBuildParametricToneCurve(nil, 1, $0.baseAddress) }
        defer { cmsFreeToneCurve(linear) }
        let curves: [OpaquePointer?] = [linear, linear, linear]
        let handle = curves.withUnsafeBufferPointer { cmsCreateRGBProfile(&white, &triple, $0.baseAddress) }!
        defer { cmsCloseProfile(handle) }
        return colorants(of: handle)!
    }()

    /// The red, green and blue colorant tags (PCS XYZ), where the profile has all three.
    private static func colorants(of handle: cmsHPROFILE) -> [cmsCIEXYZ]? {
        var result: [cmsCIEXYZ] = []
        for tag in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag] {
            guard cmsIsTag(handle, tag) != 0, let raw = cmsReadTag(handle, tag) else { return nil }
            result.append(raw.assumingMemoryBound(to: cmsCIEXYZ.self).pointee)
        }
        return result
    }

    /// Colorants of a display: finite, none negative in Y, each with a chromaticity inside the unit triangle,
    /// not in a line, and adding up to about the D50 white the PCS uses.
    private static func plausible(_ colorants: [cmsCIEXYZ]) -> Bool {
        for c in colorants {
            let sum = c.X + c.Y + c.Z
            guard c.X.isFinite, c.Y.isFinite, c.Z.isFinite, sum > 0, c.Y >= 0 else { return false }
            let x = c.X / sum, y = c.Y / sum
            guard x >= 0, y >= 0, x + y <= 1.01 else { return false }  // adapted to D50, a laser red has a Z a little below 0
        }
        let white = (X: colorants.reduce(0) { $0 + $1.X }, Y: colorants.reduce(0) { $0 + $1.Y }, Z: colorants.reduce(0) { $0 + $1.Z })
        guard abs(white.X - 0.9642) < 0.05, abs(white.Y - 1) < 0.05, abs(white.Z - 0.8249) < 0.05 else { return false }
        return area(colorants) > 0.01
    }

    /// The area of the colorants' triangle in the CIE xy diagram.
    private static func area(_ colorants: [cmsCIEXYZ]) -> Double {
        let p = colorants.map { c -> (x: Double, y: Double) in
            let sum = c.X + c.Y + c.Z
            return (c.X / sum, c.Y / sum)
        }
        return abs((p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[2].x - p[0].x) * (p[1].y - p[0].y)) / 2
    }

    private static func matches(_ a: [cmsCIEXYZ], _ b: [cmsCIEXYZ], within tolerance: Double) -> Bool {
        zip(a, b).allSatisfy { abs($0.X - $1.X) <= tolerance && abs($0.Y - $1.Y) <= tolerance && abs($0.Z - $1.Z) <= tolerance }
    }

    /// sRGB's transfer curve as lcms2 builds it from its parameters (kept for the life of the process).
    private nonisolated(unsafe) static let srgbCurve: OpaquePointer = {
        let (type, params) = Curve.srgb.parametric
        return params.withUnsafeBufferPointer { cmsBuildParametricToneCurve(nil, type, $0.baseAddress) }!
    }()

    /// The three curves within a third of a level of sRGB's everywhere along them.
    private static func hasSRGBCurves(_ handle: cmsHPROFILE) -> Bool {
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard cmsIsTag(handle, tag) != 0, let raw = cmsReadTag(handle, tag) else { return false }
            let curve = OpaquePointer(raw)
            for step in 0...32 {
                let v = Float(step) / 32
                if abs(cmsEvalToneCurveFloat(curve, v) - cmsEvalToneCurveFloat(srgbCurve, v)) > 0.3 / 255 { return false }
            }
        }
        return true
    }
}
