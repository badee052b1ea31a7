import Foundation
import Segue
import Synchronization

/// How a picture is sent: a PNG, the bytes `segue render` writes (the default: downloads, the comparison, the
/// tests that hold the page to the command line), or its raw RGBA, which the page puts into a canvas with no
/// encoding or decoding on either side (what scrubbing and playback ask for).
enum PreviewFormat: String, Sendable {
    case png
    /// 8-bit RGBA, straight alpha (as `ImageData` has it), rows top to bottom, in the job's working space:
    /// the job's `rgba` stream format, one frame.
    case rgba
    /// `rgba`'s pixels as `PixelRuns` (what the page asks for: about as small as the PNG, and nearly free to make
    /// and to undo).
    case rgbaRuns = "rgba-runs"

    var output: OutputFormat {
        switch self {
        case .png: .png
        case .rgba, .rgbaRuns: .rgba
        }
    }
}

/// One picture as the server keeps and sends it: its bytes (`format`'s), its size and the working space its
/// samples are in (a PNG says the latter two itself; raw RGBA needs them beside it).
struct PreviewFrame: Sendable {
    var bytes: [UInt8]
    var width: Int
    var height: Int
    var colourSpace: ColourSpace
}

/// One picture the page asks for: a subject, its settings, and a frame by index or (an effect) a progress.
/// Its `key` is everything the picture depends on, so two requests with one key get one picture.
struct FrameRequest: Sendable {
    var subject: String
    var backend: BackendChoice = .cpu
    var format: PreviewFormat = .png
    /// The frame of the subject's timeline, as `segue render`/`segue batch` number them.
    var frame: Int?
    /// An effect's one frame at this progress, as `segue render --progress` draws it.
    var progress: Double?
    var direction: Direction = .forward
    var curve: String?
    var duration: Double?
    var fps: Double?
    var size: (width: Int, height: Int)?
    var from: String
    var to: String
    /// Effect options as the command line writes their values (`0.5`, `10,20`, `ff0000`, `left`).
    var options: [(name: String, value: String)] = []

    /// Reads a request's query: unknown names are ignored, malformed values are usage errors.
    init(query: [String: String]) throws(SegueError) {
        subject = query["subject"] ?? ""
        from = query["from"] ?? "sample:home"
        to = query["to"] ?? "sample:detail"
        if let b = query["backend"] {
            guard let choice = BackendChoice(rawValue: b), choice == .cpu || choice == .gles else {
                throw Self.bad("backend", b, "the backend is cpu or gles")
            }
            backend = choice
        }
        if let f = query["format"] {
            guard let value = PreviewFormat(rawValue: f) else { throw Self.bad("format", f, "the format is png, rgba or rgba-runs") }
            format = value
        }
        if let f = query["frame"] {
            // Bounded as a job's frames are: the frame after the largest Int overflowed and ended the process.
            guard let k = Int(f), (0..<Limits.maxFrames).contains(k) else {
                throw Self.bad("frame", f, "a frame is a whole number from 0 to \(Limits.maxFrames - 1)")
            }
            frame = k
        }
        if let t = query["t"] {
            guard let p = Double(t), (0...1).contains(p) else { throw Self.bad("progress", t, "the progress is a number in [0, 1]") }
            progress = p
        }
        if let d = query["direction"] {
            guard let value = Direction(rawValue: d) else { throw Self.bad("direction", d, "the direction is forward or back") }
            direction = value
        }
        curve = query["curve"].flatMap { $0.isEmpty ? nil : $0 }
        if let d = query["duration"], !d.isEmpty {
            guard let value = Double(d), value > 0, value <= Limits.maxSeconds else {
                throw Self.bad("duration", d, "the duration is a number of seconds in \(Limits.secondsText)")
            }
            duration = value
        }
        if let f = query["fps"], !f.isEmpty {
            guard let value = Double(f), Limits.fps.contains(value) else { throw Self.bad("fps", f, "frames per second are in \(Limits.fpsText)") }
            fps = value
        }
        if let s = query["size"], !s.isEmpty {
            // Spaces around the sides are allowed (`300 x 534`), as a person types them.
            let parts = s.lowercased().split(separator: "x").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, (1...Limits.maxSide).contains(parts[0]), (1...Limits.maxSide).contains(parts[1]),
                  parts[0] * parts[1] <= Studio.maxPreviewPixels else {
                throw Self.bad("size", s, "the size is WIDTHxHEIGHT, each side 1...\(Limits.maxSide) and at most \(Studio.maxPreviewPixels) pixels in all")
            }
            size = (parts[0], parts[1])
        }
        options = query.filter { $0.key.hasPrefix("o.") && !$0.value.isEmpty }
            .map { (String($0.key.dropFirst(2)), $0.value) }.sorted { $0.name < $1.name }
    }

