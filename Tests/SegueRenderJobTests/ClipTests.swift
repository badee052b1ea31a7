import Foundation
import SegueCore
import SegueCPU
import SegueImageIO
import SegueRender
import SegueTestSupport
import Testing

/// The `ffmpeg` on PATH, if any.
private let clipFFmpeg: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/ffmpeg" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}()

/// Video clips as screens: two moving clips made here by ffmpeg (lossless PNG-in-MOV, so a frame decoded by the
/// job and the same frame extracted as a still are the same pixels), and jobs whose frames must equal jobs of
/// still screens extracted from the clips at the times the clips' clocks give.
@Suite(.enabled(if: clipFFmpeg != nil, "ffmpeg is not on PATH: the clip tests need it to make and decode clips"))
struct ClipTests {
    static var ffmpeg: String? { clipFFmpeg }

    /// A clip of `testsrc2` or `mandelbrot`, 160x284, 1 s at 10 fps: 10 frames, each unlike the last.
    static let width = 160, height = 284, fps = 10.0

    /// The frames of a clip job must equal frames of still jobs exactly: the same decoder made both, and the
    /// compositor is deterministic. A named tolerance all the same, so a change of decoder shows as one line.
    static let clipVsStills = Tolerance.exact

    /// The clips, made once per test in a fresh directory.
    struct Clips {
        let dir: URL
        var a: String { dir.appendingPathComponent("A.mov").path }
        var b: String { dir.appendingPathComponent("B.mov").path }

        init() throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("segue-clips-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let size = "\(ClipTests.width)x\(ClipTests.height)"
            try ClipTests.run(["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=10:duration=1", "-c:v", "png", a])
            try ClipTests.run(["-f", "lavfi", "-i", "mandelbrot=size=\(size):rate=10", "-t", "1", "-c:v", "png", b])
        }

        /// Frame `n` of `clip` (the last one past its end) as a PNG, extracted by ffmpeg.
        func still(_ clip: String, _ n: Int) throws -> String {
            let n = min(n, 9)
            let path = dir.appendingPathComponent("\((clip as NSString).lastPathComponent)-\(n).png").path
            if !FileManager.default.fileExists(atPath: path) {
                try ClipTests.run(["-i", clip, "-vf", "select=eq(n\\,\(n))", "-frames:v", "1", path])
            }
            return path
        }

        func remove() { try? FileManager.default.removeItem(at: dir) }
    }

