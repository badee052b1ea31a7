import Foundation
import SegueCore
import SegueCPU
import SegueImageIO
import SegueRender
import SegueTestSupport
import Testing

/// The `ffmpeg` and `ffprobe` on PATH, if any.
private func tool(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

private let videoTools: (ffmpeg: String, ffprobe: String)? = {
    guard let ffmpeg = tool("ffmpeg"), let ffprobe = tool("ffprobe") else { return nil }
    return (ffmpeg, ffprobe)
}()

/// Videos decoded as a player decodes them: by the matrix and range their tags say. Every video says what it
/// holds, and what it holds is the colours drawn: solid bars within `barLevels`, and whole frames as close to
/// the drawn frames as ffmpeg itself gets encoding the same frames with the same codec and the right tags.
@Suite(.enabled(if: videoTools != nil, "ffmpeg and ffprobe are not on PATH: the video colour tests decode videos"))
struct VideoColourTests {
    /// A solid bar decoded from a video may differ from the colour drawn by this many levels a channel (the
    /// integer weights and the codec's own rounding).
    static let barLevels = 2
    /// A video's frames may be this many dB further from the drawn frames than ffmpeg's own encoding of them.
    static let psnrSlack = 0.5

    static let bars: [(r: UInt32, g: UInt32, b: UInt32)] = [
        (255, 255, 255), (255, 255, 0), (0, 255, 255), (0, 255, 0), (255, 0, 255), (255, 0, 0), (0, 0, 255),
        (0, 0, 0), (128, 128, 128), (200, 100, 50),
    ]

    /// Vertical bars of `bars`' colours, opaque.
    static func barsPixmap(width: Int, height: Int) -> Pixmap {
        let pixels = (0..<width * height).map { i -> UInt32 in
            let c = bars[(i % width) * bars.count / width]
            return c.r | c.g << 8 | c.b << 16 | 0xFF00_0000
        }
        return Pixmap(width: width, height: height, pixels: pixels)
    }


    /// Runs a tool and returns its standard output; throws with its standard error when it fails.
    static func run(_ executable: String, _ arguments: [String]) throws -> Data {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        // Both pipes drained as the tool writes, so a large output never blocks it.
        nonisolated(unsafe) var errors = Data()
        let reader = Thread { errors = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        while !reader.isFinished { usleep(1000) }
        guard p.terminationStatus == 0 else {
            throw SegueError.failed("\(executable) \(arguments.joined(separator: " ")): \(String(decoding: errors, as: UTF8.self))")
        }
        return data
    }

    /// The colour tags of the video's stream, as ffprobe reads them.
    static func tags(_ video: String) throws -> [String: String] {
        let text = String(decoding: try run(videoTools!.ffprobe, [
            "-v", "error", "-select_streams", "v:0", "-show_entries",
            "stream=color_range,color_space,color_primaries,color_transfer", "-of", "default=noprint_wrappers=1", video,
        ]), as: UTF8.self)
        var tags: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { tags[parts[0]] = parts[1] }
        }
        return tags
    }

    /// Every frame of the video as RGBA8 at `width` x `height` (the even-size pad cropped), converted from
    /// YCbCr by the matrix and range its tags name, as a player that honours them shows it.
    static func decode(_ video: String, width: Int, height: Int) throws -> [Pixmap] {
        let t = try tags(video)
        let matrix = ["bt709": "bt709", "smpte170m": "smpte170m", "bt470bg": "bt470"][t["color_space"] ?? ""]
        let range = ["tv": "tv", "pc": "full"][t["color_range"] ?? ""]
        guard let matrix, let range else {
            throw SegueError.failed("\(video) is not tagged with its colours: \(t)")
        }
        let data = try run(videoTools!.ffmpeg, [
            "-hide_banner", "-nostdin", "-loglevel", "error", "-i", video, "-vf",
            "scale=in_color_matrix=\(matrix):in_range=\(range):flags=accurate_rnd+full_chroma_int+bitexact,format=rgba,crop=\(width):\(height):0:0",
            "-f", "rawvideo", "-",
        ])
        let frameBytes = width * height * 4
        return stride(from: 0, to: data.count - frameBytes + 1, by: frameBytes).map { start in
            let pixels = data[start..<start + frameBytes].withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
            return Pixmap(width: width, height: height, pixels: pixels)
        }
    }

    static func psnr(_ a: Pixmap, _ b: Pixmap) -> Double {
        var sum = 0.0
        for (p, q) in zip(a.pixels, b.pixels) {
            for shift in [0, 8, 16] as [UInt32] {
                let d = Double(Int(p >> shift & 0xFF) - Int(q >> shift & 0xFF))
                sum += d * d
            }
        }
        let mse = sum / Double(3 * a.pixels.count)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    static let containers = ["mp4", "webm", "mov"]

    /// A hold of the colour bars, written as a video by the job: every bar decodes to its colour.
    @Test(arguments: containers, [(1280, 720), (640, 360), (375, 667)])
    func solidBarsDecodeToTheirColours(_ ext: String, _ size: (Int, Int)) throws {
        let (width, height) = size
        let dir = try temporaryDirectory("colour")
        defer { try? FileManager.default.removeItem(at: dir) }
        let screen = dir.appendingPathComponent("bars.png").path
        try FileWriter.writeAtomically(try PNGEncoder.encode(Self.barsPixmap(width: width, height: height)), to: screen)
        let video = dir.appendingPathComponent("bars.\(ext)").path
        var job = RenderJob(storyboard: Storyboard(fps: 10, screens: ["bars": screen],
                                                   timeline: [.hold(screen: "bars", duration: 0.2)]),
                            output: .video(video))
        job.backend = .cpu
        try job.run()

        let tags = try Self.tags(video)
        let hd = width >= 1280 || height >= 720
        #expect(tags["color_space"] == (hd ? "bt709" : "smpte170m"), "\(ext) \(width)x\(height): \(tags)")
        #expect(tags["color_primaries"] == "bt709" && tags["color_transfer"] == "bt709" && tags["color_range"] == "tv",
                "\(ext) \(width)x\(height): \(tags)")

        let frames = try Self.decode(video, width: width, height: height)
        #expect(frames.count == job.storyboard.schedule.count)
        guard let frame = frames.first else { return }
        for (i, bar) in Self.bars.enumerated() {
            // The middle of the bar, away from its edges (where 4:2:0 mixes two bars' chroma).
            let x = (2 * i + 1) * width / (2 * Self.bars.count), y = height / 2
            let p = frame.pixels[y * width + x]
            let got = [p & 0xFF, p >> 8 & 0xFF, p >> 16 & 0xFF].map(Int.init)
            let want = [bar.r, bar.g, bar.b].map(Int.init)
            let worst = zip(got, want).map { abs($0 - $1) }.max()!
            #expect(worst <= Self.barLevels, "\(ext) \(width)x\(height): bar \(want) decodes as \(got)")
        }
    }

    /// Whole frames of a transition: the video Segue writes is no further from the frames drawn than the video
    /// ffmpeg writes from the same frames as PNG files with the same codec arguments and the right conversion
    /// and tags.
    @Test(arguments: containers)
    func wholeFramesAreAsCloseAsFFmpegsOwnEncoding(_ ext: String) throws {
        let dir = try temporaryDirectory("colour")
        defer { try? FileManager.default.removeItem(at: dir) }
        let width = 1280, height = 720
        let door = Transition(.door, duration: 0.5)
        let video = dir.appendingPathComponent("door.\(ext)").path
        var job = RenderJob(door, from: "sample:home", to: "sample:detail", fps: 10, size: (width, height),
                            output: .video(video))
        job.backend = .cpu
        try job.run()
        let drawn = try job.frames(renderer: CPUCompositor(threads: 2))

        // The same frames as PNG files, encoded by ffmpeg converting RGB itself with the matrix and range tagged.
        let frames = dir.appendingPathComponent("frames").path
        job.outputs = [.frames(directory: frames)]
        try job.run()
        let peer = dir.appendingPathComponent("peer.\(ext)").path
        let codec: [String] = switch ext {
        case "mp4": ["-c:v", "libx264", "-preset", "medium", "-crf", "18", "-pix_fmt", "yuv420p"]
        case "webm": ["-c:v", "libvpx-vp9", "-crf", "30", "-b:v", "0", "-row-mt", "1", "-cpu-used", "4", "-pix_fmt", "yuv420p"]
        default: ["-c:v", "prores_ks", "-profile:v", "3", "-pix_fmt", "yuv422p10le"]
        }
        _ = try Self.run(videoTools!.ffmpeg, ["-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-framerate", "10",
                                              "-i", "\(frames)/frame_%05d.png",
                                              "-vf", "scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd+full_chroma_int,"
                                               + "setparams=range=tv:color_primaries=bt709:color_trc=bt709:colorspace=bt709"]
                                             + codec + ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
                                                        "-color_range", "tv", peer])

        let ours = try Self.decode(video, width: width, height: height)
        let theirs = try Self.decode(peer, width: width, height: height)
        #expect(ours.count == drawn.count && theirs.count == drawn.count)
        for (n, frame) in drawn.enumerated() where n < ours.count && n < theirs.count {
            let a = Self.psnr(ours[n], frame), b = Self.psnr(theirs[n], frame)
            if ProcessInfo.processInfo.environment["SEGUE_PRINT_PSNR"] != nil {
                print("\(ext) frame \(n): Segue \(a) dB, ffmpeg \(b) dB")
            }
            #expect(a >= b - Self.psnrSlack, "\(ext) frame \(n): Segue's video \(a) dB from the frame drawn, ffmpeg's own \(b) dB")
        }
    }

    /// A transparent `.webm` of an odd size: VP9 with alpha carries the odd size as it is (no pad, which used
    /// to be opaque black and then transparent), and the frame's own edge pixels keep the alpha drawn.
    @Test func anOddTransparentWebMKeepsItsSizeAndEdge() throws {
        let dir = try temporaryDirectory("colour")
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("fade.webm").path
        var job = RenderJob(Transition(.fade, duration: 0.2), from: "sample:home", to: "sample:detail", fps: 10,
                            size: (101, 75), background: .clear, output: .video(video))
        job.backend = .cpu
        try job.run()
        let drawn = try job.frames(renderer: CPUCompositor(threads: 2))[0]
        // libvpx's decoder (libvpx-vp9) is the one that reads the alpha plane.
        let data = try Self.run(videoTools!.ffmpeg, ["-hide_banner", "-nostdin", "-loglevel", "error", "-c:v", "libvpx-vp9",
                                                     "-i", video, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        #expect(data.count == 101 * 75 * 4)
        guard data.count == 101 * 75 * 4 else { return }
        let edge = (0..<75).map { (100, $0) } + (0..<101).map { ($0, 74) }
        let worst = edge.map { x, y in abs(Int(data[(y * 101 + x) * 4 + 3]) - Int(drawn[x, y] >> 24)) }.max()!
        #expect(worst <= 8, "the edge's alpha is up to \(worst) levels from the alpha drawn")
    }
}

/// GIF frame delays are whole hundredths of a second, and players show a delay under 2 as 10: a GIF job runs
/// at a rate whose frames each last the same whole number of hundredths, at least 2, and says so.
@Suite(.enabled(if: videoTools != nil, "ffmpeg and ffprobe are not on PATH: the GIF tests decode GIFs"))
struct GIFTimingTests {
    /// The delay of every frame of the GIF, in hundredths of a second.
    static func delays(_ gif: String) throws -> [Int] {
        let text = String(decoding: try VideoColourTests.run(videoTools!.ffprobe, [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=duration", "-of", "csv=p=0", gif,
        ]), as: UTF8.self)
        return text.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    @Test(arguments: [(60.0, 50.0), (30, 25), (24, 20), (50, 50), (10, 10)])
    func aGIFPlaysAtARateItsDelaysHold(_ asked: Double, _ rate: Double) throws {
        let dir = try temporaryDirectory("colour")
        defer { try? FileManager.default.removeItem(at: dir) }
        let gif = dir.appendingPathComponent("door.gif").path
        var job = RenderJob(Transition(.door, duration: 0.4), from: "sample:home", to: "sample:detail", fps: asked,
                            scale: 0.25, output: .video(gif))
        job.backend = .cpu
        let notes = NoteLog()
        try job.run(observer: RenderJob.Observer(note: { notes.add($0) }))
        let delays = try Self.delays(gif)
        let expected = Int((100 / rate).rounded())
        // Every frame but the last lasts exactly the rate's delay (the GIF muxer gives the last one its own).
        #expect(delays.count == Int((0.4 * rate).rounded()) + 1, "\(asked) frames/s: \(delays.count) frames")
        #expect(delays.dropLast().allSatisfy { $0 == expected }, "\(asked) frames/s: delays \(delays)")
        #expect(notes.all.contains { $0.contains("\(rate.formatted()) frames/s") } == (asked != rate), "notes: \(notes.all)")
    }
}

/// Notes a job tells its observer, from any thread.
final class NoteLog: @unchecked Sendable {
    private let lock = NSLock()
    private var notes: [String] = []
    func add(_ note: String) { lock.withLock { notes.append(note) } }
    var all: [String] { lock.withLock { notes } }
}
