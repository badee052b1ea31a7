import CEGL

/// A ring of pixel pack buffers, each with the fence of the frame read into it, so the GPU can draw frame
/// k + 1 while frame k is still being read back and mapped (`drawFrames`).
///
/// Where the context has `GL_EXT_buffer_storage` the buffers are persistent, coherent maps of client storage,
/// mapped once when made: a finished frame is read where it lies, with no map and unmap a frame, and the driver
/// is told the bytes are for the CPU (NVIDIA places such a buffer in system memory, which the copy engine
/// writes at the bus's rate). Elsewhere each is a `GL_STREAM_READ` buffer mapped for each frame.
final class ReadbackRing {
    /// How many frames can be in flight.
    let count: Int
    private(set) var byteCount = 0
    /// Whether the buffers are persistent maps (`GL_EXT_buffer_storage`).
    let persistent: Bool
    private var buffers: [GLuint]
    private var fences: [GLsync?]
    /// Each buffer's persistent map, when `persistent`.
    private var maps: [UnsafeMutableRawPointer?]
    /// Each slot's buffer in the GPU's own memory, for the `compute-staged` path (`staging`); 0 until asked for.
    private var staged: [GLuint]
    private var stagedBytes = 0
    private let ledger: GLObjectLedger

    /// `persistent` where the context offers `GL_EXT_buffer_storage` (`canMapPersistently`) and the caller wants it.
    init(count: Int, persistent: Bool, ledger: GLObjectLedger) {
        self.count = count
        self.persistent = persistent && Self.canMapPersistently()
        self.ledger = ledger
        buffers = Array(repeating: 0, count: count)
        fences = Array(repeating: nil, count: count)
        maps = Array(repeating: nil, count: count)
        staged = Array(repeating: 0, count: count)
    }

    /// Whether the current context has `GL_EXT_buffer_storage` and its entry point.
    static func canMapPersistently() -> Bool {
        segue_gles_has_buffer_storage() != 0 && GLInfo.currentExtensions().contains("GL_EXT_buffer_storage")
    }

