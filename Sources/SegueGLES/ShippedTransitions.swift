import SegueCore

/// The custom transitions Segue ships (`Shaders/transitions/*.glsl`, built into the binary), usable by name:
/// `segue render --shader ripple`.
public enum ShippedTransitions {
    /// Each one's short name (`ripple`) and its parsed file, in name order.
    public static let all: [(name: String, transition: ShaderTransition)] = ShaderSources.transitions.map { file in
        let name = file.name.hasSuffix(".glsl") ? String(file.name.dropLast(5)) : file.name
        // The files are tested (ShippedTransitionTests); a parse failure here is a bug in a shipped file.
        return (name, try! ShaderTransition(name: file.name, source: file.text))
    }

    /// The shipped transition `name` (`ripple` or `ripple.glsl`), or nil.
    public static func named(_ name: String) -> ShaderTransition? {
        all.first { $0.name == name || $0.transition.name == name }?.transition
    }
}
