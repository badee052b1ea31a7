import Foundation
import ArgumentParser
import SegueCore
import SegueGLES
import SegueRender

/// Parsers for the command line's compound values; each failure names the value and the expected form.
enum Parse {
    static func color(_ text: String) throws -> Color {
        guard let c = Color(hex: text) else { throw ValidationError("'\(text)' is not a colour RRGGBB") }
        return c
    }

    /// `--background`: a colour, or `transparent`.
    static func background(_ text: String) throws -> Color {
        guard let c = Color(background: text) else { throw ValidationError("'\(text)' is not a colour RRGGBB or 'transparent'") }
        return c
    }

    static func pixelSize(_ text: String) throws -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw ValidationError("'\(text)' is not a size WxH in pixels (for example 1920x1080)")
        }
        guard w > 0, h > 0, w <= 16384, h <= 16384 else {
            throw ValidationError("--size \(text) is out of range: each side must be 1...16384 pixels")
        }
        return (w, h)
    }

    static func curve(_ text: String) throws -> TimingCurve {
        do { return try TimingCurve(parsing: text) } catch let error as SegueError { throw ValidationError(error.description) }
    }
}

extension Effect: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension Direction: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }
}

extension EGLPlatform: ExpressibleByArgument {}

/// The effect options on the command line (`--zoom 0.5`, `--center=110,150`), read from the option table:
/// `Render` collects the arguments it does not know itself and they are parsed here, each value by its kind.
enum EffectArguments {
    /// The effect's name (the one word that is not an option) and the `--NAME VALUE` or `--NAME=VALUE` pairs
    /// into options; anything else is a usage error naming it.
    static func parse(_ arguments: [String]) throws -> (effect: Effect?, options: EffectOptions) {
        var options = EffectOptions()
        var effect: Effect?
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            guard argument.hasPrefix("--") else {
                guard effect == nil else { throw ValidationError("unexpected argument '\(argument)' (the effect is \(effect!.rawValue))") }
                guard let named = Effect(rawValue: argument) else {
                    throw ValidationError("unknown effect '\(argument)' (effects: \(Effect.allCases.map(\.rawValue).joined(separator: ", ")); or --shader FILE.glsl)")
                }
                effect = named
                i += 1
                continue
            }
            var name = String(argument.dropFirst(2)), value: String?
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let option = EffectOption.named(name) else {
                throw ValidationError("unknown option '--\(name)' (effect options: \(EffectOption.all.map { "--" + $0.name }.joined(separator: ", ")); see 'segue render --help')")
            }
            if value == nil {
                i += 1
                guard i < arguments.count else { throw ValidationError("missing value for '--\(name) <\(option.valueName)>'") }
                value = arguments[i]
            }
            guard let parsed = OptionValue(parsing: value!, kind: option.kind) else {
                throw ValidationError("--\(name) '\(value!)' is not \(option.kind.form)")
            }
            if options[option] != nil { throw ValidationError("--\(name) is given twice") }
            options[option] = parsed
            i += 1
        }
        return (effect, options)
    }

    /// The "Effect options" section of `segue render --help`, from the option table.
    static var help: String {
        EffectOption.all.map { option in
            let uses = option.uses.map { "\($0.effect.rawValue) (\(option.defaultText(for: $0.effect)))" }.joined(separator: ", ")
            return "  --\(option.name) <\(option.valueName)>: \(uses)\n      \(option.help)"
        }.joined(separator: "\n")
    }
}
