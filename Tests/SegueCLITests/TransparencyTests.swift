import Foundation
import SegueCore
import SegueImageIO
import SegueTestSupport
import Testing

/// `--background transparent`: alpha 0 where no layer is, in PNG frames, raw RGBA and videos that carry alpha.
@Suite struct TransparencyTests {
    static let spin = ["render", "spin", "--from", "sample:home", "--to", "sample:detail", "--size", "100x180",
                       "--background", "transparent", "--quiet"]

    /// A spin narrows the screen about its centre: the left edge shows the background. At t = 0.3 (stage 1)
    /// the `from` screen fades out (opacity 1 - e1, alpha 117 here); at t = 0.8 (stage 2) `to` is opaque.
    @Test(arguments: ["cpu", "gles"])
    func spinHasAlphaZeroWhereNoLayerIs(_ backend: String) throws {
        let dir = try temporaryDirectory()
        for (t, centre) in [(0.3, 117 as UInt32), (0.8, 255)] {
            let png = dir.appendingPathComponent("spin-\(t).png").path
            let r = try Segue.run(Self.spin + ["--progress", "\(t)", "--backend", backend, "--out", png])
            #expect(r.status == 0, "\(r.stderr)")
            let frame = try ImageDecoder.decode(contentsOf: png)
            func alpha(_ x: Int, _ y: Int) -> UInt32 { frame.pixels[y * frame.width + x] >> 24 }
            #expect(alpha(0, 90) == 0 && alpha(2, 10) == 0 && alpha(99, 179) == 0, "\(backend) t = \(t): no layer at the edges")
            #expect(frame.pixels[90 * frame.width] == 0, "\(backend): transparent black, premultiplied")
            #expect(abs(Int(alpha(50, 90)) - Int(centre)) <= 1, "\(backend) t = \(t): the layer's alpha is \(alpha(50, 90))")
            // Raw RGBA carries it too, straight alpha.
            let raw = try Segue.run(Self.spin + ["--progress", "\(t)", "--backend", backend, "--out", "-", "--format", "rgba"])
            #expect(raw.status == 0, "\(raw.stderr)")
            #expect(raw.stdout.count == 100 * 180 * 4)
            if raw.stdout.count == 100 * 180 * 4 {
                let bytes = [UInt8](raw.stdout), straight = frame.straightRGBA()
                #expect(bytes[(90 * 100 + 0) * 4 + 3] == 0)
                let i = (90 * 100 + 50) * 4
                #expect(Array(bytes[i..<i + 4]) == Array(straight[i..<i + 4]))
            }
        }
    }

    /// A custom shader over a transparent background stays as it returns it: the shipped ones are opaque.
    @Test func shaderOverTransparentIsAsReturned() throws {
        let dir = try temporaryDirectory()
        let png = dir.appendingPathComponent("wipe.png").path
        let r = try Segue.run(["render", "--shader", "wipe-diagonal", "--from", "sample:home", "--to", "sample:detail",
                               "--size", "40x60", "--background", "transparent", "--progress", "0.5", "--backend", "gles",
                               "--quiet", "--out", png])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try ImageDecoder.decode(contentsOf: png).isOpaque)
    }

    @Test(.enabled(if: BatchTests.hasFFmpeg)) func movIsProRes4444WithAlphaAndMP4IsRefused() throws {
        let dir = try temporaryDirectory()
        let mov = dir.appendingPathComponent("spin.mov").path
        let r = try Segue.run(Self.spin + ["--fps", "10", "--backend", "cpu", "--out", mov])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try BatchTests().probe(mov, "codec_name") == "prores")
        #expect(try BatchTests().probe(mov, "profile") == "4444")
        // Encoded as yuva444p10le; ffmpeg 5.1's ProRes decoder reports 4444 as yuva444p12le.
        #expect(try BatchTests().probe(mov, "pix_fmt").hasPrefix("yuva444p"))
        #expect(try BatchTests().countFrames(mov) == 8)  // 0.7 s at 10 fps: frames 0 ... 7
        // A storyboard's "background": "transparent" into a VP9 WebM with alpha.
        let story = try write("""
            {"fps": 10, "size": [48, 80], "background": "transparent",
             "screens": {"a": "sample:home", "b": "sample:detail"},
             "timeline": [{"transition": "spin", "from": "a", "to": "b"}]}
            """, "story.json", in: dir)
        let webm = dir.appendingPathComponent("story.webm").path
        let w = try Segue.run(["batch", story, "--backend", "cpu", "--quiet", "--out", webm])
        #expect(w.status == 0, "\(w.stderr)")
        #expect(try BatchTests().probe(webm, "codec_name") == "vp9")
        // Formats that cannot carry alpha are a usage error that names those that can; nothing is written.
        for (out, extra) in [("spin.mp4", [String]()), ("spin.gif", []), ("spin.y4m", ["--format", "y4m"])] {
            let path = dir.appendingPathComponent(out).path
            let bad = try Segue.run(Self.spin + ["--backend", "cpu", "--out", path] + extra)
            #expect(bad.status == 2, "\(out): \(bad.stderr)")
            #expect(bad.stderr.contains(".mov (ProRes 4444) or .webm"), "\(bad.stderr)")
            #expect(!FileManager.default.fileExists(atPath: path))
        }
        let batch = try Segue.run(["batch", story, "--backend", "cpu", "--quiet", "--video", dir.appendingPathComponent("s.mp4").path])
        #expect(batch.status == 2, "\(batch.stderr)")
    }
}
