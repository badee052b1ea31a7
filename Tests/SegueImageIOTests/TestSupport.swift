import CSPNG
import CTurboJPEG
import Foundation
import SegueCore
import Testing

/// A fresh empty directory under the system temporary directory, removed by `cleanUp()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "segue-imageio-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let target = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    func contents() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }

    func cleanUp() { try? FileManager.default.removeItem(atPath: path) }
}

/// The message `body` throws, or nil when it does not throw.
func thrownMessage(_ body: () throws -> Any) -> String? {
    do {
        _ = try body()
        return nil
    } catch {
        return "\(error)"
    }
}

/// Channels of a premultiplied pixel as (r, g, b, a).
func rgba(_ p: UInt32) -> (r: Int, g: Int, b: Int, a: Int) {
    (Int(p & 0xFF), Int((p >> 8) & 0xFF), Int((p >> 16) & 0xFF), Int(p >> 24))
}

/// True when every channel of `p` is within `tolerance` of the expected values.
func close(_ p: UInt32, _ r: Int, _ g: Int, _ b: Int, _ a: Int = 255, tolerance: Int = 0) -> Bool {
    let c = rgba(p)
    return abs(c.r - r) <= tolerance && abs(c.g - g) <= tolerance && abs(c.b - b) <= tolerance
        && abs(c.a - a) <= tolerance
}

/// Packed RGB bytes for a `width` × `height` image coloured by `color(x, y)`.
func rgbImage(width: Int, height: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(width * height * 3)
    for y in 0..<height {
        for x in 0..<width {
            let c = color(x, y)
            out += [c.0, c.1, c.2]
        }
    }
    return out
}
