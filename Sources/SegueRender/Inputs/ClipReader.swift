import Foundation
import SegueCore
import SegueImageIO

/// A video clip used as a screen, decoded by one `ffmpeg` process into a pipe of raw RGBA frames at the job's
/// size and frame rate: `-ss START -i CLIP -vf fps=FPS,scale=W:H -f rawvideo -pix_fmt rgba -`, so output frame
/// `j` is the clip at `START + j / FPS`. Frames are read in order by a thread of the reader's own, at most
/// `framesAhead` frames ahead of the one drawn (memory is those frames, the one shown and the pipe's buffer,
/// never the clip), so ffmpeg's decoding and the pipe's reads overlap the drawing; past the clip's end the last
/// frame is held, or with `loop` the clip starts over (`-stream_loop -1`). Frames skipped are read and dropped;
/// one asked for before the last restarts the process. A start at or past the clip's last frame (where `-ss`
/// gives no frame) holds the last frame, as a clip that has ended does.
///
/// ffmpeg and ffprobe run as `ChildProcess`es, in process groups of their own that the job's control ends on a
/// signal or the watchdog's timeout; each wait on them is timed work (`JobControl.touch(timed:)`), so
/// `--frame-timeout` ends a decoder that never writes. What ffmpeg says on standard error while a clip decodes
/// (a damaged clip's complaints) is passed to `note` once.
///
/// A clip with a display rotation (a phone's screen recording: the container's display matrix, or the older
/// `rotate` tag) is turned upright as a player shows it, by quarter turns (`transpose`, or `hflip,vflip`, before
/// the scale; ffmpeg's own autorotation is off, so the turn is the probe's), and its size is the turned one.
///
/// ffmpeg scales with `flags=area` when shrinking and `bicubic` when enlarging, as stills are resampled (area
/// averaging, Catmull-Rom); its pixels are straight alpha and are premultiplied here. Its colour is converted
/// into the job's working space in the same filter graph (`ClipColour`: the stream's matrix, range and
/// primaries; HDR tone-mapped), so frames arrive in it.
final class ClipReader {
    /// A clip's file extensions: screens with one of these are clips, the rest stills.
    static let extensions: Set<String> = ["mp4", "m4v", "mov", "webm", "mkv", "avi", "gif", "mpg", "mpeg", "ogv"]

    /// Whether `path` names a video clip, by its extension (any case).
    static func isClip(_ path: String) -> Bool {
        !path.hasPrefix("sample:") && extensions.contains(PathName.extension(path).lowercased())
    }

    /// `F_SETPIPE_SZ` (Linux), and the size asked for: `/proc/sys/fs/pipe-max-size`'s default.
    private static let setPipeSize: Int32 = 1031
    private static let pipeSize: Int32 = 1 << 20

    /// Frames a reader decodes ahead of the one drawn, each the job's frame size (`MemoryBudget` counts them).
    static let framesAhead = 2

    let path: String
    let width: Int
    let height: Int
    let fps: Double
    let playback: ClipPlayback
    /// The clip's own pixel size (turned upright), for the scale filter's choice.
    let source: (width: Int, height: Int)
    /// Quarter turns counterclockwise that make the clip upright (0 to 3; `Probe.quarterTurns`).
    let quarterTurns: Int
    /// What the clip's stream says about its colour, and the working space its frames are converted into by
    /// ffmpeg's filters (`ClipColour`), so they arrive in it.
    let colour: ClipColour
    let space: ColourSpace
    /// The clip's frames may carry alpha (kept through a colour conversion).
    let alpha: Bool

    /// Told of each ffmpeg process, so an interrupted job ends it, and of each wait on one (timed work).
    let control: JobControl?
    /// Told once of what ffmpeg said on standard error while decoding the clip (a warning, not a failure).
    let note: (@Sendable (String) -> Void)?
    private var process: ChildProcess?
    /// The thread reading ffmpeg's standard output ahead of the drawing.
    private var ahead: ReadAhead?
    /// The index of the next frame the pipe will give, and the last frame read (held at the end).
    private var next = 0
    private var current: (index: Int, frame: Pixmap)?
    private var ended = false
    /// ffmpeg's complaints have been told (in a note, or in an error).
    private var told = false

