import Foundation
import SegueTestSupport
import Testing

let chunkTools: (ffmpeg: String, ffprobe: String)? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let dirs = path.split(separator: ":").map(String.init)
    guard let dir = dirs.first(where: { FileManager.default.isExecutableFile(atPath: "\($0)/ffmpeg") && FileManager.default.isExecutableFile(atPath: "\($0)/ffprobe") })
    else { return nil }
    return ("\(dir)/ffmpeg", "\(dir)/ffprobe")
}()

/// No scheduler's variables, whatever the environment the tests run in (an empty one counts as unset).
let noScheduler = ["SLURM_ARRAY_TASK_ID": "", "JOB_COMPLETION_INDEX": "", "AWS_BATCH_JOB_ARRAY_INDEX": "", "CLOUD_RUN_TASK_INDEX": ""]

/// `--chunk I/N` and `segue join`: chunks of a storyboard's video joined by stream copy into exactly the
/// single run's frames and duration; a missing or foreign chunk, a held lock and a complete chunk under
/// `--resume`.
@Suite(.enabled(if: chunkTools != nil, "ffmpeg and ffprobe are not on PATH"))
struct ChunkCommandTests {
    /// 46 frames at 30 fps (1.5 s): uneven in 3 or 4 chunks.
    static let story = """
        {"fps": 30, "size": [64, 114], "screens": {"home": "sample:home", "detail": "sample:detail"},
         "timeline": [{"hold": "home", "duration": 0.3},
                      {"transition": "circle-spread", "from": "home", "to": "detail", "duration": 0.5},
                      {"hold": "detail", "duration": 0.2},
                      {"transition": "page-flip", "from": "detail", "to": "home", "duration": 0.5, "direction": "back"}]}
        """

    struct Setup {
        let dir: URL
        let story: String
        init(_ text: String = ChunkCommandTests.story) throws {
            dir = try temporaryDirectory()
            story = try write(text, "story.json", in: dir)
        }
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        func batch(_ extra: [String], env: [String: String] = noScheduler) throws -> Segue.Result {
            try Segue.run(["batch", story, "--backend", "cpu", "--quiet"] + extra, in: dir, environment: env)
        }
    }

    static func probe(_ video: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: chunkTools!.ffprobe)
        p.arguments = ["-v", "error", "-count_frames", "-select_streams", "v:0",
                       "-show_entries", "stream=nb_read_frames,duration_ts,time_base,codec_name,pix_fmt", "-of", "compact", video]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Every frame decoded to RGBA.
    static func decode(_ video: String) throws -> Data {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: chunkTools!.ffmpeg)
        p.arguments = ["-v", "error", "-i", video, "-f", "rawvideo", "-pix_fmt", "rgba64le", "-"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return data
    }

