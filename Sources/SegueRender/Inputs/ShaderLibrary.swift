import Foundation
import SegueCore
import SegueImageIO

/// Custom transitions by name or file, for `segue render --shader` and storyboards' `shader:` steps.
public enum ShaderLibrary {
    /// The largest shader file read (`Limits.maxShaderSourceBytes`).
    public static let sourceLimit = Limits.maxShaderSourceBytes

    /// The transition `spec` names: an existing file, else a shipped transition's name.
    public static func load(_ spec: String) throws -> ShaderTransition {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: spec, isDirectory: &isDirectory), !isDirectory.boolValue || spec.contains("/") {
            let data = try SegueError.converting { try InputFile.read(spec, limit: sourceLimit) }
            return try ShaderTransition(name: spec, source: String(decoding: data, as: UTF8.self))
        }
        if let shipped = ShippedTransitions.named(spec) { return shipped }
        if spec.contains("/") || spec.hasSuffix(".glsl") || isDirectory.boolValue {
            throw SegueError(.inputUnreadable(path: spec), "cannot read '\(spec)': \(isDirectory.boolValue ? "a directory" : "no such file")")
        }
        let names = ShippedTransitions.all.map(\.name).joined(separator: ", ")
        throw SegueError.invalidOption("shader", value: spec, "unknown \(option: .shader) '\(spec)' (shipped: \(names); or give a .glsl file)")
    }

    /// The image a `sampler2D` parameter names: a PNG or JPEG file, decoded premultiplied RGBA8.
    public static func image(_ path: String) throws(SegueError) -> Pixmap {
        try SegueError.converting { try ImageDecoder.decode(contentsOf: path) }
    }

    /// The shipped transitions, by name.
    public static var shipped: [(name: String, transition: ShaderTransition)] { ShippedTransitions.all }
}
