import Foundation
import SegueTestSupport
import Testing

private let hasVideoFFmpeg: Bool = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/ffmpeg") }
}()

/// What an output path means, and outputs that would destroy what the job reads: checked before anything is
/// read or written, with one line and a non-zero exit.
@Suite struct OutputPathCommandTests {
    let door = ["render", "door", "--to", "sample:detail", "--size", "40x72", "--backend", "cpu", "--quiet"]

    @Test func anOutputThatIsAnInputIsRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.png").path
        #expect(try Segue.run(door + ["--from", "sample:home", "--progress", "0.5", "--out", a]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: a))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.png").path, withDestinationPath: a)
        // The same file however it is named: as given, through another spelling, through a link.
        for out in [a, dir.path + "/./a.png", dir.appendingPathComponent("link.png").path] {
            let r = try Segue.run(door + ["--from", a, "--progress", "0.3", "--out", out])
            #expect(r.status != 0 && r.stderr.contains("is the input"), "\(out): \(r.status) \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: a)) == before)
    }

    @Test func aScreenNamedAsAFrameInTheOutputDirectoryIsRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = dir.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
        let first = frames.appendingPathComponent("frame_00000.png").path
        #expect(try Segue.run(door + ["--from", "sample:home", "--progress", "0", "--out", first]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: first))
        let r = try Segue.run(door + ["--from", first, "--fps", "10", "--out", frames.path, "--overwrite"])
        #expect(r.status != 0 && r.stderr.contains("inside the directory of frames"), "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == before)
    }

    @Test func aVideoExtensionAloneIsRefusedAndATrailingSlashIsADirectory() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Segue.run(door + ["--from", "sample:home", "--fps", "10", "--out", ".mp4"], in: dir)
        #expect(r.status != 0 && r.stderr.contains("no name before its extension"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)

        let s = try Segue.run(door + ["--from", "sample:home", "--fps", "10", "--out", "frames.mp4/"], in: dir)
        #expect(s.status == 0, "\(s.stderr)")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("frames.mp4").path, isDirectory: &isDirectory)
                && isDirectory.boolValue)
    }
}

/// Messages and standard streams: one line per error whatever a file name holds, and a stream to a closed
/// standard output is a failure, not a silent success.
@Suite struct MessageCommandTests {
    @Test func aFileNameWithANewlineCannotForgeALine() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Segue.run(["render", "door", "--from", "x\nsegue: error: forged.png", "--to", "sample:detail",
                               "--progress", "0.5", "--out", "a.png"], in: dir)
        #expect(r.status != 0)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("x\\x0Asegue"), "\(r.stderr)")
    }

    @Test func aStreamToAClosedStandardOutputFails() throws {
        let segue = try Segue.executable.path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "exec \"$0\" render door --from sample:home --to sample:detail --size 40x72 --fps 10 --backend cpu --quiet --out - --format rgba >&-", segue]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus != 0 && said.contains("standard output is closed"), "\(p.terminationStatus) \(said)")
    }
}

/// `--ffmpeg-args`: words split as a shell splits them, options only, the even-size pad kept, and ffmpeg's
/// own words in its errors.
@Suite(.enabled(if: hasVideoFFmpeg, "ffmpeg is not on PATH"))
struct FFmpegArgumentsCommandTests {
    let door = ["render", "door", "--from", "sample:home", "--to", "sample:detail", "--fps", "10", "--backend", "cpu", "--quiet"]

    @Test func quotedValuesWorkAndTheOddSampleSizeIsPadded() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The sample screens are 375x667: libx264 at 4:2:0 needs the pad.
        let out = dir.appendingPathComponent("door.mp4").path
        let r = try Segue.run(door + ["--out", out, "--ffmpeg-args",
                                      "-c:v libx264 -preset ultrafast -x264-params 'keyint=5:min-keyint=5' -pix_fmt yuv420p"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
    }

    @Test(arguments: [("-c:v libx264 extra.mp4", "would be an output"), ("-c:v libx264 -i other.mp4", "may not use -i"),
                      ("-c:v 'libx264", "inside a quote"), ("-crf", "needs a value")])
    func argumentsThatAddOutputsOrInputsAreRefused(_ arguments: String, _ said: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Segue.run(door + ["--out", dir.appendingPathComponent("door.mp4").path, "--ffmpeg-args", arguments], in: dir)
        #expect(r.status != 0 && r.stderr.contains(said), "\(arguments): \(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func ffmpegsOwnWordsAreInItsErrorAndNoTemporaryName() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("door.mp4").path
        let r = try Segue.run(door + ["--out", out, "--ffmpeg-args", "-c:v libx264 -preset no-such-preset"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("no-such-preset") || r.stderr.lowercased().contains("preset"), "\(r.stderr)")
        #expect(!r.stderr.contains(".tmp-"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}

/// The encoder is a child like the clips' decoders: in a process group of its own, ended with everything it
/// started when the job is signalled, and nothing left under the video's name or a temporary one.
@Suite(.enabled(if: hasVideoFFmpeg, "ffmpeg is not on PATH"))
struct VideoEncoderFaultTests {
    @Test(arguments: [SIGTERM, SIGHUP])
    func aSignalWhileTheEncoderHangsEndsItsGroup(_ signal: Int32) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // An ffmpeg that starts a child and never reads its input: segue blocks writing the first frame.
        let (bin, pidFile) = try ClipFaultTests.hangingTool("ffmpeg", in: dir)
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let r = try ClipFaultTests.runBounded(["render", "door", "--from", "sample:home", "--to", "sample:detail", "--backend", "cpu",
                                               "--quiet", "--out", out.appendingPathComponent("door.mp4").path],
                                              in: dir, environment: ["PATH": bin.path]) { pid in
            ClipFaultTests.waitFor(pidFile)
            kill(pid, signal)
        }
        #expect(!r.hung && r.status == 130, "\(r.stderr)")
        ClipFaultTests.expectEnded(pidFile: pidFile)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }
}
