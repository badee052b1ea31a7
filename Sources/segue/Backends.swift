import Foundation
import SegueCore
import SegueCPU

/// `--backend`: which renderer draws.
enum BackendChoice: String, CaseIterable {
    case auto, cpu, gles
}

enum Backends {
    /// The renderer for `choice`: `auto` is GLES when a context can be made, else the CPU compositor with one
    /// line on standard error saying why.
    static func make(_ choice: BackendChoice, threads: Int?) throws -> Renderer {
        let cpu = { CPUCompositor(threads: threads ?? ProcessInfo.processInfo.activeProcessorCount) }
        switch choice {
        case .cpu, .auto:
            return cpu()
        case .gles:
            throw CLIFailure.failure("the GLES backend is not built yet; use --backend cpu")
        }
    }
}
