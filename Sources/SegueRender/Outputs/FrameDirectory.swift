import Foundation
import SegueCore
import SegueImageIO

/// A directory of `frame_%05d.png` files, with what Segue keeps about them in `.segue/` inside it:
///
/// - `.segue/lock`: an advisory `flock` held for the job's life (exclusive; shared by the shards of one job),
///   holding one line per holder: `pid host whole|shard`. A second job on the directory fails at once with
///   the holder's pid.
/// - `.segue/job`: the manifest, one JSON object: the job's key (a hash of everything that determines the
///   pictures: `RenderJob.pictureKey`), its frame count and size. Written atomically.
/// - `.segue/frames-<shard>.jsonl`: one line appended per frame written, after its rename:
///   `{"job":KEY,"frame":12,"hash":HASH,"bytes":N}` (HASH: `ContentHash` of the file's bytes).
///
/// A frame is complete (kept by `--resume`) only if it is a regular file named exactly `frame_%05d.png`, in the
/// job's range, recorded for this job's key, and its bytes hash to the recorded hash. A directory without a
/// manifest (written before manifests existed) is checked by decoding instead: a whole PNG of the job's size.
///
/// Temporary files (`.frame_00012.png.tmp-<pid>-<n>`) left by a killed run are removed before rendering, but only
/// those of frames this shard renders, so shards sharing the directory never touch each other's files.
final class FrameDirectory: @unchecked Sendable {
    let path: String
    private var lockFD: Int32 = -1
    private var logFD: Int32 = -1
    private var key = ""
    private let logLock = NSLock()

    static let metadata = ".segue"

