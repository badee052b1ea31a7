import Foundation
import SegueCore

/// How two frames of the same size differ, channel by channel (premultiplied RGBA8).
public struct ImageComparison: Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Over all four channels; infinite when the frames are equal.
    public var psnr: Double
    /// The largest difference of any channel, in 8-bit levels.
    public var maxDiff: Int
    /// Fraction of pixels whose channels all differ by at most `tolerance.maxLevelDiff`.
    public var fractionWithin: Double
    /// Where the largest difference is.
    public var worstPixel: (x: Int, y: Int)

    public init(actual: Pixmap, expected: Pixmap, levels: Int) {
        precondition(actual.width == expected.width && actual.height == expected.height, "sizes differ")
        width = actual.width
        height = actual.height
        var squares = 0.0, worst = 0, worstIndex = 0, within = 0
        for k in 0..<actual.pixels.count {
            let a = actual.pixels[k], e = expected.pixels[k]
            var pixelWorst = 0
            for shift in stride(from: 0 as UInt32, to: 32, by: 8) {
                let d = abs(Int((a >> shift) & 0xFF) - Int((e >> shift) & 0xFF))
                squares += Double(d * d)
                pixelWorst = max(pixelWorst, d)
            }
            if pixelWorst <= levels { within += 1 }
            if pixelWorst > worst { worst = pixelWorst; worstIndex = k }
        }
        let count = max(1, actual.pixels.count)
        let mse = squares / Double(count * 4)
        psnr = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
        maxDiff = worst
        fractionWithin = Double(within) / Double(count)
        worstPixel = (worstIndex % max(1, width), worstIndex / max(1, width))
    }

    public func passes(_ tolerance: Tolerance) -> Bool {
        psnr >= tolerance.minPSNR && fractionWithin >= tolerance.minFractionWithin
    }

    public var description: String {
        let p = psnr.isInfinite ? "inf" : String(format: "%.1f", psnr)
        return "PSNR \(p) dB, max diff \(maxDiff) at (\(worstPixel.x), \(worstPixel.y)), "
            + String(format: "%.3f%% within", fractionWithin * 100)
    }

    /// |actual - expected| per colour channel (or the alpha difference, where that is larger), times 16,
    /// opaque: where the frames differ, at a glance.
    public static func diffImage(actual: Pixmap, expected: Pixmap) -> Pixmap {
        var out = Pixmap(width: actual.width, height: actual.height)
        for k in 0..<actual.pixels.count {
            let a = actual.pixels[k], e = expected.pixels[k]
            var channels: [UInt32] = []
            for shift in stride(from: 0 as UInt32, to: 24, by: 8) {
                let d = abs(Int((a >> shift) & 0xFF) - Int((e >> shift) & 0xFF))
                let alphaD = abs(Int(a >> 24) - Int(e >> 24))
                channels.append(UInt32(min(255, max(d, alphaD) * 16)))
            }
            out.pixels[k] = Pixmap.pack(r: channels[0], g: channels[1], b: channels[2], a: 255)
        }
        return out
    }
}
