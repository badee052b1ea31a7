import Foundation
import SegueCore
@testable import SegueRender
import SegueImageIO
import SegueTestSupport
import Testing

/// Temporary names are unique per job: a stale one of a dead process is removed, a live one of this process
/// never is.
@Suite struct TemporaryNameTests {
    /// A process id no process has (above the kernel's largest).
    static let deadPID = 4_194_304 + 1

    @Test func staleTemporariesOfDeadProcessesGoAndThisProcesssStay() throws {
        let dir = try temporaryDirectory("tmpnames")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("story.y4m").path
        let live = FileWriter.temporaryPath(for: path)
        let names = [live, dir.appendingPathComponent(".story.y4m.tmp-\(Self.deadPID)").path,
                     dir.appendingPathComponent(".story.y4m.tmp-\(Self.deadPID)-7").path]
        for name in names { _ = FileManager.default.createFile(atPath: name, contents: Data("partial".utf8)) }
        StaleTemporaries.remove(besides: path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [(live as NSString).lastPathComponent])
    }

    @Test func aDirectoryKeepsThisProcesssFrameTemporaries() throws {
        let dir = try temporaryDirectory("tmpnames")
        defer { try? FileManager.default.removeItem(at: dir) }
        let directory = try FrameDirectory(creating: dir.path)
        let live = FileWriter.temporaryPath(for: dir.appendingPathComponent("frame_00001.png").path)
        let stale = dir.appendingPathComponent(".frame_00002.png.tmp-\(Self.deadPID)-3").path
        let older = dir.appendingPathComponent(".frame_00003.png.tmp-\(Self.deadPID)").path
        for name in [live, stale, older] { _ = FileManager.default.createFile(atPath: name, contents: Data("partial".utf8)) }
        directory.removeTemporaryFiles(owned: { _ in true })
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(!FileManager.default.fileExists(atPath: stale) && !FileManager.default.fileExists(atPath: older))
    }

    /// Containers sharing a volume each run segue as pid 1: a temporary made with this process's pid in another
    /// pid space (`FileWriter.processSpace`) is another process's. A cancelled job leaves it; a new stream
    /// leaves it while it is being written and removes it once abandoned (not written for 10 minutes); a frame
    /// directory removes it only when it is a frame this job renders (as any other process's).
    @Test func theSamePidInAnotherContainerIsAnotherProcess() throws {
        let dir = try temporaryDirectory("tmpnames")
        defer { try? FileManager.default.removeItem(at: dir) }
        let other = FileWriter.processSpace == "0badf00d" ? "0badf00e" : "0badf00d"
        let pid = getpid()
        // Beside a stream.
        let path = dir.appendingPathComponent("chunk.mp4").path
        let writing = dir.appendingPathComponent(".chunk.mp4.tmp-\(pid).\(other)-0").path
        let abandoned = dir.appendingPathComponent(".chunk.mp4.tmp-\(pid).\(other)-1").path
        for name in [writing, abandoned] { _ = FileManager.default.createFile(atPath: name, contents: Data("partial".utf8)) }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -2 * StaleTemporaries.abandonedAfter)],
                                              ofItemAtPath: abandoned)
        StaleTemporaries.remove(besides: path)
        #expect(FileManager.default.fileExists(atPath: writing) && !FileManager.default.fileExists(atPath: abandoned))
        // In a frame directory: a cancelled job of this process removes its own temporaries only.
        let frames = dir.appendingPathComponent("frames")
        let directory = try FrameDirectory(creating: frames.path)
        let theirs = frames.appendingPathComponent(".frame_00004.png.tmp-\(pid).\(other)-0").path
        let ours = FileWriter.temporaryPath(for: frames.appendingPathComponent("frame_00005.png").path)
        for name in [theirs, ours] { _ = FileManager.default.createFile(atPath: name, contents: Data("partial".utf8)) }
        let control = JobControl()
        control.register(directory: frames.path)
        control.removeTemporaries()
        #expect(FileManager.default.fileExists(atPath: theirs) && !FileManager.default.fileExists(atPath: ours))
        directory.removeTemporaryFiles(owned: { $0 == 5 })
        #expect(FileManager.default.fileExists(atPath: theirs))
        directory.removeTemporaryFiles(owned: { $0 == 4 })
        #expect(!FileManager.default.fileExists(atPath: theirs))
    }

    /// Two jobs of this process writing the same stream file at once each write their own temporary: both end
    /// complete, and the file is one of them, whole.
    @Test func twoJobsWritingOneFileDoNotShareATemporary() async throws {
        let dir = try temporaryDirectory("tmpnames")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("same.rgba").path
        var job = RenderJob(Transition(.door, duration: 0.5), from: "sample:home", to: "sample:detail", fps: 30,
                            scale: 0.25, output: .stream(path, format: .rgba))
        job.backend = .cpu
        async let a = job.run()
        async let b = job.run()
        let (first, second) = try await (a, b)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(size == first.rendered * first.width * first.height * 4 && first.rendered == second.rendered)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["same.rgba"])
    }
}
