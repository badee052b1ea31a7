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
