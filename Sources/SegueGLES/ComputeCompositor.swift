import CEGL
import SegueCore

/// The compute path (`Shaders/composite.comp`, GLES 3.1): one dispatch draws a frame's whole draw list, or the
/// mean of motion blur's samples, and writes it once, straight into the buffer that is read back (RGBA8 words,
/// or the frame's YCbCr planes), or into an image for a later pass. Every item goes through the per-pixel
/// function of `Shaders/draw-item.glsl`, the one the raster path's `layer.frag` runs, so the two paths draw
/// the same picture; the compute one blends in registers, rounding to 8 bits after each item as an RGBA8
/// framebuffer does, with no overdraw and no raster units (GH100 rasterises on 2 of its TPCs; its compute
/// runs on every SM).
final class ComputeCompositor {
    static let shaderFile = "composite.comp"
    /// Items and samples one dispatch takes (`MAX_ITEMS`, `MAX_SAMPLES` in composite.comp, from the same
    /// `Limits`); a frame with more is drawn by the raster path.
    static let maxItems = Limits.maxItemsPerDispatch
    static let maxSamples = Limits.maxMotionBlurSamples

    /// What a dispatch writes: composite.comp's `OUTPUT`.
    enum Output: Int, CaseIterable {
        /// RGBA8 words into a buffer.
        case rgba = 0
        /// RGBA8 into the render target's texture, bound as an image.
        case image = 1
        /// YCbCr 4:2:0 planes into a buffer, an invocation 8x2 pixels.
        case planes420 = 2
        /// YCbCr 4:4:4 planes into a buffer, an invocation 4x1 pixels.
        case planes444 = 3

        /// Pixels per invocation; a workgroup is `ComputeCompositor.workgroup` invocations.
        var pixelsPerInvocation: (x: Int, y: Int) {
            switch self {
            case .rgba, .image: return (1, 1)
            case .planes420: return (8, 2)
            case .planes444: return (4, 1)
            }
        }
    }

    /// Invocations a workgroup (composite.comp's `WORKGROUP_X`, `WORKGROUP_Y`): rows of 32, so that on NVIDIA a
    /// warp is one row and its stores of neighbouring words fill whole 128-byte lines; 128 in all, the least
    /// GLES 3.1 promises (`GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS`).
    static let workgroup = (x: 32, y: 4)

    private let ledger: GLObjectLedger
    private let binaries: ProgramBinaries?
    private var programs: [Program: (program: GLuint, uniforms: Uniforms)] = [:]

    /// The kinds of item a frame has: one program per output and set of kinds, which keeps only the parts of
    /// the per-pixel function those items use (a GPU runs fewer registers; llvmpipe, which runs every branch,
    /// runs fewer instructions).
    struct Kinds: Hashable {
        /// Bit k for the mask kind whose raw value is k (`MaskKind`).
        var masks = 0
        var perspective = false, overlay = false, snapshot = false, blit = false

        init(_ variants: [[LayerVariant]]) {
            for variant in variants.joined() {
                if variant.blit {
                    blit = true
                    continue
                }
                masks |= 1 << Int(variant.mask.rawValue)
                perspective = perspective || variant.perspective
                overlay = overlay || variant.overlay
                snapshot = snapshot || variant.snapshot
            }
            masks &= ~(1 << Int(MaskKind.none.rawValue))  // "no mask" needs no code
        }

        /// Every kind of item: the program that draws any frame.
        static var every: Kinds { Kinds([LayerVariant.all]) }

        /// The lines inserted after `#version`.
        var defines: String {
            "#define MASKS \(masks)\n#define PERSPECTIVE \(perspective ? 1 : 0)\n#define OVERLAY \(overlay ? 1 : 0)\n"
                + "#define SNAPSHOT \(snapshot ? 1 : 0)\n#define BLIT \(blit ? 1 : 0)\n"
        }
    }

    /// The `#define`s of a program: its output and kinds (`ShaderSources.text(of:defines:)` adds the record's).
    static func defines(output: Output, kinds: Kinds) -> String {
        "#define OUTPUT \(output.rawValue)\n#define WORKGROUP_X \(workgroup.x)\n#define WORKGROUP_Y \(workgroup.y)\n" + kinds.defines
    }

    private struct Program: Hashable {
        var output: Output
        var kinds: Kinds
    }
    private var itemBuffer: GLuint = 0
    private var sampleBuffer: GLuint = 0
    private var itemCapacity = 0
    private var sampleCapacity = 0
    /// Whether the buffers written are persistent maps (`ReadbackRing.persistent`), whose writes need
    /// `GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT_EXT` before their fence.
    var clientMappedBarrier = false
    /// `GL_MAX_SHADER_STORAGE_BLOCK_SIZE`: the largest buffer a dispatch may write.
    let maxOutputBytes: Int

