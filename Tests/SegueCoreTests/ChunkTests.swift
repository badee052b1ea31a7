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

    /// A Slurm array's environment as Slurm sets it for the task `id` of an array of the `ids`: MIN, MAX, COUNT,
    /// and STEP, the common difference of evenly spaced ids (1 for ids that are not).
    static func slurm(_ id: Int, of ids: [Int]) -> [String: String] {
        let gaps = Set(zip(ids, ids.dropFirst()).map { $1 - $0 })
        return ["SLURM_ARRAY_TASK_ID": "\(id)", "SLURM_ARRAY_TASK_MIN": "\(ids.first!)", "SLURM_ARRAY_TASK_MAX": "\(ids.last!)",
                "SLURM_ARRAY_TASK_COUNT": "\(ids.count)", "SLURM_ARRAY_TASK_STEP": "\(gaps.count == 1 ? gaps.first! : 1)"]
    }

    /// A task's index is its place among the array's task ids: `0-4:2` (0, 2, 4), `1,3,5`, a throttled `0-9%2`
    /// (the throttle limits how many run at once, not the ids). Every chunk and shard is some task's, once.
    @Test(arguments: [[0, 2, 4], [1, 3, 5], Array(0...9), [10, 13, 16, 19]])
    func aSlurmArrayWithAStepIndexesItsTasksInOrder(_ ids: [Int]) throws {
        for (position, id) in ids.enumerated() {
            let env = Self.slurm(id, of: ids)
            #expect(try Scheduler.task(in: env) == Scheduler.Task(scheduler: .slurm, index: position, count: ids.count), "\(env)")
            #expect(try Chunk(#require(try Scheduler.task(in: env))) == Chunk(index: position, count: ids.count))
            #expect(try Shard.fromEnvironment(env) == Shard(index: position, count: ids.count))
        }
    }

    /// Ids that are not evenly spaced (`1-3,7`), or a STEP that does not fit them, cannot say a task's place:
    /// refused, saying how to submit the array.
    @Test(arguments: [Self.slurm(7, of: [1, 2, 3, 7]), Self.slurm(2, of: [1, 2, 3, 7]),
                      ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "5",
                       "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_STEP": "1"],
                      ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "4",
                       "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_STEP": "2"]])
    func aSlurmArrayOfUnevenIdsIsRefused(_ env: [String: String]) throws {
        do {
            let task = try Scheduler.task(in: env)
            Issue.record("\(env) gave \(String(describing: task))")
        } catch {
            #expect(error.description.contains("not evenly spaced") && error.description.contains("submit the array as a range"),
                    "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
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
