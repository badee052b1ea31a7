import Foundation
import SegueCore
import SegueImageIO
import SegueSamples

/// The two snapshots of a transition at the output's pixel size, and the frame in points.
struct TransitionInputs {
    var from: Pixmap
    var to: Pixmap
    var frame: Size
    var scale: Double

    var snapshots: [Pixmap] { [from, to] }
    var snapshotInfo: [SnapshotInfo] { [SnapshotInfo(from), SnapshotInfo(to)] }

    /// Reads `from` and `to` (a PNG or JPEG path, or `sample:home` / `sample:detail`), settles the output's
    /// pixel size (`size`, else `from`'s) and resamples both images to it where they differ.
    static func load(from fromPath: String, to toPath: String, size: (Int, Int)?, scale: Double,
                     maxPixels: Int) throws -> TransitionInputs {
        let from = try image(fromPath, size: size, maxPixels: maxPixels)
        let (width, height) = size ?? (from.width, from.height)
        let to = try image(toPath, size: (width, height), maxPixels: maxPixels)
        func fit(_ p: Pixmap) -> Pixmap {
            p.width == width && p.height == height ? p : Resampler.resample(p, width: width, height: height)
        }
        return TransitionInputs(from: fit(from), to: fit(to),
                                frame: Size(Double(width) / scale, Double(height) / scale), scale: scale)
    }

    /// An image file, or a built-in sample screen drawn at `size` (375x667 when there is none).
    static func image(_ path: String, size: (Int, Int)?, maxPixels: Int) throws -> Pixmap {
        if path.hasPrefix("sample:") {
            let (w, h) = size ?? (375, 667)
            switch path.dropFirst("sample:".count) {
            case "home": return SampleScreens.home(width: Double(w), height: Double(h))
            case "detail": return SampleScreens.detail(width: Double(w), height: Double(h))
            default: throw CLIFailure.usage("unknown sample '\(path)' (use sample:home or sample:detail)")
            }
        }
        do {
            return try ImageDecoder.decode(contentsOf: path, maxPixels: maxPixels)
        } catch let error as ImageIOError {
            throw CLIFailure.failure(error.description)
        }
    }
}