    var key: String {
        var parts: [String] = [subject, backend.rawValue, format.rawValue, direction.rawValue, from, to]
        parts.append(frame.map { "k\($0)" } ?? "")
        parts.append(progress.map { "t\($0)" } ?? "")
        parts.append(curve ?? "")
        parts.append(duration.map { "\($0)" } ?? "")
        parts.append(fps.map { "\($0)" } ?? "")
        parts.append(size.map { "\($0.width)x\($0.height)" } ?? "")
        for option in options { parts.append("\(option.name)=\(option.value)") }
        return parts.joined(separator: "\u{1}")
    }

    static func bad(_ option: String, _ value: String, _ message: String) -> SegueError {
        SegueError.invalidOption(option, value: value, "\(message), not '\(value)'")
    }
}

/// Draws the page's pictures with Segue's renderers, each PNG encoded as `segue render` encodes it (the job's
/// own sink) or raw RGBA as its `rgba` stream writes it, and keeps them by request key (up to the cache's
/// limit in bytes); one renderer per backend, one job at a time on each.
final class Previews: Sendable {
    let subjects: Subjects
    let uploads: Uploads
    let settings: Studio.Settings
    let cache = FrameCache(limit: 256 << 20)
    let cpu = RendererSlot(.cpu)
    let gles = RendererSlot(.gles)
    /// Shared by every job studio starts: the previews and the page's renders together keep to the machine.
    /// A job leases its compositor's threads and its encoders' (one per core): a render takes 2 per core, a
    /// preview (one compositor thread, `job.threads = 1`) 1 + one per core, and the pool holds one of each at
    /// once, so that the page keeps drawing while a render runs. Memory: half the machine's.
    let pool: JobPool

    init(subjects: Subjects, uploads: Uploads, settings: Studio.Settings) {
        self.subjects = subjects
        self.uploads = uploads
        self.settings = settings
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let memory = Int(ProcessInfo.processInfo.physicalMemory / 2)
        pool = JobPool(threads: 3 * cores + 1, memoryBytes: max(512 << 20, memory))
    }

    /// The PNG of `request` (whatever format it names), as `frame` gives it.
    func png(_ request: FrameRequest) async throws(SegueError) -> [UInt8] {
        var request = request
        request.format = .png
        return try await frame(request).bytes
    }

    /// The picture `request` asks for, from the cache or drawn now. A frame asked for as a scrub or playback
    /// moves forward also has the frames after it drawn ahead (`framesAhead`), in the background, by one job, so
    /// that the next request finds its frame drawn or being drawn, and a storyboard's screens are read once a
    /// batch.
    func frame(_ request: FrameRequest) async throws(SegueError) -> PreviewFrame {
        let version = try await subjectVersion(request.subject)
        let digest = await uploads.digest(of: [request.from, request.to])
        let key: @Sendable (FrameRequest) -> String = { version + "\u{2}" + $0.key + "\u{2}" + digest }
        let forward = movesForward(request)
        do {
            let picture = try await cache.value(key(request)) { try await self.draw(request, ahead: forward, key: key) }
            if forward, let k = request.frame { await drawAhead(after: k, of: request, key: key) }
            return picture
        } catch {
            throw SegueError(classifying: error) ?? .failed("\(error)")
        }
    }

    /// Frames a preview job draws past the one asked for, when the page moves forward: at 60 frames/s, 100 ms.
    static let framesAhead = 6

