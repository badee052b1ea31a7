import Foundation

/// How close a frame must be to its reference: a named value, one per pairing, so a loosened tolerance shows
/// in review. The tests and `segue doctor` use the same values.
public struct FrameTolerance: Sendable, Equatable, CustomStringConvertible {
    /// Lowest peak signal-to-noise ratio over all channels, in dB.
    public var minPSNR: Double
    /// A pixel is "within" when every channel differs by at most this many 8-bit levels...
    public var maxLevelDiff: Int
    /// ...and at least this fraction of the pixels must be within.
    public var minFractionWithin: Double

    public init(minPSNR: Double, maxLevelDiff: Int, minFractionWithin: Double) {
        self.minPSNR = minPSNR
        self.maxLevelDiff = maxLevelDiff
        self.minFractionWithin = minFractionWithin
    }

    /// GLES on any driver against the CPU compositor: the shader computes in float and rounds once, the CPU
    /// rounds after each 8-bit step, so edges and blends may differ by a level or two.
    public static let glesVsCPU = FrameTolerance(minPSNR: 40, maxLevelDiff: 2, minFractionWithin: 0.995)

    /// Bit-exact.
    public static let exact = FrameTolerance(minPSNR: .infinity, maxLevelDiff: 0, minFractionWithin: 1)

    public var description: String {
        "PSNR >= \(minPSNR) dB and >= \(minFractionWithin * 100)% of pixels within \(maxLevelDiff) levels"
    }
}

/// How two frames of the same size differ, channel by channel (premultiplied RGBA8).
public struct FrameComparison: Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Over all four channels; infinite when the frames are equal.
    public var psnr: Double
    /// The largest difference of any channel, in 8-bit levels.
    public var maxDiff: Int
    /// Fraction of pixels whose channels all differ by at most `levels`.
    public var fractionWithin: Double
    /// Where the largest difference is.
    public var worstPixel: (x: Int, y: Int)

    public init(actual: Pixmap, expected: Pixmap, levels: Int) {
        precondition(actual.width == expected.width && actual.height == expected.height, "sizes differ")
        width = actual.width
        height = actual.height
        var squares = 0, worst = 0, worstIndex = 0, within = 0
        actual.pixels.withUnsafeBufferPointer { a in
            expected.pixels.withUnsafeBufferPointer { e in
                for k in 0..<a.count {
                    var pixelSquares = 0, pixelWorst = 0
                    for shift in stride(from: 0 as UInt32, to: 32, by: 8) {
                        let d = abs(Int((a[k] >> shift) & 0xFF) - Int((e[k] >> shift) & 0xFF))
                        pixelSquares += d * d
                        pixelWorst = max(pixelWorst, d)
                    }
                    squares += pixelSquares
                    if pixelWorst <= levels { within += 1 }
                    if pixelWorst > worst { worst = pixelWorst; worstIndex = k }
                }
            }
        }
        let count = max(1, actual.pixels.count)
        let mse = Double(squares) / Double(count * 4)
        psnr = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
        maxDiff = worst
        fractionWithin = Double(within) / Double(count)
        worstPixel = (worstIndex % max(1, width), worstIndex / max(1, width))
    }

    public func passes(_ tolerance: FrameTolerance) -> Bool {
        psnr >= tolerance.minPSNR && fractionWithin >= tolerance.minFractionWithin
    }

    public var description: String {
        let p = psnr.isInfinite ? "inf" : String(format: "%.1f", psnr)
        return "PSNR \(p) dB, max diff \(maxDiff) at (\(worstPixel.x), \(worstPixel.y)), "
            + String(format: "%.3f%% within", fractionWithin * 100)
    }
}

/// What is wrong with a frame that fails its tolerance, in the words of the usual ways a headless GL setup
/// draws wrong: nothing drawn, upside down (a read-back that forgot GL's bottom-up rows), shifted, channels
/// swapped (BGRA read as RGBA), alpha lost or not premultiplied. `diagnose` tries each explanation in turn by
/// undoing it and comparing again.
public enum FrameFault: Sendable, Equatable, CustomStringConvertible {
    /// Every pixel the same value (`0`: transparent, `0xFF000000`: opaque black).
    case blank(UInt32)
    case upsideDown
    case mirrored
    case shifted(dx: Int, dy: Int)
    case redBlueSwapped
    /// The colours are right and the alpha channel is not.
    case alphaWrong
    /// The colours are straight where they should be premultiplied by alpha.
    case notPremultiplied
    /// None of the above: the picture itself differs.
    case differs

