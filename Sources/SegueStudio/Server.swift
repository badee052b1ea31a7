import FlyingSocks
import Foundation
import Synchronization

/// The studio's HTTP/1.1 server: FlyingSocks' sockets and event loop, the request head read here under limits,
/// and each request given to an `HTTPHandler` as an `HTTPRequest` (HTTP.swift).
///
/// FlyingFox's `HTTPServer`, which served the studio first, has no answer to a hostile local client (issue 47): it
/// reads a request head of any length (a 1 MB header held a core and two such connections stalled every other
/// request for 10-20 s), keeps idle connections for ever, and its accept loop throws on `EMFILE`, which ended
/// the studio once connections passed the descriptor limit. Its public API has no hook for any of the three
/// (the pool sees only waits, never bytes or accept's errors), hence this server. What it holds to:
/// - a request line past `Limits.requestLine` bytes is answered 414 and a head past `Limits.head` 431, as soon
///   as the limit is passed, and the connection closed; a body past `Limits.body` is 413 before it is read;
/// - at most `Limits.connections` connections: past it, the connection idle longest is dropped for the new one
///   (or, when none is idle, the new one is told 503 and closed);
/// - a connection waiting for a request, or sending one, for `Limits.idle` is dropped, and one whose client does
///   not take its response for `Limits.idle` too;
/// - an error from accept (`EMFILE`, `ENFILE`, ...) is said once, the idle connection dropped, and accept tried
///   again after a pause: the server never ends but by its task's cancellation;
/// - `HEAD` is answered as `GET` is, with its header fields and no body; a request with `Expect: 100-continue`
///   is told 100 before its body is read, or refused at once (413 past `Limits.body`, 417 for any other
///   expectation) without waiting for the body.
final class StudioServer: Sendable {
    struct Limits: Sendable {
        /// Bytes of a request line (method, target, version): past it, 414.
        var requestLine = 8 << 10
        /// Bytes of a request's head after its line (its header fields): past it, 431.
        var head = 16 << 10
        /// Bytes of a request's body: past it, 413 from its Content-Length, before a byte of it is read.
        var body = 64 << 20
        /// Connections held at once.
        var connections = StudioServer.connectionsForDescriptorLimit()
        /// How long a connection may wait for a request or take to send one, or leave its response untaken.
        var idle: Duration = .seconds(15)
        /// How long a refused connection's remaining bytes are read (so that its client reads the refusal rather
        /// than a reset) before it is closed.
        var linger: Duration = .seconds(1)
    }

