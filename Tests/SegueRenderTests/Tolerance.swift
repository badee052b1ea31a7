/// How close a backend's frame must be to the reference (the CPU compositor's): a named value, one per
/// pairing, so a loosened tolerance shows in review.
struct Tolerance: Sendable, CustomStringConvertible {
    /// Lowest peak signal-to-noise ratio over all channels, in dB.
    var minPSNR: Double
    /// A pixel is "within" when every channel differs by at most this many 8-bit levels...
    var maxLevelDiff: Int
    /// ...and at least this fraction of the pixels must be within.
    var minFractionWithin: Double

    /// GLES on any driver against the CPU compositor: the shader computes in float and rounds once, the CPU
    /// rounds after each 8-bit step, so edges and blends may differ by a level or two.
    static let glesVsCPU = Tolerance(minPSNR: 40, maxLevelDiff: 2, minFractionWithin: 0.995)

    /// Bit-exact.
    static let exact = Tolerance(minPSNR: .infinity, maxLevelDiff: 0, minFractionWithin: 1)

    var description: String {
        "PSNR >= \(minPSNR) dB and >= \(minFractionWithin * 100)% of pixels within \(maxLevelDiff) levels"
    }
}
