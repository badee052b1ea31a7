import Foundation
import SegueCore
import SegueImageIO
import SegueTestSupport
import Testing

/// `--colour-space`: a Display P3 screenshot (as an iPhone writes it: the P3 profile in iCCP) renders to the
/// right sRGB colours, or stays Display P3 (auto) with its profile in the output; sRGB jobs are as before.
@Suite struct ColourSpaceCommandTests {
    /// Pure red and green of a page as a Display P3 screenshot stores them, tagged by Segue's own encoder.
    static func p3Screenshot(in directory: URL) throws -> String {
        let pixels = (0..<64).map { $0 < 32 ? Pixmap.pack(r: 234, g: 51, b: 35, a: 255) : Pixmap.pack(r: 117, g: 251, b: 76, a: 255) }
        let path = directory.appendingPathComponent("p3.png").path
        try Data(try PNGEncoder.encode(Pixmap(width: 8, height: 8, pixels: pixels), colourSpace: .displayP3)).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("segue-colour-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func render(_ input: String, _ extra: [String], out: String) throws -> Segue.Result {
        try Segue.run(["render", "fade", "--from", input, "--to", input, "--progress", "0", "--backend", "cpu", "--quiet", "--out", out] + extra)
    }

    @Test func displayP3IntoSRGB() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("srgb.png").path
        let result = try Self.render(try Self.p3Screenshot(in: dir), ["--colour-space", "srgb"], out: out)
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
        #expect(try ImageDecoder.colour(data: bytes, name: out).tag == .untagged)
        let image = try ImageDecoder.decode(data: bytes, name: out)
        #expect(rgb(image.pixels[0]).isClose(to: (255, 0, 0), within: 3), "\(rgb(image.pixels[0]))")
        #expect(rgb(image.pixels[63]).isClose(to: (0, 255, 0), within: 3), "\(rgb(image.pixels[63]))")
    }

    /// auto: a P3 input makes a P3 job, whose PNG says so and keeps the input's values.
    @Test func autoKeepsDisplayP3() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("p3-out.png").path
        let result = try Self.render(try Self.p3Screenshot(in: dir), [], out: out)
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
        #expect(try ImageDecoder.colour(data: bytes, name: out).isWide)
        let p3 = try ImageDecoder.decode(data: bytes, name: out, into: .displayP3)
        #expect(rgb(p3.pixels[0]).isClose(to: (234, 51, 35), within: 2), "\(rgb(p3.pixels[0]))")
        let srgb = try ImageDecoder.decode(data: bytes, name: out)
        #expect(rgb(srgb.pixels[0]).isClose(to: (255, 0, 0), within: 3), "\(rgb(srgb.pixels[0]))")
    }

    /// An untagged input under auto: an sRGB job, an untagged PNG holding the input's very values.
    @Test func srgbInputIsAsBefore() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("plain.png").path
        let pixels = (0..<64).map { (k: Int) -> UInt32 in Pixmap.pack(r: UInt32(k * 4), g: UInt32(200 - k), b: UInt32(k * 3), a: 255) }
        let original = Pixmap(width: 8, height: 8, pixels: pixels)
        try Data(try PNGEncoder.encode(original)).write(to: URL(fileURLWithPath: input))
        let out = dir.appendingPathComponent("out.png").path
        let result = try Self.render(input, [], out: out)
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
        #expect(try ImageDecoder.colour(data: bytes, name: out).tag == .untagged)
        #expect(try ImageDecoder.decode(data: bytes, name: out).pixels == original.pixels)
    }

    @Test func unknownColourSpaceIsOneLine() throws {
        let result = try Segue.run(["render", "fade", "--from", "sample:home", "--to", "sample:detail", "--progress", "0.5",
                                    "--colour-space", "adobe-rgb", "--out", "/tmp/segue-colour-never.png"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("unknown colour space 'adobe-rgb' (use auto, srgb or display-p3)"), "\(result.stderr)")
    }

    @Test func displayP3GIFIsRefused() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try Segue.run(["render", "fade", "--from", "sample:home", "--to", "sample:detail", "--fps", "5", "--duration", "0.4",
                                    "--colour-space", "display-p3", "--quiet", "--out", dir.appendingPathComponent("x.gif").path])
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && result.stderr.contains("a GIF cannot carry Display P3") && result.stderr.contains("--colour-space"), "\(result.stderr)")
    }

    /// A Display P3 video is tagged smpte432 with the sRGB transfer; an sRGB one as before (bt709).
    @Test(arguments: [("display-p3", "smpte432", "iec61966-2-1"), ("srgb", "bt709", "bt709")])
    func videoTags(space: String, primaries: String, transfer: String) throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("v.mp4").path
        let result = try Segue.run(["render", "fade", "--from", "sample:home", "--to", "sample:detail", "--fps", "5", "--duration", "0.4",
                                    "--size", "64x64", "--colour-space", space, "--backend", "cpu", "--quiet", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        probe.arguments = ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=color_primaries,color_transfer", "-of", "csv=p=0", out]
        let pipe = Pipe()
        probe.standardOutput = pipe
        try probe.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        probe.waitUntilExit()
        // ffprobe prints the fields in its own order: transfer, then primaries.
        #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == "\(transfer),\(primaries)", "\(text)")
    }

    func rgb(_ p: UInt32) -> Triple { Triple(Int(p & 0xFF), Int((p >> 8) & 0xFF), Int((p >> 16) & 0xFF)) }

    struct Triple: CustomStringConvertible {
        var r, g, b: Int
        init(_ r: Int, _ g: Int, _ b: Int) { self.r = r; self.g = g; self.b = b }
        func isClose(to other: (Int, Int, Int), within tolerance: Int) -> Bool {
            abs(r - other.0) <= tolerance && abs(g - other.1) <= tolerance && abs(b - other.2) <= tolerance
        }
        var description: String { "\(r),\(g),\(b)" }
    }
}
