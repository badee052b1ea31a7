/// How a renderer delivers a frame as YCbCr planes instead of RGBA (`Renderer.drawFrames(count:frame:planes:deliver:)`):
/// the integer weights of the conversion and whether the chroma is subsampled 2x2 (4:2:0) or not (4:4:4).
///
/// The planes come one after another, as Y4M stores them: Y (`width` x `height` bytes), then Cb, then Cr
/// (`chromaWidth` x `chromaHeight` bytes each), rows top to bottom with no padding. Each sample is worked out
/// from the frame's premultiplied RGB, its alpha ignored (the frames converted are opaque):
///
///     Y  = clamp(((yr R + yg G + yb B + 32768) >> 16) + yOffset)
///     Cb = clamp(((ur R + ug G + ub B + 32768) >> 16) + 128)
///     Cr = clamp(((vr R + vg G + vb B + 32768) >> 16) + 128)
///
/// with `>>` an arithmetic shift (a floor) and clamp to 0...255. At 4:2:0 the R, G, B of a chroma sample are
/// each the mean of the block's 2x2 pixels, rounded down; a block cut by an odd width or height averages the
/// pixels it has (2 or 1). The C kernel `segue_ycbcr_planes` is the reference.
public struct YCbCrPlanes: Sendable, Equatable {
    /// The integer weights, in units of 1/65536.
    public struct Weights: Sendable, Equatable {
        public var yr, yg, yb, yOffset: Int32
        public var ur, ug, ub: Int32
        public var vr, vg, vb: Int32

        public init(yr: Int32, yg: Int32, yb: Int32, yOffset: Int32, ur: Int32, ug: Int32, ub: Int32,
                    vr: Int32, vg: Int32, vb: Int32) {
            self.yr = yr; self.yg = yg; self.yb = yb; self.yOffset = yOffset
            self.ur = ur; self.ug = ug; self.ub = ub
            self.vr = vr; self.vg = vg; self.vb = vb
        }
    }

    public var weights: Weights
    /// 4:2:0 (each chroma sample one 2x2 block) when true; 4:4:4 when false.
    public var subsampled: Bool

    public init(weights: Weights, subsampled: Bool) {
        self.weights = weights
        self.subsampled = subsampled
    }

    /// The size of each chroma plane of a `width` x `height` frame.
    public func chromaSize(width: Int, height: Int) -> (width: Int, height: Int) {
        subsampled ? ((width + 1) / 2, (height + 1) / 2) : (width, height)
    }

    /// The bytes of the three planes of a `width` x `height` frame: 1.5 a pixel at 4:2:0 (even sizes), 3 at 4:4:4.
    public func byteCount(width: Int, height: Int) -> Int {
        let chroma = chromaSize(width: width, height: height)
        return width * height + 2 * chroma.width * chroma.height
    }
}
