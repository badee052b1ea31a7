import Foundation
import SegueTestSupport
import Testing

/// `segue studio` refused at the start: each bad argument, file or port gets one line and its exit status at
/// once, and no server is left running (the page itself is tested in a browser, Tests/Studio).
@Suite struct StudioCommandTests {
    static let cases: [(arguments: [String], status: Int32, message: String)] = [
        (["--max-pixels", "0"], 2, "--max-pixels must be > 0"),
        (["--max-pixels", "-5"], 2, "--max-pixels must be > 0"),
        (["--port", "70000"], 2, "'70000' is invalid for '--port <n>'"),
        (["--host", "not-an-address", "--port", "0"], 2, "not 'not-an-address'"),
        (["--from", "missing.png", "--port", "0"], 1, "cannot read the screen 'missing.png': no such file"),
        ([".", "--port", "0"], 1, "cannot read '.': not a regular file"),
        (["/dev/zero", "--port", "0"], 1, "cannot read '/dev/zero': not a regular file"),
        (["nothere.json", "--port", "0"], 1, "cannot read 'nothere.json': no such file"),
    ]

    /// Runs `segue studio` killed after 20 s, so that a start that wrongly succeeds fails the test (status 137)
    /// instead of serving until CI's limit.
    static func studio(_ arguments: [String], in dir: URL? = nil) throws -> Segue.Result {
        try Segue.run(["-s", "KILL", "20", try Segue.executable.path, "studio"] + arguments, in: dir,
                      executable: URL(fileURLWithPath: "/usr/bin/timeout"))
    }

    @Test(arguments: cases.indices)
    func aBadStartIsOneLine(_ i: Int) throws {
        let (arguments, status, message) = Self.cases[i]
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Self.studio(arguments, in: dir)
        #expect(r.status == status, "\(arguments): \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.hasPrefix("segue: error: "), "\(r.stderr)")
        #expect(r.stderr.contains(message), "expected '\(message)' in: \(r.stderr)")
    }

    /// A port another server holds is said with the way out.
    @Test func aPortInUseIsOneLine() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
                try #require(bind(fd, p, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, p, &length) == 0)
            }
        }
        let port = String(UInt16(bigEndian: address.sin_port))
        let r = try Self.studio(["--port", port])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("cannot listen on 127.0.0.1 port \(port)") && r.stderr.contains("port 0 takes any free one"), "\(r.stderr)")
    }
}
