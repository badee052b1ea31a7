import SegueCore
import Testing

@Suite struct ChunkTests {
    /// Chunks of F frames are contiguous, disjoint, cover every frame and differ in length by at most one,
    /// whatever F and N (uneven ones included).
    @Test(arguments: [(46, 4), (10, 3), (7, 7), (1, 1), (1000, 9), (5, 2)])
    func chunksPartitionTheFrames(_ frames: Int, _ count: Int) throws {
        var next = 0
        var lengths: [Int] = []
        for i in 0..<count {
            let range = try Chunk(index: i, count: count).frames(of: frames)
            #expect(range.lowerBound == next)
            #expect(!range.isEmpty)
            next = range.upperBound
            lengths.append(range.count)
        }
        #expect(next == frames)
        #expect(lengths.max()! - lengths.min()! <= 1)
    }

    @Test func unevenChunksAreTheIssuesFormula() throws {
        // [I*F/N, (I+1)*F/N): 46 frames in 4 chunks.
        #expect(try (0..<4).map { try Chunk(index: $0, count: 4).frames(of: 46) } == [0..<11, 11..<23, 23..<34, 34..<46])
    }

    @Test func moreChunksThanFramesIsRefused() throws {
        #expect(throws: Chunk.Problem.moreChunksThanFrames(chunks: 8, frames: 5)) { try Chunk(index: 0, count: 8).frames(of: 5) }
    }

    @Test func parsing() throws {
        #expect(try Chunk(parsing: "3/4") == Chunk(index: 3, count: 4))
        for bad in ["4/4", "-1/4", "0/0", "x", "1/", "/4", "1/4/5", "0/100000"] {
            #expect(throws: Chunk.Problem.self) { try Chunk(parsing: bad) }
        }
        #expect(String(describing: (try? Chunk(parsing: "4/4")) as Any) == "nil")
    }

    /// Each scheduler of the table gives its task from its own variables.
    @Test(arguments: [
        (["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4"], Scheduler.slurm, 2, 4),
        (["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "3"], .slurm, 2, 4),
        (["JOB_COMPLETION_INDEX": "0", "SEGUE_SHARDS": "3"], .kubernetes, 0, 3),
        (["AWS_BATCH_JOB_ARRAY_INDEX": "7", "SEGUE_SHARDS": "8"], .awsBatch, 7, 8),
        (["CLOUD_RUN_TASK_INDEX": "1", "CLOUD_RUN_TASK_COUNT": "2"], .cloudRun, 1, 2),
    ] as [([String: String], Scheduler, Int, Int)])
    func eachSchedulerGivesItsTask(_ env: [String: String], _ scheduler: Scheduler, _ index: Int, _ count: Int) throws {
        let task = try #require(try Scheduler.task(in: env))
        #expect(task == Scheduler.Task(scheduler: scheduler, index: index, count: count))
        #expect(try Shard.fromEnvironment(env) == Shard(index: index, count: count))
        #expect(try Chunk(task) == Chunk(index: index, count: count))
    }

    @Test func noSchedulerIsNil() throws {
        #expect(try Scheduler.task(in: [:]) == nil)
        #expect(try Scheduler.task(in: ["SEGUE_SHARDS": "4", "CLOUD_RUN_TASK_COUNT": "3", "SLURM_ARRAY_TASK_ID": ""]) == nil)
    }

    /// A malformed or out-of-range environment is one problem naming the variables.
    @Test(arguments: [
        (["AWS_BATCH_JOB_ARRAY_INDEX": "x", "SEGUE_SHARDS": "4"], "AWS_BATCH_JOB_ARRAY_INDEX='x' is not a whole number"),
        (["AWS_BATCH_JOB_ARRAY_INDEX": "4", "SEGUE_SHARDS": "4"], "AWS_BATCH_JOB_ARRAY_INDEX gives task 4, outside 0...3 of SEGUE_SHARDS=4"),
        (["AWS_BATCH_JOB_ARRAY_INDEX": "1"], "AWS_BATCH_JOB_ARRAY_INDEX is set (AWS Batch array job) but SEGUE_SHARDS"),
        (["CLOUD_RUN_TASK_INDEX": "-1", "CLOUD_RUN_TASK_COUNT": "2"], "CLOUD_RUN_TASK_INDEX gives task -1, outside 0...1"),
        (["CLOUD_RUN_TASK_INDEX": "0", "CLOUD_RUN_TASK_COUNT": "0"], "CLOUD_RUN_TASK_COUNT=0: the number of tasks must be at least 1"),
        (["JOB_COMPLETION_INDEX": "0", "SEGUE_SHARDS": "99999999999999999999"], "SEGUE_SHARDS='99999999999999999999' is not a whole number"),
        (["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "3"], "SLURM_ARRAY_TASK_ID gives task -1 (counted from SLURM_ARRAY_TASK_MIN)"),
        (["JOB_COMPLETION_INDEX": "1.5", "SEGUE_SHARDS": "4"], "JOB_COMPLETION_INDEX='1.5' is not a whole number"),
    ] as [([String: String], String)])
    func badEnvironmentIsOneProblem(_ env: [String: String], _ message: String) throws {
        do {
            _ = try Scheduler.task(in: env)
            Issue.record("no problem for \(env)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
            #expect(!error.description.contains("\n"))
            #expect(!error.description.contains("--"))
        }
    }
}
