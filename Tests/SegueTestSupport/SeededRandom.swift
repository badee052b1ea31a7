import Foundation
import SegueCore

/// The tests' one source of reproducible noise: a 64-bit linear congruential generator (Knuth's MMIX
/// constants) from a fixed seed, so a failure on one run fails the same way on the next.
public struct SeededRandom {
    public var state: UInt64

    public init(seed: UInt64 = 0x9E37_79B9_7F4A_7C15) { state = seed }

    /// The next state's high 48 bits (the low bits of an LCG cycle quickly).
    public mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 16
    }

    public mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 8) }

    /// A number in [0, 1] in steps of a millionth.
    public mutating func unit() -> Double { Double(next() % 1_000_001) / 1_000_000 }

    /// An opaque pixel of random colour.
    public mutating func opaquePixel() -> UInt32 { UInt32(truncatingIfNeeded: next() >> 16) | 0xFF00_0000 }

    /// A premultiplied pixel (no channel above alpha) with opaque and clear as often as any other alpha.
    public mutating func pixel() -> UInt32 {
        let alpha: UInt32 = switch next() % 4 { case 0: 255; case 1: 0; default: UInt32(next() % 256) }
        let r = UInt32(next() % UInt64(alpha + 1)), g = UInt32(next() % UInt64(alpha + 1)), b = UInt32(next() % UInt64(alpha + 1))
        return Pixmap.pack(r: r, g: g, b: b, a: alpha)
    }

    /// Opaque noise: a picture where any wrong texel shows.
    public static func opaqueNoise(width: Int, height: Int, seed: UInt64) -> Pixmap {
        var random = SeededRandom(seed: seed)
        return Pixmap(width: width, height: height, pixels: (0..<width * height).map { _ in random.opaquePixel() })
    }
}

/// A new empty directory under the system's temporary directory, named `segue-PREFIX-UUID`.
public func temporaryDirectory(_ prefix: String = "test") throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("segue-\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
