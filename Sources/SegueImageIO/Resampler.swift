#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif
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
                            // Every tap index lies inside its row of `src` or `weights` (see `AxisWeights`),
                            // and every row inside its buffer: the offsets below cannot overflow.
                            guard let src = src.baseAddress, let dst = dst.baseAddress,
                                  let first = first.baseAddress, let count = count.baseAddress,
                                  let weights = weights.baseAddress else { return }
                            for y in 0..<pixmap.height {
                                let row = src + y &* srcWidth, outRow = dst + y &* outWidth
                                for x in 0..<outWidth {
                                    var acc = SIMD4<Float>.zero
                                    let s = row + first[x], w = weights + x &* axis.stride
                                    var k = 0
                                    while k < count[x] {
                                        acc += w[k] * channels(s[k])
                                        k &+= 1
                                    }
                                    outRow[x] = acc
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
                    // Rows of `src` (first[y] + k, taps inside the source's height) and of `dst` lie inside
                    // their buffers: the offsets below cannot overflow.
                    guard let src = src.baseAddress, let dst = dst.baseAddress, let acc = acc.baseAddress else { return }
                    for y in 0..<height {
                        for x in 0..<width { acc[x] = .zero }
                        for k in 0..<axis.count[y] {
                            let w = axis.weights[y * axis.stride + k]
                            let row = src + (axis.first[y] &+ k) &* width
                            for x in 0..<width { acc[x] += w * row[x] }
                        }
                        let outRow = dst + y &* width
                        for x in 0..<width { outRow[x] = pack(acc[x]) }
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
        // Each lane is in 0...255 (a NaN clamps to 0): truncated all four at once, with no range check.
        #if arch(x86_64)
        let i = unsafeBitCast(_mm_cvttps_epi32(c), to: SIMD4<UInt32>.self)
        #else
        let i = SIMD4<UInt32>(UInt32(c[0]), UInt32(c[1]), UInt32(c[2]), UInt32(c[3]))
        #endif
        let a = i[3]
        return Pixmap.pack(r: min(i[0], a), g: min(i[1], a), b: min(i[2], a), a: a)
    }
}