    /// The connections a process may hold beside what the studio needs for itself (files, the renderer, its
    /// event loop): half of what is left of the descriptor limit past 64, between 8 and 512.
    static func connectionsForDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 64 }
        let soft = Int(clamping: min(limit.rlim_cur, 1 << 20))
        return min(512, max(8, (soft - 64) / 2))
    }

    let handler: any HTTPHandler
    let limits: Limits
    let log: @Sendable (String) -> Void
    private let listener: Socket
    private let pool: any AsyncSocketPool
    private let registry = Mutex(Registry())

    /// Binds and listens (throws `SocketError` for an address in use or one it cannot take).
    init(address: some SocketAddress, handler: some HTTPHandler, limits: Limits = Limits(),
         log: @escaping @Sendable (String) -> Void) throws {
        self.handler = handler
        self.limits = limits
        self.log = log
        #if os(Linux)
        pool = .ePoll()
        #else
        pool = .poll()
        #endif
        listener = try Socket(domain: Int32(type(of: address).family))
        do {
            try listener.setValue(true, for: .localAddressReuse)
            try listener.bind(to: address)
            try listener.listen()
            try listener.setFlags(listener.flags.union(.nonBlocking))
        } catch {
            try? listener.close()
            throw error
        }
    }

    /// Where the server listens (its port when asked for port 0).
    var address: Socket.Address? { try? listener.sockname() }

    /// Serves until the task is cancelled; the listening socket and every connection are closed then.
    func run() async throws {
        try await pool.prepare()
        defer { try? listener.close() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [pool] in try await pool.run() }
            group.addTask { try await self.reap() }
            group.addTask { await self.accept() }
            defer { group.cancelAll() }
            try await group.next()
        }
        for connection in registry.withLock({ Array($0.connections.values) }) { connection.cancel() }
    }

    // MARK: Connections

    /// What a connection is doing, for the limits: waiting for (or reading) a request, in the handler (no
    /// deadline: a frame takes as long as it takes), or writing a response.
    enum Phase { case waiting, handling, writing }

    final class Connection: Sendable {
        let id: Int
        let socket: AsyncSocket
        struct State {
            var phase = Phase.waiting
            var since = ContinuousClock.now
            var deadline: ContinuousClock.Instant?
            var task: Task<Void, Never>?
            var cancelled = false
        }
        let state: Mutex<State>

        init(id: Int, socket: AsyncSocket, deadline: ContinuousClock.Instant) {
            self.id = id
            self.socket = socket
            state = Mutex(State(deadline: deadline))
        }

        func enter(_ phase: Phase, deadline: ContinuousClock.Instant?) {
            state.withLock {
                $0.phase = phase
                $0.since = .now
                $0.deadline = deadline
            }
        }

        /// Ends the connection's task: a wait on its socket throws, and the task closes it.
        func cancel() {
            let task = state.withLock { state -> Task<Void, Never>? in
                state.cancelled = true
                return state.task
            }
            task?.cancel()
        }
    }

    struct Registry {
        var connections: [Int: Connection] = [:]
        var next = 0
        /// Accept errors already said (each kind once, until accept succeeds again).
        var said: Set<Int32> = []
    }

    /// Accepts until cancelled; never throws.
    private func accept() async {
        while !Task.isCancelled {
            do {
                let file = try listener.accept().file
                registry.withLock { $0.said.removeAll() }
                start(Socket(file: file))
            } catch SocketError.blocked {
                do {
                    try await pool.suspendSocket(listener, untilReadyFor: .connection)
                } catch {
                    // Cancelled: the server stops. Anything else: waited for again after a pause.
                    if Task.isCancelled { return }
                    try? await Task.sleep(for: .milliseconds(100))
                }
            } catch {
                let code: Int32
                if case let SocketError.failed(_, errno, _) = error { code = errno } else { code = -1 }
                let first = registry.withLock { $0.said.insert(code).inserted }
                if first {
                    let words = code == EMFILE || code == ENFILE
                        ? "too many open files (\(registry.withLock { $0.connections.count }) connections): the longest idle is dropped and accept tried again"
                        : "accepting a connection failed (\(Self.words(error))): tried again"
                    log("segue studio: \(words)")
                }
                if code == EMFILE || code == ENFILE { dropIdlest() }
                do { try await Task.sleep(for: .milliseconds(100)) } catch { return }
            }
        }
    }

    static func words(_ error: any Error) -> String {
        if case let SocketError.failed(type, _, message) = error { return "\(message) (\(type))" }
        return "\(error)"
    }

    /// Ends the connection that has waited longest for a request; false when none waits.
    @discardableResult
    private func dropIdlest() -> Bool {
        let idlest = registry.withLock { registry in
            registry.connections.values
                .compactMap { c in c.state.withLock { $0.phase == .waiting && !$0.cancelled ? (c, $0.since) : nil } }
                .min { $0.1 < $1.1 }?.0
        }
        idlest?.cancel()
        return idlest != nil
    }

    private func start(_ socket: Socket) {
        var on: Int32 = 1
        // Each part of a response goes out as written: with Nagle's algorithm on, the body of every response
        // after the first on a kept-alive connection waited 40 ms for the browser's delayed ACK of the header.
        _ = setsockopt(socket.file.rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        guard let async = try? AsyncSocket(socket: socket, pool: pool) else {
            try? socket.close()
            return
        }
        let full = registry.withLock { $0.connections.count >= limits.connections }
        if full, !dropIdlest() {
            // Every connection is busy: this one is told so and closed, by a task of its own.
            Task { await self.refuse(async, status: .serviceUnavailable,
                                     "segue studio: too many connections (\(self.limits.connections)); try again\n") }
            return
        }
        let connection = registry.withLock { registry -> Connection in
            let connection = Connection(id: registry.next, socket: async, deadline: .now + limits.idle)
            registry.next += 1
            registry.connections[connection.id] = connection
            return connection
        }
        let task = Task {
            await self.serve(connection)
            self.registry.withLock { _ = $0.connections.removeValue(forKey: connection.id) }
            try? async.close()
        }
        let cancelled = connection.state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    /// Ends connections past their deadline, twice a second.
    private func reap() async throws {
        while true {
            try await Task.sleep(for: .milliseconds(500))
            let now = ContinuousClock.now
            let late = registry.withLock { registry in
                registry.connections.values.filter { c in c.state.withLock { $0.deadline.map { $0 < now } ?? false } }
            }
            for connection in late { connection.cancel() }
        }
    }

    // MARK: Requests

    /// A request head that cannot be served: its status and words.
    struct Refusal: Error {
        var status: HTTPStatusCode
        var message: String
    }

    private func serve(_ connection: Connection) async {
        var buffer: [UInt8] = []
        while !Task.isCancelled {
            connection.enter(.waiting, deadline: .now + limits.idle)
            let request: HTTPRequest
            let keepAlive: Bool
            let isHead: Bool
            do {
                guard let head = try await readHead(connection.socket, &buffer) else { return }
                keepAlive = head.keepAlive
                var body: [UInt8] = []
                if head.expectsContinue && head.length > 0 && buffer.isEmpty {
                    // The client waits for this before it sends the body (RFC 9110 10.1.1).
                    try await connection.socket.write(Data("HTTP/1.1 \(HTTPStatusCode.continue)\r\n\r\n".utf8))
                }
                if head.length > 0 {
                    body = Array(buffer.prefix(head.length))
                    buffer.removeFirst(body.count)
                    while body.count < head.length {
                        let bytes = try await read(connection.socket, atMost: min(head.length - body.count, 1 << 16))
                        body += bytes
                    }
                }
                request = HTTPRequest(method: head.method == .HEAD ? .GET : head.method, path: head.path, query: head.query,
                                      headers: head.headers, body: body)
                isHead = head.method == .HEAD
            } catch let refusal as Refusal {
                connection.enter(.writing, deadline: .now + limits.idle)
                await refuse(connection.socket, status: refusal.status, refusal.message)
                return
            } catch {
                return // the client went away, or took too long
            }
            connection.enter(.handling, deadline: nil)
            var response: HTTPResponse
            do {
                response = try await handler.handleRequest(request)
            } catch {
                response = HTTPResponse(statusCode: .internalServerError, headers: [.contentType: "text/plain; charset=utf-8"],
                                        body: Data("segue studio: \(error)\n".utf8))
            }
            do {
                try await send(response, on: connection, keepAlive: keepAlive, head: isHead)
            } catch {
                return
            }
            guard keepAlive else { return }
        }
    }

    struct Head {
        var method: HTTPMethod
        var path: String
        var query: [HTTPRequest.QueryItem]
        var headers: HTTPHeaders
        var length: Int
        var keepAlive: Bool
        /// `Expect: 100-continue`: the client sends its body once told 100.
        var expectsContinue: Bool
    }

    /// Reads a request's head into `buffer` (what follows it stays there); nil when the client closed before a
    /// byte of it. Throws `Refusal` for a head past the limits or one that is no HTTP/1.x.
    private func readHead(_ socket: AsyncSocket, _ buffer: inout [UInt8]) async throws -> Head? {
        let crlf: [UInt8] = [13, 10]
        var lineEnd: Int?
        var headEnd: Int?
        var searched = 0
        while headEnd == nil {
            if lineEnd == nil {
                lineEnd = buffer.firstRange(of: crlf)?.lowerBound
                if lineEnd == nil, buffer.count > limits.requestLine {
                    throw Refusal(status: .uriTooLong,
                                  message: "segue studio: the request line is longer than \(limits.requestLine) bytes\n")
                }
            }
            if let lineEnd {
                // The head ends at the first empty line after the request line.
                let from = max(lineEnd, searched - 3)
                headEnd = buffer[from...].firstRange(of: [13, 10, 13, 10])?.upperBound
                searched = buffer.count
                if headEnd == nil, buffer.count - lineEnd > limits.head {
                    throw Refusal(status: .headerFieldsTooLarge,
                                  message: "segue studio: the request's header fields are longer than \(limits.head) bytes\n")
                }
            }
            if headEnd != nil { break }
            let bytes = try await read(socket, atMost: limits.head + limits.requestLine + 4 - buffer.count)
            buffer += bytes
            // Blank lines before a request line are allowed (RFC 9112 2.2).
            while buffer.starts(with: crlf) { buffer.removeFirst(2); searched = 0 }
        }
        let text = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd!)
        var lines = text.components(separatedBy: "\r\n").dropLast(2)
        let bad = { (why: String) in Refusal(status: .badRequest, message: "segue studio: \(why)\n") }
        let parts = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[1].hasPrefix("/"), parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else {
            throw bad("the request line is not METHOD /PATH HTTP/1.1")
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex, !line.first!.isWhitespace else {
                throw bad("a header field is not NAME: VALUE")
            }
            headers.addValue(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces),
                             for: HTTPHeader(String(line[..<colon])))
        }
        if headers[.transferEncoding] != nil {
            throw Refusal(status: .lengthRequired,
                          message: "segue studio: a request's body is sent with its Content-Length, not chunked\n")
        }
        var length = 0
        if let field = headers[.contentLength] {
            guard let n = Int(field.trimmingCharacters(in: .whitespaces)), n >= 0 else { throw bad("the Content-Length is not a number") }
            guard n <= limits.body else {
                throw Refusal(status: .payloadTooLarge, message: "segue studio: the body is \(n) bytes, more than the \(limits.body) a request may have\n")
            }
            length = n
        }
        var expectsContinue = false
        if let expect = headers[.expect] {
            // Only 100-continue is an expectation HTTP/1.1 defines (RFC 9110 10.1.1); a body past the limit was
            // refused above, before the client sent it.
            guard expect.lowercased() == "100-continue" else {
                throw Refusal(status: .expectationFailed, message: "segue studio: the only expectation it meets is 100-continue, not '\(expect)'\n")
            }
            expectsContinue = parts[2] == "HTTP/1.1"
        }
        // The target's path and query items, decoded as a request's are.
        let parsed = HTTPRequest(method: HTTPMethod(String(parts[0])), target: String(parts[1]))
        let http11 = parts[2] == "HTTP/1.1"
        let connection = headers[.connection]?.lowercased() ?? ""
        return Head(method: parsed.method, path: parsed.path, query: parsed.query,
                    headers: headers, length: length,
                    keepAlive: http11 ? !connection.contains("close") : connection.contains("keep-alive"),
                    expectsContinue: expectsContinue)
    }

    /// What the socket has, up to `count` bytes, at least one (FlyingSocks' `AsyncSocket.read(atMost:)` takes at
    /// most 4 KiB a call: a megabyte's refusal took a second to drain so). Throws at the end of the stream.
    private func read(_ socket: AsyncSocket, atMost count: Int) async throws -> [UInt8] {
        while true {
            try Task.checkCancellation()
            do {
                return try socket.socket.read(atMost: max(1, count))
            } catch SocketError.blocked {
                try await pool.suspendSocket(socket.socket, untilReadyFor: .read)
            }
        }
    }

    /// Sends a response: with its length when known, else chunk by chunk (the event stream); to a `HEAD`, its
    /// head alone (a stream's head says it is chunked, and the stream is not started).
    private func send(_ response: HTTPResponse, on connection: Connection, keepAlive: Bool, head isHead: Bool) async throws {
        var headers = response.headers
        headers[.connection] = keepAlive ? "keep-alive" : "close"
        switch response.body {
        case let .bytes(data): headers[.contentLength] = String(data.count)
        case .stream: headers[.transferEncoding] = "chunked"
        }
        var head = "HTTP/1.1 \(response.statusCode.code) \(response.statusCode.phrase)\r\n"
        for (name, value) in headers { head += "\(name.rawValue): \(value)\r\n" }
        head += "\r\n"
        connection.enter(.writing, deadline: .now + limits.idle)
        if isHead, case let .stream(stream) = response.body {
            // Not sent: an iterator made and dropped ends the stream (the event listener goes with it).
            _ = stream.makeAsyncIterator()
        }
        guard case let .stream(stream) = response.body, !isHead else {
            // A body of known length (a frame, the page, JSON) goes out with its head in one write.
            let bytes = Data(head.utf8) + (isHead ? Data() : response.bodyData)
            if bytes.count > Self.largeWrite, Self.takeWaitingWrite() {
                defer { Self.waitingWrites.subtract(1, ordering: .relaxed) }
                try await Self.writeWaiting(bytes, on: connection)
            } else {
                try await connection.socket.write(bytes)
            }
            return
        }
        try await connection.socket.write(Data(head.utf8))
        var iterator = stream.makeAsyncIterator()
        while true {
            // Waiting for the next part of a stream has no deadline; writing it has.
            connection.enter(.handling, deadline: nil)
            guard let chunk = await iterator.next() else { break }
            connection.enter(.writing, deadline: .now + limits.idle)
            guard !chunk.isEmpty else { continue }
            try await connection.socket.write(Data(String(chunk.count, radix: 16).utf8 + [13, 10] + chunk + [13, 10]))
        }
        connection.enter(.writing, deadline: .now + limits.idle)
        try await connection.socket.write(Data("0\r\n\r\n".utf8))
    }

    /// Bytes past which a response is written by `writeWaiting`, by at most `maxWaitingWrites` threads at once
    /// (the page asks for 4 frames at a time; clients that do not read tie up no more threads than that, each for
    /// at most `Limits.idle`); past it, through the socket pool.
    static let largeWrite = 256 << 10
    static let maxWaitingWrites = 4
    private static let waitingWrites = Atomic<Int>(0)

    /// One of the `maxWaitingWrites`, or false (nothing taken) when all are in use.
    private static func takeWaitingWrite() -> Bool {
        if waitingWrites.add(1, ordering: .relaxed).newValue <= maxWaitingWrites { return true }
        waitingWrites.subtract(1, ordering: .relaxed)
        return false
    }

    /// Writes `bytes` from a thread of its own that waits for the socket with poll(2) whenever the kernel has
    /// taken all it will: a raw frame (4 MB at 750x1334) goes out as fast as the client reads it. Through the
    /// socket pool each wait is several hops between threads and the pool's actor, and on 2 busy cores 4 MB took
    /// Chromium 35-49 ms to receive (16 ms from a server that blocks). The connection's deadline still holds: the
    /// watchdog's cancellation is seen within 50 ms, and ends the write as a client gone.
    private static func writeWaiting(_ bytes: Data, on connection: Connection) async throws {
        let fd = connection.socket.socket.file.rawValue
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async {
                done.resume(with: Result {
                    try bytes.withUnsafeBytes { buffer in
                        try writeAll(buffer, to: fd) { connection.state.withLock { $0.cancelled } }
                    }
                })
            }
        }
    }

    /// Answers a request that cannot be served and closes its connection: the refusal, then the client's
    /// remaining bytes read and dropped for at most `Limits.linger` (closing a socket with unread bytes resets
    /// it, and the client may lose the refusal).
    private func refuse(_ socket: AsyncSocket, status: HTTPStatusCode, _ message: String) async {
        defer { try? socket.close() }
        let body = Data(message.utf8)
        let head = "HTTP/1.1 \(status.code) \(status.phrase)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let linger = limits.linger
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? await socket.write(Data(head.utf8) + body)
                _ = shutdown(socket.socket.file.rawValue, Int32(SHUT_WR))
                var drained = 0
                while drained < 16 << 20, let bytes = try? await self.read(socket, atMost: 1 << 16) { drained += bytes.count }
            }
            group.addTask { try? await Task.sleep(for: linger) }
            await group.next()
            group.cancelAll()
        }
    }
}

/// Writes all of `buffer` to the non-blocking socket `fd`, waiting in poll(2) (50 ms at a time, asking
/// `cancelled` between) while the kernel takes no more; a client gone, or `cancelled`, throws.
private func writeAll(_ buffer: UnsafeRawBufferPointer, to fd: Int32, cancelled: () -> Bool) throws {
    #if os(Linux)
    let flags = Int32(MSG_NOSIGNAL)
    #else
    let flags: Int32 = 0
    #endif
    var sent = 0
    while sent < buffer.count {
        let n = send(fd, buffer.baseAddress! + sent, buffer.count - sent, flags)
        if n > 0 { sent += n; continue }
        guard n < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { throw SocketError.disconnected }
        if cancelled() { throw SocketError.disconnected }
        var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        _ = poll(&ready, 1, 50)
    }
}
