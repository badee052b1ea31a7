import CSegueKernels
import SegueCore

/// How RGB becomes YCbCr: a matrix (the luma weights Kr and Kb of ITU-R BT.601 or BT.709) at a range (full,
/// 0-255, as JPEG; or limited, Y 16-235 and Cb, Cr 16-240, as broadcast and every player's default).
///
/// A video says which it holds in its tags (`ffmpegTags`): a player that reads them shows the colours Segue
/// drew. Many players guess for untagged video, by size: BT.709 for HD, BT.601 below. `video(width:height:)`
/// picks what they guess, so that a player that ignores the tags shows the right colours too.
public struct YCbCrEncoding: Sendable, Equatable {
    /// The luma weights.
    public enum Matrix: String, Sendable, CaseIterable {
        /// ITU-R BT.601 (SMPTE 170M): Kr 0.299, Kb 0.114.
        case bt601
        /// ITU-R BT.709: Kr 0.2126, Kb 0.0722.
        case bt709
    }

    /// The values the components take.
    public enum Range: String, Sendable, CaseIterable {
        /// 0-255 for Y, Cb and Cr (JPEG).
        case full
        /// Y 16-235, Cb and Cr 16-240 (broadcast, and players' default).
        case limited
    }

    /// The luma weights.
    public var matrix: Matrix
    /// The values the components take.
    public var range: Range
    /// The RGB the YCbCr encodes: the job's working space, which the tags say (BT.709 primaries for sRGB,
    /// SMPTE EG 432 (P3 D65) with the sRGB transfer for Display P3).
    public var colourSpace: ColourSpace = .srgb

    /// `matrix` at `range`.
    public init(_ matrix: Matrix, _ range: Range) {
        self.matrix = matrix
        self.range = range
    }

    /// Full-range BT.601, as JPEG and `--format y4m` (`XCOLORRANGE=FULL`) have it.
    public static let jpeg = YCbCrEncoding(.bt601, .full)

    /// The encoding of a video `width` x `height` pixels: limited range, BT.709 for HD and up (1280 pixels wide
    /// or 720 high, or more), BT.601 below: the sizes at which ffmpeg, mpv and browsers switch their guess for
    /// untagged video.
    public static func video(width: Int, height: Int) -> YCbCrEncoding {
        YCbCrEncoding(width >= 1280 || height >= 720 ? .bt709 : .bt601, .limited)
    }

    /// Kr and Kb.
    var luma: (r: Double, b: Double) {
        switch matrix {
        case .bt601: (0.299, 0.114)
        case .bt709: (0.2126, 0.0722)
        }
    }

    /// The integer weights, in units of 1/65536, of the C kernel (`weights`) and of a renderer's planes
    /// (`planes(subsampled:)`). Each row is rounded and its middle (green) weight takes what the rounding left,
    /// so that white is exactly the top of Y's range and every grey has Cb = Cr = 128.
    var integerWeights: YCbCrPlanes.Weights {
        let (kr, kb) = luma
        let ys = range == .full ? 1.0 : 219 / 255.0, cs = range == .full ? 1.0 : 224 / 255.0
        func unit(_ x: Double) -> Int32 { Int32((x * 65536).rounded()) }
        let yr = unit(kr * ys), yb = unit(kb * ys), ySum = unit(ys)
        let ub = unit(0.5 * cs), ur = unit(-kr / (2 * (1 - kb)) * cs)
        let vr = unit(0.5 * cs), vb = unit(-kb / (2 * (1 - kr)) * cs)
        return YCbCrPlanes.Weights(yr: yr, yg: ySum - yr - yb, yb: yb, yOffset: range == .full ? 0 : 16,
                                   ur: ur, ug: -ub - ur, ub: ub, vr: vr, vg: -vr - vb, vb: vb)
    }

    /// This encoding of RGB in `space`.
    public func with(colourSpace space: ColourSpace) -> YCbCrEncoding {
        var encoding = self
        encoding.colourSpace = space
        return encoding
    }

    /// ffmpeg's names of the primaries and transfer of `colourSpace`: sRGB's stay BT.709's, as before.
    var ffmpegPrimariesAndTransfer: (primaries: String, transfer: String) {
        switch colourSpace {
        case .srgb: ("bt709", "bt709")
        case .displayP3: ("smpte432", "iec61966-2-1")
        }
    }

    /// `integerWeights` as the C kernel takes them (`segue_ycbcr_weights`).
    var weights: segue_ycbcr_weights {
        let w = integerWeights
        return segue_ycbcr_weights(yr: w.yr, yg: w.yg, yb: w.yb, yOffset: w.yOffset,
                                   ur: w.ur, ug: w.ug, ub: w.ub, vr: w.vr, vg: w.vg, vb: w.vb)
    }

    /// The planes of this encoding for a renderer that converts frames itself (`.ycbcrPlanes`), 4:2:0 when
    /// `subsampled`.
    public func planes(subsampled: Bool) -> YCbCrPlanes {
        YCbCrPlanes(weights: integerWeights, subsampled: subsampled)
    }

    /// ffmpeg's output options that tag a video with this encoding: the matrix, the range, and BT.709 primaries
    /// and transfer (Segue's pixels are sRGB, whose primaries are BT.709's; BT.709's transfer is the usual tag
    /// for sRGB video).
    var ffmpegTags: [String] {
        let (primaries, transfer) = ffmpegPrimariesAndTransfer
        return ["-colorspace", matrix == .bt709 ? "bt709" : "smpte170m", "-color_primaries", primaries,
                "-color_trc", transfer, "-color_range", range == .full ? "pc" : "tv"]
    }

    /// The `setparams` filter that tags every frame with this encoding, as `ffmpegTags` tags the stream.
    var ffmpegFrameTags: String {
        let (primaries, transfer) = ffmpegPrimariesAndTransfer
        return "setparams=range=\(range == .full ? "pc" : "tv"):color_primaries=\(primaries):color_trc=\(transfer):colorspace=\(matrix == .bt709 ? "bt709" : "smpte170m")"
    }

    /// The `scale` filter's options that convert RGB into this encoding (ffmpeg's own RGB to YCbCr, for the
    /// frames Segue hands it as RGBA: transparent video and GIF's palette).
    var ffmpegScale: String {
        "scale=out_color_matrix=\(matrix == .bt709 ? "bt709" : "bt601"):out_range=\(range == .full ? "full" : "tv"):flags=accurate_rnd+full_chroma_int"
    }
}
