import Foundation
import SegueCore
import SegueCPU
import SegueGLES

/// Draws runs of frames into a pipeline: each run loads its two snapshots once, then the renderer draws its
/// frames in order and hands each to the pipeline as soon as its pixels are ready. Ctrl-C (or SIGTERM) stops
/// after the frame in flight: the pipeline finishes the frames it holds, removes partial output, and the
/// command exits 130 (the command calls `Interrupt.install()` before it creates any output).
enum FrameDriver {
    struct Run {
        var snapshots: [Pixmap]
        /// Frame indices (file names, order in the stream) of the run, in order.
        var indices: [Int]
        var frames: Frames

        /// What the run's frames are.
        enum Frames {
            /// The draw list of the run's `n`th frame.
            case drawLists((Int) -> DrawList)
            /// A custom transition at these values of its `progress`, `width x height` pixels over `background`
            /// (drawn by the GLES backend).
            case shader(ShaderTransition, values: [String: ShaderValue], progress: [Double], width: Int, height: Int,
                        background: Color)
        }

        init(snapshots: [Pixmap], indices: [Int], list: @escaping (Int) -> DrawList) {
            self.init(snapshots: snapshots, indices: indices, frames: .drawLists(list))
        }

        init(snapshots: [Pixmap], indices: [Int], frames: Frames) {
            self.snapshots = snapshots
            self.indices = indices
            self.frames = frames
        }
    }

    static func render(_ runs: [Run], with renderer: Renderer, into pipeline: FramePipeline) throws {
        do {
            try Interrupt.check()
            for run in runs where !run.indices.isEmpty {
                try renderer.load(snapshots: run.snapshots)
                let deliver: (Int, Pixmap) throws -> Void = { n, frame in
                    try Interrupt.check()
                    try pipeline.submit(frame, index: run.indices[n])
                }
                switch run.frames {
                case let .shader(transition, values, progress, width, height, background):
                    guard let gles = renderer as? GLESRenderer else {
                        throw CLIFailure.failure("a custom shader needs the GLES backend, not \(renderer.name)")
                    }
                    let prepared = try gles.prepare(transition, values: values)
                    try gles.drawFrames(prepared, progress: progress, width: width, height: height,
                                        background: background, deliver: deliver)
                case let .drawLists(list) where renderer is CPUCompositor:
                    // Draws into buffers the pipeline is done with: no allocation or copy-on-write per frame.
                    for n in run.indices.indices {
                        try Interrupt.check()
                        var buffer = pipeline.takeBuffer() ?? Pixmap(width: 0, height: 0)
                        try renderer.draw(list(n), into: &buffer)
                        try pipeline.submit(buffer, index: run.indices[n])
                    }
                case let .drawLists(list):
                    // A backend with its own drawFrames (GLES reads frame k back while it draws k+1).
                    try renderer.drawFrames(count: run.indices.count, list: list, deliver: deliver)
                }
            }
            try Interrupt.check()
        } catch {
            pipeline.abandon()
            throw error
        }
        try pipeline.finish()
    }
}
