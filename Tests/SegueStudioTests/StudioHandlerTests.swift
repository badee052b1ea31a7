import Foundation
import Segue
@testable import segue
@testable import SegueStudio
import Testing

/// The studio's server in process, without a socket or a browser (those are Tests/Studio's): its routes, its
/// token, its refusals, and its frames against the library's own job. The browser tests run the same server
/// behind a real socket.
// A class, so that `deinit` removes the test's directory whatever its expectations found: a test that changes a
// file changes it there, and nothing it changed outlives it.
@Suite final class StudioHandlerTests {
    let studio: Studio
    let handler: StudioHandler
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("segue-studio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var settings = Studio.Settings()
        settings.directory = directory.path
        settings.naming = try Self.naming()
        studio = try Studio(settings)
        handler = StudioHandler(studio: studio)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The command line's words, as `segue studio` gives them to the studio (its `Studio.Settings.naming`, over
    /// the one table of flags, `CommandWords.flags`).
    static func naming() throws -> @Sendable (SegueError.Reference) -> String {
        try StudioCommand.parse([]).settings.naming
    }

    /// A request as the server makes it from a target (path and query, percent-decoded).
    func get(_ target: String, method: HTTPMethod = .GET, body: Data = Data(), token: Bool = true) async throws -> HTTPResponse {
        let full = token ? target + (target.contains("?") ? "&" : "?") + "token=\(studio.token)" : target
        let request = HTTPRequest(method: method, target: full, body: [UInt8](body))
        return try await handler.handleRequest(request)
    }

    @Test func everyRouteNeedsTheToken() async throws {
        for target in ["/", "/studio.js", "/api/state", "/api/frame?subject=effect:door&t=0.5", "/nothing"] {
            #expect(try await get(target, token: false).statusCode == .forbidden, "\(target)")
            #expect(try await get(target + "?token=\(String(repeating: "0", count: 32))", token: false).statusCode == .forbidden)
        }
        #expect(studio.accepts(studio.token))
        #expect(!studio.accepts(nil))
        #expect(!studio.accepts(String(studio.token.dropLast())))
        #expect(studio.token.count == 32)
        #expect(try Studio(.init()).token != studio.token)
    }

    @Test func aPathThatReachesForAFileIsNotFound() async throws {
        try Data("secret".utf8).write(to: directory.appendingPathComponent("secret.txt"))
        for path in ["/../etc/passwd", "/%2e%2e/etc/passwd", "/..%2fetc%2fpasswd", "//etc/passwd", "/etc/passwd",
                     "/secret.txt", "/\(directory.path)/secret.txt", "/studio.js/../secret.txt", "/api/frame/../../secret.txt"] {
            let response = try await get(path)
            #expect(response.statusCode == .notFound, "\(path)")
            #expect(response.bodyData.range(of: Data("secret".utf8)) == nil)
        }
    }

    @Test func theTokenIsWrittenIntoThePageAndItsAssets() async throws {
        let page = String(decoding: try await get("/").bodyData, as: UTF8.self)
        #expect(page.contains("/studio.js?token=\(studio.token)"))
        #expect(!page.contains("{{token}}"))
        let response = try await get("/studio.js")
        #expect(response.headers[.contentType]?.hasPrefix("text/javascript") == true)
        #expect(response.headers[HTTPHeader("Referrer-Policy")] == "no-referrer")
    }

    /// A frame at a progress is the PNG a job writes to an image file, byte for byte.
    @Test func aFrameIsTheJobsPNG() async throws {
        let response = try await get("/api/frame?subject=effect:door&t=0.5&o.zoom=0.4")
        #expect(response.statusCode == .ok)
        let file = directory.appendingPathComponent("door.png").path
        var options = EffectOptions()
        options.set("zoom", 0.4)
        var job = RenderJob(Transition(.door, options: options), from: "sample:home", to: "sample:detail", output: .image(file))
        job.progress = [0.5]
        job.backend = .cpu
        try await job.run()
        let expected = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(response.bodyData == expected)
    }

    /// `format=rgba` is the PNG's pixels, raw: straight-alpha RGBA (an opaque frame's premultiplied bytes), with
    /// its size and working space in headers, and `rgba-runs` those pixels as runs; a PNG and its raw frame are
    /// kept apart.
    @Test func aRawFrameIsThePNGsPixels() async throws {
        let png = try await get("/api/frame?subject=effect:door&t=0.5")
        let raw = try await get("/api/frame?subject=effect:door&t=0.5&format=rgba")
        #expect(raw.statusCode == .ok)
        #expect(raw.headers[.contentType] == "application/octet-stream")
        #expect(raw.headers[HTTPHeader("X-Segue-Width")] == "375")
        #expect(raw.headers[HTTPHeader("X-Segue-Height")] == "667")
        #expect(raw.headers[HTTPHeader("X-Segue-Colour-Space")] == "srgb")
        let decoded = try ImageInput.decode([UInt8](png.bodyData), name: "door.png")
        #expect(decoded.pixels.allSatisfy { $0 >> 24 == 0xFF }, "door's frame is opaque")
        let pixels = decoded.pixels.withUnsafeBytes { Array($0) }
        #expect(raw.bodyData.count == 375 * 667 * 4)
        #expect([UInt8](raw.bodyData) == pixels)
        #expect(try await get("/api/frame?subject=effect:door&t=0.5").bodyData == png.bodyData)
        // What the page asks for: the same pixels as runs, with the same headers, a fraction of the bytes.
        let runs = try await get("/api/frame?subject=effect:door&t=0.5&format=rgba-runs")
        #expect(runs.statusCode == .ok)
        #expect(runs.headers[HTTPHeader("X-Segue-Width")] == "375")
        #expect(runs.bodyData.count < raw.bodyData.count / 4)
        #expect(PixelRuns.decode([UInt8](runs.bodyData), width: 375, pixels: 375 * 667) == pixels)
    }

    @Test(arguments: [
        ("/api/frame?subject=effect:door&t=2", "progress"), ("/api/frame?subject=effect:door&o.zoom=sideways", "zoom"),
        ("/api/frame?subject=effect:door&o.nothing=1", "no option"), ("/api/frame?subject=effect:nope", "no built-in"),
        ("/api/frame?subject=file:7", "no subject"), ("/api/frame?subject=effect:door&from=/etc/passwd", "no screen"),
        ("/api/frame?subject=effect:door&size=99999x2", "size"), ("/api/frame?subject=effect:door&backend=metal", "backend"),
        ("/api/frame?subject=effect:door&format=jpeg", "format"),
        // One bad value of a repeatable option's several (hero's pairs) is named; another option's ';' is no list.
        ("/api/frame?subject=effect:hero&t=0.5&o.from-rect=0,0,10,10;%20x&o.to-rect=0,0,20,20;0,0,30,30", "not 'x'"),
        ("/api/frame?subject=effect:circle-spread&t=0.5&o.center=10,10;20,20", "not '10,10;20,20'"),
        ("/api/frame?subject=effect:hero&t=0.5&o.from-rect=0,0,10,10;0,0,10,10;5,5,10,10&o.to-rect=0,0,20,20;0,0,30,30", "2 times"),
    ])
    func aBadRequestSaysWhatIsWrong(_ target: String, _ words: String) async throws {
        let response = try await get(target)
        #expect(response.statusCode == .unprocessableContent)
        let body = try JSONSerialization.jsonObject(with: response.bodyData) as? [String: Any]
        #expect((body?["message"] as? String)?.contains(words) == true, "\(body ?? [:])")
    }

    @Test func anUploadIsDecodedUnderItsLimits() async throws {
        var header = [UInt8](repeating: 0, count: 0)
        header += [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13] + Array("IHDR".utf8)
        header += [0, 0, 0x4e, 0x20, 0, 0, 0x4e, 0x20, 8, 6, 0, 0, 0, 0, 0, 0, 0]  // 20000x20000, the CRC unchecked first
        let huge = try await get("/api/upload?name=huge.png", method: .POST, body: Data(header))
        let hugeSaid = String(decoding: huge.bodyData, as: UTF8.self)
        // An image over the pixel limit is refused from its header as too large (413).
        #expect(huge.statusCode == .payloadTooLarge && hugeSaid.contains("is 20000x20000 pixels, over the limit of"), "\(hugeSaid)")
        let garbage = try await get("/api/upload?name=x.png", method: .POST, body: Data("not an image".utf8))
        let garbageSaid = String(decoding: garbage.bodyData, as: UTF8.self)
        // Bytes that are no image are the request's fault (422), not the server's (500).
        #expect(garbage.statusCode == .unprocessableContent && garbageSaid.contains("'x.png'"), "\(garbageSaid)")
        let sample = try await get("/api/frame?subject=effect:fade&t=0")
        let upload = try await get("/api/upload?name=first.png", method: .POST, body: sample.bodyData)
        #expect(upload.statusCode == .ok)
        let entry = try JSONSerialization.jsonObject(with: upload.bodyData) as? [String: Any]
        #expect(entry?["width"] as? Int == 375)
        let drawn = try await get("/api/frame?subject=effect:fade&t=1&to=\(entry?["id"] as? String ?? "")")
        #expect(drawn.statusCode == .ok)
    }

    /// Screens of another size than the samples': a sample beside them is drawn at their size, as the job
    /// that reads the same files draws it (an upload held in memory; a screen named on the command line).
    @Test func aSampleBesideAScreenOfAnotherSizeIsDrawnAtItsSize() async throws {
        let screen = directory.appendingPathComponent("wide.png").path
        var wide = RenderJob(Transition(.fade), from: "sample:home", to: "sample:detail", size: (300, 200), output: .image(screen))
        wide.progress = [0.3]
        wide.backend = .cpu
        try await wide.run()
        let expected = directory.appendingPathComponent("expected.png").path
        var job = RenderJob(Transition(.door), from: screen, to: "sample:detail", output: .image(expected))
        job.progress = [0.5]
        job.backend = .cpu
        try await job.run()
        let want = try Data(contentsOf: URL(fileURLWithPath: expected))

        let upload = try await get("/api/upload?name=wide.png", method: .POST, body: try Data(contentsOf: URL(fileURLWithPath: screen)))
        #expect(upload.statusCode == .ok)
        #expect(try await get("/api/frame?subject=effect:door&t=0.5&from=upload:1").bodyData == want)

        var settings = Studio.Settings()
        settings.directory = directory.path
        settings.from = screen
        let given = StudioHandler(studio: try Studio(settings))
        let request = HTTPRequest(method: .GET, target: "/api/frame?" + "subject=effect:door&t=0.5&from=arg:from&token=\(given.studio.token)")
        #expect(try await given.handleRequest(request).bodyData == want)
    }

    /// The difference view's worst pixel: the first of the largest channel difference, its place and both
    /// backends' bytes there, and how many pixels differ.
    @Test func theWorstPixelIsTheFirstOfTheLargestDifference() {
        let cpu: [UInt32] = [0xFF00_0000, 0xFF10_2030, 0xFF00_0000, 0xFF00_0000, 0x8000_0000, 0xFF00_0000]
        var gles = cpu
        gles[1] = 0xFF10_2033   // red off by 3
        gles[3] = 0xFF00_0900   // green off by 9: the worst
        gles[4] = 0x8900_0000   // alpha off by 9 too, later
        let (worst, differing) = StudioHandler.worst(cpu: cpu, gles: gles, width: 2)
        #expect(differing == 3)
        #expect(worst == .init(x: 1, y: 1, cpu: [0, 0, 0, 255], gles: [0, 9, 0, 255], difference: 9))
        #expect(StudioHandler.worst(cpu: cpu, gles: cpu, width: 2).0 == nil)
    }

    @Test func theCommandIsTheOneThatDrawsIt() async throws {
        let response = try await get("/api/command?subject=effect:door&t=0.5&o.zoom=0.4&duration=0.8&out=my%20frame.png")
        let body = try JSONSerialization.jsonObject(with: response.bodyData) as? [String: String]
        #expect(body?["command"] == "segue render door --from sample:home --to sample:detail --out 'my frame.png' --progress 0.5 --duration 0.8 --zoom 0.4 --backend cpu")
    }

    @Test(arguments: ["", "../x.mp4", "/tmp/x.mp4", ".hidden", "a/b", "tab\tname", String(repeating: "x", count: 201)])
    func aRenderIsNamedByAPlainName(_ name: String) {
        #expect(throws: SegueError.self) { try Renders.checkName(name) }
    }

    /// A storyboard's paths stay within the directory studio was started in: one named from outside it is
    /// refused at the start, with one line; a render never writes through a link, even one to nowhere.
    @Test func aStoryboardOutsideTheDirectoryAndARenderThroughALinkAreRefused() async throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("segue-outside-\(UUID().uuidString).json")
        try Data(#"{"fps": 10, "screens": {"a": "sample:home"}, "timeline": [{"hold": "a", "duration": 0.2}]}"#.utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        var settings = Studio.Settings()
        settings.directory = directory.path
        settings.files = [outside.path]
        let error = #expect(throws: SegueError.self) { try Studio(settings) }
        #expect(error?.message.contains("outside the directory studio was started in") == true)

        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("away.mp4").path, withDestinationPath: "/tmp/segue-nowhere/away.mp4")
        let render = try await get("/api/render?subject=effect:fade&out=away.mp4", method: .POST)
        #expect(render.statusCode == .conflict)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/segue-nowhere"))
    }

