import ArgumentParser
import Foundation
import SegueCore
import SegueCPU
import SegueGLES

/// `--backend`: which renderer draws.
enum BackendChoice: String, CaseIterable {
    case auto, cpu, gles
}

enum Backends {
    /// The renderer for `choice`: `auto` is GLES when a context can be made, else the CPU compositor with one
    /// line on standard error saying why; `gles`, or a forced platform, with no usable EGL is a failure (exit 1).
    static func make(_ choice: BackendChoice, platform: EGLPlatform?, threads: Int?) throws -> Renderer {
        if choice == .cpu { return CPUCompositor(threads: threads ?? ProcessInfo.processInfo.activeProcessorCount) }
        do {
            return try GLESRenderer(platform: platform)
        } catch {
            if choice == .gles || platform != nil {
                throw CLIFailure.failure("the GLES backend is unavailable: \(error)")
            }
            Console.note("GLES is unavailable (\(error)); using the CPU compositor")
            return CPUCompositor(threads: threads ?? ProcessInfo.processInfo.activeProcessorCount)
        }
    }
}

extension EGLPlatform: ExpressibleByArgument {}
