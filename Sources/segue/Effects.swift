import ArgumentParser
import Foundation
import SegueCore

/// `segue effects`: every effect with its options, defaults and the seed it comes from.
struct Effects: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every effect with its options, defaults and the seed it comes from.")

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        if json {
            let list: [[String: Any]] = EffectCatalog.all.map { info in
                var entry: [String: Any] = [
                    "name": info.effect.rawValue, "summary": info.summary, "duration": info.duration,
                    "curve": info.curve.description, "seed": info.seed,
                    "options": info.options.map {
                        ["name": $0.name, "type": $0.kind.rawValue, "default": $0.defaultText(for: info.effect), "help": $0.help]
                    },
                ]
                if let d = info.backDuration { entry["backDuration"] = d }
                if let c = info.backCurve { entry["backCurve"] = c.description }
                return entry
            }
            let data = try JSONSerialization.data(withJSONObject: ["effects": list, "transitions": ShippedTransitionList.json], options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        for info in EffectCatalog.all {
            var timing = "\(info.duration.compact) s, \(info.curve)"
            if let d = info.backDuration, let c = info.backCurve { timing += "; back \(d.compact) s, \(c)" }
            print("\(info.effect.rawValue) - \(info.summary) (\(timing))")
            for option in info.options {
                print("    --\(option.name) \(option.valueName) (\(option.defaultText(for: info.effect))): \(option.help)")
            }
            print("    seed: \(info.seed)")
        }
        print("Every effect runs --direction forward (push/present) or back (pop/dismiss).")
        ShippedTransitionList.printText()
    }
}