    /// Chunks joined have the single run's frame count, time base and duration to the tick (uneven chunks).
    @Test(arguments: [3, 4]) func chunksJoinToTheSingleRunsFramesAndDuration(_ n: Int) throws {
        let s = try Setup()
        defer { try? FileManager.default.removeItem(at: s.dir) }
        for i in 0..<n {
            let r = try s.batch(["--video", s.path("out.mp4"), "--chunk", "\(i)/\(n)"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: s.path("out.mp4")))
        let j = try Segue.run(["join", s.path("out.mp4")])
        #expect(j.status == 0 && j.stderr.contains("joined \(n) chunks (46 frames)"), "\(j.stderr)")
        #expect(try s.batch(["--video", s.path("single.mp4")]).status == 0)
        let joined = try Self.probe(s.path("out.mp4")), single = try Self.probe(s.path("single.mp4"))
        #expect(joined.contains("nb_read_frames=46"), "\(joined)")
        #expect(joined == single)
        // Joining the same chunks again does nothing.
        let again = try Segue.run(["join", s.path("out.mp4")])
        #expect(again.status == 0 && again.stderr.contains("already joined"), "\(again.stderr)")
    }

    /// ProRes 4444 chunks of a transparent video join losslessly: every decoded frame equals the single run's.
    @Test func transparentProResChunksJoinLosslessly() throws {
        let s = try Setup(Self.story.replacingOccurrences(of: "\"fps\": 30,", with: "\"fps\": 30, \"background\": \"transparent\","))
        defer { try? FileManager.default.removeItem(at: s.dir) }
        for i in 0..<3 {
            let r = try s.batch(["--video", s.path("out.mov"), "--chunk", "\(i)/3", "--join"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(try s.batch(["--video", s.path("single.mov")]).status == 0)
        let joined = try Self.decode(s.path("out.mov")), single = try Self.decode(s.path("single.mov"))
        #expect(joined.count == 46 * 64 * 114 * 8)
        #expect(joined == single)
    }

    /// The last chunk to finish joins with --join; the others say so and leave the video alone.
    @Test func theLastChunkToFinishJoins() throws {
        let s = try Setup()
        defer { try? FileManager.default.removeItem(at: s.dir) }
        for i in [2, 0] {
            let r = try Segue.run(["batch", s.story, "--backend", "cpu", "--video", s.path("out.mp4"), "--chunk", "\(i)/3", "--join"],
                                  environment: noScheduler)
            #expect(r.status == 0 && r.stderr.contains("not joining yet") && r.stderr.contains(i == 2 ? "chunks 0, 1 missing" : "chunk 1 missing"), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: s.path("out.mp4")))
        let last = try Segue.run(["batch", s.story, "--backend", "cpu", "--video", s.path("out.mp4"), "--chunk", "auto", "--join"],
                                 environment: ["CLOUD_RUN_TASK_INDEX": "1", "CLOUD_RUN_TASK_COUNT": "3"])
        #expect(last.status == 0 && last.stderr.contains("joined 3 chunks (46 frames)"), "\(last.stderr)")
        #expect(try Self.probe(s.path("out.mp4")).contains("nb_read_frames=46"))
    }

    @Test func joinRefusesAMissingChunk() throws {
        let s = try Setup()
        defer { try? FileManager.default.removeItem(at: s.dir) }
        for i in [0, 2] { #expect(try s.batch(["--video", s.path("out.mp4"), "--chunk", "\(i)/3"]).status == 0) }
        let j = try Segue.run(["join", s.path("out.mp4")])
        #expect(j.status == 1 && j.stderr == "segue: error: cannot join '\(s.path("out.mp4"))': of its 3 chunks, chunk 1 missing\n", "\(j.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.path("out.mp4")))
    }

    /// `ContentHash` (Sources/SegueRender/Job/ContentHash.swift) of `bytes` followed by `zeros` zero bytes,
    /// written again here: a chunk's record holds it, so a join of chunks recorded by an earlier segue checks them
    /// by these very digests. The zeros are hashed without being read or held.
    static func contentHash(_ bytes: [UInt8], zeros: Int = 0) -> String {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        // The zeros that complete the last word of `bytes`, then whole words of zeros, then single ones.
        let head = bytes + [UInt8](repeating: 0, count: min(zeros, (8 - bytes.count % 8) % 8))
        let rest = zeros - (head.count - bytes.count)
        let words = head.count / 8 * 8
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        head.withUnsafeBytes { raw in
            for i in stride(from: 0, to: words, by: 8) {
                h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* prime
                h ^= h >> 29
            }
        }
        for b in head[words...] { h = (h ^ UInt64(b)) &* prime }
        for _ in 0..<rest / 8 {
            h = h &* prime
            h ^= h >> 29
        }
        for _ in 0..<rest % 8 { h = h &* prime }
        var z = h ^ UInt64(bytes.count + zeros) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let digits = String(z, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// A join holds a fixed buffer, whatever the chunks weigh: each chunk padded to 1 GiB (a hole: no disk
    /// written), 2 GiB in all, and recorded again joins under `ulimit -v 800000` (781 MiB of address space),
    /// where reading one chunk whole could not fit (it read each whole, twice); and the digests this test
    /// computes are the ones segue recorded. Not 400000: there Debian 12's ffmpeg 5.1 itself spins from its
    /// start, on any join (two chunks of 8 KB: killed after 15 s at 3 MB resident; it runs at 600000), so the join
    /// stops at its timeout, saying so in one line.
    @Test(.enabled(if: !LimitTests.underSanitizer, "a sanitizer's shadow memory cannot fit under ulimit -v"))
    func largeChunksJoinInAFixedBuffer() throws {
        let s = try Setup()
        defer { try? FileManager.default.removeItem(at: s.dir) }
        for i in 0..<2 { #expect(try s.batch(["--video", s.path("out.mp4"), "--chunk", "\(i)/2"]).status == 0) }
        for i in 0..<2 {
            let chunk = s.path(String(format: "out.mp4.chunks/chunk-%04dof0002.mp4", i))
            let recordPath = s.path(String(format: "out.mp4.chunks/chunk-%04dof0002.json", i))
            var record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: recordPath))) as? [String: Any])
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: chunk)))
            #expect(record["hash"] as? String == Self.contentHash(bytes) && record["bytes"] as? Int == bytes.count, "\(record)")
            // An MP4 ends at its last box: the zeros after it (a box of size 0, to the end of the file) are skipped.
            #expect(truncate(chunk, 1 << 30) == 0)
            record["hash"] = Self.contentHash(bytes, zeros: (1 << 30) - bytes.count)
            record["bytes"] = 1 << 30
            try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: recordPath))
        }
        let j = try LimitTests.shell("ulimit -v 800000; exec \"$SEGUE\" join out.mp4", in: s.dir)
        #expect(j.status == 0 && j.stderr.contains("joined 2 chunks (46 frames)"), "\(j)")
        #expect(try Self.probe(s.path("out.mp4")).contains("nb_read_frames=46"))
    }