    /// Makes every buffer at least `bytes` long. Only call with no frame in flight. Buffers only grow: a job
    /// whose frames change size (or a calibration's RGBA and planes runs) keeps the largest ring it needed, and
    /// a persistent map (pinned memory, costly to make on a GPU's driver) is made again only to grow.
    func resize(bytes: Int) throws {
        guard bytes > byteCount || buffers.contains(0) else { return }
        if persistent { return try remakePersistent(bytes: bytes) }
        for k in 0..<count {
            if buffers[k] == 0 { buffers[k] = ledger.generate(.buffer, glGenBuffers) }
            glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffers[k])
            glBufferData(GLenum(GL_PIXEL_PACK_BUFFER), GLsizeiptr(bytes), nil, GLenum(GL_STREAM_READ))
        }
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
        try GLError.check("glBufferData(GL_PIXEL_PACK_BUFFER, \(bytes) bytes)")
        byteCount = bytes
    }

    /// Slot `k`'s pack buffer, for a pass that writes the frame into it itself (the compute path).
    func buffer(_ k: Int) -> GLuint { buffers[k] }

    /// Slot `k`'s buffer in the GPU's own memory (`GL_DYNAMIC_COPY`: written by the GPU, read by the GPU), as
    /// long as the ring's: the `compute-staged` path's dispatch writes it and `copy` moves it into slot `k`.
    /// One a slot, so a dispatch never waits on the copy of the frame before it.
    func staging(_ k: Int) throws -> GLuint {
        if stagedBytes != byteCount {
            for j in 0..<count { ledger.delete(.buffer, &staged[j], glDeleteBuffers) }
            stagedBytes = byteCount
        }
        if staged[k] == 0 {
            staged[k] = ledger.generate(.buffer, glGenBuffers)
            glBindBuffer(GLenum(GL_COPY_WRITE_BUFFER), staged[k])
            glBufferData(GLenum(GL_COPY_WRITE_BUFFER), GLsizeiptr(byteCount), nil, GLenum(GL_DYNAMIC_COPY))
            glBindBuffer(GLenum(GL_COPY_WRITE_BUFFER), 0)
            try GLError.check("glBufferData(staging buffer, \(byteCount) bytes, GL_DYNAMIC_COPY)")
        }
        return staged[k]
    }

    /// Copies the first `bytes` of slot `k`'s staging buffer into its read-back buffer (one transfer, by the copy
    /// engine where the GPU has one). The dispatch that wrote it must have left `GL_BUFFER_UPDATE_BARRIER_BIT`.
    func copy(stagedInto k: Int, bytes: Int) throws {
        glBindBuffer(GLenum(GL_COPY_READ_BUFFER), staged[k])
        glBindBuffer(GLenum(GL_COPY_WRITE_BUFFER), buffers[k])
        glCopyBufferSubData(GLenum(GL_COPY_READ_BUFFER), GLenum(GL_COPY_WRITE_BUFFER), 0, 0, GLsizeiptr(bytes))
        glBindBuffer(GLenum(GL_COPY_READ_BUFFER), 0)
        glBindBuffer(GLenum(GL_COPY_WRITE_BUFFER), 0)
        try GLError.check("glCopyBufferSubData(staging buffer into read-back buffer \(k), \(bytes) bytes)")
    }

    /// Fences slot `k` once its frame's writes are issued (by `startRead`, or by a pass that wrote the buffer).
    func fence(_ k: Int) throws {
        guard let fence = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0) else {
            throw GLError.call("glFenceSync", code: glGetError())
        }
        ledger.created(.sync)
        fences[k] = fence
        glFlush()
    }

    /// Persistent buffers cannot be resized: each is made anew, `bytes` long, and mapped once.
    private func remakePersistent(bytes: Int) throws {
        deleteBuffers()
        let flags = GLbitfield(GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT_EXT | GL_MAP_COHERENT_BIT_EXT)
        for k in 0..<count {
            buffers[k] = ledger.generate(.buffer, glGenBuffers)
            glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffers[k])
            glBufferStorageEXT(GLenum(GL_PIXEL_PACK_BUFFER), GLsizeiptr(bytes), nil, flags | GLbitfield(GL_CLIENT_STORAGE_BIT_EXT))
            maps[k] = glMapBufferRange(GLenum(GL_PIXEL_PACK_BUFFER), 0, GLsizeiptr(bytes), flags)
            glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
            guard maps[k] != nil else {
                let code = glGetError()
                deleteBuffers()
                throw GLError.call("glMapBufferRange(GL_PIXEL_PACK_BUFFER, persistent, \(bytes) bytes)", code: code)
            }
        }
        try GLError.check("glBufferStorageEXT(GL_PIXEL_PACK_BUFFER, \(bytes) bytes)")
        byteCount = bytes
    }

    /// Starts reading the bound framebuffer (`width` x `height`) into slot `k` and fences it.
    func startRead(into k: Int, width: Int, height: Int) throws {
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffers[k])
        glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
        try GLError.check("glReadPixels(into GL_PIXEL_PACK_BUFFER)")
        try fence(k)
    }

    /// Waits for slot `k`'s frame, maps it and hands `body` its bytes; then unmaps it.
    func finishRead(from k: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        if let fence = fences[k] {
            defer { dropFence(k) }
            var flags = GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT)
            while true {
                let status = glClientWaitSync(fence, flags, 1_000_000_000)
                if status == GLenum(GL_ALREADY_SIGNALED) || status == GLenum(GL_CONDITION_SATISFIED) { break }
                if status == GLenum(GL_WAIT_FAILED) { throw GLError.call("glClientWaitSync", code: glGetError()) }
                flags = 0  // GL_TIMEOUT_EXPIRED: keep waiting; the commands were flushed already
            }
        }
        if persistent, let map = maps[k] {
            return try body(UnsafeRawBufferPointer(start: map, count: byteCount))
        }
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffers[k])
        defer { glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0) }
        guard let mapped = glMapBufferRange(GLenum(GL_PIXEL_PACK_BUFFER), 0, GLsizeiptr(byteCount), GLbitfield(GL_MAP_READ_BIT)) else {
            throw GLError.call("glMapBufferRange(GL_PIXEL_PACK_BUFFER, GL_MAP_READ_BIT)", code: glGetError())
        }
        defer { glUnmapBuffer(GLenum(GL_PIXEL_PACK_BUFFER)) }
        try body(UnsafeRawBufferPointer(start: mapped, count: byteCount))
    }

    /// Forgets slot `k`'s fence (its frame is done or abandoned).
    func dropFence(_ k: Int) {
        if let fence = fences[k] {
            glDeleteSync(fence)
            ledger.deleted(.sync)
            fences[k] = nil
        }
    }

    func delete() {
        for k in 0..<count { dropFence(k) }
        deleteBuffers()
        for k in 0..<count { ledger.delete(.buffer, &staged[k], glDeleteBuffers) }
    }

    /// Unmaps (persistent ones) and deletes every buffer. Only with no frame in flight.
    private func deleteBuffers() {
        for k in 0..<count {
            if maps[k] != nil {
                glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffers[k])
                glUnmapBuffer(GLenum(GL_PIXEL_PACK_BUFFER))
                glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
                maps[k] = nil
            }
            ledger.delete(.buffer, &buffers[k], glDeleteBuffers)
        }
        byteCount = 0
    }
}
