import Foundation
import SegueCore
import SegueImageIO

/// A named tolerance for comparing two frames.
struct Tolerance: Sendable, CustomStringConvertible {
    let name: String
    /// Lowest PSNR over the RGBA channels, in dB (infinite for identical frames).
    let minPSNR: Double
    /// A pixel is "within" when every channel differs by at most this many levels...
    let maxLevelDiff: Int
    /// ...and at least this fraction of pixels must be within.
    let minFractionWithin: Double

    /// CPU frames against the recorded goldens: the compositor is deterministic, so only float rounding
    /// between compilers or machines may differ.
    static let golden = Tolerance(name: "golden", minPSNR: 50, maxLevelDiff: 1, minFractionWithin: 0.999)
    /// A frame at scale 2 box-filtered down to scale 1 against the frame drawn at scale 1: the same picture,
    /// differing only where edges and texture detail are sampled more finely.
    static let scaleIndependence = Tolerance(name: "scaleIndependence", minPSNR: 28, maxLevelDiff: 24, minFractionWithin: 0.97)

    var description: String {
        "\(name) (PSNR >= \(minPSNR) dB, >= \(minFractionWithin * 100)% of pixels within \(maxLevelDiff) levels)"
    }
}

/// How two frames of one size differ.
struct ImageDifference: Sendable {
    let psnr: Double
    let maxLevelDiff: Int
    let fractionWithin: Double
    let diff: Pixmap

    init(_ a: Pixmap, _ b: Pixmap, within levels: Int) {
        precondition(a.width == b.width && a.height == b.height)
        var squared = 0.0, worst = 0, within = 0
        var diff = Pixmap(width: a.width, height: a.height)
        for i in 0..<a.pixels.count {
            let p = a.pixels[i], q = b.pixels[i]
            var pixelWorst = 0
            for shift in stride(from: 0, to: 32, by: 8) {
                let d = abs(Int(p >> UInt32(shift) & 0xFF) - Int(q >> UInt32(shift) & 0xFF))
                squared += Double(d * d)
                pixelWorst = max(pixelWorst, d)
            }
            worst = max(worst, pixelWorst)
            if pixelWorst <= levels { within += 1 }
            // The diff image: black where equal, brighter red the larger the difference.
            let v = UInt32(min(255, pixelWorst * 8))
            diff.pixels[i] = Pixmap.pack(r: v, g: pixelWorst > levels ? 0 : v / 2, b: 0, a: 255)
        }
        let mse = squared / Double(max(1, a.pixels.count * 4))
        psnr = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
        maxLevelDiff = worst
        fractionWithin = Double(within) / Double(max(1, a.pixels.count))
        self.diff = diff
    }

    func passes(_ t: Tolerance) -> Bool { psnr >= t.minPSNR && fractionWithin >= t.minFractionWithin }

    var summary: String {
        String(format: "PSNR %.2f dB, max diff %d levels, %.3f%% of pixels within", psnr, maxLevelDiff, fractionWithin * 100)
    }
}

/// Golden images under `Tests/SegueCPUTests/Goldens`. Recorded only on purpose (`RECORD_GOLDENS=1`); a
/// mismatch writes `<name>.actual.png`, `<name>.diff.png` and `<name>.report.json` into
/// `.build/golden-failures/` and names them in the failure.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    static let failures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/golden-failures")

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
        let difference = ImageDifference(actual, expected, within: tolerance.maxLevelDiff)
        if difference.passes(tolerance) { return nil }
        return try report(name: name, actual: actual, difference: difference, tolerance: tolerance)
    }

    /// Writes the actual frame, the diff and a JSON report; returns the failure message.
    static func report(name: String, actual: Pixmap, difference: ImageDifference, tolerance: Tolerance) throws -> String {
        try FileManager.default.createDirectory(at: failures, withIntermediateDirectories: true)
        let base = failures.appendingPathComponent(name).path
        try FileWriter.writeAtomically(try PNGEncoder.encode(actual), to: base + ".actual.png")
        try FileWriter.writeAtomically(try PNGEncoder.encode(difference.diff), to: base + ".diff.png")
        let json: [String: Any] = [
            "name": name, "tolerance": tolerance.description, "psnr": difference.psnr.isFinite ? difference.psnr : 999,
            "maxLevelDiff": difference.maxLevelDiff, "fractionWithin": difference.fractionWithin,
        ]
        let data = try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
        try FileWriter.writeAtomically(Array(data), to: base + ".report.json")
        return "\(name): \(difference.summary), outside tolerance \(tolerance); wrote \(base).actual.png, .diff.png, .report.json"
    }
}