    /// The last frame asked for of each schedule (a request's key without its frame), and whether `request`
    /// is at or after it: the way a scrub or playback moves.
    private func movesForward(_ request: FrameRequest) -> Bool {
        guard let k = request.frame, request.progress == nil else { return false }
        var schedule = request
        schedule.frame = nil
        return lastFrames.withLock { last in
            if last.count > 256 { last.removeAll() }
            defer { last[schedule.key] = k }
            return last[schedule.key].map { k >= $0 } ?? true
        }
    }

    private let lastFrames = Mutex<[String: Int]>([:])

    /// Starts a job for the frames after `k` that are neither drawn nor being drawn, from the first of them
    /// within `framesAhead` (none when all are): frames stay drawn ahead of a page that keeps moving forward.
    private func drawAhead(after k: Int, of request: FrameRequest, key: @escaping @Sendable (FrameRequest) -> String) async {
        for j in (k + 1)...(k + Self.framesAhead) {
            var next = request
            next.frame = j
            guard await !cache.holds(key(next)) else { continue }
            let first = next
            Task { _ = try? await self.cache.value(key(first)) { try await self.draw(first, ahead: true, speculative: true, key: key) } }
            return
        }
    }

    /// The digest of what the subject is drawn from (a file's last good bytes; a built-in's name).
    private func subjectVersion(_ subject: String) async throws(SegueError) -> String {
        if subject.hasPrefix("effect:") { return subject }
        guard let index = Self.fileIndex(subject), let file = await subjects.file(index) else {
            throw SegueError.invalidOption("subject", value: subject, "there is no subject '\(subject)'")
        }
        if file.kind == .storyboard { return file.digest }
        guard let good = file.goodDigest else { throw SegueError(.invalidInput(path: file.path), problems: file.problems, file: file.path) }
        return good
    }

    static func fileIndex(_ subject: String) -> Int? {
        subject.hasPrefix("file:") ? Int(subject.dropFirst(5)) : nil
    }

    /// The job `request` asks for, writing into `sink`. A `preview` is at most `Studio.maxPreviewPixels`: one whose
    /// size comes from a larger first screen (an upload of 6000x6000) is drawn scaled down to it; a render is
    /// at the screen's own size, as the command it shows.
    func job(_ request: FrameRequest, sink: some FrameSink, preview: Bool = true) async throws(SegueError) -> RenderJob {
        var job: RenderJob
        if let index = Self.fileIndex(request.subject), let file = await subjects.file(index), file.kind == .storyboard {
            // A storyboard that is no JSON at all: its problem is known without a job (which would read nothing).
            if file.unparsed { throw SegueError(.invalidInput(path: file.path), problems: file.problems, file: file.path) }
            // The job opens the storyboard and what it names: each must be a regular file now (a FIFO would
            // block the renderer's slot, and with it every preview).
            if let path = Subjects.irregular([file.path] + file.named) {
                throw SegueError(.inputUnreadable(path: path), "cannot read '\(path)'\(path == file.path ? "" : ", which the storyboard names"): not a regular file")
            }
            do {
                job = try RenderJob(storyboardFile: file.path, output: .sink(sink, format: request.format.output), root: settings.directory)
            } catch {
                throw SegueError(classifying: error) ?? .failed("\(error)")
            }
        } else {
            let transition = try await transition(request)
            // The first screen sets the job's size unless the request does; a sample is drawn at that size.
            let from = try await uploads.screen(request.from, size: request.size)
            var size = request.size
            if preview, size == nil, let full = from.size, full.width * full.height > Studio.maxPreviewPixels {
                size = Self.fitted(full, within: Studio.maxPreviewPixels)
            }
            let to = try await uploads.screen(request.to, size: size ?? from.size, sized: size != nil || from.size != nil)
            job = RenderJob(transition, from: from.name, to: to.name, fps: request.fps ?? 60, size: size,
                            output: .sink(sink, format: request.format.output))
            job.images = from.images.merging(to.images) { a, _ in a }
            job.progress = request.progress.map { [$0] }
        }
        job.backend = request.backend
        job.maxPixels = settings.maxPixels
        job.pool = pool
        // A preview is one small frame: one compositor thread draws it in about a millisecond.
        job.threads = 1
        if job.progress == nil {
            let k = request.frame ?? 0
            job.frameRange = k..<(k + 1)
        }
        return job
    }

