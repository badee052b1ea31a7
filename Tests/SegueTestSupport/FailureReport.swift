import Foundation
import SegueCore
import SegueImageIO

/// What a failed comparison leaves behind: `actual.png`, `expected.png`, `diff.png` and `report.json` under
/// `.build/test-failures/<name>/` (ignored by git), so the failure message can point at them.
public enum FailureReport {
    public static var root: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/test-failures").path
    }

    /// Writes the artefacts of one mismatch and returns the paths written (or why writing failed).
    public static func write(name: String, actual: Pixmap, expected: Pixmap, comparison: ImageComparison,
                      tolerance: Tolerance, context: [String: String]) -> String {
        let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" })
        let directory = root + "/" + safe
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            var paths: [String] = []
            for (file, image) in [("actual.png", actual), ("expected.png", expected),
                                  ("diff.png", ImageComparison.diffImage(actual: actual, expected: expected))] {
                let path = directory + "/" + file
                try FileWriter.writeAtomically(try PNGEncoder.encode(image), to: path)
                paths.append(path)
            }
            var report: [String: Any] = [
                "test": name, "width": comparison.width, "height": comparison.height,
                "psnr": comparison.psnr.isInfinite ? "inf" : String(format: "%.2f", comparison.psnr),
                "maxDiff": comparison.maxDiff, "fractionWithin": comparison.fractionWithin,
                "worstPixel": [comparison.worstPixel.x, comparison.worstPixel.y],
                "tolerance": ["minPSNR": tolerance.minPSNR.isInfinite ? "inf" : tolerance.minPSNR as Any, "maxLevelDiff": tolerance.maxLevelDiff,
                              "minFractionWithin": tolerance.minFractionWithin],
            ]
            for (k, v) in context { report[k] = v }
            let json = try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys])
            let path = directory + "/report.json"
            try FileWriter.writeAtomically([UInt8](json), to: path)
            paths.append(path)
            return paths.joined(separator: "\n  ")
        } catch {
            return "(could not write the failure images to \(directory): \(error))"
        }
    }
}