    /// A chunk of another job (here rendered at another size, replacing the manifest) is refused by name, as is
    /// one whose bytes are not the ones recorded.
    @Test func joinRefusesForeignAndDamagedChunks() throws {
        let s = try Setup()
        defer { try? FileManager.default.removeItem(at: s.dir) }
        for i in 0..<3 { #expect(try s.batch(["--video", s.path("out.mp4"), "--chunk", "\(i)/3"]).status == 0) }
        let other = try write(Self.story.replacingOccurrences(of: "[64, 114]", with: "[66, 114]"), "other.json", in: s.dir)
        let refused = try Segue.run(["batch", other, "--backend", "cpu", "--quiet", "--video", s.path("out.mp4"), "--chunk", "1/3"])
        #expect(refused.status == 2 && refused.stderr.contains("holds the chunks of another job: use --overwrite"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        let r = try Segue.run(["batch", other, "--backend", "cpu", "--quiet", "--video", s.path("out.mp4"), "--chunk", "1/3", "--overwrite"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try Segue.run(["join", s.path("out.mp4")])
        #expect(j.status == 1 && j.stderr.contains("chunks 0, 2 of another job"), "\(j.stderr)")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: s.path("out.mp4.chunks/chunk-0001of0003.mp4")))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        let damaged = try Segue.run(["join", s.path("out.mp4")])
        #expect(damaged.stderr.contains("chunk 1 damaged"), "\(damaged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.path("out.mp4")))
    }

    /// While another process holds the join lock, `segue join` fails at once naming it, and `--join` leaves the
    /// join to it.
    @Test func theJoinLockKeepsASecondJoinOut() throws {
        let s = try Setup()
        defer { try? FileManager.default.removeItem(at: s.dir) }
        for i in 0..<2 { #expect(try s.batch(["--video", s.path("out.mp4"), "--chunk", "\(i)/2"]).status == 0) }
        let fd = open(s.path("out.mp4.chunks/join.lock"), O_RDWR | O_CREAT, 0o644)
        #expect(fd >= 0 && flock(fd, LOCK_EX) == 0)
        _ = "4242\n".withCString { write(fd, $0, 5) }
        let j = try Segue.run(["join", s.path("out.mp4")])
        #expect(j.status == 1 && j.stderr.contains("is being joined by another segue (pid 4242)"), "\(j.stderr)")
        let auto = try Segue.run(["batch", s.story, "--backend", "cpu", "--video", s.path("out.mp4"), "--chunk", "1/2", "--join", "--resume"],
                                 environment: noScheduler)
        #expect(auto.status == 0 && auto.stderr.contains("not joining yet"), "\(auto.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.path("out.mp4")))
        close(fd)
        #expect(try Segue.run(["join", s.path("out.mp4")]).status == 0)
    }

    /// --resume keeps a complete chunk (the same file, not rendered again) and renders a damaged one again.
    @Test func resumeKeepsACompleteChunk() throws {
        let s = try Setup()
        defer { try? FileManager.default.removeItem(at: s.dir) }
        let chunk = s.path("out.mp4.chunks/chunk-0001of0002.mp4")
        #expect(try s.batch(["--video", s.path("out.mp4"), "--chunk", "1/2"]).status == 0)
        let inode = try FileManager.default.attributesOfItem(atPath: chunk)[.systemFileNumber] as? Int
        let kept = try Segue.run(["batch", s.story, "--backend", "cpu", "--video", s.path("out.mp4"), "--chunk", "1/2", "--resume"],
                                 environment: noScheduler)
        #expect(kept.status == 0 && kept.stderr.contains("chunk 1/2 (23 frames) is already complete"), "\(kept.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: chunk)[.systemFileNumber] as? Int == inode)
        try Data([0, 0, 0]).write(to: URL(fileURLWithPath: chunk))
        let redone = try s.batch(["--video", s.path("out.mp4"), "--chunk", "1/2", "--resume"])
        #expect(redone.status == 0, "\(redone.stderr)")
        #expect(try Self.probe(chunk).contains("nb_read_frames=23"))
    }

    /// Hostile and impossible requests: one line, exit 2, nothing written.
    @Test(arguments: [
        (["--video", "out.mp4", "--chunk", "4/4"], [:], "chunk 4 of 4 does not exist"),
        (["--video", "out.mp4", "--chunk", "0/47"], [:], "47 chunks of a job of 46 frames"),
        (["--video", "out.mp4", "--chunk", "x"], [:], "'x' is not a chunk I/N"),
        (["--video", "out.mp4", "--chunk", "auto"], [:], "--chunk auto: no scheduler's task index is set"),
        (["--video", "out.mp4", "--chunk", "auto"], ["AWS_BATCH_JOB_ARRAY_INDEX": "9", "SEGUE_SHARDS": "4"],
         "AWS_BATCH_JOB_ARRAY_INDEX gives task 9, outside 0...3 of SEGUE_SHARDS=4"),
        (["--video", "out.mp4", "--chunk", "auto"], ["JOB_COMPLETION_INDEX": "1"], "JOB_COMPLETION_INDEX is set (Kubernetes Indexed Job) but SEGUE_SHARDS"),
        (["--video", "out.mp4", "--chunk", "auto"], ["CLOUD_RUN_TASK_INDEX": "one", "CLOUD_RUN_TASK_COUNT": "2"], "CLOUD_RUN_TASK_INDEX='one' is not a whole number"),
        (["--video", "out.gif", "--chunk", "0/2"], [:], "'out.gif' cannot be rendered in chunks: a GIF's chunks"),
        (["--out", "frames/", "--chunk", "0/2"], [:], "chunk 0/2 is part of a video"),
        (["--video", "out.mp4", "--join"], [:], "--join needs --chunk"),
        (["--video", "out.mp4", "--chunk", "0/2", "--shard", "0/2"], [:], "--shard and --chunk do not combine"),
    ] as [([String], [String: String], String)])
    func badChunkRequestsAreOneClearLine(_ extra: [String], _ env: [String: String], _ message: String) throws {
        let s = try Setup()
        defer { try? FileManager.default.removeItem(at: s.dir) }
        let r = try s.batch(extra, env: noScheduler.merging(env) { $1 })
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.hasPrefix("segue: error: "), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.dir.path) == ["story.json"])
    }