    /// The values a field's text holds: a repeatable option's (hero's pairs) are written with `;` between them,
    /// each given as its own `--NAME VALUE` on the command line; any other option's text is one value.
    static func values(_ text: String, repeatable: Bool) -> [String] {
        guard repeatable else { return [text] }
        return text.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A size with the same proportions as `size` and at most `pixels` pixels, each side at least 1.
    static func fitted(_ size: (width: Int, height: Int), within pixels: Int) -> (width: Int, height: Int) {
        let scale = (Double(pixels) / Double(size.width * size.height)).squareRoot()
        var width = max(1, Int(Double(size.width) * scale)), height = max(1, Int(Double(size.height) * scale))
        while width * height > pixels { if width >= height { width -= 1 } else { height -= 1 } }
        return (width, height)
    }

    /// The effect a subject names (`effect:NAME`, or an effect file's `file:N`), or nil.
    func effect(of subject: String) async -> Effect? {
        if subject.hasPrefix("effect:") { return EffectCatalog.named(String(subject.dropFirst(7))) }
        if let index = Self.fileIndex(subject), let file = await subjects.file(index) { return file.effect }
        return nil
    }

    /// The transition of an effect subject with the request's settings, each option read as the command line
    /// reads it (a repeatable option's several values, `values`, as its flag given several times).
    func transition(_ request: FrameRequest) async throws(SegueError) -> Transition {
        guard let effect = await effect(of: request.subject) else {
            if request.subject.hasPrefix("effect:") {
                let name = String(request.subject.dropFirst(7))
                throw SegueError.invalidOption("effect", value: name, "there is no built-in effect '\(name)'")
            }
            throw SegueError.invalidOption("subject", value: request.subject, "there is no effect '\(request.subject)'")
        }
        var options = EffectOptions()
        for (name, text) in request.options {
            guard let option = effect.option(name) else {
                throw SegueError.invalidOption(name, of: effect.name, value: text, "\(effect.name) has no option '\(name)'")
            }
            var values: [OptionValue] = []
            for part in Self.values(text, repeatable: option.repeatable) {
                guard let value = option.parse(part) else {
                    throw SegueError.invalidOption(name, of: effect.name, value: text, "\(name) takes \(option.kind.form), not '\(part)'")
                }
                values.append(value)
            }
            // A list past `EffectOption.maxRepeats` is refused by the job's check, as the command line's is.
            options[name] = values.count == 1 ? values[0] : .list(values)
        }
        var curve: TimingCurve?
        if let text = request.curve {
            do { curve = try TimingCurve(parsing: text) } catch {
                throw SegueError.invalidOption("curve", value: text, "\(error)")
            }
        }
        // The job checks the options against its frame (whose size it knows once its screens are read).
        let transition = Transition(effect, direction: request.direction, options: options, curve: curve, duration: request.duration)
        return transition
    }

    /// Draws the request's frame on its backend, and with `ahead` the frames after it up to `framesAhead` (within
    /// the schedule, and up to the first the cache holds), each handed to the cache as the job writes it. A
    /// `speculative` request (drawn ahead, which no one asked for yet) past the schedule's end draws nothing, and
    /// its failure is no problem of the subject's.
    private func draw(_ request: FrameRequest, ahead: Bool, speculative: Bool = false,
                      key: @escaping @Sendable (FrameRequest) -> String) async throws -> PreviewFrame {
        let sink = CollectingSink()
        sink.runs = request.format == .rgbaRuns
        var job = try await job(request, sink: sink)
        var promised: [Int: FramePromise] = [:]
        if ahead, let k = request.frame {
            let count = job.storyboard.schedule.count
            if speculative && k >= count { throw CancellationError() }
            var end = k + 1
            while end < min(k + 1 + Self.framesAhead, count) {
                var next = request
                next.frame = end
                let promise = FramePromise()
                guard await cache.adopt(key(next), promise) else { break }
                promised[end] = promise
                end += 1
            }
            if k < count { job.frameRange = k..<end }
        }
        sink.promised = promised
        let slot = request.backend == .gles ? gles : cpu
        do {
            try await slot.run(job)
        } catch {
            for promise in promised.values { promise.fail(error) }
            if !speculative, let index = Self.fileIndex(request.subject), let file = await subjects.file(index), file.kind == .storyboard {
                await subjects.storyboardChecked(index, digest: file.digest, problems: error.problems.isEmpty ? [JSONProblem("$", error.message)] : error.problems)
            }
            throw error
        }
        for promise in promised.values { promise.fail(SegueError.failed("the job drew no frame")) }  // each one not written
        if let index = Self.fileIndex(request.subject), let file = await subjects.file(index), file.kind == .storyboard {
            await subjects.storyboardChecked(index, digest: file.digest, problems: [])
        }
        guard let frame = sink.frames.first else { throw SegueError.failed("the job drew no frame") }
        return frame
    }

    /// The schedule of a subject with these settings: its frames' times and steps, for the scrubber.
    func timeline(_ request: FrameRequest) async throws(SegueError) -> RenderJob {
        try await job(request, sink: CollectingSink())
    }
}

/// Frames a job hands over, kept in memory (a preview is one frame, or one and the frames drawn ahead of it,
/// which go to their `promised` waiters as they are written, and are not kept here), each with the size and
/// space the job said first.
final class CollectingSink: FrameSink, @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [PreviewFrame] = []
    private var shape = (width: 0, height: 0, colourSpace: ColourSpace.srgb)
    private var asRuns = false
    /// Whether each frame (raw RGBA) is kept as `PixelRuns`, made on the job's writer thread.
    var runs: Bool {
        get { lock.withLock { asRuns } }
        set { lock.withLock { asRuns = newValue } }
    }
    /// Frames drawn ahead, by index: each fulfilled as it is written.
    var promised: [Int: FramePromise] {
        get { lock.withLock { waiting } }
        set { lock.withLock { waiting = newValue } }
    }
    private var waiting: [Int: FramePromise] = [:]

