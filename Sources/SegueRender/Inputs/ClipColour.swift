import SegueCore

/// What a clip's video stream says about its colour (ffprobe's `color_primaries`, `color_transfer`, `color_space`,
/// `color_range`, its pixel format and its HDR metadata), and the ffmpeg filters that bring its frames into a job's
/// working space, decided once per clip.
///
/// - The matrix and range decode YCbCr into RGB (swscale, with the scale to the job's size). An untagged clip is
///   BT.709 when it is 720 or more pixels high and BT.601 below, limited range (full for `yuvj` formats), as
///   players assume.
/// - SDR transfers (BT.709, BT.601, BT.2020's, sRGB) are the sRGB curve, as players show them and as Segue tags
///   its own videos (`bt709`): only the primaries are converted (zscale, through linear light), and a clip in
///   the working space's own primaries (BT.709 into sRGB, untagged ones too) is not converted at all.
/// - HDR (PQ `smpte2084`, HLG `arib-std-b67`) is made linear (1.0 = 100 cd/m²), converted to the working space's
///   primaries and tone-mapped with ffmpeg's `tonemap` filter's mobius operator (linear below 0.3, the clip's peak
///   brought to white; no desaturation), then given the sRGB curve. The peak is the clip's content light level,
///   else its mastering display's, else 1000 cd/m² (HLG's nominal peak, and what most PQ masters use).
struct ClipColour: Equatable, Sendable {
    /// ffprobe's names, "" where the stream says nothing (or "unknown").
    var primaries = ""
    var transfer = ""
    var matrix = ""
    var range = ""
    var pixelFormat = ""
    /// The stream's stored height (the untagged matrix's choice).
    var height = 0
    /// The brightest the stream says it holds, in cd/m² (content light level, else mastering display); nil when
    /// it says nothing.
    var peak: Double?

    /// The tone-mapping operator HDR clips go through (ffmpeg's `tonemap=mobius`).
    static let toneMapOperator = "mobius"
    /// The peak taken for an HDR clip that states none, in cd/m².
    static let defaultPeak = 1000.0

    /// Its dynamic range, by its transfer.
    enum Range: Equatable, Sendable {
        case sdr
        /// SMPTE ST 2084.
        case pq
        /// ARIB STD-B67.
        case hlg
    }

    var dynamicRange: Range {
        switch transfer {
        case "smpte2084": .pq
        case "arib-std-b67": .hlg
        default: .sdr
        }
    }

    /// Primaries zscale knows by ffprobe's name; any other (or none) is BT.709's.
    static let knownPrimaries: Set<String> = ["bt709", "bt470m", "bt470bg", "smpte170m", "smpte240m", "film", "bt2020", "smpte431", "smpte432"]

    /// The clip's primaries as zscale names them (BT.709 when untagged or not known).
    var sourcePrimaries: String { Self.knownPrimaries.contains(primaries) ? primaries : "bt709" }

    /// Primaries wider than sRGB's (BT.2020, DCI-P3, Display P3): `auto` works in Display P3 for the clip.
    var isWide: Bool { ["bt2020", "smpte431", "smpte432"].contains(primaries) }

    /// swscale's matrix for the YCbCr-to-RGB step (`in_color_matrix`).
    var scaleMatrix: String {
        switch matrix {
        case "bt709": "bt709"
        case "smpte170m", "bt470bg": "bt601"
        case "fcc": "fcc"
        case "smpte240m": "smpte240m"
        case "bt2020nc", "bt2020c": "bt2020"
        default: height >= 720 ? "bt709" : "bt601"
        }
    }

    /// swscale's input range (`in_range`): the stream's, else full for JPEG's `yuvj` formats and limited for the rest.
    var scaleRange: String {
        switch range {
        case "pc": "pc"
        case "tv": "tv"
        default: pixelFormat.hasPrefix("yuvj") ? "pc" : "tv"
        }
    }

    /// The working space's primaries as zscale names them.
    static func primaries(of space: ColourSpace) -> String {
        switch space {
        case .srgb: "bt709"
        case .displayP3: "smpte432"
        }
    }

    /// The filters after `scale` is given `scaleOptions`: nothing to add for a clip already in the space's
    /// primaries, else a conversion that ends in RGBA. `alpha`: the clip may carry alpha (kept through an SDR
    /// conversion; HDR clips are taken as opaque).
    func conversion(into space: ColourSpace, alpha: Bool) -> String {
        let target = Self.primaries(of: space)
        switch dynamicRange {
        case .sdr:
            guard sourcePrimaries != target else { return "format=rgba" }
            let (wide, narrow) = alpha ? ("gbrap16le", "gbrap") : ("gbrp16le", "gbrp")
            return "format=\(wide),zscale=tin=iec61966-2-1:pin=\(sourcePrimaries):t=iec61966-2-1:p=\(target),format=\(narrow),format=rgba"
        case .pq, .hlg:
            let peak = max(self.peak ?? Self.defaultPeak, 100) / 100
            return "format=gbrp16le,zscale=tin=\(transfer):pin=\(sourcePrimaries):t=linear:npl=100:p=\(target),format=gbrpf32le,"
                + "tonemap=tonemap=\(Self.toneMapOperator):desat=0:peak=\(peak.compact),"
                + "zscale=tin=linear:pin=\(target):t=iec61966-2-1:p=\(target),format=gbrp,format=rgba"
        }
    }

    /// The `scale` filter's options that decode the clip's YCbCr (ignored for RGB clips).
    var scaleOptions: String { "in_color_matrix=\(scaleMatrix):in_range=\(scaleRange)" }

    /// What a job says once about an HDR clip, or nil for SDR.
    func toneMapNote(path: String, into space: ColourSpace) -> String? {
        let kind: String
        switch dynamicRange {
        case .sdr: return nil
        case .pq: kind = "PQ"
        case .hlg: kind = "HLG"
        }
        let gamut = primaries == "bt2020" ? ", BT.2020" : ""
        let nits = Int(max(peak ?? Self.defaultPeak, 100))
        return "the clip '\(path)' is HDR (\(kind)\(gamut)): tone-mapped into \(space.name) with \(Self.toneMapOperator) (peak \(nits) cd/m²\(peak == nil ? ", assumed" : ""))"
    }
}
