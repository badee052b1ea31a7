import Foundation
import SegueCore
import SegueRender
import Testing

/// Motion blur: a frame is the mean of its shutter samples, at t_k + (i + 0.5) / N * (shutter / 360) / fps.
@Suite(.serialized) struct MotionBlurTests {
    /// A linear door of 1 s at 10 fps (progress = time), 60x100 pixels.
    static func job(_ backend: BackendChoice, blur: MotionBlur?, progress: [Double]? = nil) -> RenderJob {
        var job = RenderJob(Transition(.door, curve: .linear, duration: 1), from: "sample:home", to: "sample:detail",
                            fps: 10, size: (60, 100), output: .frames(directory: "unused"))
        job.backend = backend
        job.storyboard.motionBlur = blur
        job.progress = progress
        return job
    }

    /// The mean of `frames`, each channel rounded to nearest.
    static func mean(_ frames: [Pixmap]) -> [UInt8] {
        let n = frames.count
        var sums = [Int](repeating: 0, count: frames[0].byteCount)
        for f in frames {
            f.pixels.withUnsafeBytes { b in for i in 0..<b.count { sums[i] += Int(b[i]) } }
        }
        return sums.map { UInt8(($0 + n / 2) / n) }
    }

    static func bytes(_ p: Pixmap) -> [UInt8] { p.pixels.withUnsafeBytes { Array($0) } }

    @Test(arguments: [BackendChoice.cpu, .gles])
    func aBlurredFrameIsTheMeanOfItsShutterSamples(_ backend: BackendChoice) throws {
        let blur = MotionBlur(samples: 8, shutter: 180)
        let blurred = try Self.job(backend, blur: blur).frames()
        #expect(blurred.count == 11)
        for k in [3, 10] {
            // The samples of frame k, drawn one by one as frames at those progress values (clamped at the end).
            let times = (0..<8).map { min(Double(k) / 10 + (Double($0) + 0.5) / 8 * 0.5 / 10, 1) }
            let samples = try Self.job(backend, blur: nil, progress: times).frames()
            let expected = Self.mean(samples), got = Self.bytes(blurred[k])
            let worst = zip(expected, got).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "\(backend) frame \(k): off by \(worst)")
            if k == 3 { #expect(got != Self.bytes(samples[0]), "the blur changes the picture") }
        }
        // --progress with motion blur opens the shutter at that progress (progress moves 1/duration per second).
        let one = try Self.job(backend, blur: blur, progress: [0.3]).frames()
        let worst = zip(Self.bytes(one[0]), Self.bytes(blurred[3])).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1)
    }

    @Test func theScheduleMapsSampleTimesToStepProgress() throws {
        let board = Storyboard(fps: 10, screens: ["a": "sample:home", "b": "sample:detail"],
                               timeline: [.hold(screen: "a", duration: 0.5),
                                          .transition(Transition(.fade, curve: .linear, duration: 1), from: "a", to: "b")])
        let schedule = board.schedule
        #expect(schedule.frame(atTime: 0.75) == .init(index: 0, step: 1, t: 0.25))
        #expect(schedule.frame(atTime: 0.2) == .init(index: 0, step: 0, t: 0))
        #expect(schedule.frame(atTime: 9).t == 1)  // clamped at the timeline's end
        let samples = schedule.samples(of: 10, motionBlur: MotionBlur(samples: 4, shutter: 360))
        #expect(samples.map(\.step) == [1, 1, 1, 1])
        #expect(zip(samples.map(\.t), [0.5125, 0.5375, 0.5625, 0.5875]).allSatisfy { abs($0 - $1) < 1e-9 })
        // Samples stay in the frame's step: the last frame's are all at its end.
        #expect(schedule.samples(of: 15, motionBlur: MotionBlur(samples: 3)).map(\.t) == [1, 1, 1])
    }

    @Test func storyboardsCarryMotionBlurAtTheTopAndPerStep() throws {
        let json = """
            {"screens": {"a": "sample:home", "b": "sample:detail"}, "motionBlur": {"samples": 4},
             "timeline": [{"hold": "a", "duration": 0.2},
                          {"transition": "fade", "from": "a", "to": "b", "motionBlur": {"samples": 16, "shutter": 90}},
                          {"transition": "door", "from": "b", "to": "a"}]}
            """
        let parsed = Storyboard.parse(json: Data(json.utf8), loadTrack: { _ in "" })
        #expect(parsed.problems.isEmpty, "\(parsed.problems)")
        #expect(parsed.storyboard.motionBlur(ofStep: 0) == nil)
        #expect(parsed.storyboard.motionBlur(ofStep: 1) == MotionBlur(samples: 16, shutter: 90))
        #expect(parsed.storyboard.motionBlur(ofStep: 2) == MotionBlur(samples: 4, shutter: 180))
        let bad = Storyboard.parse(json: Data(json.replacingOccurrences(of: "\"shutter\": 90", with: "\"shutter\": 400").utf8), loadTrack: { _ in "" })
        #expect(bad.problems.map(\.description).contains { $0.contains("$.timeline[1].motionBlur.shutter") }, "\(bad.problems)")
    }
}
