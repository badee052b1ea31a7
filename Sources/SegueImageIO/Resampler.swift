import SegueCore

/// High-quality resizing of premultiplied pixmaps.
///
/// Separable: a horizontal then a vertical pass, each with weights precomputed per axis (`AxisWeights`).
/// Shrinking averages the exact area each output pixel covers; enlarging interpolates with Catmull-Rom,
/// clamped at the edges. Working on premultiplied values keeps transparent pixels from bleeding colour; the
/// result is rounded and clamped so that r, g, b <= a.
public enum Resampler {
    /// `pixmap` resized to `width` × `height`; the same size returns `pixmap` unchanged.
    public static func resample(_ pixmap: Pixmap, width: Int, height: Int) -> Pixmap {
        precondition(width >= 0 && height >= 0, "negative resample size")
        if width == pixmap.width && height == pixmap.height { return pixmap }
        if width == 0 || height == 0 || pixmap.width == 0 || pixmap.height == 0 {
            return Pixmap(width: width, height: height)
        }
        let horizontal = AxisWeights(source: pixmap.width, destination: width)
        let vertical = AxisWeights(source: pixmap.height, destination: height)
        let rows = horizontalPass(pixmap, horizontal)
        return verticalPass(rows, width: width, weights: vertical)
    }

    /// Resamples every source row to the new width, into floating-point RGBA.
    private static func horizontalPass(_ pixmap: Pixmap, _ axis: AxisWeights) -> [SIMD4<Float>] {
        let outWidth = axis.first.count, srcWidth = pixmap.width
        var out = [SIMD4<Float>](repeating: .zero, count: outWidth * pixmap.height)
        pixmap.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                axis.first.withUnsafeBufferPointer { first in
                    axis.count.withUnsafeBufferPointer { count in
                        axis.weights.withUnsafeBufferPointer { weights in
                            for y in 0..<pixmap.height {
                                let row = y * srcWidth, outRow = y * outWidth
                                for x in 0..<outWidth {
                                    var acc = SIMD4<Float>.zero
                                    let s = row + first[x], wBase = x * axis.stride
                                    for k in 0..<count[x] {
                                        acc += weights[wBase + k] * channels(src[s + k])
                                    }
                                    dst[outRow + x] = acc
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// Resamples the columns of the horizontal pass's output to the new height and packs the pixels.
    private static func verticalPass(_ rows: [SIMD4<Float>], width: Int, weights axis: AxisWeights) -> Pixmap {
        let height = axis.first.count
        var result = Pixmap(width: width, height: height)
        var acc = [SIMD4<Float>](repeating: .zero, count: width)
        rows.withUnsafeBufferPointer { src in
            result.pixels.withUnsafeMutableBufferPointer { dst in
                acc.withUnsafeMutableBufferPointer { acc in
                    for y in 0..<height {
                        for x in 0..<width { acc[x] = .zero }
                        for k in 0..<axis.count[y] {
                            let w = axis.weights[y * axis.stride + k]
                            let row = (axis.first[y] + k) * width
                            for x in 0..<width { acc[x] += w * src[row + x] }
                        }
                        let outRow = y * width
                        for x in 0..<width { dst[outRow + x] = pack(acc[x]) }
                    }
                }
            }
        }
        return result
    }

    /// The four channels of a pixel as floats (bytes R, G, B, A in memory are lanes 0...3).
    @inline(__always)
    private static func channels(_ p: UInt32) -> SIMD4<Float> {
        SIMD4<Float>(unsafeBitCast(p, to: SIMD4<UInt8>.self))
    }

    /// Rounds and clamps to a valid premultiplied pixel (0...255, colour <= alpha).
    @inline(__always)
    private static func pack(_ v: SIMD4<Float>) -> UInt32 {
        let c = (v + 0.5).clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255))
        let a = UInt32(c[3])
        return Pixmap.pack(r: min(UInt32(c[0]), a), g: min(UInt32(c[1]), a), b: min(UInt32(c[2]), a), a: a)
    }
}
