import SegueTestSupport
import Foundation
import SegueCore
import SegueCPU
@testable import SegueGLES
import Testing

extension GLESSuite {
    /// `drawFrames` (frames in flight through a ring of pack buffers) gives the same frames, in order, as
    /// drawing them one by one.
    @Suite struct Pipelining {
        /// On both paths, and with the read-back buffers mapped once (persistently, where the context has
        /// GL_EXT_buffer_storage, as llvmpipe has) or each frame.
        @Test(arguments: GLESPath.allCases, [true, false])
        func drawFramesMatchesDrawOneByOne(path: GLESPath, persistent: Bool) throws {
            let snapshots = TestTransitions.snapshots(width: 120, height: 200)
            var environment = ProcessInfo.processInfo.environment
            environment[GLPipeline.persistentSwitch] = persistent ? nil : "0"
            let renderer = try GLESRenderer(platform: nil, environment: environment)
            try renderer.use(path)
            #expect(!persistent ? !renderer.mapsReadbackPersistently : renderer.mapsReadbackPersistently || !renderer.info.version.contains("Mesa"),
                    "Mesa's llvmpipe has GL_EXT_buffer_storage: its read-back buffers are mapped once")
            try renderer.load(snapshots: snapshots)
            let count = 12
            // A size change halfway (scale 1 then 2) drains the ring and resizes it.
            func list(_ k: Int) -> DrawList {
                TestTransitions.drawList(.pageFlip, .forward, t: Double(k) / Double(count - 1), scale: k < count / 2 ? 1 : 2,
                                         snapshots: snapshots)
            }
            var delivered: [Int] = []
            var frames: [Pixmap] = []
            try renderer.drawFrames(count: count, list: list) { k, frame in
                delivered.append(k)
                frames.append(frame)
            }
            #expect(delivered == Array(0..<count))
            for k in 0..<count {
                let single = try renderer.render(list(k))
                let same = frames[k] == single
                #expect(same, "frame \(k) differs between drawFrames and draw")
            }
            #expect(frames[count - 1].width == 240)
        }

        @Test func deliverMayThrowAndTheRendererStaysUsable() throws {
            struct Stop: Error {}
            let snapshots = TestTransitions.snapshots(width: 120, height: 200)
            let renderer = try GLESRenderer()
            try renderer.load(snapshots: snapshots)
            func list(_ k: Int) -> DrawList { TestTransitions.drawList(.fade, .forward, t: Double(k) / 9, snapshots: snapshots) }
            // A full run first: it allocates the ring and compiles the variants the frames need.
            try renderer.drawFrames(count: 10, list: list) { _, _ in }
            let before = renderer.liveGLObjects
            #expect(throws: Stop.self) {
                try renderer.drawFrames(count: 10, list: list, deliver: { k, _ in if k == 3 { throw Stop() } })
            }
            // The fences of the frames still in flight are gone.
            #expect(renderer.liveGLObjects == before)
            let list = TestTransitions.drawList(.fade, .forward, t: 0.5, snapshots: snapshots)
            let comparison = ImageComparison(actual: try renderer.render(list),
                                             expected: try CPUCompositor(threads: 1).rendering(list, snapshots: snapshots), levels: 2)
            #expect(comparison.passes(.glesVsCPU), "\(comparison)")
        }

        @Test func renderersOnManyThreadsAtOnce() async throws {
            let snapshots = TestTransitions.snapshots(width: 120, height: 200)
            let list = TestTransitions.drawList(.circleSpread, .forward, t: 0.5, snapshots: snapshots)
            let reference = try CPUCompositor(threads: 1).rendering(list, snapshots: snapshots)
            try await withThrowingTaskGroup(of: Pixmap.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let renderer = try GLESRenderer()
                        try renderer.load(snapshots: snapshots)
                        return try renderer.render(list)
                    }
                }
                for try await frame in group {
                    let comparison = ImageComparison(actual: frame, expected: reference, levels: 2)
                    #expect(comparison.passes(.glesVsCPU), "\(comparison)")
                }
            }
        }
    }
}

extension Renderer {
    /// Loads `snapshots` and draws `list`.
    func rendering(_ list: DrawList, snapshots: [Pixmap]) throws -> Pixmap {
        try load(snapshots: snapshots)
        return try render(list)
    }
}
