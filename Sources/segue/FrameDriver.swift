import Foundation
import SegueCore
import SegueCPU

/// Draws runs of frames into a pipeline: each run loads its two snapshots once, then the renderer draws its
/// frames in order and hands each to the pipeline as soon as its pixels are ready. Ctrl-C (or SIGTERM) stops
/// after the frame in flight: the pipeline finishes the frames it holds, removes partial output, and the
/// command exits 130.
enum FrameDriver {
    struct Run {
        var snapshots: [Pixmap]
        /// Frame indices (file names, order in the stream) of the run, in order.
        var indices: [Int]
        /// The draw list of the run's `n`th frame.
        var list: (Int) -> DrawList
    }

    static func render(_ runs: [Run], with renderer: Renderer, into pipeline: FramePipeline) throws {
        Interrupt.install()
        do {
            for run in runs where !run.indices.isEmpty {
                try renderer.load(snapshots: run.snapshots)
                if renderer is CPUCompositor {
                    // Draws into buffers the pipeline is done with: no allocation or copy-on-write per frame.
                    for n in run.indices.indices {
                        if Interrupt.requested { throw CLIFailure(message: "interrupted", status: ExitStatus.interrupted) }
                        var buffer = pipeline.takeBuffer() ?? Pixmap(width: 0, height: 0)
                        try renderer.draw(run.list(n), into: &buffer)
                        try pipeline.submit(buffer, index: run.indices[n])
                    }
                    continue
                }
                // A backend with its own drawFrames (GLES reads frame k back while it draws k+1).
                try renderer.drawFrames(count: run.indices.count, list: run.list, deliver: { n, frame in
                    if Interrupt.requested { throw CLIFailure(message: "interrupted", status: ExitStatus.interrupted) }
                    try pipeline.submit(frame, index: run.indices[n])
                })
            }
            if Interrupt.requested { throw CLIFailure(message: "interrupted", status: ExitStatus.interrupted) }
        } catch {
            pipeline.abandon()
            throw error
        }
        try pipeline.finish()
    }
}