    private struct Uniforms {
        var from, to, frameSize, sampleCount, luma, cb, cr: GLint
        init(_ program: GLuint) {
            func at(_ name: String) -> GLint { glGetUniformLocation(program, name) }
            from = at("uFrom"); to = at("uTo"); frameSize = at("uFrameSize"); sampleCount = at("uSampleCount")
            luma = at("uLuma"); cb = at("uCb"); cr = at("uCr")
        }
    }

    /// Whether the current context runs compute shaders: OpenGL ES 3.1 or later, with the entry points there.
    static func isAvailable(_ info: GLInfo) -> Bool {
        guard segue_gles_has_compute() != 0, segue_gles_has_buffer_copy() != 0 else { return false }
        // "OpenGL ES 3.2 Mesa 22.3.6", "OpenGL ES 3.2 NVIDIA 550.54.15"
        let words = info.version.split(separator: " ")
        guard let number = words.first(where: { $0.first?.isNumber == true }) else { return false }
        let parts = number.split(separator: ".").compactMap { Int($0) }
        guard parts.count >= 2 else { return false }
        return parts[0] > 3 || (parts[0] == 3 && parts[1] >= 1)
    }

    init(ledger: GLObjectLedger, binaries: ProgramBinaries? = nil) {
        self.ledger = ledger
        self.binaries = binaries
        var size: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_SHADER_STORAGE_BLOCK_SIZE), &size)
        maxOutputBytes = Int(size)
    }

    /// Why one dispatch cannot draw `lists` (one frame, or motion blur's samples, all one size) writing
    /// `outputBytes`; nil when it can. The reasons are few and fixed, so a count of them by reason stays short.
    func refusal(_ lists: [DrawList], outputBytes: Int) -> String? {
        guard let first = lists.first else { return "no draw list" }
        if lists.count > Self.maxSamples { return "over \(Self.maxSamples) motion blur samples" }
        if outputBytes > maxOutputBytes { return "over GL_MAX_SHADER_STORAGE_BLOCK_SIZE (\(maxOutputBytes) bytes)" }
        var items = 0
        for list in lists {
            if list.width != first.width || list.height != first.height { return "samples of different sizes" }
            items += list.items.count
        }
        return items > Self.maxItems ? "over \(Self.maxItems) items" : nil
    }

    /// Whether one dispatch can draw `lists` writing `outputBytes` (`refusal` is nil).
    func accepts(_ lists: [DrawList], outputBytes: Int) -> Bool { refusal(lists, outputBytes: outputBytes) == nil }

    /// Whether `planes` of a `width` x `height` frame come out of the dispatch itself (whole words of each plane
    /// per invocation): 4:2:0 needs a width a multiple of 8 and an even height, 4:4:4 a width a multiple of 4.
    /// Other sizes are drawn into an image and converted by the planes pass.
    static func writesPlanes(_ planes: YCbCrPlanes, width: Int, height: Int) -> Bool {
        planes.subsampled ? width % 8 == 0 && height % 2 == 0 : width % 4 == 0
    }

    /// Draws `lists` (one frame, or the samples whose mean is the frame) in one dispatch. `output` is a buffer
    /// for `.rgba` and the planes, the render target's texture for `.image`; `textures` names each snapshot's.
    /// Leaves the barrier that makes the writes visible to a mapping, a read-back or a texture fetch.
    func draw(_ lists: [DrawList], output: Output, into target: GLuint, planes: YCbCrPlanes? = nil,
              textures: (SnapshotID) throws -> GLuint) throws {
        guard let first = lists.first else { return }
        let width = first.width, height = first.height
        // Each item's switches, worked out once for the program's key and the item buffer.
        let variants = lists.map { $0.items.map(LayerVariant.init) }
        let (program, u) = try program(Program(output: output, kinds: Kinds(variants)))
        glUseProgram(program)
        try upload(lists)
        glUniform2i(u.frameSize, GLint(width), GLint(height))
        glUniform1i(u.sampleCount, GLint(lists.count))
        if let planes {
            let w = planes.weights
            glUniform4i(u.luma, w.yr, w.yg, w.yb, w.yOffset)
            glUniform3i(u.cb, w.ur, w.ug, w.ub)
            glUniform3i(u.cr, w.vr, w.vg, w.vb)
        }
        let used = Set(lists.flatMap { $0.items.compactMap { item -> SnapshotID? in
            if case let .snapshot(id, _) = item.source { return id } else { return nil }
        } })
        for id in SnapshotID.allCases {
            glActiveTexture(GLenum(GL_TEXTURE0 + Int32(id.rawValue)))
            glBindTexture(GLenum(GL_TEXTURE_2D), used.contains(id) ? try textures(id) : 0)
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindBufferBase(GLenum(GL_SHADER_STORAGE_BUFFER), 0, itemBuffer)
        glBindBufferBase(GLenum(GL_SHADER_STORAGE_BUFFER), 1, sampleBuffer)
        if output == .image {
            glBindImageTexture(0, target, 0, GLboolean(GL_FALSE), 0, GLenum(GL_WRITE_ONLY), GLenum(GL_RGBA8))
        } else {
            glBindBufferBase(GLenum(GL_SHADER_STORAGE_BUFFER), 2, target)
            // composite.comp's OutputPairs: the same buffer, as pairs of words (4:2:0's luma).
            if output == .planes420 { glBindBufferBase(GLenum(GL_SHADER_STORAGE_BUFFER), 3, target) }
        }
        let per = output.pixelsPerInvocation
        let tileX = Self.workgroup.x * per.x, tileY = Self.workgroup.y * per.y
        let groupsX = (width + tileX - 1) / tileX, groupsY = (height + tileY - 1) / tileY
        glDispatchCompute(GLuint(groupsX), GLuint(groupsY), 1)
        glMemoryBarrier(GLbitfield(GL_BUFFER_UPDATE_BARRIER_BIT | GL_PIXEL_BUFFER_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT
                                   | GL_FRAMEBUFFER_BARRIER_BIT | (clientMappedBarrier ? GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT_EXT : 0)))
        for k in 0..<4 { glBindBufferBase(GLenum(GL_SHADER_STORAGE_BUFFER), GLuint(k), 0) }
        try GLError.check("glDispatchCompute(\(Self.shaderFile), OUTPUT \(output.rawValue), \(width)x\(height), \(lists.count) sample(s))")
    }

    /// The records of every list's items (each marked with its list's index), then one entry per list (its
    /// first item, its count, its background).
    private func upload(_ lists: [DrawList]) throws {
        var records: [DrawItemRecord] = []
        records.reserveCapacity(lists.reduce(0) { $0 + $1.items.count })
        var samples: [UInt32] = []
        for (s, list) in lists.enumerated() {
            samples += [UInt32(records.count), UInt32(list.items.count), list.background, 0]
            for item in list.items {
                var record = item.record
                record.blit.w = Int32(s)
                records.append(record)
            }
        }
        if records.isEmpty { records = [DrawItemRecord()] }  // a buffer is never empty
        try records.withUnsafeBytes { try fill(&itemBuffer, capacity: &itemCapacity, with: $0) }
        try samples.withUnsafeBytes { try fill(&sampleBuffer, capacity: &sampleCapacity, with: $0) }
    }

    private func fill(_ buffer: inout GLuint, capacity: inout Int, with data: UnsafeRawBufferPointer) throws {
        if buffer == 0 { buffer = ledger.generate(.buffer, glGenBuffers) }
        let bytes = data.count
        glBindBuffer(GLenum(GL_SHADER_STORAGE_BUFFER), buffer)
        if bytes > capacity {
            glBufferData(GLenum(GL_SHADER_STORAGE_BUFFER), GLsizeiptr(bytes), data.baseAddress, GLenum(GL_DYNAMIC_DRAW))
            capacity = bytes
        } else {
            glBufferSubData(GLenum(GL_SHADER_STORAGE_BUFFER), 0, GLsizeiptr(bytes), data.baseAddress)
        }
        glBindBuffer(GLenum(GL_SHADER_STORAGE_BUFFER), 0)
        try GLError.check("glBufferData(GL_SHADER_STORAGE_BUFFER, \(bytes) bytes)")
    }

    /// Called for each program compiled (the pipeline counts them in its statistics).
    var compiledOne: () -> Void = {}

    /// Compiles, where not yet compiled, the program that draws `lists` (one frame, or motion blur's samples)
    /// with `output`.
    func prepare(_ lists: [DrawList], output: Output) throws {
        _ = try program(Program(output: output, kinds: Kinds(lists.map { $0.items.map(LayerVariant.init) })))
    }

    /// The program of an output and set of kinds, compiled the first time.
    private func program(_ key: Program) throws -> (GLuint, Uniforms) {
        if let known = programs[key] { return known }
        compiledOne()
        let defines = Self.defines(output: key.output, kinds: key.kinds)
        guard let source = ShaderSources.text(of: Self.shaderFile, defines: defines) else {
            throw GLError.invalidInput("ShaderSources lacks \(Self.shaderFile)")
        }
        let name = "\(Self.shaderFile) (" + defines.split(separator: "\n").map { $0.dropFirst(8) }.joined(separator: ", ") + ")"
        let program = try LayerProgram.link(compute: (name, source), ledger: ledger, binaries: binaries)
        let uniforms = Uniforms(program)
        glUseProgram(program)
        glUniform1i(uniforms.from, 0)
        glUniform1i(uniforms.to, 1)
        try GLError.check("glUseProgram(\(Self.shaderFile))")
        programs[key] = (program, uniforms)
        return (program, uniforms)
    }

    func delete() {
        for var entry in programs.values { ledger.delete(.program, &entry.program) { _, name in glDeleteProgram(name.pointee) } }
        programs.removeAll()
        ledger.delete(.buffer, &itemBuffer, glDeleteBuffers)
        ledger.delete(.buffer, &sampleBuffer, glDeleteBuffers)
        itemCapacity = 0
        sampleCapacity = 0
    }
}
