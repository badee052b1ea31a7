import ArgumentParser
import Foundation
import SegueCore
import SegueRender

/// `segue effects`: every effect with its options, defaults and the source of its numbers; or the effects
/// named, built-in or files of one's own (checked as `render` checks them).
struct Effects: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every effect with its options, defaults and the source of its numbers.",
        discussion: """
            With no EFFECT, lists every built-in effect and the shipped custom transitions. With EFFECTs (names, \
            or effect files of your own such as ./my-effect.json), lists just those: a file is read and checked \
            as `segue render` reads it, and a bad one is reported with each problem at its place in the file.
            """)

    @Argument(help: "Effects to list: built-in names, or effect files (./NAME.json). Default: every built-in.")
    var effects: [String] = []

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        try Console.requireStandardOutput(for: json ? "the effects' JSON" : "the list of effects")
        let listed = effects.isEmpty ? EffectCatalog.builtIn : try effects.map(EffectArguments.resolve)
        if json {
            let list: [[String: Any]] = listed.map { effect in
                [
                    "name": effect.name, "summary": effect.summary, "source": effect.source,
                    "duration": effect.defaultDuration(.forward), "curve": effect.defaultCurve(.forward).description,
                    "backDuration": effect.defaultDuration(.back), "backCurve": effect.defaultCurve(.back).description,
                    "options": effect.options.map {
                        ["name": $0.name, "type": $0.kind.rawValue, "default": $0.defaultText, "help": $0.help]
                    },
                ]
            }
            var object: [String: Any] = ["effects": list]
            if effects.isEmpty { object["transitions"] = ShippedTransitionList.json }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        for effect in listed {
            let (d, c) = (effect.defaultDuration(.forward), effect.defaultCurve(.forward))
            var timing = "\(d.compact) s, \(c)"
            let (bd, bc) = (effect.defaultDuration(.back), effect.defaultCurve(.back))
            if bd != d || bc != c { timing += "; back \(bd.compact) s, \(bc)" }
            print("\(effect.name) - \(effect.summary) (\(timing))")
            for option in effect.options {
                print("    --\(option.name) \(option.valueName) (\(option.defaultText)): \(option.help)")
            }
            print("    source: \(effect.source)")
        }
        guard effects.isEmpty else { return }
        print("Every effect runs --direction forward (push/present) or back (pop/dismiss).")
        print("An effect of your own is a JSON file of layers over progress: see docs/effects.md.")
        ShippedTransitionList.printText()
    }
}
