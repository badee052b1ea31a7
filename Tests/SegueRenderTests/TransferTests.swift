import SegueCore
import SegueCPU
import SegueGLES
import SegueTestSupport
import Testing

extension GLESSuite {
    /// The ways a GLES frame reaches the CPU, and what the renderer counts of them: `compute-staged` (the
    /// dispatch into GPU memory, then one copy) gives `compute`'s bytes exactly (RGBA lent from the ring, and
    /// both plane layouts, at a size the dispatch writes planes for and one it does not); a frame one dispatch
    /// cannot take is counted with its reason; snapshots already on the GPU are not uploaded again; the GPU's
    /// clock times pipelined frames where the context has one.
    @Suite struct TransferTests {
        static let effects: [Effect] = [.door, .pageFlip, .circleSpread, .hero]
        /// 64x36: whole words of every plane per invocation; 61x35: the planes pass after an image.
        static let sizes = [(64, 36), (61, 35)]
        /// BT.709's limited range in units of 1/65536 (any weights do: the two paths are held to each other).
        static let bt709 = YCbCrPlanes.Weights(yr: 11966, yg: 40254, yb: 4064, yOffset: 16, ur: -6596, ug: -22189, ub: 28785,
                                               vr: 28785, vg: -26145, vb: -2640)

        static func lists(_ effect: Effect, width: Int, height: Int, snapshots: [Pixmap]) -> [DrawList] {
            [0.2, 0.5, 0.8, 1].map { t in
                let scene = TestTransitions.transition(effect, .forward).scene(at: t, frame: Size(Double(width), Double(height)), scale: 1)
                return DrawList(scene: scene, scale: 1, snapshots: snapshots.map(SnapshotInfo.init), background: .white)
            }
        }

        /// Each frame's bytes as `path` delivers them: RGBA lent from the ring, or planes.
        static func frames(_ path: GLESPath, planes: YCbCrPlanes?, lists: [DrawList], snapshots: [Pixmap]) throws -> (bytes: [[UInt8]], stats: GLESStats) {
            let gles = try GLESRenderer()
            try gles.use(path)
            try gles.load(snapshots: snapshots)
            var out: [[UInt8]] = []
            if let planes {
                try gles.drawFrames(count: lists.count, frame: { .layers(lists[$0]) }, planes: planes, deliver: { out.append(Array($1)) })
            } else {
                try gles.drawFrames(count: lists.count, frame: { .layers(lists[$0]) }, lend: { out.append(Array($1)) })
            }
            return (out, gles.stats)
        }

        @Test("compute-staged gives compute's bytes: RGBA from the ring, 4:2:0 and 4:4:4 planes, even and odd sizes", arguments: effects)
        func stagedEqualsDirect(effect: Effect) throws {
            for (width, height) in Self.sizes {
                let snapshots = TestTransitions.snapshots(width: width, height: height)
                let lists = Self.lists(effect, width: width, height: height, snapshots: snapshots)
                for planes in [nil, YCbCrPlanes(weights: Self.bt709, subsampled: true), YCbCrPlanes(weights: Self.bt709, subsampled: false)] {
                    let what = "\(effect.name) \(width)x\(height) " + (planes.map { $0.subsampled ? "4:2:0" : "4:4:4" } ?? "RGBA")
                    let direct = try Self.frames(.compute, planes: planes, lists: lists, snapshots: snapshots)
                    let staged = try Self.frames(.computeStaged, planes: planes, lists: lists, snapshots: snapshots)
                    #expect(direct.bytes.count == lists.count && staged.bytes == direct.bytes, "\(what): compute-staged differs from compute")
                    #expect(direct.stats.frames(by: GLESPath.compute) == lists.count && direct.stats.fallbacks.isEmpty, "\(what): \(direct.stats.pathSummary)")
                    #expect(staged.stats.frames(by: GLESPath.computeStaged) == lists.count && staged.stats.fallbacks.isEmpty, "\(what): \(staged.stats.pathSummary)")
                    // Every frame's bytes crossed into the ring: 4 a pixel, or the planes' count.
                    let bytes = planes?.byteCount(width: width, height: height) ?? width * height * 4
                    #expect(staged.stats.transferBytes == lists.count * bytes, "\(what): \(staged.stats.transferBytes) bytes moved")
                }
            }
        }

        /// 1,100 items (over `Limits.maxItemsPerDispatch`): the compute path cannot take the frame, the raster
        /// path draws it, and the count says so with the reason; the picture is the raster path's.
        @Test func aFrameBeyondOneDispatchIsCountedWithItsReason() throws {
            let snapshots = TestTransitions.snapshots(width: 64, height: 36)
            var layers: [Layer] = []
            for k in 0..<1_100 {
                let id: SnapshotID = k % 2 == 0 ? .from : .to
                layers.append(Layer.piece(id, Rect(Double(k % 60), Double(k / 60 % 32), 4, 4)))
            }
            let list = DrawList(scene: Scene(size: Size(64, 36), layers: layers), scale: 1,
                                snapshots: snapshots.map(SnapshotInfo.init), background: .white)
            #expect(list.items.count > Limits.maxItemsPerDispatch)
            let compute = try GLESRenderer(), raster = try GLESRenderer()
            try compute.use(.compute)
            try compute.load(snapshots: snapshots)
            try raster.load(snapshots: snapshots)
            var frames: [Pixmap] = []
            try compute.drawFrames(count: 1, list: { _ in list }, deliver: { frames.append($1) })
            let stats = compute.stats
            #expect(stats.frames(by: .compute) == 0 && stats.frames(by: .raster) == 1, "\(stats.pathSummary)")
            #expect(stats.fallbacks == ["over \(Limits.maxItemsPerDispatch) items": 1], "\(stats.pathSummary)")
            #expect(frames == [try raster.render(list)])
        }

