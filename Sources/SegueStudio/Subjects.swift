import Foundation
import Segue

/// What the page can show: the files named on the command line (effect files and storyboards), each read again
/// when it or a file it draws from changes, or without files the built-in catalogue. A request names a subject
/// by its id (`file:0`, `effect:door`), never by a path. The screens named on the command line (`--from`,
/// `--to`) are watched too: a change to one is the change `screens`.
actor Subjects {
    /// One file named on the command line, as last read.
    struct File {
        enum Kind: String, Encodable { case effect, storyboard }
        let path: String
        /// What the file is, decided again at each read that is JSON: one broken at its first read is taken
        /// for what its text suggests (`guessedKind`) until it parses.
        var kind: Kind
        /// The file is not JSON (its one problem says where): a storyboard so has nothing for its job to read.
        var unparsed = false
        /// The files a storyboard draws from (`references`): its screens, tracks, effect and shader files, and
        /// its shaders' images.
        var watched: [String] = []
        /// Every file it names, as its job will open them, whatever they are now: each is checked to be a regular
        /// file before a job opens it (a FIFO put at a screen's name blocked the preview's renderer for good).
        var named: [String] = []
        /// Size, modification time and inode when last read, its watched files' after its own: a change to any
        /// reads the file again.
        var stamp: String
        /// A digest of its bytes (and a storyboard's time, `version`): frames are cached by it.
        var digest: String
        /// The effect as last read without problems (an effect file); a storyboard is read by its job.
        var effect: Effect?
        /// The digest of the last version without problems, whose frames the page keeps showing.
        var goodDigest: String?
        /// Problems of the file as it is now, each at its JSON path; empty when it is good.
        var problems: [JSONProblem] = []
        /// Bumped at each change the page must hear of.
        var version = 0
    }

    private var state: [File]
    let directory: String
    /// The screens named on the command line that are files, with their stamps.
    private var screens: [(path: String, stamp: String)]
    /// Bumped at each change to one of `screens`.
    private(set) var screensVersion = 0

    /// Reads each file once: one that cannot be read at all is an error (as `segue render` would say).
    init(files paths: [String], directory: String, screens: [String] = []) throws(SegueError) {
        self.directory = directory
        var files: [File] = []
        for path in paths {
            let bytes = try Self.read(path)
            let kind = Self.kind(of: bytes) ?? Self.guessedKind(of: bytes)
            if kind == .storyboard, !Self.lies(path, within: directory) {
                throw SegueError.invalidOption("file", value: path, "the storyboard '\(path)' is outside the directory studio was started in ('\(directory)'), which a storyboard's paths must stay within: start studio where the storyboard is")
            }
            let (watched, named) = kind == .storyboard ? Self.references(bytes, of: path, within: directory) : ([], [])
            let stamp = Self.stamp(path, watching: watched)
            var file = File(path: path, kind: kind, watched: watched, named: named, stamp: stamp, digest: Self.version(bytes, kind: kind, stamp: stamp))
            Self.check(&file, bytes: bytes)
            files.append(file)
        }
        state = files
        self.screens = screens.map { ($0, Self.stamp($0)) }
    }

    /// The files as they are now.
    var current: [File] { state }

    func file(_ index: Int) -> File? { state.indices.contains(index) ? state[index] : nil }

    /// Reads again each file whose size or time changed, or one of whose watched files did; the ids of those
    /// whose content changed, and `screens` when a screen named on the command line did.
    func poll() -> [String] {
        var changed: [String] = []
        for i in screens.indices {
            let stamp = Self.stamp(screens[i].path)
            guard stamp != screens[i].stamp else { continue }
            screens[i].stamp = stamp
            if !changed.contains("screens") {
                screensVersion += 1
                changed.append("screens")
            }
        }
        for i in state.indices {
            var stamp = Self.stamp(state[i].path, watching: state[i].watched)
            guard stamp != state[i].stamp else { continue }
            state[i].stamp = stamp
            let bytes: [UInt8]
            do {
                bytes = try Self.read(state[i].path)
            } catch {
                state[i].problems = [JSONProblem("$", error.message)]
                state[i].version += 1
                changed.append("file:\(i)")
                continue
            }
            if let kind = Self.kind(of: bytes), kind != state[i].kind {
                // Mended (or rewritten) into the other kind: it is what it now says it is.
                if kind == .storyboard, !Self.lies(state[i].path, within: directory) {
                    state[i].problems = [JSONProblem("$", "the storyboard '\(state[i].path)' is outside the directory studio was started in ('\(directory)'): start studio where the storyboard is")]
                    state[i].version += 1
                    changed.append("file:\(i)")
                    continue
                }
                state[i].kind = kind
                state[i].effect = nil
                state[i].goodDigest = nil
                state[i].digest = ""
            }
            if state[i].kind == .storyboard {
                // What it names may have changed with it.
                (state[i].watched, state[i].named) = Self.references(bytes, of: state[i].path, within: directory)
                stamp = Self.stamp(state[i].path, watching: state[i].watched)
                state[i].stamp = stamp
            }
            let digest = Self.version(bytes, kind: state[i].kind, stamp: stamp)
            guard digest != state[i].digest || !state[i].problems.isEmpty else { continue }
            state[i].digest = digest
            Self.check(&state[i], bytes: bytes)
            state[i].version += 1
            changed.append("file:\(i)")
        }
        return changed
    }

    /// A storyboard's problems, found when its job ran (they are known only once its screens are read).
    func storyboardChecked(_ index: Int, digest: String, problems: [JSONProblem]) {
        guard state.indices.contains(index), state[index].digest == digest else { return }
        // Those found against its frame were found without its text: placed in it here.
        var problems = problems
        if problems.contains(where: { $0.line == nil }), let bytes = try? Self.read(state[index].path) {
            problems = JSONProblem.locate(problems, in: Data(bytes))
        }
        if problems.isEmpty { state[index].goodDigest = digest }
        if state[index].problems != problems {
            state[index].problems = problems
        }
    }

    // MARK: Reading

    /// A named file's bytes: a regular file (a FIFO or a device would block or never end) of at most
    /// `Limits.maxTextBytes`, both known from the open file before anything is read.
    static func read(_ path: String) throws(SegueError) -> [UInt8] {
        let limit = Limits.maxTextBytes
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw SegueError(.inputUnreadable(path: path), "cannot read '\(path)': \(errno == ENOENT ? "no such file" : errno == EACCES ? "permission denied" : String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw SegueError(.inputUnreadable(path: path), "cannot read '\(path)': not a regular file")
        }
        guard info.st_size <= limit else {
            throw SegueError(.resourceLimit(name: "maxTextBytes"), "'\(path)' is \(info.st_size) bytes, more than the \(limit) a storyboard or an effect file may have")
        }
        guard let data = try? handle.read(upToCount: limit + 1) ?? Data(), data.count <= limit else {
            throw SegueError(.inputUnreadable(path: path), "cannot read '\(path)' whole (it grew past \(limit) bytes, or reading failed)")
        }
        return [UInt8](data)
    }

    /// A storyboard has a timeline; any other JSON is read as an effect file (and says what is wrong with it);
    /// nil when the bytes are no JSON object, which says nothing of what the file is.
    static func kind(of bytes: [UInt8]) -> File.Kind? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return nil }
        return object["timeline"] != nil ? .storyboard : .effect
    }

    /// What a file that is no JSON yet is taken for: a storyboard when its text names a timeline.
    static func guessedKind(of bytes: [UInt8]) -> File.Kind {
        String(decoding: bytes, as: UTF8.self).contains("\"timeline\"") ? .storyboard : .effect
    }

    /// An effect file is read here; a storyboard's problems come from its first job (`storyboardChecked`).
    static func check(_ file: inout File, bytes: [UInt8]) {
        file.unparsed = (try? JSONSerialization.jsonObject(with: Data(bytes))) == nil
        guard file.kind == .effect else {
            // A storyboard's problems are its job's, bar JSON that does not parse: the parser says where.
            if file.unparsed {
                let parsed = Storyboard.parse(json: Data(bytes), loadTrack: { _ in "" })
                file.problems = parsed.problems.isEmpty ? [JSONProblem("$", "the file is not JSON")] : parsed.problems
            }
            return
        }
        do {
            file.effect = try Effect(json: Data(bytes), file: file.path)
            file.goodDigest = Self.digest(bytes)
            file.problems = []
        } catch {
            file.problems = error.problems
        }
    }

    /// Whether `path`, its links resolved, lies inside `directory`.
    static func lies(_ path: String, within directory: String) -> Bool {
        guard let file = realpath(path, nil), let root = realpath(directory, nil) else { return false }
        defer { free(file); free(root) }
        let (f, r) = (String(cString: file), String(cString: root))
        return r == "/" || f.hasPrefix(r + "/")
    }

    static func stamp(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "missing" }
        return "\(info.st_size) \(info.st_mtim.tv_sec) \(info.st_mtim.tv_nsec) \(info.st_ino)"
    }

    /// A file's stamp followed by those of the files it draws from.
    static func stamp(_ path: String, watching watched: [String]) -> String {
        ([path] + watched).map(stamp).joined(separator: ";")
    }

    /// The most files one storyboard's stamp covers: each is stat'ed at every poll.
    static let maxWatched = 64

    /// The files a storyboard draws from, as its parser names them (`Storyboard.Parsed.files`: its screens,
    /// tracks, effect and shader files, and the images a shader's parameters name), relative to the storyboard
    /// unless absolute (as its job reads them), each a regular file inside `directory` (where its job may read).
    /// A name of nothing is not watched until the storyboard is saved again. `named`: every file it names, as
    /// its job resolves them, whatever they are.
    static func references(_ bytes: [UInt8], of path: String, within directory: String) -> (watched: [String], named: [String]) {
        let base = PathName.directory(path)
        func resolved(_ name: String) -> String { name.hasPrefix("/") ? name : PathName.join(base, name) }
        func isFile(_ file: String) -> Bool {
            var info = stat()
            return stat(file, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && lies(file, within: directory)
        }
        // Nothing is read but a shader file inside the directory, for the images its parameters take.
        let parsed = Storyboard.parse(json: Data(bytes), loadTrack: { _ in
            throw SegueError.failed("tracks are not read here")
        }, loadShader: { spec in
            // As its job reads it: a file relative to the storyboard, else a shipped transition's name.
            let file = resolved(spec)
            if FileManager.default.fileExists(atPath: file) {
                guard isFile(file) else { throw SegueError.failed("'\(spec)' is not read here") }
                return try ShaderLibrary.load(file)
            }
            guard let shipped = ShippedTransitions.named(spec) else { throw SegueError.failed("no shader '\(spec)'") }
            return shipped
        })
        var found: [String] = []
        var named: [String] = []
        for name in parsed.files {
            let file = resolved(name.path)
            if file != path, !named.contains(file) { named.append(file) }
            if file != path, found.count < maxWatched, !found.contains(file), isFile(file) { found.append(file) }
        }
        return (found, named)
    }

    /// The first of `paths` that is there but is no regular file (a FIFO, a device, a directory), which a job
    /// would block on or fail to read; nil when each is a regular file or absent (the job says it is missing).
    static func irregular(_ paths: [String]) -> String? {
        paths.first { path in
            var info = stat()
            return stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG
        }
    }

    /// What a file's frames are cached by: its bytes, and for a storyboard its stamp too (its own and those of
    /// the files it draws from), so that a change to an image its screens name draws again.
    static func version(_ bytes: [UInt8], kind: File.Kind, stamp: String) -> String {
        kind == .storyboard ? digest(bytes) + " " + stamp : digest(bytes)
    }

    /// FNV-1a over the bytes, in hex: a cache key, not a security boundary.
    static func digest(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return String(h, radix: 16) + "-\(bytes.count)"
    }
}
