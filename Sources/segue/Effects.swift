import ArgumentParser
import Foundation
import SegueCore

/// `segue effects`: every effect with its options, defaults and the source of its numbers.
struct Effects: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every effect with its options, defaults and the source of its numbers.")

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        if json {
            let list: [[String: Any]] = EffectCatalog.builtIn.map { effect in
                [
                    "name": effect.name, "summary": effect.summary, "source": effect.source,
                    "duration": effect.defaultDuration(.forward), "curve": effect.defaultCurve(.forward).description,
                    "backDuration": effect.defaultDuration(.back), "backCurve": effect.defaultCurve(.back).description,
                    "options": effect.options.map {
                        ["name": $0.name, "type": $0.kind.rawValue, "default": $0.defaultText, "help": $0.help]
                    },
                ]
            }
            let data = try JSONSerialization.data(withJSONObject: ["effects": list, "transitions": ShippedTransitionList.json], options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        for effect in EffectCatalog.builtIn {
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
        print("Every effect runs --direction forward (push/present) or back (pop/dismiss).")
        print("An effect of your own is a JSON file of layers over progress: see docs/effects.md.")
        ShippedTransitionList.printText()
    }
}
