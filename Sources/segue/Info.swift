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
            segue for 30 days. --recalibrate measures again and replaces what is kept.
            """)

    @Flag(help: "Measure auto's calibration again (and replace the cached one) instead of reading the cache.")
    var recalibrate = false

    func run() throws {
        try Console.requireStandardOutput(for: "what segue finds")
        print("EGL platforms, in the order --backend auto tries them:")
        let probes = GLESRenderer.probe()
        for probe in probes {
            print("  \(probe.platform.rawValue): \(probe.ok ? "available" : "unavailable") - \(probe.detail)")
            // Each device the platform offers, as --egl-platform PLATFORM:INDEX names it.
            if probe.platform != .surfaceless, case let .success(devices) = GLESRenderer.devices(on: probe.platform) {
                for device in devices { print("    \(probe.platform.rawValue):\(device.index) - \(device.kind)") }
            }
        }
        do {
            let gles = try GLESRenderer()
            let i = gles.info
            print("gles: available on \(gles.platform.rawValue)" + (gles.location.map { " (\($0))" } ?? ""))
            print("  EGL vendor \(i.eglVendor), EGL \(i.eglVersion)")
            print("  GL_RENDERER \(i.renderer)")
            print("  GL_VERSION \(i.version)")
            print("  GL_MAX_TEXTURE_SIZE \(i.maxTextureSize), GL_MAX_RENDERBUFFER_SIZE \(i.maxRenderbufferSize), "
                  + "GL_MAX_VIEWPORT_DIMS \(i.maxViewportWidth)x\(i.maxViewportHeight)")
            print("  paths: " + gles.paths.joined(separator: ", ") + (gles.supportsCompute ? " (compute: OpenGL ES 3.1 compute shaders)" : " (no compute shaders: the compute paths are unavailable)"))
            print("  read-back: " + (gles.mapsReadbackPersistently ? "persistent coherent maps of client storage (GL_EXT_buffer_storage), \(GLESRenderer.readbackBuffers - 1) frames in flight while one is read"
                                     : "pack buffers mapped each frame, \(GLESRenderer.readbackBuffers - 1) frames in flight while one is read"))
        } catch {
            print("gles: unavailable - \(error)")
        }
        print("cpu: available - \(CPUCompositor().details)")
        print("auto: \(BackendChoice.autoChoice(recalibrate: recalibrate))")
        print(Self.schedulerLine(ProcessInfo.processInfo.environment))
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
