import Foundation
@testable import SegueStudio
import Testing

/// The runs the page's canvas is sent (`format=rgba-runs`): each frame's RGBA bytes again when undone, whatever
/// the pixels, and small where they repeat.
@Suite struct PixelRunsTests {
    static func frame(width: Int, height: Int, _ pixel: (Int, Int) -> [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0..<height { for x in 0..<width { bytes += pixel(x, y) } }
        return bytes
    }

    static func pixel(_ kind: String, _ x: Int, _ y: Int) -> [UInt8] {
        switch kind {
        case "flat": [10, 20, 30, 255]
        case "stripes down": [UInt8(x % 256), 0, UInt8(x * 7 % 256), 255]
        case "stripes across": [0, UInt8(y % 256), 9, 255]
        case "blocks": (x / 5 + y / 3) % 2 == 0 ? [1, 2, 3, 4] : [200, 100, 50, 255]
        default: [UInt8((x &* 31 &+ y &* 17) % 251), UInt8(x &* y % 253), UInt8((x ^ y) % 256), UInt8(x % 3 == 0 ? 128 : 255)]  // noise
        }
    }

    @Test(arguments: ["flat", "stripes down", "stripes across", "blocks", "noise"])
    func runsUndoToTheFrame(_ kind: String) throws {
        for (width, height) in [(1, 1), (1, 9), (9, 1), (37, 23)] {
            let rgba = Self.frame(width: width, height: height) { Self.pixel(kind, $0, $1) }
            let runs = PixelRuns.encode(rgba, width: width)
            #expect(runs.count % 4 == 0)
            #expect(PixelRuns.decode(runs, width: width, pixels: width * height) == rgba, "\(kind) \(width)x\(height)")
        }
    }

    /// A flat frame is one pixel and one run; a frame of rows each the one above is its first row and one copy
    /// (longer than a row: it repeats what it writes).
    @Test func repeatsAreSmall() {
        let flat = Self.frame(width: 100, height: 50) { _, _ in [1, 2, 3, 255] }
        #expect(PixelRuns.encode(flat, width: 100).count == 4 * 3)  // a literal op and its pixel, then a repeat
        let rows = Self.frame(width: 100, height: 50) { x, _ in [UInt8(x), UInt8(x / 2), 0, 255] }
        #expect(PixelRuns.encode(rows, width: 100).count == 4 * (1 + 100 + 1))
    }
}
