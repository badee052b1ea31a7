import CEGL
import Foundation
import SegueCore

/// Everything a GLES renderer owns on the GL side: the context, the programs, the snapshots' textures, the
/// framebuffer and the read-back ring. It lives on the renderer's `GLThread` and is only touched there.
final class GLPipeline {
    let context: GLContext
    let probes: [PlatformProbe]
    let ledger = GLObjectLedger()
    /// One program per variant of `layer.frag`, compiled when first needed.
    private var programs: [LayerVariant: LayerProgram] = [:]
    /// One program per custom transition text, compiled when first prepared.
    private var transitionPrograms: [String: TransitionProgram] = [:]
    /// The images of custom transitions' `sampler2D` parameters, one texture per distinct image, uploaded when
    /// first prepared and kept until teardown.
    private var imageTextures: [(image: Pixmap, texture: GLuint)] = []
    private let target: RenderTarget
    private let ring: ReadbackRing
    /// Motion blur's sum on the GPU; nil where the context lacks float framebuffers with blending.
    private let shutter: ShutterAccumulator?
    /// Whether the renderer offers `.ycbcrPlanes` (`GLESRenderer.convertsPlanesOnGPU`).
    var convertsPlanesOnGPU = true
    /// Frames converted to YCbCr planes on the GPU; made when first used.
    private var planesPass: YCbCrPlanesPass?
    /// The pixel unpack buffer clip frames are uploaded through (`update`); 0 until the first.
    private var unpackBuffer: GLuint = 0
    /// The loaded snapshots' textures, `[id.rawValue]`.
    private var textures: [GLuint] = []
    /// Textures uploaded by `load`, with the pixels each holds, kept while they are loaded and for the next few
    /// loads (a storyboard's steps share screens; a job's runs load the same ones again): a snapshot with the
    /// same pixels is not uploaded again. An entry whose texture a clip's frame has replaced (`update`) is nil.
    private var uploaded: [(pixels: Pixmap?, texture: GLuint)] = []
    /// Textures kept beyond those loaded now.
    static let keptTextures = 4
    /// `SEGUE_GLES_FAULT=perspective`: the perspective variants of the layer program are compiled without
    /// their perspective divide, so every 3D effect draws wrong while the flat ones stay right. For testing
    /// that `segue doctor` catches a driver that draws wrong, and names the effect.
    private let perspectiveFault: Bool
    static let faultSwitch = "SEGUE_GLES_FAULT"
    /// `SEGUE_GLES_PERSISTENT_MAP=0`: the read-back buffers are mapped for each frame even where they could be
    /// mapped once (for comparing the two).
    static let persistentSwitch = "SEGUE_GLES_PERSISTENT_MAP"
    /// Whether the read-back buffers are persistent maps.
    var mapsPersistently: Bool { ring.persistent }
    /// Each loaded snapshot's size, for `update`.
    private var sizes: [(Int, Int)] = []
    var stats = GLESStats()
    /// The driver's binaries of the programs, kept on disk between processes; nil where not offered.
    let binaries: ProgramBinaries?
    private var destroyed = false

