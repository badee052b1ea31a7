import Foundation

/// Every problem found in an effect file, each at its JSON path, reported together before anything renders.
public struct EffectFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as the user named it (or the built-in's name).
    public var file: String
    public var problems: [JSONProblem]

    public var description: String { problems.map { "\(file): \($0)" }.joined(separator: "\n") }
}

/// An effect file read and checked: its declarations, and for each direction the layers as expressions,
/// ready to evaluate at any progress (`Effect.scene`). The format is `docs/effect.schema.json`, explained in
/// `docs/effects.md`.
final class EffectDefinition: Sendable {
    let name: String
    let summary: String
    let source: String
    let timing: [Direction: (duration: Double, curve: TimingCurve)]
    /// Each stage's share of the duration, in order (spin's 0.4 s + 0.3 s); empty when there are none.
    let stages: [Double]
    let options: [EffectOption]
    /// The slots every program shares: the progress names, the frame, the options.
    let slots: BaseSlots
    let forward: Program
    /// The back direction's program; nil when it is `forward`'s, played in reverse with the snapshots swapped.
    let back: Program?
    /// A digest of the file's bytes: two effects are the same when name and digest are.
    let digest: UInt64

    struct BaseSlots: Sendable {
        var t = 0, e = 0, forward = 0, W = 0, H = 0, frame = 0, stage = 0, i = 0, n = 0
        var stageValues: [Int] = []
        /// Each option's slot, and a choice's constants' slots (`edge.dx`).
        var options: [String: Int] = [:]
        var constants: [String: [(slot: Int, choiceValues: [String: Double])]] = [:]
    }

    /// One direction: named values worked out in order, the sublayer perspective, and the layers bottom to top.
    struct Program: Sendable {
        var lets: [(slot: Int, value: EffectExpression)]
        var perspective: EffectExpression?
        var layers: [LayerProgram]
        var slotCount: Int
    }

    struct LayerProgram: Sendable {
        enum Content: Sendable {
            case snapshot(SnapshotID, rect: EffectExpression?)
            case color(EffectExpression)
            case gradient(start: EffectExpression, end: EffectExpression, from: EffectExpression, to: EffectExpression)
        }
        enum MaskProgram: Sendable {
            case circle(center: EffectExpression, radius: EffectExpression)
            /// `continuous`: iOS's continuous corner curve, not a circular arc.
            case rect(EffectExpression, radius: EffectExpression?, continuous: Bool)
            case sector(center: EffectExpression, start: EffectExpression, sweep: EffectExpression)
        }
        struct OverlayProgram: Sendable {
            var start, end, from, to: EffectExpression
            var opacity: EffectExpression?
        }
        /// A circle or a rounded rectangle: what a mask may be (besides a sector) and what a shadow is cast by.
        enum Shape: Sendable {
            case rect(EffectExpression, radius: EffectExpression?)
            case circle(center: EffectExpression, radius: EffectExpression)
        }
        /// A Core Animation shadow: colour, opacity, radius and offset, and the path it is cast by (a rounded
        /// rectangle or a circle; nil for the layer's own shape).
        struct ShadowProgram: Sendable {
            var color, opacity, radius, offset: EffectExpression?
            var path: Shape?
        }
        enum Operation: Sendable {
            case translate(EffectExpression), scale(EffectExpression), rotateX(EffectExpression), rotateY(EffectExpression), rotateZ(EffectExpression)
        }

        var content: Content
        var frame: EffectExpression?
        var bounds: EffectExpression?
        var position: EffectExpression?
        var anchor: EffectExpression?
        var transform: [Operation]
        var opacity: EffectExpression?
        var mask: MaskProgram?
        var overlay: OverlayProgram?
        var shadow: ShadowProgram?
        var doubleSided: Bool
        var visible: EffectExpression?
        /// The repeatable option the layer is drawn once per value of.
        var repeatOver: String?
    }

    init(name: String, summary: String, source: String, timing: [Direction: (duration: Double, curve: TimingCurve)],
         stages: [Double], options: [EffectOption], slots: BaseSlots, forward: Program, back: Program?, digest: UInt64) {
        self.name = name; self.summary = summary; self.source = source; self.timing = timing
        self.stages = stages; self.options = options; self.slots = slots
        self.forward = forward; self.back = back; self.digest = digest
    }
}

// MARK: - Reading a file

extension EffectDefinition {
    /// The most bytes an effect file may have (`Limits.maxEffectFileBytes`).
    public static let maxBytes = Limits.maxEffectFileBytes

    /// Reads `data`; an option may not take a name in `reservedOptionNames` (those its reader keeps for itself).
    static func read(_ data: Data, file: String, reservedOptionNames: Set<String> = []) throws(EffectFileError) -> EffectDefinition {
        var reader = EffectFileReader(reservedOptionNames: reservedOptionNames)
        if let definition = reader.definition(data) { return definition }
        throw EffectFileError(file: file, problems: JSONProblem.locate(reader.problems, in: data))
    }

