import Foundation
import SegueCore
import SegueImageIO
import SegueTestSupport
import Testing

/// `segue batch` and interactive `segue render --track`, run as a user runs them.
@Suite struct BatchTests {
    /// The issue's example on the built-in screens at 48x80 pixels: 1.3 s at 30 fps, frames 0 ... 39.
    static func storyboard(fps: Double = 30, hold: Double = 0.3, output: String = "") -> String {
        """
        {"fps": \(fps), "scale": 2, "size": [48, 80], "screens": {"home": "sample:home", "detail": "sample:detail"},
         "timeline": [{"hold": "home", "duration": 0.5},
                      {"transition": "circle-spread", "from": "home", "to": "detail", "duration": 0.5,
                       "curve": "ease-in-out", "direction": "forward", "options": {"center": [10, 15]}},
                      {"hold": "detail", "duration": \(hold)}]\(output)}
        """
    }

    static let hasFFmpeg = FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")

    @Test func rendersEveryFrameOfTheTimeline() throws {
        let dir = try temporaryDirectory()
        let story = try write(Self.storyboard(output: #", "output": {"frames": "frames/"}"#), "story.json", in: dir)
        let r = try Segue.run(["batch", story, "--backend", "cpu", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let names = try frameDirectoryNames(atPath: dir.appendingPathComponent("frames").path).sorted()
        #expect(names == (0...39).map { String(format: "frame_%05d.png", $0) })
        // Holds show their screen; the transition ends on `to`.
        let frames = dir.appendingPathComponent("frames")
        let first = try ImageDecoder.decode(contentsOf: frames.appendingPathComponent("frame_00000.png").path)
        let hold = try ImageDecoder.decode(contentsOf: frames.appendingPathComponent("frame_00014.png").path)
        let end = try ImageDecoder.decode(contentsOf: frames.appendingPathComponent("frame_00039.png").path)
        #expect(first.width == 48 && first.height == 80)
        #expect(first == hold)
        #expect(first != end)
        // Same inputs, same backend: byte-identical frames.
        let again = dir.appendingPathComponent("again")
        let r2 = try Segue.run(["batch", story, "--backend", "cpu", "--quiet", "--out", again.path])
        #expect(r2.status == 0, "\(r2.stderr)")
        #expect(try files(frames) == files(again))
    }

    /// A `"shader:NAME"` step plays a custom transition (issue 6) inside the timeline: it starts exactly on
    /// `from` and ends exactly on `to`, both directions; its params are checked like `--param`.
    @Test func customShaderStepsPlayInTheTimeline() throws {
        let dir = try temporaryDirectory()
        func story(_ direction: String, _ params: String) -> String {
            """
            {"fps": 8, "size": [48, 80], "screens": {"home": "sample:home", "detail": "sample:detail"},
             "timeline": [{"hold": "home", "duration": 0.25},
                          {"transition": "shader:pixelate", "from": "home", "to": "detail", "duration": 0.5,
                           "direction": "\(direction)", "options": {"params": \(params)}},
                          {"hold": "detail", "duration": 0.25}]}
            """
        }
        for direction in ["forward", "back"] {
            let out = dir.appendingPathComponent(direction)
            let path = try write(story(direction, #"{"cells": [4, 3]}"#), "\(direction).json", in: dir)
            let r = try Segue.run(["batch", path, "--backend", "gles", "--quiet", "--out", out.path])
            #expect(r.status == 0, "\(r.stderr)")
            // 1 s at 8 fps: frames 0 ... 8; the shader runs over frames 2 ... 5 (t = 0, 0.25, 0.5, 0.75).
            func frame(_ k: Int) throws -> Pixmap {
                try ImageDecoder.decode(contentsOf: out.appendingPathComponent(String(format: "frame_%05d.png", k)).path)
            }
            let home = try frame(0), detail = try frame(8)
            #expect(try frame(2) == home, "\(direction): the shader step starts on from")
            #expect(try frame(6) == detail, "\(direction): the hold after it shows to")
            let middle = try frame(4)
            #expect(middle != home && middle != detail)
        }
        // A parameter of the wrong type is reported at its path, before anything renders.
        let bad = try write(story("forward", #"{"cells": "many"}"#), "bad.json", in: dir)
        let r = try Segue.run(["batch", bad, "--backend", "gles", "--quiet", "--out", dir.appendingPathComponent("bad").path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("$.timeline[1].options.params"), "\(r.stderr)")
        #expect(r.stderr.contains("cells is declared ivec2"), "\(r.stderr)")
        // --backend cpu cannot draw it.
        let good = try write(story("forward", "{}"), "good.json", in: dir)
        let cpu = try Segue.run(["batch", good, "--backend", "cpu", "--quiet", "--out", dir.appendingPathComponent("cpu").path])
        #expect(cpu.status == 2)
        #expect(cpu.stderr.contains("needs the GLES backend"), "\(cpu.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("bad").path))
    }

    /// A sampler2D parameter takes an image: `--param map=FILE.png`, or in a storyboard `"params": {"map":
    /// "FILE.png"}` relative to the storyboard; the image shows in the frame; without one, or with one that
    /// cannot be read, the error names the parameter and nothing renders.
    @Test func samplerParametersTakeImageFiles() throws {
        let dir = try temporaryDirectory()
        let shader = try write("""
            uniform sampler2D map;
            vec4 transition(vec2 uv) { return mix(texture2D(map, uv), getToColor(uv), progress); }
            """, "map.glsl", in: dir)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("maps"), withIntermediateDirectories: true)
        let image = Pixmap(width: 4, height: 4, fill: 0xFF33_2211)
        try Data(PNGEncoder.encode(image)).write(to: dir.appendingPathComponent("maps/a.png"))
        let args = ["render", "--shader", shader, "--from", "sample:home", "--to", "sample:detail", "--size", "16x24",
                    "--progress", "0", "--backend", "gles"]
        let out = dir.appendingPathComponent("a.png").path
        let r = try Segue.run(args + ["--param", "map=\(dir.path)/maps/a.png", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Set(try ImageDecoder.decode(contentsOf: out).pixels) == [0xFF33_2211])
        let missing = try Segue.run(args + ["--out", dir.appendingPathComponent("b.png").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("map is a sampler2D: give an image with --param map=FILE.png"), "\(missing.stderr)")
        let unreadable = try Segue.run(args + ["--param", "map=nowhere.png", "--out", dir.appendingPathComponent("c.png").path])
        #expect(unreadable.status == 1)
        #expect(unreadable.stderr.contains("--param 'map=nowhere.png': cannot read the image of sampler2D map"), "\(unreadable.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("b.png").path))
        // A storyboard names the image relative to itself.
        func story(_ params: String) -> String {
            """
            {"fps": 4, "size": [16, 24], "screens": {"home": "sample:home", "detail": "sample:detail"},
             "timeline": [{"transition": "shader:map.glsl", "from": "home", "to": "detail", "duration": 1,
                           "options": {"params": \(params)}}]}
            """
        }
        let good = try write(story(#"{"map": "maps/a.png"}"#), "good.json", in: dir)
        let frames = dir.appendingPathComponent("frames")
        let batch = try Segue.run(["batch", good, "--backend", "gles", "--quiet", "--out", frames.path], in: dir.appendingPathComponent("maps"))
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(Set(try ImageDecoder.decode(contentsOf: frames.appendingPathComponent("frame_00000.png").path).pixels) == [0xFF33_2211])
        let none = try write(story("{}"), "none.json", in: dir)
        let bad = try Segue.run(["batch", none, "--backend", "gles", "--quiet", "--out", dir.appendingPathComponent("none").path])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains(#"$.timeline[0].options.params: map is a sampler2D: give an image with params {"map": "FILE.png"}"#),
                "\(bad.stderr)")
    }

    @Test func reportsEveryProblemWithItsPathBeforeRendering() throws {
        let dir = try temporaryDirectory()
        let story = try write("""
            {"fps": 0, "screens": {"home": "sample:home", "detail": "missing.png"},
             "timeline": [{"hold": "home"},
                          {"transition": "circle-spread", "from": "home", "to": "detail", "options": {"center": [110]}},
                          {"transition": "fade", "from": "home", "to": "elsewhere", "curve": "wiggle"}]}
            """, "story.json", in: dir)
        let r = try Segue.run(["batch", story, "--out", dir.appendingPathComponent("frames").path])
        #expect(r.status == 2, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        for expected in ["$.fps: expected a number of frames per second", "$.timeline[0]: missing \"duration\"",
                         "$.timeline[1].options.center: expected [x, y]", "$.timeline[2].to: unknown screen 'elsewhere'",
                         "$.timeline[2].curve: unknown curve 'wiggle'", "$.screens.detail: cannot read"] {
            #expect(lines.contains { $0.hasPrefix("segue: error: \(story): \(expected)") }, "\(expected) not in \(r.stderr)")
        }
        #expect(lines.allSatisfy { $0.hasPrefix("segue: error: ") })
        #expect(lines.count == 6, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["story.json"])
    }

    /// A finished drag ends on `to`, a cancelled one on `from`, exactly (fade and door show only one screen at
    /// the ends; page-flip's finish too), with the ease-in-out completion named.
    @Test(arguments: [("fade", true), ("fade", false), ("door", true), ("door", false), ("page-flip", true)])
    func interactiveFinishesOrCancels(_ effect: String, _ finishes: Bool) throws {
        let dir = try temporaryDirectory()
        let track = try write("time,progress\n0,0\n0.1,0.2\n0.3,\(finishes ? 0.8 : 0.4)\n", "drag.csv", in: dir)
        let common = ["--from", "sample:home", "--to", "sample:detail", "--size", "48x80", "--backend", "cpu", "--quiet"]
        let out = dir.appendingPathComponent("frames")
        let r = try Segue.run(["render", effect, "--track", track, "--completion", "ease-in-out", "--fps", "30", "--out", out.path] + common)
        #expect(r.status == 0, "\(r.stderr)")
        let names = try frameDirectoryNames(atPath: out.path).sorted()
        let last = try ImageDecoder.decode(contentsOf: out.appendingPathComponent(names.last!).path)
        let reference = dir.appendingPathComponent("end.png").path
        let ref = try Segue.run(["render", "fade", "--progress", finishes ? "1" : "0", "--out", reference] + common)
        #expect(ref.status == 0, "\(ref.stderr)")
        #expect(last == (try ImageDecoder.decode(contentsOf: reference)))
        // The drag is 0.3 s; the completion (1 - p) or p of the duration, eased.
        let duration = ["fade": 0.25, "door": 0.5, "page-flip": 1.0][effect]!
        let p = finishes ? 0.8 : 0.4
        let total = 0.3 + (finishes ? 1 - p : p) * duration
        #expect(names.count == Int((total * 30).rounded()) + 1)

        // The same as a storyboard step.
        let story = try write("""
            {"fps": 30, "size": [48, 80], "screens": {"a": "sample:home", "b": "sample:detail"},
             "timeline": [{"interactive": "\(effect)", "from": "a", "to": "b", "track": "drag.csv", "threshold": 0.5,
                           "completion": "ease-in-out"}]}
            """, "story.json", in: dir)
        let batch = dir.appendingPathComponent("batch")
        let b = try Segue.run(["batch", story, "--out", batch.path, "--backend", "cpu", "--quiet"])
        #expect(b.status == 0, "\(b.stderr)")
        #expect(try files(batch) == files(out))
    }

    /// The default spring: the last frame is the end exactly, the frame count is the drag and the spring's settle
    /// time, and `--damping`/`--response` are a storyboard's `damping`/`response`.
    @Test func interactiveSpringEndsExactlyAndMatchesTheStoryboard() throws {
        let dir = try temporaryDirectory()
        let csv = "time,progress\n0,0\n0.1,0.2\n0.3,0.7\n"
        let track = try write(csv, "drag.csv", in: dir)
        let common = ["--from", "sample:home", "--to", "sample:detail", "--size", "48x80", "--backend", "cpu", "--quiet"]
        let out = dir.appendingPathComponent("frames")
        let r = try Segue.run(["render", "fade", "--track", track, "--damping", "0.8", "--response", "0.3", "--fps", "30",
                               "--out", out.path] + common)
        #expect(r.status == 0, "\(r.stderr)")
        let names = try frameDirectoryNames(atPath: out.path).sorted()
        let expected = try InteractiveTrack(samples: InteractiveTrack.parseCSV(csv), duration: 0.25,
                                            completion: .spring(damping: 0.8, response: 0.3))
        #expect(names.count == Int((expected.totalDuration * 30).rounded()) + 1)
        let last = try ImageDecoder.decode(contentsOf: out.appendingPathComponent(names.last!).path)
        let reference = dir.appendingPathComponent("end.png").path
        #expect(try Segue.run(["render", "fade", "--progress", "1", "--out", reference] + common).status == 0)
        #expect(last == (try ImageDecoder.decode(contentsOf: reference)))

        let story = try write("""
            {"fps": 30, "size": [48, 80], "screens": {"a": "sample:home", "b": "sample:detail"},
             "timeline": [{"interactive": "fade", "from": "a", "to": "b", "track": "drag.csv", "damping": 0.8, "response": 0.3}]}
            """, "story.json", in: dir)
        let batch = dir.appendingPathComponent("batch")
        let b = try Segue.run(["batch", story, "--out", batch.path, "--backend", "cpu", "--quiet"])
        #expect(b.status == 0, "\(b.stderr)")
        #expect(try files(batch) == files(out))

        // Bad values are usage errors in the flags' words; the spring's flags need --track.
        for (arguments, message) in [(["--track", track, "--damping", "0"], "--damping must be in [0.05, 10], not 0"),
                                     (["--track", track, "--completion", "bounce"], "unknown --completion 'bounce'"),
                                     (["--track", track, "--completion", "ease-in-out", "--response", "0.3"],
                                      "--response applies to --completion spring, not ease-in-out"),
                                     (["--response", "0.3"], "--response needs --track")] {
            let bad = try Segue.run(["render", "fade", "--out", dir.appendingPathComponent("bad").path] + arguments + common)
            #expect(bad.status == 2 && bad.stderr.contains(message), "\(arguments): \(bad.stderr)")
        }
    }

    @Test func shardsJoinedEqualOneRun() throws {
        let dir = try temporaryDirectory()
        let story = try write(Self.storyboard(), "story.json", in: dir)
        let whole = dir.appendingPathComponent("whole"), joined = dir.appendingPathComponent("joined")
        #expect(try Segue.run(["batch", story, "--out", whole.path, "--backend", "cpu", "--quiet"]).status == 0)
        let base = ["batch", story, "--out", joined.path, "--backend", "cpu", "--quiet"]
        #expect(try Segue.run(base + ["--shard", "0/4"]).status == 0)
        #expect(try frameDirectoryNames(atPath: joined.path).count == 10)
        // The other shards come from the environment of a Slurm job array and a Kubernetes Indexed Job.
        #expect(try Segue.run(base, environment: ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"]).status == 0)
        #expect(try Segue.run(base, environment: ["JOB_COMPLETION_INDEX": "2", "SEGUE_SHARDS": "4"]).status == 0)
        #expect(try Segue.run(base + ["--shard", "3/4"]).status == 0)
        #expect(try files(joined) == files(whole))
        let bad = try Segue.run(base + ["--shard", "4/4"])
        #expect(bad.status == 2 && bad.stderr.contains("shard index must be in 0...3"), "\(bad.stderr)")
    }

    /// `kill -9` in the middle of a job, then `--resume`: byte-identical to an uninterrupted run, no temporary
    /// files left.
    @Test func resumesAfterKill() throws {
        let dir = try temporaryDirectory()
        let story = try write(Self.storyboard(fps: 240, hold: 2).replacingOccurrences(of: "[48, 80]", with: "[240, 400]"),
                              "story.json", in: dir)
        let whole = dir.appendingPathComponent("whole"), resumed = dir.appendingPathComponent("resumed")
        let args = ["batch", story, "--backend", "cpu", "--quiet", "--png-level", "9"]
        #expect(try Segue.run(args + ["--out", whole.path]).status == 0)
        let total = try frameDirectoryNames(atPath: whole.path).count
        #expect(total == 721)

        let process = Process()
        process.executableURL = try Segue.executable
        process.arguments = args + ["--out", resumed.path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let n = (try? frameDirectoryNames(atPath: resumed.path).count) ?? 0
            if n >= 40 { break }
            usleep(2000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        var names = try frameDirectoryNames(atPath: resumed.path)
        #expect(names.filter { $0.hasSuffix(".png") && !$0.hasPrefix(".") }.count < total, "the job finished before the kill")
        // A temporary file such as a killed run leaves (whatever its pid).
        try Data("partial".utf8).write(to: resumed.appendingPathComponent(".frame_00700.png.tmp-99999"))

        let r = try Segue.run(args + ["--out", resumed.path, "--resume"])
        #expect(r.status == 0, "\(r.stderr)")
        names = try frameDirectoryNames(atPath: resumed.path)
        #expect(!names.contains { $0.hasPrefix(".") }, "\(names.filter { $0.hasPrefix(".") })")
        #expect(try files(resumed) == files(whole))
    }

    @Test func ctrlCFinishesFramesInFlightAndExits130() throws {
        let dir = try temporaryDirectory()
        let story = try write(Self.storyboard(fps: 240, hold: 4).replacingOccurrences(of: "[48, 80]", with: "[240, 400]"),
                              "story.json", in: dir)
        let out = dir.appendingPathComponent("frames")
        let process = Process()
        process.executableURL = try Segue.executable
        process.arguments = ["batch", story, "--backend", "cpu", "--quiet", "--png-level", "9", "--out", out.path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        while ((try? frameDirectoryNames(atPath: out.path).count) ?? 0) < 10 && process.isRunning { usleep(2000) }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let names = try frameDirectoryNames(atPath: out.path)
        #expect(!names.contains { $0.hasPrefix(".") })
        #expect(names.count < 1201)
        for name in names { _ = try ImageDecoder.decode(contentsOf: out.appendingPathComponent(name).path) }
    }

    @Test(.enabled(if: hasFFmpeg)) func y4mStreamDecodesToEveryFrame() throws {
        let dir = try temporaryDirectory()
        let story = try write(Self.storyboard(), "story.json", in: dir)
        let stream = dir.appendingPathComponent("story.y4m").path
        let r = try Segue.run(["batch", story, "--out", stream, "--format", "y4m", "--backend", "cpu", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try countFrames(stream) == 40)
        let raw = try Segue.run(["batch", story, "--out", "-", "--format", "rgba", "--backend", "cpu", "--quiet"])
        #expect(raw.stdout.count == 40 * 48 * 80 * 4)
    }

    @Test(.enabled(if: hasFFmpeg), arguments: ["mp4", "gif", "webm", "mov"])
    func videoHasEveryFrame(_ container: String) throws {
        let dir = try temporaryDirectory()
        // An odd size: 4:2:0 video needs it padded to even.
        let story = try write(Self.storyboard(output: #", "output": {"video": "story.\#(container)"}"#)
            .replacingOccurrences(of: "[48, 80]", with: "[47, 81]"), "story.json", in: dir)
        // What a killed run leaves behind (pid 999999 is not running) is removed.
        try Data("partial".utf8).write(to: dir.appendingPathComponent(".story.\(container).tmp-999999"))
        let r = try Segue.run(["batch", story, "--backend", "cpu", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let listing = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(listing == ["story.\(container)", "story.json"].sorted(), "\(listing)")
        // 1.3 s at 30 frames/s is 40 frames; a GIF runs at 25 (whole hundredths of a second a frame): 34.
        #expect(try countFrames(dir.appendingPathComponent("story.\(container)").path) == (container == "gif" ? 34 : 40))
    }

    /// `segue render --out x.mp4` (and `--shader`, and `batch --out x.webm`) writes a video, not a directory.
    @Test(.enabled(if: hasFFmpeg)) func renderOutVideoByExtension() throws {
        let dir = try temporaryDirectory()
        let mp4 = dir.appendingPathComponent("x.mp4").path
        // circle-spread at 30 fps for 0.5 s: frames 0 ... 15.
        let r = try Segue.run(["render", "circle-spread", "--from", "sample:home", "--to", "sample:detail", "--size", "48x80",
                               "--fps", "30", "--duration", "0.5", "--backend", "cpu", "--quiet", "--out", mp4])
        #expect(r.status == 0, "\(r.stderr)")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: mp4, isDirectory: &isDirectory) && !isDirectory.boolValue)
        #expect(try probe(mp4, "codec_name") == "h264")
        #expect(try countFrames(mp4) == 16)
        // --ffmpeg-args replaces the codec's arguments.
        let x = dir.appendingPathComponent("args.mp4").path
        let a = try Segue.run(["render", "fade", "--from", "sample:home", "--to", "sample:detail", "--size", "48x80",
                               "--fps", "10", "--duration", "0.5", "--backend", "cpu", "--quiet", "--out", x,
                               "--ffmpeg-args", "-c:v mpeg4 -q:v 5"])
        #expect(a.status == 0, "\(a.stderr)")
        #expect(try probe(x, "codec_name") == "mpeg4")
        #expect(try countFrames(x) == 6)
        // batch --out FILE.webm is --video FILE.webm.
        let story = try write(Self.storyboard(), "story.json", in: dir)
        let webm = dir.appendingPathComponent("story.webm").path
        let b = try Segue.run(["batch", story, "--backend", "cpu", "--quiet", "--out", webm])
        #expect(b.status == 0, "\(b.stderr)")
        #expect(try probe(webm, "codec_name") == "vp9")
        #expect(try countFrames(webm) == 40)
        // A video and --format do not combine; --ffmpeg-args needs a video.
        let bad = try Segue.run(["render", "fade", "--from", "sample:home", "--to", "sample:detail", "--quiet",
                                 "--out", mp4, "--format", "y4m"])
        #expect(bad.status == 2 && bad.stderr.contains("is a video"), "\(bad.stderr)")
        let stray = try Segue.run(["render", "fade", "--from", "sample:home", "--to", "sample:detail", "--quiet",
                                   "--out", dir.appendingPathComponent("f").path, "--ffmpeg-args", "-c:v mpeg4"])
        #expect(stray.status == 2, "\(stray.stderr)")
    }

    @Test func missingFFmpegIsAClearErrorBeforeRendering() throws {
        let dir = try temporaryDirectory()
        let story = try write(Self.storyboard(), "story.json", in: dir)
        let r = try Segue.run(["batch", story, "--video", dir.appendingPathComponent("story.mp4").path, "--backend", "cpu"],
                              environment: ["PATH": "/nonexistent"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("segue: error: the video '\(dir.appendingPathComponent("story.mp4").path)' needs ffmpeg, which is not on PATH"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["story.json"])
        let resume = try Segue.run(["batch", story, "--out", "-", "--resume"])
        #expect(resume.status == 2 && resume.stderr.contains("--resume"), "\(resume.stderr)")
    }

    /// One entry of the first video stream, as ffprobe says it (`codec_name`, `pix_fmt`, `profile`).
    func probe(_ path: String, _ entry: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=\(entry)",
                             "-of", "default=noprint_wrappers=1:nokey=1", path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Frames ffprobe counts by decoding the file.
    func countFrames(_ path: String) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                             "stream=nb_read_frames", "-of", "default=noprint_wrappers=1:nokey=1", path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}

/// One frame schedule behind every command: `segue render`, a storyboard of that one step and `segue demo`
/// write the same files.
@Suite struct OneScheduleTests {
    @Test func renderAndAStoryboardOfItsOneStepWriteTheSameFiles() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("A"), b = dir.appendingPathComponent("B")
        let r = try Segue.run(["render", "door", "--from", "sample:home", "--to", "sample:detail", "--fps", "30",
                               "--duration", "0.5", "--backend", "cpu", "--quiet", "--out", a.path])
        #expect(r.status == 0, "\(r.stderr)")
        let story = try write("""
            {"fps": 30, "screens": {"from": "sample:home", "to": "sample:detail"},
             "timeline": [{"transition": "door", "from": "from", "to": "to", "duration": 0.5}]}
            """, "story.json", in: dir)
        let s = try Segue.run(["batch", story, "--backend", "cpu", "--quiet", "--out", b.path])
        #expect(s.status == 0, "\(s.stderr)")
        let frames = try files(a)
        #expect(frames.count == 16)
        #expect(frames == (try files(b)))
    }

    @Test func demoFramesAreTheEquivalentRender() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let demo = dir.appendingPathComponent("demo"), render = dir.appendingPathComponent("render")
        let d = try Segue.run(["demo", "--backend", "cpu", "--quiet", "--out", demo.path])
        #expect(d.status == 0, "\(d.stderr)")
        let r = try Segue.run(["render", "door", "--from", "sample:home", "--to", "sample:detail", "--fps", "30",
                               "--backend", "cpu", "--quiet", "--out", render.path])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try files(render)
        #expect(frames.count == 16)
        #expect(frames == (try files(demo.appendingPathComponent("door-forward"))))
    }
}
