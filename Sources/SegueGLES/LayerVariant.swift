import SegueCore

/// Which variant of `layer.frag` draws an item: the `#define` switches at the top of the shader. llvmpipe
/// (like many GPUs) runs both sides of a branch, so each item gets a program with only what it needs.
struct LayerVariant: Hashable, CustomStringConvertible {
    var snapshot: Bool
    /// 0: none, 1: circle, 2: rounded rect, 3: sector, 4: blurred rect, 5: blurred rounded rect, 6: continuous
    /// rounded rect.
    var mask: Int
    var overlay: Bool
    var perspective: Bool
    /// A plain copy of texels (`DrawItem.blit`): the other switches are ignored.
    var blit: Bool

    init(_ item: DrawItem) {
        blit = item.blit != nil
        if case .snapshot = item.source { snapshot = true } else { snapshot = false }
        switch item.mask {
        case nil: mask = 0
        case .circle?: mask = 1
        case .roundedRect?: mask = 2
        case .sector?: mask = 3
        case .continuousRect?: mask = 6
        case let .blurred(_, radius, _)?: mask = radius > 0 ? 5 : 4
        }
        overlay = item.overlay != nil
        perspective = !item.isAffine
    }

    /// The lines inserted after `#version`.
    var defines: String {
        "#define SOURCE \(snapshot ? 1 : 0)\n#define MASK \(mask)\n#define OVERLAY \(overlay ? 1 : 0)\n"
            + "#define PERSPECTIVE \(perspective ? 1 : 0)\n#define BLIT \(blit ? 1 : 0)\n"
    }

    /// `source`'s first line (`#version 300 es`), these defines, then the rest.
    func apply(to source: String) -> String {
        guard let newline = source.firstIndex(of: "\n") else { return source }
        return String(source[...newline]) + defines + String(source[source.index(after: newline)...])
    }

    /// `SOURCE 1, MASK 2, OVERLAY 0, PERSPECTIVE 1`, for error messages.
    var description: String {
        if blit { return "BLIT 1" }
        return "SOURCE \(snapshot ? 1 : 0), MASK \(mask), OVERLAY \(overlay ? 1 : 0), PERSPECTIVE \(perspective ? 1 : 0)"
    }
}

extension LayerVariant {
    init(snapshot: Bool, mask: Int, overlay: Bool, perspective: Bool, blit: Bool = false) {
        self.snapshot = snapshot; self.mask = mask; self.overlay = overlay; self.perspective = perspective
        self.blit = blit
    }
}