    /// One value of a file (a number, an expression, a list or keyframes) read in `scope`.
    static func parseValue(_ raw: Any, scope: ExpressionScope) throws(ExpressionError) -> (EffectExpression, Int) {
        try EffectFileReader().parseValue(raw, scope: scope)
    }
}

/// Reads the JSON of an effect file, collecting every problem at its JSON path.
private struct EffectFileReader: JSONProblemReader {
    var problems: [JSONProblem] = []
    /// Names an option may not take: the program reading the file keeps them for itself.
    var reservedOptionNames: Set<String> = []

    mutating func definition(_ data: Data) -> EffectDefinition? {
        guard data.count <= EffectDefinition.maxBytes else {
            problem("$", "the file is larger than \(EffectDefinition.maxBytes >> 20) MiB")
            return nil
        }
        guard let object = rootObject(data, expected: "an object: {\"name\": ..., \"layers\": [...]}") else { return nil }
        unknownKeys(object, "$", allowed: ["$schema", "comment", "name", "summary", "source", "duration", "curve", "stages",
                                  "options", "let", "perspective", "layers", "back"])
        let name = requiredString(object, "name", "$")
        if let name, !(name.range(of: "^[a-z0-9][a-z0-9-]{0,63}$", options: .regularExpression) != nil) {
            problem("$.name", "expected a name of lower-case letters, digits and '-' (at most 64), not '\(name)'")
        }
        let summary = requiredString(object, "summary", "$") ?? ""
        let source = requiredString(object, "source", "$") ?? ""

        // Stages: each one's share of the duration, as any positive numbers (spin's 4 and 3 for 0.4 s + 0.3 s).
        var stageSeconds: [Double] = []
        if let raw = object["stages"] {
            if let list = raw as? [Any], (2...16).contains(list.count),
               case let values = list.compactMap(JSONNumber.value), values.count == list.count, values.allSatisfy({ $0 > 0 && $0.isFinite }) {
                stageSeconds = values
            } else {
                problem("$.stages", "expected 2 to 16 stage shares, each > 0 (the duration is split in their proportion)")
            }
        }
        let forwardTiming = timing(object, "$", defaultDuration: nil)

        // The names every expression may use.
        var scope = ExpressionScope()
        var base = EffectDefinition.BaseSlots()
        base.t = scope.declare("t", arity: 1)
        base.e = scope.declare("e", arity: 1)
        base.forward = scope.declare("forward", arity: 1)
        base.W = scope.declare("W", arity: 1)
        base.H = scope.declare("H", arity: 1)
        base.frame = scope.declare("frame", arity: 4)
        base.i = scope.declare("i", arity: 1)
        base.n = scope.declare("n", arity: 1)
        if !stageSeconds.isEmpty {
            base.stage = scope.declare("stage", arity: 1)
            base.stageValues = stageSeconds.indices.map { scope.declare("e\($0 + 1)", arity: 1) }
        }
        let total = stageSeconds.reduce(0, +)
        let stages = stageSeconds.map { $0 / total }

        var options: [EffectOption] = []
        if let raw = object["options"] {
            if let list = raw as? [Any], list.count > Limits.maxEffectOptions {
                problem("$.options", "more than \(Limits.maxEffectOptions) options")
            } else if let list = raw as? [Any] {
                for (k, item) in list.enumerated() {
                    guard let option = self.option(item, "$.options[\(k)]", scope: scope) else { continue }
                    if options.contains(option) { problem("$.options[\(k)].name", "'\(option.name)' is declared twice"); continue }
                    if scope.lookup(option.expressionName) != nil {
                        problem("$.options[\(k)].name", "'\(option.name)' is a name expressions already have"); continue
                    }
                    options.append(option)
                    base.options[option.name] = scope.declare(option.expressionName, arity: option.kind.arity)
                    if option.kind == .choice {
                        for key in option.choices.first?.constants.keys.sorted() ?? [] {
                            let slot = scope.declare("\(option.expressionName).\(key)", arity: 1)
                            let values = Dictionary(uniqueKeysWithValues: option.choices.map { ($0.name, $0.constants[key] ?? 0) })
                            base.constants[option.name, default: []].append((slot, values))
                        }
                    }
                }
            } else {
                problem("$.options", "expected a list of options")
            }
        }

        let forward = program(object, "$", scope: scope, options: options)
        var backTiming = forwardTiming
        // The back direction: forward's layers (with `forward` = 0), forward's played in reverse, or its own.
        enum Back { case same, reverse, own(EffectDefinition.Program?) }
        var back = Back.same
        if let raw = object["back"] {
            if let text = raw as? String {
                if text == "reverse" { back = .reverse } else { problem("$.back", "expected \"reverse\" or an object") }
            } else if let b = raw as? [String: Any] {
                unknownKeys(b, "$.back", allowed: ["comment", "duration", "curve", "reverse", "let", "perspective", "layers"])
                if b["duration"] != nil || b["curve"] != nil {
                    backTiming = timing(b, "$.back", defaultDuration: forwardTiming?.duration ?? 1, fallbackCurve: forwardTiming?.curve)
                }
                if let r = b["reverse"] {
                    if (r as? Bool) == true {
                        back = .reverse
                        if b["layers"] != nil { problem("$.back", "\"reverse\" and \"layers\" exclude each other") }
                    } else if (r as? Bool) != false {
                        problem("$.back.reverse", "expected true or false")
                    }
                } else if b["layers"] != nil {
                    back = .own(program(b, "$.back", scope: scope, options: options))
                } else if b["let"] != nil || b["perspective"] != nil {
                    problem("$.back", "\"let\" and \"perspective\" of the back direction come with its own \"layers\"")
                }
            } else {
                problem("$.back", "expected \"reverse\" or an object")
            }
        }
        if case .reverse = back, !stages.isEmpty {
            problem("$.back", "an effect with stages cannot play its forward direction in reverse: give the back direction's layers")
        }

        guard problems.isEmpty, let name, let forward, let forwardTiming, let backTiming else { return nil }
        let backProgram: EffectDefinition.Program?
        switch back {
        case .same: backProgram = forward
        case .reverse: backProgram = nil
        case let .own(program): guard let program else { return nil }; backProgram = program
        }
        return EffectDefinition(name: name, summary: summary, source: source,
                                timing: [.forward: forwardTiming, .back: backTiming], stages: stages, options: options,
                                slots: base, forward: forward, back: backProgram, digest: Self.digest(data))
    }

