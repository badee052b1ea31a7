import Foundation
import SegueCore
import SegueImageIO
import SegueTestSupport
import Testing

/// No broken frame kept: what `--resume` counts as complete, frames of another job in the output directory,
/// two jobs on one directory, and custom shaders that leave pixels transparent.
@Suite struct OutputDirectoryTests {
    static let args = ["--backend", "cpu", "--quiet"]

    /// Breaks frames of a finished run every way a file named like a frame can be broken.
    static func damage(_ out: URL, keepingManifest: Bool) throws {
        let fm = FileManager.default
        func frame(_ k: Int) -> URL { out.appendingPathComponent(String(format: "frame_%05d.png", k)) }
        let whole = try Data(contentsOf: frame(3))
        try whole.prefix(whole.count / 2).write(to: frame(3))                   // truncated
        try Data().write(to: frame(5))                                          // zero bytes
        try Data(PNGEncoder.encode(Pixmap(width: 10, height: 10, fill: 0xFF00_00FF))).write(to: frame(7))  // wrong size
        try Data("this is not a PNG".utf8).write(to: frame(9))                  // garbage
        try fm.removeItem(at: frame(11))
        try fm.createDirectory(at: frame(11), withIntermediateDirectories: false)  // a directory
        try fm.removeItem(at: frame(13))
        try fm.createSymbolicLink(atPath: frame(13).path, withDestinationPath: "nowhere.png")  // dangling link
        try fm.moveItem(at: frame(10), to: out.appendingPathComponent("frame_0000010.png"))   // not %05d
        try fm.moveItem(at: frame(20), to: out.appendingPathComponent("frame_+0020.png"))
        try fm.copyItem(at: frame(38), to: out.appendingPathComponent("frame_00100.png"))    // past the end
        if keepingManifest {
            // A whole PNG of the right size, but not this frame: only the manifest's hash can tell.
            try fm.removeItem(at: frame(39))
            try fm.copyItem(at: frame(0), to: frame(39))
        } else {
            try fm.removeItem(at: out.appendingPathComponent(".segue"))
        }
    }

    @Test(arguments: [true, false])
    func resumeReRendersEveryBrokenFrame(_ keepingManifest: Bool) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let story = try write(BatchTests.storyboard(), "story.json", in: dir)
        let clean = dir.appendingPathComponent("clean"), out = dir.appendingPathComponent("out")
        #expect(try Segue.run(["batch", story, "--out", clean.path] + Self.args).status == 0)
        #expect(try Segue.run(["batch", story, "--out", out.path] + Self.args).status == 0)
        try Self.damage(out, keepingManifest: keepingManifest)

