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
        #expect(FileWriter.temporaryPath(for: "plain.png").hasPrefix(".plain.png.tmp-\(pid)-"))
        #expect(FileWriter.temporaryPath(for: "/a/b/c.png").hasPrefix("/a/b/.c.png.tmp-\(pid)-"))
    }

    /// Each call makes a name of its own (two jobs of one process writing the same file never share one), and
    /// the name says which process made it; a 255-byte name's temporary still fits in 255 bytes.
    @Test func temporaryNamesAreUniquePerCallAndNameTheirProcess() {
        let pid = getpid()
        let names = (0..<100).map { _ in FileWriter.temporaryPath(for: "/a/same.png") }
        #expect(Set(names).count == 100)
        for name in names {
            let owner = FileWriter.temporaryOwner(name.dropFirst("/a/.same.png.tmp-".count))
            #expect(owner == pid)
        }
        #expect(FileWriter.temporaryOwner("4242") == 4242)  // an older Segue's `.NAME.tmp-<pid>`
        #expect(FileWriter.temporaryOwner("4242-x") == nil)
        let long = String(repeating: "é", count: 127) + "a"
        #expect(long.utf8.count == 255)
        let temporary = FileWriter.temporaryPath(for: long)
        #expect(temporary.utf8.count <= 255 && temporary.hasSuffix("-\(pid)-\(temporary.split(separator: "-").last!)"))
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
