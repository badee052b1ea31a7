import Foundation
import SegueCore
import SegueImageIO
import SegueTestSupport

/// Golden images under `Tests/SegueCPUTests/Goldens`, recorded only on purpose (`RECORD_GOLDENS=1`). A
/// mismatch writes `actual.png`, `expected.png`, `diff.png` and `report.json` under
/// `.build/test-failures/<name>/` and names them in the failure.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" }

    /// nil when `actual` matches the golden `name` within `tolerance`, else a message naming the files written.
    static func check(_ actual: Pixmap, name: String, tolerance: Tolerance) throws -> String? {
        let path = directory.appendingPathComponent(name + ".png").path
        if recording {
            try FileWriter.writeAtomically(try PNGEncoder.encode(actual, compressionLevel: 9), to: path)
            return nil
        }
        guard FileManager.default.fileExists(atPath: path) else {
            return "no golden '\(name).png'; record it on purpose with RECORD_GOLDENS=1 swift test"
        }
        let expected = try ImageDecoder.decode(contentsOf: path)
        guard expected.width == actual.width, expected.height == actual.height else {
            return "\(name): size \(actual.width)x\(actual.height) differs from the golden's \(expected.width)x\(expected.height)"
        }
        return compare(actual, expected, name: name, tolerance: tolerance)
    }

    /// nil when the two frames agree within `tolerance`, else a message naming the failure files written.
    static func compare(_ actual: Pixmap, _ expected: Pixmap, name: String, tolerance: Tolerance) -> String? {
        let comparison = ImageComparison(actual: actual, expected: expected, levels: tolerance.maxLevelDiff)
        if comparison.passes(tolerance) { return nil }
        let paths = FailureReport.write(name: name, actual: actual, expected: expected, comparison: comparison,
                                        tolerance: tolerance, context: [:])
        return "\(name): \(comparison), outside tolerance (\(tolerance)); wrote\n  \(paths)"
    }
}
