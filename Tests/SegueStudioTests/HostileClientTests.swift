import FlyingFox
import Foundation
import Segue
@testable import SegueStudio
import Testing

/// What a hostile or careless local client sends (issue 47's probe): each answered with a 4xx and its words,
/// never a crash, a hang or a file outside the studio's directory.
@Suite final class HostileClientTests {
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
        let parts = full.split(separator: "?", maxSplits: 1).map(String.init)
        let request = HTTPRequest(method: method, version: .http11, target: .init(path: parts[0], query: parts.count > 1 ? parts[1] : ""),
                                  headers: [:], body: HTTPBodySequence(data: body))
        return try await handler.handleRequest(request)
    }

    func message(_ response: HTTPResponse) async throws -> String {
        let body = try JSONSerialization.jsonObject(with: try await response.bodyData) as? [String: Any]
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
        #expect(try Data(contentsOf: directory.appendingPathComponent("exact.png")) == (try await expected.bodyData))
    }

    /// Bytes that are no image, or an image cut short, are the client's fault: 4xx with words, never a 500.
    @Test(arguments: [Data("not an image".utf8), Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Data([0xff, 0xd8, 0xff, 0xe0, 0, 16]), Data()])
    func aBrokenUploadIsTheClientsFault(_ bytes: Data) async throws {
        let response = try await get("/api/upload?name=broken.png", method: .POST, body: bytes)
        #expect((400..<500).contains(response.statusCode.code), "\(response.statusCode)")
        #expect(try await message(response) != "")
    }
}
