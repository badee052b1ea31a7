import ArgumentParser
import Foundation
import SegueCore
import SegueCPU
import SegueGLES
import SegueRender

/// `segue info`: which backends work on this machine and which one `auto` picks.
struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Say which backends work here, what each EGL platform gave or why it failed, and which backend --backend auto uses and why.",
        discussion: """
            --backend auto's choice comes from a calibration: the CPU compositor and each GLES path timed at \
            1920x1080 (8 pipelined frames each, as RGBA and as 4:2:0 planes), measured the first time and kept \
            in $XDG_CACHE_HOME/segue/calibration.json (else ~/.cache/segue/) per machine, driver and build of \
            segue for 30 days (an hour when the machine was busy while it was measured). --recalibrate measures again and replaces what is kept.
            """)

    @Flag(help: "Measure auto's calibration again (and replace the cached one) instead of reading the cache.")
    var recalibrate = false

    @Flag(help: "Print the same as one JSON object (platforms, gles, each path's check frame, cpu, auto, scheduler).")
    var json = false

    /// What `segue info` finds, as the text and the JSON say it.
    struct Report: Encodable {
        struct Platform: Encodable {
            var platform: String
            var available: Bool
            var detail: String
            /// Each device it offers, as `--egl-platform PLATFORM:INDEX` names it: `device:0 - software (...)`.
            var devices: [String]
        }
        struct GLES: Encodable {
            var platform: String
            var location: String?
            var eglVendor: String
            var eglVersion: String
            var renderer: String
            var version: String
            var maxTextureSize: Int
            var maxRenderbufferSize: Int
            var maxViewport: [Int]
            var paths: [String]
            var computeShaders: Bool
            var readback: String
            /// One 64x36 frame asked of each path: which path drew it, as the renderer counted
            /// (`GLESStats.pathFrames`), and any frame a compute path handed to raster, with why.
            var checkFrameDrawnBy: [String: [String: Int]]
            var fallbacks: [String: [String: Int]]
        }
        var platforms: [Platform]
        var gles: GLES?
        var glesUnavailable: String?
        var cpu: String
        var auto: String
        var scheduler: String
    }

    func run() throws {
        try Console.requireStandardOutput(for: "what segue finds")
        let report = Self.look(recalibrate: recalibrate)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
            return
        }
        print("EGL platforms, in the order --backend auto tries them:")
        for platform in report.platforms {
            print("  \(platform.platform): \(platform.available ? "available" : "unavailable") - \(platform.detail)")
            for device in platform.devices { print("    \(device)") }
        }
        if let g = report.gles {
            print("gles: available on \(g.platform)" + (g.location.map { " (\($0))" } ?? ""))
            print("  EGL vendor \(g.eglVendor), EGL \(g.eglVersion)")
            print("  GL_RENDERER \(g.renderer)")
            print("  GL_VERSION \(g.version)")
            print("  GL_MAX_TEXTURE_SIZE \(g.maxTextureSize), GL_MAX_RENDERBUFFER_SIZE \(g.maxRenderbufferSize), "
                  + "GL_MAX_VIEWPORT_DIMS \(g.maxViewport[0])x\(g.maxViewport[1])")
            print("  paths: " + g.paths.joined(separator: ", ") + (g.computeShaders ? " (compute: OpenGL ES 3.1 compute shaders)" : " (no compute shaders: the compute paths are unavailable)"))
            print("  a 64x36 frame on each path, drawn by: " + g.paths.map { path in
                let drawn = (g.checkFrameDrawnBy[path] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                    + (g.fallbacks[path] ?? [:]).sorted { $0.key < $1.key }.map { "fallback (\($0.key)) \($0.value)" }
                return "\(path): \(drawn.isEmpty ? "nothing" : drawn.joined(separator: ", "))"
            }.joined(separator: "; "))
            print("  read-back: \(g.readback)")
        } else {
            print("gles: unavailable - \(report.glesUnavailable ?? "")")
        }
        print("cpu: available - \(report.cpu)")
        print("auto: \(report.auto)")
        print(report.scheduler)
    }

    static func look(recalibrate: Bool) -> Report {
        let platforms = GLESRenderer.probe().map { probe in
            var devices: [String] = []
            if probe.platform != .surfaceless, case let .success(found) = GLESRenderer.devices(on: probe.platform) {
                devices = found.map { "\(probe.platform.rawValue):\($0.index) - \($0.kind)" }
            }
            return Report.Platform(platform: probe.platform.rawValue, available: probe.ok, detail: probe.detail, devices: devices)
        }
        var gles: Report.GLES?
        var unavailable: String?
        do {
            let renderer = try GLESRenderer()
            let i = renderer.info
            let (drawn, fallbacks) = try checkFrames(renderer)
            gles = Report.GLES(
                platform: renderer.platform.rawValue, location: renderer.location, eglVendor: i.eglVendor, eglVersion: i.eglVersion,
                renderer: i.renderer, version: i.version, maxTextureSize: i.maxTextureSize, maxRenderbufferSize: i.maxRenderbufferSize,
                maxViewport: [i.maxViewportWidth, i.maxViewportHeight], paths: renderer.paths, computeShaders: renderer.supportsCompute,
                readback: renderer.readbackMapping + ", \(GLESRenderer.readbackBuffers - 1) frames in flight while one is read",
                checkFrameDrawnBy: drawn, fallbacks: fallbacks)
        } catch {
            unavailable = "\(error)"
        }
        return Report(platforms: platforms, gles: gles, glesUnavailable: unavailable, cpu: CPUCompositor().details,
                      auto: BackendChoice.autoChoice(recalibrate: recalibrate), scheduler: schedulerLine(ProcessInfo.processInfo.environment))
    }

    /// One 64x36 frame of door, half way, asked of each path: which path the renderer counted for it.
    static func checkFrames(_ gles: GLESRenderer) throws -> (drawn: [String: [String: Int]], fallbacks: [String: [String: Int]]) {
        let frame = Size(64, 36)
        let snapshots = [Pixmap(width: 64, height: 36), Pixmap(width: 64, height: 36)]
        try gles.load(snapshots: snapshots)
        let list = DrawList(scene: Transition.example(EffectCatalog.named("door") ?? EffectCatalog.builtIn[0])
                                .scene(at: 0.5, frame: frame, scale: 1),
                            scale: 1, snapshots: snapshots.map(SnapshotInfo.init), background: Color(red: 0, green: 0, blue: 0))
        var drawn: [String: [String: Int]] = [:], fallbacks: [String: [String: Int]] = [:]
        var pixels = Pixmap(width: 0, height: 0)
        let original = gles.currentPath
        defer { try? gles.use(path: original) }
        for path in gles.paths {
            try gles.use(path: path)
            gles.resetStats()
            try gles.draw(list, into: &pixels)
            drawn[path] = gles.stats.pathFrames.filter { $0.value > 0 }
            fallbacks[path] = gles.stats.fallbacks.filter { $0.value > 0 }
        }
        return (drawn, fallbacks)
    }

    /// Which scheduler's task this process is, as `--chunk auto` and the shard default read it.
    static func schedulerLine(_ environment: [String: String]) -> String {
        do {
            guard let task = try Scheduler.task(in: environment) else {
                return "scheduler: none (looked for \(Scheduler.all.map { "\($0.indexVariable) (\($0.name))" }.joined(separator: ", ")))"
            }
            let s = task.scheduler
            return "scheduler: \(s.name), task \(task.index) of \(task.count) (\(s.indexVariable)=\(environment[s.indexVariable] ?? ""), \(s.countVariable)=\(environment[s.countVariable] ?? ""))"
        } catch {
            return "scheduler: unusable - \(error.description)"
        }
    }
}