        /// Loading the same snapshots again uploads nothing; a snapshot a clip's frame replaced is uploaded again
        /// (its texture no longer holds the loaded pixels); the pictures stay the CPU's (within `Tolerance.glesVsCPU`).
        @Test func snapshotsAlreadyOnTheGPUAreKept() throws {
            let snapshots = TestTransitions.snapshots(width: 64, height: 36)
            var other = SyntheticSnapshots.from(width: 64, height: 36)
            for k in other.pixels.indices { other.pixels[k] = other.pixels[k] ^ 0x00FF_00FF | 0xFF00_0000 }
            let gles = try GLESRenderer(), cpu = CPUCompositor(threads: 1)
            func same(_ loaded: [Pixmap]) throws -> Bool {
                try cpu.load(snapshots: loaded)
                let list = Self.lists(.door, width: 64, height: 36, snapshots: loaded)[1]
                let comparison = ImageComparison(actual: try gles.render(list), expected: try cpu.render(list),
                                                 levels: Tolerance.glesVsCPU.maxLevelDiff)
                return comparison.passes(Tolerance.glesVsCPU)
            }
            try gles.load(snapshots: snapshots)
            #expect(gles.stats.snapshotsKept == 0)
            try gles.load(snapshots: snapshots)
            #expect(gles.stats.snapshotsKept == 2)
            #expect(try same(snapshots))
            try gles.load(snapshots: [snapshots[1], other])
            #expect(gles.stats.snapshotsKept == 3, "the 'to' snapshot is on the GPU already")
            #expect(try same([snapshots[1], other]))
            try gles.update(snapshot: 0, with: other)  // snapshots[1]'s texture now holds `other`
            try gles.load(snapshots: snapshots)
            #expect(gles.stats.snapshotsKept == 4, "'from' is kept from the first load; 'to' was replaced by a clip frame")
            #expect(try same(snapshots))
        }

        /// A job's programs compiled before its first frame (`prepare(frames:planes:)`): drawing the frames
        /// prepared, as RGBA and as planes, compiles nothing more, on every path.
        @Test(arguments: GLESPath.allCases)
        func preparedFramesCompileNothingMore(path: GLESPath) throws {
            let gles = try GLESRenderer()
            try gles.use(path)
            let snapshots = TestTransitions.snapshots(width: 64, height: 36)
            try gles.load(snapshots: snapshots)
            for planes in [nil, YCbCrPlanes(weights: Self.bt709, subsampled: true)] {
                let frames = [Effect.pageFlip, .circleSpread, .hero].flatMap { Self.lists($0, width: 64, height: 36, snapshots: snapshots) }
                    .map { RenderFrame.layers($0) }
                let before = gles.stats.programsCompiled
                try gles.prepare(frames: frames, planes: planes)
                let prepared = gles.stats.programsCompiled
                // (The second round, as planes, needs the same layer variants on the raster path, and the pass
                // that converts a drawn frame into planes.)
                #expect(prepared > before, "\(path.rawValue): prepare compiled nothing")
                if let planes {
                    try gles.drawFrames(count: frames.count, frame: { frames[$0] }, planes: planes, deliver: { _, _ in })
                } else {
                    try gles.drawFrames(count: frames.count, frame: { frames[$0] }, lend: { _, _ in })
                }
                #expect(gles.stats.programsCompiled == prepared, "\(path.rawValue): \(gles.stats.programsCompiled - prepared) compiled after prepare")
            }
        }

        /// Where the context has GL_EXT_disjoint_timer_query (llvmpipe has), pipelined frames are timed on the
        /// GPU's clock: drawing on every path, and the move into the ring where it is a command of its own
        /// (`compute-staged`'s copy, the raster path's read into a pack buffer; `compute` has none).
        @Test(arguments: GLESPath.allCases)
        func theGPUClockTimesPipelinedFrames(path: GLESPath) throws {
            let gles = try GLESRenderer()
            guard gles.timesOnGPU else { return }
            try gles.use(path)
            let snapshots = TestTransitions.snapshots(width: 64, height: 36)
            let lists = Self.lists(.door, width: 64, height: 36, snapshots: snapshots)
            try gles.load(snapshots: snapshots)
            try gles.drawFrames(count: lists.count, frame: { .layers(lists[$0]) }, lend: { _, _ in })
            let stats = gles.stats
            #expect(stats.gpuTimedFrames == lists.count, "\(path.rawValue): \(stats.gpuTimedFrames) of \(lists.count) frames timed")
            #expect(stats.gpuDrawSeconds > 0)
            #expect((stats.gpuTransferSeconds > 0) == (path != .compute), "\(path.rawValue): transfer \(stats.gpuTransferSeconds) s")
        }
    }
}
