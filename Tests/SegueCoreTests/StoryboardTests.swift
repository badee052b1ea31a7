import Foundation
import Testing
@testable import SegueCore

@Suite struct StoryboardTests {
    static let example = """
        {"fps": 30, "scale": 2, "screens": {"home": "home.png", "detail": "detail.png"},
         "timeline": [{"hold": "home", "duration": 0.5},
                      {"transition": "circle-spread", "from": "home", "to": "detail", "duration": 0.5,
                       "curve": "ease-in-out", "direction": "forward", "options": {"center": [110, 150]}},
                      {"hold": "detail", "duration": 0.3}],
         "output": {"frames": "frames/", "video": "story.mp4"}}
        """

    func parse(_ json: String, tracks: [String: String] = [:]) -> Storyboard.Parsed {
        Storyboard.parse(json: Data(json.utf8)) { name in
            guard let text = tracks[name] else { throw SegueError.failed("cannot read '\(name)'") }
            return text
        }
    }

    @Test func readsTheIssueExample() throws {
        let parsed = parse(Self.example)
        #expect(parsed.problems == [])
        let board = parsed.storyboard
        #expect(board.fps == 30 && board.scale == 2)
        #expect(board.screens == ["home": "home.png", "detail": "detail.png"])
        #expect(board.output == .init(frames: "frames/", video: "story.mp4"))
        #expect(board.timeline.count == 3)
        guard case let .transition(t, from, to) = board.timeline[1] else { Issue.record("not a transition"); return }
        #expect(t.effect == .circleSpread && t.curve == .easeInOut && t.duration == 0.5 && from == "home" && to == "detail")
        #expect(t.options["center"] == .point(Point(110, 150)))
        // 1.3 s at 30 fps: frames 0 ... 39.
        #expect(board.schedule.count == 40)
        #expect(board.problems(frame: Size(187.5, 333.5)) == [])
    }

    @Test func framesFallInTheirSteps() throws {
        let board = parse(Self.example).storyboard.schedule
        #expect(board.frame(0) == .init(index: 0, step: 0, t: 0))
        #expect(board.frame(14).step == 0)
        #expect(board.frame(15) == .init(index: 15, step: 1, t: 0))
        let mid = board.frame(22)
        #expect(mid.step == 1 && abs(mid.t - 7.0 / 15) < 1e-9)
        #expect(board.frame(30).step == 2)
        #expect(board.frame(39).step == 2)
        // Shards partition the frames; runs group consecutive frames of one step.
        let all = (0..<3).flatMap { i in board.runs(shard: try! Shard(index: i, count: 3)).flatMap { $0.frames.map(\.index) } }
        #expect(all.sorted() == Array(0..<40))
        #expect(board.runs().map(\.step) == [0, 1, 2])
    }

    @Test func reportsEveryProblemWithItsPath() throws {
        let json = """
            {"fps": -1, "screens": {"home": "home.png", "detail": 3}, "colour": 1,
             "timeline": [{"hold": "home"},
                          {"transition": "circle-spread", "from": "home", "to": "nowhere", "options": {"center": [1], "zoom": 2}},
                          {"transition": "wobble", "from": "home", "to": "detail", "curve": "wiggle"},
                          {"interactive": "page-flip", "from": "home", "to": "detail", "track": "missing.csv", "threshold": 3},
                          {"hold": "home", "transition": "fade", "duration": 1},
                          7],
             "output": {"video": "story.avi"}}
            """
        let problems = parse(json).problems.map(\.description)
        let expected = [
            "$.colour: unknown key",
            "$.fps: expected a number of frames per second in [0.001, 1000], not -1",
            "$.screens.detail: expected an image path",
            "$.timeline[0]: missing \"duration\"",
            "$.timeline[1].to: unknown screen 'nowhere'",
            "$.timeline[1].options.center: expected [x, y]",
            "$.timeline[1].options.zoom: does not apply to circle-spread",
            "$.timeline[2].transition: unknown effect 'wobble'",
            "$.timeline[2].curve: unknown curve 'wiggle'",
            "$.timeline[3].threshold: expected a progress in [0, 1], not 3",
            "$.timeline[3].track: 'missing.csv': cannot read 'missing.csv'",
            "$.timeline[4]: a step is one of",
            "$.timeline[5]: expected an object",
            "$.output.video: expected a .mp4, .webm, .mov or .gif file",
        ]
        for e in expected {
            #expect(problems.contains { $0.hasPrefix(e) }, "missing \(e) in \(problems)")
        }
        #expect(problems.count == expected.count, "\(problems)")
    }