    init(path: String, source: (width: Int, height: Int), quarterTurns: Int = 0, colour: ClipColour = ClipColour(), space: ColourSpace = .srgb,
         alpha: Bool = true, width: Int, height: Int, fps: Double, playback: ClipPlayback, control: JobControl? = nil,
         note: (@Sendable (String) -> Void)? = nil) {
        self.colour = colour
        self.space = space
        self.alpha = alpha
        self.control = control
        self.note = note
        self.path = path
        self.source = source
        self.quarterTurns = quarterTurns
        self.width = width
        self.height = height
        self.fps = fps
        self.playback = playback
    }

    deinit { stop() }

    /// The frame index that a clip `seconds` into its clock shows (`round(seconds * fps)`, at least 0).
    func index(atClock seconds: Double) -> Int {
        let j = (seconds * fps).rounded()
        return j.isFinite && j > 0 ? Int(min(j, 1e12)) : 0
    }

    /// Frame `j` of the clip at the job's rate (the last frame when the clip has ended and does not loop).
    /// The same `j` twice gives the same frame without reading. A job whose first frame is mid-way (a shard, a
    /// resumed job) reads and drops the frames before it: `-ss` to that frame would be faster, but ffmpeg's fps
    /// filter then picks another input frame wherever the clip's rate and the job's tie in rounding (a 24 fps
    /// clip at 30 fps: 1 frame in 30 differed even with `-copyts`), and a shard must draw what the whole job draws.
    func frame(_ j: Int) throws -> Pixmap {
        if let current, current.index == j || (ended && j >= current.index) { return current.frame }
        // Waiting for ffmpeg is timed work: a decoder that never writes is ended by the watchdog.
        let (activity, timed) = (control?.activity, control?.isTimed ?? false)
        control?.touch("waiting for frame \(j) of the clip '\(path)' from ffmpeg", timed: true)
        defer { control?.touch(activity, timed: timed) }
        if process == nil || j < next { try start() }
        while next <= j {
            guard let frame = try read() else {
                ended = true
                if current == nil && playback.start > 0 && !playback.loop {
                    return try holdLastFrame()
                }
                guard let current else {
                    throw SegueError(.inputUnreadable(path: path), "the clip '\(path)' has no frames ffmpeg can decode\(said())")
                }
                return current.frame
            }
            current = (next, frame)
            next += 1
        }
        return current!.frame
    }

    /// The clip's start is at or past its last frame (`-ss` there gives none): the clip is read from its
    /// beginning and its last frame held for every frame asked for.
    private func holdLastFrame() throws -> Pixmap {
        try start(seeking: false)
        var last: Pixmap?
        while let frame = try read() { last = frame }
        ended = true
        guard let last else { throw SegueError(.inputUnreadable(path: path), "the clip '\(path)' has no frames ffmpeg can decode\(said())") }
        current = (0, last)
        return last
    }

