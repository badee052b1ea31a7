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

    /// A mode given is the new file's, whatever the umask; a link planted at the temporary name is not written
    /// through (the writer removes what is there, as after a crash, and creates its own file).
    @Test func aGivenModeIsTheFilesAndALinkIsNeverWrittenThrough() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = directory.file("edited.json")
        try FileWriter.writeAtomically(Array("{}".utf8), to: path, mode: 0o640, durable: true)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o7777 == 0o640)
        try FileWriter.writeAtomically(Array("[]".utf8), to: path, mode: 0o600)
        #expect(stat(path, &info) == 0 && info.st_mode & 0o7777 == 0o600)

        let outside = directory.file("outside")
        try Data("kept".utf8).write(to: URL(fileURLWithPath: outside))
        let next = FileWriter.temporaryPath(for: path)
        let n = Int(next.split(separator: "-").last!)!
        let planted = String(next.dropLast(String(n).count)) + String(n + 1)  // the name the next write takes
        #expect(symlink(outside, planted) == 0)
        try FileWriter.writeAtomically(Array("new".utf8), to: path)
        #expect(FileManager.default.contents(atPath: outside) == Data("kept".utf8))
        #expect(FileManager.default.contents(atPath: path) == Data("new".utf8))
    }

    @Test func temporaryNameIsHiddenNextToTheTarget() {
        let pid = getpid()
        let space = FileWriter.processSpace
        #expect(FileWriter.temporaryPath(for: "plain.png").hasPrefix(".plain.png.tmp-\(pid).\(space)-"))
        #expect(FileWriter.temporaryPath(for: "/a/b/c.png").hasPrefix("/a/b/.c.png.tmp-\(pid).\(space)-"))
    }

    /// Each call makes a name of its own (two jobs of one process writing the same file never share one), and
    /// the name says which process made it; a 255-byte name's temporary still fits in 255 bytes.
    @Test func temporaryNamesAreUniquePerCallAndNameTheirProcess() {
        let pid = getpid()
        let names = (0..<100).map { _ in FileWriter.temporaryPath(for: "/a/same.png") }
        #expect(Set(names).count == 100)
        for name in names {
            let owner = FileWriter.temporaryOwner(name.dropFirst("/a/.same.png.tmp-".count))
            #expect(owner == .init(pid: pid, space: FileWriter.processSpace) && owner?.isThisProcess == true)
        }
        // An older Segue's `.NAME.tmp-<pid>` and `.NAME.tmp-<pid>-<n>`, taken as made in this pid space.
        #expect(FileWriter.temporaryOwner("4242") == .init(pid: 4242))
        #expect(FileWriter.temporaryOwner("4242-7")?.sharesThisProcessSpace == true)
        #expect(FileWriter.temporaryOwner("4242-x") == nil)
        #expect(FileWriter.temporaryOwner("4242.xyz-1") == nil)
        // The same pid in another pid space (segue is pid 1 in every container sharing a volume) is not this
        // process, nor one whose liveness can be asked from here.
        let other = FileWriter.processSpace == "0badf00d" ? "0badf00e" : "0badf00d"
        let elsewhere = FileWriter.temporaryOwner("\(pid).\(other)-0")
        #expect(elsewhere == .init(pid: pid, space: other))
        #expect(elsewhere?.isThisProcess == false && elsewhere?.sharesThisProcessSpace == false)
        let long = String(repeating: "é", count: 127) + "a"
        #expect(long.utf8.count == 255)
        let temporary = FileWriter.temporaryPath(for: long)
        #expect(temporary.utf8.count <= 255 && temporary.hasSuffix("-\(pid).\(FileWriter.processSpace)-\(temporary.split(separator: "-").last!)"))
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
