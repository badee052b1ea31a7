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
