import Foundation

/// What the server tells every open page (Server-Sent Events): a file changed, a render moved on or ended.
final class Events: @unchecked Sendable {
    struct Event: Encodable, Sendable {
        var type: String
        var subject: String?
        var render: Int?
        var done: Int?
        var total: Int?
        var message: String?
        var output: String?
    }

    private let lock = NSLock()
    private var listeners: [Int: AsyncStream<[UInt8]>.Continuation] = [:]
    private var next = 0
    /// Open event streams at most (each is a connection held open); past it the oldest is closed.
    static let maxListeners = 16

    /// A new listener's stream of `data:` lines, starting with a comment so that the page knows it is open; a
    /// comment every 10 s keeps proxies and idle timers from closing it.
    func subscribe() -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id: Int = lock.withLock {
            next += 1
            if listeners.count >= Self.maxListeners, let oldest = listeners.keys.min() {
                listeners.removeValue(forKey: oldest)?.finish()
            }
            listeners[next] = continuation
            return next
        }
        continuation.yield(Array(": segue studio\n\n".utf8))
        let beat = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(10))
                continuation.yield(Array(": keep-alive\n\n".utf8))
            }
        }
        continuation.onTermination = { [weak self] _ in
            beat.cancel()
            self?.lock.withLock { _ = self?.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    func send(_ event: Event) {
        guard let json = try? JSONEncoder().encode(event) else { return }
        let bytes = Array("data: ".utf8) + Array(json) + Array("\n\n".utf8)
        for listener in lock.withLock({ Array(listeners.values) }) { listener.yield(bytes) }
    }
}
