@testable import SegueRender
import SegueCore
import SegueSamples
import Testing

/// Y4M's planes from the C kernel against the same planes worked out pixel by pixel in Swift
/// (`Y4M.referenceFrame`): byte for byte, both chroma layouts, both kernel bodies where this CPU runs both, on
/// a real frame and on noise at sizes with odd edges (a chroma block of 4:2:0 with one or two pixels).
@Suite struct Y4MPlaneTests {
    static let bodies = Y4M.avx2 ? [false, true] : [false]

    static func noise(width: Int, height: Int, seed: UInt64) -> Pixmap {
        var state = seed
        let pixels = (0..<width * height).map { _ -> UInt32 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt32(truncatingIfNeeded: state >> 32) | 0xFF00_0000
        }
        return Pixmap(width: width, height: height, pixels: pixels)
    }

    @Test(arguments: [Y4M.Chroma.c444, .c420])
    func kernelPlanesMatchTheReference(chroma: Y4M.Chroma) {
        let frames = [(1, 1), (2, 2), (3, 5), (7, 2), (33, 17), (1921, 1081)].map { w, h in
            ("noise \(w)x\(h)", Self.noise(width: w, height: h, seed: UInt64(w * 7919 + h)))
        } + [("home 1920x1080", SampleScreens.home(width: 960, height: 540, scale: 2))]
        for (name, frame) in frames {
            let y4m = Y4M(width: frame.width, height: frame.height, fps: 30, chroma: chroma)
            let reference = y4m.referenceFrame(frame)
            for avx2 in Self.bodies {
                let kernel = y4m.frame(frame, avx2: avx2)
                let first = (0..<min(kernel.count, reference.count)).first { kernel[$0] != reference[$0] }
                #expect(kernel.count == reference.count && first == nil,
                        "\(name), \(chroma.rawValue), avx2 \(avx2): first difference at byte \(first.map(String.init) ?? "-")")
            }
        }
    }
}
