import Foundation
import SegueCore
import SegueImageIO
import SegueTestSupport
import Testing

/// The edges a new user meets first (issue 37), run against the release build in `make test-release`: `.` as
/// a screen, a closed standard output, a join ended by a signal, a partly transparent background, and the
/// refusals whose messages were not words.
@Suite struct EdgeCommandTests {
    static let common = ["--backend", "cpu", "--quiet"]

    /// One `segue: error:` line, words only (`MessageWords`), and a status of 1 or 2, never a signal's.
    static func expectOneLine(_ r: Segue.Result, status: Int32? = nil, containing text: String? = nil,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("segue: error: "), "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(status.map { r.status == $0 } ?? [1, 2].contains(r.status), "status \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
        if let text { #expect(r.stderr.contains(text), "\(r.stderr)", sourceLocation: sourceLocation) }
        #expect(MessageWords.findings(in: r.stderr).isEmpty, "\(r.stderr)", sourceLocation: sourceLocation)
    }

    /// `.` and `./` as a screen, on the command line and in a storyboard: an error in one line, not SIGILL.
    @Test(arguments: [".", "./"])
    func aDirectoryAsAScreenIsRefused(_ screen: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for out in [["--progress", "0.5", "--out", "x.png"], ["--out", "frames/"]] {
            let r = try Segue.run(["render", "fade", "--from", screen, "--to", "sample:detail"] + out + Self.common, in: dir)
            Self.expectOneLine(r, containing: "'\(screen)'")
        }
        let story = try write(#"{"screens": {"a": "\#(screen)", "b": "sample:home"}, "timeline": [{"transition": "fade", "from": "a", "to": "b"}]}"#,
                              "story.json", in: dir)
        let b = try Segue.run(["batch", story, "--out", dir.appendingPathComponent("frames").path] + Self.common, in: dir)
        #expect([1, 2].contains(b.status) && b.stderr.hasPrefix("segue: error: "), "status \(b.status): \(b.stderr)")
    }

    /// A command whose result goes to standard output fails when it is closed (`>&-`) instead of writing nothing.
    @Test(arguments: [["doctor", "--json", "--quick"], ["doctor", "--quick"], ["effects"], ["effects", "--json"], ["info"]])
    func aClosedStandardOutputIsAnError(_ arguments: [String]) throws {
        let r = try Segue.run(["-c", #"exec "$0" "$@" >&-"#, try Segue.executable.path] + arguments,
                              executable: URL(fileURLWithPath: "/bin/sh"))
        Self.expectOneLine(r, status: 1, containing: "standard output is closed")
    }

    /// A command whose answer cannot be written (standard output on a full disk) fails in one line instead of
    /// exiting 0 with a truncated answer.
    @Test(arguments: [["effects"], ["effects", "--json"], ["info"], ["info", "--json"], ["--version"]])
    func aStandardOutputThatCannotBeWrittenIsAnError(_ arguments: [String]) throws {
        let r = try Segue.run(["-c", #"exec "$0" "$@" >/dev/full"#, try Segue.executable.path] + arguments,
                              executable: URL(fileURLWithPath: "/bin/sh"))
        Self.expectOneLine(r, status: 1, containing: "cannot write standard output: no space left on device")
        // A reader that has gone before the answer is written (`| true`; `| head`) ends the command quietly.
        let gone = try Segue.run(["-c", #""$0" "$@" | true; exit ${PIPESTATUS[0]}"#, try Segue.executable.path] + arguments,
                                 executable: URL(fileURLWithPath: "/bin/bash"))
        #expect([0, 1].contains(gone.status) && gone.stderr.isEmpty, "\(gone)")
    }

    /// A partly transparent background (RRGGBBAA) is refused in one line: a background is opaque or transparent.
    @Test func aPartlyTransparentBackgroundIsRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Segue.run(["render", "fade", "--from", "sample:home", "--to", "sample:detail", "--progress", "0.5",
                               "--background", "FF000080", "--out", "x.png"] + Self.common, in: dir)
        Self.expectOneLine(r, status: 2, containing: "partly transparent")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.png").path))
        // Opaque and transparent stay as they were.
        for background in ["FF0000", "FF0000FF", "transparent"] {
            let ok = try Segue.run(["render", "fade", "--from", "sample:home", "--to", "sample:detail", "--progress", "0.5",
                                    "--background", background, "--out", "x.png"] + Self.common, in: dir)
            #expect(ok.status == 0, "\(background): \(ok.stderr)")
        }
    }

    /// `--report` naming a directory: refused before the checks, in words.
    @Test func aReportThatIsADirectoryIsRefusedInWords() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Segue.run(["doctor", "--quick", "--quiet", "--report", dir.path])
        Self.expectOneLine(r, status: 2, containing: "is a directory")
    }

    /// A storyboard giving a repeatable option more values than it takes says how many it takes.
    @Test func tooManyRepeatValuesNameTheLimit() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rects = Array(repeating: "[0, 0, 10, 10]", count: 65).joined(separator: ", ")
        let story = try write(#"{"screens": {"a": "sample:home", "b": "sample:detail"}, "timeline": [{"transition": "hero", "from": "a", "to": "b", "options": {"from-rect": [\#(rects)], "to-rect": [\#(rects)]}}]}"#,
                              "story.json", in: dir)
        let r = try Segue.run(["batch", story, "--out", dir.appendingPathComponent("f").path] + Self.common)
        #expect(r.status == 2 && r.stderr.contains("at most \(EffectOption.maxRepeats)"), "\(r.stderr)")
    }

    /// A symlink loop given as a clip says so, not "no such file".
    @Test func aSymlinkLoopAsAClipSaysSo() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let loop = dir.appendingPathComponent("loop.mp4").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        let r = try Segue.run(["render", "fade", "--from", loop, "--to", "sample:detail", "--progress", "0.5", "--out",
                               dir.appendingPathComponent("x.png").path] + Self.common)
        #expect(r.status != 0 && !r.stderr.contains("no such file") && r.stderr.contains("too many symbolic links"), "\(r.stderr)")
    }
}

