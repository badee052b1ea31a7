import Foundation
import SegueCore
import SegueImageIO

/// Effects by name or file: `door` is the built-in, `./my-effect.json` (any argument with a `/` or ending in
/// `.json`) is a user's file, read with a size limit and checked whole before anything renders.
public enum EffectFiles {
    /// Whether `spec` names a file rather than a built-in effect.
    public static func isPath(_ spec: String) -> Bool { spec.contains("/") || spec.lowercased().hasSuffix(".json") }

    /// The built-in effect `spec`, or the effect file at `spec`; `.invalidOption` for an unknown
    /// name, `.invalidInput(path:)` naming every problem of a file, `.inputUnreadable(path:)` when it cannot be read. The file's options may not take `reservedOptionNames`.
    public static func resolve(_ spec: String, reservedOptionNames: Set<String> = []) throws -> Effect {
        if isPath(spec) { return try load(spec, reservedOptionNames: reservedOptionNames) }
        guard let effect = EffectCatalog.named(spec) else {
            throw SegueError.invalidOption("effect", value: spec, "unknown effect '\(spec)' (effects: \(EffectCatalog.names); a file of your own is ./NAME.json; or \(option: .shader, value: "FILE.glsl", "a custom shader FILE.glsl"))")
        }
        return effect
    }

    /// Reads and checks the effect file at `path`: a file that cannot be read is `.inputUnreadable(path:)`, as an
    /// image that cannot be is; one that reads but is not a good effect file, `.invalidInput(path:)` naming each
    /// problem, one a line.
    public static func load(_ path: String, reservedOptionNames: Set<String> = []) throws -> Effect {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path, limit: Effect.maxFileBytes)
        } catch let .unreadable(_, reason) {
            throw SegueError(.inputUnreadable(path: path), "cannot read the effect file '\(path)': \(reason)")
        } catch {
            throw SegueError(SegueError.from(error).kind, "the effect file \(error)")
        }
        do {
            return try Effect(json: Data(bytes), file: path, reservedOptionNames: reservedOptionNames)
        } catch {
            throw SegueError(.invalidInput(path: error.file), problems: error.problems, file: error.file)
        }
    }
}