    /// FNV-1a over the file's bytes.
    static func digest(_ data: Data) -> UInt64 {
        data.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    mutating func timing(_ object: [String: Any], _ path: String, defaultDuration: Double?,
                         fallbackCurve: TimingCurve? = nil) -> (duration: Double, curve: TimingCurve)? {
        var duration = defaultDuration
        if let raw = object["duration"] {
            if let d = JSONNumber.value(raw), d > 0, d <= Limits.maxSeconds { duration = d } else {
                problem("\(path).duration", "expected seconds in \(Limits.secondsText)")
                return nil
            }
        } else if duration == nil {
            problem(path, "missing \"duration\": the default duration in seconds")
        }
        var curve = fallbackCurve
        if let raw = object["curve"] {
            if let text = raw as? String {
                do { curve = try TimingCurve(parsing: text) } catch { problem("\(path).curve", "\(error)") }
            } else {
                problem("\(path).curve", "expected a curve such as \"ease-in-out\"")
            }
        } else if curve == nil {
            problem(path, "missing \"curve\": the default timing curve")
        }
        guard let duration, let curve else { return nil }
        return (duration, curve)
    }

    // MARK: Options

    mutating func option(_ raw: Any, _ path: String, scope: ExpressionScope) -> EffectOption? {
        guard let o = raw as? [String: Any] else { problem(path, "expected an option object"); return nil }
        let before = problems.count
        unknownKeys(o, path, allowed: ["comment", "name", "type", "placeholder", "help", "default", "computed", "says",
                              "required", "range", "note", "example", "choices", "repeatable"])
        let name = requiredString(o, "name", path)
        if let name, name.range(of: "^[a-z][a-z0-9]*(-[a-z0-9]+)*$", options: .regularExpression) == nil {
            problem("\(path).name", "'\(name)' cannot name an option (lower-case words joined by '-')")
        } else if let name, reservedOptionNames.contains(name) {
            problem("\(path).name", "'\(name)' cannot name an option: the program reading this file reserves that name for itself")
        }
        var kind: EffectOption.Kind?
        if let text = requiredString(o, "type", path) {
            kind = EffectOption.Kind(rawValue: text)
            if kind == nil { problem("\(path).type", "expected number, point, rect, color or choice") }
        }
        let help = requiredString(o, "help", path) ?? ""
        var range = EffectOption.Range.any
        if let raw = o["range"] {
            if let text = raw as? String, let r = EffectOption.Range(rawValue: text) { range = r } else {
                problem("\(path).range", "expected one of \(EffectOption.Range.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        var choices: [EffectOption.Choice] = []
        if kind == .choice {
            if let list = o["choices"] as? [String: Any], list.count > Limits.maxEffectChoices {
                problem("\(path).choices", "more than \(Limits.maxEffectChoices) choices")
            } else if let list = o["choices"] as? [String: Any], !list.isEmpty {
                var keys: Set<String>?
                for choiceName in list.keys.sorted() {
                    let p = "\(path).choices.\(choiceName)"
                    guard let constants = list[choiceName] as? [String: Any],
                          case let values = constants.compactMapValues(JSONNumber.value), values.count == constants.count else {
                        problem(p, "expected an object of numbers: {\"dx\": 1, \"dy\": 0}"); continue
                    }
                    if let keys, keys != Set(values.keys) { problem(p, "every choice needs the same constants (\(keys.sorted().joined(separator: ", ")))") }
                    keys = Set(values.keys)
                    for key in values.keys where key.range(of: "^[a-zA-Z_][a-zA-Z0-9_]*$", options: .regularExpression) == nil {
                        problem("\(p).\(key)", "not a name expressions can use")
                    }
                    choices.append(EffectOption.Choice(name: choiceName, constants: values))
                }
                // The order the file gives cannot be read back from JSON objects: list them as the file's
                // `placeholder` does when it has one.
            } else {
                problem("\(path).choices", "a choice option needs \"choices\": {\"left\": {\"dx\": -1}, ...}")
            }
        } else if o["choices"] != nil {
            problem("\(path).choices", "only a choice option has choices")
        }
        if let placeholder = o["placeholder"] as? String, kind == .choice {
            let order = placeholder.split(separator: "|").map(String.init)
            choices.sort { (order.firstIndex(of: $0.name) ?? .max) < (order.firstIndex(of: $1.name) ?? .max) }
        }
        let valueName = (o["placeholder"] as? String)
            ?? (kind == .choice ? choices.map(\.name).joined(separator: "|") : ["point": "x,y", "rect": "x,y,w,h", "color": "RRGGBB"][kind?.rawValue ?? ""] ?? "v")
        func value(_ key: String) -> OptionValue? {
            guard let raw = o[key], let kind else { return nil }
            let v: OptionValue? = kind == .choice
                ? (raw as? String).flatMap { s in choices.contains { $0.name == s } ? .choice(s) : nil }
                : OptionValue(json: raw, kind: kind)
            if v == nil { problem("\(path).\(key)", "expected \(kind == .choice ? "one of the choices" : OptionValue.jsonForm(kind))") }
            return v
        }
        var defaultValue = EffectOption.Default.required
        let given = ["default", "computed", "required"].filter { o[$0] != nil }
        if given.count != 1 {
            problem(path, "give exactly one of \"default\" (a value), \"computed\" (an expression) and \"required\": true")
        } else if let v = value("default") {
            defaultValue = .value(v)
        } else if let text = o["computed"] {
            if let text = text as? String, let kind {
                do {
                    let (expression, arity) = try scope.parse(text)
                    if arity != kind.arity { problem("\(path).computed", "gives \(arity) numbers; a \(kind.rawValue) has \(kind.arity)") }
                    defaultValue = .computed(expression, text: (o["says"] as? String) ?? text)
                } catch { problem("\(path).computed", "\(error)") }
            } else {
                problem("\(path).computed", "expected an expression")
            }
        } else if o["required"] != nil, (o["required"] as? Bool) != true {
            problem("\(path).required", "expected true")
        }
        if case let .value(v) = defaultValue, let kind {
            let option = EffectOption(name: name ?? "", kind: kind, valueName: valueName, help: help, defaultValue: .required,
                                      range: range, choices: choices)
            // A height default above the frame is lowered to it, so only its sign is checked here.
            do { try option.check(v, frame: Size(.infinity, .infinity)) } catch { problem("\(path).default", "\(error)") }
        }
        let example = value("example")
        var repeatable = false
        if let r = o["repeatable"] {
            if let b = r as? Bool { repeatable = b } else { problem("\(path).repeatable", "expected true or false") }
        }
        guard problems.count == before, let name, let kind else { return nil }
        return EffectOption(name: name, kind: kind, valueName: valueName, help: help, defaultValue: defaultValue,
                            range: range, note: o["note"] as? String, example: example, choices: choices, repeatable: repeatable)
    }

    // MARK: Programs

    mutating func program(_ object: [String: Any], _ path: String, scope base: ExpressionScope,
                          options: [EffectOption]) -> EffectDefinition.Program? {
        let before = problems.count
        var scope = base
        var lets: [(slot: Int, value: EffectExpression)] = []
        if let raw = object["let"] {
            if let named = raw as? [String: Any], named.count > Limits.maxEffectNames {
                problem("\(path).let", "more than \(Limits.maxEffectNames) named values")
            } else if let named = raw as? [String: Any] {
                // Each value may use others, in any order the file lists them: each is parsed once, after the
                // values it uses.
                var keys: [String] = []
                for key in named.keys.sorted() {
                    guard key.range(of: "^[a-zA-Z_][a-zA-Z0-9_]*$", options: .regularExpression) != nil, scope.lookup(key) == nil else {
                        problem("\(path).let.\(key)", "'\(key)' cannot be named here (not a name, or one already taken)")
                        continue
                    }
                    keys.append(key)
                }
                let known = Set(keys)
                let uses = Dictionary(uniqueKeysWithValues: keys.map { key in (key, Self.names(in: named[key]!).filter(known.contains).sorted()) })
                let (order, cycles) = Self.dependencyOrder(keys, uses: uses)
                for cycle in cycles {
                    problem("\(path).let.\(cycle[0])", "named values in a cycle, each using the next: \((cycle + [cycle[0]]).joined(separator: " -> "))")
                }
                var failed: Set<String> = []
                for key in order {
                    // A value using one that failed is not read: that one's problem is the one to fix.
                    guard uses[key]!.allSatisfy({ !failed.contains($0) }) else { failed.insert(key); continue }
                    do {
                        let (expression, arity) = try parseValue(named[key]!, scope: scope)
                        lets.append((scope.declare(key, arity: arity), expression))
                    } catch {
                        problem("\(path).let.\(key)", error.description)
                        failed.insert(key)
                    }
                }
            } else {
                problem("\(path).let", "expected an object of named values: {\"k\": \"lerp(zoom, 1, e)\"}")
            }
        }
        var perspective: EffectExpression?
        if let raw = object["perspective"] {
            perspective = expression(raw, "\(path).perspective", scope: scope, arity: [1])
        }
        var layers: [EffectDefinition.LayerProgram] = []
        if let list = object["layers"] as? [Any], !list.isEmpty, list.count <= Limits.maxEffectLayers {
            for (k, item) in list.enumerated() {
                if let layer = layer(item, "\(path).layers[\(k)]", scope: scope, options: options) { layers.append(layer) }
            }
        } else {
            problem("\(path).layers", "expected a list of 1 to \(Limits.maxEffectLayers) layers, bottom to top")
        }
        guard problems.count == before else { return nil }
        return EffectDefinition.Program(lets: lets, perspective: perspective, layers: layers, slotCount: scope.slotCount)
    }

    /// The names a value of the file (as `parseValue` reads it) may look up.
    static func names(in raw: Any, depth: Int = 0) -> Set<String> {
        guard depth < 8 else { return [] }
        switch raw {
        case let text as String:
            return ExpressionScope.names(in: text)
        case let list as [Any]:
            return list.reduce(into: []) { $0.formUnion(names(in: $1, depth: depth + 1)) }
        case let o as [String: Any]:
            var found = o["over"].map { names(in: $0, depth: depth + 1) } ?? []
            for case let frame as [String: Any] in o["keyframes"] as? [Any] ?? [] {
                if let value = frame["value"] { found.formUnion(names(in: value, depth: depth + 1)) }
            }
            return found
        default:
            return []
        }
    }

    /// `keys` ordered so that each comes after every key it `uses`, by one depth-first walk; and the cycles
    /// found, each as its keys in the order they use one another. A key in a cycle, or using one, is left out.
    /// Each key is named in one cycle at most: keys that all use one another make as many cycles as they
    /// have uses, and the first through each key is enough to say what is wrong.
    static func dependencyOrder(_ keys: [String], uses: [String: [String]]) -> (order: [String], cycles: [[String]]) {
        enum Mark: Equatable { case open(depth: Int), done, blocked }
        var mark: [String: Mark] = [:]
        var order: [String] = [], cycles: [[String]] = []
        var named: Set<String> = []
        for root in keys where mark[root] == nil {
            // The keys being walked, each with the index of the next key it uses to visit.
            var stack: [(key: String, next: Int)] = [(root, 0)]
            mark[root] = .open(depth: 0)
            while let (key, next) = stack.last {
                let used = uses[key] ?? []
                if next < used.count {
                    stack[stack.count - 1].next += 1
                    switch mark[used[next]] {
                    case nil:
                        mark[used[next]] = .open(depth: stack.count)
                        stack.append((used[next], 0))
                    case let .open(depth) where !named.contains(key) && !named.contains(used[next]):
                        // A key being walked: the keys from it to here use one another.
                        let cycle = stack[depth...].map(\.key)
                        cycles.append(cycle)
                        named.formUnion(cycle)
                    default:
                        break
                    }
                } else {
                    stack.removeLast()
                    // A key using one still being walked is in a cycle with it.
                    if used.contains(where: { if case .open = mark[$0] { true } else { mark[$0] == .blocked } }) {
                        mark[key] = .blocked
                    } else {
                        mark[key] = .done
                        order.append(key)
                    }
                }
            }
        }
        return (order, cycles)
    }

    mutating func layer(_ raw: Any, _ path: String, scope: ExpressionScope, options: [EffectOption]) -> EffectDefinition.LayerProgram? {
        guard let o = raw as? [String: Any] else { problem(path, "expected a layer object"); return nil }
        let before = problems.count
        unknownKeys(o, path, allowed: ["comment", "content", "frame", "bounds", "position", "anchor", "transform", "opacity",
                              "mask", "overlay", "shadow", "doubleSided", "visible", "repeat"])
        func value(_ key: String, _ arity: Set<Int>) -> EffectExpression? {
            o[key].flatMap { expression($0, "\(path).\(key)", scope: scope, arity: arity) }
        }
        var content = EffectDefinition.LayerProgram.Content.color(.constant([0, 0, 0, 0]))
        switch o["content"] {
        case let name as String:
            if let id = snapshot(name) { content = .snapshot(id, rect: nil) } else {
                problem("\(path).content", "expected \"from\", \"to\" or an object ({\"snapshot\": ...}, {\"color\": ...}, {\"gradient\": ...})")
            }
        case let c as [String: Any]:
            let p = "\(path).content"
            if let name = c["snapshot"] {
                unknownKeys(c, p, allowed: ["snapshot", "rect"])
                let rect = c["rect"].flatMap { expression($0, "\(p).rect", scope: scope, arity: [4]) }
                if let name = name as? String, let id = snapshot(name) { content = .snapshot(id, rect: rect) } else {
                    problem("\(p).snapshot", "expected \"from\" or \"to\"")
                }
            } else if let colour = c["color"] {
                unknownKeys(c, p, allowed: ["color"])
                if let e = expression(colour, "\(p).color", scope: scope, arity: [4]) { content = .color(e) }
            } else if let g = c["gradient"] as? [String: Any] {
                unknownKeys(c, p, allowed: ["gradient"])
                unknownKeys(g, "\(p).gradient", allowed: ["start", "end", "from", "to"])
                let parts = [("start", 2), ("end", 2), ("from", 4), ("to", 4)].map { key, arity in
                    g[key].flatMap { expression($0, "\(p).gradient.\(key)", scope: scope, arity: [arity]) }
                }
                if parts.allSatisfy({ $0 != nil }) {
                    content = .gradient(start: parts[0]!, end: parts[1]!, from: parts[2]!, to: parts[3]!)
                } else {
                    problem("\(p).gradient", "expected {\"start\": [u, v], \"end\": [u, v], \"from\": colour, \"to\": colour}")
                }
            } else {
                problem(p, "expected {\"snapshot\": \"from\"|\"to\", \"rect\": ...}, {\"color\": ...} or {\"gradient\": ...}")
            }
        default:
            problem("\(path).content", "missing: \"from\", \"to\" or an object")
        }

        var transform: [EffectDefinition.LayerProgram.Operation] = []
        if let raw = o["transform"] {
            if let list = raw as? [Any], list.count > Limits.maxEffectOperations {
                problem("\(path).transform", "more than \(Limits.maxEffectOperations) operations")
            } else if let list = raw as? [Any] {
                for (k, item) in list.enumerated() {
                    let p = "\(path).transform[\(k)]"
                    guard let op = item as? [String: Any], op.count == 1, let (key, v) = op.first else {
                        problem(p, "expected one operation: {\"translate\": [x, y]}, {\"scale\": k}, {\"rotateY\": angle}, ...")
                        continue
                    }
                    switch key {
                    case "translate": expression(v, "\(p).translate", scope: scope, arity: [2, 3]).map { transform.append(.translate($0)) }
                    case "scale": expression(v, "\(p).scale", scope: scope, arity: [1, 2, 3]).map { transform.append(.scale($0)) }
                    case "rotateX": expression(v, "\(p).rotateX", scope: scope, arity: [1]).map { transform.append(.rotateX($0)) }
                    case "rotateY": expression(v, "\(p).rotateY", scope: scope, arity: [1]).map { transform.append(.rotateY($0)) }
                    case "rotate", "rotateZ": expression(v, "\(p).\(key)", scope: scope, arity: [1]).map { transform.append(.rotateZ($0)) }
                    default: problem("\(p).\(key)", "unknown operation (translate, scale, rotate, rotateX, rotateY, rotateZ)")
                    }
                }
            } else {
                problem("\(path).transform", "expected a list of operations, applied in order")
            }
        }

        var mask: EffectDefinition.LayerProgram.MaskProgram?
        if let raw = o["mask"] {
            let p = "\(path).mask"
            switch shape(raw, p, scope: scope, corner: true) {
            case let .shape(.circle(center, radius), _):
                mask = .circle(center: center, radius: radius)
            case let .shape(.rect(r, radius), continuous):
                mask = .rect(r, radius: radius, continuous: continuous)
            case .problems:
                break
            case .neither:
                if let m = raw as? [String: Any], let sector = m["sector"] as? [String: Any] {
                    unknownKeys(m, p, allowed: ["sector"]); unknownKeys(sector, "\(p).sector", allowed: ["center", "start", "sweep"])
                    if let c = required(sector, "center", "\(p).sector", scope, [2]), let a = required(sector, "start", "\(p).sector", scope, [1]),
                       let s = required(sector, "sweep", "\(p).sector", scope, [1]) {
                        mask = .sector(center: c, start: a, sweep: s)
                    }
                } else {
                    problem(p, "expected {\"circle\": {\"center\", \"radius\"}}, {\"rect\": [x, y, w, h], \"radius\": r, \"corner\": \"continuous\"} or {\"sector\": {\"center\", \"start\", \"sweep\"}}")
                }
            }
        }

        var overlay: EffectDefinition.LayerProgram.OverlayProgram?
        if let raw = o["overlay"] {
            let p = "\(path).overlay"
            if let g = raw as? [String: Any] {
                unknownKeys(g, p, allowed: ["start", "end", "from", "to", "opacity"])
                let parts = [("start", 2), ("end", 2), ("from", 4), ("to", 4)].map { key, arity in required(g, key, p, scope, [arity]) }
                if parts.allSatisfy({ $0 != nil }) {
                    overlay = .init(start: parts[0]!, end: parts[1]!, from: parts[2]!, to: parts[3]!,
                                    opacity: g["opacity"].flatMap { expression($0, "\(p).opacity", scope: scope, arity: [1]) })
                }
            } else {
                problem(p, "expected {\"start\": [u, v], \"end\": [u, v], \"from\": colour, \"to\": colour, \"opacity\": a}")
            }
            if case .gradient = content { problem(p, "a gradient layer has no overlay: draw a second layer over it") }
        }

        var shadow: EffectDefinition.LayerProgram.ShadowProgram?
        if let raw = o["shadow"] {
            let p = "\(path).shadow"
            if let c = raw as? [String: Any] {
                unknownKeys(c, p, allowed: ["comment", "color", "opacity", "radius", "offset", "path"])
                func part(_ key: String, _ arity: Set<Int>) -> EffectExpression? {
                    c[key].flatMap { expression($0, "\(p).\(key)", scope: scope, arity: arity) }
                }
                var program = EffectDefinition.LayerProgram.ShadowProgram(
                    color: part("color", [4]), opacity: required(c, "opacity", p, scope, [1]), radius: part("radius", [1]),
                    offset: part("offset", [2]))
                if let raw = c["path"] {
                    switch shape(raw, "\(p).path", scope: scope) {
                    case let .shape(shape, _): program.path = shape
                    case .problems: break
                    case .neither: problem("\(p).path", "expected {\"rect\": [x, y, w, h], \"radius\": r} or {\"circle\": {\"center\", \"radius\"}}")
                    }
                }
                shadow = program
            } else {
                problem(p, "expected {\"opacity\": a, \"radius\": r, \"offset\": [dx, dy], \"color\": colour, \"path\": ...}")
            }
        }

        var doubleSided = true
        if let raw = o["doubleSided"] {
            if let b = raw as? Bool { doubleSided = b } else { problem("\(path).doubleSided", "expected true or false") }
        }
        var repeatOver: String?
        if let raw = o["repeat"] {
            if let name = raw as? String, options.contains(where: { $0.name == name && $0.repeatable }) { repeatOver = name } else {
                problem("\(path).repeat", "expected the name of a repeatable option (\(options.filter(\.repeatable).map(\.name).joined(separator: ", ")))")
            }
        }
        let layer = EffectDefinition.LayerProgram(
            content: content, frame: value("frame", [4]), bounds: value("bounds", [2]), position: value("position", [2]),
            anchor: value("anchor", [2]), transform: transform, opacity: value("opacity", [1]), mask: mask, overlay: overlay,
            shadow: shadow, doubleSided: doubleSided, visible: value("visible", [1]), repeatOver: repeatOver)
        return problems.count == before ? layer : nil
    }

    /// What `shape` read.
    enum ShapeReading {
        /// A circle or a rounded rectangle; `continuous`: its corners are iOS's continuous curve (a mask's
        /// `"corner": "continuous"`), not circular arcs.
        case shape(EffectDefinition.LayerProgram.Shape, continuous: Bool)
        /// A circle or a rectangle with problems, each reported.
        case problems
        /// Neither a circle nor a rectangle: the caller says what it expected (a mask may be a sector too).
        case neither
    }

    /// The shapes a mask and a shadow's path share, read once for both: `{"circle": {"center": [x, y],
    /// "radius": r}}`, or `{"rect": [x, y, w, h], "radius": r}` and, where `corner` allows it (a mask),
    /// `"corner": "circular"` or `"continuous"`.
    mutating func shape(_ raw: Any, _ path: String, scope: ExpressionScope, corner: Bool = false) -> ShapeReading {
        guard let m = raw as? [String: Any] else { return .neither }
        let before = problems.count
        if let circle = m["circle"] as? [String: Any] {
            unknownKeys(m, path, allowed: ["circle"]); unknownKeys(circle, "\(path).circle", allowed: ["center", "radius"])
            if let center = required(circle, "center", "\(path).circle", scope, [2]),
               let radius = required(circle, "radius", "\(path).circle", scope, [1]), problems.count == before {
                return .shape(.circle(center: center, radius: radius), continuous: false)
            }
            return .problems
        }
        guard let rect = m["rect"] else { return .neither }
        unknownKeys(m, path, allowed: corner ? ["rect", "radius", "corner"] : ["rect", "radius"])
        var continuous = false
        if corner, let raw = m["corner"] {
            switch raw as? String {
            case "continuous": continuous = true
            case "circular": continuous = false
            default: problem("\(path).corner", "expected \"circular\" (the default) or \"continuous\" (iOS's continuous corner curve)")
            }
        }
        guard let r = expression(rect, "\(path).rect", scope: scope, arity: [4]) else { return .problems }
        let radius = m["radius"].flatMap { expression($0, "\(path).radius", scope: scope, arity: [1]) }
        return problems.count == before ? .shape(.rect(r, radius: radius), continuous: continuous) : .problems
    }

    func snapshot(_ name: String) -> SnapshotID? { ["from": .from, "to": .to][name] }

    mutating func required(_ o: [String: Any], _ key: String, _ path: String, _ scope: ExpressionScope, _ arity: Set<Int>) -> EffectExpression? {
        guard let raw = o[key] else { problem(path, "missing \"\(key)\""); return nil }
        return expression(raw, "\(path).\(key)", scope: scope, arity: arity)
    }

    // MARK: Values

    /// A value: a number, an expression, a list of values `[x, "W / 2"]`, or `{"keyframes": [...], "over": "e"}`;
    /// its arity must be one of `arity`.
    mutating func expression(_ raw: Any, _ path: String, scope: ExpressionScope, arity: Set<Int>) -> EffectExpression? {
        do {
            let (e, n) = try parseValue(raw, scope: scope)
            guard arity.contains(n) else {
                let wanted = arity.sorted().map(String.init).joined(separator: " or ")
                problem(path, "gives \(n) number\(n == 1 ? "" : "s"); expected \(wanted)")
                return nil
            }
            return e
        } catch {
            problem(path, error.description)
            return nil
        }
    }

    func parseValue(_ raw: Any, scope: ExpressionScope, depth: Int = 0) throws(ExpressionError) -> (EffectExpression, Int) {
        guard depth < 8 else { throw ExpressionError("values nested too deep") }
        if let n = JSONNumber.value(raw) {
            guard n.isFinite else { throw ExpressionError("not a finite number") }
            return (.constant([n]), 1)
        }
        if let text = raw as? String { return try scope.parse(text) }
        if let list = raw as? [Any] {
            guard !list.isEmpty else { throw ExpressionError("an empty list") }
            var items: [(EffectExpression, Int)] = []
            for item in list { items.append(try parseValue(item, scope: scope, depth: depth + 1)) }
            let n = items.reduce(0) { $0 + $1.1 }
            guard n <= 4 else { throw ExpressionError("a list holds at most 4 numbers, not \(n)") }
            let constants = items.compactMap { item -> Vector? in
                if case let .constant(v) = item.0 { return v }
                return nil
            }
            if constants.count == items.count { return (.constant(constants.flatMap { $0 }), n) }
            return (.list(items.map(\.0)), n)
        }
        if let o = raw as? [String: Any], let frames = o["keyframes"] as? [Any] {
            for key in o.keys where !["keyframes", "over", "comment"].contains(key) {
                throw ExpressionError("unknown key '\(key)' in keyframes (keyframes, over)")
            }
            var over: EffectExpression = .slot(scope.lookup("e")!.slot)
            if let text = o["over"] {
                let (e, n) = try parseValue(text, scope: scope, depth: depth + 1)
                guard n == 1 else { throw ExpressionError("keyframes run over a number, not \(n) numbers") }
                over = e
            }
            guard (1...64).contains(frames.count) else { throw ExpressionError("expected 1 to 64 keyframes") }
            var times: [Double] = [], values: [EffectExpression] = [], curves: [TimingCurve?] = [], arity: Int?
            for (k, raw) in frames.enumerated() {
                guard let frame = raw as? [String: Any], let at = frame["at"].flatMap(JSONNumber.value), at.isFinite, let v = frame["value"] else {
                    throw ExpressionError("keyframe \(k): expected {\"at\": x, \"value\": v, \"curve\": c}")
                }
                for key in frame.keys where !["at", "value", "curve", "comment"].contains(key) {
                    throw ExpressionError("keyframe \(k): unknown key '\(key)' (at, value, curve)")
                }
                guard times.last.map({ at > $0 }) ?? true else { throw ExpressionError("keyframe \(k): \"at\" must increase") }
                let (e, n) = try parseValue(v, scope: scope, depth: depth + 1)
                guard arity == nil || arity == n else { throw ExpressionError("keyframe \(k): \(n) numbers, the others have \(arity!)") }
                arity = n
                var curve: TimingCurve?
                if let c = frame["curve"] {
                    guard let text = c as? String, let parsed = try? TimingCurve(parsing: text) else {
                        throw ExpressionError("keyframe \(k): \"curve\" is not a timing curve")
                    }
                    curve = parsed
                }
                times.append(at); values.append(e); curves.append(curve)
            }
            return (.keyframes(over: over, times: times, values: values, curves: curves), arity!)
        }
        throw ExpressionError("expected a number, an expression, a list of them or {\"keyframes\": [...]}")
    }

    mutating func requiredString(_ o: [String: Any], _ key: String, _ path: String) -> String? {
        guard let raw = o[key] else { problem(path, "missing \"\(key)\""); return nil }
        guard let s = raw as? String, !s.isEmpty else { problem("\(path).\(key)", "expected a non-empty string"); return nil }
        return s
    }
}
