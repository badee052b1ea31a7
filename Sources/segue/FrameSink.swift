import Foundation
import SegueCore
import SegueImageIO

/// Where rendered frames go. Every file is written under a temporary name and renamed when complete.
protocol FrameSink {
    mutating func write(_ frame: Pixmap, index: Int) throws
    /// Called once after the last frame; a stream written to a file is renamed into place here.
    mutating func finish() throws
    /// Called when the job fails or is interrupted: removes anything partial.
    mutating func abandon()
}

/// Output formats of `--format`.
enum OutputFormat: String, CaseIterable {
    case png, rgba, y4m
}

/// One PNG file per frame, `frame_00000.png` ... in a directory (or one named file for a single frame).
struct PNGFilesSink: FrameSink {
    let directory: String?
    let singleFile: String?
    let compressionLevel: Int

    static func fileName(_ index: Int) -> String { String(format: "frame_%05d.png", index) }

    func write(_ frame: Pixmap, index: Int) throws {
        let path = singleFile ?? (directory! as NSString).appendingPathComponent(Self.fileName(index))
        let bytes = try PNGEncoder.encode(frame, compressionLevel: compressionLevel)
        try FileWriter.writeAtomically(bytes, to: path)
    }

    func finish() throws {}
    func abandon() {}
}

/// Raw frames one after another (`rgba`: straight-alpha RGBA8; `y4m`: a YUV4MPEG2 stream; `png`: PNG files
/// back to back), to standard output or to a file that appears only when the stream is complete.
struct StreamSink: FrameSink {
    let format: OutputFormat
    let y4m: Y4M?
    let compressionLevel: Int
    private let handle: FileHandle
    private let finalPath: String?
    private let temporaryPath: String?
    private var wroteHeader = false

    /// `path` "-" is standard output.
    init(path: String, format: OutputFormat, y4m: Y4M?, compressionLevel: Int) throws {
        self.format = format
        self.y4m = y4m
        self.compressionLevel = compressionLevel
        if path == "-" {
            signal(SIGPIPE, SIG_IGN)
            handle = .standardOutput
            finalPath = nil
            temporaryPath = nil
        } else {
            let url = URL(fileURLWithPath: path)
            let temp = url.deletingLastPathComponent()
                .appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())").path
            guard FileManager.default.createFile(atPath: temp, contents: nil),
                  let h = FileHandle(forWritingAtPath: temp) else {
                throw CLIFailure.failure("cannot write '\(path)': \(String(cString: strerror(errno)))")
            }
            handle = h
            finalPath = path
            temporaryPath = temp
        }
    }

    mutating func write(_ frame: Pixmap, index: Int) throws {
        if let y4m, !wroteHeader {
            try put(y4m.header)
            wroteHeader = true
        }
        switch format {
        case .rgba: try put(frame.straightRGBA())
        case .y4m: try put(y4m!.frame(frame))
        case .png: try put(try PNGEncoder.encode(frame, compressionLevel: compressionLevel))
        }
    }

    private func put(_ bytes: [UInt8]) throws {
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            let what = finalPath.map { "'\($0)'" } ?? "standard output"
            throw CLIFailure.failure("writing to \(what) failed: \((error as NSError).localizedDescription)")
        }
    }

    mutating func finish() throws {
        guard let finalPath, let temporaryPath else { return }
        try handle.close()
        guard rename(temporaryPath, finalPath) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw CLIFailure.failure("cannot write '\(finalPath)': \(reason)")
        }
    }

    mutating func abandon() {
        guard let temporaryPath else { return }
        try? handle.close()
        unlink(temporaryPath)
    }
}