    func begin(width: Int, height: Int, colourSpace: ColourSpace) {
        lock.withLock { shape = (width, height, colourSpace) }
    }

    func write(frame index: Int, bytes: [UInt8]) throws {
        let said: (width: Int, height: Int, colourSpace: ColourSpace, runs: Bool) = lock.withLock {
            (shape.width, shape.height, shape.colourSpace, asRuns)
        }
        let frame = PreviewFrame(bytes: said.runs ? PixelRuns.encode(bytes, width: said.width) : bytes,
                                 width: said.width, height: said.height, colourSpace: said.colourSpace)
        let promise: FramePromise? = lock.withLock {
            if let promise = waiting[index] { return promise }
            collected.append(frame)
            return nil
        }
        promise?.fulfil(frame)
    }

    var frames: [PreviewFrame] { lock.withLock { collected } }
}

/// A frame being drawn by another request's job: fulfilled once, with its bytes or an error; the first
/// outcome counts.
final class FramePromise: Sendable {
    private let state = Mutex<(result: Result<PreviewFrame, any Error>?, waiting: [CheckedContinuation<PreviewFrame, any Error>])>((nil, []))

    func fulfil(_ frame: PreviewFrame) { settle(.success(frame)) }
    func fail(_ error: any Error) { settle(.failure(error)) }

    private func settle(_ result: Result<PreviewFrame, any Error>) {
        let waiting: [CheckedContinuation<PreviewFrame, any Error>] = state.withLock { state in
            guard state.result == nil else { return [] }
            state.result = result
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume(with: result) }
    }

    var value: PreviewFrame {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let settled: Result<PreviewFrame, any Error>? = state.withLock { state in
                    if state.result == nil { state.waiting.append(continuation) }
                    return state.result
                }
                if let settled { continuation.resume(with: settled) }
            }
        }
    }
}

