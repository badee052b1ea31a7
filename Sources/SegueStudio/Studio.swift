import FlyingSocks
import Foundation
import Segue

/// `segue studio`: a local web server that shows transitions while they are written. Every picture on its page
/// is drawn here by Segue's own renderer, as `segue render` draws it (a frame at a progress is the same PNG,
/// byte for byte); files named on the command line are watched and a saved change reaches the page within a
/// second. The server is a client of `import Segue` alone (scripts/check-rooms.sh holds it to that).
///
/// Security: a local server is reachable by any page in the same browser, so every request must carry the
/// token printed in the URL (else 403); a request's path never reaches the file system (the server knows a
/// fixed set of routes, and names files by their place on the command line and uploads by number); uploads are
/// held to `Settings.uploadBytes` and their pixels to `Settings.maxPixels`; jobs started from the page write
/// only inside `Settings.directory`.
public final class Studio: Sendable {
    /// What `segue studio` was asked for.
    public struct Settings: Sendable {
        /// Effect files and storyboards to show and watch; none: the built-in catalogue.
        public var files: [String] = []
        /// The screens an effect is drawn between until the page picks others.
        public var from = "sample:home"
        public var to = "sample:detail"
        /// The address to listen on: loopback unless asked (anything else is reachable from the network).
        public var host = "127.0.0.1"
        /// The port; 0 takes any free one.
        public var port: UInt16 = 8417
        /// Uploaded images with more pixels are refused from their header.
        public var maxPixels = Limits.maxPixels
        /// The most bytes one upload may have.
        public var uploadBytes = 64 << 20
        /// Where jobs started from the page write (the directory studio was started in).
        public var directory = FileManager.default.currentDirectoryPath
        /// How the page says an option that the library's messages and the command it shows name (a reference):
        /// the library's own name unless the client says otherwise (the command line gives its flags).
        public var naming: @Sendable (SegueError.Reference) -> String = { $0.name }
        /// How often the watched files are looked at.
        public var pollInterval: Duration = .milliseconds(100)
        /// Where the server says what it does about a client without a request to answer (an accept that failed
        /// for too many open files): standard error, each line once.
        public var log: @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        public init() {}
    }

    /// The largest preview the page may ask for (a 4K frame).
    static let maxPreviewPixels = 3840 * 2160

    let settings: Settings
    /// The secret every request carries (`?token=`): 128 random bits from the system's generator.
    let token: String
    let subjects: Subjects
    let previews: Previews
    let uploads: Uploads
    let events = Events()
    let renders: Renders

    /// Checks the settings and reads the files (each must be readable; a file with problems is shown with them).
    public init(_ settings: Settings) throws(SegueError) {
        var address = in6_addr()
        guard settings.host == "localhost" || inet_pton(AF_INET, settings.host, &address) == 1 || inet_pton(AF_INET6, settings.host, &address) == 1 else {
            throw SegueError(.invalidOption(effect: nil, option: "host", value: settings.host),
                             "the host to listen on is an IPv4 or IPv6 address (127.0.0.1, ::1, 0.0.0.0) or localhost, not '\(settings.host)'")
        }
        for screen in [settings.from, settings.to] where !screen.hasPrefix("sample:") {
            var info = stat()
            guard stat(screen, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(screen, R_OK) == 0 else {
                throw SegueError(.inputUnreadable(path: screen), "cannot read the screen '\(screen)': \(FileManager.default.fileExists(atPath: screen) ? "not a readable file" : "no such file")")
            }
        }
        self.settings = settings
        var generator = SystemRandomNumberGenerator()
        token = (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }.joined()
        subjects = try Subjects(files: settings.files, directory: settings.directory,
                                screens: [settings.from, settings.to].filter { !$0.hasPrefix("sample:") })
        uploads = Uploads(maxPixels: settings.maxPixels, maxBytes: settings.uploadBytes, from: settings.from, to: settings.to)
        previews = Previews(subjects: subjects, uploads: uploads, settings: settings)
        renders = Renders(directory: settings.directory)
    }

    /// A socket failure in words (FlyingSocks' own descriptions start with the type's name).
    static func words(_ error: SocketError) -> String {
        switch error {
        case let .failed(type, _, message): return "\(message) (\(type))"
        case .blocked: return "its socket would block"
        case .disconnected: return "its listening socket closed"
        case .unsupportedAddress: return "the address is not one it can listen on"
        case let .timeout(message): return "timed out: \(message)"
        }
    }

    /// The page's address: where the server listens, with the token.
    func url(_ listening: Socket.Address) -> String {
        switch listening {
        case let .ip4(ip, port): return "http://\(ip):\(port)/?token=\(token)"
        case let .ip6(ip, port): return "http://[\(ip)]:\(port)/?token=\(token)"
        default: return "http://\(settings.host)/?token=\(token)"
        }
    }

    /// Whether the host is a loopback address (127.0.0.0/8, ::1, localhost), in any form its address takes
    /// (`0:0:0:0:0:0:0:1`; IPv4's mapped into IPv6, `::ffff:127.0.0.1`).
    public var isLoopback: Bool {
        let host = settings.host
        if host == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
        return bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1 || mapped && bytes[12] == 127
    }

    /// Serves until the task is cancelled: `ready` gets the page's URL (with its token) once the server listens.
    /// Only a failure to listen ends it with an error: a client's bad request, too many connections or an
    /// accept that fails (`EMFILE`) are answered or said in `Settings.log` and the server goes on.
    public func run(ready: @Sendable (String) -> Void) async throws {
        var limits = StudioServer.Limits()
        limits.body = settings.uploadBytes
        let server: StudioServer
        do {
            let address: any SocketAddress = settings.host.contains(":")
                ? try sockaddr_in6.inet6(ip6: settings.host, port: settings.port)
                : try sockaddr_in.inet(ip4: settings.host == "localhost" ? "127.0.0.1" : settings.host, port: settings.port)
            server = try StudioServer(address: address, handler: StudioHandler(studio: self), limits: limits, log: settings.log)
        } catch let SocketError.failed(type, _, message) {
            throw SegueError.failed("cannot listen on \(settings.host) port \(settings.port): \(message) (\(type))\(settings.port != 0 ? "; another server may hold the port: port 0 takes any free one" : "")")
        } catch let error as SocketError {
            throw SegueError.failed("cannot listen on \(settings.host) port \(settings.port): \(Self.words(error))")
        }
        guard let listening = server.address else { throw SegueError.failed("the server stopped before it listened") }
        ready(url(listening))
        var failure: (any Error)?
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run() }
                group.addTask { [self] in
                    // Watching: a changed file is read again and the page told.
                    while !Task.isCancelled {
                        try await Task.sleep(for: settings.pollInterval)
                        for id in await subjects.poll() {
                            events.send(.init(type: "changed", subject: id))
                        }
                    }
                }
                defer { group.cancelAll() }
                try await group.next()
            }
        } catch let error as SocketError {
            failure = SegueError.failed("the server stopped: \(Self.words(error))")
        } catch {
            failure = error
        }
        // However the server ended, a render the page started ends with it, its partial output removed.
        await renders.cancelAll()
        if let failure { throw failure }
    }
}
