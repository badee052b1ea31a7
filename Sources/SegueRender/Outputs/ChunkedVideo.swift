import Foundation
import SegueCore
import SegueImageIO

/// A video rendered as chunks on many machines and joined without re-encoding.
///
/// The chunks of the video `OUT` live in the directory `OUT.chunks/` beside it:
///
/// - `job`: the manifest, one JSON object written atomically: `{"segue-chunks":1,"job":KEY,"frames":F,
///   "chunks":N,"width":W,"height":H,"fps":R}`. `KEY` is the job's picture key (`RenderJob.pictureKey`) with
///   the container and the encoder's arguments: chunks of one key join into one video.
/// - `chunk-0003of0008.mp4`: chunk 3 of 8, the frames `Chunk.frames(3, of: 8, in: F)`, a video of its own
///   (it starts on a key frame, with the codec, settings, time base and colour tags of every other chunk),
///   written under a temporary name and renamed when ffmpeg exits 0.
/// - `chunk-0003of0008.json`: its record, written atomically after the rename: `{"job":KEY,"chunk":3,
///   "chunks":8,"first":11,"end":23,"hash":HASH,"bytes":B}` (`HASH`: `ContentHash` of the file's bytes).
/// - `join.lock`: an advisory `flock`, held exclusively by whoever joins (never removed); `joined`: the key
///   and hash of the video last joined, so a second join of the same chunks does nothing.
///
/// A chunk is complete (kept by a resumed run, taken by a join) when its record names the manifest's key, its
/// index and count, and its file hashes to the record's hash.
public struct ChunkedVideo: Sendable {
    /// The joined video's path.
    public let path: String

    /// The chunked video whose joined file is `path`.
    public init(_ path: String) { self.path = path }

    /// `OUT.chunks`.
    public var directory: String { path + ".chunks" }
    var container: String { PathName.extension(path).lowercased() }

    /// `chunk-0003of0008.mp4`.
    func chunkName(_ index: Int, of count: Int) -> String {
        String(format: "chunk-%04dof%04d.", index, count) + container
    }
    func chunkPath(_ index: Int, of count: Int) -> String { file(chunkName(index, of: count)) }
    func recordPath(_ index: Int, of count: Int) -> String {
        file(String(format: "chunk-%04dof%04d.json", index, count))
    }
    private func file(_ name: String) -> String { PathName.join(directory, name) }

    /// Why chunks cannot be written or joined: values a program can switch on, each with its one line.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The container cannot be chunked and joined without re-encoding (a GIF; a transparent WebM).
        case cannotChunk(path: String, reason: String)
        /// The chunk directory holds chunks of another job (its manifest has another key or count).
        case otherJob(directory: String)
        /// There is no manifest: nothing was chunked for this video.
        case noChunks(path: String)
        /// Chunks that are missing, of another job, or damaged (their indices), of `count`.
        case incomplete(path: String, missing: [Int], foreign: [Int], damaged: [Int], count: Int)
        /// Another process holds the join lock.
        case joining(path: String, holder: String)
        /// The joined file does not have the job's frame count.
        case frameCount(path: String, expected: Int, found: Int)

        /// One line naming the file and what is wrong.
        public var description: String {
            switch self {
            case let .cannotChunk(path, reason):
                "'\(path)' cannot be rendered in chunks: \(reason)"
            case let .otherJob(directory):
                "'\(directory)' holds the chunks of another job (another storyboard, size, encoder or number of chunks)"
            case let .noChunks(path):
                "'\(path)' has no chunks to join ('\(path).chunks/job' is missing): render its chunks first"
            case let .incomplete(path, missing, foreign, damaged, count):
                [missing.isEmpty ? nil : "\(Self.list(missing)) missing",
                 foreign.isEmpty ? nil : "\(Self.list(foreign)) of another job",
                 damaged.isEmpty ? nil : "\(Self.list(damaged)) damaged (not as recorded)"]
                    .compactMap { $0 }.joined(separator: ", ").prefixed("cannot join '\(path)': of its \(count) chunks, ")
            case let .joining(path, holder):
                "'\(path)' is being joined by another segue (\(holder))"
            case let .frameCount(path, expected, found):
                "joining '\(path)' gave \(found) frames, not the job's \(expected): the chunks do not join cleanly"
            }
        }

        static func list(_ indices: [Int]) -> String {
            let shown = indices.prefix(8).map(String.init).joined(separator: ", ")
            return (indices.count == 1 ? "chunk " : "chunks ") + shown + (indices.count > 8 ? " and \(indices.count - 8) more" : "")
        }

