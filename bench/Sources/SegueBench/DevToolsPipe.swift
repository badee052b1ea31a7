import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The Chrome DevTools protocol over `--remote-debugging-pipe`: Chromium reads commands on fd 3 and writes
/// replies and events on fd 4, each message JSON ended by a NUL byte. Foundation's `Process` passes only fds
/// 0-2 to a child, so Chromium is started through `/bin/sh`, which moves our two pipes from its standard input
/// and output onto 3 and 4. Every wait has a deadline: a browser that hangs becomes an error, never a hung bench.
final class DevToolsPipe {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    let process = Process()
    private let commands = Pipe(), replies = Pipe()
    private var buffer = Data()
    private var nextID = 0
    /// Events read while waiting for a reply, kept for `waitForEvent`.
    private var events: [[String: Any]] = []
    let log: URL

    init(executable: String, arguments: [String], log: URL) throws {
        self.log = log
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" \"$@\" 3<&0 4>&1 </dev/null >/dev/null", executable] + arguments
        process.standardInput = commands
        process.standardOutput = replies
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
    }

    /// Sends `method` and returns its `result`, skipping (and keeping) events; throws on a protocol error, on
    /// end of file and after `timeout` seconds.
    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:], session: String? = nil, timeout: Double) throws -> [String: Any] {
        nextID += 1
        let id = nextID
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        var data = try JSONSerialization.data(withJSONObject: message)
        data.append(0)
        try commands.fileHandleForWriting.write(contentsOf: data)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        while true {
            let reply = try read(until: deadline, waitingFor: method)
            guard (reply["id"] as? Int) == id else {
                if reply["method"] != nil { events.append(reply) }
                continue
            }
            if let error = reply["error"] as? [String: Any] {
                throw Failure("\(method): \(error["message"] ?? error)")
            }
            return reply["result"] as? [String: Any] ?? [:]
        }
    }

    /// Waits for the event `method` (one already read counts).
    func waitForEvent(_ method: String, timeout: Double) throws {
        if let k = events.firstIndex(where: { $0["method"] as? String == method }) {
            events.removeSubrange(...k)
            return
        }
        events.removeAll()
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        while try read(until: deadline, waitingFor: method)["method"] as? String != method {}
    }

    private func read(until deadline: UInt64, waitingFor what: String) throws -> [String: Any] {
        let fd = replies.fileHandleForReading.fileDescriptor
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let message = buffer[buffer.startIndex..<end]
                buffer = Data(buffer[(end + 1)...])
                guard let object = try JSONSerialization.jsonObject(with: message) as? [String: Any] else {
                    throw Failure("a DevTools message that is not a JSON object")
                }
                return object
            }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { throw Failure("no reply to \(what) in time") }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min((deadline - now) / 1_000_000 + 1, 60_000)))
            if ready < 0 && errno != EINTR { throw Failure("poll: \(String(cString: strerror(errno)))") }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure("the browser closed the pipe while \(what) was awaited\(lastLogLine)") }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// The browser's last line on standard error, for a failure message.
    var lastLogLine: String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").last.map { ": \($0)" } ?? ""
    }

    /// Asks the browser to close, then ends it if it has not within a few seconds.
    func close() {
        _ = try? call("Browser.close", timeout: 5)
        try? commands.fileHandleForWriting.close()
        for _ in 0..<50 where process.isRunning { usleep(100_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
