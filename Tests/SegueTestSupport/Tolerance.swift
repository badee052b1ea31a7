import SegueCore

/// The tolerances frames are compared with (`FrameTolerance`, shared with `segue doctor`), and the named
/// values only the tests use.
public typealias Tolerance = FrameTolerance

extension FrameTolerance {
    /// CPU frames against the recorded goldens (PNG files): the compositor is deterministic on one machine,
    /// but float rounding may differ between compilers or machines, so 99.9% of the pixels must be within one
    /// level and the rest may differ by more, as long as the PSNR stays at or above 50 dB.
    public static let golden = Tolerance(minPSNR: 50, maxLevelDiff: 1, minFractionWithin: 0.999)

    /// A frame at scale 2 box-filtered down to scale 1 against the frame drawn at scale 1: the same picture,
    /// differing only where edges and texture detail are sampled more finely.
    public static let scaleIndependence = Tolerance(minPSNR: 28, maxLevelDiff: 24, minFractionWithin: 0.97)

    /// The CPU compositor's shortcuts against its general per-pixel function on the same machine: perspective
    /// interiors step texel positions linearly over sub-spans (`LayerShader.subSpanError`, 1/128 texel) where
    /// the general function divides at every pixel in single precision, so a bilinear weight may round a step
    /// or two apart; everything else is exact. Measured over the whole catalogue at 1920x1080: PSNR 80 dB at
    /// worst, under 0.07% of the pixels a level apart, a handful two. Far tighter than `golden`.
    public static let fastPath = Tolerance(minPSNR: 70, maxLevelDiff: 1, minFractionWithin: 0.9999)

    /// YCbCr planes converted on the GPU (`ycbcr-planes.frag`) against the C kernel's from the same frame read
    /// back: the shader does the kernel's integer arithmetic, so every sample must be the same byte.
    public static let gpuPlanes = Tolerance(minPSNR: .infinity, maxLevelDiff: 0, minFractionWithin: 1)
}