    /// Creates the context (on `platform`, or the first that works) and compiles the most common variant of
    /// the layer program; the others are compiled when an item first needs them.
    init(platform: EGLPlatform?, device: EGLDeviceChoice?, environment: [String: String]) throws {
        perspectiveFault = environment[Self.faultSwitch] == "perspective"
        let (result, probes) = GLContext.create(forced: platform, device: device, environment: environment)
        self.probes = probes
        context = try result.get()
        target = RenderTarget(ledger: ledger, info: context.info)
        // Three frames in flight while the CPU reads a fourth: frame k - 3 is waited on only once k is issued.
        ring = ReadbackRing(count: GLESRenderer.readbackBuffers, persistent: environment[Self.persistentSwitch] != "0", ledger: ledger)
        shutter = ShutterAccumulator.isAvailable() ? ShutterAccumulator(ledger: ledger, info: context.info) : nil
        binaries = ProgramBinaries(info: context.info, environment: environment)
        compositor = ComputeCompositor.isAvailable(context.info) ? ComputeCompositor(ledger: ledger, binaries: binaries) : nil
        timer = GPUTimer(slots: GLESRenderer.readbackBuffers, ledger: ledger)
        compositor?.clientMappedBarrier = ring.persistent
        // The driver's KHR_debug messages are kept for doctor (GLESRenderer.driverMessages).
        if GLInfo.currentExtensions().contains("GL_KHR_debug") { segue_gles_debug_install() }
        glDisable(GLenum(GL_DEPTH_TEST))
        glDisable(GLenum(GL_DITHER))
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 4)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        compositor?.compiledOne = { [unowned self] in self.stats.programsCompiled += 1 }
        binaries?.loadedOne = { [unowned self] in self.stats.programsLoaded += 1 }
        // Compile the most common variant now, so a broken shader fails creation, not the first frame.
        do {
            _ = try program(for: LayerVariant(snapshot: true, mask: .none, overlay: false, perspective: false))
        } catch {
            destroy()
            throw error
        }
    }

    private func program(for variant: LayerVariant) throws -> LayerProgram {
        if let program = programs[variant] { return program }
        stats.programsCompiled += 1
        var compiled = variant
        if perspectiveFault { compiled.perspective = false }
        let program = try LayerProgram(compiled, ledger: ledger, binaries: binaries)
        programs[variant] = program
        return program
    }

    // MARK: Snapshots

    /// Replaces the snapshots with `snapshots`, one immutable RGBA8 texture each, uploaded once: a snapshot whose
    /// pixels a texture still holds from an earlier load is not uploaded again. No wait: the upload overlaps
    /// the first frame.
    func load(_ snapshots: [Pixmap]) throws {
        let start = ContinuousClock.now
        let limit = context.info.maxTextureSize
        for (k, s) in snapshots.enumerated() where s.width > limit || s.height > limit {
            throw GLError.limitExceeded(what: "snapshot \(k) (\(s.width)x\(s.height))", limit: "GL_MAX_TEXTURE_SIZE", value: limit)
        }
        var loaded: [GLuint] = []
        var used = Set<Int>()
        defer { glBindTexture(GLenum(GL_TEXTURE_2D), 0) }
        for s in snapshots {
            // The same pixels (the same storage is found at once; equal pixels are compared).
            if let k = uploaded.indices.first(where: { !used.contains($0) && uploaded[$0].pixels == s }) {
                used.insert(k)
                loaded.append(uploaded[k].texture)
                stats.snapshotsKept += 1
                continue
            }
            let texture = s.width > 0 && s.height > 0
                ? try s.pixels.withUnsafeBytes { try GLTextures.upload($0, width: s.width, height: s.height, what: "snapshot \(loaded.count)", ledger: ledger) }
                : GLTextures.bilinear(ledger)
            uploaded.append((s, texture))
            used.insert(uploaded.count - 1)
            loaded.append(texture)
        }
        // The loaded ones last (most recently used), then drop the oldest of the rest beyond the few kept.
        let rest = uploaded.indices.filter { !used.contains($0) }.map { uploaded[$0] }
        let current = used.sorted().map { uploaded[$0] }
        var dropped = rest.dropLast(Self.keptTextures).map(\.texture)
        for k in dropped.indices { ledger.delete(.texture, &dropped[k], glDeleteTextures) }
        uploaded = Array(rest.suffix(Self.keptTextures)) + current
        textures = loaded
        sizes = snapshots.map { ($0.width, $0.height) }
        glFlush()
        stats.uploadSeconds += (ContinuousClock.now - start).seconds
    }

    /// Replaces snapshot `index`'s texels with `pixmap` (its size) for the frames drawn after it (a clip's next
    /// frame), through a pixel unpack buffer: the pixels are copied into a fresh store of the buffer (the old
    /// one orphaned, so no wait on a transfer still reading it), and `glTexSubImage2D` from the buffer returns
    /// at once; the driver moves the texels after the draws already issued that sample the texture, so a frame
    /// still being drawn or read back keeps its picture and the draw never waits on the upload.
    func update(_ index: Int, with pixmap: Pixmap) throws {
        let start = ContinuousClock.now
        guard index < textures.count, index < sizes.count, sizes[index] == (pixmap.width, pixmap.height) else {
            throw GLError.invalidInput("cannot update snapshot \(index) with a \(pixmap.width)x\(pixmap.height) picture (\(textures.count) snapshot(s) loaded)")
        }
        guard pixmap.width > 0, pixmap.height > 0 else { return }
        if unpackBuffer == 0 { unpackBuffer = ledger.generate(.buffer, glGenBuffers) }
        let bytes = pixmap.byteCount
        glBindBuffer(GLenum(GL_PIXEL_UNPACK_BUFFER), unpackBuffer)
        // Unbound on every path: with a buffer bound, other uploads' pointers would read as offsets into it.
        defer { glBindBuffer(GLenum(GL_PIXEL_UNPACK_BUFFER), 0) }
        glBufferData(GLenum(GL_PIXEL_UNPACK_BUFFER), GLsizeiptr(bytes), nil, GLenum(GL_STREAM_DRAW))
        guard let mapped = glMapBufferRange(GLenum(GL_PIXEL_UNPACK_BUFFER), 0, GLsizeiptr(bytes),
                                            GLbitfield(GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT)) else {
            throw GLError.call("glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, GL_MAP_WRITE_BIT)", code: glGetError())
        }
        pixmap.pixels.withUnsafeBytes { mapped.copyMemory(from: $0.baseAddress!, byteCount: bytes) }
        guard glUnmapBuffer(GLenum(GL_PIXEL_UNPACK_BUFFER)) == GLboolean(GL_TRUE) else {
            throw GLError.call("glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER)", code: glGetError())
        }
        // The texture no longer holds the pixels it was loaded with: never found by a later `load`.
        if let k = uploaded.firstIndex(where: { $0.texture == textures[index] }) { uploaded[k].pixels = nil }
        glBindTexture(GLenum(GL_TEXTURE_2D), textures[index])
        glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(pixmap.width), GLsizei(pixmap.height),
                        GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        try GLError.check("glTexSubImage2D(snapshot \(index) update from GL_PIXEL_UNPACK_BUFFER, \(pixmap.width)x\(pixmap.height))")
        stats.uploadSeconds += (ContinuousClock.now - start).seconds
    }

    func texture(_ id: SnapshotID) throws -> GLuint {
        guard id.rawValue < textures.count else {
            throw GLError.invalidInput("a draw item shows snapshot \(id.rawValue) (\(id)), but \(textures.count) snapshot(s) are loaded")
        }
        return textures[id.rawValue]
    }

    // MARK: Frames

    /// One frame to draw: its size in pixels and the commands that draw it into the bound framebuffer.
    struct Frame {
        var width: Int
        var height: Int
        /// The frame as draw lists, where it is only that: one list, or motion blur's samples (their mean). The
        /// compute path draws these in one dispatch; nil for a custom transition or an uploaded frame.
        var lists: [DrawList]?
        /// What draws it where no dispatch does (`GLESStats.pathFrames`): `raster`, `transition`, `uploaded`.
        var drawnBy = GLESPath.raster.rawValue
        /// The raster path's commands.
        var issue: () throws -> Void
    }

    /// A draw list as a frame.
    func frame(_ list: DrawList) -> Frame {
        Frame(width: list.width, height: list.height, lists: [list], issue: { try self.issue(list) })
    }

    /// Which path draws draw lists (`GLESRenderer.path`): a compute one only where `compositor` exists.
    var path: GLESPath = .raster
    /// The compute paths, where the context runs compute shaders (GLES 3.1); nil elsewhere.
    private(set) var compositor: ComputeCompositor?
    /// The GPU's clock for pipelined frames, where the context has `GL_EXT_disjoint_timer_query`.
    private let timer: GPUTimer?
    var timesOnGPU: Bool { timer != nil }

    /// Which path draws `frame`, whose dispatch would write `bytes`: the compositor and the frame's lists when
    /// a compute path is on and one dispatch can draw it, else nil (the raster path's commands). Counts the
    /// frame under the path that draws it, and under its reason when a compute path could not
    /// (`GLESStats.pathFrames`, `fallbacks`). Call once per frame drawn.
    private func route(_ frame: Frame, bytes: Int) -> (ComputeCompositor, [DrawList])? {
        if path.isCompute, let compositor {
            if let lists = frame.lists {
                guard let refusal = compositor.refusal(lists, outputBytes: bytes) else {
                    stats.pathFrames[path.rawValue, default: 0] += 1
                    return (compositor, lists)
                }
                stats.fallbacks[refusal, default: 0] += 1
            } else if frame.drawnBy == GLESPath.raster.rawValue {
                stats.fallbacks["motion blur one dispatch cannot take", default: 0] += 1
            }
        }
        stats.pathFrames[frame.drawnBy, default: 0] += 1
        return nil
    }

    /// Draws `lists` in one dispatch into read-back slot `slot` (`output` a buffer layout: RGBA words or planes,
    /// `bytes` long) and fences it: on `compute` the dispatch writes the slot's buffer itself; on
    /// `compute-staged` it writes the slot's buffer in GPU memory and one copy moves it into the slot's.
    private func dispatch(_ compositor: ComputeCompositor, _ lists: [DrawList], output: ComputeCompositor.Output,
                          planes: YCbCrPlanes? = nil, bytes: Int, slot: Int) throws {
        if path == .computeStaged {
            let staging = try ring.staging(slot)
            try timed(slot, .draw) { try compositor.draw(lists, output: output, into: staging, planes: planes, textures: texture) }
            try timed(slot, .transfer) { try ring.copy(stagedInto: slot, bytes: bytes) }
        } else {
            try timed(slot, .draw) { try compositor.draw(lists, output: output, into: ring.buffer(slot), planes: planes, textures: texture) }
        }
        try ring.fence(slot)
    }

    /// Compiles what drawing `lists` (frames of draw lists; motion blur's samples as one) on the current path
    /// needs: the raster path's layer variants, or the compute path's program for the output (`planes` when
    /// read back as planes, else RGBA words; and, for planes converted on the GPU from a raster-drawn frame, the
    /// planes pass). Counted in `stats.programsCompiled`.
    func prepare(_ frames: [[DrawList]], planes: YCbCrPlanes?) throws {
        let start = ContinuousClock.now
        defer { stats.compileSeconds += (ContinuousClock.now - start).seconds }
        // Whether a frame's planes come from the planes pass: a raster-drawn frame's, or a compute-drawn image's.
        var convertsDrawnFrames = false
        for lists in frames {
            guard let first = lists.first else { continue }
            if path.isCompute, let compositor, compositor.accepts(lists, outputBytes: 0) {
                let output: ComputeCompositor.Output
                if let planes {
                    output = ComputeCompositor.writesPlanes(planes, width: first.width, height: first.height)
                        ? (planes.subsampled ? .planes420 : .planes444) : .image
                } else {
                    output = .rgba
                }
                convertsDrawnFrames = convertsDrawnFrames || output == .image
                try compositor.prepare(lists, output: output)
                continue
            }
            convertsDrawnFrames = true
            for list in lists {
                for item in list.items { _ = try program(for: LayerVariant(item)) }
            }
        }
        if planes != nil, convertsPlanesOnGPU, convertsDrawnFrames { _ = try compiledPlanesPass() }
    }

    /// The pass that converts a raster-drawn frame into YCbCr planes, compiled (counted in
    /// `stats.programsCompiled`).
    private func compiledPlanesPass() throws -> YCbCrPlanesPass {
        let pass = planesPass ?? YCbCrPlanesPass(ledger: ledger, info: context.info, binaries: binaries)
        planesPass = pass
        if try pass.prepare() { stats.programsCompiled += 1 }
        return pass
    }

    /// Runs `body` under the GPU's clock as `stage` of slot `slot`'s frame, where the context has one.
    private func timed(_ slot: Int, _ stage: GPUTimer.Stage, _ body: () throws -> Void) rethrows {
        if let timer { try timer.measure(slot, stage, body) } else { try body() }
    }

    /// On a compute path, draws `next` with its RGBA words written into read-back slot `slot`'s buffer and fences
    /// it; false (nothing done) where the raster path draws it.
    private func computeRGBA(_ next: Frame, slot: Int) throws -> Bool {
        let bytes = next.width * next.height * 4
        guard let (compositor, lists) = route(next, bytes: bytes) else { return false }
        try dispatch(compositor, lists, output: .rgba, bytes: bytes, slot: slot)
        return true
    }

    /// Whether the compute path would draw this motion-blurred frame in one dispatch (its samples all draw lists).
    func computeDraws(samples: [DrawList]) -> Bool {
        guard let first = samples.first else { return false }
        return path.isCompute && compositor?.accepts(samples, outputBytes: first.width * first.height * 4) == true
    }

    /// A frame of motion blur whose samples are all draw lists, for the compute path (the mean in one dispatch),
    /// with the raster path's commands where the GPU sums samples.
    func averageFrame(lists samples: [DrawList]) throws -> Frame {
        let width = samples.first?.width ?? 0, height = samples.first?.height ?? 0
        let raster: () throws -> Void
        if sumsShutterOnGPU {
            raster = try averageFrame(samples.map(frame)).issue
        } else {
            raster = { throw GLError.invalidInput("motion blur of \(samples.count) samples is beyond the compute path, and this context cannot sum samples on the GPU") }
        }
        return Frame(width: width, height: height, lists: samples, issue: raster)
    }

    /// Whether motion blur's samples are summed on the GPU (`averageFrame`); else the renderer sums their
    /// read-backs on the CPU. Never true where the context cannot.
    var sumsShutterOnGPU: Bool {
        get { shutterOnGPU && shutter != nil }
        set { shutterOnGPU = newValue }
    }
    private var shutterOnGPU = true

    /// Motion blur: a frame that draws each of `samples` (frames of one size) into the render target, adds it
    /// to a sum on the GPU, and leaves their mean in the render target to be read back once. Only where
    /// `sumsShutterOnGPU`.
    func averageFrame(_ samples: [Frame]) throws -> Frame {
        guard let shutter, sumsShutterOnGPU else { throw GLError.invalidInput("this context cannot sum motion blur's samples on the GPU") }
        let width = samples.first?.width ?? 0, height = samples.first?.height ?? 0
        if let odd = samples.first(where: { $0.width != width || $0.height != height }) {
            throw GLError.invalidInput("motion blur's samples differ in size: \(width)x\(height) and \(odd.width)x\(odd.height)")
        }
        return Frame(width: width, height: height, lists: nil, issue: {
            try shutter.begin(width: width, height: height)
            for sample in samples {
                try self.target.bind(width: width, height: height)
                try sample.issue()
                try shutter.add(self.target.texture)
            }
            try self.target.bind(width: width, height: height)
            try shutter.drawMean()
        })
    }

    /// A frame whose pixels are already drawn (`pixmap`, on the CPU): uploaded into the render target, for a
    /// later pass to read.
    func uploadedFrame(_ pixmap: Pixmap) -> Frame {
        Frame(width: pixmap.width, height: pixmap.height, lists: nil, drawnBy: "uploaded", issue: {
            glBindTexture(GLenum(GL_TEXTURE_2D), self.target.texture)
            pixmap.pixels.withUnsafeBytes { bytes in
                glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(pixmap.width), GLsizei(pixmap.height),
                                GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
            }
            glBindTexture(GLenum(GL_TEXTURE_2D), 0)
            try GLError.check("glTexSubImage2D(frame \(pixmap.width)x\(pixmap.height) into the render target)")
        })
    }

    /// Issues the commands of one draw list into the bound framebuffer.
    private func issue(_ list: DrawList) throws {
        if list.clearsBackground || list.items.isEmpty {
            let bg = list.background
            func channel(_ shift: UInt32) -> GLfloat { GLfloat((bg >> shift) & 0xFF) / 255 }
            glClearColor(channel(0), channel(8), channel(16), channel(24))
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
        var current: (variant: LayerVariant, program: LayerProgram)?
        // What opaque items overwrite whole: beneath the largest such stretch above it, an item is not drawn
        // (the same pixels, less fill; the CPU skips them row by row, `RowCover`).
        let solids = list.items.map(\.solidPixels)
        for (k, item) in list.items.enumerated() {
            var hole: PixelBounds?, holeArea = 0
            for solid in solids[(k + 1)...] {
                guard let solid, case let cut = solid.intersection(item.bounds), !cut.isEmpty else { continue }
                let area = (cut.x1 - cut.x0) * (cut.y1 - cut.y0)
                if area > holeArea { (hole, holeArea) = (cut, area) }
            }
            let variant = LayerVariant(item)
            if current?.variant != variant {
                let program = try program(for: variant)
                program.use(width: list.width, height: list.height)
                current = (variant, program)
            }
            try current!.program.set(item, texture: texture)
            // An opaque blit replaces what is under it: a copy, no blending (the same picture, cheaper).
            let copy = variant.blit && item.isOpaque
            if copy { glDisable(GLenum(GL_BLEND)) }
            current!.program.drawQuad(item, less: hole)
            if copy { glEnable(GLenum(GL_BLEND)) }
        }
        try GLError.check("glDrawArrays(\(list.items.count) items)")
    }

    /// Draws one frame and reads it into `frame`.
    func draw(_ list: DrawList, into frame: inout Pixmap) throws {
        try draw(self.frame(list), into: &frame)
    }

    /// Draws `next` and reads it into `frame`.
    func draw(_ next: Frame, into frame: inout Pixmap) throws {
        let (width, height) = (next.width, next.height)
        if frame.width != width || frame.height != height {
            frame = Pixmap(width: width, height: height)
        }
        guard width > 0, height > 0 else { return }
        let start = ContinuousClock.now
        try target.bind(width: width, height: height)
        if let (compositor, lists) = route(next, bytes: 0) {
            try compositor.draw(lists, output: .image, into: target.texture, textures: texture)
        } else {
            try next.issue()
        }
        // Wait on a fence, so `draw` holds the rasterisation and `readback` only the copy.
        if let fence = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0) {
            _ = glClientWaitSync(fence, GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT), 10_000_000_000)
            glDeleteSync(fence)
        }
        let drawn = ContinuousClock.now
        frame.pixels.withUnsafeMutableBytes { bytes in
            glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
        }
        try GLError.check("glReadPixels(\(width)x\(height))")
        stats.frames += 1
        stats.drawSeconds += (drawn - start).seconds
        stats.readbackSeconds += (ContinuousClock.now - drawn).seconds
    }

    /// Draws `count` frames with up to `ring.count` in flight: frame k is drawn and its read-back started
    /// into a pack buffer before frame k - 3 is waited on, mapped and delivered. No `glFinish`.
    /// As `drawFrames(count:frame:buffer:deliver:)` for draw lists, into new buffers.
    func drawFrames(count: Int, list: (Int) throws -> DrawList, deliver: (Int, Pixmap) throws -> Void) throws {
        try drawFrames(count: count, frame: { self.frame(try list($0)) }, buffer: { nil }, deliver: deliver)
    }

    /// Draws frames of any kind (draw lists, custom transitions), each read back into a buffer `buffer` lends
    /// (nil: a new one), so no frame is copied on write however long the caller keeps the ones delivered.
    func drawFrames(count: Int, frame nextFrame: (Int) throws -> Frame, buffer: () -> Pixmap?,
                    deliver: (Int, Pixmap) throws -> Void) throws {
        // With no lender, the last frame delivered is drawn into again: no allocation when the caller let it go,
        // a copy on write when it kept it. A lent buffer is never kept here (the lender's copy stays unique).
        var spare: Pixmap?
        func target(width: Int, height: Int) -> (frame: Pixmap, lent: Bool) {
            if let lent = buffer(), lent.width == width, lent.height == height { return (lent, true) }
            if let last = spare, last.width == width, last.height == height {
                spare = nil
                return (last, false)
            }
            return (Pixmap(width: width, height: height), false)
        }
        try pipelined(count: count, frame: nextFrame, readback: { width, height in
            (width, height, width * height * 4)
        }, direct: computeRGBA, consume: { _, width, height, bytes -> (frame: Pixmap, lent: Bool) in
            var (frame, lent) = target(width: width, height: height)
            if !bytes.isEmpty { frame.pixels.withUnsafeMutableBytes { ParallelCopy.copy(into: $0, from: bytes) } }
            return (frame, lent)
        }, then: { (index: Int, copied: (frame: Pixmap, lent: Bool)) in
            try deliver(index, copied.frame)
            if !copied.lent { spare = copied.frame }
        })
    }

    /// Draws frames as `drawFrames(count:frame:buffer:deliver:)` does and lends each frame's RGBA bytes to `lend`
    /// where they were read back (empty for an empty frame), for the call only.
    func drawFrames(count: Int, frame nextFrame: (Int) throws -> Frame, lend: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
        try pipelined(count: count, frame: nextFrame, readback: { width, height in
            (width, height, width * height * 4)
        }, direct: computeRGBA, consume: { index, _, _, bytes in
            try lend(index, bytes)
        }, then: { _, _ in })
    }

    /// Draws frames as `drawFrames(count:frame:buffer:deliver:)` does, converts each to YCbCr planes on the GPU
    /// (`YCbCrPlanesPass`) and reads back only the planes, lent to `deliver` for the call (empty for an empty
    /// frame).
    func drawFrames(count: Int, frame nextFrame: (Int) throws -> Frame, planes: YCbCrPlanes,
                    deliver: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
        let pass = planesPass ?? YCbCrPlanesPass(ledger: ledger, info: context.info, binaries: binaries)
        planesPass = pass
        try pipelined(count: count, frame: nextFrame, readback: { width, height in
            try pass.packedSize(width: width, height: height, planes: planes)
        }, direct: { next, slot in
            let (width, height) = (next.width, next.height)
            let fromDispatch = ComputeCompositor.writesPlanes(planes, width: width, height: height)
            let bytes = fromDispatch ? planes.byteCount(width: width, height: height) : 0
            guard let (compositor, lists) = self.route(next, bytes: bytes) else { return false }
            if fromDispatch {
                // The planes out of the dispatch itself, into the slot's pack buffer.
                try self.dispatch(compositor, lists, output: planes.subsampled ? .planes420 : .planes444, planes: planes,
                                  bytes: bytes, slot: slot)
                return true
            }
            // A size whose planes are not whole words an invocation: the frame into the render target, then the pass.
            try self.target.bind(width: width, height: height)
            try compositor.draw(lists, output: .image, into: self.target.texture, textures: self.texture)
            try self.compiledPlanesPass().draw(from: self.target.texture, width: width, height: height, planes: planes)
            let read = try pass.packedSize(width: width, height: height, planes: planes)
            try self.ring.startRead(into: slot, width: read.width, height: read.height)
            return true
        }, convert: { width, height in
            try self.compiledPlanesPass().draw(from: self.target.texture, width: width, height: height, planes: planes)
        }, consume: { index, _, _, bytes in
            try deliver(index, bytes)
        }, then: { _, _ in })
    }

    /// The loop under both `drawFrames`: up to `ring.count` frames in flight, frame k drawn (then `convert`ed,
    /// which leaves the framebuffer to read bound) and its read-back started into a pack buffer before frame
    /// k - 3 is waited on, mapped and delivered. No `glFinish`. `readback` gives, for a frame's size, the
    /// size of the framebuffer read and the bytes of it delivered; `consume` gets the frame's index and size
    /// and those bytes (empty for an empty frame), mapped for the call only (counted as read-back time), and
    /// what it returns is handed to `then` once they are unmapped.
    private func pipelined<Copied>(count: Int, frame nextFrame: (Int) throws -> Frame,
                                   readback: (_ width: Int, _ height: Int) throws -> (width: Int, height: Int, bytes: Int),
                                   direct: (Frame, _ slot: Int) throws -> Bool,
                                   convert: ((_ width: Int, _ height: Int) throws -> Void)? = nil,
                                   consume: (_ index: Int, _ width: Int, _ height: Int, UnsafeRawBufferPointer) throws -> Copied,
                                   then: (_ index: Int, Copied) throws -> Void) throws {
        var pending: [(index: Int, slot: Int)] = []
        var (width, height) = (0, 0)
        var read = (width: 0, height: 0, bytes: 0)
        var nextSlot = 0
        defer { for p in pending { ring.dropFence(p.slot) } }

        func finishOldest() throws {
            let (index, slot) = pending.removeFirst()
            let start = ContinuousClock.now
            var copied: Copied?
            try ring.finishRead(from: slot) { bytes in
                copied = try consume(index, width, height, UnsafeRawBufferPointer(rebasing: bytes.prefix(read.bytes)))
            }
            stats.readbackSeconds += (ContinuousClock.now - start).seconds
            stats.transferBytes += read.bytes
            if let gpu = timer?.take(slot), gpu.draw != nil || gpu.transfer != nil {
                stats.gpuTimedFrames += 1
                stats.gpuDrawSeconds += gpu.draw ?? 0
                stats.gpuTransferSeconds += gpu.transfer ?? 0
            }
            if let copied { try then(index, copied) }
        }

        for k in 0..<count {
            let next = try nextFrame(k)
            if next.width != width || next.height != height {
                while !pending.isEmpty { try finishOldest() }
                if next.width > 0 && next.height > 0 {
                    try RenderTarget.checkLimits(width: next.width, height: next.height, info: context.info)
                    read = try readback(next.width, next.height)
                    try ring.resize(bytes: read.width * read.height * 4)
                }
                (width, height) = (next.width, next.height)
            }
            guard next.width > 0, next.height > 0 else {
                while !pending.isEmpty { try finishOldest() }
                try then(k, try consume(k, next.width, next.height, UnsafeRawBufferPointer(start: nil, count: 0)))
                continue
            }
            if pending.count == ring.count { try finishOldest() }
            let start = ContinuousClock.now
            if try !direct(next, nextSlot) {
                let slot = nextSlot
                try self.target.bind(width: next.width, height: next.height)
                try timed(slot, .draw) {
                    try next.issue()
                    try convert?(next.width, next.height)
                }
                try timed(slot, .transfer) { try ring.startRead(into: slot, width: read.width, height: read.height) }
            }
            stats.drawSeconds += (ContinuousClock.now - start).seconds
            stats.frames += 1
            pending.append((k, nextSlot))
            nextSlot = (nextSlot + 1) % ring.count
            if pending.count == ring.count { try finishOldest() }
        }
        while !pending.isEmpty { try finishOldest() }
    }

    // MARK: Custom transitions

    /// The program of `transition`, compiled the first time its text is seen.
    func transitionProgram(_ transition: ShaderTransition) throws -> TransitionProgram {
        let key = (transition.isGLSL100 ? "100\n" : "300\n") + transition.body + "\n"
            + transition.globalInitializers.map { "\($0.line) \($0.assignment)" }.joined(separator: "\n")
        if let program = transitionPrograms[key] { return program }
        let program = try TransitionProgram(transition, ledger: ledger)
        transitionPrograms[key] = program
        return program
    }

    /// The texture of a `sampler2D` parameter's image (`name` for messages), uploaded the first time the image
    /// is seen. Its rows go bottom first, so that, as in WebGL with its images flipped on upload (as
    /// gl-transitions runs them), `texture2D(map, uv)` shows the image upright: uv (0, 1) is its top-left.
    /// Bilinear, clamped to the edge, no mipmaps.
    func imageTexture(_ image: Pixmap, name: String) throws -> GLuint {
        if let known = imageTextures.first(where: { $0.image == image }) { return known.texture }
        let limit = context.info.maxTextureSize
        guard image.width > 0, image.height > 0, image.width <= limit, image.height <= limit else {
            throw GLError.limitExceeded(what: "the image of \(name) (\(image.width)x\(image.height))", limit: "GL_MAX_TEXTURE_SIZE", value: limit)
        }
        var flipped = [UInt32]()
        flipped.reserveCapacity(image.pixels.count)
        for y in stride(from: image.height - 1, through: 0, by: -1) {
            flipped += image.pixels[y * image.width..<(y + 1) * image.width]
        }
        defer { glBindTexture(GLenum(GL_TEXTURE_2D), 0) }
        let texture = try flipped.withUnsafeBytes { try GLTextures.upload($0, width: image.width, height: image.height, what: name, ledger: ledger) }
        imageTextures.append((image, texture))
        return texture
    }

    /// A frame of a custom transition between snapshots 0 (`from`) and 1 (`to`) at `progress`; `images` are the
    /// textures of its `sampler2D` parameters, bound to units 2, 3, ...
    func transitionFrame(_ program: TransitionProgram, values: [String: ShaderValue], images: [GLuint] = [],
                         progress: Double, width: Int, height: Int, background: UInt32) -> Frame {
        Frame(width: width, height: height, lists: nil, drawnBy: "transition", issue: {
            let from = try self.texture(.from), to = try self.texture(.to)
            program.use(values: values, progress: progress, width: width, height: height, background: background)
            for (k, image) in images.enumerated() {
                glActiveTexture(GLenum(GL_TEXTURE0 + Int32(TransitionProgram.firstSamplerUnit + k)))
                glBindTexture(GLenum(GL_TEXTURE_2D), image)
            }
            glActiveTexture(GLenum(GL_TEXTURE1))
            glBindTexture(GLenum(GL_TEXTURE_2D), to)
            glActiveTexture(GLenum(GL_TEXTURE0))
            glBindTexture(GLenum(GL_TEXTURE_2D), from)
            // The program lays its colour over the background itself, with no blending; a pixel it discards
            // keeps the background cleared here (never an earlier frame, never transparent).
            if program.discards {
                func channel(_ shift: UInt32) -> GLfloat { GLfloat((background >> shift) & 0xFF) / 255 }
                glClearColor(channel(0), channel(8), channel(16), channel(24))
                glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
            }
            glDisable(GLenum(GL_BLEND))
            program.drawQuad()
            glEnable(GLenum(GL_BLEND))
            try GLError.check("glDrawArrays(\(program.name))")
        })
    }

    // MARK: Teardown

    private func deleteTextures() {
        for k in uploaded.indices { ledger.delete(.texture, &uploaded[k].texture, glDeleteTextures) }
        uploaded.removeAll()
        textures.removeAll()
    }

    /// Deletes every GL object, then the context.
    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        deleteTextures()
        ledger.delete(.buffer, &unpackBuffer, glDeleteBuffers)
        ring.delete()
        timer?.delete()
        target.delete()
        shutter?.delete()
        planesPass?.delete()
        compositor?.delete()
        for program in programs.values { program.delete() }
        programs.removeAll()
        for program in transitionPrograms.values { program.delete() }
        transitionPrograms.removeAll()
        for k in imageTextures.indices { ledger.delete(.texture, &imageTextures[k].texture, glDeleteTextures) }
        imageTextures.removeAll()
        assert(ledger.total == 0, "GL objects left at teardown: \(ledger.live)")
        glFinish()
        context.destroy()
    }
}

extension Duration {
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}
