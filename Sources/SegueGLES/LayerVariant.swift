import SegueCore

/// Which variant of `layer.frag` draws an item: the `#define` switches at the top of the shader. llvmpipe
/// (like many GPUs) runs both sides of a branch, so each item gets a program with only what it needs.
struct LayerVariant: Hashable, CustomStringConvertible {
    var snapshot: Bool
    var mask: MaskKind
    var overlay: Bool
    var perspective: Bool
    /// A plain copy of texels (`DrawItem.blit`): the other switches are ignored.
    var blit: Bool

    /// The variant of an item, read from its record.
    init(_ item: DrawItem) {
        let record = item.record
        self.init(snapshot: record.source != 0, mask: record.maskKind, overlay: record.hasOverlay,
                  perspective: record.isPerspective, blit: record.isBlit)
    }

    init(snapshot: Bool, mask: MaskKind, overlay: Bool, perspective: Bool, blit: Bool = false) {
        self.snapshot = snapshot; self.mask = mask; self.overlay = overlay; self.perspective = perspective
        self.blit = blit
    }

    /// Every variant the renderer may compile: each source, mask kind, overlay and perspective, and the blit
    /// (which ignores the other switches).
    static var all: [LayerVariant] {
        var variants: [LayerVariant] = []
        for snapshot in [false, true] {
            for mask in MaskKind.allCases {
                for overlay in [false, true] {
                    for perspective in [false, true] {
                        variants.append(LayerVariant(snapshot: snapshot, mask: mask, overlay: overlay, perspective: perspective))
                    }
                }
            }
        }
        return variants + [LayerVariant(snapshot: true, mask: .none, overlay: false, perspective: false, blit: true)]
    }

    /// The switches' lines, inserted after `#version` with the record's definitions (`ShaderSources.text(of:defines:)`).
    var defines: String {
        "#define SOURCE \(snapshot ? 1 : 0)\n#define MASK \(mask.glslName)\n#define OVERLAY \(overlay ? 1 : 0)\n"
            + "#define PERSPECTIVE \(perspective ? 1 : 0)\n#define BLIT \(blit ? 1 : 0)\n"
    }

    /// `SOURCE 1, MASK MASK_ROUNDED_RECT, OVERLAY 0, PERSPECTIVE 1`, for error messages.
    var description: String {
        if blit { return "BLIT 1" }
        return "SOURCE \(snapshot ? 1 : 0), MASK \(mask.glslName), OVERLAY \(overlay ? 1 : 0), PERSPECTIVE \(perspective ? 1 : 0)"
    }
}
