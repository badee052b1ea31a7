import CEGL
import SegueCore

/// A frame's YCbCr planes worked out on the GPU (`Shaders/ycbcr-planes.frag`, the twin of the C kernel
/// `segue_ycbcr_planes`): one pass reads the finished RGBA8 frame and writes the planes, packed four bytes a
/// texel, into an RGBA8 target of its own, so a plain RGBA read-back of that target is the planes in Y4M's
/// order: 1.5 bytes a pixel at 4:2:0 instead of 4, and no conversion left on the CPU.
final class YCbCrPlanesPass {
    static let vertexFile = "transition.vert"
    static let fragmentFile = "ycbcr-planes.frag"
    /// The packed target's width in texels, unless the planes need more rows than the texture limit allows.
    static let preferredPackedWidth = 4096

    private let ledger: GLObjectLedger
    private let info: GLInfo
    private let binaries: ProgramBinaries?
    /// The packed planes.
    private let target: RenderTarget
    private var program: GLuint = 0
    private var frameSize: GLint = -1, chromaSize: GLint = -1, chromaShift: GLint = -1, packedWidth: GLint = -1
    private var luma: GLint = -1, cb: GLint = -1, cr: GLint = -1

    init(ledger: GLObjectLedger, info: GLInfo, binaries: ProgramBinaries? = nil) {
        self.ledger = ledger
        self.binaries = binaries
        self.info = info
        target = RenderTarget(ledger: ledger, info: info)
    }

    /// The packed target of a `width` x `height` frame's planes: its size in texels, and the planes' bytes at
    /// its start (the last row's rest is padding). Throws when the planes do not fit the texture limits.
    func packedSize(width: Int, height: Int, planes: YCbCrPlanes) throws -> (width: Int, height: Int, bytes: Int) {
        let bytes = planes.byteCount(width: width, height: height)
        let texels = (bytes + 3) / 4
        let limit = min(info.maxTextureSize, info.maxViewportWidth, info.maxViewportHeight)
        var packedWidth = max(1, min(texels, Self.preferredPackedWidth, limit))
        if (texels + packedWidth - 1) / packedWidth > limit { packedWidth = limit }
        let rows = (texels + packedWidth - 1) / packedWidth
        guard rows <= limit else {
            throw GLError.limitExceeded(what: "the YCbCr planes of frame \(width)x\(height) (\(bytes) bytes)",
                                        limit: "GL_MAX_TEXTURE_SIZE", value: info.maxTextureSize)
        }
        return (packedWidth, rows, bytes)
    }

    /// Draws the planes of `frame` (an RGBA8 texture of `width` x `height`) into the packed target and leaves it
    /// bound, for the read-back; compiles the program the first time (`prepare`, which the pipeline calls first
    /// to count it).
    func draw(from frame: GLuint, width: Int, height: Int, planes: YCbCrPlanes) throws {
        try prepare()
        let packed = try packedSize(width: width, height: height, planes: planes)
        try target.bind(width: packed.width, height: packed.height)
        glUseProgram(program)
        setUniforms(width: width, height: height, packedWidth: packed.width, planes: planes)
        GLTextures.drawReplacing(from: frame)
        try GLError.check("glDrawArrays(\(Self.fragmentFile), \(width)x\(height))")
    }

    /// Compiles the program, the first time; whether it compiled it now.
    @discardableResult
    func prepare() throws -> Bool {
        guard program == 0 else { return false }
        guard let vertex = ShaderSources.text(of: Self.vertexFile), let fragment = ShaderSources.text(of: Self.fragmentFile) else {
            throw GLError.invalidInput("ShaderSources lacks \(Self.vertexFile) or \(Self.fragmentFile)")
        }
        program = try LayerProgram.link(vertex: (Self.vertexFile, vertex), fragment: (Self.fragmentFile, fragment), ledger: ledger,
                                        binaries: binaries)
        func at(_ name: String) -> GLint { glGetUniformLocation(program, name) }
        frameSize = at("uFrameSize"); chromaSize = at("uChromaSize"); chromaShift = at("uChromaShift")
        packedWidth = at("uPackedWidth"); luma = at("uLuma"); cb = at("uCb"); cr = at("uCr")
        glUseProgram(program)
        glUniform1i(at("uFrame"), 0)
        try GLError.check("glUseProgram(\(Self.fragmentFile))")
        return true
    }

    private func setUniforms(width: Int, height: Int, packedWidth: Int, planes: YCbCrPlanes) {
        let chroma = planes.chromaSize(width: width, height: height)
        let w = planes.weights
        glUniform2i(frameSize, GLint(width), GLint(height))
        glUniform2i(chromaSize, GLint(chroma.width), GLint(chroma.height))
        glUniform1i(chromaShift, planes.subsampled ? 1 : 0)
        glUniform1i(self.packedWidth, GLint(packedWidth))
        glUniform4i(luma, w.yr, w.yg, w.yb, w.yOffset)
        glUniform3i(cb, w.ur, w.ug, w.ub)
        glUniform3i(cr, w.vr, w.vg, w.vb)
    }

    func delete() {
        target.delete()
        ledger.delete(.program, &program) { _, name in glDeleteProgram(name.pointee) }
    }
}
