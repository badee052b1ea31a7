import Foundation
import SegueCore
import SegueRender
import SegueTestSupport
import Testing

/// The public API driven with hostile values, as a program might set them: NaN, infinities, negatives, huge
/// numbers, names of screens that are not there, empty lists. Every one is a `SegueError` from `run`,
/// `frames` and `frameStream` alike, never a trap (before the library checked them, NaN or huge scales trapped
/// in `Int(...)`, negative sizes in `Pixmap`, a step naming a missing screen in a force-unwrap).
@Suite struct HostileAPITests {
    static let numbers: [Double] = [.nan, .infinity, -.infinity, -1, 0, 1e300, -1e300]

    /// A one-step job of the door between the sample screens, changed by `change`.
    static func job(_ change: (inout RenderJob) -> Void) -> RenderJob {
        var job = RenderJob(Transition(.door, duration: 0.1), from: "sample:home", to: "sample:detail", fps: 10,
                            size: (40, 70), output: .frames(directory: NSTemporaryDirectory() + "segue-hostile-\(getpid())"))
        job.backend = .cpu
        change(&job)
        return job
    }

    static var hostileJobs: [(String, RenderJob)] {
        var jobs: [(String, RenderJob)] = []
        for x in numbers {
            jobs.append(("fps \(x)", job { $0.storyboard.fps = x }))
            jobs.append(("scale \(x)", job { $0.storyboard.scale = x; $0.storyboard.size = nil }))
            jobs.append(("duration \(x)", job { $0.storyboard.timeline = [.hold(screen: "from", duration: x)] }))
            if !(0...1).contains(x) { jobs.append(("progress \(x)", job { $0.progress = [x] })) }
        }
        for size in [(-1, 70), (40, -5), (0, 0), (Int.max, 1), (1, Int.min), (100_000, 100_000)] {
            jobs.append(("size \(size)", job { $0.storyboard.size = (size.0, size.1) }))
        }
        jobs.append(("a missing screen", job { $0.storyboard.timeline = [.transition(Transition(.door), from: "from", to: "nowhere")] }))
        jobs.append(("a missing hold", job { $0.storyboard.timeline = [.hold(screen: "ghost", duration: 1)] }))
        jobs.append(("no screens", job { $0.storyboard.screens = [:] }))
        jobs.append(("no steps", job { $0.storyboard.timeline = [] }))
        jobs.append(("no progress values", job { $0.progress = [] }))
        jobs.append(("no outputs", job { $0.outputs = [] }))
        jobs.append(("a partly transparent background", job { $0.storyboard.background = Color(red: 1, green: 0, blue: 0, alpha: 0.5) }))
        jobs.append(("a NaN background", job { $0.storyboard.background = Color(red: 1, green: 0, blue: 0, alpha: .nan) }))
        jobs.append(("a missing image", job { $0.storyboard.screens["from"] = "memory:none" }))
        return jobs
    }

    @Test func everyHostileValueIsASegueError() throws {
        for (what, job) in Self.hostileJobs {
            // `run` and `frames` are typed `throws(SegueError)`: what matters is that they throw, not trap.
            do {
                try job.run()
                Issue.record("\(what): run rendered")
            } catch {
                #expect(!error.message.isEmpty, "\(what)")
            }
            do {
                _ = try job.frames()
                // A job with no outputs still renders into memory.
                if what != "no outputs" { Issue.record("\(what): frames rendered") }
            } catch {
                #expect(!error.message.isEmpty, "\(what)")
            }
        }
    }

    @Test func everyHostileValueIsASegueErrorFromTheAsyncAPI() async throws {
        for (what, job) in Self.hostileJobs {
            do {
                try await job.run()
                Issue.record("\(what): the async run rendered")
            } catch {
                #expect(!error.message.isEmpty, "\(what)")
            }
            do {
                for try await _ in job.frameStream() {}
                if what != "no outputs" { Issue.record("\(what): frameStream rendered") }
            } catch {
                #expect(error is SegueError, "\(what): frameStream threw \(type(of: error)): \(error)")
            }
        }
    }
}
