import Foundation
import SegueCore
import SegueImageIO

/// `--video FILE`: frames streamed as Y4M (4:4:4, full range) into an `ffmpeg` process that encodes them to a
/// temporary file, renamed to FILE when ffmpeg exits 0. The container comes from the extension. A job with a
/// transparent background streams raw straight-alpha RGBA instead (Y4M has no alpha), into ProRes 4444 with
/// alpha (`.mov`) or VP9 with alpha (`.webm`).
final class FFmpegStream: FrameStream, @unchecked Sendable {
    /// Video containers and their default codec arguments. Odd sizes are padded to even ones for 4:2:0.
    static let defaults: [String: (muxer: String, arguments: [String])] = [
        "mp4": ("mp4", ["-c:v", "libx264", "-preset", "medium", "-crf", "18", "-pix_fmt", "yuv420p",
                        "-vf", evenPad, "-movflags", "+faststart"]),
        "webm": ("webm", ["-c:v", "libvpx-vp9", "-crf", "30", "-b:v", "0", "-row-mt", "1", "-cpu-used", "4",
                          "-pix_fmt", "yuv420p", "-vf", evenPad]),
        "mov": ("mov", ["-c:v", "prores_ks", "-profile:v", "3", "-pix_fmt", "yuv422p10le", "-vf", evenPad]),
        "gif": ("gif", ["-filter_complex", "[0:v]split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse=dither=sierra2_4a",
                        "-loop", "0"]),
    ]
    static let evenPad = "pad=ceil(iw/2)*2:ceil(ih/2)*2"
    /// The codec arguments of the containers that carry alpha, for a transparent background.
    static let alphaDefaults: [String: [String]] = [
        "mov": ["-c:v", "prores_ks", "-profile:v", "4444", "-pix_fmt", "yuva444p10le"],
        "webm": ["-c:v", "libvpx-vp9", "-crf", "30", "-b:v", "0", "-row-mt", "1", "-cpu-used", "4",
                 "-pix_fmt", "yuva420p", "-auto-alt-ref", "0", "-vf", evenPad],
    ]

    /// Whether the video at `path` can carry alpha (`.mov`, `.webm`).
    static func carriesAlpha(_ path: String) -> Bool {
        alphaDefaults[(path as NSString).pathExtension.lowercased()] != nil
    }

    let path: String
    let y4m: Y4M
    /// Raw RGBA (straight alpha) into ffmpeg rather than Y4M.
    let alpha: Bool
    private let process = Process()
    private let input = Pipe()
    private let temporaryPath: String
    private var wroteHeader = false
    private nonisolated(unsafe) var errorOutput = Data()
    private let errorDone = DispatchSemaphore(value: 0)

    /// The `ffmpeg` on PATH, or a failure saying it is missing (checked before anything renders).
    static func locate(for video: String? = nil) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw JobError.failure("\(video.map { "the video '\($0)'" } ?? "--video") needs ffmpeg, which is not on PATH (install it, e.g. 'apt-get install ffmpeg', or write frames with --out DIR)")
    }

    /// The `tool` (`ffmpeg`, `ffprobe`) on PATH for decoding the clip at `clip`, or a failure saying it is missing.
    static func locate(forClip clip: String, tool: String = "ffmpeg") throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw JobError.failure("the clip '\(clip)' needs ffmpeg\(tool == "ffmpeg" ? "" : " (its \(tool))"), which is not on PATH (install ffmpeg, e.g. 'apt-get install ffmpeg', or use still images)")
    }

    /// Checks the extension; `extraArguments` (from `--ffmpeg-args`) replace the codec defaults.
    static func validate(_ path: String) throws {
        let ext = (path as NSString).pathExtension.lowercased()
        guard defaults[ext] != nil else {
            throw JobError.usage("--video '\(path)': the file must end in .mp4, .webm, .mov or .gif")
        }
    }

    init(path: String, y4m: Y4M, alpha: Bool = false, ffmpegArguments: [String]?) throws {
        try Self.validate(path)
        let ffmpeg = try Self.locate(for: path)
        let ext = (path as NSString).pathExtension.lowercased()
        let (muxer, codec) = Self.defaults[ext]!
        self.path = path
        self.y4m = y4m
        self.alpha = alpha
        temporaryPath = FileWriter.temporaryPath(for: path)
        StaleTemporaries.remove(besides: path)
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        let source = alpha
            ? ["-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(y4m.width)x\(y4m.height)", "-r", y4m.rate, "-i", "pipe:0"]
            : ["-f", "yuv4mpegpipe", "-i", "pipe:0"]
        let defaultCodec = alpha ? Self.alphaDefaults[ext] ?? codec : codec
        process.arguments = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"] + source
            + (ffmpegArguments ?? defaultCodec) + ["-f", muxer, temporaryPath]
        process.standardInput = input
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let done = errorDone
        signal(SIGPIPE, SIG_IGN)
        do {
            try process.run()
        } catch {
            throw JobError.failure("cannot start ffmpeg: \(error.localizedDescription)")
        }
        let reader = Thread { [unowned self] in
            self.errorOutput = errors.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        reader.start()
    }

    func register(with control: JobControl) {
        control.register(temporaryFile: temporaryPath)
        control.register(child: process.processIdentifier)
    }

    func encode(_ frame: Pixmap, knownOpaque: Bool) throws -> FramePayload {
        guard alpha else { return .bytes(y4m.frame(frame)) }
        return knownOpaque || frame.isOpaque ? .pixels(frame) : .bytes(StraightAlpha.bytes(of: frame))
    }

    func write(_ payload: FramePayload) throws {
        do {
            if !wroteHeader && !alpha {
                try input.fileHandleForWriting.write(contentsOf: y4m.header)
                wroteHeader = true
            }
            try payload.withBytes { try input.fileHandleForWriting.write(contentsOf: $0) }
        } catch {
            throw failure()
        }
    }

    /// What ffmpeg said, once it has exited.
    private func failure() -> JobError {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        errorDone.wait()
        errorDone.signal()
        unlink(temporaryPath)
        let said = String(decoding: errorOutput, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "no message"
        return JobError.failure("ffmpeg failed (exit \(process.terminationStatus)) writing '\(path)': \(said)")
    }

    func finish() throws {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        errorDone.wait()
        errorDone.signal()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { throw failure() }
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw JobError.failure("cannot write '\(path)': \(reason)")
        }
    }

    func abandon() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        unlink(temporaryPath)
    }
}
