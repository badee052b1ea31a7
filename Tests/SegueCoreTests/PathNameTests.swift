import Foundation
@testable import SegueCore
import Testing

@Suite struct PathNameTests {
    /// Paths of every shape, each with its last component, parent and extension: NSString's answers where it gives
    /// one (this Foundation traps taking the parent of a one-character name such as `.`, `a` or `a/`, and calls the
    /// last component of `//` empty).
    static let shapes: [(path: String, last: String, parent: String, extension: String)] = [
        ("", "", "", ""), ("/", "/", "/", ""), ("//", "/", "/", ""), (".", ".", "", ""), ("..", "..", "", ""),
        ("a", "a", "", ""), ("a/", "a", "", ""), ("a//", "a", "", ""), ("/a", "a", "/", ""), ("//a", "a", "/", ""),
        ("/a/", "a", "/", ""), ("a/b", "b", "a", ""), ("a//b", "b", "a", ""), ("a/b//", "b", "a", ""),
        ("/a/b", "b", "/a", ""), ("./a", "a", ".", ""), ("../a", "a", "..", ""), ("a/.", ".", "a", ""),
        ("a/..", "..", "a", ""), (".a", ".a", "", ""), ("a.", "a.", "", ""), ("a..b", "a..b", "", "b"),
        (".a.b", ".a.b", "", "b"), ("a.b.", "a.b.", "", ""), ("a.b/", "a.b", "", "b"), ("a/.b", ".b", "a", ""),
        ("a/b.c/d", "d", "a/b.c", ""), ("dir/clip.MP4", "clip.MP4", "dir", "MP4"), ("x.tar.gz", "x.tar.gz", "", "gz"),
        ("/.mp4", ".mp4", "/", ""), ("a b/c d.e f", "c d.e f", "a b", "e f"),
    ]

    @Test func takesApartEveryShape() {
        for shape in Self.shapes {
            #expect(PathName.last(shape.path) == shape.last, "\(shape.path)")
            #expect(PathName.parent(shape.path) == shape.parent, "\(shape.path)")
            #expect(PathName.extension(shape.path) == shape.extension, "\(shape.path)")
            #expect(PathName.directory(shape.path) == (shape.parent.isEmpty ? "." : shape.parent), "\(shape.path)")
        }
        #expect(PathName.join("", "n") == "n")
        #expect(PathName.join("a", "n") == "a/n")
        #expect(PathName.join("a/", "n") == "a/n")
        #expect(PathName.join("/", "n") == "/n")
    }

    /// Where this Foundation answers without trapping, it answers as PathName does.
    @Test func agreesWithFoundationWhereItAnswers() {
        for shape in Self.shapes where ![".", "a", "a/", "a//", "//"].contains(shape.path) {
            let ns = shape.path as NSString
            #expect(ns.lastPathComponent == shape.last, "\(shape.path)")
            #expect(ns.deletingLastPathComponent == shape.parent, "\(shape.path)")
            #expect(ns.pathExtension == shape.extension, "\(shape.path)")
        }
    }

    /// Names where Foundation traps (the first found by FuzzStoryboard as a storyboard's output): taken apart
    /// at their slashes and dots, with every other character kept whole.
    @Test func takesApartNamesThatFoundationTrapsOn() {
        let found = ".\u{10FFFF}🇺//\u{10FFFF}"
        #expect(PathName.last(found) == "\u{10FFFF}")
        #expect(PathName.parent(found) == ".\u{10FFFF}🇺")
        #expect(PathName.extension(found) == "")
        #expect(PathName.extension(".\u{10FFFF}🇺") == "")
        #expect(PathName.extension("clip\u{10FFFF}.mp4") == "mp4")
        #expect(PathName.extension("a.🇺🇸") == "🇺🇸")
        // A combining mark after a slash or a dot joins it into one Character; the path is still cut there.
        #expect(PathName.last("a/\u{301}b") == "\u{301}b")
        #expect(PathName.parent("a/\u{301}b") == "a")
        #expect(PathName.extension("a.\u{301}") == "\u{301}")
        #expect(PathName.join("é", "\u{301}") == "é/\u{301}")
        #expect(VideoContainer(path: "\u{10FFFF}🇺//x.MOV") == .mov)
    }
}
