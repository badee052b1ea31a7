import Foundation
import SegueCore
import SegueImageIO

/// Overlaps drawing, encoding and writing: the renderer submits frames in order on its own thread, worker
/// threads encode them (PNG files, or the bytes of a stream) and a writer thread puts stream bytes out in
/// submission order. At most `capacity` frames are in flight, so memory stays flat however long the job:
/// `submit` blocks while the pipeline is full.
///
/// PNG files are written atomically (a temporary name, renamed when complete), each by the worker that encoded
/// it, in any order; a stream (raw RGBA, Y4M, an ffmpeg process) is written by the one writer thread, in order.
///
/// When there is nothing to encode (a raw RGBA stream and no PNG files: the frame's pixels are the bytes), no
/// thread is started: `submit` writes each frame itself, in order, as it comes, and the frame's buffer is lent
/// back at once. Handing 8 MB frames to a worker and on to the writer cost more than the write.
final class FramePipeline: @unchecked Sendable {
    struct Outputs {
        /// A directory for `frame_%05d.png` files, named by frame index.
        var directory: String?
        var pngLevel: Int
        /// Every frame is opaque (drawn over an opaque background): the encoders need not look.
        var opaque = false
        /// Told of each frame file once it is in place, with its bytes (the manifest's record).
        var written: (@Sendable (_ index: Int, _ bytes: [UInt8]) -> Void)? = nil
        /// One ordered stream of every submitted frame.
        var stream: FrameStream?
        /// The working space, which every PNG says (`PNGEncoder`'s `colourSpace`).
        var colourSpace: ColourSpace = .srgb
    }

    private let outputs: Outputs
    private let slots: DispatchSemaphore
    private let lock = NSCondition()
    // Guarded by `lock`:
    private var queue: [(sequence: Int, index: Int, frame: Pixmap)] = []
    private var closed = false
    private var ready: [Int: FramePayload] = [:]
    private var nextToWrite = 0
    /// Frames the stream has taken (written, or skipped after a failure).
    private var written = 0
    private var failure: Error?
    private let progress: (Int) -> Void
    private var done = 0
    private var pool: [Pixmap] = []
    private let poolLimit: Int

    private var submitted = 0
    /// Frames are written by `submit` on the caller's thread (see the type's comment).
    private let direct: Bool
    private let finished = DispatchGroup()

    /// `workers` encoding threads (the cores by default); `capacity` frames at most in flight (twice the workers).
    /// `progress` is told how many frames are complete after each one, on the pipeline's threads, one call at
    /// a time. Throws when a thread cannot start (`JobThread`), once the threads already started have ended and
    /// the stream is abandoned.
    init(outputs: Outputs, workers: Int? = nil, capacity: Int? = nil, progress: @escaping (Int) -> Void = { _ in }) throws {
        self.outputs = outputs
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let workerCount = max(1, workers ?? cores)
        let slotCount = max(1, capacity ?? 2 * max(cores, workerCount))
        slots = DispatchSemaphore(value: slotCount)
        poolLimit = slotCount
        self.progress = progress
        direct = outputs.directory == nil && outputs.stream?.passesPixelsThrough == true
        if direct { return }
        var threads: [(name: String, body: @Sendable () -> Void)] = (0..<workerCount).map { n in
            ("segue-encode-\(n)", { [unowned self] in self.work() })
        }
        if outputs.stream != nil {
            threads.append(("segue-write", { [unowned self] in self.writeStream() }))
        }
        for (name, body) in threads {
            finished.enter()
            do {
                try JobThread.start(name, body)
            } catch {
                finished.leave()
                abandon()
                throw error
            }
        }
    }

    /// Hands one frame to the pipeline, waiting while `capacity` frames are in flight; throws the first error
    /// a worker or the writer met.
    func submit(_ frame: Pixmap, index: Int) throws {
        if direct { return try write(frame) }
        slots.wait()
        lock.lock()
        defer { lock.unlock() }
        if let failure {
            slots.signal()
            throw failure
        }
        queue.append((submitted, index, frame))
        submitted += 1
        lock.broadcast()
    }

    /// The planes the stream takes in place of pixels (`submit(planes:index:)`), when it writes nothing else
    /// (no PNG files): a renderer with `.ycbcrPlanes` then converts the frames itself.
    var planes: YCbCrPlanes? {
        outputs.directory == nil && !direct ? outputs.stream?.planes : nil
    }

    /// Hands one frame to the pipeline as its YCbCr planes (`planes`' layout), converted by the renderer, which
    /// lends them for this call only (its mapped read-back buffer): written here, in place, on the caller's
    /// thread, with no copy and no encoding, once every frame submitted before it is written. Throws the first
    /// error a worker or the writer met.
    func submit(planes bytes: UnsafeRawBufferPointer, index: Int) throws {
        guard let stream = outputs.stream, planes != nil else {
            throw SegueError.failed("frame \(index) came as YCbCr planes, which this output does not take")
        }
        try writeHere(stream.lend(planes: bytes), to: stream)
    }

    /// Whether frames may be handed over as lent bytes (`submit(lentPixels:index:)`): a raw RGBA stream of
    /// opaque frames and nothing else, whose bytes are the frame's own.
    var takesLentPixels: Bool { direct && outputs.opaque }

