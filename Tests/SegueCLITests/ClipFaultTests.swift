import Foundation
import SegueCore
import SegueImageIO
import SegueTestSupport
import Testing

/// Hostile clips and hostile ffmpeg: a clip declaring a huge size, starts that ffmpeg once misread, a damaged
/// clip, and an ffprobe or ffmpeg that never finishes (wrapper scripts on PATH whose child, `sleep`, holds the
/// pipe open after the script has gone). Every wait on a child ends within `--frame-timeout`, a signal ends the
/// children's whole process group, and nothing runs on after segue has exited. Run on the release build too
/// (`make test-release`).
@Suite(.enabled(if: ClipCommandTests.hasFFmpeg, "needs ffmpeg to make and probe clips"))
struct ClipFaultTests {
    /// The longest a run here may take before it counts as hung (each should end in a second or two).
    static let hung: Double = 15

    /// A GIF of a few dozen bytes whose header declares `width` x `height` (one 1x1 frame in it).
    static func declaredGIF(width: Int, height: Int, in dir: URL) throws -> String {
        var bytes: [UInt8] = Array("GIF89a".utf8)
        bytes += [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8), 0x80, 0, 0]
        bytes += [0, 0, 0, 255, 255, 255]
        bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        let path = dir.appendingPathComponent("declared.gif").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A directory of stand-ins on PATH: `tool` is a script that starts `sleep 987` (its pid in `DIR/sleep.pid`)
    /// and waits for it, holding its standard output and error open; the other tool is the real one.
    static func hangingTool(_ tool: String, in dir: URL) throws -> (bin: URL, pidFile: String) {
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let other = tool == "ffmpeg" ? "ffprobe" : "ffmpeg"
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent(other).path,
                                                   withDestinationPath: "/usr/bin/\(other)")
        let pidFile = dir.appendingPathComponent("sleep.pid").path
        let script = try write("""
            #!/bin/sh
            /bin/sleep 987 &
            echo $! > '\(pidFile).tmp' && /bin/mv '\(pidFile).tmp' '\(pidFile)'
            wait

            """, tool, in: bin)
        #expect(chmod(script, 0o755) == 0)
        return (bin, pidFile)
    }

    /// Whether process `pid` is still running (a zombie waiting for its parent counts as ended).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        let state = stat.split(separator: ")").last?.split(separator: " ").first
        return state != "Z" && state != "X"
    }

    /// The sleep a stand-in started: checked ended (within 3 s of segue's exit: a SIGKILL'd process is reaped
    /// late when the suites run in parallel on two cores), and killed if not,
    /// so that a failing test leaves nothing behind.
    static func expectEnded(pidFile: String) {
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            Issue.record("the stand-in never started its child")
            return
        }
        var waited = 0
        while isRunning(pid) && waited < 300 { usleep(10_000); waited += 1 }
        #expect(!isRunning(pid), "the stand-in's child (pid \(pid)) outlived segue")
        if isRunning(pid) { kill(pid, SIGKILL) }
    }

    /// segue with `arguments`, killed (and the run recorded as hung) past `hung` seconds; `during` runs once
    /// it has started, with its pid. Standard error goes to a file in `dir` (a hung stand-in's child could hold
    /// a pipe open for ever).
    static func runBounded(_ arguments: [String], in dir: URL, environment: [String: String] = [:], addressSpaceKiB: Int? = nil,
                           during: ((Int32) -> Void)? = nil) throws -> (status: Int32, stderr: String, hung: Bool) {
        let log = dir.appendingPathComponent("stderr-\(UUID().uuidString).txt")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let err = try FileHandle(forWritingTo: log)
        defer { try? err.close() }
        let process = try FaultTests.segue(arguments, hangupAtDefault: true)
        if let kib = addressSpaceKiB {
            process.arguments = ["-c", "ulimit -v \(kib) && exec \"$@\"", "bash", process.executableURL!.path] + (process.arguments ?? [])
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let started = Date()
        during?(process.processIdentifier)
        var hung = false
        while process.isRunning {
            if Date().timeIntervalSince(started) > Self.hung {
                kill(process.processIdentifier, SIGKILL)
                hung = true
                break
            }
            usleep(10_000)
        }
        process.waitUntilExit()
        let stderr = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return (process.terminationStatus, stderr, hung)
    }

    /// Waits (up to `hung` seconds) for `path` to exist.
    static func waitFor(_ path: String) {
        let started = Date()
        while !FileManager.default.fileExists(atPath: path) && Date().timeIntervalSince(started) < hung { usleep(5_000) }
    }

    // MARK: Sizes

    /// A clip's declared size is held to `--max-pixels` as a still's is, before anything is drawn at it.
    @Test func aClipsDeclaredSizeIsHeldToMaxPixels() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gif = try Self.declaredGIF(width: 2000, height: 2000, in: dir)
        let out = dir.appendingPathComponent("out").path
        let r = try Self.runBounded(["render", "door", "--from", gif, "--to", "sample:detail", "--fps", "10", "--duration", "0.1",
                                     "--backend", "cpu", "--quiet", "--max-pixels", "1000000", "--out", out], in: dir)
        #expect(!r.hung && r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("segue: error: ") && r.stderr.contains("2000x2000") && r.stderr.contains("--max-pixels"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// Under an address-space limit (`ulimit -v`) a two-clip 1080x1920 job ends cleanly whatever the limit:
    /// done, or one line (refused by the memory check, or ffmpeg failing under the same limit). It once hung
    /// for ever (libdispatch retrying thread creation in the probe; a frame reader that never started) or
    /// aborted (a frame's allocation failing in a job the check had accepted).
    @Test(.enabled(if: dlsym(dlopen(nil, RTLD_NOW), "__asan_init") == nil && dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") == nil,
                   "a sanitizer's runtime reserves terabytes of address space"),
          arguments: [300_000, 600_000, 800_000, 1_000_000])
    func aClipJobUnderAnAddressSpaceLimitEndsCleanly(_ kib: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("tall.mp4").path
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        make.arguments = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi",
                          "-i", "testsrc2=size=1080x1920:rate=10:duration=0.3", "-c:v", "libx264", "-preset", "ultrafast", clip]
        try make.run()
        make.waitUntilExit()
        #expect(make.terminationStatus == 0)
        let r = try Self.runBounded(["render", "door", "--from", clip, "--to", clip, "--fps", "10", "--duration", "0.2",
                                     "--backend", "cpu", "--quiet", "--out", dir.appendingPathComponent("out").path],
                                    in: dir, addressSpaceKiB: kib)
        #expect(!r.hung, "ulimit -v \(kib): hung")
        #expect(r.status == 0 || r.status == 1, "ulimit -v \(kib): exit \(r.status): \(r.stderr)")
        #expect(r.stderr.isEmpty || (r.stderr.hasPrefix("segue: error: ") && r.stderr.split(separator: "\n").count == 1),
                "ulimit -v \(kib): \(r.stderr)")
    }

    // MARK: Children that never finish

    /// An ffprobe whose child holds its pipe open for ever: `--frame-timeout` ends the probe, with the child.
    @Test func aHangingProbeIsEndedByTheFrameTimeoutWithItsChildren() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try ClipCommandTests.makeClip(in: dir)
        let (bin, pidFile) = try Self.hangingTool("ffprobe", in: dir)
        let r = try Self.runBounded(["render", "door", "--from", clip, "--to", "sample:detail", "--backend", "cpu", "--quiet",
                                     "--frame-timeout", "1", "--out", dir.appendingPathComponent("out").path],
                                    in: dir, environment: ["PATH": bin.path])
        #expect(!r.hung && r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("segue: error: probing the clip '\(clip)'") && r.stderr.contains("--frame-timeout"), "\(r.stderr)")
        Self.expectEnded(pidFile: pidFile)
    }

    /// SIGINT, SIGTERM or SIGHUP while the clip is probed: exit 130 at once, and the probe's whole process
    /// group ends with segue.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aSignalDuringTheProbeEndsItsChildren(_ signal: Int32) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try ClipCommandTests.makeClip(in: dir)
        let (bin, pidFile) = try Self.hangingTool("ffprobe", in: dir)
        let r = try Self.runBounded(["render", "door", "--from", clip, "--to", "sample:detail", "--backend", "cpu", "--quiet",
                                     "--out", dir.appendingPathComponent("out").path],
                                    in: dir, environment: ["PATH": bin.path]) { pid in
            Self.waitFor(pidFile)
            kill(pid, signal)
        }
        #expect(!r.hung && r.status == 130, "\(r.stderr)")
        Self.expectEnded(pidFile: pidFile)
    }

    /// A decoder that never writes a frame, and a looping clip with no frame ffmpeg can decode (it loops for
    /// ever, writing nothing): waiting for a clip's frame is timed work, ended by `--frame-timeout` with the
    /// decoder's whole process group.
    @Test(arguments: ["hanging decoder", "undecodable loop"])
    func aClipFrameThatNeverComesIsEndedByTheFrameTimeout(_ kind: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var environment: [String: String] = [:]
        var pidFile: String?
        let clip: String
        if kind == "hanging decoder" {
            clip = try ClipCommandTests.makeClip(in: dir)
            let (bin, file) = try Self.hangingTool("ffmpeg", in: dir)
            environment["PATH"] = bin.path
            pidFile = file
        } else {
            // PNG frames in Matroska, each frame's PNG signature zeroed: ffprobe reads the stream's size, and
            // ffmpeg decodes nothing.
            let made = try ClipCommandTests.makeClip(in: dir, "made.mkv")
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: made)))
            let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
            var damaged = 0
            for i in 0..<(bytes.count - 8) where Array(bytes[i..<(i + 4)]) == signature {
                bytes.replaceSubrange(i..<(i + 8), with: [UInt8](repeating: 0, count: 8))
                damaged += 1
            }
            #expect(damaged > 0)
            clip = dir.appendingPathComponent("nothing.mkv").path
            try Data(bytes).write(to: URL(fileURLWithPath: clip))
        }
        let story = try write("""
            {"fps": 10, "screens": {"a": {"path": "\((clip as NSString).lastPathComponent)", "loop": true}},
             "timeline": [{"hold": "a", "duration": 1}]}
            """, "story.json", in: dir)
        let r = try Self.runBounded(["batch", story, "--backend", "cpu", "--quiet", "--frame-timeout", "1",
                                     "--out", dir.appendingPathComponent("out").path], in: dir, environment: environment)
        #expect(!r.hung && r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("segue: error: waiting for frame 0 of the clip '") && r.stderr.contains("--frame-timeout"), "\(r.stderr)")
        if let pidFile { Self.expectEnded(pidFile: pidFile) }
    }

    // MARK: Starts and damage

    /// A start Swift prints with an exponent (0.00001 is `1e-05`) reaches ffmpeg as decimals; a start within
    /// the clip's last frame, or past its end, holds the last frame, as the README says.
    @Test func startsWithAnExponentAndPastTheEndRender() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try ClipCommandTests.makeClip(in: dir)  // 10 frames at 10 fps: the last starts at 0.9 s
        func first(_ start: String) throws -> Pixmap? {
            let out = dir.appendingPathComponent("start-\(start).png").path
            let r = try Self.runBounded(["render", "door", "--from", clip, "--to", "sample:detail", "--fps", "10",
                                         "--from-start", start, "--progress", "0", "--backend", "cpu", "--quiet", "--out", out], in: dir)
            #expect(!r.hung && r.status == 0, "--from-start \(start): \(r.stderr)")
            return try? ImageDecoder.decode(contentsOf: out)
        }
        let zero = try first("0"), tiny = try first("0.00001")
        #expect(zero != nil && tiny == zero)
        let last = try first("0.9"), within = try first("0.95"), past = try first("5")
        #expect(last != nil && last != zero)
        #expect(within == last)
        #expect(past == last)
    }

    /// A clip cut in half decodes as far as it goes; what ffmpeg said about it is one warning on stderr.
    @Test func aDamagedClipIsAWarning() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try ClipCommandTests.makeClip(in: dir, "whole.mkv")
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        let clip = dir.appendingPathComponent("half.mkv").path
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: clip))
        let r = try Self.runBounded(["render", "door", "--from", clip, "--to", "sample:detail", "--fps", "10", "--duration", "1.5",
                                     "--backend", "cpu", "--quiet", "--out", dir.appendingPathComponent("out").path], in: dir)
        #expect(!r.hung && r.status == 0, "\(r.stderr)")
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains("ffmpeg complained decoding the clip '\(clip)'") }
        #expect(warnings.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("File ended prematurely"), "\(r.stderr)")
    }
}
