import Foundation
import SegueCore
import Testing

/// `docs/reliability.md`'s table of limits states the numbers `Limits` holds: a limit changed in the code and
/// not in the document (or the other way) fails here.
@Suite struct LimitsDocumentTests {
    static let document: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/reliability.md"), encoding: .utf8)) ?? ""
    }()

    /// `n` with thousands separated by commas, as the document writes counts.
    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += "," }
            out.append(d)
        }
        return out
    }

    static func bytes(_ n: Int) -> String {
        n % (1 << 20) == 0 ? "\(n >> 20) MiB" : "\(n >> 10) KiB"
    }

    @Test("each row of the limits table states Limits' number", arguments: [
        ("| a shader file | \(bytes(Limits.maxShaderSourceBytes)) |", "maxShaderSourceBytes"),
        ("| a storyboard or drag track file | \(bytes(Limits.maxTextBytes)) |", "maxTextBytes"),
        ("| an effect file | \(bytes(Limits.maxEffectFileBytes)) |", "maxEffectFileBytes"),
        ("operations a transform | \(Limits.maxEffectLayers), \(Limits.maxEffectNames), \(Limits.maxEffectOptions), \(Limits.maxEffectChoices), \(Limits.maxEffectOperations) |",
         "maxEffectLayers, maxEffectNames, maxEffectOptions, maxEffectChoices, maxEffectOperations"),
        ("| an expression in an effect file | \(Limits.maxExpressionCharacters) characters |", "maxExpressionCharacters"),
        ("(`--max-pixels`, \(Limits.maxSide) x \(Limits.maxSide):", "maxPixels"),
        ("| steps in a timeline | \(grouped(Limits.maxSteps)) |", "maxSteps"),
        ("| frames in a job | \(grouped(Limits.maxFrames)) (", "maxFrames"),
        ("| a drag track's sample times | \(Limits.maxSeconds.compact) s |", "maxSeconds"),
        ("| frame rate | \(Limits.fps.lowerBound.compact) ... \(Limits.fps.upperBound.compact) frames/s |", "fps"),
        ("| a frame's side, and pixels per point | \(Limits.maxSide) pixels; scale \(Limits.maxScale.compact) |", "maxSide, maxScale"),
        ("| motion blur's samples a frame | \(Limits.maxMotionBlurSamples) |", "maxMotionBlurSamples"),
        ("| chunks of a job | \(grouped(Limits.maxChunks)) |", "maxChunks"),
    ])
    func rowStatesTheLimit(row: String, name: String) {
        #expect(Self.document.contains(row), "docs/reliability.md should say \(row) (Limits.\(name))")
    }
}