    static func run(_ arguments: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ffmpeg!)
        p.arguments = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"] + arguments
        p.standardInput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw SegueError.failed("ffmpeg \(arguments.joined(separator: " ")) failed") }
    }

    /// One frame of `effect` between two stills at progress `t`.
    static func stillFrame(_ transition: Transition, from: String, to: String, t: Double, backend: BackendChoice = .cpu) throws -> Pixmap {
        var job = RenderJob(transition, from: from, to: to, fps: fps, output: .frames(directory: "unused"))
        job.progress = [t]
        job.backend = backend
        return try #require(try job.frames().first)
    }

    static func expectSame(_ actual: Pixmap, _ expected: Pixmap, _ tolerance: Tolerance, _ what: String) {
        let comparison = ImageComparison(actual: actual, expected: expected, levels: tolerance.maxLevelDiff)
        #expect(comparison.passes(tolerance), "\(what): \(comparison) (tolerance \(tolerance))")
    }

    /// The issue's test: a door between two moving clips shows, in frame k, clip A's frame at k / fps in the
    /// doors and clip B's in the scaled screen behind; past the clips' end (frame 10 of a 10-frame clip) their
    /// last frames are held.
    @Test func aDoorBetweenTwoClipsShowsEachClipAtTheFramesTime() throws {
        let clips = try Clips()
        defer { clips.remove() }
        let door = Transition(.door, duration: 1)
        var job = RenderJob(door, from: clips.a, to: clips.b, fps: Self.fps, output: .frames(directory: "unused"))
        job.backend = .cpu
        let frames = try job.frames()
        #expect(frames.count == 11)
        for k in [0, 1, 4, 7, 9, 10] {
            let expected = try Self.stillFrame(door, from: clips.still(clips.a, k), to: clips.still(clips.b, k), t: Double(k) / 10)
            Self.expectSame(frames[k], expected, Self.clipVsStills, "frame \(k)")
        }
        // The clips move: frame 4 is not frame 1's stills at frame 4's progress.
        let stale = try Self.stillFrame(door, from: clips.still(clips.a, 1), to: clips.still(clips.b, 1), t: 0.4)
        #expect(frames[4] != stale)
    }

    /// `--from-start` / `--to-start`: each clip's clock starts that far into it.
    @Test func startOffsetsShiftEachClipsClock() throws {
        let clips = try Clips()
        defer { clips.remove() }
        let door = Transition(.door, duration: 0.5)
        var job = RenderJob(door, from: clips.a, to: clips.b, fps: Self.fps, output: .frames(directory: "unused"))
        job.storyboard.playback = ["from": ClipPlayback(start: 0.3), "to": ClipPlayback(start: 0.2)]
        job.backend = .cpu
        let frames = try job.frames()
        #expect(frames.count == 6)
        for k in [0, 2, 5] {
            let expected = try Self.stillFrame(door, from: clips.still(clips.a, 3 + k), to: clips.still(clips.b, 2 + k), t: Double(k) / 5)
            Self.expectSame(frames[k], expected, Self.clipVsStills, "frame \(k)")
        }
    }

    /// In a storyboard a clip's clock starts at the first step that shows it and runs with storyboard time: a
    /// hold plays it; `"loop": true` starts it over at its end, else its last frame is held.
    @Test func aStoryboardClipsClockStartsWhereItIsFirstShown() throws {
        let clips = try Clips()
        defer { clips.remove() }
        let story = clips.dir.appendingPathComponent("story.json")
        try Data("""
            {"fps": 10, "screens": {"a": {"path": "A.mov", "loop": true}, "b": "B.mov"},
             "timeline": [{"hold": "a", "duration": 1.5},
                          {"transition": "door", "from": "a", "to": "b", "duration": 1}]}
            """.utf8).write(to: story)
        var job = try RenderJob(storyboardFile: story.path, output: .frames(directory: "unused"))
        job.backend = .cpu
        #expect(job.parseProblems.isEmpty, "\(job.parseProblems)")
        #expect(job.storyboard.playback == ["a": ClipPlayback(loop: true)])
        let frames = try job.frames()
        #expect(frames.count == 26)
        // The hold plays A (frame 3), then loops it (frame 12 is A's frame 2).
        for (k, n) in [(3, 3), (12, 2)] {
            let still = try ImageDecoder.decode(contentsOf: clips.still(clips.a, n))
            Self.expectSame(frames[k], still, Self.clipVsStills, "hold frame \(k)")
        }
        // The door starts at 1.5 s: A's clock is at 15 frames (looped: its frame 5), B's at 0.
        let door = Transition(.door, duration: 1)
        for m in [0, 3, 10] {
            let expected = try Self.stillFrame(door, from: clips.still(clips.a, (15 + m) % 10), to: clips.still(clips.b, m), t: Double(m) / 10)
            Self.expectSame(frames[15 + m], expected, Self.clipVsStills, "door frame \(15 + m)")
        }
    }

    /// A clip with alpha (half-transparent `testsrc2`, PNG in MOV as RGBA) is premultiplied and not taken for
    /// opaque: over a transparent background its frames equal the stills' frames.
    @Test func aTranslucentClipIsPremultipliedAndNothingIsCulledUnderIt() throws {
        let clips = try Clips()
        defer { clips.remove() }
        let clear = clips.dir.appendingPathComponent("clear.mov").path
        try Self.run(["-f", "lavfi", "-i", "testsrc2=size=\(Self.width)x\(Self.height):rate=10:duration=1,format=rgba,colorchannelmixer=aa=0.5",
                      "-c:v", "png", "-pix_fmt", "rgba", clear])
        let fade = Transition(.fade, duration: 1)
        var job = RenderJob(fade, from: clear, to: clips.b, fps: Self.fps, background: .clear, output: .frames(directory: "unused"))
        job.backend = .cpu
        let frames = try job.frames()
        for k in [0, 5, 10] {
            var still = RenderJob(fade, from: try clips.still(clear, k), to: try clips.still(clips.b, k), fps: Self.fps,
                                  background: .clear, output: .frames(directory: "unused"))
            still.progress = [Double(k) / 10]
            still.backend = .cpu
            Self.expectSame(frames[k], try #require(try still.frames().first), Self.clipVsStills, "frame \(k)")
        }
        // At the start only the clip shows (fade keeps `from` full and fades `to` in): its alpha, 128, is the frame's.
        #expect(frames[0].pixels.allSatisfy { $0 >> 24 == 128 })
    }

    /// A job whose first frame is mid-way (`--progress`, a resumed job) reads up to it, one past the clips' end
    /// holds their last frames, and a frame before the last restarts the decoder.
    @Test func aJobStartingMidWayAndOnePastTheEndAndOneBackShowTheirFrames() throws {
        let clips = try Clips()
        defer { clips.remove() }
        let door = Transition(.door, duration: 1.5)
        var job = RenderJob(door, from: clips.a, to: clips.b, fps: Self.fps, output: .frames(directory: "unused"))
        job.backend = .cpu
        // Progress 0.4 of 1.5 s is 0.6 s: frame 6; 0.8 is 1.2 s, past the 1 s clips: frame 9 held; then back to 0.2.
        job.progress = [0.4, 0.8, 0.2]
        let frames = try job.frames()
        for (i, t, n) in [(0, 0.4, 6), (1, 0.8, 9), (2, 0.2, 3)] {
            let expected = try Self.stillFrame(door, from: clips.still(clips.a, n), to: clips.still(clips.b, n), t: t)
            Self.expectSame(frames[i], expected, Self.clipVsStills, "progress \(t)")
        }
    }

    /// A shard starts mid-way through the clips and writes the frames the whole job writes.
    @Test func aShardOfAClipJobWritesTheWholeJobsFrames() throws {
        let clips = try Clips()
        defer { clips.remove() }
        let door = Transition(.door, duration: 1)
        let whole = clips.dir.appendingPathComponent("whole").path, part = clips.dir.appendingPathComponent("part").path
        var job = RenderJob(door, from: clips.a, to: clips.b, fps: Self.fps, output: .frames(directory: whole))
        job.backend = .cpu
        try job.run()
        job.outputs = [.frames(directory: part)]
        job.shard = try Shard(parsing: "2/3")
        #expect(try job.run().rendered == 3)
        for k in [2, 5, 8] {
            let name = String(format: "frame_%05d.png", k)
            let a = try ImageDecoder.decode(contentsOf: "\(whole)/\(name)"), b = try ImageDecoder.decode(contentsOf: "\(part)/\(name)")
            #expect(a == b, "\(name) differs")
        }
    }

    /// A chunk starts mid-way through the clips (frames 3...6 of 11 here) and draws the frames the whole job
    /// draws there: each chunk's clips start at its first frame's time.
    @Test func aChunkOfAClipJobDrawsTheWholeJobsFrames() throws {
        let clips = try Clips()
        defer { clips.remove() }
        var job = RenderJob(Transition(.door, duration: 1), from: clips.a, to: clips.b, fps: Self.fps, output: .frames(directory: "unused"))
        job.backend = .cpu
        let whole = try job.frames()
        #expect(whole.count == 11)
        var joined: [Pixmap] = []
        for i in 0..<3 {
            job.chunk = try Chunk(index: i, count: 3)
            let part = try job.frames()
            #expect(part.count == Chunk.frames(i, of: 3, in: 11).count)
            joined += part
        }
        #expect(joined.count == whole.count)
        for k in whole.indices { Self.expectSame(joined[k], whole[k], Self.clipVsStills, "frame \(k) of the chunks") }
    }

    /// A 24 fps clip in a 30 fps job: each output frame is the clip's frame nearest its time, and a shard, which
    /// starts mid-way, picks the same frames as the whole job (a seek would not, where the rates tie in rounding).
    @Test func aClipAtAnotherRateGivesAShardTheWholeJobsFrames() throws {
        let clips = try Clips()
        defer { clips.remove() }
        let c = clips.dir.appendingPathComponent("C.mov").path
        try Self.run(["-f", "lavfi", "-i", "testsrc2=size=\(Self.width)x\(Self.height):rate=24:duration=1", "-c:v", "png", c])
        let door = Transition(.door, duration: 1)
        var job = RenderJob(door, from: c, to: clips.b, fps: 30, output: .frames(directory: "unused"))
        job.backend = .cpu
        let whole = try job.frames()
        #expect(whole.count == 31)
        for k in [7, 17, 22] {
            job.progress = [Double(k) / 30]
            Self.expectSame(try #require(try job.frames().first), whole[k], Self.clipVsStills, "frame \(k) alone")
        }
    }

    /// The display rotation ffmpeg reads from `clip` (its display matrix, in degrees counterclockwise, as
    /// players read it), 0 when it carries none.
    static func displayRotation(_ clip: String) throws -> Int {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: (ffmpeg! as NSString).deletingLastPathComponent + "/ffprobe")
        p.arguments = ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream_side_data=rotation",
                       "-of", "csv=p=0", clip]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return text.split(whereSeparator: { !"-0123456789".contains($0) }).compactMap { Int($0) }.first ?? 0
    }

    /// A clip with a display rotation (a phone's screen recording: stored landscape, `rotate` 90) shows upright
    /// as a player shows it, at the rotated size: frame for frame, exactly, what the same clip turned by
    /// ffmpeg's `transpose` (or `hflip,vflip`) filter and stored without the tag shows, at its own size and
    /// resampled to another as a still would be.
    @Test(arguments: [90, 180, 270, -90])
    func aRotatedClipShowsUprightAtTheRotatedSize(_ degrees: Int) throws {
        let clips = try Clips()
        defer { clips.remove() }
        let quarter = degrees % 180 != 0
        let stored = clips.dir.appendingPathComponent("stored.mov").path
        let tagged = clips.dir.appendingPathComponent("tagged.mov").path
        let upright = clips.dir.appendingPathComponent("upright.mov").path
        let size = quarter ? "\(Self.height)x\(Self.width)" : "\(Self.width)x\(Self.height)"
        try Self.run(["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=10:duration=1", "-c:v", "png", stored])
        try Self.run(["-i", stored, "-c", "copy", "-metadata:s:v:0", "rotate=\(degrees)", tagged])
        // The turn a player makes, from the matrix ffmpeg wrote (the tag's sign has differed between versions).
        let rotation = try Self.displayRotation(tagged)
        let turn = switch (rotation % 360 + 360) % 360 {
        case 90: "transpose=cclock"
        case 180: "hflip,vflip"
        case 270: "transpose=clock"
        default: ""
        }
        #expect(!turn.isEmpty, "rotate=\(degrees) gave a display rotation of \(rotation)")
        try Self.run(["-i", stored, "-vf", turn.isEmpty ? "null" : turn, "-c:v", "png", upright])

        for size in [nil, (width: Self.width / 2, height: Self.height / 2)] as [(width: Int, height: Int)?] {
            func frames(_ clip: String) throws -> [Pixmap] {
                var job = RenderJob(Transition(.door, duration: 1), from: clip, to: clips.b, fps: Self.fps, size: size,
                                    output: .frames(directory: "unused"))
                job.backend = .cpu
                return try job.frames()
            }
            let actual = try frames(tagged), expected = try frames(upright)
            #expect(actual.count == 11 && expected.count == 11)
            let (w, h) = size ?? (Self.width, Self.height)
            #expect(actual.first.map { ($0.width, $0.height) } ?? (0, 0) == (w, h), "the frame is the rotated clip's size")
            for k in [0, 3, 6, 10] where k < min(actual.count, expected.count) {
                Self.expectSame(actual[k], expected[k], Self.clipVsStills, "rotate=\(degrees) at \(w)x\(h), frame \(k)")
            }
        }
    }

    /// A job cancelled mid-way ends its clips' decoders (their read-ahead threads and ffmpeg processes): it throws
    /// `interrupted`, and no ffmpeg of its clips is left running or unreaped.
    @Test func aCancelledClipJobLeavesNoFFmpegBehind() throws {
        let clips = try Clips()
        defer { clips.remove() }
        var job = RenderJob(Transition(.door, duration: 1), from: clips.a, to: clips.b, fps: Self.fps,
                            output: .frames(directory: clips.dir.appendingPathComponent("out").path))
        job.backend = .cpu
        let control = JobControl()
        let observer = RenderJob.Observer(progress: { done, _ in if done >= 1 { control.cancel() } })
        #expect {
            try job.run(control: control, observer: observer)
        } throws: { error in
            (error as? SegueError)?.kind == .interrupted
        }
        // Every process of this process's: none names the clips' directory, and no ffmpeg is left a zombie
        // (another test's may be for a moment, so a zombie must outlast a short wait to count).
        func leftBehind() -> [String] {
            let me = String(getpid())
            return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid in
                guard Int(pid) != nil,
                      let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { return nil }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                guard fields.count > 1, fields[1] == me else { return nil }
                let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
                let zombie = fields[0] == "Z" && stat.contains("(ffmpeg)")
                return zombie || command.contains(clips.dir.path) ? "\(pid) \(fields[0]) \(command)" : nil
            }
        }
        var left = leftBehind()
        for _ in 0..<20 where !left.isEmpty {
            usleep(100_000)
            left = leftBehind()
        }
        #expect(left.isEmpty, "left behind: \(left)")
    }

    /// A clip ffmpeg cannot open is a failure naming it, before anything is written.
    @Test func aClipFFmpegCannotOpenFailsBeforeAnythingRenders() throws {
        let clips = try Clips()
        defer { clips.remove() }
        let bad = clips.dir.appendingPathComponent("bad.mp4").path
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: bad))
        let out = clips.dir.appendingPathComponent("out").path
        var job = RenderJob(Transition(.door), from: bad, to: clips.b, output: .frames(directory: out))
        job.backend = .cpu
        #expect {
            try job.run()
        } throws: { error in
            guard let e = error as? SegueError else { return false }
            return e.kind == .inputUnreadable(path: bad) && e.message.hasPrefix("ffmpeg cannot open the clip '\(bad)'") && !e.message.contains("\n")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// The GLES backend uploads each clip frame as it changes and draws what the CPU draws, within
    /// `Tolerance.glesVsCPU` (skipped where no GLES context can be made).
    @Test func glesDrawsClipsAsTheCPUDoes() throws {
        let clips = try Clips()
        defer { clips.remove() }
        var job = RenderJob(Transition(.door, duration: 1), from: clips.a, to: clips.b, fps: Self.fps, output: .frames(directory: "unused"))
        job.backend = .cpu
        let cpu = try job.frames()
        job.backend = .gles
        let gles: [Pixmap]
        do {
            gles = try job.frames()
        } catch {
            print("skipped: no GLES context (\(error))")
            return
        }
        #expect(gles.count == cpu.count)
        for k in [0, 3, 6, 10] where k < gles.count {
            Self.expectSame(gles[k], cpu[k], Tolerance.glesVsCPU, "GLES frame \(k)")
        }
    }
}
