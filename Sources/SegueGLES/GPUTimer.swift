import CEGL

/// The GPU's own clock for the frames in the read-back ring (`GL_EXT_disjoint_timer_query`): for each slot, a
/// query around the frame's drawing and one around its move into the read-back buffer, read once the slot's
/// fence has passed (when the results are there without a wait). Absent where the context lacks the extension.
final class GPUTimer {
    /// What a query times.
    enum Stage: Int { case draw = 0, transfer = 1 }

    private let ledger: GLObjectLedger
    /// Two queries a slot: `[slot * 2 + stage]`.
    private var queries: [GLuint]
    /// Whether each query was begun for the frame now in its slot.
    private var issued: [Bool]
    private var active: Int?

    /// A timer for `slots` read-back slots, where the current context has `GL_EXT_disjoint_timer_query`.
    init?(slots: Int, ledger: GLObjectLedger) {
        guard segue_gles_has_timer_query() != 0, GLInfo.currentExtensions().contains("GL_EXT_disjoint_timer_query") else { return nil }
        self.ledger = ledger
        queries = (0..<(2 * slots)).map { _ in ledger.generate(.query, glGenQueries) }
        issued = Array(repeating: false, count: 2 * slots)
    }

    /// Times the commands `body` issues as `stage` of slot `slot`'s frame.
    func measure<T>(_ slot: Int, _ stage: Stage, _ body: () throws -> T) rethrows -> T {
        let k = slot * 2 + stage.rawValue
        precondition(active == nil, "timer queries do not nest")
        glBeginQuery(GLenum(GL_TIME_ELAPSED_EXT), queries[k])
        active = k
        defer {
            glEndQuery(GLenum(GL_TIME_ELAPSED_EXT))
            active = nil
            issued[k] = true
        }
        return try body()
    }

    /// The seconds each stage of slot `slot`'s frame took on the GPU (nil for a stage not timed, or where the
    /// GPU's clock was disjoint meanwhile), and forgets them. Call after the slot's fence has passed.
    func take(_ slot: Int) -> (draw: Double?, transfer: Double?) {
        func read(_ k: Int) -> Double? {
            guard issued[k] else { return nil }
            issued[k] = false
            var available: GLuint = 0
            glGetQueryObjectuiv(queries[k], GLenum(GL_QUERY_RESULT_AVAILABLE_EXT), &available)
            guard available != 0 else { return nil }
            var nanoseconds: GLuint64 = 0
            glGetQueryObjectui64vEXT(queries[k], GLenum(GL_QUERY_RESULT_EXT), &nanoseconds)
            return Double(nanoseconds) * 1e-9
        }
        let draw = read(slot * 2), transfer = read(slot * 2 + 1)
        var disjoint: GLint = 0
        glGetIntegerv(GLenum(GL_GPU_DISJOINT_EXT), &disjoint)
        return disjoint != 0 ? (nil, nil) : (draw, transfer)
    }

    func delete() {
        for k in queries.indices { ledger.delete(.query, &queries[k], glDeleteQueries) }
    }
}
