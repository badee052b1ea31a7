import Foundation
import SegueCore

/// How two frames differ (`FrameComparison`, shared with `segue doctor`), and the diff image failure
/// reports write.
public typealias ImageComparison = FrameComparison

extension FrameComparison {
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
