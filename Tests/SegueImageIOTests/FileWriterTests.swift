import Foundation
@testable import SegueImageIO
import Testing

@Suite struct FileWriterTests {
    @Test func writesTheFileAndLeavesNoTemporary() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = directory.file("out.png")
        try FileWriter.writeAtomically([1, 2, 3], to: path)
        try FileWriter.writeAtomically([4, 5, 6, 7], to: path)  // replaces
        #expect(try directory.contents() == ["out.png"])
        #expect(FileManager.default.contents(atPath: path) == Data([4, 5, 6, 7]))
    }

    @Test func temporaryNameIsHiddenNextToTheTarget() {
        let pid = getpid()
        #expect(FileWriter.temporaryPath(for: "plain.png") == ".plain.png.tmp-\(pid)")
        #expect(FileWriter.temporaryPath(for: "/a/b/c.png") == "/a/b/.c.png.tmp-\(pid)")
    }

    @Test func missingDirectoryThrows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = directory.file("nope/out.png")
        let message = thrownMessage { try FileWriter.writeAtomically([1], to: path) }
        #expect(message == "cannot write '\(path)': no such directory")
        #expect(try directory.contents().isEmpty)
    }

    @Test func writingOverADirectoryThrowsAndCleansUp() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        try FileManager.default.createDirectory(atPath: directory.file("taken"), withIntermediateDirectories: false)
        let message = thrownMessage { try FileWriter.writeAtomically([1], to: directory.file("taken")) }
        #expect(message == "cannot write '\(directory.file("taken"))': is a directory")
        #expect(try directory.contents() == ["taken"])
    }
}
