import Foundation
import Segue
@testable import SegueStudio
import Testing

/// The page's editor (issue 47): a watched file's text, and a save that replaces it as an editor saves, reaches
/// the watcher, and refuses what it must (no token, too long, changed on disk since loaded, a link at the name,
/// a subject that is no watched file). Problems carry their line and column.
@Suite final class EditingTests {
    let directory: URL
    let file: String
    let studio: Studio
    let handler: StudioHandler

    static let effect = #"""
        {
          "name": "fx", "summary": "first", "source": "t", "duration": 0.3, "curve": "linear",
          "layers": [{"content": "from"}, {"content": "to", "opacity": "e"}]
        }
        """#

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("segue-editing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        file = directory.appendingPathComponent("fx.json").path
        try Data(Self.effect.utf8).write(to: URL(fileURLWithPath: file))
        var settings = Studio.Settings()
        settings.directory = directory.path
        settings.files = [file]
        studio = try Studio(settings)
        handler = StudioHandler(studio: studio)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func request(_ target: String, method: HTTPMethod = .GET, body: String = "", token: Bool = true,
                 headers: HTTPHeaders = [:]) async throws -> HTTPResponse {
        let full = token ? target + (target.contains("?") ? "&" : "?") + "token=\(studio.token)" : target
        return try await handler.handleRequest(HTTPRequest(method: method, target: full, headers: headers, body: Array(body.utf8)))
    }

    struct Source: Decodable {
        var text: String
        var digest: String
        var editable: Bool
    }

    func source() async throws -> Source {
        let response = try await request("/api/source?subject=file:0")
        #expect(response.statusCode == .ok)
        return try JSONDecoder().decode(Source.self, from: response.bodyData)
    }

    func onDisk() throws -> String { try String(contentsOfFile: file, encoding: .utf8) }

    func save(_ text: String, digest: String, token: Bool = true) async throws -> HTTPResponse {
        try await request("/api/source?subject=file:0&digest=\(digest)", method: .POST, body: text, token: token)
    }

    @Test func theEditorLoadsTheFileAndEveryRouteNeedsTheToken() async throws {
        let loaded = try await source()
        #expect(loaded.text == Self.effect)
        #expect(loaded.editable)
        #expect(try await request("/api/source?subject=file:0", token: false).statusCode == .forbidden)
        let refused = try await save("{}", digest: loaded.digest, token: false)
        #expect(refused.statusCode == .forbidden)
        #expect(try onDisk() == Self.effect)
    }

    /// A save goes to a new file renamed over the name (a new inode; no temporary file left; the mode kept),
    /// and the watcher has read it when the save answers.
    @Test func aSaveReplacesTheFileWholeAndTheWatcherReadsIt() async throws {
        #expect(chmod(file, 0o640) == 0)
        var before = stat()
        #expect(stat(file, &before) == 0)
        let loaded = try await source()
        let edited = Self.effect.replacingOccurrences(of: "\"first\"", with: "\"second\"")
        let response = try await save(edited, digest: loaded.digest)
        #expect(response.statusCode == .ok, "\(String(decoding: response.bodyData, as: UTF8.self))")
        #expect(try onDisk() == edited)
        var after = stat()
        #expect(stat(file, &after) == 0)
        #expect(after.st_ino != before.st_ino, "written in place, not renamed over the name")
        #expect(after.st_mode & 0o7777 == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["fx.json"])
        let subject = await studio.subjects.file(0)
        #expect(subject?.effect?.summary == "second")
        #expect(subject?.version == 1)
        // What the save answers is the digest of the text now on disk: the next save replaces that.
        let answer = try JSONDecoder().decode([String: String].self, from: response.bodyData)
        #expect(answer["digest"] == (try await source()).digest)
    }

    @Test func aFileChangedOnDiskSinceItWasLoadedIsNotOverwritten() async throws {
        let loaded = try await source()
        let theirs = Self.effect.replacingOccurrences(of: "\"first\"", with: "\"theirs\"")
        try Data(theirs.utf8).write(to: URL(fileURLWithPath: file))
        let response = try await save(Self.effect.replacingOccurrences(of: "\"first\"", with: "\"mine\""), digest: loaded.digest)
        #expect(response.statusCode == .conflict)
        #expect(try onDisk() == theirs)
        let body = try JSONSerialization.jsonObject(with: response.bodyData) as? [String: Any]
        #expect((body?["message"] as? String)?.contains("changed on disk") == true)
        #expect(body?["digest"] as? String == (try await source()).digest)
        // With no digest at all, or a made-up one, the same.
        #expect(try await save("{}", digest: "").statusCode == .conflict)
        #expect(try onDisk() == theirs)
    }

    @Test func aTextLongerThanAWatchedFileMayBeIsRefused() async throws {
        let loaded = try await source()
        let long = String(repeating: " ", count: Editing.maxBytes + 1)
        #expect(try await save(long, digest: loaded.digest).statusCode == .payloadTooLarge)
        let claimed = try await request("/api/source?subject=file:0&digest=\(loaded.digest)", method: .POST, body: "{}",
                                        headers: [.contentLength: String(Editing.maxBytes + 1)])
        #expect(claimed.statusCode == .payloadTooLarge)
        #expect(try onDisk() == Self.effect)
    }

    /// A link planted at the file's name is neither written through nor replaced: the save is refused.
    @Test func aLinkAtTheNameIsRefused() async throws {
        let loaded = try await source()
        let target = directory.appendingPathComponent("elsewhere.json").path
        try Data(Self.effect.utf8).write(to: URL(fileURLWithPath: target))
        #expect(unlink(file) == 0)
        #expect(symlink(target, file) == 0)
        let response = try await save("{}", digest: loaded.digest)
        #expect(response.statusCode == .forbidden)
        #expect(String(decoding: response.bodyData, as: UTF8.self).contains("symbolic link"))
        #expect(try String(contentsOfFile: target, encoding: .utf8) == Self.effect)
        var info = stat()
        #expect(lstat(file, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)) == ["fx.json", "elsewhere.json"])
    }

    /// Only a file named on the command line is edited: the catalogue's effects, or a subject that is not
    /// there, are refused.
    @Test func aSubjectThatIsNoWatchedFileIsRefused() async throws {
        for subject in ["effect:door", "file:1", "file:-1", "../fx.json", ""] {
            #expect(try await request("/api/source?subject=\(subject)").statusCode == .unprocessableContent, "\(subject)")
            #expect(try await request("/api/source?subject=\(subject)&digest=x", method: .POST, body: "{}").statusCode == .unprocessableContent, "\(subject)")
        }
        var settings = Studio.Settings()
        settings.directory = directory.path
        let catalogue = try Studio(settings)
        let response = try await StudioHandler(studio: catalogue).handleRequest(
            HTTPRequest(method: .POST, target: "/api/source?subject=file:0&digest=x&token=\(catalogue.token)", body: Array("{}".utf8)))
        #expect(response.statusCode == .unprocessableContent)
        #expect(try onDisk() == Self.effect)
    }

    struct State: Decodable {
        struct Subject: Decodable { var problems: [Problem] }
        struct Problem: Decodable {
            var path: String
            var message: String
            var line: Int?
            var column: Int?
        }
        var subjects: [Subject]
    }

    /// Each problem the page is told of carries its line and column, a syntax error's too (not "around
    /// character N").
    @Test func problemsCarryTheirLineAndColumn() async throws {
        var loaded = try await source()
        let broken = Self.effect.replacingOccurrences(of: #""opacity": "e""#, with: #""opacity": "e + nope""#)
        #expect(try await save(broken, digest: loaded.digest).statusCode == .ok)
        var state = try JSONDecoder().decode(State.self, from: try await request("/api/state").bodyData)
        let problem = try #require(state.subjects[0].problems.first { $0.path == "$.layers[1].opacity" })
        #expect(problem.line == 3 && problem.column == 53, "\(problem)")

        loaded = try await source()
        let syntax = Self.effect.replacingOccurrences(of: #""duration": 0.3"#, with: #""duration": ]"#)
        #expect(try await save(syntax, digest: loaded.digest).statusCode == .ok)
        state = try JSONDecoder().decode(State.self, from: try await request("/api/state").bodyData)
        let error = try #require(state.subjects[0].problems.first)
        #expect(error.path == "$")
        // The place is said once, as the line and column (the message does not repeat it).
        #expect(error.message.hasPrefix("not valid JSON") && !error.message.contains("line"), "\(error.message)")
        #expect(error.line == 2 && error.column == 64)
    }
}