    /// Creates the directory if needed, never through a link: its parents as needed, then the directory itself
    /// with `mkdir`, which follows no link; one already there must be a directory, not a link to one (a link
    /// planted at the name after the output was checked would send the frames elsewhere).
    init(creating path: String) throws {
        self.path = path
        let parent = PathName.parent(path)
        do {
            if !parent.isEmpty { try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true) }
        } catch {
            throw SegueError.failed("cannot create the output directory '\(path)': \((error as NSError).localizedFailureReason ?? error.localizedDescription)")
        }
        if mkdir(path, 0o777) != 0 {
            let code = errno
            var info = stat()
            guard code == EEXIST, lstat(path, &info) == 0 else {
                throw SegueError.failed("cannot create the output directory '\(path)': \(ErrnoReason.text(code))")
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw SegueError.failed("cannot create the output directory '\(path)': \(info.st_mode & S_IFMT == S_IFLNK ? "it is a link, which is not followed" : "something that is not a directory is there")")
            }
        }
    }

    deinit {
        if logFD >= 0 { close(logFD) }
        if lockFD >= 0 { close(lockFD) }  // releases the lock
    }

    /// `frame_00012.png` for frame 12.
    static func fileName(_ index: Int) -> String { String(format: "frame_%05d.png", index) }

    /// The frame index of `frame_00012.png` (exactly as `fileName` writes it) or of its temporary
    /// `.frame_00012.png.tmp-123-4`.
    static func index(of name: String, temporary: Bool) -> Int? {
        var s = Substring(name)
        if temporary {
            guard s.hasPrefix("."), let r = s.range(of: ".tmp-") else { return nil }
            s = s[s.index(after: s.startIndex)..<r.lowerBound]
        }
        guard let k = looseIndex(of: s), fileName(k) == String(s) else { return nil }
        return k
    }

    /// The index of anything an ffmpeg join or an older Segue might take for a frame: `frame_`, an optional
    /// sign, digits, `.png` (`frame_0000010.png`, `frame_+0020.png`).
    static func looseIndex(of name: Substring) -> Int? {
        guard name.hasPrefix("frame_"), name.hasSuffix(".png") else { return nil }
        let middle = name.dropFirst("frame_".count).dropLast(4)
        let digits = middle.first == "+" || middle.first == "-" ? middle.dropFirst() : middle
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(middle) ?? Int.max
    }

    private func names() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] }
    private func file(_ name: String) -> String { PathName.join(path, name) }
    private func meta(_ name: String) -> String { file("\(Self.metadata)/\(name)") }

    /// Removes the temporary files of the frames `owned` says are this job's, left by another process (this
    /// process's own are a live job's: another job of this process writing the same frames).
    func removeTemporaryFiles(owned: (Int) -> Bool) {
        for name in names() {
            if let k = Self.index(of: name, temporary: true), owned(k),
               let r = name.range(of: ".tmp-", options: .backwards),
               FileWriter.temporaryOwner(name[r.upperBound...])?.isThisProcess != true {
                unlink(file(name))
            }
        }
    }

    // MARK: Opening for a job

    /// What `open` was asked to do.
    struct Request {
        var key: String
        var frameCount: Int
        var width: Int
        var height: Int
        var shard: Shard
        var resume: Bool
        var overwrite: Bool
    }

    /// Locks the directory for the job, refuses frames of another job unless `overwrite` or `resume`, removes
    /// stale frames (outside the job's range, of another job, or not regular files in the way of this shard's
    /// frames) and returns the frames already complete (with `resume`; empty otherwise).
    func open(_ request: Request) throws -> Set<Int> {
        key = request.key
        let metaPath = file(Self.metadata)
        if mkdir(metaPath, 0o755) != 0 && errno != EEXIST {
            throw SegueError.failed("cannot create '\(metaPath)': \(ErrnoReason.text(errno))")
        }
        let exclusive = try lock(shard: request.shard.count > 1)
        let recorded = Self.readManifest(meta("job"))
        let sameJob = recorded == request.key
        let range = 0..<request.frameCount
        var complete = Set<Int>()
        var legacy: [Int: String] = [:]

        if !exclusive {
            // Other shards hold the directory: they must be shards of this job (the first one wrote the manifest).
            guard sameJob else {
                throw SegueError(.outputInUse(path: path, byRunningJob: true), "the output directory '\(path)' is in use by shards of another job (\(holders())); wait for them to end or choose another \(option: .output)")
            }
        } else {
            let frameLike = names().filter { Self.looseIndex(of: Substring($0)) != nil }.sorted()
            if !sameJob {
                if !frameLike.isEmpty && !request.resume && !request.overwrite {
                    let what = recorded == nil ? "with no Segue manifest" : "of another job"
                    let span = frameLike.count == 1 ? frameLike[0] : "\(frameLike.first!) ... \(frameLike.last!)"
                    throw SegueError(.outputInUse(path: path, byRunningJob: false), "the output directory '\(path)' holds \(frameLike.count) frames \(what) (\(span)): use \(option: .overwrite) to replace them, or \(option: .resume) to render this job there keeping the frames of it that are complete")
                }
                if recorded == nil && request.resume {
                    // Written before manifests: a frame counts if it is a whole PNG of the job's size.
                    for name in frameLike {
                        if let k = Self.index(of: name, temporary: false), range.contains(k),
                           let hash = Self.wholePNG(file(name), width: request.width, height: request.height) {
                            legacy[k] = hash
                        }
                    }
                }
                // A new job: records of the old one first (a crash before the manifest is rewritten then
                // leaves nothing that vouches for an old frame), then its frames, then the new manifest.
                for name in (try? FileManager.default.contentsOfDirectory(atPath: metaPath)) ?? [] where name.hasPrefix("frames-") {
                    unlink(meta(name))
                }
                for name in frameLike where legacy[Self.index(of: name, temporary: false) ?? -1] == nil {
                    try remove(name)
                }
                let manifest = "{\"segue-manifest\":1,\"job\":\"\(request.key)\",\"frames\":\(request.frameCount),\"width\":\(request.width),\"height\":\(request.height)}\n"
                do {
                    try FileWriter.writeAtomically(Array(manifest.utf8), to: meta("job"))
                } catch {
                    throw SegueError(classifying: error) ?? SegueError.failed("\(error)")
                }
            } else {
                // The same job: only what it would never write is stale.
                for name in frameLike {
                    if let k = Self.index(of: name, temporary: false), range.contains(k) { continue }
                    try remove(name)
                }
            }
            // Shared from here on, for the other shards. Linux may release the lock for a moment while converting
            // it, and another shard may take it exclusively then to look the directory over: wait for that
            // (it is short, and it never waits on us).
            if request.shard.count > 1 {
                while flock(lockFD, LOCK_SH) != 0 {
                    guard errno == EINTR else { throw held() }
                }
            }
        }

        if request.resume {
            complete = sameJob ? verifiedFrames(range: range) : Set(legacy.keys)
        }
        // Whatever is in the way of a frame this shard writes and is not a complete frame (a directory, a
        // link) goes.
        for name in names() {
            if let k = Self.index(of: name, temporary: false), request.shard.contains(k), !complete.contains(k),
               !isRegular(name) {
                try remove(name)
            }
        }

        let log = meta("frames-\(request.shard.count > 1 ? "\(request.shard.index)of\(request.shard.count)" : "all").jsonl")
        logFD = Glibc.open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        if logFD < 0 {
            throw SegueError.failed("cannot write '\(log)': \(ErrnoReason.text(errno))")
        }
        for (k, hash) in legacy.sorted(by: { $0.key < $1.key }) { append(k, hash: hash, bytes: nil) }
        return complete
    }

    /// Records a frame just written (any thread): its file's bytes hash.
    func record(_ index: Int, bytes: [UInt8]) {
        append(index, hash: ContentHash.of(bytes), bytes: bytes.count)
    }

    private func append(_ index: Int, hash: String, bytes: Int?) {
        let line = "{\"job\":\"\(key)\",\"frame\":\(index),\"hash\":\"\(hash)\"\(bytes.map { ",\"bytes\":\($0)" } ?? "")}\n"
        logLock.lock()
        defer { logLock.unlock() }
        guard logFD >= 0 else { return }
        // One write(2) per line on an O_APPEND descriptor. A line lost (a full disk) only means the frame is
        // rendered again by --resume.
        _ = Array(line.utf8).withUnsafeBytes { write(logFD, $0.baseAddress!, $0.count) }
    }

    /// Frames recorded for this job whose files are regular and hash as recorded (the last record of a frame
    /// wins).
    private func verifiedFrames(range: Range<Int>) -> Set<Int> {
        struct Record: Decodable {
            let job: String
            let frame: Int
            let hash: String
        }
        var hashes: [Int: String] = [:]
        let metaPath = file(Self.metadata)
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: metaPath)) ?? []).sorted() where name.hasPrefix("frames-") {
            guard let data = FileManager.default.contents(atPath: meta(name)) else { continue }
            for line in data.split(separator: UInt8(ascii: "\n")) {
                // A torn last line (a kill mid-write) does not parse and vouches for nothing.
                guard let r = try? JSONDecoder().decode(Record.self, from: Data(line)), r.job == key, range.contains(r.frame) else { continue }
                hashes[r.frame] = r.hash
            }
        }
        var complete = Set<Int>()
        for (k, hash) in hashes {
            let name = Self.fileName(k)
            guard isRegular(name), let read = ContentHash.of(file: file(name)) else { continue }
            if read.hash == hash { complete.insert(k) }
        }
        return complete
    }

    /// The hash of a file that is a regular file and a whole PNG of `width` x `height`, else nil.
    static func wholePNG(_ path: String, width: Int, height: Int) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
              let image = try? ImageDecoder.decode(data: bytes, name: path),
              image.width == width, image.height == height else { return nil }
        return ContentHash.of(bytes)
    }

    private func isRegular(_ name: String) -> Bool {
        var info = stat()
        return lstat(file(name), &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Removes a stale frame: a file or link, or an empty directory.
    private func remove(_ name: String) throws {
        if unlink(file(name)) == 0 || errno == ENOENT { return }
        if (errno == EISDIR || errno == EPERM) && rmdir(file(name)) == 0 { return }
        throw SegueError.failed("cannot remove '\(file(name))', which is in the way of the frames: \(ErrnoReason.text(errno))")
    }

    static func readManifest(_ path: String) -> String? {
        struct Manifest: Decodable { let job: String }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (try? JSONDecoder().decode(Manifest.self, from: data))?.job
    }

    // MARK: The lock

    /// Takes `.segue/lock`: exclusive for a whole job; for a shard, exclusive when it is alone (it then sets the
    /// directory up and the caller downgrades it) or shared with the other shards. Returns whether it is
    /// exclusive; throws a failure naming the holder when the directory is taken.
    private func lock(shard: Bool) throws -> Bool {
        let lockPath = meta("lock")
        lockFD = Glibc.open(lockPath, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard lockFD >= 0 else {
            throw SegueError.failed("cannot open '\(lockPath)': \(ErrnoReason.text(errno))")
        }
        var exclusive = true
        if flock(lockFD, LOCK_EX | LOCK_NB) != 0 {
            guard shard else { throw held() }
            // Another shard may be setting the directory up (exclusive for a moment): wait for it, up to 10 s.
            let deadline = Date().addingTimeInterval(10)
            while true {
                if flock(lockFD, LOCK_SH | LOCK_NB) == 0 { exclusive = false; break }
                if flock(lockFD, LOCK_EX | LOCK_NB) == 0 { break }
                // No line yet: the holder has just taken the lock and not yet written who it is.
                let lines = holderLines()
                guard Date() < deadline, lines.allSatisfy({ $0.hasSuffix(" shard") }) else { throw held() }
                usleep(20_000)
            }
        }
        if exclusive { ftruncate(lockFD, 0) }
        let line = "\(getpid()) \(Self.hostName()) \(shard ? "shard" : "whole")\n"
        _ = Array(line.utf8).withUnsafeBytes { write(lockFD, $0.baseAddress!, $0.count) }
        return exclusive
    }

    /// This machine's name, as the lock file records its holders.
    private static func hostName() -> String {
        var host = [UInt8](repeating: 0, count: 256)
        gethostname(&host, host.count - 1)
        return String(decoding: host.prefix { $0 != 0 }, as: UTF8.self)
    }

    private func holderLines() -> [String] {
        guard let data = FileManager.default.contents(atPath: meta("lock")) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The processes the lock file names, those on this host that are gone left out.
    private func holders() -> String {
        let here = Self.hostName()
        var out: [String] = []
        for line in holderLines() {
            let parts = line.split(separator: " ")
            guard parts.count >= 2, let pid = Int32(parts[0]), pid != getpid() else { continue }
            if parts[1] == here {
                if kill(pid, 0) != 0 && errno == ESRCH { continue }
                out.append("pid \(pid)")
            } else {
                out.append("pid \(pid) on \(parts[1])")
            }
        }
        return out.isEmpty ? "a process that did not record its pid" : out.joined(separator: ", ")
    }

    private func held() -> SegueError {
        SegueError(.outputInUse(path: path, byRunningJob: true), "the output directory '\(path)' is in use by another segue job (\(holders())); wait for it to end or choose another \(option: .output)")
    }
}

/// Temporary files (`.<name>.tmp-<pid>.<space>-<n>`, or an older Segue's `.<name>.tmp-<pid>[-<n>]`) that a
/// killed run left beside a stream or video file: removed before a new one is written, unless the process that
/// owns one is still running (this process's own are a live job's). Whether a process is running can be asked
/// only in its own pid space (`FileWriter.processSpace`); one made in another (another container or host on a
/// shared volume) is removed once it has not been written for `abandonedAfter`.
enum StaleTemporaries {
    /// A live writer's encoder writes its video every few frames (x264 holds back about 40), and a frame's
    /// limit is 30 s unless raised: a temporary not written for 10 minutes is a killed run's.
    static let abandonedAfter: Double = 600

    static func remove(besides path: String) {
        let directory = PathName.directory(path)
        let prefix = FileWriter.temporaryPrefix(for: PathName.last(path))
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasPrefix(prefix) {
            guard let owner = FileWriter.temporaryOwner(name.dropFirst(prefix.count)), !owner.isThisProcess else { continue }
            let file = PathName.join(directory, name)
            if owner.sharesThisProcessSpace {
                if kill(owner.pid, 0) != 0 && errno == ESRCH { unlink(file) }
            } else {
                var info = stat()
                if lstat(file, &info) == 0, Double(time(nil) - info.st_mtim.tv_sec) > abandonedAfter { unlink(file) }
            }
        }
    }
}
