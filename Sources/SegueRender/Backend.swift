import Foundation
import SegueCore
import SegueCPU
import SegueGLES

/// Which renderer draws a job.
public enum BackendChoice: String, CaseIterable, Sendable {
    /// GLES when an EGL context can be made, else the CPU compositor.
    case auto
    case cpu
    case gles

    /// The renderer for this choice. `auto` is GLES when a context can be made, else the CPU compositor, with
    /// one `note` saying why; `gles`, or a forced `platform`, with no usable EGL is a failure. A job that plays
    /// custom shaders (`needsShaders`, naming them) needs GLES: `cpu` is then a usage error.
    public func makeRenderer(platform: EGLPlatform? = nil, threads: Int? = nil, needsShaders: String? = nil,
                             note: (String) -> Void = { _ in }) throws -> any Renderer {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        if let shaders = needsShaders {
            if self == .cpu {
                throw JobError.usage("\(shaders) needs the GLES backend (--backend auto or gles): the CPU compositor does not run GLSL")
            }
            do {
                return try GLESRenderer(platform: platform)
            } catch {
                throw JobError.failure("\(shaders) needs the GLES backend, which is unavailable: \(error)")
            }
        }
        if self == .cpu { return CPUCompositor(threads: threads ?? cores) }
        do {
            return try GLESRenderer(platform: platform)
        } catch {
            if self == .gles || platform != nil {
                throw JobError.failure("the GLES backend is unavailable: \(error)")
            }
            note("GLES is unavailable (\(error)); using the CPU compositor")
            return CPUCompositor(threads: threads ?? cores)
        }
    }
}