    /// Writes one opaque frame's premultiplied RGBA bytes, lent by the renderer for this call only (its mapped
    /// read-back buffer), to the stream in place: the direct path with no copy.
    func submit(lentPixels bytes: UnsafeRawBufferPointer, index: Int) throws {
        guard takesLentPixels, let stream = outputs.stream else {
            throw SegueError.failed("frame \(index) came as lent bytes, which this output does not take")
        }
        try writeHere(.lent(prefix: [], bytes: bytes), to: stream)
    }

    /// Writes one frame to the stream on this thread (the direct path): frames are written in the order they
    /// are submitted, and the first error is thrown here and again by `finish`.
    private func write(_ frame: Pixmap) throws {
        guard let stream = outputs.stream else { return }
        if let failure = lock.locked({ failure }) { throw failure }
        try writeHere(try stream.encode(frame, knownOpaque: outputs.opaque), to: stream)
        lock.locked { recycle(frame) }
    }

    /// Writes `payload` to `stream` on this thread, as the next frame, once every frame submitted before it is
    /// written (at once on the direct path, which has no writer thread); the first error is thrown here and
    /// again by `finish`.
    private func writeHere(_ payload: FramePayload, to stream: FrameStream) throws {
        try lock.locked {
            while written < submitted && failure == nil { lock.wait() }
            if let failure { throw failure }
        }
        do {
            try stream.write(payload)
        } catch {
            lock.locked { fail(error) }
            throw error
        }
        lock.locked {
            submitted += 1
            nextToWrite += 1
            written += 1
            completeOne()
            lock.broadcast()
        }
    }

    /// Waits for every frame, then completes the stream (renamed into place, ffmpeg waited for); throws the
    /// first error. Call once, after the last `submit`.
    func finish() throws {
        drain()
        if let failure = lock.locked({ failure }) {
            outputs.stream?.abandon()
            throw failure
        }
        try outputs.stream?.finish()
    }

    /// Finishes the frames already in flight (their files are complete) and removes the partial stream.
    func abandon() {
        drain()
        outputs.stream?.abandon()
    }

    private func drain() {
        lock.locked {
            closed = true
            lock.broadcast()
        }
        finished.wait()
    }

    private func fail(_ error: Error) {
        // Called with `lock` held.
        if failure == nil { failure = error }
        lock.broadcast()
    }

    /// Encodes frames until the queue is closed and empty.
    private func work() {
        defer { finished.leave() }
        let workspace = PNGEncoder.Workspace()
        while true {
            lock.lock()
            while queue.isEmpty && !closed { lock.wait() }
            if queue.isEmpty {
                lock.unlock()
                return
            }
            var item = queue.removeFirst()
            let skip = failure != nil
            lock.unlock()

            var streamBytes = FramePayload.empty
            var error: Error?
            if !skip {
                do {
                    if let directory = outputs.directory {
                        let bytes = try PNGEncoder.encode(item.frame, compressionLevel: outputs.pngLevel,
                                                          knownOpaque: outputs.opaque, workspace: workspace,
                                                          colourSpace: outputs.colourSpace)
                        let path = PathName.join(directory, FrameDirectory.fileName(item.index))
                        try FileWriter.writeAtomically(bytes, to: path)
                        outputs.written?(item.index, bytes)
                    }
                    if let stream = outputs.stream { streamBytes = try stream.encode(item.frame, knownOpaque: outputs.opaque) }
                } catch let e {
                    error = e
                }
            }

            lock.lock()
            if let error { fail(error) }
            if case .pixels = streamBytes {} else {
                recycle(item.frame)
                item.frame = Self.noFrame  // the pool's copy is now the only one
            }
            if outputs.stream != nil {
                // The writer takes it from here, in order (empty bytes after a failure: nothing is written).
                ready[item.sequence] = streamBytes
                lock.broadcast()
                lock.unlock()
            } else {
                if error == nil && !skip { completeOne() }
                lock.unlock()
                slots.signal()
            }
        }
    }

    /// Writes stream bytes in submission order until every submitted frame is written.
    private func writeStream() {
        defer { finished.leave() }
        guard let stream = outputs.stream else { return }
        while true {
            lock.lock()
            while ready[nextToWrite] == nil && !(closed && nextToWrite >= submitted) { lock.wait() }
            guard var bytes = ready.removeValue(forKey: nextToWrite) else {
                lock.unlock()
                return
            }
            nextToWrite += 1
            let skip = failure != nil
            lock.unlock()

            var error: Error?
            if !skip {
                do { try stream.write(bytes) } catch let e { error = e }
            }
            lock.lock()
            if let error { fail(error) } else if !skip { completeOne() }
            written += 1
            lock.broadcast()
            if case let .pixels(frame) = bytes { recycle(frame) }
            bytes = .empty
            lock.unlock()
            slots.signal()
        }
    }

    private static let noFrame = Pixmap(width: 0, height: 0)

    /// Keeps a frame's buffer for `takeBuffer` (with `lock` held).
    private func recycle(_ frame: Pixmap) {
        if pool.count < poolLimit && frame.width > 0 { pool.append(frame) }
    }

    /// A frame buffer the pipeline is done with, to draw the next frame into without allocating (and, once no
    /// one else holds it, without copy-on-write); `nil` when there is none yet.
    func takeBuffer() -> Pixmap? {
        lock.locked { pool.popLast() }
    }

    /// Counts one frame done (with `lock` held).
    private func completeOne() {
        done += 1
        progress(done)
    }
}

extension NSCondition {
    fileprivate func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
