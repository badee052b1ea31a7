import Foundation
import SegueCore
import SegueImageIO
import SegueTestSupport
import Testing

/// Clips' colour: the stream's matrix, range and primaries honoured (untagged: BT.709 from 720 lines, BT.601
/// below), frames converted into the working space in ffmpeg's filter graph, HDR (PQ, HLG in BT.2020)
/// tone-mapped with mobius and said once. Each clip is made here by ffmpeg: a flat sRGB colour, lossless (FFV1).
@Suite(.enabled(if: ClipCommandTests.hasFFmpeg, "needs ffmpeg to make clips"))
struct ClipColourTests {
    /// A flat 64x`height` clip of sRGB `colour` (0xRRGGBB), 3 frames, coded by `filter` (from gbrp) with `tags`.
    static func clip(_ name: String, in dir: URL, colour: String, height: Int = 48, filter: String, tags: [String]) throws -> String {
        let path = dir.appendingPathComponent(name).path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        p.arguments = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi",
                       "-i", "color=c=0x\(colour):s=64x\(height):d=0.3:r=10,format=gbrp", "-vf", filter]
            + tags + ["-c:v", "ffv1", path]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        return path
    }

    static let bt709 = ["-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709", "-color_range", "tv"]

    /// The middle pixel of a one-frame render of `clip` (fade at progress 0 shows the from screen alone), read
    /// into `space`, and what segue said on standard error.
    static func render(_ clip: String, in dir: URL, _ options: [String] = []) throws -> (pixel: (r: Int, g: Int, b: Int), stderr: String, space: ImageColour, path: String) {
        let out = dir.appendingPathComponent(UUID().uuidString + ".png").path
        let r = try Segue.run(["render", "fade", "--from", clip, "--to", "sample:detail", "--progress", "0", "--backend", "cpu",
                               "--out", out] + options)
        #expect(r.status == 0, "\(r.stderr)")
        let image = try ImageDecoder.decode(contentsOf: out, into: options.contains("display-p3") ? .displayP3 : .srgb)
        let p = image.pixels[image.width * image.height / 2 + image.width / 2]
        return ((Int(p & 0xFF), Int((p >> 8) & 0xFF), Int((p >> 16) & 0xFF)), r.stderr, try ImageDecoder.colour(contentsOf: out), out)
    }

    static func near(_ p: (r: Int, g: Int, b: Int), _ r: Int, _ g: Int, _ b: Int, within: Int) -> Bool {
        abs(p.r - r) <= within && abs(p.g - g) <= within && abs(p.b - b) <= within
    }

    @Test func taggedBT709IntoSRGBAndDisplayP3() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.clip("709.mkv", in: dir, colour: "C86432", filter: "scale=out_color_matrix=bt709:out_range=tv,format=yuv444p", tags: Self.bt709)
        let srgb = try Self.render(clip, in: dir)
        #expect(Self.near(srgb.pixel, 200, 100, 50, within: 2), "\(srgb.pixel)")
        #expect(!srgb.stderr.contains("tone-mapped"))
        // In Display P3: the same colour's P3 values (lcms2's), the frames converted by ffmpeg's zscale.
        let p3 = try Self.render(clip, in: dir, ["--colour-space", "display-p3"])
        let want = ColourSpace.displayP3.converting(sRGB: Color(red: 200 / 255, green: 100 / 255, blue: 50 / 255, alpha: 1))
        let (r, g, b) = (Int((want.red * 255).rounded()), Int((want.green * 255).rounded()), Int((want.blue * 255).rounded()))
        #expect(Self.near(p3.pixel, r, g, b, within: 3), "\(p3.pixel), want \(r),\(g),\(b)")
        #expect(p3.space.isWide)
    }

    /// Untagged: coded with BT.601's matrix below 720 lines and BT.709's from 720, as players assume.
    @Test(arguments: [(48, "bt601"), (720, "bt709")])
    func untaggedMatrixFollowsTheHeight(height: Int, matrix: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.clip("plain.mkv", in: dir, colour: "30A0E0", height: height,
                                 filter: "scale=out_color_matrix=\(matrix):out_range=tv,format=yuv444p", tags: [])
        let frame = try Self.render(clip, in: dir, ["--size", "64x48"])
        #expect(Self.near(frame.pixel, 0x30, 0xA0, 0xE0, within: 2), "\(height) lines: \(frame.pixel)")
    }

    /// HDR in BT.2020 (PQ and HLG, 10 bits), made from an SDR colour with SDR white at 100 cd/m²: a patch below
    /// mobius's knee (0.3 linear) comes back within 3 levels of the SDR colour; the tone mapping is said once.
    /// `auto` works in Display P3 for the BT.2020 clip.
    @Test(arguments: ["smpte2084", "arib-std-b67"])
    func hdrIsToneMappedAndSaidOnce(transfer: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.clip("hdr.mkv", in: dir, colour: "78503C",
                                 filter: "zscale=tin=iec61966-2-1:pin=709:t=\(transfer):p=2020:m=2020_ncl:r=tv:npl=100,format=yuv444p10le",
                                 tags: ["-color_primaries", "bt2020", "-color_trc", transfer, "-colorspace", "bt2020nc", "-color_range", "tv"])
        let srgb = try Self.render(clip, in: dir, ["--colour-space", "srgb"])
        #expect(Self.near(srgb.pixel, 120, 80, 60, within: 3), "\(transfer): \(srgb.pixel)")
        let notes = srgb.stderr.components(separatedBy: "tone-mapped into sRGB with mobius").count - 1
        #expect(notes == 1, "\(srgb.stderr)")
        #expect(srgb.stderr.contains("is HDR (\(transfer == "smpte2084" ? "PQ" : "HLG"), BT.2020)"), "\(srgb.stderr)")
        // auto: Display P3 (a BT.2020 clip is wider than sRGB); read back into sRGB, the same colour.
        let auto = try Self.render(clip, in: dir)
        #expect(auto.space.isWide)
        #expect(auto.stderr.contains("tone-mapped into Display P3 with mobius"), "\(auto.stderr)")
        let back = try ImageDecoder.decode(contentsOf: auto.path)
        let p = back.pixels[back.width * back.height / 2 + back.width / 2]
        #expect(Self.near((Int(p & 0xFF), Int((p >> 8) & 0xFF), Int((p >> 16) & 0xFF)), 120, 80, 60, within: 4), "\(Self.rgba(p))")
    }

    static func rgba(_ p: UInt32) -> (Int, Int, Int) { (Int(p & 0xFF), Int((p >> 8) & 0xFF), Int((p >> 16) & 0xFF)) }
}
