import Foundation
import SegueTestSupport
import Testing

/// The limits a job has before it starts, and what ends it when something never returns: endless inputs,
/// huge timelines and tracks, a shader that runs for ever, signals at any moment, memory, closed streams.
/// Each case failed (hung, crashed, or kept going for minutes) before its fix.
@Suite struct LimitTests {
    /// True in a `--sanitize=address` or `--sanitize=thread` build, whose segue binary is instrumented too: its
    /// runtime reserves terabytes of shadow address space (no `ulimit -v` leaves room) and starts up slowly
    /// before any handler of ours is installed.
    static let underSanitizer = ["__asan_init", "__tsan_init"].contains { (name: String) in
        dlsym(dlopen(nil, RTLD_NOW), name) != nil
    }

    /// Runs `script` in `/bin/sh` in `dir` with `$SEGUE` set; returns the exit status, standard error and seconds.
    static func shell(_ script: String, in dir: URL) throws -> (status: Int32, stderr: String, seconds: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = dir
        process.environment = ProcessInfo.processInfo.environment.merging(["SEGUE": try Segue.executable.path]) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        let start = Date()
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), Date().timeIntervalSince(start))
    }

    /// A loop llvmpipe cuts at 65,535 iterations a pixel: about a minute a frame at 375x667 on two cores.
    static let heavyShader = """
        uniform float loops; // = 100000000.0
        vec4 transition(vec2 uv) {
          float acc = 0.0;
          for (float i = 0.0; i < loops; i += 1.0) { acc += sin(i * uv.x); }
          return mix(getFromColor(uv), getToColor(uv), progress) + vec4(acc * 1e-30);
        }
        """

    /// Devices are refused before they are opened, and a FIFO (with no writer, which would wait for one, or fed
    /// for ever) at once: only a regular file is read.
    @Test func endlessInputsAreRefusedOrInterruptible() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for device in ["/dev/zero", "/dev/urandom"] {
            let r = try Self.shell("\"$SEGUE\" render fade --from \(device) --to sample:detail --out f --backend cpu", in: dir)
            #expect(r.status == 1 && r.stderr == "segue: error: cannot read '\(device)': is a device, not a file\n", "\(r)")
            #expect(r.seconds < 10)
        }
        let story = try write(#"{"screens": {"a": "/dev/zero"}, "timeline": [{"hold": "a", "duration": 1}]}"#, "s.json", in: dir)
        let s = try Self.shell("\"$SEGUE\" batch \(story) --out f --backend cpu", in: dir)
        #expect(s.status == 1 && s.stderr.contains("$.screens.a") && s.stderr.contains("is a device"), "\(s)")
        let fifo = try Self.shell("""
            mkfifo pipe; timeout 20 "$SEGUE" render fade --from pipe --to sample:detail --out f --backend cpu
            """, in: dir)
        #expect(fifo.status == 1 && fifo.stderr == "segue: error: cannot read 'pipe': is a FIFO (a named pipe), not a regular file\n", "\(fifo)")
        #expect(fifo.seconds < 10)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["pipe", "s.json"])
    }

    /// A shader that never finishes its frame ends at --frame-timeout (exit 1, naming the frame and the shader),
    /// and a signal ends it within about a second (130); neither leaves a temporary file.
    @Test func aShaderThatNeverReturnsIsStopped() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try write(Self.heavyShader, "heavy.glsl", in: dir)
        let timeout = try Self.shell("""
            "$SEGUE" render --shader heavy.glsl --from sample:home --to sample:detail --out f --quiet \
              --frame-timeout 2
            """, in: dir)
        #expect(timeout.status == 1, "\(timeout)")
        #expect(timeout.stderr == "segue: error: drawing frame 0 (shader:heavy.glsl) took longer than 2 s (--frame-timeout): stopped\n")
        #expect(timeout.seconds < 15)
        let signal = try Self.shell("""
            "$SEGUE" render --shader heavy.glsl --from sample:home --to sample:detail --out s.y4m \
              --format y4m --quiet & p=$!
            sleep 3; kill -TERM $p; wait $p
            """, in: dir)
        #expect(signal.status == 130, "\(signal)")
        #expect(signal.seconds < 3 + 4)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") || $0 == "s.y4m" }
        #expect(left.isEmpty, "\(left)")
    }

    /// A shader file past 256 KiB is refused before the driver sees it; a signal in a job's first moments,
    /// before any output exists, ends it with 130 at once (it was 143 in the first 0.2 s).
    @Test func hugeShadersAndEarlySignals() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let functions = (0..<6000).map { "float f\($0)(float x) { return x * \($0).0 + sin(x); }" }.joined(separator: "\n")
        _ = try write(functions + "\nvec4 transition(vec2 uv) { return getToColor(uv); }\n", "huge.glsl", in: dir)
        let huge = try Self.shell("\"$SEGUE\" render --shader huge.glsl --from sample:home --to sample:detail --out f", in: dir)
        #expect(huge.status == 1 && huge.stderr.contains("huge.glsl") && huge.stderr.contains("larger than 262144 bytes"), "\(huge)")
        #expect(huge.seconds < 10)
        // (A signal sent before the shell has even started segue kills the shell's child with 143: not tested.)
        for delay in Self.underSanitizer ? [] : ["0.02", "0.05", "0.2"] {
            let early = try Self.shell("""
                "$SEGUE" render fade --from sample:home --to sample:detail --out - --format y4m > out.y4m & p=$!
                sleep \(delay); kill -TERM $p; wait $p
                """, in: dir)
            // A job that already finished exits 0; one that was still running ends with 130, never 143.
            #expect(early.status == 130 || early.status == 0, "after \(delay) s: \(early)")
        }
    }

    /// Timelines and tracks are bounded before anything is planned or read.
    @Test(arguments: [
        (#"{"fps": 1000, "screens": {"a": "sample:home"}, "timeline": [HOLDS]}"#, "more than the limit of 1000000"),
        (#"{"screens": {"a": "sample:home"}, "timeline": [STEPS]}"#, "$.timeline: 10001 steps, more than the limit of 10000"),
        (#"{"screens": {"a": "sample:home", "b": "sample:detail"}, "timeline": [{"interactive": "fade", "from": "a", "to": "b", "track": "t.csv"}]}"#,
         "past 3600 s"),
    ] as [(String, String)])
    func hugeTimelinesAreRefusedAtOnce(_ template: String, _ message: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let holds = Array(repeating: #"{"hold": "a", "duration": 3600}"#, count: 100).joined(separator: ",")
        let steps = Array(repeating: #"{"hold": "a", "duration": 0.1}"#, count: 10_001).joined(separator: ",")
        let json = template.replacingOccurrences(of: "HOLDS", with: holds).replacingOccurrences(of: "STEPS", with: steps)
        _ = try write(json, "s.json", in: dir)
        _ = try write("time,progress\n0,0\n1e300,1\n", "t.csv", in: dir)
        let r = try Self.shell("\"$SEGUE\" batch s.json --out f --backend cpu", in: dir)
        #expect(r.status == 2 && r.stderr.contains(message) && r.seconds < 20, "\(r.status) \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("f").path))
        let track = try Self.shell("\"$SEGUE\" render fade --from sample:home --to sample:detail --track t.csv --out f", in: dir)
        #expect(track.status == 2 && track.stderr.contains("past 3600 s"), "\(track)")
    }

    /// Losing standard error never loses output; a closed standard output ends a stream with its own status.
    @Test func closedStreamsLoseNoFrames() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let job = "\"$SEGUE\" render fade --from sample:home --to sample:detail --size 40x72 --backend cpu"
        for (i, redirect) in ["2>&-", "2>/dev/full", "2>&1 | head -c 1"].enumerated() {
            let r = try Self.shell("\(job) --out f\(i) \(redirect)", in: dir)
            #expect(r.status == 0, "\(redirect): \(r)")
            let frames = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("f\(i)").path)
            #expect(frames.filter { $0.hasPrefix("frame_") }.count == 16, "\(redirect)")
        }
        // The reader takes 100 bytes and closes the pipe: segue stops there, with status 3 and one line.
        let reader = try Self.shell("{ \(job) --quiet --out - --format rgba; echo $? > status; } | head -c 100 > /dev/null; exit $(cat status)", in: dir)
        #expect(reader.status == 3, "\(reader)")
        #expect(reader.stderr.hasPrefix("segue: error: the reader of standard output closed it after ")
                 && reader.stderr.hasSuffix(" whole frames; stopped\n"), "\(reader.stderr)")
        let full = try Self.shell("\(job) --out /dev/full --format rgba", in: dir)
        #expect(full.status == 1 && full.stderr.contains("'/dev/full'") && full.stderr.contains("no space left on device"), "\(full)")
    }

    /// A job whose frames cannot fit in memory is refused before it writes, saying what it needs.
    @Test(.enabled(if: !underSanitizer, "a sanitizer's shadow memory cannot fit under ulimit -v"))
    func aJobThatCannotFitIsRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Self.shell("""
            ulimit -v 3000000; "$SEGUE" render fade --from sample:home --to sample:detail --size 16384x16384 \
              --progress 0.5 --out big.png --backend cpu
            """, in: dir)
        #expect(r.status == 1 && r.stderr.contains("needs about") && r.stderr.contains("available"), "\(r)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    /// A job sized by its first screen, a 12000x12000 PNG, under `ulimit -v 800000`: refused in one line before
    /// the screens it cannot hold are made. It ended in a failed allocation (status 134) when `sample:detail`
    /// was drawn at that size before the job's budget was checked.
    @Test(.enabled(if: !underSanitizer, "a sanitizer's shadow memory cannot fit under ulimit -v"))
    func screensThatCannotFitAreRefusedBeforeTheyAreMade() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(flatPalettePNG(width: 12_000, height: 12_000)).write(to: dir.appendingPathComponent("big.png"))
        for to in ["sample:detail", "big.png"] {
            let r = try Self.shell("""
                ulimit -v 800000; "$SEGUE" render fade --from big.png --to \(to) --progress 0.5 --out out.png --backend cpu
                """, in: dir)
            #expect(r.status == 1 && r.stderr.hasPrefix("segue: error: ") && r.stderr.contains("needs about")
                    && r.stderr.filter { $0 == "\n" }.count == 1, "\(to): \(r)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.png").path))
        }
    }

    /// Messages: a name's control characters escaped, a 400-digit value cut, a value starting with '-' taken,
    /// a 249-byte file name written.
    @Test func messagesArePrintableAndValuesAreTaken() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let control = try Segue.run(["render", "fade", "--from", "bad\u{1B}[31mname.png", "--to", "sample:detail", "--out", "f"], in: dir)
        #expect(control.stderr == "segue: error: cannot read 'bad\\x1B[31mname.png': no such file\n", "\(control.stderr)")
        let digits = String(repeating: "9", count: 400)
        let long = try Segue.run(["render", "fade", "--from", "sample:home", "--to", "sample:detail", "--out", "f", "--png-level", digits], in: dir)
        #expect(long.status == 2 && long.stderr.contains("9999999999999999...(400 digits)") && long.stderr.count < 200, "\(long.stderr)")
        let story = try write(#"{"screens": {"a": "sample:home"}, "timeline": [{"hold": "a", "duration": 0.1}]}"#, "s.json", in: dir)
        let shard = try Segue.run(["batch", story, "--shard", "-1/2", "--out", "f"], in: dir)
        #expect(shard.status == 2 && shard.stderr.contains("shard index"), "\(shard.stderr)")
        let args = try Segue.run(["batch", story, "--video", "v.gif", "--ffmpeg-args", "-f gif", "--backend", "cpu", "--quiet"], in: dir)
        #expect(!args.stderr.contains("Missing value"), "\(args.stderr)")
        let name = String(repeating: "n", count: 245) + ".png"
        let r = try Segue.run(["render", "fade", "--from", "sample:home", "--to", "sample:detail", "--progress", "0.5",
                               "--backend", "cpu", "--out", name], in: dir)
        #expect(r.status == 0 && FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path), "\(r.stderr)")
    }
}