        let r = try Segue.run(["batch", story, "--out", out.path, "--resume", "--backend", "cpu"])
        #expect(r.status == 0, "\(r.stderr)")
        let rerendered = keepingManifest ? 9 : 8
        #expect(r.stderr.contains("resuming: \(40 - rerendered) frames already complete, \(rerendered) to render"), "\(r.stderr)")
        #expect(try files(out) == files(clean))
        // And again: everything is now recorded and whole.
        let again = try Segue.run(["batch", story, "--out", out.path, "--resume", "--backend", "cpu"])
        #expect(again.stderr.contains("resuming: 40 frames already complete, 0 to render"), "\(again.stderr)")
    }

    /// After the storyboard changes (here its size), `--resume` keeps nothing of the old job.
    @Test func resumeAfterTheStoryboardChangesKeepsNoOldFrame() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let old = try write(BatchTests.storyboard(), "old.json", in: dir)
        let new = try write(BatchTests.storyboard().replacingOccurrences(of: "[48, 80]", with: "[40, 72]"), "new.json", in: dir)
        let clean = dir.appendingPathComponent("clean"), out = dir.appendingPathComponent("out")
        #expect(try Segue.run(["batch", new, "--out", clean.path] + Self.args).status == 0)
        #expect(try Segue.run(["batch", old, "--out", out.path] + Self.args).status == 0)
        let r = try Segue.run(["batch", new, "--out", out.path, "--resume"] + Self.args)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try files(out) == files(clean))
    }

    /// A fresh run into the folder of a longer earlier run is refused (the old tail would join the video);
    /// `--overwrite` replaces it, leaving exactly the new job's frames.
    @Test func framesOfAnotherJobAreRefusedThenOverwritten() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let long = try write(BatchTests.storyboard(hold: 2.5), "long.json", in: dir)
        let short = try write(BatchTests.storyboard(hold: 0.0001), "short.json", in: dir)
        let clean = dir.appendingPathComponent("clean"), out = dir.appendingPathComponent("out")
        #expect(try Segue.run(["batch", short, "--out", clean.path] + Self.args).status == 0)
        #expect(try Segue.run(["batch", long, "--out", out.path] + Self.args).status == 0)
        let before = try files(out)
        #expect(before.count == 106)

        let refused = try Segue.run(["batch", short, "--out", out.path] + Self.args)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(refused.stderr.hasPrefix("segue: error: the output directory '\(out.path)' holds 106 frames of another job"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--overwrite") && refused.stderr.contains("--resume"), "\(refused.stderr)")
        #expect(try files(out) == before)
        // segue render is refused the same way.
        let render = try Segue.run(["render", "door", "--from", "sample:home", "--to", "sample:detail", "--size", "48x80",
                                    "--out", out.path] + Self.args)
        #expect(render.status == 2 && render.stderr.contains("--overwrite"), "\(render.stderr)")

        let r = try Segue.run(["batch", short, "--out", out.path, "--overwrite"] + Self.args)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try files(clean).count == 31)
        #expect(try files(out) == files(clean))
        // Frames with no manifest at all (not Segue's, or an older Segue's) are refused too.
        try FileManager.default.removeItem(at: out.appendingPathComponent(".segue"))
        let unknown = try Segue.run(["batch", short, "--out", out.path] + Self.args)
        #expect(unknown.status == 2 && unknown.stderr.contains("31 frames with no Segue manifest"), "\(unknown.stderr)")
    }

    /// A second job on a directory a job is writing fails at once, naming the first's pid; the first is
    /// unharmed.
    @Test func aSecondJobOnALockedDirectoryIsRefusedWithThePid() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let story = try write(BatchTests.storyboard(fps: 240, hold: 4).replacingOccurrences(of: "[48, 80]", with: "[120, 200]"),
                              "story.json", in: dir)
        let out = dir.appendingPathComponent("frames")
        let first = Process()
        first.executableURL = try Segue.executable
        first.arguments = ["batch", story, "--out", out.path, "--png-level", "9", "--threads", "1"] + Self.args
        let err = Pipe()
        first.standardError = err
        try first.run()
        while ((try? frameDirectoryNames(atPath: out.path).count) ?? 0) < 5 && first.isRunning { usleep(1000) }
        #expect(first.isRunning, "the first job finished too soon")

        for second in [["batch", story, "--out", out.path, "--resume"], ["batch", story, "--out", out.path, "--shard", "1/2"],
                       ["render", "fade", "--from", "sample:home", "--to", "sample:detail", "--out", out.path, "--overwrite"]] {
            let start = Date()
            let r = try Segue.run(second + Self.args)
            #expect(Date().timeIntervalSince(start) < 20)
            #expect(r.status == 1, "\(second): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("segue: error: the output directory '\(out.path)' is in use by another segue job (pid \(first.processIdentifier))"),
                    "\(r.stderr)")
        }
        kill(first.processIdentifier, SIGINT)
        let firstErr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        first.waitUntilExit()
        #expect(first.terminationStatus == 130, "\(firstErr)")
        #expect(firstErr.split(separator: "\n").allSatisfy { $0.hasSuffix("interrupted") }, "\(firstErr)")
        // Released: the job resumes and completes.
        let r = try Segue.run(["batch", story, "--out", out.path, "--resume", "--png-level", "9"] + Self.args)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try frameDirectoryNames(atPath: out.path).count == 1201)
    }

    /// Shards of one job started together share the directory's lock; together they write what one process
    /// writes.
    @Test func concurrentShardsOfOneJobShareTheDirectory() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let story = try write(BatchTests.storyboard(fps: 120), "story.json", in: dir)
        let whole = dir.appendingPathComponent("whole"), joined = dir.appendingPathComponent("joined")
        #expect(try Segue.run(["batch", story, "--out", whole.path] + Self.args).status == 0)
        var processes: [(Process, Pipe)] = []
        for i in 0..<4 {
            let p = Process()
            p.executableURL = try Segue.executable
            p.arguments = ["batch", story, "--out", joined.path, "--shard", "\(i)/4", "--resume"] + Self.args
            let err = Pipe()
            p.standardError = err
            try p.run()
            processes.append((p, err))
        }
        for (p, err) in processes {
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationStatus == 0, "\(text)")
        }
        #expect(try files(joined) == files(whole))
    }

    /// A custom shader that discards pixels or returns transparent ones shows the background there, opaque.
    @Test func transparentShaderPixelsShowTheBackground() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let shader = try write("""
            vec4 transition(vec2 uv) {
                if (uv.x < 0.5) discard;
                if (uv.y < 0.5) return vec4(0.0);
                return mix(getFromColor(uv), getToColor(uv), progress);
            }
            """, "holes.glsl", in: dir)
        let (w, h) = (48, 80)
        // Several frames in one process: a discarded pixel must not keep an earlier frame's colour either.
        let r = try Segue.run(["render", "--shader", shader, "--from", "sample:home", "--to", "sample:detail", "--size", "\(w)x\(h)",
                               "--background", "FF0000", "--backend", "gles", "--fps", "4", "--out", "-", "--format", "rgba", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let px = [UInt8](r.stdout)
        try #require(px.count == 5 * w * h * 4, "\(px.count) bytes")
        var wrong = 0
        for f in 0..<5 {
            for y in 0..<h {
                for x in 0..<w where x < w / 2 || y >= h / 2 {  // discarded (left) or transparent (bottom: uv.y < 0.5)
                    let i = ((f * h + y) * w + x) * 4
                    if px[i] != 255 || px[i + 1] != 0 || px[i + 2] != 0 || px[i + 3] != 255 { wrong += 1 }
                }
            }
        }
        #expect(wrong == 0, "\(wrong) pixels are not opaque red")
    }
}