    /// `seconds` as ffmpeg reads a time: plain decimals to the microsecond (its time base), never an exponent
    /// (`1e-05`, which Swift prints for 0.00001, is not a time to ffmpeg).
    static func ffmpegSeconds(_ seconds: Double) -> String {
        var text = String(format: "%.6f", seconds)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Starts ffmpeg at the clip's start (`-ss START`, unless `seeking` is false), frame 0.
    private func start(seeking: Bool = true) throws {
        stop()
        let ffmpeg = try FFmpegStream.locate(forClip: path)
        let shrinking = width * height <= source.width * source.height
        let turn = ["", "transpose=cclock,", "hflip,vflip,", "transpose=clock,"][quarterTurns & 3]
        let filter = "fps=\(fps.compact),\(turn)scale=\(width):\(height):flags=\(shrinking ? "area" : "bicubic"):\(colour.scaleOptions),"
            + colour.conversion(into: space, alpha: alpha)
        let arguments = ["-hide_banner", "-nostdin", "-loglevel", "error"]
            + (playback.loop ? ["-stream_loop", "-1"] : [])
            + (seeking && playback.start > 0 ? ["-ss", Self.ffmpegSeconds(playback.start)] : [])
            + ["-noautorotate", "-i", path, "-an", "-vf", filter, "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"]
        signal(SIGPIPE, SIG_IGN)
        let p = try ChildProcess(executable: ffmpeg, arguments: arguments, output: .pipe, control: control)
        let fd = p.output!.fileDescriptor
        // A pipe as large as Linux lets an unprivileged process make it (1 MiB by default, not 64 KiB), so
        // ffmpeg decodes ahead of the frame being drawn rather than in lockstep with each read.
        _ = fcntl(fd, Self.setPipeSize, Self.pipeSize)
        process = p
        ahead = try ReadAhead(fd: fd, width: width, height: height, frames: Self.framesAhead)
        next = 0
        current = nil
        ended = false
    }

    /// The next frame from the read-ahead thread, premultiplied; nil at the end of the stream. How the stream
    /// ended is told here, on the drawing thread, where the process is waited for.
    private func read() throws -> Pixmap? {
        guard let ahead else { return nil }
        switch ahead.take() {
        case let .frame(frame):
            return frame
        case let .failed(reason):
            throw SegueError(.inputUnreadable(path: path), "cannot read the clip '\(path)' from ffmpeg: \(reason)")
        case .end(partial: true):
            throw SegueError.failed("ffmpeg stopped mid-frame decoding the clip '\(path)'\(said())")
        case .end(partial: false):
            switch process?.wait() {
            case let .exited(status)? where status != 0:
                throw SegueError.failed("ffmpeg failed (exit \(status)) decoding the clip '\(path)'\(said())")
            case let .signalled(signal)?:
                throw SegueError.failed("ffmpeg was killed (signal \(signal)) decoding the clip '\(path)'\(said())")
            default:
                break
            }
            tellComplaints()
            return nil
        }
    }

    /// ffmpeg's last line of complaint once it has exited (`: ...`), or nothing; told in the error that carries
    /// it, so not again in a note.
    private func said() -> String {
        guard let process else { return "" }
        process.wait()
        told = true
        return process.errorLines(1).first.map { ": \($0)" } ?? ""
    }

    /// Tells `note`, once, what ffmpeg said on standard error while it decoded (its last lines): a damaged
    /// clip decodes as far as it can, with ffmpeg's complaints and exit 0. Call once ffmpeg has been ended.
    private func tellComplaints() {
        guard !told, let process, let note else { return }
        let lines = process.errorLines(3, waitingUntil: .now() + 1)
        guard !lines.isEmpty else { return }
        told = true
        note("ffmpeg complained decoding the clip '\(path)' (it may be damaged): \(lines.joined(separator: " / "))")
    }

    /// Reads a clip's frames from ffmpeg's pipe on a thread of its own, premultiplied, into a ring of at most
    /// `frames` frames that the drawing thread takes in order: the thread waits while the ring is full, so it
    /// holds at most `frames` frames (the one it fills among them). The stream's end (whole, or mid-frame) or a
    /// read's failure is the last entry, and stays there for every later `take`. `stop` wakes the thread where
    /// it waits for room, ends ffmpeg (so a read it waits in sees the stream's end) and waits for it to end.
    /// (Reads block: a `poll` beside a wake pipe before each one added a system call per read, 8,250 over 31
    /// frames of two 1080x1920 clips beside about 9,300 reads, by strace.)
    private final class ReadAhead: @unchecked Sendable {
        enum Entry: Sendable {
            case frame(Pixmap)
            /// The end of the stream; `partial` when it fell mid-frame.
            case end(partial: Bool)
            /// `read` failed (`strerror`'s words).
            case failed(String)
        }

        private let condition = NSCondition()
        // Guarded by `condition`:
        private var ring: [Entry] = []
        private var stopping = false

        private let capacity: Int
        private let finished = DispatchSemaphore(value: 0)
        private var stopped = false

        init(fd: Int32, width: Int, height: Int, frames: Int) throws {
            capacity = max(1, frames)
            try JobThread.start("segue clip read-ahead", stackSize: 1 << 20) { [self] in
                run(fd: fd, width: width, height: height)
                finished.signal()
            }
        }

        /// The next entry, waiting for the thread when the ring is empty; an end or a failure is not taken off.
        func take() -> Entry {
            condition.lock()
            defer { condition.unlock() }
            while ring.isEmpty { condition.wait() }
            guard case .frame = ring[0] else { return ring[0] }
            let entry = ring.removeFirst()
            condition.signal()
            return entry
        }

        /// Ends the thread and waits for it: `end` must end the stream (the ffmpeg process) so that a read the
        /// thread waits in returns. The pipe from ffmpeg is left open for the caller to close.
        func stop(ending end: () -> Void) {
            guard !stopped else { return }
            stopped = true
            condition.lock()
            stopping = true
            condition.broadcast()
            condition.unlock()
            end()
            finished.wait()
        }

        private func run(fd: Int32, width: Int, height: Int) {
            while true {
                condition.lock()
                while ring.count >= capacity && !stopping { condition.wait() }
                let stop = stopping
                condition.unlock()
                guard !stop else { return }
                let entry = read(fd: fd, width: width, height: height)
                condition.lock()
                ring.append(entry)
                condition.signal()
                condition.unlock()
                guard case .frame = entry else { return }
            }
        }

        /// One frame's bytes from `fd`, premultiplied, or how the stream ended.
        private func read(fd: Int32, width: Int, height: Int) -> Entry {
            let count = width * height * 4
            var filled = 0
            var outcome: Entry?
            var pixels = [UInt32](unsafeUninitializedCapacity: width * height) { buffer, initialized in
                let bytes = UnsafeMutableRawPointer(buffer.baseAddress!)
                while filled < count {
                    let n = Foundation.read(fd, bytes + filled, count - filled)
                    if n > 0 { filled += n; continue }
                    if n < 0 && errno == EINTR { continue }
                    if n < 0 { outcome = .failed(String(cString: strerror(errno))) }
                    break
                }
                // Every element is written when the frame is whole; a partial one is dropped unread.
                initialized = width * height
            }
            if let outcome { return outcome }
            guard filled == count else { return .end(partial: filled > 0) }
            var opaque = true
            for p in pixels where p >> 24 != 255 { opaque = false; break }
            if !opaque {
                for i in pixels.indices {
                    let p = pixels[i]
                    pixels[i] = Pixmap.premultiply(r: p & 0xFF, g: (p >> 8) & 0xFF, b: (p >> 16) & 0xFF, a: p >> 24)
                }
            }
            return .frame(Pixmap(width: width, height: height, pixels: pixels))
        }
    }

    /// Ends the read-ahead thread (killing ffmpeg, so a read the thread waits in returns, and waiting for the
    /// thread), then the ffmpeg process (the clip is done with, or restarts).
    func stop() {
        let process = self.process
        ahead?.stop { process?.kill() }
        ahead = nil
        guard let process else { return }
        process.kill()
        process.wait()
        tellComplaints()
        self.process = nil
    }

    /// What `probe` reads of a clip.
    struct Probe {
        /// The clip's pixel size as a player shows it: its stored size, turned by `quarterTurns`.
        var width: Int
        var height: Int
        /// Quarter turns counterclockwise that make the clip upright (0 to 3): its display matrix's rotation
        /// (ffprobe's `rotation`, counterclockwise, as players read it; the older `rotate` tag, clockwise, where
        /// there is no matrix), to the nearest quarter turn.
        var quarterTurns = 0
        /// Whether every frame is opaque: its pixel format has no alpha (ffmpeg then gives alpha 255), so layers
        /// under it may be culled as under an opaque still.
        var isOpaque: Bool
        /// What the stream says about its colour.
        var colour = ClipColour()
    }

    /// Whether frames in ffmpeg's pixel format `name` can carry alpha (a palette may hold a transparent entry).
    static func carriesAlpha(pixelFormat name: String) -> Bool {
        name.isEmpty || name == "pal8" || name.hasPrefix("yuva") || name.hasPrefix("ya") || name.hasPrefix("gbrap")
            || ["rgba", "bgra", "argb", "abgr", "rgb32", "bgr32", "0rgb"].contains { name.hasPrefix($0) }
    }

    /// The longest a clip's probe may take (a regular file that ffprobe reads for ever is a hostile one).
    static let probeTimeout: Double = 30

    /// The clip's pixel size and whether it is opaque, read by `ffprobe` before anything renders: a failure
    /// naming the clip when ffmpeg cannot open it, or when ffmpeg is not installed. ffprobe runs in a process
    /// group of its own, ended with everything in it after `probeTimeout` (a wrapper script's child holds the
    /// pipe open after the script has gone), or by `control` on a signal or the watchdog's timeout (the probe is
    /// timed work). Its output is read with `poll` on this thread: no thread pool, whose thread creation
    /// libdispatch retries without end when the address space is exhausted.
    static func probe(_ path: String, control: JobControl? = nil) throws -> Probe {
        let ffprobe = try FFmpegStream.locate(forClip: path, tool: "ffprobe")
        guard FileManager.default.isReadableFile(atPath: path) else {
            // Why, from open(2) itself: a symlink loop is not a missing file.
            let fd = open(path, O_RDONLY | O_NONBLOCK)
            let reason = fd >= 0 ? "permission denied" : ErrnoReason.text(errno)
            if fd >= 0 { close(fd) }
            throw SegueError(.inputUnreadable(path: path), "cannot read the clip '\(path)': \(reason)")
        }
        // A FIFO or a device named *.mp4 would never end: only a regular file (through any symlinks) is a clip.
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw SegueError(.inputUnreadable(path: path), "cannot read the clip '\(path)': not a regular file")
        }
        let (activity, timed) = (control?.activity, control?.isTimed ?? false)
        control?.touch("probing the clip '\(path)' with ffprobe", timed: true)
        defer { control?.touch(activity, timed: timed) }
        let p = try ChildProcess(executable: ffprobe, arguments: [
            "-v", "error", "-select_streams", "v:0",
            "-show_entries", "stream=width,height,pix_fmt,color_primaries,color_transfer,color_space,color_range:stream_tags=rotate"
                + ":stream_side_data=rotation,max_content,max_luminance", "-of", "json", path,
        ], output: .pipe, control: control)
        let deadline = DispatchTime.now() + Self.probeTimeout
        guard let said = p.readOutput(until: deadline), let ended = p.wait(until: deadline) else {
            p.kill()
            p.wait()
            throw SegueError(.inputUnreadable(path: path), "ffmpeg cannot open the clip '\(path)': ffprobe took more than \(Int(Self.probeTimeout)) s")
        }
        guard ended == .exited(0), var probe = parse(said) else {
            let why = p.errorLines(1).first ?? {
                switch ended {
                case .exited(0): return "no video stream"
                case let .exited(status): return "exit \(status)"
                case let .signalled(signal): return "ffprobe was killed (signal \(signal))"
                }
            }()
            throw SegueError(.inputUnreadable(path: path), "ffmpeg cannot open the clip '\(path)': \(why)")
        }
        if probe.quarterTurns % 2 == 1 { swap(&probe.width, &probe.height) }
        return probe
    }

