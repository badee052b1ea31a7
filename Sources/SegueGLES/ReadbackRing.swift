import CEGL

/// A ring of pixel pack buffers, each with the fence of the frame read into it, so the GPU can draw frame
/// k + 1 while frame k is still being read back and mapped (`drawFrames`).
final class ReadbackRing {
    /// How many frames can be in flight.
    let count: Int
    private(set) var byteCount = 0
    private var buffers: [GLuint]
    private var fences: [GLsync?]
    private let ledger: GLObjectLedger

    init(count: Int, ledger: GLObjectLedger) {
        self.count = count
        self.ledger = ledger
        buffers = Array(repeating: 0, count: count)
        fences = Array(repeating: nil, count: count)
    }

    /// Makes every buffer `bytes` long. Only call with no frame in flight.
    func resize(bytes: Int) throws {
        guard bytes != byteCount || buffers.contains(0) else { return }
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

    /// Fences slot `k` once its frame's writes are issued (by `startRead`, or by a pass that wrote the buffer).
    func fence(_ k: Int) throws {
        guard let fence = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0) else {
            throw GLError.call("glFenceSync", code: glGetError())
        }
        ledger.created(.sync)
        fences[k] = fence
        glFlush()
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
        for k in 0..<count {
            dropFence(k)
            ledger.delete(.buffer, &buffers[k], glDeleteBuffers)
        }
        byteCount = 0
    }
}