    @Test func checksTransitionsAgainstTheFrame() {
        let json = """
            {"screens": {"a": "a.png"}, "timeline": [{"transition": "sheet", "from": "a", "to": "a", "options": {"height": 900}},
                                                  {"transition": "hero", "from": "a", "to": "a", "options": {"from-rect": [0, 0, 0, 5]}}]}
            """
        let parsed = parse(json)
        #expect(parsed.problems == [])
        let problems = parsed.storyboard.problems(frame: Size(375, 667), stepPaths: parsed.stepPaths).map(\.description)
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.first?.hasPrefix("$.timeline[0].options.height: height must be in (0, 667]") == true)
        #expect(problems.last?.hasPrefix("$.timeline[1].options.from-rect: from-rect") == true)
    }

    @Test func interactiveStepsLastTheDragAndTheCompletion() throws {
        let json = """
            {"fps": 10, "screens": {"a": "a.png", "b": "b.png"},
             "timeline": [{"interactive": "fade", "from": "a", "to": "b", "track": "drag.csv", "duration": 1,
                           "completion": "ease-in-out"}]}
            """
        let parsed = parse(json, tracks: ["drag.csv": "time,progress\n0,0\n0.5,0.7\n"])
        #expect(parsed.problems == [])
        let board = parsed.storyboard.schedule
        // 0.5 s of drag, then (1 - 0.7) * 1 s to finish: 0.8 s, frames 0 ... 8; the last at t = 1.
        #expect(board.count == 9)
        #expect(board.frame(8).t == 1)
        #expect(abs(board.frame(5).t - 0.7) < 1e-12)
    }

    @Test func interactiveStepsCompleteWithASpringByDefault() throws {
        let json = """
            {"fps": 10, "screens": {"a": "a.png", "b": "b.png"},
             "timeline": [{"interactive": "fade", "from": "a", "to": "b", "track": "drag.csv"},
                          {"interactive": "fade", "from": "a", "to": "b", "track": "drag.csv", "completion": "spring",
                           "damping": 0.6, "response": 0.3}]}
            """
        let parsed = parse(json, tracks: ["drag.csv": "time,progress\n0,0\n0.5,0.7\n"])
        #expect(parsed.problems == [])
        guard case let .interactive(_, _, _, first) = parsed.storyboard.timeline[0],
              case let .interactive(_, _, _, second) = parsed.storyboard.timeline[1] else { Issue.record("not interactive"); return }
        #expect(first.completion == InteractiveTrack.defaultCompletion)
        #expect(second.completion == .spring(damping: 0.6, response: 0.3))
        // The step lasts the drag and the spring until it settles; its last frame is the end exactly.
        #expect(parsed.storyboard.timeline[0].duration == 0.5 + first.completionDuration)
        let board = parsed.storyboard.schedule
        let last = board.frame(board.count - 1)
        #expect(last.step == 1 && last.t == 1)
    }

    @Test func interactiveCompletionProblemsNameTheirKey() {
        let step = #"{"interactive": "fade", "from": "a", "to": "a", "track": "drag.csv""#
        let json = """
            {"screens": {"a": "a.png"},
             "timeline": [\(step), "completion": "linear"}, \(step), "completion": "ease-in-out", "response": 0.3},
                          \(step), "damping": 0}, \(step), "response": "fast"}, \(step), "completion": 1}]}
            """
        let problems = parse(json, tracks: ["drag.csv": "0,0\n0.5,0.7\n"]).problems.map(\.description)
        #expect(problems == [
            "$.timeline[0].completion: unknown completion 'linear' (use spring or ease-in-out)",
            "$.timeline[1].response: response applies to the spring completion, not ease-in-out",
            "$.timeline[2].damping: the spring's damping ratio must be in [0.05, 10], not 0",
            "$.timeline[3].response: expected a number",
            "$.timeline[4].completion: expected a string",
        ])
    }

    @Test func shardsComeFromSlurmOrKubernetes() throws {
        #expect(try Shard.fromEnvironment([:]) == nil)
        #expect(try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"]) == Shard(index: 2, count: 4))
        #expect(try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "3"]) == Shard(index: 2, count: 4))
        #expect(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "1", "SEGUE_SHARDS": "3"]) == Shard(index: 1, count: 3))
        #expect(throws: Scheduler.Problem.self) { try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "1"]) }
        #expect(try Shard(parsing: "3/4") == Shard(index: 3, count: 4))
        #expect(throws: SegueError.self) { try Shard(parsing: "4/4") }
        #expect(throws: SegueError.self) { try Shard(parsing: "x") }
    }
}

@Suite struct StoryboardShaderStepTests {
    static let source = """
        uniform float amount; // = 0.5
        vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress * amount); }
        """

    func parse(_ step: String) -> Storyboard.Parsed {
        let json = """
            {"fps": 10, "screens": {"a": "a.png", "b": "b.png"}, "timeline": [\(step)]}
            """
        return Storyboard.parse(json: Data(json.utf8), loadTrack: { _ in "" }, loadShader: { spec in
            guard spec == "mine.glsl" else { throw SegueError.failed("cannot read '\(spec)'") }
            return try ShaderTransition(name: spec, source: Self.source)
        })
    }

