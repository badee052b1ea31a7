import Foundation
import SegueCore
import SegueImageIO
import SegueTestSupport
import Testing

/// Video clips as screens, from the command line: the options, the help, and the one-line errors (a clip ffmpeg
/// cannot open, a missing ffmpeg) before anything is written. What clips draw is tested in
/// `SegueRenderJobTests/ClipTests`.
@Suite struct ClipCommandTests {
    static let hasFFmpeg = FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")

    /// A 40x72 clip of `testsrc2`, 1 s at 10 fps, lossless.
    static func makeClip(in dir: URL, _ name: String = "a.mov") throws -> String {
        let path = dir.appendingPathComponent(name).path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        p.arguments = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi",
                       "-i", "testsrc2=size=40x72:rate=10:duration=1", "-c:v", "png", path]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        return path
    }

    @Test(.enabled(if: hasFFmpeg, "needs ffmpeg to make a clip"))
    func rendersBetweenAClipAndAStillAndABatchHoldPlaysAClip() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.makeClip(in: dir)
        let out = dir.appendingPathComponent("frames").path
        let r = try Segue.run(["render", "door", "--from", clip, "--to", "sample:detail", "--fps", "10", "--duration", "0.5",
                               "--from-start", "0.4", "--backend", "cpu", "--quiet", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }.sorted()
        #expect(names.count == 6)
        // The clip sets the size.
        let first = try ImageDecoder.decode(contentsOf: "\(out)/\(names[0])")
        #expect(first.width == 40 && first.height == 72)

        // A storyboard's hold of a looping clip plays it: its frames differ, and frame 10 is frame 0 again.
        let story = try write("""
            {"fps": 10, "screens": {"a": {"path": "a.mov", "loop": true}}, "timeline": [{"hold": "a", "duration": 1}]}
            """, "story.json", in: dir)
        let held = dir.appendingPathComponent("held").path
        let b = try Segue.run(["batch", story, "--backend", "cpu", "--quiet", "--out", held])
        #expect(b.status == 0, "\(b.stderr)")
        let f0 = try ImageDecoder.decode(contentsOf: "\(held)/frame_00000.png")
        let f3 = try ImageDecoder.decode(contentsOf: "\(held)/frame_00003.png")
        let f10 = try ImageDecoder.decode(contentsOf: "\(held)/frame_00010.png")
        #expect(f0 != f3)
        #expect(f0 == f10)
    }

    @Test func aMissingFFmpegIsOneLineBeforeAnythingIsWritten() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("a.mp4").path
        try Data("whatever".utf8).write(to: URL(fileURLWithPath: clip))
        let r = try Segue.run(["render", "door", "--from", clip, "--to", "sample:detail", "--backend", "cpu",
                               "--out", dir.appendingPathComponent("out").path], environment: ["PATH": "/nonexistent"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("segue: error: the clip '\(clip)' needs ffmpeg"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["a.mp4"])
    }

    @Test(.enabled(if: hasFFmpeg, "needs ffprobe to refuse the clip"))
    func aClipFFmpegCannotOpenIsOneLine() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("broken.webm").path
        try Data("not a video at all".utf8).write(to: URL(fileURLWithPath: clip))
        let r = try Segue.run(["render", "door", "--from", "sample:home", "--to", clip, "--backend", "cpu",
                               "--out", dir.appendingPathComponent("out").path])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("segue: error: ffmpeg cannot open the clip '\(clip)'"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["broken.webm"])
    }

    /// A FIFO named like a clip never ends: it is refused before ffprobe would wait on it for ever.
    @Test(.enabled(if: hasFFmpeg, "needs ffprobe to be reached"))
    func aFIFONamedLikeAClipIsRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("never.mp4").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        let r = try Segue.run(["render", "door", "--from", fifo, "--to", "sample:detail", "--backend", "cpu", "--quiet",
                               "--out", dir.appendingPathComponent("out").path])
        #expect(r.status == 1 && r.stderr.contains("not a regular file"), "\(r.stderr)")
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }

    /// An ffmpeg that dies mid-clip (a stand-in on PATH beside the real ffprobe: it writes some frames' bytes,
    /// complains and exits) is one line naming the clip and what ffmpeg said; the frames written before it stay
    /// (for `--resume`), and nothing half-written does.
    @Test(.enabled(if: hasFFmpeg, "needs ffprobe to probe the clip"), arguments: [
        (3 * 40 * 72 * 4 / 2, "ffmpeg stopped mid-frame decoding the clip"),
        (2 * 40 * 72 * 4, "ffmpeg failed (exit 3) decoding the clip"),
    ])
    func anFFmpegThatDiesMidClipIsOneLine(_ bytes: Int, _ message: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.makeClip(in: dir)
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("ffprobe").path,
                                                   withDestinationPath: "/usr/bin/ffprobe")
        let ffmpeg = try write("""
            #!/bin/sh
            /usr/bin/head -c \(bytes) /dev/urandom
            echo "the decoder gave up" >&2
            exit 3

            """, "ffmpeg", in: bin)
        #expect(chmod(ffmpeg, 0o755) == 0)
        let out = dir.appendingPathComponent("out").path
        let r = try Segue.run(["render", "door", "--from", clip, "--to", "sample:detail", "--fps", "10", "--duration", "0.5",
                               "--backend", "cpu", "--quiet", "--out", out], environment: ["PATH": bin.path])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("segue: error: \(message) '\(clip)': the decoder gave up"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
        #expect(!left.contains { $0.contains(".tmp") }, "\(left)")
    }

    @Test func startOffsetsAreCheckedAndDocumented() throws {
        let r = try Segue.run(["render", "door", "--from", "sample:home", "--to", "sample:detail", "--from-start", "-1", "--out", "x"])
        #expect(r.status == 2 && r.stderr.contains("--from-start must be"), "\(r.stderr)")
        let help = try Segue.run(["render", "--help"])
        let text = String(decoding: help.stdout, as: UTF8.self)
        #expect(text.contains("--from-start") && text.contains("--to-start") && text.contains("video clip"), "\(text)")
    }
}
