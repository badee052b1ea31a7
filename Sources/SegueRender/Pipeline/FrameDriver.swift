import Foundation
import SegueCore

/// Draws runs of frames into a pipeline, on any renderer: each run loads its two snapshots once (a clip's
/// snapshot is updated before each frame that shows another of its frames), then the
/// renderer draws its frames in order into buffers the pipeline lends and hands each back as soon as its
/// pixels are ready. A cancellation stops it before the next frame: the pipeline finishes the frames it holds
/// and removes partial output, and `SegueError.interrupted` is thrown.
enum FrameDriver {
    struct Run {
        /// The run's screens as its first frame shows them, read when the run starts (a clip's frame then).
        var snapshots: () throws -> [Pixmap]
        /// The snapshots that change for the run's `n`th frame (a clip's next frame), by slot; called before
        /// the frame is drawn, in order. Snapshots not listed keep what they hold.
        var updates: (Int) throws -> [(slot: Int, pixmap: Pixmap)] = { _ in [] }
        /// Frame indices (file names, order in the stream) of the run, in order.
        var indices: [Int]
        /// The screens' sources (paths, samples), in the order of `snapshots`, for messages.
        var sources: [String]
        /// What the run draws, for messages: `door`, `shader:ripple`, `hold`.
        var what: String
        /// The run's `n`th frame.
        var frame: (Int) throws -> RenderFrame
    }

    static func render(_ runs: [Run], with renderer: any Renderer, into pipeline: FramePipeline,
                       control: JobControl?) throws {
        do {
            try control?.check()
            for run in runs where !run.indices.isEmpty {
                let snapshots = try run.snapshots()
                do {
                    try renderer.load(snapshots: snapshots)
                } catch {
                    // The backend counts snapshots; the user knows files. A backend's failure keeps its kind (a GPU
                    // call, a limit) under the message naming the files.
                    let size = snapshots.first.map { "\($0.width)x\($0.height)" } ?? ""
                    let cause = SegueError.from(error)
                    throw SegueError(cause.isUsageError ? .failed : cause.kind, "cannot load \(run.sources.map { "'\($0)'" }.joined(separator: " and ")) (\(size)) on \(renderer.name): \(error)")
                }
                // The programs the run's frames need, compiled before its first frame (its first, quarters and
                // last frame as samples: an effect's kinds of item change over its progress).
                let count = run.indices.count
                let samples = Set([0, count / 4, count / 2, 3 * count / 4, count - 1]).sorted()
                try renderer.prepare(frames: try samples.map { try run.frame($0) },
                                     planes: renderer.capabilities.contains(.ycbcrPlanes) ? pipeline.planes : nil)
                let frame = { (n: Int) throws -> RenderFrame in
                    try control?.check()
                    control?.touch("drawing frame \(run.indices[n]) (\(run.what))")
                    for (slot, pixmap) in try run.updates(n) {
                        try renderer.update(snapshot: slot, with: pixmap)
                    }
                    return try run.frame(n)
                }
                // A stream of YCbCr planes from a renderer that converts frames itself: it reads back the planes,
                // and no colour is converted on the CPU.
                if let planes = pipeline.planes, renderer.capabilities.contains(.ycbcrPlanes) {
                    try renderer.drawFrames(count: run.indices.count, frame: frame, planes: planes, deliver: { n, bytes in
                        control?.touch()
                        try pipeline.submit(planes: bytes, index: run.indices[n])
                    })
                    continue
                }
                // A raw stream of opaque frames from a renderer that lends them where it read them back: each
                // written from there, never copied out.
                if pipeline.takesLentPixels, renderer.capabilities.contains(.lendsFrames) {
                    try renderer.drawFrames(count: run.indices.count, frame: frame, lend: { n, bytes in
                        control?.touch()
                        try pipeline.submit(lentPixels: bytes, index: run.indices[n])
                    })
                    continue
                }
                try renderer.drawFrames(
                    count: run.indices.count,
                    frame: frame,
                    buffer: { pipeline.takeBuffer() },
                    deliver: { n, frame in
                        control?.touch()
                        try pipeline.submit(frame, index: run.indices[n])
                    })
            }
            try control?.check()
        } catch {
            pipeline.abandon()
            throw error
        }
        try pipeline.finish()
    }
}
