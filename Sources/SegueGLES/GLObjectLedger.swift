import CEGL

/// Counts the GL objects a renderer has created and not yet deleted, kind by kind, so tests can check that
/// drawing many frames leaks nothing and that a renderer's deinit releases everything.
final class GLObjectLedger {
    enum Kind: String, CaseIterable {
        case texture, renderbuffer, framebuffer, buffer, shader, program, sync, vertexArray, query
    }

    private(set) var live: [Kind: Int] = [:]

    var total: Int { live.values.reduce(0, +) }

    func created(_ kind: Kind, _ count: Int = 1) { live[kind, default: 0] += count }
    func deleted(_ kind: Kind, _ count: Int = 1) { live[kind, default: 0] -= count }

    /// `glGen*` for one object of `kind`, counted.
    func generate(_ kind: Kind, _ gen: (GLsizei, UnsafeMutablePointer<GLuint>) -> Void) -> GLuint {
        var name: GLuint = 0
        gen(1, &name)
        created(kind)
        return name
    }

    /// `glDelete*` for one object of `kind`, counted; does nothing for name 0.
    func delete(_ kind: Kind, _ name: inout GLuint, _ del: (GLsizei, UnsafePointer<GLuint>) -> Void) {
        guard name != 0 else { return }
        del(1, &name)
        deleted(kind)
        name = 0
    }
}
