import Foundation
import SegueCore
import SegueImageIO
import SegueRender
import SegueTestSupport
import Testing

/// A program that builds a job in code gets the checks the command line makes, as `SegueError` cases it can
/// switch on, with their data, and messages that name no command-line flag.
@Suite struct LibraryErrorTests {
    /// The error `body` throws, as a `SegueError` (nil when it throws none, or another type).
    static func error(_ body: () throws -> Void) -> SegueError? {
        do { try body(); return nil } catch let error as SegueError { return error } catch { return nil }
    }

    /// No library message tells the caller to use a flag it never typed.
    static func namesNoFlag(_ error: SegueError?) -> Bool {
        guard let error else { return false }
        return error.message.range(of: "--[a-z]", options: .regularExpression) == nil
    }

    /// An image output holds one frame: a job of many frames writing one is an error, not PNGs end to end.
    @Test func anImageOutputOfAJobOfManyFramesIsRefused() throws {
        let dir = try temporaryDirectory("errors")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("one.png").path
        var job = RenderJob(Transition(.fade, duration: 0.5), from: "sample:home", to: "sample:detail", fps: 30,
                            output: .image(path))
        job.backend = .cpu
        let error = Self.error { try job.run() }
        #expect(error?.kind == .invalidOption(effect: nil, option: "output", value: path), "\(String(describing: error))")
        #expect(error?.isUsageError == true && Self.namesNoFlag(error))
        #expect(!FileManager.default.fileExists(atPath: path))
        // With one progress value the same job writes its image.
        job.progress = [0.5]
        try job.run()
        #expect(FileManager.default.fileExists(atPath: path))
    }

    /// A progress outside 0...1 is an invalid option, for frames to a file or in memory.
    @Test(arguments: [1.5, -0.1, Double.nan])
    func progressOutsideTheUnitIntervalIsRefused(_ progress: Double) {
        var job = RenderJob(Transition(.fade), from: "sample:home", to: "sample:detail", output: .frames(directory: "unused"))
        job.backend = .cpu
        job.progress = [0.5, progress]
        let error = Self.error { _ = try job.frames() }
        #expect(error?.kind == .invalidOption(effect: nil, option: "progress", value: progress.compact), "\(String(describing: error))")
        #expect(error?.isUsageError == true && Self.namesNoFlag(error))
    }

    /// A storyboard parsed from a string with problems fails with its problems, one a line, rendering nothing.
    @Test func aParsedStoryboardWithProblemsFailsWithThem() throws {
        let json = #"{"screens": {"a": "sample:home", "b": "sample:detail"}, "timeline": [{"transition": "nope", "from": "a", "to": "b"}, {"transition": "door", "from": "a", "to": "c"}]}"#
        let parsed = Storyboard.parse(json: Data(json.utf8), loadTrack: { _ in "" })
        #expect(parsed.problems.count == 2)
        let dir = try temporaryDirectory("errors")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("frames").path
        var job = RenderJob(storyboard: parsed.storyboard, output: .frames(directory: out))
        job.parseProblems = parsed.problems
        job.stepPaths = parsed.stepPaths
        job.backend = .cpu
        let error = Self.error { try job.run() }
        #expect(error?.kind == .invalidInput(path: nil), "\(String(describing: error))")
        #expect(error?.lines == parsed.problems.map(\.description))
        #expect(error?.isUsageError == true)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A screen file that does not exist is `.inputUnreadable` with its path.
    @Test func aMissingScreenIsAnUnreadableInputWithItsPath() throws {
        let dir = try temporaryDirectory("errors")
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("missing.png").path
        var job = RenderJob(Transition(.fade), from: missing, to: "sample:detail", output: .frames(directory: dir.appendingPathComponent("out").path))
        job.backend = .cpu
        let error = Self.error { try job.run() }
        #expect(error?.kind == .inputUnreadable(path: missing), "\(String(describing: error))")
        #expect(error?.isUsageError == false && Self.namesNoFlag(error))
    }

    /// A custom shader step on the CPU backend is unsupported there, whether the backend is chosen or given.
    @Test func aCustomShaderOnTheCPUIsUnsupported() throws {
        let shader = try #require(ShaderLibrary.shipped.first).transition
        let step = Storyboard.Step.shader(ShaderStep(transition: shader, values: shader.defaults), from: "a", to: "b")
        var job = RenderJob(storyboard: Storyboard(screens: ["a": "sample:home", "b": "sample:detail"], timeline: [step]),
                            output: .frames(directory: "unused"))
        job.progress = [0.5]
        job.backend = .cpu
        let chosen = Self.error { _ = try job.frames() }
        #expect(chosen?.kind == .unsupported(backend: "cpu"), "\(String(describing: chosen))")
        #expect(chosen?.isUsageError == true && Self.namesNoFlag(chosen))
    }

    /// Errors of the modules under the library (a codec's, a chunk's) leave it as `SegueError` cases.
    @Test func moduleErrorsAreClassified() {
        #expect(SegueError(classifying: ImageIOError.unreadable(path: "a.png", reason: "no such file"))?.kind == .inputUnreadable(path: "a.png"))
        #expect(SegueError(classifying: ImageIOError.tooManyPixels(path: "a.png", width: 9, height: 9, limit: 4))?.kind == .resourceLimit(name: "maxPixels"))
        #expect(SegueError(classifying: ChunkedVideo.Problem.joining(path: "v.mp4", holder: "pid 1"))?.kind == .outputInUse(path: "v.mp4", byRunningJob: true))
        #expect(SegueError(classifying: CocoaError(.fileNoSuchFile)) == nil)
    }
}

/// A storyboard a program holds as text.
@Suite struct StoryboardTextTests {
    @Test func aStoryboardFromTextRendersItsTimeline() throws {
        let text = """
        {"fps": 10, "size": [30, 54], "screens": {"a": "sample:home", "b": "sample:detail"},
         "timeline": [{"hold": "a", "duration": 0.2}, {"transition": "fade", "from": "a", "to": "b", "duration": 0.3}]}
        """
        var job = RenderJob(storyboardJSON: text, output: .frames(directory: "unused"))
        job.backend = .cpu
        let frames = try job.frames()
        #expect(frames.count == job.storyboard.schedule.count && frames.count >= 5)
        #expect(frames.allSatisfy { $0.width == 30 && $0.height == 54 })
    }

    @Test func aStoryboardFromTextWithProblemsFailsWithEachOfThem() throws {
        let text = """
        {"fps": 0, "screens": {"a": "sample:home"}, "timeline": [{"hold": "b", "duration": 0.2}]}
        """
        var job = RenderJob(storyboardJSON: text, output: .frames(directory: "unused"))
        job.backend = .cpu
        #expect { try job.frames() } throws: { error in
            guard let error = error as? SegueError, case .invalidInput = error.kind else { return false }
            return error.lines.count >= 2
        }
    }
}