    /// Writes fade's frame at `t` (0: the home sample, 1: the detail sample) at 60x100 to `path`: a screen to change.
    static func writeScreen(_ path: String, fade t: Double) async throws {
        var job = RenderJob(Transition(.fade), from: "sample:home", to: "sample:detail", size: (60, 100), output: .image(path))
        job.progress = [t]
        job.backend = .cpu
        try await job.run()
    }

    /// The PNG `/api/frame` answers `studio` for `query` (the token added).
    static func frame(of studio: Studio, _ query: String) async throws -> Data {
        let request = HTTPRequest(method: .GET, target: "/api/frame?" + query + "&token=\(studio.token)")
        let response = try await StudioHandler(studio: studio).handleRequest(request)
        #expect(response.statusCode == .ok)
        return response.bodyData
    }

    /// A frame asked for as the page moves forward has the frames after it drawn ahead by one job, each the
    /// frame `segue batch` writes byte for byte; a step back draws only what it asks for.
    @Test func framesAreDrawnAheadOfAForwardScrub() async throws {
        let story = directory.appendingPathComponent("ahead.json")
        let text = #"{"fps": 10, "screens": {"a": "sample:home", "b": "sample:detail"}, "timeline": [{"transition": "door", "from": "a", "to": "b", "duration": 2}]}"#
        try Data(text.utf8).write(to: story)
        var settings = Studio.Settings()
        settings.directory = directory.path
        settings.files = [story.path]
        let studio = try Studio(settings)
        let frames = directory.appendingPathComponent("ahead-frames").path
        var job = try RenderJob(storyboardFile: story.path, output: .frames(directory: frames), root: directory.path)
        job.backend = .cpu
        try await job.run()
        func expected(_ k: Int) throws -> Data {
            try Data(contentsOf: URL(fileURLWithPath: frames).appendingPathComponent(String(format: "frame_%05d.png", k)))
        }
        let count = try FileManager.default.contentsOfDirectory(atPath: frames).filter { $0.hasSuffix(".png") }.count  // 21: 0 to 2 s
        func drawn() async -> Int { await studio.previews.cache.count }
        func settle(_ count: Int) async throws {
            for _ in 0..<200 where await drawn() < count { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(try await Self.frame(of: studio, "subject=file:0&frame=4") == expected(4))
        try await settle(1 + Previews.framesAhead)
        #expect(await drawn() == 1 + Previews.framesAhead, "frames drawn after frame 4 was asked for")
        // Each frame drawn ahead is the one segue batch writes; asking for them starts one job for the frames
        // after the last drawn (frames 11 to 17), to stay ahead.
        for k in 5...(4 + Previews.framesAhead) {
            #expect(try await Self.frame(of: studio, "subject=file:0&frame=\(k)") == expected(k), "frame \(k)")
        }
        try await settle(2 + 2 * Previews.framesAhead)
        let afterTen = await drawn()
        #expect(afterTen == 2 + 2 * Previews.framesAhead, "\(afterTen) frames drawn")
        // Near the end of the schedule: nothing past its last frame.
        #expect(try await Self.frame(of: studio, "subject=file:0&frame=18") == expected(18))
        try await settle(afterTen + count - 18)
        try await Task.sleep(for: .milliseconds(300))
        let afterEnd = await drawn()
        #expect(afterEnd == afterTen + count - 18, "frames 18 to \(count - 1) only: \(afterEnd) frames drawn")
        // A step back: that frame alone.
        #expect(try await Self.frame(of: studio, "subject=file:0&frame=2") == expected(2))
        try await Task.sleep(for: .milliseconds(300))
        let afterBack = await drawn()
        #expect(afterBack == afterEnd + 1, "\(afterBack) frames drawn")
    }

    /// A storyboard is watched with the files it names: an image its screen names, changed on disk, is drawn anew
    /// without the storyboard being saved.
    @Test func aStoryboardsScreenChangedOnDiskIsDrawnAnew() async throws {
        let screen = directory.appendingPathComponent("screen.png").path
        try await Self.writeScreen(screen, fade: 0)
        let story = directory.appendingPathComponent("story.json")
        let text = #"{"fps": 10, "screens": {"a": "screen.png"}, "timeline": [{"hold": "a", "duration": 0.2}]}"#
        try Data(text.utf8).write(to: story)
        var settings = Studio.Settings()
        settings.directory = directory.path
        settings.files = [story.path]
        let studio = try Studio(settings)
        func frame() async throws -> Data { try await Self.frame(of: studio, "subject=file:0&frame=0") }
        let before = try await frame()
        #expect(await studio.subjects.file(0)?.watched == [directory.path + "/screen.png"])
        // What the storyboard parser finds it names, inside the directory (StoryboardWatchingTests: the rest).
        #expect(await studio.subjects.poll().isEmpty)
        try await Self.writeScreen(screen, fade: 1)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 5)], ofItemAtPath: screen)
        #expect(await studio.subjects.poll() == ["file:0"])
        #expect(try await frame() != before)
    }

    /// A `--from` file changed on disk is the change `screens`, and the effect's frames are drawn from it anew.
    @Test func aCommandLinesScreenChangedOnDiskIsDrawnAnew() async throws {
        let screen = directory.appendingPathComponent("from.png").path
        try await Self.writeScreen(screen, fade: 0)
        var settings = Studio.Settings()
        settings.directory = directory.path
        settings.from = screen
        let studio = try Studio(settings)
        func frame() async throws -> Data { try await Self.frame(of: studio, "subject=effect:fade&t=0&from=arg:from&to=sample:detail&size=60x100") }
        let before = try await frame()
        #expect(await studio.subjects.poll().isEmpty)
        try await Self.writeScreen(screen, fade: 1)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 5)], ofItemAtPath: screen)
        #expect(await studio.subjects.poll() == ["screens"])
        #expect(await studio.subjects.screensVersion == 1)
        #expect(try await frame() != before)
    }

    @Test func aSubjectFileIsReadAgainWhenItChanges() async throws {
        let file = directory.appendingPathComponent("fx.json")
        let good = #"{"name": "fx", "summary": "s", "source": "t", "duration": 0.3, "curve": "linear", "layers": [{"content": "from"}, {"content": "to", "opacity": "e"}]}"#
        try Data(good.utf8).write(to: file)
        let subjects = try Subjects(files: [file.path], directory: directory.path)
        #expect(await subjects.file(0)?.problems.isEmpty == true)
        #expect(await subjects.poll().isEmpty)
        try Data(good.replacingOccurrences(of: "\"e\"", with: "\"sideways\"").utf8).write(to: file)
        #expect(await subjects.poll() == ["file:0"])
        let broken = await subjects.file(0)
        #expect(broken?.problems.first?.path.hasPrefix("$.layers[1]") == true)
        #expect(broken?.effect != nil, "the last good effect is kept")
        #expect(throws: SegueError.self) { try Subjects(files: [directory.appendingPathComponent("none.json").path], directory: directory.path) }
    }
}
