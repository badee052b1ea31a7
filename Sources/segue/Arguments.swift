import Foundation
import ArgumentParser
import SegueCore
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
        // The range is the job's to check (RenderJob.checkRequest).
        return (w, h)
    }

    static func curve(_ text: String) throws -> TimingCurve {
        do { return try TimingCurve(parsing: text) } catch let error as SegueError { throw ValidationError(error.description) }
    }
}

extension Direction: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }
}

extension BackendChoice.GLESTarget: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

/// The effect and its options on the command line (`door --zoom 0.5`, `./mine.json --set depth=40`):
/// `Render` collects the arguments it does not know itself; they are split here, and once the effect is known
/// (a built-in or a file) each option is read by the effect's own declaration.
enum EffectArguments {
    /// The effect as written (a name or a file) and each `--NAME VALUE`, `--NAME=VALUE` or `--set NAME=VALUE`.
    struct Split {
        var effect: String?
        var settings: [(name: String, value: String)] = []
    }

    /// `--set NAME=VALUE`: an option of the effect by its name.
    static let setName = "set"

    /// The names an effect file's options may not take, because `segue render` would read `--NAME` itself:
    /// every long name of its options and flags as the argument parser describes them (`--help` and
    /// `--version` among them), the parser's hidden built-ins that its description leaves out, and `--set`.
    static let reservedNames: Set<String> = {
        let names = (try? JSONDecoder().decode(ToolInfo.self, from: Data(Segue._dumpHelp().utf8)))?
            .command.subcommands?.first { $0.commandName == Render._commandName }?
            .arguments?.flatMap { $0.names ?? [] }.filter { $0.kind == "long" }.map(\.name)
        // Without them no effect option would be safe: a failure here is the parser's format changing.
        precondition(names?.isEmpty == false, "the argument parser no longer describes segue render's names")
        return Set(names!).union(["help-hidden", "experimental-dump-help", "generate-completion-script", setName])
    }()

    /// The effect `spec` names: a built-in, or a file whose options may not take `reservedNames` (worked out
    /// only then: describing the tool takes a moment).
    static func resolve(_ spec: String) throws -> Effect {
        try EffectFiles.resolve(spec, reservedOptionNames: EffectFiles.isPath(spec) ? reservedNames : [])
    }

    /// What `reservedNames` reads of the argument parser's description of the tool (`--experimental-dump-help`).
    private struct ToolInfo: Decodable {
        struct Command: Decodable {
            var commandName: String
            var subcommands: [Command]?
            var arguments: [Argument]?
        }
        struct Argument: Decodable { var names: [Name]? }
        struct Name: Decodable { var kind: String; var name: String }
        var command: Command
    }

    /// Splits the arguments; anything that is not an option with its value, or a second effect, is a usage error.
    static func split(_ arguments: [String]) throws -> Split {
        var split = Split()
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            guard argument.hasPrefix("--") else {
                guard split.effect == nil else {
                    throw ValidationError("unexpected argument '\(argument)' (the effect is \(split.effect!))")
                }
                split.effect = argument
                i += 1
                continue
            }
            var name = String(argument.dropFirst(2)), value: String?
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if value == nil {
                i += 1
                guard i < arguments.count else {
                    throw ValidationError(name == setName ? "missing NAME=VALUE after --set" : "missing value for '--\(name)'")
                }
                value = arguments[i]
            }
            if name == setName {
                guard let eq = value!.firstIndex(of: "="), eq != value!.startIndex else {
                    throw ValidationError("--set takes NAME=VALUE (an option of the effect), not '\(value!)'")
                }
                split.settings.append((String(value![..<eq]), String(value![value!.index(after: eq)...])))
            } else {
                split.settings.append((name, value!))
            }
            i += 1
        }
        return split
    }

    /// The settings as options of `effect`: each name must be one it declares and each value of its kind; a
    /// repeatable option given several times becomes a list.
    static func options(_ settings: [(name: String, value: String)], for effect: Effect) throws -> EffectOptions {
        var options = EffectOptions()
        for (name, text) in settings {
            guard let option = effect.option(name) else {
                let takes = effect.options.map { "--" + $0.name }
                throw SegueError.invalidOption(name, of: effect.name, value: text, "--\(name) does not apply to \(effect.name), which "
                                     + (takes.isEmpty ? "takes no options" : "takes " + takes.joined(separator: ", ")))
            }
            guard let value = option.parse(text) else {
                let form = option.kind == .choice ? "one of \(option.choices.map(\.name).joined(separator: ", "))" : option.kind.form
                throw SegueError.invalidOption(name, of: effect.name, value: text, "--\(name) '\(text)' is not \(form)")
            }
            if let earlier = options[name] {
                guard option.repeatable else { throw SegueError.invalidOption(name, of: effect.name, value: text, "--\(name) is given twice") }
                options[name] = .list(earlier.items + [value])
            } else {
                options[name] = value
            }
        }
        return options
    }

    /// The "Effect options" section of `segue render --help`: each option of the built-in effects, with the
    /// effects that take it and their defaults.
    static var help: String {
        var order: [String] = []
        var uses: [String: [(Effect, EffectOption)]] = [:]
        for effect in EffectCatalog.builtIn {
            for option in effect.options {
                if uses[option.name] == nil { order.append(option.name) }
                uses[option.name, default: []].append((effect, option))
            }
        }
        return order.map { name in
            let list = uses[name]!
            let takers = list.map { "\($0.0.name) (\($0.1.defaultText))" }.joined(separator: ", ")
            return "  --\(name) <\(list[0].1.valueName)>: \(takers)\n      \(list[0].1.help)"
        }.joined(separator: "\n")
    }
}