/// Refusals that need ffmpeg: a video ended early by the caller's arguments, and a join ended by SIGTERM.
@Suite(.enabled(if: chunkTools != nil, "ffmpeg and ffprobe are not on PATH"))
struct EdgeVideoCommandTests {
    /// `-frames:v 1` makes ffmpeg stop reading and exit 0: said as that, not "failed (exit 0) ... printed nothing".
    @Test func ffmpegEndingTheVideoEarlyIsSaid() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Segue.run(["render", "door", "--from", "sample:home", "--to", "sample:detail", "--size", "640x1136",
                               "--fps", "60", "--duration", "2", "--ffmpeg-args", "-frames:v 1 -c:v libx264 -pix_fmt yuv420p",
                               "--out", dir.appendingPathComponent("x.mp4").path] + EdgeCommandTests.common)
        if r.status == 0 { return }  // every frame fitted in the pipe before ffmpeg stopped: nothing to say
        EdgeCommandTests.expectOneLine(r, status: 1, containing: "exited 0 before")
        #expect(!r.stderr.contains("printed nothing"), "\(r.stderr)")
    }

    /// SIGTERM in the middle of `segue join` (its ffmpeg, here a stand-in that waits) leaves no concat list and
    /// no temporary video among the chunks.
    @Test func aJoinEndedBySIGTERMLeavesNothing() throws {
        let s = try ChunkCommandTests.Setup()
        defer { try? FileManager.default.removeItem(at: s.dir) }
        for i in 0..<2 { #expect(try s.batch(["--video", s.path("out.mp4"), "--chunk", "\(i)/2"]).status == 0) }
        let bin = s.dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let fake = bin.appendingPathComponent("ffmpeg").path
        try "#!/bin/sh\nexec sleep 30\n".write(toFile: fake, atomically: true, encoding: .utf8)
        chmod(fake, 0o755)
        let process = Process()
        process.executableURL = try Segue.executable
        process.arguments = ["join", s.path("out.mp4")]
        process.environment = ProcessInfo.processInfo.environment.merging(["PATH": "\(bin.path):/usr/bin:/bin"]) { $1 }
        process.standardError = FileHandle.nullDevice
        try process.run()
        let chunks = s.path("out.mp4.chunks")
        let listed = { (try? FileManager.default.contentsOfDirectory(atPath: chunks)) ?? [] }
        var waited = 0
        while !listed().contains(where: { $0.hasPrefix("concat-") }) && waited < 200 {
            usleep(50_000)
            waited += 1
        }
        #expect(listed().contains { $0.hasPrefix("concat-") }, "the join never wrote its list: \(listed())")
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        let left = listed().filter { $0.hasPrefix("concat-") || $0.contains(".tmp-") }
        #expect(left.isEmpty, "left behind: \(left)")
        #expect(!FileManager.default.fileExists(atPath: s.path("out.mp4")))
        #expect(!((try? FileManager.default.contentsOfDirectory(atPath: s.dir.path)) ?? []).contains { $0.contains(".tmp-") })
    }
}

/// The rule `Segue.run` holds every suite's error lines to catches what issue 37 found, and passes words.
@Suite struct MessageWordsTests {
    @Test(arguments: [
        "segue: error: ExitCode(rawValue: 1)",
        "segue: error: cannot write the report to /tmp: The operation could not be completed. (NSCocoaErrorDomain error 512.)",
        "segue: error: cannot read Optional(\"x.png\")",
        "segue: error: SegueError(kind: failed, message: \"x\")",
        "segue: error: too many values, more than the limit",
    ])
    func findsWhatIsNotWords(_ line: String) {
        #expect(MessageWords.findings(in: line + "\n").count == 1, "\(line)")
    }

    @Test func passesWords() {
        let lines = """
            segue: error: 70 values, more than the limit of 64
            segue: error: too many open files (the limit on open files, ulimit -n)
            segue: error: --fps must be in [0.001, 1000], not nan
            segue: error: cubic(0.2,0.1,0.3,1) is not a timing curve
            """
        #expect(MessageWords.findings(in: lines).isEmpty)
    }
}
