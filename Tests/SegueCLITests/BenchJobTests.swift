import Foundation
import SegueTestSupport
import Testing

/// `segue-bench --job` (segue started under the bench's name): whole jobs of a storyboard into each output on
/// each backend asked for, a figure each, in the JSON and as a Markdown table; a backend this build does not
/// know is skipped with a note; bad options are one line.
@Suite struct BenchJobTests {
    static func bench(_ arguments: [String]) throws -> Segue.Result {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("segue-bench")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: try Segue.executable)
        return try Segue.run(arguments, executable: link)
    }

    static let hasFFmpeg = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .contains { FileManager.default.isExecutableFile(atPath: "\($0)/ffmpeg") }

    @Test func runsEachOutputOnEachBackend() throws {
        let dir = try temporaryDirectory()
        let out = dir.appendingPathComponent("job.json").path
        let r = try Self.bench(["--job", "--job-frames", "7", "--job-size", "96x54", "--job-backends", "cpu,no-such-backend,gles",
                                "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any]
        #expect(json?["partial"] == nil)
        let jobs = try #require(json?["jobs"] as? [[String: Any]])
        // The unknown name first, skipped; then four outputs for each backend, in order.
        #expect(jobs.map { $0["backend"] as? String } == ["no-such-backend"] + Array(repeating: "cpu", count: 4) + Array(repeating: "gles", count: 4))
        #expect((jobs[0]["note"] as? String)?.hasPrefix("skipped: not a backend of this build (it has ") == true)
        let outputs = ["raw RGBA to /dev/null", "Y4M 4:2:0 to /dev/null", "PNG directory", "H.264 .mp4"]
        #expect(jobs.dropFirst().map { $0["output"] as? String } == outputs + outputs)
        for job in jobs[1...4] {
            let name = job["output"] as? String ?? ""
            if name == "H.264 .mp4" && !Self.hasFFmpeg {
                #expect(job["note"] as? String == "skipped: no ffmpeg on PATH")
                continue
            }
            // Every frame of the storyboard, timed, drawn by the CPU compositor.
            #expect(job["frames"] as? Int == 7 && job["width"] as? Int == 96 && job["height"] as? Int == 54, "\(job)")
            #expect(job["renderer"] as? String == "cpu", "\(job)")
            let seconds = job["seconds"] as? Double ?? 0, fps = job["framesPerSecond"] as? Double ?? 0
            #expect(seconds > 0 && abs(fps * seconds - 7) < 1e-6, "\(job)")
            #expect((job["cpuSeconds"] as? Double).map { $0 >= 0 && $0 < 600 } == true, "\(job)")
            // Files have their bytes counted; streams to /dev/null none.
            if name.hasSuffix("/dev/null") { #expect(job["bytes"] == nil) } else { #expect((job["bytes"] as? Int ?? 0) > 1000, "\(job)") }
        }
        // GLES made or not, each job has a figure or says why not.
        for job in jobs[5...] { #expect(job["framesPerSecond"] != nil || job["note"] != nil, "\(job)") }
        // The table on standard output.
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.hasPrefix("Whole jobs: 7 frames at 96x54, "), "\(text)")
        #expect(text.contains("\n| output | backend | drew | frames | size | seconds | frames/s | x cpu | CPU s | CPU s / s | note |\n"))
        #expect(text.contains("\n| raw RGBA to /dev/null | cpu | cpu | 7 | 96x54 | "), "\(text)")
        #expect(text.contains("\n| - | no-such-backend | - | 0 | 96x54 | "), "\(text)")
    }

    @Test(arguments: [
        (["--job", "--job-size", "95x54"], "segue-bench: --job-size takes WIDTHxHEIGHT, even numbers in 16...16384 (4:2:0 video), not '95x54'\n"),
        (["--job", "--job-frames", "1"], "segue-bench: --job-frames takes a number of frames in 2...100000, not '1'\n"),
        (["--job", "--job-outputs", "raw,gif"], "segue-bench: --job-outputs takes raw, y4m, png and mp4, not 'gif'\n"),
    ])
    func refusesBadOptions(arguments: [String], line: String) throws {
        let r = try Self.bench(arguments)
        #expect(r.status == 2)
        #expect(r.stderr == line)
    }
}
