@testable import SegueRender
import SegueCore
import SegueSamples
import SegueTestSupport
import Testing

/// Y4M's planes from the C kernel against the same planes worked out pixel by pixel in Swift
/// (`Y4M.referenceFrame`): byte for byte, both chroma layouts, both kernel bodies where this CPU runs both, on
/// a real frame and on noise at sizes with odd edges (a chroma block of 4:2:0 with one or two pixels).
@Suite struct Y4MPlaneTests {
    static let bodies = Y4M.avx2 ? [false, true] : [false]

    static func noise(width: Int, height: Int, seed: UInt64) -> Pixmap {
        SeededRandom.opaqueNoise(width: width, height: height, seed: seed)
    }

    @Test(arguments: [Y4M.Chroma.c444, .c420])
    func kernelPlanesMatchTheReference(chroma: Y4M.Chroma) {
        let frames = [(1, 1), (2, 2), (3, 5), (7, 2), (33, 17), (1921, 1081)].map { w, h in
            ("noise \(w)x\(h)", Self.noise(width: w, height: h, seed: UInt64(w * 7919 + h)))
        } + [("home 1920x1080", SampleScreens.home(width: 960, height: 540, scale: 2))]
        let encodings = [YCbCrEncoding.jpeg, YCbCrEncoding(.bt709, .limited), YCbCrEncoding(.bt601, .limited)]
        for (name, frame) in frames {
            for encoding in encodings {
                let y4m = Y4M(width: frame.width, height: frame.height, fps: 30, chroma: chroma, encoding: encoding)
                let reference = y4m.referenceFrame(frame)
                for avx2 in Self.bodies {
                    let kernel = y4m.frame(frame, avx2: avx2)
                    let first = (0..<min(kernel.count, reference.count)).first { kernel[$0] != reference[$0] }
                    #expect(kernel.count == reference.count && first == nil,
                            "\(name), \(chroma.rawValue), \(encoding), avx2 \(avx2): first difference at byte \(first.map(String.init) ?? "-")")
                }
            }
        }
    }

    /// Each encoding's weights put white at the top of Y's range, black at its bottom, every grey at Cb = Cr =
    /// 128 and the primaries where the matrix's own formulas put them (within half a level).
    @Test(arguments: [YCbCrEncoding.jpeg, YCbCrEncoding(.bt709, .limited), YCbCrEncoding(.bt601, .limited),
                      YCbCrEncoding(.bt709, .full)])
    func weightsPutColoursWhereTheMatrixDoes(encoding: YCbCrEncoding) {
        let colours: [(UInt32, UInt32, UInt32)] = [(0, 0, 0), (255, 255, 255), (128, 128, 128), (255, 0, 0), (0, 255, 0),
                                                   (0, 0, 255), (200, 100, 50)]
        let frame = Pixmap(width: colours.count, height: 1,
                           pixels: colours.map { $0.0 | $0.1 << 8 | $0.2 << 16 | 0xFF00_0000 })
        let planes = Y4M(width: colours.count, height: 1, fps: 30, chroma: .c444, encoding: encoding).referenceFrame(frame)
        let (kr, kb) = encoding.matrix == .bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
        let limited = encoding.range == .limited
        for (i, (r, g, b)) in colours.enumerated() {
            let (R, G, B) = (Double(r) / 255, Double(g) / 255, Double(b) / 255)
            let y = kr * R + (1 - kr - kb) * G + kb * B
            let cb = (B - y) / (2 * (1 - kb)), cr = (R - y) / (2 * (1 - kr))
            let want = limited ? [16 + 219 * y, 128 + 224 * cb, 128 + 224 * cr] : [255 * y, 128 + 255 * cb, 128 + 255 * cr]
            let got = [planes[6 + i], planes[6 + colours.count + i], planes[6 + 2 * colours.count + i]].map(Double.init)
            for c in 0..<3 {
                #expect(abs(got[c] - min(255, want[c])) <= 0.5 + 1e-9, "\(encoding) \((r, g, b)) channel \(c): \(got[c]) against \(want[c])")
            }
            if r == g && g == b { #expect(got[1] == 128 && got[2] == 128) }
        }
    }
}
