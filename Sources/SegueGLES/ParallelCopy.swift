import Foundation

/// Copies a frame out of a mapped pixel pack buffer on several cores. One core's `memcpy` out of the driver's
/// buffer is what limits pipelined read-back on a GPU: on an H200 (driver 580) a 3840x2160 frame took 6.99 ms
/// a frame pipelined against 3.18 ms for `glReadPixels` of an empty frame, the 33 MB copy being most of the
/// difference. Frames under `parallelBytes` are copied on the calling thread.
enum ParallelCopy {
    /// Below this a single `memcpy` is cheaper than waking threads.
    static let parallelBytes = 4 << 20
    /// Each thread's share is at least this.
    static let chunkBytes = 2 << 20

    static func copy(into destination: UnsafeMutableRawBufferPointer, from source: UnsafeRawBufferPointer,
                     threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        let count = min(destination.count, source.count)
        guard count > 0, let to = destination.baseAddress, let from = source.baseAddress else { return }
        let parts = max(1, min(threads, count / chunkBytes))
        guard count >= parallelBytes, parts > 1 else {
            to.copyMemory(from: from, byteCount: count)
            return
        }
        // Parts of whole cache lines (64 bytes), the last taking the rest.
        let share = (count / parts) & ~63
        // The addresses cross to the worker threads as integers: each thread writes its own range only, and
        // concurrentPerform returns after every one is done.
        let (toAddress, fromAddress) = (UInt(bitPattern: to), UInt(bitPattern: from))
        DispatchQueue.concurrentPerform(iterations: parts) { k in
            let start = k * share
            let length = k == parts - 1 ? count - start : share
            UnsafeMutableRawPointer(bitPattern: toAddress + UInt(start))!
                .copyMemory(from: UnsafeRawPointer(bitPattern: fromAddress + UInt(start))!, byteCount: length)
        }
    }
}