/// One renderer of a backend, made when first needed and lent to one job at a time.
final class RendererSlot: @unchecked Sendable {
    let backend: BackendChoice
    private let lock = NSLock()
    private var renderer: (any Renderer)?
    private var failure: SegueError?
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ backend: BackendChoice) { self.backend = backend }

    /// Why the backend cannot draw here, once it has been tried; nil while it works or is untried.
    var unavailable: String? { lock.withLock { failure?.message } }

    /// Runs `job` on this slot's renderer, after the jobs before it.
    func run(_ job: RenderJob) async throws(SegueError) {
        await acquire()
        defer { release() }
        let renderer = try made()
        let lent = UncheckedRenderer(renderer: renderer)
        try await job.run(renderer: lent.renderer)
    }

    /// The slot's renderer, made on first use; a backend that cannot be made says why every time after.
    private func made() throws(SegueError) -> any Renderer {
        lock.lock()
        defer { lock.unlock() }
        if let renderer { return renderer }
        if let failure { throw failure }
        do {
            let made = try backend.makeRenderer()
            renderer = made
            return made
        } catch {
            let reason = SegueError(classifying: error) ?? .failed("\(error)")
            failure = reason
            throw reason
        }
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now: Bool = lock.withLock {
                if busy { waiting.append(continuation); return false }
                busy = true
                return true
            }
            if now { continuation.resume() }
        }
    }

    private func release() {
        let next: CheckedContinuation<Void, Never>? = lock.withLock {
            if waiting.isEmpty { busy = false; return nil }
            return waiting.removeFirst()
        }
        next?.resume()
    }
}

/// A renderer handed to the one job that holds its slot (renderers are not `Sendable`; the slot's turn makes
/// the use exclusive).
struct UncheckedRenderer: @unchecked Sendable {
    let renderer: any Renderer
}

/// Pictures by key, least recently used dropped past `limit` bytes; a key being drawn is drawn once for every
/// request that asks for it meanwhile.
actor FrameCache {
    private var done: [String: (frame: PreviewFrame, used: UInt64)] = [:]
    private var pending: [String: Task<PreviewFrame, any Error>] = [:]
    private var total = 0
    private var clock: UInt64 = 0
    let limit: Int

    init(limit: Int) { self.limit = limit }

    func value(_ key: String, make: @escaping @Sendable () async throws -> PreviewFrame) async throws -> PreviewFrame {
        clock += 1
        if let hit = done[key] {
            done[key]!.used = clock
            return hit.frame
        }
        if let task = pending[key] { return try await task.value }
        let task = Task { try await make() }
        pending[key] = task
        defer { if pending[key] == task { pending[key] = nil } }
        let frame = try await task.value
        keep(key, frame)
        return frame
    }

    /// Whether `key` is drawn or being drawn.
    func holds(_ key: String) -> Bool { done[key] != nil || pending[key] != nil }

    /// Takes `key` as being drawn by another key's job, which fulfils `promise`; false (nothing changed) when
    /// it is drawn or being drawn already.
    func adopt(_ key: String, _ promise: FramePromise) -> Bool {
        guard !holds(key) else { return false }
        let task = Task { try await promise.value }
        pending[key] = task
        Task { await self.settled(key, task) }
        return true
    }

    /// Keeps an adopted key's frame once its job has written it (and forgets a failed one).
    private func settled(_ key: String, _ task: Task<PreviewFrame, any Error>) async {
        let frame = try? await task.value
        if pending[key] == task { pending[key] = nil }
        guard let frame else { return }
        clock += 1
        keep(key, frame)
    }

    private func keep(_ key: String, _ frame: PreviewFrame) {
        if let old = done[key] { total -= old.frame.bytes.count }
        done[key] = (frame, clock)
        total += frame.bytes.count
        while total > limit, let oldest = done.min(by: { $0.value.used < $1.value.used }) {
            total -= oldest.value.frame.bytes.count
            done[oldest.key] = nil
        }
    }

    var count: Int { done.count }
}
