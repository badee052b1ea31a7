import Foundation
import SegueCore
import SegueImageIO

/// The headless-browser peer: the same frames drawn as CSS 3D by a headless Chromium, one screenshot each,
/// as browser-based video tools (Remotion, puppeteer scripts) make a video. The page is
/// bench/peers/chromium_page.html; the two screens are PNG files beside it. Per frame the bench sets the
/// effect's styles for progress t (`Runtime.evaluate`) and takes a screenshot (`Page.captureScreenshot`,
/// PNG); a frame counts when its bytes are received. Nothing is decoded: that is what such a tool pays per frame
/// before its encoder.
final class ChromiumPeer {
    /// The screenshot format asked for; PNG is lossless, as Segue's frames are.
    static let format = "png"
    static let startupTimeout = 60.0
    static let frameTimeout = 10.0
    /// The effects the page has a CSS version of.
    static let effects: Set<String> = ["fade", "door", "circle-spread", "page-flip"]

    /// The browser to use: `override` when given (`none` for no browser), else the first of the usual names on PATH.
    static func find(_ override: String?) -> String? {
        if let override { return override == "none" ? nil : override }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
            for dir in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
                return "\(dir)/\(name)"
            }
        }
        return nil
    }

    static let installHint = "install it with `sudo apt-get install chromium` (Debian) and run make bench again"

    let pipe: DevToolsPipe
    let session: String
    let directory: URL
    let version: String
    /// From launch to the first screenshot received, in seconds (set by the first `load`'s first frame).
    private(set) var startup: Double?
    private let launched = DispatchTime.now().uptimeNanoseconds
    private var loads = 0

    init(executable: String, page: String, work: URL) throws {
        directory = work.appendingPathComponent("chromium")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard FileManager.default.fileExists(atPath: page) else { throw DevToolsPipe.Failure("\(page) is missing") }
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("page.html"))
        try FileManager.default.copyItem(atPath: page, toPath: directory.appendingPathComponent("page.html").path)
        var arguments = ["--headless", "--remote-debugging-pipe", "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
                         "--no-first-run", "--no-default-browser-check", "--hide-scrollbars", "--mute-audio",
                         "--allow-file-access-from-files", "about:blank"]
        if geteuid() == 0 { arguments.insert("--no-sandbox", at: 0) }  // Chromium refuses to run as root with its sandbox
        pipe = try DevToolsPipe(executable: executable, arguments: arguments, log: directory.appendingPathComponent("stderr.log"))
        do {
            let about = try pipe.call("Browser.getVersion", timeout: Self.startupTimeout)
            version = about["product"] as? String ?? "Chromium"
            let targets = try pipe.call("Target.getTargets", timeout: Self.startupTimeout)["targetInfos"] as? [[String: Any]] ?? []
            guard let target = targets.first(where: { $0["type"] as? String == "page" })?["targetId"] as? String else {
                throw DevToolsPipe.Failure("Target.getTargets: no page")
            }
            let attached = try pipe.call("Target.attachToTarget", ["targetId": target, "flatten": true], timeout: Self.startupTimeout)
            guard let id = attached["sessionId"] as? String else { throw DevToolsPipe.Failure("Target.attachToTarget: no session") }
            session = id
            try pipe.call("Page.enable", session: session, timeout: Self.startupTimeout)
        } catch {
            pipe.close()
            throw error
        }
    }

    deinit { pipe.close() }

    /// Loads the page afresh for `effect` at `scale` (CSS pixels are points; the device pixel ratio is the scale).
    func load(_ transition: Transition, snapshots: [Pixmap], frame: Size, scale: Double) throws {
        loads += 1
        var screens: [String: String] = [:]
        for (name, pixmap) in zip(["from", "to"], snapshots) {
            let file = "\(name)-\(loads).png"
            try Data(try PNGEncoder.encode(pixmap, compressionLevel: 2)).write(to: directory.appendingPathComponent(file))
            screens[name] = file
        }
        var options: [String: Any] = [:]
        for name in transition.options.setNames {
            switch transition.options[name] {
            case let .number(v)?: options[name] = v
            case let .point(p)?: options[name] = [p.x, p.y]
            default: break
            }
        }
        if transition.effect == .door { options["half"] = (frame.width / 2 * scale).rounded() / scale }  // snap(W / 2)
        let timeout = startup == nil ? Self.startupTimeout : Self.frameTimeout * 3
        try pipe.call("Emulation.setDeviceMetricsOverride",
                      ["width": Int(frame.width), "height": Int(frame.height), "deviceScaleFactor": scale, "mobile": false],
                      session: session, timeout: timeout)
        try pipe.call("Page.navigate", ["url": directory.appendingPathComponent("page.html").absoluteString], session: session, timeout: timeout)
        try pipe.waitForEvent("Page.loadEventFired", timeout: timeout)
        let arguments = try JSONSerialization.data(withJSONObject: [transition.effect.name, frame.width, frame.height, options, screens])
        let call = "setup(...\(String(decoding: arguments, as: UTF8.self)))"
        let result = try pipe.call("Runtime.evaluate", ["expression": call, "awaitPromise": true], session: session, timeout: timeout)
        if let exception = result["exceptionDetails"] as? [String: Any] {
            throw DevToolsPipe.Failure("setup: \((exception["exception"] as? [String: Any])?["description"] ?? exception["text"] ?? "")")
        }
        // The first paint, and the start-up figure: launch to the first screenshot received. The PNG's header
        // says its size (bytes 16-23): the page was drawn at the bench's pixel size, or the figures are not comparable.
        let first = try screenshot(0, timeout: timeout)
        let pixels = (width: Int((frame.width * scale).rounded()), height: Int((frame.height * scale).rounded()))
        guard first.count > 24 else { throw DevToolsPipe.Failure("Page.captureScreenshot: \(first.count) bytes") }
        let header = [UInt8](first[first.startIndex + 16..<first.startIndex + 24])
        let w = header[0..<4].reduce(0) { $0 << 8 | Int($1) }, h = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
        guard w == pixels.width && h == pixels.height else {
            throw DevToolsPipe.Failure("Page.captureScreenshot: \(w)x\(h) pixels, not \(pixels.width)x\(pixels.height)")
        }
        if startup == nil { startup = Double(DispatchTime.now().uptimeNanoseconds - launched) / 1e9 }
    }

    /// Sets the styles for eased progress `e` and takes a screenshot; returns its size in bytes.
    func frame(_ e: Double) throws -> Int { try screenshot(e, timeout: Self.frameTimeout).count }

    /// The screenshot at eased progress `e`, written to `path` (to compare with Segue's frame).
    func dump(_ e: Double, to path: String) throws {
        try screenshot(e, timeout: Self.frameTimeout).write(to: URL(fileURLWithPath: path))
    }

    private func screenshot(_ e: Double, timeout: Double) throws -> Data {
        try pipe.call("Runtime.evaluate", ["expression": "frame(\(e))"], session: session, timeout: timeout)
        let shot = try pipe.call("Page.captureScreenshot", ["format": Self.format, "optimizeForSpeed": true],
                                 session: session, timeout: timeout)
        guard let base64 = shot["data"] as? String, let bytes = Data(base64Encoded: base64) else {
            throw DevToolsPipe.Failure("Page.captureScreenshot: no image")
        }
        return bytes
    }
}
