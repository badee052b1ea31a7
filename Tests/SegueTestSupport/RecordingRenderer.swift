import Foundation
import SegueCore

/// A renderer for the job layer's tests (as Weston's no-op renderer): it records every call the job makes
/// (snapshots loaded and updated, each frame asked for) and passes each frame through a `FrameGate` before it
/// is drawn, so that a test steps a job frame by frame instead of waiting for it. It draws with `drawing` when
/// given (the frames are then that renderer's), else fills each frame with `fill`.
public final class RecordingRenderer: Renderer, @unchecked Sendable {
    /// One call the renderer was asked to make.
    public enum Call: Equatable, Sendable {
        /// `load(snapshots:)`, with the snapshots' count.
        case load(snapshots: Int)
        /// `update(snapshot:with:)`, with the slot.
        case update(snapshot: Int)
        /// A frame of a draw list (`items` draw items), an average of `samples` frames, or a custom shader.
        case frame(width: Int, height: Int, kind: FrameKind)
    }

    /// What a frame asked for was.
    public enum FrameKind: Equatable, Sendable {
        case layers(items: Int)
        case average(samples: Int)
        case shader(name: String, progress: Double)
    }

    public let name = "recording"
    public var details: String { "records the frames it is asked for" + (drawing.map { ", drawn by \($0.name)" } ?? "") }
    public var capabilities: RendererCapabilities { drawing?.capabilities.intersection(.customShaders) ?? [] }
    /// The gate each frame passes before it is drawn (nil: every frame at once).
    public let gate: FrameGate?
    private let drawing: (any Renderer)?
    private let fill: UInt32
    private let lock = NSLock()
    private var recorded: [Call] = []

    public init(gate: FrameGate? = nil, drawing: (any Renderer)? = nil, fill: UInt32 = Pixmap.pack(r: 128, g: 128, b: 128, a: 255)) {
        self.gate = gate
        self.drawing = drawing
        self.fill = fill
    }

    /// Every call so far, in order.
    public var calls: [Call] { lock.withLock { recorded } }
    /// The frames asked for so far (drawn, or held at the gate), in order.
    public var frames: [Call] { calls.filter { if case .frame = $0 { true } else { false } } }

    private func record(_ call: Call) { lock.withLock { recorded.append(call) } }

    public func load(snapshots: [Pixmap]) throws {
        record(.load(snapshots: snapshots.count))
        try drawing?.load(snapshots: snapshots)
    }

    public func update(snapshot index: Int, with pixmap: Pixmap) throws {
        record(.update(snapshot: index))
        try drawing?.update(snapshot: index, with: pixmap)
    }

    public func prepareShader(_ transition: ShaderTransition, values: [String: ShaderValue]) throws -> any PreparedShader {
        guard let drawing else { throw SegueError(.unsupported(backend: name), "the recording renderer draws no custom shader of its own") }
        return try drawing.prepareShader(transition, values: values)
    }

    public func draw(_ list: DrawList, into target: inout Pixmap) throws {
        try draw(.layers(list), into: &target)
    }

    public func draw(_ frame: RenderFrame, into target: inout Pixmap) throws {
        let kind: FrameKind
        switch frame {
        case let .layers(list): kind = .layers(items: list.items.count)
        case let .average(samples): kind = .average(samples: samples.count)
        case let .shader(prepared, progress, _, _, _): kind = .shader(name: prepared.transition.name, progress: progress)
        }
        record(.frame(width: frame.width, height: frame.height, kind: kind))
        gate?.pass()
        if let drawing {
            try drawing.draw(frame, into: &target)
        } else {
            if target.width != frame.width || target.height != frame.height {
                target = Pixmap(width: frame.width, height: frame.height, fill: fill)
            } else {
                for i in target.pixels.indices { target.pixels[i] = fill }
            }
        }
    }
}

/// Lets a renderer's frames through one step at a time: a frame past those allowed waits (on the thread that
/// draws it) until the test allows more, opens the gate, or finishes. A test awaits `arrival(of:)` to know
/// that the job has reached a frame, instead of polling a clock.
public final class FrameGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var allowed: Int
    private var arrived = 0
    private var finished = false
    private var waiters: [(frames: Int, continuation: CheckedContinuation<Int, Never>)] = []

    /// A gate that lets the first `frames` frames through.
    public init(allowing frames: Int = 0) { allowed = frames }

    /// Frames that have reached the gate (let through, or waiting).
    public var arrivals: Int { condition.withLock { arrived } }

    /// Called by the renderer before it draws a frame: returns once the gate lets that frame through.
    public func pass() {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        let me = arrived
        resumeWaiters()
        while me > allowed && !finished { condition.wait() }
    }

    /// Lets `frames` more frames through.
    public func allow(_ frames: Int) {
        condition.withLock {
            allowed += frames
            condition.broadcast()
        }
    }

    /// Lets every frame through from now on.
    public func open() { allow(Int.max / 2) }

    /// The job has ended: every frame passes and every `arrival(of:)` returns, with the frames that arrived.
    public func finish() {
        condition.withLock {
            finished = true
            condition.broadcast()
            resumeWaiters()
        }
    }

    /// Suspends until `frames` frames have reached the gate, or it is finished (the job ended first); returns
    /// the frames that have reached it.
    public func arrival(of frames: Int) async -> Int {
        await withCheckedContinuation { continuation in
            condition.withLock {
                waiters.append((frames, continuation))
                resumeWaiters()
            }
        }
    }

    /// With the lock held.
    private func resumeWaiters() {
        waiters.removeAll { waiter in
            guard arrived >= waiter.frames || finished else { return false }
            waiter.continuation.resume(returning: arrived)
            return true
        }
    }
}
