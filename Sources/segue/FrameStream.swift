import Foundation
import SegueCore
import SegueImageIO

/// An ordered stream of frames: `encode` runs on any worker thread, `write` on the pipeline's one writer
/// thread in frame order, then `finish` (complete: renamed into place, process waited for) or `abandon`
/// (partial output removed).
protocol FrameStream: AnyObject, Sendable {
    func encode(_ frame: Pixmap) throws -> [UInt8]
    func write(_ bytes: [UInt8]) throws
    func finish() throws
    func abandon()
}

/// Frames one after another (`rgba`: straight-alpha RGBA8; `y4m`: a YUV4MPEG2 stream; `png`: PNG files back
/// to back), to standard output or to a file that appears only when the stream is complete.
final class ByteStream: FrameStream, @unchecked Sendable {
    let format: OutputFormat
    let y4m: Y4M?
    let pngLevel: Int
    private let handle: FileHandle
    private let finalPath: String?
    private let temporaryPath: String?
    private var wroteHeader = false

    /// `path` "-" is standard output.
    init(path: String, format: OutputFormat, y4m: Y4M?, pngLevel: Int) throws {
        self.format = format
        self.y4m = y4m
        self.pngLevel = pngLevel
        var info = stat()
        if path == "-" {
            signal(SIGPIPE, SIG_IGN)
            handle = .standardOutput
            finalPath = nil
            temporaryPath = nil
        } else if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFDIR {
            // A device or a FIFO (/dev/null, a named pipe) is written in place: renaming over it would replace it.
            signal(SIGPIPE, SIG_IGN)
            guard let h = FileHandle(forWritingAtPath: path) else {
                throw CLIFailure.failure("cannot write '\(path)': \(String(cString: strerror(errno)))")
            }
            handle = h
            finalPath = nil
            temporaryPath = nil
        } else {
            let temp = FileWriter.temporaryPath(for: path)
            guard FileManager.default.createFile(atPath: temp, contents: nil),
                  let h = FileHandle(forWritingAtPath: temp) else {
                throw CLIFailure.failure("cannot write '\(path)': \(String(cString: strerror(errno)))")
            }
            handle = h
            finalPath = path
            temporaryPath = temp
        }
    }

    func encode(_ frame: Pixmap) throws -> [UInt8] {
        switch format {
        case .rgba: return frame.straightRGBA()
        case .y4m: return y4m!.frame(frame)
        case .png: return try PNGEncoder.encode(frame, compressionLevel: pngLevel)
        }
    }

    func write(_ bytes: [UInt8]) throws {
        if let y4m, !wroteHeader {
            try put(y4m.header)
            wroteHeader = true
        }
        try put(bytes)
    }

    private func put(_ bytes: [UInt8]) throws {
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            let what = finalPath.map { "'\($0)'" } ?? "standard output"
            throw CLIFailure.failure("writing to \(what) failed: \((error as NSError).localizedDescription)")
        }
    }

    func finish() throws {
        guard let finalPath, let temporaryPath else { return }
        try handle.close()
        guard rename(temporaryPath, finalPath) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw CLIFailure.failure("cannot write '\(finalPath)': \(reason)")
        }
    }

    func abandon() {
        guard let temporaryPath else { return }
        try? handle.close()
        unlink(temporaryPath)
    }
}