    @Test func aTransparentWebMIsRefusedAndJoinNeedsChunks() throws {
        let s = try Setup(Self.story.replacingOccurrences(of: "\"fps\": 30,", with: "\"fps\": 30, \"background\": \"transparent\","))
        defer { try? FileManager.default.removeItem(at: s.dir) }
        let r = try s.batch(["--video", "out.webm", "--chunk", "0/2"])
        #expect(r.status == 2 && r.stderr.contains("a transparent WebM keeps its alpha outside"), "\(r.stderr)")
        let j = try Segue.run(["join", s.path("none.mp4")])
        #expect(j.status == 2 && j.stderr.contains("has no chunks to join"), "\(j.stderr)")
        let gif = try Segue.run(["join", s.path("x.gif")])
        #expect(gif.status == 2 && gif.stderr.split(separator: "\n").count == 1, "\(gif.stderr)")
    }

    /// `segue info` says which scheduler's task it found.
    @Test func infoNamesTheScheduler() throws {
        let aws = try Segue.run(["info"], environment: noScheduler.merging(["AWS_BATCH_JOB_ARRAY_INDEX": "3", "SEGUE_SHARDS": "8"]) { $1 })
        #expect(String(decoding: aws.stdout, as: UTF8.self).contains("scheduler: AWS Batch array job, task 3 of 8"))
        let none = try Segue.run(["info"], environment: noScheduler)
        #expect(String(decoding: none.stdout, as: UTF8.self).contains("scheduler: none (looked for SLURM_ARRAY_TASK_ID"))
    }
}
