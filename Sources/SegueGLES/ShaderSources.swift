import Foundation
import SegueCore

/// The GLSL ES sources in the top-level `Shaders/`, built into the binary by SwiftPM: the target embeds that
/// folder (through the link `Sources/SegueGLES/Shaders`, as SwiftPM takes resources from inside a target) with
/// `.embedInCode` (Package.swift), which gives each file as a `PackageResources.<name>` byte
/// array (`layer.frag` becomes `PackageResources.layer_frag`), so there is no copy to keep in sync. SwiftPM
/// cannot list them, so each file is named once here; a test checks that the lists match the folder.
public enum ShaderSources {
    /// Every shader file of the renderer: its name in `Shaders/` and its text, byte for byte.
    public static let files: [(name: String, text: String)] = [
        ("composite.comp", text(PackageResources.composite_comp)),
        ("draw-item.glsl", text(PackageResources.draw_item_glsl)),
        ("layer.frag", text(PackageResources.layer_frag)),
        ("layer.vert", text(PackageResources.layer_vert)),
        ("shutter-mean.frag", text(PackageResources.shutter_mean_frag)),
        ("shutter-sum.frag", text(PackageResources.shutter_sum_frag)),
        ("transition.frag", text(PackageResources.transition_frag)),
        ("transition.vert", text(PackageResources.transition_vert)),
        ("transition100.frag", text(PackageResources.transition100_frag)),
        ("transition100.vert", text(PackageResources.transition100_vert)),
        ("ycbcr-planes.frag", text(PackageResources.ycbcr_planes_frag)),
    ]

    /// The shipped custom transitions (`ShippedTransitions.files`, which the core embeds from
    /// `Shaders/transitions/`).
    public static var transitions: [(name: String, text: String)] { ShippedTransitions.files }

    /// The text of shader file `name` (`layer.frag`) as it is compiled, or nil: each line
    /// `#include "FILE"` replaced by that file's text (`draw-item.glsl`, the per-pixel function that the raster
    /// and compute paths share), then a `#line` directive so the driver's line numbers stay the file's own.
    public static func text(of name: String) -> String? {
        guard let text = files.first(where: { $0.name == name })?.text else { return nil }
        return expand(text)
    }

    /// The text of shader file `name` as a program of the renderer compiles it: `text(of:)`, with the lines
    /// of `DrawItemRecord.glslDefinitions` (the mask kinds by name, the compute path's limits) and then `defines`
    /// (a variant's switches) inserted after its `#version` line.
    public static func text(of name: String, defines: String) -> String? {
        guard let text = text(of: name) else { return nil }
        guard let newline = text.firstIndex(of: "\n") else { return text }
        return String(text[...newline]) + DrawItemRecord.glslDefinitions + defines + "#line 2\n"
            + String(text[text.index(after: newline)...])
    }

    /// `text` with its `#include "FILE"` lines replaced by those files (one level: an included file includes
    /// nothing). A file that is not here stays an `#include` line, which the compiler then refuses by name.
    static func expand(_ text: String) -> String {
        guard text.contains("#include") else { return text }
        var lines: [String] = []
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#include \""), trimmed.hasSuffix("\""), case let name = String(trimmed.dropFirst(10).dropLast()),
               let included = files.first(where: { $0.name == name })?.text {
                lines.append(included)
                lines.append("#line \(k + 2)")
            } else {
                lines.append(String(line))
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