    public var description: String {
        switch self {
        case let .blank(pixel):
            switch pixel {
            case 0: return "blank (every pixel transparent)"
            case 0xFF00_0000: return "blank (every pixel black)"
            default: return "blank (every pixel 0x" + String(pixel, radix: 16, uppercase: true) + ")"
            }
        case .upsideDown: return "upside down (rows in the wrong order)"
        case .mirrored: return "mirrored left to right"
        case let .shifted(dx, dy): return "shifted by (\(dx), \(dy)) pixels"
        case .redBlueSwapped: return "red and blue swapped"
        case .alphaWrong: return "alpha wrong (the colours are right)"
        case .notPremultiplied: return "not premultiplied (straight alpha)"
        case .differs: return "a different picture"
        }
    }

    /// The fault that explains why `actual` fails `tolerance` against `expected`, or nil when it passes.
    public static func diagnose(actual: Pixmap, expected: Pixmap, tolerance: FrameTolerance) -> FrameFault? {
        func passes(_ candidate: Pixmap, _ reference: Pixmap = expected) -> Bool {
            FrameComparison(actual: candidate, expected: reference, levels: tolerance.maxLevelDiff).passes(tolerance)
        }
        if passes(actual) { return nil }
        if let first = actual.pixels.first, !actual.pixels.contains(where: { $0 != first }) { return .blank(first) }
        if passes(actual.mapRows { $0.reversed() }) { return .upsideDown }
        if passes(actual.mapRows { $0.map { $0.reversed() } }) { return .mirrored }
        if passes(actual.mapPixels(swapRedBlue)) { return .redBlueSwapped }
        if passes(actual.mapPixels { $0 | 0xFF00_0000 }, expected.mapPixels { $0 | 0xFF00_0000 }) { return .alphaWrong }
        if passes(actual.mapPixels(premultiply)) { return .notPremultiplied }
        for radius in 1...3 {
            for dy in -radius...radius {
                for dx in -radius...radius where max(abs(dx), abs(dy)) == radius {
                    if passes(actual.overlap(dx: dx, dy: dy), expected.overlap(dx: -dx, dy: -dy)) {
                        return .shifted(dx: dx, dy: dy)
                    }
                }
            }
        }
        return .differs
    }

    private static func swapRedBlue(_ p: UInt32) -> UInt32 {
        (p & 0xFF00_FF00) | ((p & 0xFF) << 16) | ((p >> 16) & 0xFF)
    }

    private static func premultiply(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        func scaled(_ shift: UInt32) -> UInt32 { ((((p >> shift) & 0xFF) * a + 127) / 255) << shift }
        return scaled(0) | scaled(8) | scaled(16) | a << 24
    }
}

extension Pixmap {
    /// The rows (each an array of pixels) transformed by `body`, which must keep their number and lengths.
    fileprivate func mapRows(_ body: ([[UInt32]]) -> [[UInt32]]) -> Pixmap {
        let rows = (0..<height).map { y in Array(pixels[y * width..<(y + 1) * width]) }
        return Pixmap(width: width, height: height, pixels: Array(body(rows).joined()))
    }

    fileprivate func mapPixels(_ body: (UInt32) -> UInt32) -> Pixmap {
        Pixmap(width: width, height: height, pixels: pixels.map(body))
    }

    /// The part of this frame that, moved by (dx, dy), still lies on the frame: what is compared when one
    /// frame is the other shifted. Taken from the far side of the move: `overlap(dx: 1)` drops the first column.
    fileprivate func overlap(dx: Int, dy: Int) -> Pixmap {
        let w = width - abs(dx), h = height - abs(dy)
        guard w > 0, h > 0 else { return Pixmap(width: 0, height: 0) }
        let x0 = max(0, dx), y0 = max(0, dy)
        var out = Pixmap(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w { out.pixels[y * w + x] = pixels[(y + y0) * width + x + x0] }
        }
        return out
    }
}
