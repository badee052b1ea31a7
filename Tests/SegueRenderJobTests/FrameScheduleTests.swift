import Foundation
import SegueCore
import Testing

/// The one frame schedule: frame k of a timeline at k / fps, on step boundaries the later step.
@Suite struct FrameScheduleTests {
    /// The rule written out plainly: walk the steps until the time is before a step's end.
    static func reference(_ durations: [Double], fps: Double, k: Int) -> (step: Int, local: Double) {
        let time = Double(k) / fps
        var start = 0.0
        for (i, d) in durations.enumerated() {
            if time < start + d || i == durations.count - 1 { return (i, time - start) }
            start += d
        }
        fatalError("no steps")
    }

    @Test(arguments: [1, 2, 7, 300])
    func binarySearchFindsTheStepALinearWalkFinds(_ steps: Int) {
        var generator = SystemRandomNumberGenerator()
        let durations = (0..<steps).map { _ in [0.1, 0.25, 1.0 / 3, 0.5, 2][Int.random(in: 0..<5, using: &generator)] }
        let board = Storyboard(fps: 30, screens: ["a": "sample:home"],
                               timeline: durations.map { .hold(screen: "a", duration: $0) })
        let schedule = board.schedule
        #expect(schedule.count == Int((durations.reduce(0, +) * 30).rounded()) + 1)
        for k in 0..<schedule.count {
            #expect(schedule.frame(k).step == Self.reference(durations, fps: 30, k: k).step, "frame \(k)")
        }
    }

    @Test func transitionProgressIsTheFractionOfItsDurationClamped() {
        let door = Transition(.door, duration: 0.5)
        let board = Storyboard(fps: 30, screens: ["a": "sample:home", "b": "sample:detail"],
                               timeline: [.hold(screen: "a", duration: 0.2), .transition(door, from: "a", to: "b")])
        let schedule = board.schedule
        // 0.7 s at 30 fps: frames 0 ... 21; frame 6 (0.2 s) starts the door.
        #expect(schedule.count == 22)
        #expect(schedule.frame(5).step == 0 && schedule.frame(5).t == 0)
        #expect(schedule.frame(6).step == 1)
        #expect(abs(schedule.frame(12).t - (12.0 / 30 - 0.2) / 0.5) < 1e-12)
        #expect(schedule.frame(21).t == 1)
    }

    @Test func progressSamplesAreFramesOfTheFirstStep() {
        let schedule = FrameSchedule(progress: [0.5, 0, 1])
        #expect(schedule.count == 3)
        #expect(schedule.frame(0) == .init(index: 0, step: 0, t: 0.5))
        #expect(schedule.runs().map(\.frames.count) == [3])
    }

    @Test func shardsPartitionTheFramesAndRunsStayInOneStep() throws {
        let board = Storyboard(fps: 10, screens: ["a": "sample:home"],
                               timeline: [.hold(screen: "a", duration: 1), .hold(screen: "a", duration: 0.55)])
        let schedule = board.schedule
        let all = try (0..<4).flatMap { i in try schedule.runs(shard: Shard(index: i, count: 4)).flatMap { $0.frames.map(\.index) } }
        #expect(all.sorted() == Array(0..<schedule.count))
        for run in schedule.runs() { #expect(run.frames.allSatisfy { $0.step == run.step }) }
    }
}