    @Test func aShaderStepTakesItsParamsDurationAndCurve() throws {
        let parsed = parse(#"{"transition": "shader:mine.glsl", "from": "a", "to": "b", "duration": 0.4, "curve": "ease-in", "direction": "back", "options": {"params": {"amount": 0.25}}}"#)
        #expect(parsed.problems.isEmpty, "\(parsed.problems)")
        guard case let .shader(step, from, to)? = parsed.storyboard.timeline.first else {
            Issue.record("not a shader step")
            return
        }
        #expect(from == "a" && to == "b")
        #expect(step.duration == 0.4 && step.curve == .easeIn && step.direction == .back)
        #expect(step.values["amount"]?.components == [0.25])
        // Back runs the shader from 1 to 0 (drawn with the screens swapped).
        #expect(step.progress(at: 0) == 1 && step.progress(at: 1) == 0)
        #expect(parsed.storyboard.schedule.count == 5)
    }

    @Test func defaultsAreOneSecondLinear() {
        let parsed = parse(#"{"transition": "shader:mine.glsl", "from": "a", "to": "b"}"#)
        guard case let .shader(step, _, _)? = parsed.storyboard.timeline.first else {
            Issue.record("not a shader step: \(parsed.problems)")
            return
        }
        #expect(step.duration == 1 && step.curve == .linear && step.values.isEmpty)
    }

    @Test func problemsHaveTheirPaths() {
        let unknown = parse(#"{"transition": "shader:mine.glsl", "from": "a", "to": "b", "options": {"params": {"nope": 1}}}"#)
        #expect(unknown.problems.map(\.path) == ["$.timeline[0].options.params"])
        let missing = parse(#"{"transition": "shader:other.glsl", "from": "a", "to": "b"}"#)
        #expect(missing.problems.map(\.path) == ["$.timeline[0].transition"])
        let options = parse(#"{"transition": "shader:mine.glsl", "from": "a", "to": "b", "options": {"zoom": 1}}"#)
        #expect(options.problems.map(\.path) == ["$.timeline[0].options.zoom"])
    }

    /// A screen may be an object naming a clip and how it plays; its problems are reported at their paths.
    @Test func readsClipScreensAsObjects() throws {
        func parse(_ json: String) -> Storyboard.Parsed { Storyboard.parse(json: Data(json.utf8)) { _ in "" } }
        let good = parse("""
            {"screens": {"a": {"path": "a.mp4", "loop": true, "start": 1.5}, "b": {"path": "b.webm"}, "c": "c.png"},
             "timeline": [{"hold": "a", "duration": 1}, {"transition": "fade", "from": "b", "to": "c"}]}
            """)
        #expect(good.problems.isEmpty, "\(good.problems)")
        #expect(good.storyboard.screens == ["a": "a.mp4", "b": "b.webm", "c": "c.png"])
        #expect(good.storyboard.playback == ["a": ClipPlayback(start: 1.5, loop: true)])
        #expect(good.storyboard.firstShown("b") == 1 && good.storyboard.firstShown("a") == 0)
        let bad = parse("""
            {"screens": {"a": {"path": "", "loop": "yes", "start": -1, "speed": 2}},
             "timeline": [{"hold": "a", "duration": 1}]}
            """)
        #expect(bad.problems.map(\.path) == ["$.screens.a.speed", "$.screens.a.path", "$.screens.a.loop", "$.screens.a.start"])
    }

    /// `Parsed.files` lists what the storyboard names for its job to read, each once, read or not: screens (not
    /// samples), a track, an effect file, a shader and its sampler's image; a string elsewhere is not a file.
    @Test func theFilesAStoryboardNamesAreListed() {
        let json = #"""
            {"comment": "see notes.txt", "screens": {"a": "a.png", "b": {"path": "clip.mp4"}, "c": "sample:home"},
             "timeline": [{"hold": "a", "duration": 0.1}, {"hold": "a", "duration": 0.1},
                          {"interactive": "fade", "from": "a", "to": "b", "track": "drag.csv"},
                          {"transition": "effect:fx.json", "from": "b", "to": "c"},
                          {"transition": "shader:map.glsl", "from": "a", "to": "c", "options": {"params": {"map": "maps/m.png"}}},
                          {"transition": "shader:gone.glsl", "from": "a", "to": "c"}],
             "output": {"video": "out.mp4"}}
            """#
        let parsed = Storyboard.parse(json: Data(json.utf8), loadTrack: { _ in "0,0\n1,1\n" }, loadShader: { spec in
            guard spec == "map.glsl" else { throw SegueError.failed("cannot read '\(spec)'") }
            return try ShaderTransition(name: spec, source: "uniform sampler2D map;\nvec4 transition(vec2 uv) { return texture2D(map, uv); }")
        })
        #expect(parsed.files == [.init(.screen, "a.png"), .init(.screen, "clip.mp4"), .init(.track, "drag.csv"),
                                 .init(.effect, "fx.json"), .init(.shader, "map.glsl"), .init(.image, "maps/m.png"),
                                 .init(.shader, "gone.glsl")])
    }
}
