import Foundation

/// One measured figure: the median over repeated runs of one sequence, with the spread.
struct Measurement: Codable {
    var effect: String
    var width: Int
    var height: Int
    var scale: Double
    /// `cpu`, `gles`, `pixman`, `ffmpeg-xfade`, `chromium`, `copy`, `pipeline`, `png-libspng`, `png-segue`, `end-to-end`.
    var backend: String
    var threads: Int
    /// `draw`, `readback`, `draw+readback`, `draw+readback+png`, `copy`; the Chromium peer's `frame+screenshot`,
    /// `start-up` and `skipped` (its note says why; no figure).
    var stage: String
    var msPerFrame: Double
    var msMin: Double
    var msMax: Double
    var runs: Int
    var frames: Int
    var note: String?
    /// Bytes written, where the figure is about output size (PNG encoders, frames on disk).
    var bytes: Int? = nil

    var framesPerSecond: Double { 1000 / msPerFrame }
    var megapixelsPerSecond: Double { Double(width * height) / msPerFrame / 1000 }
}

/// Runs `body` (which does `frames` frames of work) `runs` times after one warm-up and returns
/// (median, min, max) milliseconds per frame. A run repeats `body` until it has taken `minimumRun` seconds:
/// eight frames of a small effect take a few milliseconds, where a thread's wake-up or a tick of the
/// machine's other load is a large part of the figure (the pixman peer runs the same way).
func time(runs: Int, frames: Int, minimumRun: Double = 0.1, _ body: () throws -> Void) rethrows -> (Double, Double, Double) {
    try body()
    var perFrame: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        var passes = 0, elapsed = 0.0
        repeat {
            try body()
            passes += 1
            elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        } while elapsed < minimumRun
        perFrame.append(elapsed * 1000 / Double(frames * passes))
    }
    perFrame.sort()
    return (perFrame[perFrame.count / 2], perFrame.first!, perFrame.last!)
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s[s.count / 2]
}