    /// ffprobe's "N/D" (or a plain number) as a value; nil when it is neither or not finite.
    static func rational(_ text: String) -> Double? {
        let parts = text.split(separator: "/").map { Double($0) }
        guard let n = parts.first ?? nil else { return nil }
        let value = parts.count == 2 ? (parts[1].map { n / $0 } ?? .nan) : n
        return value.isFinite ? value : nil
    }

    /// ffprobe's JSON for the first video stream (`width`, `height`, `pix_fmt`, the colour tags,
    /// `side_data_list[]`'s rotation and HDR peaks, `tags.rotate`), the size as stored; nil when it names no
    /// stream with a size.
    static func parse(_ json: Data) -> Probe? {
        guard let root = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
              let stream = (root["streams"] as? [Any])?.first as? [String: Any],
              let width = (stream["width"] as? NSNumber)?.intValue, let height = (stream["height"] as? NSNumber)?.intValue,
              width > 0, height > 0 else { return nil }
        let format = stream["pix_fmt"] as? String ?? ""
        let matrix = (stream["side_data_list"] as? [Any] ?? []).lazy
            .compactMap { (($0 as? [String: Any])?["rotation"] as? NSNumber)?.doubleValue }.first
        let tag = ((stream["tags"] as? [String: Any])?["rotate"] as? String).flatMap(Double.init).map { -$0 }
        let degrees = matrix ?? tag ?? 0
        let turns = degrees.isFinite ? Int((degrees / 90).rounded().truncatingRemainder(dividingBy: 4)) : 0
        func named(_ key: String) -> String {
            let value = stream[key] as? String ?? ""
            return value == "unknown" || value == "unspecified" ? "" : value
        }
        // HDR metadata: the content light level (cd/m²), else the mastering display's peak ("10000000/10000").
        let sideData = (stream["side_data_list"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        let content = sideData.lazy.compactMap { ($0["max_content"] as? NSNumber)?.doubleValue }.first { $0 > 0 }
        let mastering = sideData.lazy.compactMap { ($0["max_luminance"] as? String).flatMap(Self.rational) }.first { $0 > 0 }
        let colour = ClipColour(primaries: named("color_primaries"), transfer: named("color_transfer"), matrix: named("color_space"),
                                range: named("color_range"), pixelFormat: format, height: height, peak: content ?? mastering)
        return Probe(width: width, height: height, quarterTurns: (turns + 4) % 4, isOpaque: !carriesAlpha(pixelFormat: format),
                     colour: colour)
    }
}
