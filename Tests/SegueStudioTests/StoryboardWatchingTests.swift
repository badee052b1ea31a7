import Foundation
import Segue
@testable import SegueStudio
import Testing

/// What a storyboard's stamp covers: the files its parser finds it names (`Storyboard.Parsed.files`), each a
/// regular file inside the studio's directory, and no other string in it.
@Suite struct StoryboardWatchingTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("segue-watching-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func write(_ text: String, _ name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func aStoryboardWatchesWhatItsParserFindsItNames() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let screen = try write("not read", "screen.png")
        let track = try write("0,0\n1,1\n", "drag.csv")
        let effect = try write("{}", "fx.json")
        let shader = try write("uniform sampler2D map;\nvec4 transition(vec2 uv) { return texture2D(map, uv); }\n", "map.glsl")
        let image = try write("not read", "maps/m.png")
        _ = try write("not named by the format", "notes.txt")
        let story = try write(#"""
            {"comment": "notes.txt", "screens": {"a": "screen.png", "b": "sample:home", "c": "/etc/passwd", "d": "none.png"},
             "timeline": [{"interactive": "fade", "from": "a", "to": "b", "track": "drag.csv"},
                          {"transition": "effect:fx.json", "from": "b", "to": "a"},
                          {"transition": "shader:map.glsl", "from": "a", "to": "b", "options": {"params": {"map": "maps/m.png"}}},
                          {"transition": "shader:story.json", "from": "a", "to": "b"}]}
            """#, "story.json")
        let watched = Subjects.references(Array(try Data(contentsOf: URL(fileURLWithPath: story))), of: story, within: directory.path).watched
        // Screens, the track, the effect file, the shader and its image; not a comment's file, a file outside the
        // directory, a name of nothing, a sample or the storyboard itself.
        #expect(watched == [screen, track, effect, shader, image])
    }

    /// A shader file the storyboard names outside the directory is not read for its images, nor watched.
    @Test func aShaderOutsideTheDirectoryIsNotRead() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try write("not read", "screen.png")
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("segue-outside-\(UUID().uuidString).glsl")
        try Data("uniform sampler2D map;\nvec4 transition(vec2 uv) { return texture2D(map, uv); }\n".utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        _ = try write("not read", "m.png")
        let story = try write("""
            {"screens": {"a": "screen.png", "b": "sample:home"},
             "timeline": [{"transition": "shader:\(outside.path)", "from": "a", "to": "b", "options": {"params": {"map": "m.png"}}}]}
            """, "story.json")
        let watched = Subjects.references(Array(try Data(contentsOf: URL(fileURLWithPath: story))), of: story, within: directory.path).watched
        #expect(watched == [directory.appendingPathComponent("screen.png").path])
    }
}
