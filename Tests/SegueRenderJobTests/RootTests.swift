import Foundation
import SegueCore
import SegueRender
import SegueTestSupport
import Testing

/// `RenderJob.root`: what a job reads and writes stays within one directory, after `..` and symbolic links.
@Suite struct RootTests {
    /// `base/root` holding `in.png` and `link.png` (a link to `base/out.png`), `base/out.png` and
    /// `base/drag.csv` outside it.
    static func layout() throws -> (base: URL, root: URL) {
        let base = try temporaryDirectory("root")
        let root = base.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        var job = RenderJob(Transition(.fade, duration: 0.2), from: "sample:home", to: "sample:detail", fps: 30,
                            scale: 0.125, output: .image(root.appendingPathComponent("in.png").path))
        job.backend = .cpu
        job.progress = [0]
        try job.run()
        try FileManager.default.copyItem(at: root.appendingPathComponent("in.png"), to: base.appendingPathComponent("out.png"))
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("link.png").path,
                                                   withDestinationPath: base.appendingPathComponent("out.png").path)
        try Data("0,0\n0.1,0.5\n0.2,1\n".utf8).write(to: base.appendingPathComponent("drag.csv"))
        return (base, root)
    }

    /// `../`, absolute and symlink-escaping screens, and a track outside, are each a problem at its JSON path
    /// saying it is outside the root; none is read.
    @Test func pathsLeavingTheRootAreRefusedAtTheirJSONPaths() throws {
        let (base, root) = try Self.layout()
        defer { try? FileManager.default.removeItem(at: base) }
        let outside = base.appendingPathComponent("out.png").path
        let story = root.appendingPathComponent("story.json")
        try Data("""
        {"fps": 10, "screens": {"a": "in.png", "b": "../out.png", "c": "\(outside)", "d": "link.png"},
         "timeline": [{"transition": "fade", "from": "a", "to": "b", "duration": 0.2},
                      {"transition": "fade", "from": "b", "to": "c", "duration": 0.2},
                      {"interactive": "fade", "from": "c", "to": "d", "track": "../drag.csv"}]}
        """.utf8).write(to: story)
        var job = try RenderJob(storyboardFile: story.path, output: .frames(directory: root.appendingPathComponent("frames").path),
                                root: root.path)
        job.backend = .cpu
        let error = try #require(throws: SegueError.self) { try job.run() }
        #expect(error.kind == .invalidInput(path: story.path))
        let file = story.path
        let r = root.path
        #expect(error.lines.contains("\(file): $.screens.b: '\(r)/../out.png' is outside the root '\(r)'"), "\(error.lines)")
        #expect(error.lines.contains("\(file): $.screens.c: '\(outside)' is outside the root '\(r)'"), "\(error.lines)")
        #expect(error.lines.contains("\(file): $.screens.d: '\(r)/link.png' is outside the root '\(r)'"), "\(error.lines)")
        #expect(error.lines.contains { $0.hasPrefix("\(file): $.timeline[2]") && $0.contains("'\(r)/../drag.csv' is outside the root '\(r)'") },
                "\(error.lines)")
        #expect(!error.lines.contains { $0.contains("$.screens.a") })
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("frames").path))
    }

    /// Paths inside the root (through `sub/..` too) are read and written; an output outside it is refused
    /// before anything is read, and so is a storyboard file outside it.
    @Test func pathsWithinTheRootAreAcceptedAndOutputsAreConfined() throws {
        let (base, root) = try Self.layout()
        defer { try? FileManager.default.removeItem(at: base) }
        let text = """
        {"fps": 10, "screens": {"a": "\(root.path)/in.png", "b": "\(root.path)/sub/../in.png"},
         "timeline": [{"transition": "fade", "from": "a", "to": "b", "duration": 0.2}]}
        """
        let inside = root.appendingPathComponent("sub/frames").path
        var job = RenderJob(storyboardJSON: text, output: .frames(directory: inside), root: root.path)
        job.backend = .cpu
        #expect(try job.run().rendered == 3)
        job.outputs = [.video(base.appendingPathComponent("escape.mp4").path)]
        #expect { try job.run() } throws: { error in
            (error as? SegueError)?.kind == .invalidOption(effect: nil, option: "output", value: base.appendingPathComponent("escape.mp4").path)
                && (error as? SegueError)?.message.hasSuffix("is outside the root '\(root.path)'") == true
        }
        job.outputs = [.frames(directory: root.appendingPathComponent("../frames").path)]
        #expect(throws: SegueError.self) { try job.run() }
        #expect(!FileManager.default.fileExists(atPath: base.appendingPathComponent("frames").path))
        try Data(text.utf8).write(to: base.appendingPathComponent("story.json"))
        #expect { _ = try RenderJob(storyboardFile: base.appendingPathComponent("story.json").path, output: .frames(directory: inside), root: root.path) }
            throws: { ($0 as? SegueError)?.kind == .inputUnreadable(path: base.appendingPathComponent("story.json").path) }
    }

    /// A job made in code refuses a screen outside its root as the screen option.
    @Test func aScreenOutsideTheRootOfAJobInCodeIsRefused() throws {
        let (base, root) = try Self.layout()
        defer { try? FileManager.default.removeItem(at: base) }
        var job = RenderJob(Transition(.fade, duration: 0.2), from: root.appendingPathComponent("in.png").path,
                            to: root.appendingPathComponent("link.png").path, output: .frames(directory: root.appendingPathComponent("f").path))
        job.root = root.path
        job.backend = .cpu
        #expect { try job.run() } throws: { error in
            guard let e = error as? SegueError, case .invalidOption(nil, "screen", _) = e.kind else { return false }
            return e.message.contains("is outside the root")
        }
    }
}
