import SegueCore
import Testing

/// `FrameFault.diagnose` names the usual ways a headless GL setup draws wrong, each undone and compared again.
@Suite struct FrameFaultTests {
    /// A frame with detail everywhere and no symmetry: every transform below changes it.
    static func frame(width: Int = 48, height: Int = 32) -> Pixmap {
        var p = Pixmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let a = UInt32(128 + (x * 3 + y) % 128)
                let r = UInt32(x * 5 + y * y) % (a + 1), g = UInt32(y * 7 + x) % (a + 1), b = UInt32(x * y) % (a + 1)
                p[x, y] = Pixmap.pack(r: r, g: g, b: b, a: a)
            }
        }
        return p
    }

    static let tolerance = FrameTolerance.glesVsCPU

    func diagnose(_ actual: Pixmap, _ expected: Pixmap = frame()) -> FrameFault? {
        FrameFault.diagnose(actual: actual, expected: expected, tolerance: Self.tolerance)
    }

    @Test func aMatchingFrameHasNoFault() {
        var nearly = Self.frame()
        nearly.pixels[5] ^= 1
        #expect(diagnose(nearly) == nil)
    }

    @Test func blankFrames() {
        #expect(diagnose(Pixmap(width: 48, height: 32)) == .blank(0))
        #expect(diagnose(Pixmap(width: 48, height: 32, fill: 0xFF00_0000)) == .blank(0xFF00_0000))
        #expect(FrameFault.blank(0xFF00_0000).description == "blank (every pixel black)")
    }

    @Test func flippedFrames() {
        let f = Self.frame()
        let rows = (0..<f.height).map { Array(f.pixels[$0 * f.width..<($0 + 1) * f.width]) }
        #expect(diagnose(Pixmap(width: f.width, height: f.height, pixels: Array(rows.reversed().joined()))) == .upsideDown)
        #expect(diagnose(Pixmap(width: f.width, height: f.height, pixels: Array(rows.map { $0.reversed() }.joined()))) == .mirrored)
    }

    @Test(arguments: [(1, 0), (0, -1), (-2, 1), (3, 3)])
    func shiftedFrames(dx: Int, dy: Int) {
        let f = Self.frame(width: 160, height: 120)
        var shifted = Pixmap(width: f.width, height: f.height)
        for y in 0..<f.height {
            for x in 0..<f.width {
                let sx = min(max(x - dx, 0), f.width - 1), sy = min(max(y - dy, 0), f.height - 1)
                shifted[x, y] = f[sx, sy]
            }
        }
        #expect(diagnose(shifted, f) == .shifted(dx: dx, dy: dy))
    }

    @Test func channelAndAlphaFaults() {
        let f = Self.frame()
        let swapped = Pixmap(width: f.width, height: f.height, pixels: f.pixels.map {
            ($0 & 0xFF00_FF00) | (($0 & 0xFF) << 16) | (($0 >> 16) & 0xFF)
        })
        #expect(diagnose(swapped) == .redBlueSwapped)
        #expect(diagnose(Pixmap(width: f.width, height: f.height, pixels: f.pixels.map { $0 | 0xFF00_0000 })) == .alphaWrong)
        // Straight colour where premultiplied was expected: un-premultiply the reference's colours.
        let straight = Pixmap(width: f.width, height: f.height, pixels: f.pixels.map { p in
            let a = p >> 24
            func un(_ shift: UInt32) -> UInt32 { min(255, (((p >> shift) & 0xFF) * 255 + a / 2) / max(a, 1)) << shift }
            return un(0) | un(8) | un(16) | a << 24
        })
        #expect(diagnose(straight) == .notPremultiplied)
        var scrambled = f
        for k in stride(from: 0, to: scrambled.pixels.count, by: 3) { scrambled.pixels[k] = 0xFF12_3456 }
        #expect(diagnose(scrambled) == .differs)
    }
}
