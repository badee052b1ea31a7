import Foundation
import SegueCore
import SegueImageIO
import SegueTestSupport
import Testing

/// Faults from outside mid-job: the disk fills, the output directory goes away, EGL cannot start, SIGINT and
/// SIGTERM. Each ends with one clear line and no partial file under a final name, and `--resume` then
/// completes the job with the same bytes as a clean run.
@Suite struct FaultTests {
    /// 48 × 80 pixels, 1.3 s at 30 fps: frames 0 ... 39.
    static let story = BatchTests.storyboard()

    /// segue under `ulimit -f` (KiB): past it write() fails with EFBIG, as on a full disk.
    func runLimited(_ kib: Int, _ arguments: [String]) throws -> Segue.Result {
        let executable = try Segue.executable.path
        let quoted = ([executable] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "ulimit -f \(kib); exec \(quoted)"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "killed by signal \(process.terminationStatus)")
        return Segue.Result(status: process.terminationStatus, stdout: Data(), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Frames at PNG level 0 are about 15 KiB, a 4 KiB limit stops the first; the raw stream (600 KiB) stops
    /// part way. Then `--resume` with room completes it, byte-identical to a clean run.
    /// ThreadSanitizer's runtime itself dies of SIGBUS under a file size limit, so that build skips this one.
    @Test(.enabled(if: dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") == nil, "TSan's runtime cannot run under ulimit -f"))
    func diskFullIsAClearErrorAndResumeCompletes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let story = try write(Self.story, "story.json", in: dir)
        let args = ["batch", story, "--backend", "cpu", "--quiet", "--png-level", "0"]
        let clean = dir.appendingPathComponent("clean"), full = dir.appendingPathComponent("full")
        #expect(try Segue.run(args + ["--out", clean.path]).status == 0)

        let r = try runLimited(4, args + ["--out", full.path])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("segue: error: ") && r.stderr.contains("file too large (the limit on file size, ulimit -f)"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        let left = try frameDirectoryNames(atPath: full.path)
        #expect(left.isEmpty, "left behind: \(left)")

        let resumed = try Segue.run(args + ["--out", full.path, "--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try files(full) == files(clean))

        // One stream file: no partial file under its name, no temporary beside it.
        let stream = dir.appendingPathComponent("story.rgba")
        let s = try runLimited(64, args + ["--format", "rgba", "--out", stream.path])
        #expect(s.status == 1, "\(s.stderr)")
        #expect(s.stderr.hasPrefix("segue: error: ") && s.stderr.contains("story.rgba"), "\(s.stderr)")
        #expect(s.stderr.split(separator: "\n").count == 1, "\(s.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(names == ["clean", "full", "story.json"], "\(names)")
    }

    /// The output directory removed while frames are written: one clear line, exit 1; `--resume` recreates it
    /// and finishes.
    @Test func outputDirectoryRemovedMidJob() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let story = try write(BatchTests.storyboard(fps: 240, hold: 4).replacingOccurrences(of: "[48, 80]", with: "[120, 200]"),
                              "story.json", in: dir)
        let out = dir.appendingPathComponent("frames")
        let args = ["batch", story, "--backend", "cpu", "--quiet", "--png-level", "9", "--threads", "1", "--out", out.path]
        let process = Process()
        process.executableURL = try Segue.executable
        process.arguments = args
        let err = Pipe()
        process.standardError = err
        try process.run()
        while ((try? frameDirectoryNames(atPath: out.path).count) ?? 0) < 5 && process.isRunning { usleep(1000) }
        // Moved away in one step (deleting it in place races the job's next file: ENOTEMPTY), deleted once the
        // job has stopped.
        let gone = dir.appendingPathComponent("gone")
        #expect(rename(out.path, gone.path) == 0)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try FileManager.default.removeItem(at: gone)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 1, "\(stderr)")
        #expect(stderr.hasPrefix("segue: error: ") && stderr.contains("frames/frame_") && stderr.contains("no such directory"),
                "\(stderr)")
        #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))

        let r = try Segue.run(args + ["--resume"])
        #expect(r.status == 0, "\(r.stderr)")
        let names = try frameDirectoryNames(atPath: out.path)
        #expect(names.count == 1201 && !names.contains { $0.hasPrefix(".") })
    }

    /// segue with `arguments`, not yet run; with `hangupAtDefault`, through perl resetting SIGHUP to its default
    /// action first (the test runner may hand it down ignored, as `nohup` does, and segue leaves it so).
    static func segue(_ arguments: [String], hangupAtDefault: Bool = false) throws -> Process {
        let process = Process()
        if hangupAtDefault {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/perl")
            process.arguments = ["-e", "$SIG{HUP} = 'DEFAULT'; exec @ARGV or die", try Segue.executable.path] + arguments
        } else {
            process.executableURL = try Segue.executable
            process.arguments = arguments
        }
        return process
    }

    /// SIGTERM and SIGHUP (a closed terminal) like SIGINT: frames in flight finish, exit 130, no temporary file;
    /// `--resume` completes the job byte-identical to a clean run. A stream file being written is removed, not
    /// left partial.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func signalMidJobThenResume(_ signal: Int32) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let story = try write(BatchTests.storyboard(fps: 240, hold: 2).replacingOccurrences(of: "[48, 80]", with: "[96, 160]"),
                              "story.json", in: dir)
        let clean = dir.appendingPathComponent("clean"), out = dir.appendingPathComponent("frames")
        let args = ["batch", story, "--backend", "cpu", "--quiet", "--png-level", "9", "--threads", "1"]
        #expect(try Segue.run(args + ["--out", clean.path]).status == 0)

        let process = try Self.segue(args + ["--out", out.path], hangupAtDefault: signal == SIGHUP)
        process.standardError = FileHandle.nullDevice
        try process.run()
        while ((try? frameDirectoryNames(atPath: out.path).count) ?? 0) < 10 && process.isRunning { usleep(1000) }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        let names = try frameDirectoryNames(atPath: out.path)
        #expect(!names.contains { $0.hasPrefix(".") })
        #expect(names.count < 721, "the job finished before the signal")

        let r = try Segue.run(args + ["--out", out.path, "--resume"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try files(out) == files(clean))

        let stream = dir.appendingPathComponent("story.y4m")
        let s = try Self.segue(args + ["--format", "y4m", "--out", stream.path], hangupAtDefault: signal == SIGHUP)
        s.standardError = FileHandle.nullDevice
        try s.run()
        func temporaries() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasPrefix(".story.y4m.tmp-") }
        }
        // The signal as soon as the temporary file exists, while the job may still be starting its threads: it
        // must be caught there too (it once killed the process and left the temporary file behind).
        while temporaries().isEmpty && s.isRunning { usleep(100) }
        kill(s.processIdentifier, signal)
        s.waitUntilExit()
        if s.terminationStatus == 130 {
            #expect(temporaries().isEmpty)
            #expect(!FileManager.default.fileExists(atPath: stream.path))
        } else {
            #expect(s.terminationStatus == 0)  // finished before the signal arrived
        }
    }

    /// Under `nohup` (SIGHUP ignored at exec) a hangup does not end the job: it finishes, every frame written.
    @Test func aHangupUnderNohupIsIgnored() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let story = try write(BatchTests.storyboard(fps: 240, hold: 1).replacingOccurrences(of: "[48, 80]", with: "[96, 160]"),
                              "story.json", in: dir)
        let out = dir.appendingPathComponent("frames")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nohup")
        process.arguments = [try Segue.executable.path, "batch", story, "--backend", "cpu", "--quiet", "--png-level", "9",
                             "--threads", "1", "--out", out.path]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        while ((try? frameDirectoryNames(atPath: out.path).count) ?? 0) < 5 && process.isRunning { usleep(1000) }
        kill(process.processIdentifier, SIGHUP)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let names = try frameDirectoryNames(atPath: out.path)
        #expect(names.count == 481 && !names.contains { $0.hasPrefix(".") }, "\(names.count)")
    }

    /// EGL context creation failing (SEGUE_EGL_FAIL=1) for a batch: a clear error with --backend gles, the
    /// CPU with one note under auto.
    @Test func eglFailureInABatch() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let story = try write(Self.story, "story.json", in: dir)
        let forced = try Segue.run(["batch", story, "--backend", "gles", "--quiet", "--out", "a"], in: dir,
                                   environment: ["SEGUE_EGL_FAIL": "1"])
        #expect(forced.status == 1)
        #expect(forced.stderr.hasPrefix("segue: error: the GLES backend is unavailable"), "\(forced.stderr)")
        #expect(forced.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("a").path))
        let auto = try Segue.run(["batch", story, "--quiet", "--out", "b"], in: dir, environment: ["SEGUE_EGL_FAIL": "1"])
        #expect(auto.status == 0, "\(auto.stderr)")
        #expect(auto.stderr.contains("using the CPU compositor"), "\(auto.stderr)")
        #expect(try frameDirectoryNames(atPath: dir.appendingPathComponent("b").path).count == 40)
    }
}
