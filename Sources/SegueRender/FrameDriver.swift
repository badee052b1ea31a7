import Foundation
import SegueCore

/// Draws runs of frames into a pipeline, on any renderer: each run loads its two snapshots once, then the
/// renderer draws its frames in order into buffers the pipeline lends and hands each back as soon as its
/// pixels are ready. A cancellation stops it before the next frame: the pipeline finishes the frames it holds
/// and removes partial output, and `JobError.interrupted` is thrown.
enum FrameDriver {
    struct Run {
        var snapshots: [Pixmap]
        /// Frame indices (file names, order in the stream) of the run, in order.
        var indices: [Int]
        /// The run's `n`th frame.
        var frame: (Int) throws -> RenderFrame
    }

    static func render(_ runs: [Run], with renderer: any Renderer, into pipeline: FramePipeline,
                       cancellation: CancellationFlag?) throws {
        do {
            try cancellation?.check()
            for run in runs where !run.indices.isEmpty {
                try renderer.load(snapshots: run.snapshots)
                try renderer.drawFrames(
                    count: run.indices.count,
                    frame: { n in
                        try cancellation?.check()
                        return try run.frame(n)
                    },
                    buffer: { pipeline.takeBuffer() },
                    deliver: { n, frame in try pipeline.submit(frame, index: run.indices[n]) })
            }
            try cancellation?.check()
        } catch {
            pipeline.abandon()
            throw error
        }
        try pipeline.finish()
    }
}
