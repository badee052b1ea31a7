import Foundation
import SegueCore

extension RenderJob {
    /// The job's frames in order, as an asynchronous sequence, ignoring `outputs`: `frames(renderer:)` without
    /// holding every frame. The job starts on its own thread when the first frame is asked for, and waits
    /// whenever `bufferLimit` frames are ready that the consumer has not taken (no frame is dropped); besides
    /// those, only the frames the job has in flight are alive (at most two per core, fewer where memory is short).
    /// Ending the iteration early (`break`, a thrown error, the task cancelled) cancels the job, which stops
    /// after the frame in flight; a cancelled task's `next()` throws `SegueError.interrupted`.
    ///
    /// `renderer`, when given, is the job's until the sequence ends (renderers are not `Sendable`). `observer`'s
    /// `progress` counts frames handed to the sequence's buffer.
    public func frameStream(renderer: (any Renderer)? = nil, bufferLimit: Int = 2,
                            observer: Observer = Observer()) -> FrameSequence {
        FrameSequence(job: self, renderer: Lent(renderer), bufferLimit: max(1, bufferLimit), observer: observer)
    }
}
