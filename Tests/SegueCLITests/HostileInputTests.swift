import Foundation
import SegueCore
import SegueImageIO
import SegueTestSupport
import Testing

/// Bad inputs of every kind through the real binary: each gets one clear line naming the file or option, the
/// documented exit status (1 failure, 2 usage), no crash, no hang and no output file. The number of bad inputs
/// tried is printed (README, Reliability).
@Suite struct HostileInputTests {
    /// How long any one bad input may take (a debug build; the real cost is milliseconds).
    static let timeLimit: TimeInterval = 20

    /// Runs segue in `dir` and checks what every failure must look like.
    static func expectClearFailure(_ arguments: [String], in dir: URL, status: Int32, naming: String,
                                   before: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let start = Date()
        let r = try Segue.run(arguments, in: dir)
        #expect(Date().timeIntervalSince(start) < timeLimit, "took too long", sourceLocation: sourceLocation)
        #expect(r.status == status, "\(arguments): \(r.stderr)", sourceLocation: sourceLocation)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(arguments): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix("segue: error: "), "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(naming), "expected '\(naming)' in: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == before.sorted(),
                "output left behind", sourceLocation: sourceLocation)
    }

    static let render = ["render", "fade", "--to", "sample:detail", "--size", "40x72", "--backend", "cpu"]

    @Test(arguments: Corpus.badImages)
    func badImage(_ image: Corpus.BadImage) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = image.name + (image.name.hasPrefix("jpeg") ? ".jpg" : ".png")
        if let bytes = image.bytes {
            try Data(bytes).write(to: dir.appendingPathComponent(name))
        } else {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(name), withIntermediateDirectories: false)
        }
        let naming = image.name.hasSuffix("100000x100000")
            ? "'\(name)' is 100000x100000 pixels, over the limit of 268435456 pixels (--max-pixels)" : "'\(name)'"
        for output in [["--progress", "0.5", "--out", "out.png"], ["--fps", "10", "--out", "frames"]] {
            let args = Self.render + ["--from", name] + output
            if image.mayDecode {  // flipped bits the decoder accepts must render normally
                let r = try Segue.run(args, in: dir)
                if r.status == 0 {
                    try FileManager.default.removeItem(at: dir.appendingPathComponent(output[3]))
                    continue
                }
            }
            try Self.expectClearFailure(args, in: dir, status: 1, naming: naming, before: [name])
        }
        HostileCount.add(2)
    }

    /// Names that Foundation's path methods trap on (the first found by FuzzStoryboard as an output's name) and
    /// one-character names (it trapped taking the parent of `b`, a storyboard's): each renders, or fails in one line.
    @Test func namesFoundationTrapsOn() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = ".\u{10FFFF}🇺//\u{10FFFF}"
        let samples = ["render", "fade", "--from", "sample:home", "--to", "sample:detail", "--size", "40x72", "--backend", "cpu"]
        // A file's directory is checked before any frame is drawn (a video's used to fail in ffmpeg, after them).
        let missing = "there is no directory '.\u{10FFFF}🇺'"
        try Self.expectClearFailure(samples + ["--progress", "0.5", "--out", name], in: dir, status: 1,
                                    naming: "cannot write '\(name)': \(missing)", before: [])
        try Self.expectClearFailure(samples + ["--fps", "5", "--out", name + ".mp4"], in: dir, status: 1,
                                    naming: "cannot write '\(name).mp4': \(missing)", before: [])
        try Self.expectClearFailure(Self.render + ["--from", name, "--progress", "0.5", "--out", "x.png"], in: dir,
                                    status: 1, naming: "cannot read '\(name)'", before: [])
        try Data(#"{"screens": {"a": "sample:home", "b": "sample:detail"}, "timeline": [{"transition": "fade", "from": "a", "to": "b", "duration": 0.1}]}"#.utf8)
            .write(to: dir.appendingPathComponent("b"))
        try Self.expectClearFailure(samples + ["--fps", "5", "--out", "b/clip.mp4"], in: dir, status: 1,
                                    naming: "cannot write 'b/clip.mp4': 'b' is not a directory", before: ["b"])
        let r = try Segue.run(["batch", "b", "--backend", "cpu", "--out", "f"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("f/frame_00000.png").path))
        HostileCount.add(5)
    }

    /// The pixel limit is an option: a valid image over it is refused from its header.
    @Test func maxPixelsRefusesAValidImage() throws {
        let dir = try temporaryDirectory()
        try Data(Corpus.png).write(to: dir.appendingPathComponent("a.png"))
        try Self.expectClearFailure(["render", "fade", "--from", "a.png", "--to", "sample:detail", "--backend", "cpu",
                                     "--progress", "0", "--out", "x.png", "--max-pixels", "1000"],
                                    in: dir, status: 1, naming: "'a.png' is 40x72 pixels, over the limit of 1000 pixels",
                                    before: ["a.png"])
        HostileCount.add(1)
    }

    @Test(.enabled(if: geteuid() != 0, "root reads any file whatever its mode"))
    func unreadableImage() throws {
        let dir = try temporaryDirectory()
        let path = dir.appendingPathComponent("secret.png")
        try Data(Corpus.png).write(to: path)
        chmod(path.path, 0)
        try Self.expectClearFailure(Self.render + ["--from", "secret.png", "--progress", "0", "--out", "x.png"],
                                    in: dir, status: 1, naming: "'secret.png'", before: ["secret.png"])
        HostileCount.add(1)
    }

    /// Storyboards with each kind of problem: the problem at its JSON path, status 2 (1 for a screen file that
    /// cannot be read), nothing written.
    @Test(arguments: [
        (#"{"fps": "thirty", "screens": {"a": "sample:home"}, "timeline": [{"hold": "a", "duration": 1}]}"#, Int32(2), "$.fps: expected a number"),
        (#"{"screens": {"a": "sample:home"}, "timeline": [{"hold": "b", "duration": 1}]}"#, 2, "$.timeline[0].hold: unknown screen 'b'"),
        (#"{"screens": {"a": "sample:home", "b": "sample:detail"}, "timeline": [{"transition": "wobble", "from": "a", "to": "b"}]}"#, 2, "unknown effect 'wobble'"),
        (#"{"screens": {"a": "sample:home"}, "timeline": [{"hold": "a", "duration": -1}]}"#, 2, "$.timeline[0].duration: expected seconds in (0, 3600], not -1"),
        (#"{"screens": {"a": "sample:home"}, "timeline": [{"hold": "a", "duration": 1e300}]}"#, 2, "not 1e+300"),
        (#"{"screens": {"a": "sample:home", "b": "sample:detail"}, "timeline": [{"transition": "door", "from": "a", "to": "b", "duration": 1e9}]}"#, 2, "not 1000000000"),
        (#"{"fps": 1e300, "screens": {"a": "sample:home"}, "timeline": [{"hold": "a", "duration": 1}]}"#, 2, "$.fps: expected a number of frames per second in [0.001, 1000], not 1e+300"),
        (#"{"fps": -5, "screens": {"a": "sample:home"}, "timeline": [{"hold": "a", "duration": 1}]}"#, 2, "not -5"),
        (#"{"fps": 0, "screens": {"a": "sample:home"}, "timeline": [{"hold": "a", "duration": 1}]}"#, 2, "$.fps"),
        (#"{"screens": {"a": "sample:home", "b": "sample:detail"}, "timeline": [{"transition": "page-flip", "from": "a", "to": "b", "options": {"perspective": -3}}]}"#, 2, "perspective must be > 0, not -3"),
        (#"{"screens": {"a": "sample:home", "b": "sample:detail"}, "timeline": [{"transition": "hero", "from": "a", "to": "b", "options": {"from-rect": [0, 0, 0, 5], "to-rect": [0, 0, 5, 5]}}]}"#, 2, "has no area"),
        (#"{"screens": {"a": "sample:home", "b": "sample:detail"}, "timeline": [{"transition": "fade", "from": "a", "to": "b", "options": {"zoom": 2}}]}"#, 2, "zoom"),
        (#"{"screens": {"a": "sample:home"}, "timeline": [{"hold": "a", "duration": 1}], "size": [0, 10]}"#, 2, "$.size"),
        (#"{"screens": {"a": "sample:home"}, "timeline": [{"hold": "a", "duration": 1}], "scale": 0}"#, 2, "$.scale"),
        (#"{"screens": {"a": "missing.png"}, "timeline": [{"hold": "a", "duration": 1}]}"#, 1, "$.screens.a: cannot read 'missing.png'"),
        (#"{"screens": {"a": "notes.txt"}, "timeline": [{"hold": "a", "duration": 1}]}"#, 1, "'notes.txt' is not a PNG, JPEG or HEIC image"),
        (#"{"screens": {"a": "sample:home"}, "timeline": [{"interactive": "fade", "from": "a", "to": "a", "track": "none.csv"}]}"#, 2, "none.csv"),
        (#"[1, 2, 3]"#, 2, #"$: expected an object with "screens" and "timeline""#),
        (#"{"screens": {"a": "sample:home"}, "timeline": [{"hold": "a", "duration": 1}]"#, 2, "$: not valid JSON"),
        ("", 2, "$: not valid JSON"),
        ("\u{FF}\u{FE}garbage", 2, "$: not valid JSON"),
    ] as [(String, Int32, String)])
    func badStoryboard(_ json: String, _ status: Int32, _ message: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(json.utf8).write(to: dir.appendingPathComponent("story.json"))
        try Data("hello".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        try Self.expectClearFailure(["batch", "story.json", "--backend", "cpu", "--quiet", "--out", "frames"], in: dir,
                                    status: status, naming: message, before: ["story.json", "notes.txt"])
        HostileCount.add(1)
    }

    @Test func storyboardThatIsNotAFile() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("story.json"), withIntermediateDirectories: false)
        try Self.expectClearFailure(["batch", "story.json", "--out", "frames"], in: dir, status: 1,
                                    naming: "cannot read the storyboard 'story.json'", before: ["story.json"])
        try Self.expectClearFailure(["batch", "absent.json", "--out", "frames"], in: dir, status: 1,
                                    naming: "cannot read the storyboard 'absent.json'", before: ["story.json"])
        HostileCount.add(2)
    }

    /// Options out of range, NaN and infinities: status 2, one line naming the option.
    @Test(arguments: [
        (["--fps", "nan"], "--fps must be in [0.001, 1000], not nan"),
        (["--fps", "inf"], "--fps must be in [0.001, 1000], not inf"),
        (["--fps", "-30"], "--fps must be in [0.001, 1000], not -30"),
        (["--fps", "0"], "--fps"),
        (["--fps", "1e9"], "--fps must be in [0.001, 1000], not 1000000000"),
        (["--fps", "1e-300"], "--fps must be in [0.001, 1000], not 1e-300"),
        (["--duration", "-1"], "--duration must be in (0, 3600] seconds, not -1"),
        (["--duration", "0"], "--duration"),
        (["--duration", "1e308"], "--duration must be in (0, 3600] seconds, not 1e+308"),
        (["--duration", "nan"], "--duration"),
        (["--scale", "0"], "--scale must be in (0, 64], not 0"),
        (["--scale", "-2"], "--scale"),
        (["--scale", "inf"], "--scale"),
        (["--size", "0x10"], "--size 0x10 is out of range"),
        (["--size", "100000x100000"], "--size 100000x100000 is out of range"),
        (["--size", "-5x10"], "--size"),
        (["--progress", "nan"], "--progress must be in [0, 1], not nan"),
        (["--progress", "-0.5"], "--progress must be in [0, 1], not -0.5"),
        (["--max-pixels", "0"], "--max-pixels must be > 0"),
        (["--max-pixels", "-1"], "--max-pixels must be > 0"),
        (["--threads", "0"], "--threads must be 1...256"),
        (["--png-level", "10"], "--png-level must be 0...9"),
        (["--png-level", "-1"], "--png-level must be 0...9"),
        (["--zoom", "0"], "--zoom must be > 0, not 0"),
        (["--zoom", "nan"], "--zoom"),
        (["--zoom", "-inf"], "--zoom"),
        (["--curve", "cubic(nan,0,1,1)"], "cubic"),
        (["--curve", "spring(0,0)"], "damping must be > 0"),
    ] as [([String], String)])
    func optionOutOfRange(_ option: [String], _ message: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.expectClearFailure(["render", "door", "--from", "sample:home", "--to", "sample:detail", "--backend", "cpu",
                                     "--out", "frames"] + option, in: dir, status: 2, naming: message, before: [])
        HostileCount.add(1)
    }

    /// Effect options with no area, behind the eye, or absurd: refused, or (perspective) rendered clipped.
    @Test(arguments: [
        (["hero", "--from-rect", "0,0,0,10", "--to-rect", "0,0,10,10"], "--from-rect 0,0,0,10 has no area"),
        (["hero", "--from-rect", "0,0,10,10", "--to-rect", "5,5,-10,10"], "--to-rect 5,5,-10,10 has no area"),
        (["hero", "--from-rect", "0,0,10,nan", "--to-rect", "0,0,10,10"], "--from-rect"),
        (["page-flip", "--perspective", "0"], "--perspective must be > 0, not 0"),
        (["page-flip", "--perspective", "-50"], "--perspective must be > 0, not -50"),
        (["hinge", "--perspective", "nan"], "--perspective"),
        (["page-flip", "--shadow", "2"], "--shadow must be in [0, 1], not 2"),
        (["circle-spread", "--center", "nan,1"], "--center"),
        (["circle-spread", "--end-radius", "-inf"], "--end-radius"),
    ] as [([String], String)])
    func effectOptionOutOfRange(_ arguments: [String], _ message: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.expectClearFailure(["render"] + arguments + ["--from", "sample:home", "--to", "sample:detail",
                                                              "--backend", "cpu", "--progress", "0.5", "--out", "x.png"],
                                    in: dir, status: 2, naming: message, before: [])
        HostileCount.add(1)
    }

    static let backends = ["cpu", "gles"]

    /// An eye closer than the layer's width puts part of it behind the eye: the frame is drawn clipped, the same
    /// on both backends, without NaN smears (a frame of all one colour, or holes of background mid-screen).
    @Test(arguments: [
        ["page-flip", "--perspective", "50"], ["page-flip", "--perspective", "1"], ["hinge", "--perspective", "10"],
        ["spin", "--perspective", "1"], ["door", "--zoom", "1e300"], ["circle-zoom", "--center", "1e300,-1e300"],
    ])
    func layersBehindTheEyeRenderClipped(_ effect: [String]) throws {
        var frames: [String: [UInt8]] = [:]
        for backend in Self.backends {
            for t in ["0", "0.3", "1"] {
                let r = try Segue.run(["render"] + effect + ["--from", "sample:home", "--to", "sample:detail", "--size", "375x667",
                                                             "--backend", backend, "--progress", t, "--out", "-", "--format", "rgba"])
                #expect(r.status == 0, "\(effect) \(backend) t=\(t): \(r.stderr)")
                #expect(r.stdout.count == 375 * 667 * 4)
                frames["\(backend)-\(t)"] = [UInt8](r.stdout)
            }
        }
        for t in ["0", "0.3", "1"] {
            let cpu = frames["cpu-\(t)"]!, gles = frames["gles-\(t)"]!
            var differing = 0
            for i in stride(from: 0, to: cpu.count, by: 4) where (0..<3).contains(where: { abs(Int(cpu[i + $0]) - Int(gles[i + $0])) > 16 }) {
                differing += 1
            }
            #expect(differing <= cpu.count / 4 / 1000, "\(effect) t=\(t): \(differing) pixels differ between CPU and GLES")
        }
        #expect(frames["cpu-0"] != frames["cpu-1"], "\(effect): the transition shows no change")
        HostileCount.add(1)
    }

    /// Frames a few pixels across, with the built-in screens drawn at that size (a crash before this was fixed).
    @Test(arguments: ["1x1", "3x3", "1x500", "500x1"])
    func tinyFramesRender(_ size: String) throws {
        for backend in Self.backends {
            let r = try Segue.run(["render", "door", "--from", "sample:home", "--to", "sample:detail", "--size", size,
                                   "--backend", backend, "--progress", "0.5", "--out", "-", "--format", "rgba"])
            #expect(r.status == 0, "\(size) \(backend): \(r.stderr)")
            let wh = size.split(separator: "x").map { Int($0)! }
            #expect(r.stdout.count == wh[0] * wh[1] * 4)
        }
    }

    /// Valid but unusual images render as they look: the frame at progress 0 of a fade is the image itself.
    @Test(arguments: Corpus.unusualImages)
    func unusualImageRendersCorrectly(_ image: Corpus.UnusualImage) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = image.name + (image.name.hasPrefix("jpeg") ? ".jpg" : ".png")
        try Data(image.bytes).write(to: dir.appendingPathComponent(name))
        let r = try Segue.run(["render", "fade", "--from", name, "--to", "sample:detail", "--backend", "cpu",
                               "--progress", "0", "--out", "-", "--format", "rgba"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        try #require(r.stdout.count == image.width * image.height * 4, "size: \(r.stdout.count) bytes")
        let px = [UInt8](r.stdout)
        for s in image.samples {
            let i = (s.y * image.width + s.x) * 4
            let got = (Int(px[i]), Int(px[i + 1]), Int(px[i + 2]))
            #expect(abs(got.0 - s.r) <= image.tolerance && abs(got.1 - s.g) <= image.tolerance && abs(got.2 - s.b) <= image.tolerance,
                    "\(image.name) at (\(s.x), \(s.y)): \(got), expected (\(s.r), \(s.g), \(s.b))")
        }
    }
}

/// Counts the bad inputs tried, printed once the process ends (`swift test` shows it).
enum HostileCount {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var count = 0
    nonisolated(unsafe) private static var registered = false

    static func add(_ n: Int) {
        lock.lock()
        defer { lock.unlock() }
        count += n
        if !registered {
            registered = true
            atexit { print("SegueCLITests: hostile inputs tried: \(HostileCount.total)") }
        }
    }

    static var total: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