        /// Whether the problem is the user's to change (a usage error) rather than a failure.
        public var isUsage: Bool {
            switch self {
            case .cannotChunk, .otherJob, .noChunks: true
            default: false
            }
        }
    }

    /// Refuses what cannot be chunked: a GIF (each chunk would have its own palette, and the join would need
    /// a re-encode) and a transparent WebM (its alpha rides in Matroska block additions). Opaque `.mp4`
    /// (H.264), `.webm` (VP9) and `.mov` (ProRes), and transparent `.mov` (ProRes 4444, every frame a key
    /// frame), join losslessly.
    static func check(_ path: String, transparent: Bool) throws {
        let ext = PathName.extension(path).lowercased()
        if ext == "gif" {
            throw Problem.cannotChunk(path: path, reason: "a GIF's chunks would each have a palette of their own, and joining them would re-encode every frame; render the GIF in one run, or chunk an .mp4 and convert it")
        }
        if transparent && ext == "webm" {
            throw Problem.cannotChunk(path: path, reason: "a transparent WebM keeps its alpha outside the VP9 frames, which a join by stream copy does not promise to keep; use a .mov (ProRes 4444), whose chunks join losslessly")
        }
    }

    // MARK: Manifest and records

    struct Manifest: Codable, Equatable {
        var segueChunks = 1
        var job: String
        var frames: Int
        var chunks: Int
        var width: Int
        var height: Int
        var fps: Double

        enum CodingKeys: String, CodingKey {
            case segueChunks = "segue-chunks", job, frames, chunks, width, height, fps
        }
    }

    struct Record: Codable, Equatable {
        var job: String
        var chunk: Int
        var chunks: Int
        var first: Int
        var end: Int
        var hash: String
        var bytes: Int
    }

    func readManifest() -> Manifest? {
        guard let data = FileManager.default.contents(atPath: file("job")) else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: data)
    }

    private static func json<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array((try? encoder.encode(value)) ?? Data()) + [UInt8(ascii: "\n")]
    }

    private static func write(_ bytes: [UInt8], to path: String) throws {
        do {
            try FileWriter.writeAtomically(bytes, to: path)
        } catch {
            throw SegueError(classifying: error) ?? SegueError.failed("cannot write '\(path)': \(error)")
        }
    }

    /// Opens the chunk directory for chunk `chunk` of a job: creates it, refuses chunks of another job unless
    /// `replace`, writes the manifest. Returns whether the chunk is already complete.
    func open(_ manifest: Manifest, chunk: Chunk, replace: Bool) throws -> Bool {
        if mkdir(directory, 0o755) != 0 && errno != EEXIST {
            throw SegueError.failed("cannot create '\(directory)': \(ErrnoReason.text(errno))")
        }
        if let recorded = readManifest(), recorded != manifest {
            guard replace else { throw Problem.otherJob(directory: directory) }
        }
        if readManifest() != manifest {
            try Self.write(Self.json(manifest), to: file("job"))
        }
        return complete(chunk.index, of: manifest)
    }

    /// Whether chunk `index` is complete for `manifest`: recorded for its key, index and count, and its file
    /// a regular file hashing as recorded.
    func complete(_ index: Int, of manifest: Manifest) -> Bool {
        status(index, of: manifest) == .complete
    }

    enum ChunkStatus { case complete, missing, foreign, damaged }

    func status(_ index: Int, of manifest: Manifest) -> ChunkStatus {
        guard let data = FileManager.default.contents(atPath: recordPath(index, of: manifest.chunks)),
              let record = try? JSONDecoder().decode(Record.self, from: data) else {
            // A chunk file with no record is one that was never finished (or of no job Segue knows).
            return .missing
        }
        guard record.job == manifest.job, record.chunk == index, record.chunks == manifest.chunks,
              Chunk.frames(index, of: manifest.chunks, in: manifest.frames) == record.first..<record.end else {
            return .foreign
        }
        var info = stat()
        let chunk = chunkPath(index, of: manifest.chunks)
        guard lstat(chunk, &info) == 0 else { return .missing }
        guard info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == record.bytes,
              let read = ContentHash.of(file: chunk), read.hash == record.hash, read.bytes == record.bytes else { return .damaged }
        return .complete
    }

    /// Records chunk `chunk` once its file is in place.
    func record(_ chunk: Chunk, of manifest: Manifest) throws {
        let path = chunkPath(chunk.index, of: chunk.count)
        guard let read = ContentHash.of(file: path) else {
            throw SegueError.failed("cannot read the chunk just written, '\(path)'")
        }
        let range = Chunk.frames(chunk.index, of: chunk.count, in: manifest.frames)
        let record = Record(job: manifest.job, chunk: chunk.index, chunks: chunk.count, first: range.lowerBound,
                            end: range.upperBound, hash: read.hash, bytes: read.bytes)
        try Self.write(Self.json(record), to: recordPath(chunk.index, of: chunk.count))
    }

    // MARK: Joining

    /// What a join did.
    public enum Outcome: Sendable, Equatable {
        /// The chunks were joined into the video: `frames` frames from `chunks` chunks.
        case joined(chunks: Int, frames: Int)
        /// The video was joined from these very chunks already.
        case alreadyJoined(chunks: Int, frames: Int)
        /// (`ifComplete` only) Chunks are still to come, or another process is joining.
        case notYet(Problem)
    }

    /// The longest the join's ffmpeg may take: a stream copy of the chunks, reading and writing them once.
    static func joinTimeout(bytes: Int) -> Double { 60 + Double(bytes) / 20e6 }

    /// Joins the chunks into the video: checks every chunk is complete and of the manifest's job, concatenates
    /// them with ffmpeg's concat demuxer by stream copy (each chunk's duration given exactly, so the joined
    /// time stamps are those of one encode), checks the result has exactly the job's frame count (ffprobe) and
    /// renames it over the video. Only one process joins at a time: it holds `join.lock` (`flock`, exclusive,
    /// not waited for); a second one finds it held and fails (`Problem.joining`), or with `ifComplete`
    /// returns `.notYet`, as it does when chunks are still to come (the last chunk to finish then joins).
    /// Throws `SegueError` (a `Problem` as its kind: `.outputInUse` for a join held by another process...).
    public func join(ifComplete: Bool = false, control: JobControl? = nil) throws(SegueError) -> Outcome {
        try SegueError.converting { try joinChunks(ifComplete: ifComplete, control: control) }
    }

    private func joinChunks(ifComplete: Bool, control: JobControl?) throws -> Outcome {
        try FFmpegStream.validate(path)
        try Self.check(path, transparent: false)
        guard let manifest = readManifest() else { throw Problem.noChunks(path: path) }

        let lockPath = file("join.lock")
        let lockFD = Glibc.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lockFD >= 0 else { throw SegueError.failed("cannot open '\(lockPath)': \(ErrnoReason.text(errno))") }
        defer { close(lockFD) }  // releases the lock
        if flock(lockFD, LOCK_EX | LOCK_NB) != 0 {
            let holder = (FileManager.default.contents(atPath: lockPath)).map { String(decoding: $0, as: UTF8.self) }?
                .split(separator: "\n").first.map { "pid \($0)" } ?? "a process that did not record its pid"
            let problem = Problem.joining(path: path, holder: holder)
            if ifComplete { return .notYet(problem) }
            throw problem
        }
        ftruncate(lockFD, 0)
        _ = Array("\(getpid())\n".utf8).withUnsafeBytes { pwrite(lockFD, $0.baseAddress!, $0.count, 0) }

        var missing: [Int] = [], foreign: [Int] = [], damaged: [Int] = []
        var bytes = 0
        for i in 0..<manifest.chunks {
            switch status(i, of: manifest) {
            case .complete: bytes += Int((try? FileManager.default.attributesOfItem(atPath: chunkPath(i, of: manifest.chunks))[.size] as? Int) ?? 0)
            case .missing: missing.append(i)
            case .foreign: foreign.append(i)
            case .damaged: damaged.append(i)
            }
        }
        if !(missing.isEmpty && foreign.isEmpty && damaged.isEmpty) {
            let problem = Problem.incomplete(path: path, missing: missing, foreign: foreign, damaged: damaged, count: manifest.chunks)
            if ifComplete { return .notYet(problem) }
            throw problem
        }
        let joinedPath = file("joined")
        if let data = FileManager.default.contents(atPath: joinedPath), let out = ContentHash.of(file: path),
           String(decoding: data, as: UTF8.self) == "\(manifest.job) \(out.hash)\n" {
            return .alreadyJoined(chunks: manifest.chunks, frames: manifest.frames)
        }

        // The list, each chunk with its exact duration in microseconds (rounded from the frame times, so the
        // offsets add up to those of the frames): without it the demuxer offsets each chunk by its own
        // rounded duration, and the time stamps drift a few ticks per chunk.
        var list = "ffconcat version 1.0\n"
        func micros(_ k: Int) -> Int { Int((Double(k) * 1e6 / manifest.fps).rounded()) }
        for i in 0..<manifest.chunks {
            let range = Chunk.frames(i, of: manifest.chunks, in: manifest.frames)
            list += "file '\(chunkName(i, of: manifest.chunks))'\nduration \(micros(range.upperBound) - micros(range.lowerBound))us\n"
        }
        let listPath = file("concat-\(getpid()).txt")
        // From here the join leaves files to remove: a signal removes them (the list, the temporary video) and
        // ends ffmpeg, rather than ending the process where it stands.
        control?.creatingOutput()
        control?.register(temporaryFile: listPath)
        defer {
            control?.forget(temporaryFile: listPath)
            unlink(listPath)
        }
        try Self.write(Array(list.utf8), to: listPath)

        let ffmpeg = try FFmpegStream.locate(for: path)
        let container = FFmpegStream.defaults[self.container]!
        let temporary = FileWriter.temporaryPath(for: path)
        StaleTemporaries.remove(besides: path)
        control?.register(temporaryFile: temporary)
        defer { control?.forget(temporaryFile: temporary) }
        let arguments = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-f", "concat", "-i", listPath,
                         "-map", "0:v", "-c", "copy"]
            + (self.container == "mp4" ? ["-movflags", "+faststart"] : []) + ["-f", container.muxer, temporary]
        let limit = Self.joinTimeout(bytes: bytes)
        control?.touch("joining \(manifest.chunks) chunks into '\(path)'", timed: false)
        let child = try ChildProcess(executable: ffmpeg, arguments: arguments, control: control)
        guard let ended = child.wait(until: .now() + limit) else {
            child.kill()
            child.wait()
            unlink(temporary)
            throw SegueError.failed("ffmpeg joining '\(path)' took longer than \(Int(limit)) s: stopped")
        }
        guard ended == .exited(0) else {
            let said = child.errorLines(3).map { $0.replacingOccurrences(of: temporary, with: path) }
            unlink(temporary)
            throw SegueError.failed("ffmpeg failed joining the chunks of '\(path)': \(said.isEmpty ? ended.silence : said.joined(separator: " / "))")
        }
        let found: Int
        do {
            found = try Self.countFrames(temporary, shownAs: path, control: control)
        } catch {
            unlink(temporary)
            throw error
        }
        guard found == manifest.frames else {
            unlink(temporary)
            throw Problem.frameCount(path: path, expected: manifest.frames, found: found)
        }
        guard rename(temporary, path) == 0 else {
            let reason = ErrnoReason.text(errno)
            unlink(temporary)
            throw SegueError.failed("cannot write '\(path)': \(reason)")
        }
        if let out = ContentHash.of(file: path) {
            try? FileWriter.writeAtomically(Array("\(manifest.job) \(out.hash)\n".utf8), to: joinedPath)
        }
        return .joined(chunks: manifest.chunks, frames: manifest.frames)
    }

    /// The video frames (packets) in `video`, counted by ffprobe without decoding.
    static func countFrames(_ video: String, shownAs name: String, control: JobControl?) throws -> Int {
        let ffprobe = try FFmpegStream.locate(forClip: name, tool: "ffprobe")
        let p = try ChildProcess(executable: ffprobe, arguments: [
            "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries", "stream=nb_read_packets",
            "-of", "csv=p=0", video,
        ], output: .pipe, control: control)
        let deadline = DispatchTime.now() + 120
        let out = p.readOutput(until: deadline)
        guard let out, p.wait(until: deadline) == .exited(0),
              let n = Int(String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            p.kill()
            p.wait()
            throw SegueError.failed("ffprobe could not count the frames of the joined '\(name)'\(p.errorLines(1).first.map { ": \($0)" } ?? "")")
        }
        return n
    }
}

private extension String {
    func prefixed(_ prefix: String) -> String { prefix + self }
}

extension ChunkedVideo.Problem: SegueErrorConvertible {
    /// A chunked output that cannot be made, is another job's, or could not be joined.
    public var segueError: SegueError {
        let kind: SegueError.Kind
        switch self {
        case let .cannotChunk(path, _): kind = .invalidOption(effect: nil, option: "output", value: path)
        case let .otherJob(directory): kind = .outputInUse(path: directory, byRunningJob: false)
        case let .noChunks(path): kind = .invalidOption(effect: nil, option: "output", value: path)
        case let .joining(path, _): kind = .outputInUse(path: path, byRunningJob: true)
        case .incomplete, .frameCount: kind = .failed
        }
        return SegueError(kind, description)
    }
}
