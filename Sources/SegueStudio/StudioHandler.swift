import Foundation
import Segue

/// Every request: the token first (403 without it), then a fixed table of routes (404 for anything else: no
/// request path is ever looked up on disk).
struct StudioHandler: HTTPHandler {
    let studio: Studio

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        var query: [String: String] = [:]
        for item in request.query where query[item.name] == nil { query[item.name] = item.value }
        guard studio.accepts(query["token"] ?? request.headers[HTTPHeader("X-Segue-Token")]) else {
            return Self.text(.forbidden, "segue studio: this request lacks the token printed with the studio's URL\n")
        }
        do {
            switch (request.method, request.path) {
            case (.GET, "/"):
                // The page's script and style are requests too: they carry the token (hex, safe in a URL).
                let page = String(decoding: PackageResources.index_html, as: UTF8.self).replacingOccurrences(of: "{{token}}", with: studio.token)
                return Self.asset(Array(page.utf8), "text/html; charset=utf-8")
            case (.GET, "/studio.js"): return Self.asset(PackageResources.studio_js, "text/javascript; charset=utf-8")
            case (.GET, "/studio.css"): return Self.asset(PackageResources.studio_css, "text/css; charset=utf-8")
            case (.GET, "/api/state"): return try Self.json(await state())
            case (.GET, "/api/timeline"): return try Self.json(await timeline(FrameRequest(query: query)))
            case (.GET, "/api/frame"): return try await frame(FrameRequest(query: query))
            case (.GET, "/api/compare"): return try Self.json(await compare(FrameRequest(query: query)))
            case (.GET, "/api/command"): return try Self.json(["command": await command(FrameRequest(query: query), out: query["out"])])
            case (.POST, "/api/upload"): return try await upload(request, label: query["name"] ?? "upload")
            case (.GET, "/api/source"): return try await source(query["subject"] ?? "")
            case (.POST, "/api/source"): return try await save(request, subject: query["subject"] ?? "", base: query["digest"] ?? "")
            case (.GET, "/api/events"):
                return HTTPResponse(statusCode: .ok, headers: Self.headers("text/event-stream"), stream: studio.events.subscribe())
            case (.POST, "/api/render"): return try await render(FrameRequest(query: query), out: query["out"] ?? "")
            case (.POST, "/api/render/cancel"):
                await studio.renders.cancel()
                return try Self.json(["cancelled": true])
            default:
                return Self.text(.notFound, "not found\n")
            }
        } catch let error as SegueError {
            return Self.problem(error, naming: studio.settings.naming)
        }
    }

    // MARK: Routes

    struct State: Encodable {
        struct Subject: Encodable {
            var id: String
            var name: String
            var kind: String
            var summary: String?
            var file: String?
            var options: [Option] = []
            /// The effect's own duration and curve, forward and (`backDuration`, `backCurve`) back: what the
            /// page's curve editor draws when the field is empty.
            var duration: Double?
            var curve: String?
            var backDuration: Double?
            var backCurve: String?
            var problems: [Problem] = []
            var version: Int = 0
        }
        struct Option: Encodable {
            var name: String
            var kind: String
            var form: String
            var valueName: String
            var help: String
            var defaultText: String
            var range: String
            var choices: [String]
            var example: String?
            /// Given several times (hero's pairs): the page's field holds the values with `;` between them.
            var repeatable: Bool
        }
        var subjects: [Subject]
        var screens: [Uploads.Entry]
        /// Bumped when a screen named on the command line changes on disk (the page asks for its frames anew).
        var screensVersion: Int
        var from: String
        var to: String
        var backends: [String: String]
        var maxPixels: Int
        var uploadBytes: Int
        var directory: String
    }

    /// A problem at its JSON path, and where that is in the file's text (line and column from 1; nil where
    /// the text does not have the path).
    struct Problem: Encodable {
        var path: String
        var message: String
        var line: Int?
        var column: Int?

        init(_ problem: JSONProblem) {
            path = problem.path
            message = problem.message
            line = problem.line
            column = problem.column
        }
    }

    func state() async -> State {
        var subjects: [State.Subject] = []
        let files = await studio.subjects.current
        for (i, file) in files.enumerated() {
            var subject = State.Subject(id: "file:\(i)", name: PathName.last(file.path), kind: file.kind.rawValue,
                                        file: file.path, version: file.version)
            if let effect = file.effect { Self.describe(effect, into: &subject) }
            subject.problems = file.problems.map(Problem.init)
            subjects.append(subject)
        }
        if files.isEmpty {
            for effect in EffectCatalog.builtIn {
                var subject = State.Subject(id: "effect:\(effect.name)", name: effect.name, kind: "effect")
                Self.describe(effect, into: &subject)
                subjects.append(subject)
            }
        }
        let previews = studio.previews
        var backends = ["cpu": previews.cpu.unavailable ?? "ok"]
        backends["gles"] = previews.gles.unavailable ?? "ok"
        return State(subjects: subjects, screens: await studio.uploads.entries, screensVersion: await studio.subjects.screensVersion,
                     from: studio.uploads.start.from,
                     to: studio.uploads.start.to, backends: backends, maxPixels: studio.settings.maxPixels,
                     uploadBytes: studio.settings.uploadBytes, directory: studio.settings.directory)
    }

    static func describe(_ effect: Effect, into subject: inout State.Subject) {
        subject.summary = effect.summary
        subject.duration = effect.defaultDuration(.forward)
        subject.curve = effect.defaultCurve(.forward).description
        subject.backDuration = effect.defaultDuration(.back)
        subject.backCurve = effect.defaultCurve(.back).description
        subject.options = effect.options.map {
            State.Option(name: $0.name, kind: $0.kind.rawValue, form: $0.kind.form, valueName: $0.valueName, help: $0.help,
                         defaultText: $0.defaultText, range: $0.range.rawValue, choices: $0.choices.map(\.name),
                         example: $0.example.map { "\($0)" }, repeatable: $0.repeatable)
        }
    }

    struct Timeline: Encodable {
        struct Step: Encodable {
            var name: String
            var start: Double
            var duration: Double
            var firstFrame: Int
            /// The curve a transition's progress is eased by, and the seconds it runs over (a spring's shape
            /// depends on them); nil for a hold.
            var curve: String?
            var curveDuration: Double?
        }
        var fps: Double
        var count: Int
        var width: Int?
        var height: Int?
        /// Each frame's time in seconds, its step and its progress within that step.
        var times: [Double]
        var steps: [Int]
        var progress: [Double]
        var timeline: [Step]
    }

    func timeline(_ request: FrameRequest) async throws(SegueError) -> Timeline {
        var request = request
        request.progress = nil
        let job = try await studio.previews.timeline(request)
        let board = job.storyboard
        let schedule = board.schedule
        guard schedule.count <= Limits.maxFrames else {
            throw SegueError(.resourceLimit(name: "maxFrames"), "\(schedule.count) frames are more than the limit of \(Limits.maxFrames)")
        }
        let frames = (0..<schedule.count).map { schedule.frame($0) }
        var steps: [Timeline.Step] = []
        var start = 0.0
        for (i, step) in board.timeline.enumerated() {
            var entry = Timeline.Step(name: step.name, start: start, duration: step.duration,
                                      firstFrame: frames.firstIndex { $0.step == i } ?? schedule.count)
            switch step {
            case .hold: break
            case let .transition(transition, _, _), let .interactive(transition, _, _, _):
                (entry.curve, entry.curveDuration) = (transition.curve.description, transition.duration)
            case let .shader(shader, _, _):
                (entry.curve, entry.curveDuration) = (shader.curve.description, shader.duration)
            }
            steps.append(entry)
            start += step.duration
        }
        return Timeline(fps: board.fps, count: schedule.count, width: board.size?.width, height: board.size?.height,
                        times: (0..<schedule.count).map { schedule.time(of: $0) }, steps: frames.map(\.step),
                        progress: frames.map(\.t), timeline: steps)
    }

    /// A picture: a PNG, or (`format=rgba`) its raw straight-alpha RGBA with its size and working space in
    /// headers, which the page puts into a canvas made in that space (`rgba-runs`: those pixels as `PixelRuns`).
    func frame(_ request: FrameRequest) async throws(SegueError) -> HTTPResponse {
        let frame = try await studio.previews.frame(request)
        switch request.format {
        case .png:
            return HTTPResponse(statusCode: .ok, headers: Self.headers("image/png"), body: Data(frame.bytes))
        case .rgba, .rgbaRuns:
            var headers = Self.headers("application/octet-stream")
            headers[HTTPHeader("X-Segue-Width")] = String(frame.width)
            headers[HTTPHeader("X-Segue-Height")] = String(frame.height)
            // As a canvas's `colorSpace` names it.
            headers[HTTPHeader("X-Segue-Colour-Space")] = frame.colourSpace == .displayP3 ? "display-p3" : "srgb"
            return HTTPResponse(statusCode: .ok, headers: headers, body: Data(frame.bytes))
        }
    }

    struct Comparison: Encodable {
        /// The pixel whose channels differ most (the first such, row by row): where, each backend's
        /// premultiplied RGBA there, and the largest channel difference.
        struct Worst: Encodable, Equatable {
            var x: Int
            var y: Int
            var cpu: [UInt8]
            var gles: [UInt8]
            var difference: Int
        }
        var psnr: Double?
        var identical: Bool
        var message: String?
        var worst: Worst?
        /// Pixels that differ in any channel.
        var differing: Int?
    }

    /// The frame on both backends, their PSNR over the RGBA bytes (nil when identical) and the pixel where they
    /// differ most.
    func compare(_ request: FrameRequest) async throws(SegueError) -> Comparison {
        var cpu = request, gles = request
        cpu.backend = .cpu
        gles.backend = .gles
        let a = try await studio.previews.png(cpu)
        let b: [UInt8]
        do {
            b = try await studio.previews.png(gles)
        } catch {
            return Comparison(psnr: nil, identical: false, message: "GLES is unavailable here: \(error.message)")
        }
        if a == b { return Comparison(psnr: nil, identical: true) }
        let x = try ImageInput.decode(a, name: "cpu"), y = try ImageInput.decode(b, name: "gles")
        guard x.width == y.width, x.height == y.height else {
            return Comparison(psnr: nil, identical: false, message: "the backends drew \(x.width)x\(x.height) and \(y.width)x\(y.height)")
        }
        let psnr = x.pixels.withUnsafeBytes { a in y.pixels.withUnsafeBytes { b in Self.psnr(a, b) } }
        let (worst, differing) = Self.worst(cpu: x.pixels, gles: y.pixels, width: x.width)
        return Comparison(psnr: psnr, identical: false, worst: worst, differing: differing)
    }

    /// The first pixel whose largest channel difference is the largest of all, and how many pixels differ.
    static func worst(cpu: [UInt32], gles: [UInt32], width: Int) -> (Comparison.Worst?, Int) {
        var best = -1, at = 0, differing = 0
        for i in 0..<min(cpu.count, gles.count) where cpu[i] != gles[i] {
            differing += 1
            var d = 0
            for shift in stride(from: 0, to: 32, by: 8) {
                d = max(d, abs(Int((cpu[i] >> UInt32(shift)) & 0xFF) - Int((gles[i] >> UInt32(shift)) & 0xFF)))
            }
            if d > best { (best, at) = (d, i) }
        }
        guard best >= 0 else { return (nil, 0) }
        let bytes = { (p: UInt32) in [UInt8(p & 0xFF), UInt8((p >> 8) & 0xFF), UInt8((p >> 16) & 0xFF), UInt8(p >> 24)] }
        return (Comparison.Worst(x: at % width, y: at / width, cpu: bytes(cpu[at]), gles: bytes(gles[at]), difference: best), differing)
    }

    /// Peak signal-to-noise ratio of two frames' premultiplied RGBA bytes, in dB.
    static func psnr(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Double {
        var sum = 0.0
        for i in 0..<min(a.count, b.count) {
            let d = Double(Int(a[i]) - Int(b[i]))
            sum += d * d
        }
        let mse = sum / Double(max(1, a.count))
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    func upload(_ request: HTTPRequest, label: String) async throws -> HTTPResponse {
        let limit = studio.settings.uploadBytes
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw SegueError(.resourceLimit(name: "uploadBytes"), "the image is \(length) bytes, more than the \(limit) an upload may have")
        }
        let bytes = request.body
        if bytes.count > limit {
            throw SegueError(.resourceLimit(name: "uploadBytes"), "the image is more than the \(limit) bytes an upload may have")
        }
        let entry: Uploads.Entry
        do throws(SegueError) {
            entry = try await studio.uploads.add(bytes, label: String(label.prefix(100)))
        } catch {
            // Bytes that are no image the decoder reads are what the page sent (422), not a failure of the server
            // (a file on disk that cannot be read is the latter); an image over a limit stays 413.
            guard case let .inputUnreadable(path) = error.kind else { throw error }
            throw SegueError(.invalidInput(path: path), error.message)
        }
        return try Self.json(entry)
    }

    /// The text of a file studio watches, for the page's editor.
    func source(_ subject: String) async throws -> HTTPResponse {
        guard let index = Previews.fileIndex(subject), let file = await studio.subjects.file(index) else {
            return Self.refusal(.notAFile(subject: subject))
        }
        return try Self.json(try Editing.source(subject: subject, path: file.path))
    }

    /// Saves the editor's text over the file it was loaded from (`Editing.save`: refused when the file changed
    /// on disk since, `base` being the digest the page loaded), then has the watcher read it at once, as it
    /// would at its next look, and tell every page.
    func save(_ request: HTTPRequest, subject: String, base: String) async throws -> HTTPResponse {
        guard let index = Previews.fileIndex(subject), let file = await studio.subjects.file(index) else {
            return Self.refusal(.notAFile(subject: subject))
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > Editing.maxBytes {
            return Self.refusal(.tooLarge(bytes: length, limit: Editing.maxBytes))
        }
        let digest: String
        do {
            digest = try Editing.save(request.body, to: file.path, base: base)
        } catch {
            return Self.refusal(error)
        }
        for id in await studio.subjects.poll() { studio.events.send(.init(type: "changed", subject: id)) }
        return try Self.json(["digest": digest])
    }

    func render(_ request: FrameRequest, out: String) async throws(SegueError) -> HTTPResponse {
        let previews = studio.previews
        // At a progress (an effect's one frame, as the command shows it) the render is that frame; else every frame.
        let id = try await studio.renders.start({ () async throws(SegueError) -> RenderJob in
            var job = try await previews.job(request, sink: CollectingSink(), preview: false)
            job.frameRange = nil
            job.threads = nil
            return job
        }, name: out, events: studio.events)
        do { return try Self.json(["render": id]) } catch { throw .failed("\(error)") }
    }

    /// The command line that draws what the page shows, into `out`: its options are references
    /// (`SegueError.Message`), said as the settings' `naming` says them (the command line's flags, through its
    /// one table), each value quoted for a shell.
    func command(_ request: FrameRequest, out: String?) async throws(SegueError) -> String {
        let q = Self.shellQuoted
        var command: SegueError.Message
        let subject = request.subject
        if let index = Previews.fileIndex(subject), let file = await studio.subjects.file(index), file.kind == .storyboard {
            command = "segue batch \(q(file.path)) \(option: .output, value: q(out ?? "frames/"))"
        } else {
            var name = String(subject.dropFirst(7))
            if let index = Previews.fileIndex(subject), let file = await studio.subjects.file(index) { name = file.path }
            let (from, to) = (await studio.uploads.commandName(request.from), await studio.uploads.commandName(request.to))
            command = "segue render \(q(name)) \(option: .from, value: q(from)) \(option: .to, value: q(to)) \(option: .output, value: q(out ?? (request.progress == nil ? "frames/" : "frame.png")))"
            func add(_ option: SegueError.Option, _ value: String?) {
                if let value { command = "\(message: command) \(option: option, value: q(value))" }
            }
            add(.progress, request.progress.map(Self.number))
            add(.direction, request.direction == .forward ? nil : request.direction.rawValue)
            add(.curve, request.curve)
            add(.duration, request.duration.map(Self.number))
            add(.fps, request.fps.flatMap { $0 == 60 ? nil : Self.number($0) })
            add(.size, request.size.map { "\($0.width)x\($0.height)" })
            let effect = await studio.previews.effect(of: subject)
            for option in request.options {
                for value in Previews.values(option.value, repeatable: effect?.option(option.name)?.repeatable ?? false) {
                    command = "\(message: command) \(effectOption: option.name, value: q(value))"
                }
            }
        }
        command = "\(message: command) \(option: .backend, value: request.backend.rawValue)"
        return command.text(naming: studio.settings.naming)
    }

    static func number(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }

    static func shellQuoted(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-_./:,=+@%".unicodeScalars.contains($0) }
        return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: Responses

    static func headers(_ type: String) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers[.contentType] = type
        headers[HTTPHeader("Cache-Control")] = "no-store"
        headers[HTTPHeader("X-Content-Type-Options")] = "nosniff"
        // The token is in the page's URL: no other site is told it.
        headers[HTTPHeader("Referrer-Policy")] = "no-referrer"
        headers[HTTPHeader("Content-Security-Policy")] = "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'"
        return headers
    }

    static func asset(_ bytes: [UInt8], _ type: String) -> HTTPResponse {
        HTTPResponse(statusCode: .ok, headers: headers(type), body: Data(bytes))
    }

    static func text(_ status: HTTPStatusCode, _ text: String) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: headers("text/plain; charset=utf-8"), body: Data(text.utf8))
    }

    static func json(_ value: some Encodable) throws -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return HTTPResponse(statusCode: .ok, headers: headers("application/json"), body: try encoder.encode(value))
    }

    /// A save the editor asked for and studio refused, as the page shows an error (its message), with the file's
    /// digest now when it changed on disk.
    static func refusal(_ refusal: Editing.Refusal) -> HTTPResponse {
        struct Body: Encodable {
            var message: String
            var lines: [String]
            var problems: [Problem] = []
            var usage = false
            var digest: String?
        }
        var body = Body(message: refusal.message, lines: [refusal.message])
        if case let .changedOnDisk(_, digest) = refusal { body.digest = digest }
        let data = (try? JSONEncoder().encode(body)) ?? Data()
        return HTTPResponse(statusCode: refusal.status, headers: headers("application/json"), body: data)
    }

    /// A `SegueError` as the page shows it: its lines, each option it names said as `naming` says it, and its
    /// problems at their JSON paths.
    static func problem(_ error: SegueError, naming: (SegueError.Reference) -> String) -> HTTPResponse {
        struct Body: Encodable {
            var message: String
            var lines: [String]
            var problems: [Problem]
            var usage: Bool
        }
        let lines = error.words.map { $0.text(naming: naming) }
        let body = Body(message: lines.joined(separator: "\n"), lines: lines,
                        problems: error.problems.map(Problem.init), usage: error.isUsageError)
        let status: HTTPStatusCode
        switch error.kind {
        case .resourceLimit: status = .payloadTooLarge
        case .outputInUse: status = .conflict
        default: status = error.isUsageError ? .unprocessableContent : .internalServerError
        }
        let data = (try? JSONEncoder().encode(body)) ?? Data()
        return HTTPResponse(statusCode: status, headers: headers("application/json"), body: data)
    }
}

extension Studio {
    /// Whether `offered` is the token, compared in time that does not depend on where they differ.
    func accepts(_ offered: String?) -> Bool {
        guard let offered else { return false }
        let a = Array(offered.utf8), b = Array(token.utf8)
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in a.indices { diff |= a[i] ^ b[i] }
        return diff == 0
    }
}

extension Uploads {
    /// How the command line names a screen: the sample, the path given, or an upload's file name.
    func commandName(_ id: String) -> String {
        if id.hasPrefix("upload:") { return label(of: id) ?? id }
        return given[id] ?? id
    }
}
