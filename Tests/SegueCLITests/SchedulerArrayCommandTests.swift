import Foundation
import SegueTestSupport
import Testing

/// Slurm arrays with a step, a list or a throttle, as `--chunk auto` and `--shard auto` read them (the release
/// build in `make test-release`): each task renders its place among the array's task ids, so every chunk and
/// every frame is rendered once and the join succeeds; ids that are not evenly spaced are refused in one line
/// that says how to submit the array.
@Suite(.enabled(if: chunkTools != nil, "ffmpeg and ffprobe are not on PATH"))
struct SchedulerArrayCommandTests {
    /// Slurm's variables for task `id` of an array of `ids` (STEP the common difference, 1 where there is none).
    static func slurm(_ id: Int, of ids: [Int]) -> [String: String] {
        let gaps = Set(zip(ids, ids.dropFirst()).map { $1 - $0 })
        return noScheduler.merging(["SLURM_ARRAY_TASK_ID": "\(id)", "SLURM_ARRAY_TASK_MIN": "\(ids.first!)",
                                    "SLURM_ARRAY_TASK_MAX": "\(ids.last!)", "SLURM_ARRAY_TASK_COUNT": "\(ids.count)",
                                    "SLURM_ARRAY_TASK_STEP": "\(gaps.count == 1 ? gaps.first! : 1)"]) { $1 }
    }

    /// `--array=0-4:2`, `1,3,5` and a throttled `0-9%2` (ids 0...9).
    static let arrays: [[Int]] = [[0, 2, 4], [1, 3, 5], Array(0...9)]

    @Test(arguments: arrays)
    func chunkAutoRendersEachChunkOnce(_ ids: [Int]) throws {
        let s = try ChunkCommandTests.Setup()
        defer { try? FileManager.default.removeItem(at: s.dir) }
        for id in ids {
            let r = try s.batch(["--video", s.path("out.mp4"), "--chunk", "auto"], env: Self.slurm(id, of: ids))
            #expect(r.status == 0, "task \(id) of \(ids): \(r.stderr)")
        }
        let j = try Segue.run(["join", s.path("out.mp4")])
        #expect(j.status == 0 && j.stderr.contains("joined \(ids.count) chunks (46 frames)"), "\(ids): \(j.stderr)")
    }

    @Test(arguments: arrays)
    func shardAutoRendersEachFrameOnce(_ ids: [Int]) throws {
        let s = try ChunkCommandTests.Setup()
        defer { try? FileManager.default.removeItem(at: s.dir) }
        for id in ids {
            let r = try s.batch(["--out", s.path("frames"), "--shard", "auto"], env: Self.slurm(id, of: ids))
            #expect(r.status == 0, "task \(id) of \(ids): \(r.stderr)")
        }
        #expect(try frameDirectoryNames(atPath: s.path("frames")).count == 46)
    }

    /// `--array=1-3,7`: no task can know its place; each is refused before it renders, in one line.
    @Test(arguments: [["--video", "out.mp4", "--chunk", "auto"], ["--out", "frames", "--shard", "auto"]])
    func anArrayOfUnevenIdsIsRefused(_ extra: [String]) throws {
        let s = try ChunkCommandTests.Setup()
        defer { try? FileManager.default.removeItem(at: s.dir) }
        for id in [1, 2, 3, 7] {
            let r = try s.batch(extra, env: Self.slurm(id, of: [1, 2, 3, 7]))
            let lines = r.stderr.split(separator: "\n")
            #expect(r.status == 2 && lines.count == 1 && r.stderr.contains("not evenly spaced")
                    && r.stderr.contains("submit the array as a range"), "task \(id): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: s.path("out.mp4.chunks")) && !FileManager.default.fileExists(atPath: s.path("frames")))
    }
}
