/// The custom transitions Segue ships (`Shaders/transitions/*.glsl`, built into the binary), usable by name:
/// `ShippedTransitions.named("ripple")`. They are content, as the built-in effect files are; a backend that runs
/// GLSL (GLES) draws them.
public enum ShippedTransitions {
    /// Each file's name (`ripple.glsl`) and text, byte for byte, in name order. SwiftPM embeds the folder
    /// (`.embedInCode`, through the link `Sources/SegueCore/CustomShaders/Transitions`) and cannot list it, so
    /// each file is named once here; a test checks that the list matches the folder.
    public static let files: [(name: String, text: String)] = [
        ("dissolve-noise.glsl", text(PackageResources.dissolve_noise_glsl)),
        ("pixelate.glsl", text(PackageResources.pixelate_glsl)),
        ("radial-sweep.glsl", text(PackageResources.radial_sweep_glsl)),
        ("ripple.glsl", text(PackageResources.ripple_glsl)),
        ("wipe-diagonal.glsl", text(PackageResources.wipe_diagonal_glsl)),
    ]

    /// Each one's short name (`ripple`) and its parsed file, in name order.
    public static let all: [(name: String, transition: ShaderTransition)] = files.map { file in
        let name = file.name.hasSuffix(".glsl") ? String(file.name.dropLast(5)) : file.name
        // The files are tested (ShaderSourcesTests, CustomTransitionTests); a parse failure here is a bug in a
        // shipped file.
        return (name, try! ShaderTransition(name: file.name, source: file.text))
    }

    /// The shipped transition `name` (`ripple` or `ripple.glsl`), or nil.
    public static func named(_ name: String) -> ShaderTransition? {
        all.first { $0.name == name || $0.transition.name == name }?.transition
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
