import Foundation
import Segue
import SegueImageIO
@testable import SegueStudio
import Synchronization
import Testing

/// What a hostile or careless local client sends (issue 47's probe): each answered with a 4xx and its words,
/// never a crash, a hang or a file outside the studio's directory.
@Suite final class HostileClientTests: Sendable {
    let studio: Studio
    let handler: StudioHandler
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("segue-studio-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var settings = Studio.Settings()
        settings.directory = directory.path
        studio = try Studio(settings)
        handler = StudioHandler(studio: studio)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func get(_ target: String, method: HTTPMethod = .GET, body: Data = Data(), to handler: StudioHandler? = nil) async throws -> HTTPResponse {
        let handler = handler ?? self.handler
        let full = target + (target.contains("?") ? "&" : "?") + "token=\(handler.studio.token)"
        let request = HTTPRequest(method: method, target: full, body: [UInt8](body))
        return try await handler.handleRequest(request)
    }

    func message(_ response: HTTPResponse) async throws -> String {
        let body = try JSONSerialization.jsonObject(with: response.bodyData) as? [String: Any]
        return body?["message"] as? String ?? ""
    }

    /// A frame number past any job (the largest Int) is a frame outside the job on every route: it overflowed in
    /// the frame's range and ended the process.
    @Test(arguments: ["/api/frame", "/api/timeline", "/api/compare", "/api/render"])
    func aHugeFrameNumberIsRefused(_ route: String) async throws {
        let response = try await get("\(route)?subject=effect:fade&frame=9223372036854775807&out=huge", method: route == "/api/render" ? .POST : .GET)
        #expect(response.statusCode == .unprocessableContent, "\(route)")
        #expect(try await message(response).contains("frame"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("huge").path))
    }

    /// A picture's format is png or rgba, exactly: anything else is the client's mistake (422 naming the format),
    /// never a default picked for it.
    @Test(arguments: ["jpeg", "", "RGBA", "rgba%00", "png%20", String(repeating: "r", count: 200)])
    func anUnknownFormatIsRefused(_ format: String) async throws {
        let response = try await get("/api/frame?subject=effect:fade&t=0.5&format=\(format)")
        #expect(response.statusCode == .unprocessableContent, "\(format.prefix(20))")
        #expect(try await message(response).contains("format"))
    }

    /// IPv6's loopback written out in full and IPv4's loopback mapped into IPv6 are loopback (no warning).
    @Test(arguments: [("127.0.0.1", true), ("127.3.2.1", true), ("::1", true), ("0:0:0:0:0:0:0:1", true), ("::ffff:127.0.0.1", true),
                      ("localhost", true), ("0.0.0.0", false), ("::", false), ("::ffff:10.0.0.1", false), ("192.168.1.2", false)])
    func loopbackIsKnownInEveryForm(_ host: String, _ loopback: Bool) throws {
        var settings = Studio.Settings()
        settings.host = host
        #expect(try Studio(settings).isLoopback == loopback, "\(host)")
    }

    /// A render at a progress writes that one frame as one PNG, as `segue render --progress` does; a name with
    /// an extension that is neither an image nor a video is refused, not made a directory of frames.
    @Test func aRenderAtAProgressIsOnePNGAndAnUnknownExtensionIsRefused() async throws {
        let refused = try await get("/api/render?subject=effect:fade&out=out.avi", method: .POST)
        #expect(refused.statusCode == .unprocessableContent)
        #expect(try await message(refused).contains("out.avi"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.avi").path))

        let started = try await get("/api/render?subject=effect:door&t=0.5&out=exact.png", method: .POST)
        #expect(started.statusCode == .ok)
        await studio.renders.wait()
        let expected = try await get("/api/frame?subject=effect:door&t=0.5")
        var isDirectory: ObjCBool = true
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("exact.png").path, isDirectory: &isDirectory) && !isDirectory.boolValue)
        #expect(try Data(contentsOf: directory.appendingPathComponent("exact.png")) == (expected.bodyData))
    }

    /// Bytes that are no image, or an image cut short, are the client's fault: 4xx with words, never a 500.
    @Test(arguments: [Data("not an image".utf8), Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Data([0xff, 0xd8, 0xff, 0xe0, 0, 16]), Data()])
    func aBrokenUploadIsTheClientsFault(_ bytes: Data) async throws {
        let response = try await get("/api/upload?name=broken.png", method: .POST, body: bytes)
        #expect((400..<500).contains(response.statusCode.code), "\(response.statusCode)")
        #expect(try await message(response) != "")
    }

    /// A 375x667 PNG, as the studio draws the fade's first frame.
    func png(size: String? = nil) async throws -> Data {
        try await get("/api/frame?subject=effect:fade&t=0" + (size.map { "&size=\($0)" } ?? "")).bodyData
    }

    /// Runs `request` while a watchdog looks each second for a reader on the FIFO: a writer's open without waiting
    /// succeeds only when something has the FIFO open, or is blocked opening it, for reading. The request is then
    /// failed for it, and that open and close end the reader's wait so that the suite goes on.
    // Judged by the FIFO, not by time: under CI's whole suite on 2 cores a refusal that never blocked took over
    // 20 s, and a watchdog on time alone failed it (stop 52). The library's own look (open without waiting, fstat,
    // close) holds the FIFO for microseconds, so a probe a second lands in it about once in 10^5 tries.
    func bounded(fifo: String, _ request: @escaping @Sendable () async throws -> HTTPResponse) async throws -> HTTPResponse {
        let readerSeen = Mutex(false)
        let watchdog = Task.detached {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(1))
                let fd = open(fifo, O_WRONLY | O_NONBLOCK)
                if fd >= 0 {
                    readerSeen.withLock { $0 = true }
                    close(fd)
                }
            }
        }
        defer { watchdog.cancel() }
        let response = try await request()
        #expect(!readerSeen.withLock { $0 }, "the request opened the FIFO \(fifo) for reading and waited for a writer")
        return response
    }

    /// A `--from` screen replaced by a FIFO after the studio started: refused at once with its words, and the
    /// renderer's slot stays free for the next preview (the FIFO's open blocked it, freezing every preview).
    // The studio checks the screen before its job, but the check and the job's open are apart: the library reads
    // only what `fstat` of the descriptor, opened without waiting, says is a regular file (a release build under
    // the whole suite blocked on the FIFO here before that).
    @Test(.timeLimit(.minutes(1)))
    func aCommandLinesScreenReplacedByAFIFOIsRefused() async throws {
        let screen = directory.appendingPathComponent("from.png").path
        try await png().write(to: URL(fileURLWithPath: screen))
        var settings = Studio.Settings()
        settings.directory = directory.path
        settings.from = screen
        let given = StudioHandler(studio: try Studio(settings))
        unlink(screen)
        #expect(mkfifo(screen, 0o600) == 0)
        // Refused, however long the suite beside it holds the studio's threads, without waiting on the FIFO.
        let response = try await bounded(fifo: screen) { try await self.get("/api/frame?subject=effect:fade&t=0.5&from=arg:from", to: given) }
        #expect(response.statusCode != .ok, "\(response.statusCode)")
        let said = try await message(response)
        #expect(said.contains("from.png") && said.contains("not a regular file"), "\(said)")
        #expect(try await get("/api/frame?subject=effect:fade&t=0.5", to: given).statusCode == .ok)
    }

    /// A screen a storyboard names, replaced by a FIFO: the storyboard's frame is refused with the file's name.
    @Test(.timeLimit(.minutes(1))) func aStoryboardsScreenReplacedByAFIFOIsRefused() async throws {
        let screen = directory.appendingPathComponent("a.png").path
        try await png().write(to: URL(fileURLWithPath: screen))
        let story = directory.appendingPathComponent("story.json").path
        try Data(#"{"screens": {"a": "a.png", "b": "sample:home"}, "timeline": [{"transition": "fade", "from": "a", "to": "b"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: story))
        var settings = Studio.Settings()
        settings.directory = directory.path
        settings.files = [story]
        let storied = StudioHandler(studio: try Studio(settings))
        #expect(try await get("/api/frame?subject=file:0&frame=1", to: storied).statusCode == .ok)
        unlink(screen)
        #expect(mkfifo(screen, 0o600) == 0)
        // Frame 0: a step back, which is drawn now (frames after 1 were drawn ahead of it, before the FIFO).
        let response = try await bounded(fifo: screen) { try await self.get("/api/frame?subject=file:0&frame=0", to: storied) }
        #expect(response.statusCode != .ok, "\(response.statusCode)")
        let said = try await message(response)
        #expect(said.contains("a.png") && said.contains("not a regular file"), "\(said)")
        #expect(try await get("/api/frame?subject=effect:fade&t=0.5", to: storied).statusCode == .ok)
    }

    /// Uploads and the one being decoded stay within the uploads' memory at the peak: the oldest is dropped
    /// before a new one is decoded (two at the limit took twice it), and one that cannot fit alone is refused
    /// from its header with nothing dropped.
    @Test func uploadsHoldTheirMemoryAtThePeak() async throws {
        let uploads = Uploads(maxPixels: Limits.maxPixels, maxBytes: 64 << 20, from: "sample:home", to: "sample:detail", maxMemory: 2 << 20)
        // 300x400: 120,000 pixels, 0.96 MB while decoded, 0.48 MB held: a third is decoded beside two (1.92 MB),
        // a fourth only once the first is gone.
        let image = Array(try await png(size: "300x400"))
        #expect(Uploads.dimensions(image)! == (300, 400))
        for n in 1...4 {
            let entry = try await uploads.add(image, label: "u\(n).png")
            #expect(entry.width == 300)
        }
        let peak = await uploads.peak
        #expect(peak <= 2 << 20, "\(peak) bytes at the peak, over 2 MiB")
        #expect(await uploads.entries.compactMap(\.width).count == 3)
        // 600x600: 2.9 MB while decoded, more than all of it: refused, the three kept.
        let big = Array(try await png(size: "600x600"))
        do {
            _ = try await uploads.add(big, label: "big.png")
            Issue.record("a 600x600 upload fitted in 2 MiB")
        } catch {
            #expect(error.kind == .resourceLimit(name: "uploadMemory") && error.message.contains("600x600"), "\(error.message)")
        }
        #expect(await uploads.entries.compactMap(\.width).count == 3)
    }

    /// A 6000x6000 upload is previewed scaled down to the preview limit (2880x2880), not at its own size (a
    /// 6000x6000 preview took 824 MB): the preview's job, whose size the timeline reports, is at that size (a
    /// frame drawn at it took a minute of a debug build, so it is not drawn here).
    @Test(.timeLimit(.minutes(2))) func aHugeUploadIsPreviewedAtThePreviewLimit() async throws {
        #expect(Previews.fitted((6000, 6000), within: Studio.maxPreviewPixels) == (2880, 2880))
        let fitted = Previews.fitted((6000, 4000), within: Studio.maxPreviewPixels)
        #expect(fitted.width * fitted.height <= Studio.maxPreviewPixels && abs(Double(fitted.width) / Double(fitted.height) - 1.5) < 0.01)
        // 3000x3000, just over the limit (a 6000x6000 image took 9 s of a debug build to make and decode, and
        // slowed the timing tests beside it): the same path.
        let image = try PNGEncoder.encode(Pixmap(width: 3000, height: 3000, fill: 0xff33_6699), compressionLevel: 1, knownOpaque: true)
        let upload = try await get("/api/upload?name=big.png", method: .POST, body: Data(image))
        #expect(upload.statusCode == .ok)
        let entry = try JSONSerialization.jsonObject(with: upload.bodyData) as? [String: Any]
        let id = try #require(entry?["id"] as? String)
        #expect(entry?["width"] as? Int == 3000)
        let timeline = try JSONSerialization.jsonObject(with: try await get("/api/timeline?subject=effect:fade&from=\(id)").bodyData) as? [String: Any]
        let (width, height) = (timeline?["width"] as? Int ?? 0, timeline?["height"] as? Int ?? 0)
        #expect(width == height && width > 2800 && width * height <= Studio.maxPreviewPixels, "\(timeline ?? [:])")
    }
}
