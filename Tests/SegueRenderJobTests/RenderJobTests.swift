import Foundation
import SegueCore
import SegueCPU
import SegueImageIO
import SegueRender
import SegueSamples
import SegueTestSupport
import Testing

/// The job library, as another Swift program uses it.
@Suite struct RenderJobTests {
    /// A job's frame is the renderer's picture of the transition's scene at that progress, drawn directly.
    @Test(arguments: [Effect.door, .pageFlip, .sheet])
    func aJobDrawsWhatTheRendererDrawsForTheScene(_ effect: Effect) throws {
        let transition = Transition(effect)
        var job = RenderJob(transition, from: "sample:home", to: "sample:detail", output: .frames(directory: "unused"))
        job.progress = [0.3]
        let renderer = CPUCompositor(threads: 2)
        let frames = try job.frames(renderer: renderer)

        let snapshots = [SampleScreens.home(), SampleScreens.detail()]
        try renderer.load(snapshots: snapshots)
        let direct = try renderer.render(DrawList(scene: transition.scene(at: 0.3, frame: SampleScreens.defaultSize, scale: 1),
                                                  scale: 1, snapshots: snapshots.map(SnapshotInfo.init)))
        #expect(frames.count == 1)
        #expect(frames.first?.pixels == direct.pixels)
    }

    /// `segue render`'s job of one step and a storyboard of that step write the same files.
    @Test func aTransitionJobAndAStoryboardOfItsStepWriteTheSameFrames() throws {
        let dir = try temporaryDirectory("job")
        defer { try? FileManager.default.removeItem(at: dir) }
        let door = Transition(.door, duration: 0.3)
        var single = RenderJob(door, from: "sample:home", to: "sample:detail", fps: 30,
                               output: .frames(directory: dir.appendingPathComponent("a").path))
        single.backend = .cpu
        let summary = try single.run()
        #expect(summary.rendered == 10 && summary.renderer == "cpu")

        let story = dir.appendingPathComponent("story.json")
        try Data("""
            {"fps": 30, "screens": {"home": "sample:home", "detail": "sample:detail"},
             "timeline": [{"transition": "door", "from": "home", "to": "detail", "duration": 0.3}]}
            """.utf8).write(to: story)
        var board = try RenderJob(storyboardFile: story.path, output: .frames(directory: dir.appendingPathComponent("b").path))
        board.backend = .cpu
        try board.run()
        let names = try frameDirectoryNames(atPath: dir.appendingPathComponent("a").path).sorted()
        #expect(names.count == 10)
        #expect(try frameDirectoryNames(atPath: dir.appendingPathComponent("b").path).sorted() == names)
        for name in names {
            let a = try Data(contentsOf: dir.appendingPathComponent("a/\(name)"))
            let b = try Data(contentsOf: dir.appendingPathComponent("b/\(name)"))
            #expect(a == b, "\(name) differs")
        }
    }

    /// Every problem of a storyboard file comes back at once, at its JSON path, before anything is written.
    @Test func problemsAreReportedTogetherBeforeAnythingIsWritten() throws {
        let dir = try temporaryDirectory("job")
        defer { try? FileManager.default.removeItem(at: dir) }
        let story = dir.appendingPathComponent("story.json")
        try Data("""
            {"screens": {"a": "missing.png", "b": "sample:detail"},
             "timeline": [{"transition": "door", "from": "a", "to": "b", "options": {"zoom": -1}}]}
            """.utf8).write(to: story)
        let out = dir.appendingPathComponent("frames")
        let job = try RenderJob(storyboardFile: story.path, output: .frames(directory: out.path))
        #expect {
            try job.run()
        } throws: { error in
            guard let e = error as? SegueError else { return false }
            let lines = e.message.split(separator: "\n")
            return e.kind == .invalidInput(path: story.path) && e.isUsageError && lines.count == 2 && lines[0].contains("$.screens.a")
                && lines[1].contains("$.timeline[0].options.zoom: zoom must be > 0")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A cancelled job stops before its next frame and leaves no partial stream.
    @Test func aCancelledJobThrowsInterruptedAndLeavesNothing() throws {
        let dir = try temporaryDirectory("job")
        defer { try? FileManager.default.removeItem(at: dir) }
        let stream = dir.appendingPathComponent("out.rgba").path
        var job = RenderJob(Transition(.fade), from: "sample:home", to: "sample:detail",
                            output: .stream(stream, format: .rgba))
        job.backend = .cpu
        let flag = JobControl()
        flag.cancel()
        #expect(throws: SegueError.interrupted) { try job.run(control: flag) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    /// The effects' files are the one source of their options: every option is documented, and read the
    /// same from the command line's text and from a storyboard's JSON.
    @Test func everyOptionIsDocumentedAndReadAlikeFromTextAndJSON() throws {
        let docs = try String(contentsOfFile: #filePath.replacingOccurrences(of: "Tests/SegueRenderJobTests/RenderJobTests.swift", with: "docs/effects.md"), encoding: .utf8)
        for effect in EffectCatalog.builtIn {
            for option in effect.options {
                #expect(docs.contains("--\(option.name)"), "docs/effects.md does not mention --\(option.name) (\(effect.name))")
            }
        }
        let samples: [(Effect, String, String, Any)] = [
            (.door, "zoom", "0.5", 0.5), (.circleSpread, "center", "10,-20", [10, -20]),
            (.hero, "from-rect", "1,2,3,4", [1, 2, 3, 4]), (.circleZoom, "color", "FF0000", "FF0000"),
        ]
        for (effect, name, text, json) in samples {
            let option = try #require(effect.option(name))
            let fromText = option.parse(text)
            #expect(fromText != nil && fromText == option.parse(json: json))
            #expect(fromText?.description == text)
        }
    }
}

/// What a job left in an output directory, less `.segue` (its lock and manifest).
private func frameDirectoryNames(atPath path: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).filter { $0 != ".segue" }
}
