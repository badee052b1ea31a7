import Foundation
import Testing
@testable import SegueCore

/// Effect files: expressions, the reader's problems at their JSON paths, and a user's file drawing exactly
/// what a built-in draws.
@Suite struct EffectFileTests {
    let frame = Size(375, 667)

    /// The bytes of a built-in file, with `edit` applied to its text.
    func builtIn(_ name: String, _ edit: (String) -> String = { $0 }) throws -> Data {
        let file = try #require(EffectCatalog.files.first { $0.name == name })
        return Data(edit(String(decoding: file.bytes, as: UTF8.self)).utf8)
    }

    func evaluate(_ text: String, _ names: [String: Vector] = [:]) throws -> Vector {
        var scope = ExpressionScope()
        var slots: [(Int, Vector)] = []
        for (name, value) in names.sorted(by: { $0.key < $1.key }) { slots.append((scope.declare(name, arity: value.count), value)) }
        let (expression, arity) = try scope.parse(text)
        var s = Slots(count: scope.slotCount, frame: Size(375, 667), scale: 2, duration: 1)
        for (slot, value) in slots { s[slot] = value }
        let v = expression.evaluate(s)
        #expect(v.count == arity, "\(text): arity \(arity), value \(v)")
        return v
    }

    func problem(_ text: String, _ names: [String: Int] = [:]) -> String? {
        var scope = ExpressionScope()
        for (name, arity) in names { scope.declare(name, arity: arity) }
        do { _ = try scope.parse(text); return nil } catch { return error.message }
    }

    @Test func expressionsFollowPrecedenceAndWorkOnLists() throws {
        #expect(try evaluate("1 + 2 * 3 - 4 / 2") == [5])
        #expect(try evaluate("-2 * -3") == [6])
        #expect(try evaluate("(1 + 2) * 3") == [9])
        #expect(try evaluate("1 < 2 && 3 >= 3 || 0") == [1])
        #expect(try evaluate("forward ? 10 : -10", ["forward": [0]]) == [-10])
        #expect(try evaluate("lerp([0, 10], [10, 30], 0.5)") == [5, 20])
        #expect(try evaluate("r.center", ["r": [10, 20, 30, 40]]) == [25, 40])
        #expect(try evaluate("r.size * 2", ["r": [10, 20, 30, 40]]) == [60, 80])
        #expect(try evaluate("[0, 0, r.size]", ["r": [10, 20, 30, 40]]) == [0, 0, 30, 40])
        #expect(try evaluate("#FF000080.a") == [128.0 / 255])
        #expect(try evaluate("R([110, 150])") == [(265.0 * 265 + 517 * 517).squareRoot()])
        // snap: to a whole device pixel at scale 2.
        #expect(try evaluate("snap(187.3)") == [187.5])
        #expect(try evaluate("clamp(1.5, 0, 1) + max(1, 2, 3) + min(4, 5)") == [1 + 3 + 4])
        #expect(try evaluate("rad(180)") == [.pi])
        #expect(try evaluate("1e-3 * 2") == [0.002])
    }

    @Test func badExpressionsSayWhatIsWrong() {
        #expect(problem("zom * 2", ["zoom": 1])?.hasPrefix("unknown name 'zom' (names here: zoom") == true)
        #expect(problem("p + r", ["p": 2, "r": 4]) == "'+' between values of 2 and 4 numbers")
        #expect(problem("lerp(1, 2)") == "lerp() takes (a, b, k): two values of one size and a number")
        #expect(problem("p.w", ["p": 2]) == "'.w' does not apply to a value of 2 numbers")
        #expect(problem("1 +") == "the expression ends too soon")
        #expect(problem("(1 + 2") == "expected ')' to close '(' at column 7")
        #expect(problem("frobnicate(1)")?.hasPrefix("unknown function 'frobnicate'") == true)
        #expect(problem(String(repeating: "(", count: 500) + "1" + String(repeating: ")", count: 500)) == "expression nested deeper than 64")
        #expect(problem(String(repeating: "-", count: 500) + "1") == "expression nested deeper than 64")
        #expect(problem("") == "empty expression")
        #expect(problem("1 ? [1, 2] : 3") == "the two sides of '? :' differ in size (2 and 1 numbers)")
    }

    @Test func keyframesHoldOutsideAndEaseEachSegment() throws {
        var scope = ExpressionScope()
        let e = scope.declare("e", arity: 1)
        var reader = EffectFileReaderProbe()
        let json: [String: Any] = ["keyframes": [["at": 0.25, "value": 10], ["at": 0.5, "value": 20, "curve": "ease-in"], ["at": 1, "value": 40]]]
        let expression = try reader.parse(json, scope: scope)
        func at(_ x: Double) -> Double {
            var s = Slots(count: scope.slotCount, frame: frame, scale: 1, duration: 1)
            s[e] = [x]
            return expression.evaluate(s)[0]
        }
        #expect(at(0) == 10 && at(0.25) == 10)
        #expect(at(0.375) == 15)
        #expect(at(0.5) == 20)
        #expect(at(0.75) == 20 + 20 * TimingCurve.easeIn.value(at: 0.5, duration: 0.5))
        #expect(at(1) == 40 && at(1.2) == 40)
    }

    /// Every problem of a file at its JSON path, together, before anything renders.
    @Test func problemsAreReportedAtTheirPaths() throws {
        let data = try builtIn("door.json") {
            $0.replacingOccurrences(of: "\"-e * half\"", with: "\"-e * hlaf\"")
                .replacingOccurrences(of: "\"range\": \"positive\"", with: "\"range\": \"sideways\"")
                .replacingOccurrences(of: "\"curve\": \"ease-out\"", with: "\"curve\": \"ease-sideways\", \"colour\": 1")
        }
        do {
            _ = try Effect(json: data, file: "mine.json")
            Issue.record("a file with problems was read")
        } catch {
            let paths = error.problems.map(\.path)
            #expect(paths.contains("$.colour"))
            #expect(paths.contains("$.curve"))
            #expect(paths.contains("$.options[0].range"))
            #expect(paths.contains("$.layers[1].transform[0].translate"))
            #expect(error.description.contains("mine.json: $.layers[1].transform[0].translate: unknown name 'hlaf'"))
        }
        #expect(throws: EffectFileError.self) { try Effect(json: Data("[1, 2]".utf8), file: "x") }
        #expect(throws: EffectFileError.self) { try Effect(json: Data(repeating: 0x20, count: Effect.maxFileBytes + 1), file: "x") }
        // Named values that need each other cannot be worked out.
        let cycle = try builtIn("door.json") { $0.replacingOccurrences(of: "\"let\": {\"half\": \"snap(W / 2)\"}", with: "\"let\": {\"half\": \"other\", \"other\": \"half\"}") }
        #expect(throws: EffectFileError.self) { try Effect(json: cycle, file: "x") }
        // Bounds on the work a hostile file can ask for: 2,000 named values that each need the next would take
        // millions of passes; they are refused by count before any is read.
        let names = (0..<2000).map { "\"v\($0)\": \"v\($0 + 1) + 1\"" }.joined(separator: ", ")
        let many = try builtIn("door.json") { $0.replacingOccurrences(of: "\"let\": {\"half\": \"snap(W / 2)\"}", with: "\"let\": {\(names), \"v2000\": 0, \"half\": \"snap(W / 2)\"}") }
        do {
            _ = try Effect(json: many, file: "x")
            Issue.record("2,001 named values were read")
        } catch {
            #expect(error.problems.first?.message == "more than 256 named values")
            #expect(error.problems.first?.path == "$.let")
        }
    }

    /// An effect file of `let` and `layers` (JSON text), with the fields every file needs.
    func file(let named: String, layers: String = #"[{"content": "from"}]"#, options: String = "[]") -> Data {
        Data("""
            {"name": "mine", "summary": "s", "source": "test", "duration": 1, "curve": "linear", "options": \(options),
             "let": {\(named)}, "layers": \(layers)}
            """.utf8)
    }

    /// 240 named values of about 3.8 KB, each using the next: 0.9 MB, inside every bound, and listed in the
    /// order that let the old reader work out one value per pass (240 passes re-parsing every value left:
    /// 165 s in the issue's release build). Each is now parsed once, after the one it uses.
    @Test func chainedNamedValuesAreReadInOnePass() throws {
        let count = 240
        let padding = String(repeating: " + 0 * W", count: 470)
        // The name used comes last: the old reader parsed all of a value before finding it missing.
        let named = (0..<count).map { k in
            String(format: "\"v%03d\": \"0", k) + padding + (k + 1 < count ? String(format: " + v%03d + 1\"", k + 1) : " + 1\"")
        }.joined(separator: ",\n")
        let data = file(let: named, layers: #"[{"content": "from", "position": ["v000", 0]}]"#)
        #expect(data.count > 900_000 && data.count <= Effect.maxFileBytes)
        var effect: Effect?
        let elapsed = try ContinuousClock().measure { effect = try Effect(json: data, file: "chain.json") }
        let scene = Transition(try #require(effect)).scene(at: 0.5, frame: frame, scale: 1)
        #expect(scene.layers[0].position == Point(Double(count), 0))
        // A sanity bound only: linear reading takes 2-3 s on the 2 shared cores while the suite runs, and five
        // times that under a sanitizer (10.2 s under ASan in a loaded CI run); the old reader took 165 s.
        #if SEGUE_SANITIZED
        let bound = Duration.seconds(60)
        #else
        let bound = Duration.seconds(10)
        #endif
        #expect(elapsed < bound, "read in \(elapsed)")
    }

    /// Named values that use one another in a cycle are reported as a cycle naming each, once; values using
    /// a cycle are not worked out, and the others are read as usual.
    @Test func aCycleOfNamedValuesIsNamed() throws {
        // `r.b` and `f(` are a member and a call, not uses of `b`; `#bcbcbc` and `1e3` hold no names either.
        let data = file(let: #"""
            "a": "b + 1", "b": "[c, r.b].x", "c": "a * 2", "self": "self + 1", "uses": "a + ok", "ok": "W + #bcbcbc.r * 1e3",
            "r": "[0, 0, 1, 1]", "b2": "abs (r.x)"
            """#)
        do {
            _ = try Effect(json: data, file: "x")
            Issue.record("a file with cycles was read")
        } catch {
            #expect(error.problems == [
                JSONProblem("$.let.a", "named values in a cycle, each using the next: a -> b -> c -> a", line: 2, column: 10),
                JSONProblem("$.let.self", "named values in a cycle, each using the next: self -> self", line: 2, column: 57),
            ])
        }
        // 256 values each using every one (65,536 uses): each named in one cycle at most, in a moment.
        let all = (0..<256).map { "v\($0)" }
        let tangle = file(let: all.map { "\"\($0)\": \"\(all.joined(separator: " + "))\"" }.joined(separator: ", "))
        let clock = ContinuousClock(), start = clock.now
        let error = #expect(throws: EffectFileError.self) { try Effect(json: tangle, file: "x") }
        #expect(clock.now - start < .seconds(5))
        let problems = error?.problems ?? []
        #expect(!problems.isEmpty && problems.count <= 256 && problems.allSatisfy { $0.message.hasPrefix("named values in a cycle") })
        #expect(Set(problems.flatMap { $0.message.split(separator: ": ").last!.split(separator: " -> ").map(String.init) }) == Set(all))
        // The same names in no cycle: each reads, whatever the order of the file.
        let fine = file(let: #""a": "b + 1", "b": "[c, r.b].x", "c": "r.w * 2", "r": "[0, 0, 3, 1]""#,
                        layers: #"[{"content": "from", "position": ["a", "b"]}]"#)
        let scene = Transition(try Effect(json: fine, file: "x")).scene(at: 0, frame: frame, scale: 1)
        #expect(scene.layers[0].position == Point(7, 6))
    }

    /// A key given twice in one object is refused at its path (JSON would keep the last, dropping the first
    /// silently), in an effect file and a storyboard alike; the same key in two objects is not.
    @Test func aKeyGivenTwiceIsRefused() throws {
        let json = #"""
            {"name": "mine", "summary": "s", "source": "test", "duration": 1, "curve": "linear",
             "layers": [{"content": "from"}, {"content": "to", "opacity": 1, "opacity": 0.5}],
             "layers": [{"content": "to"}], "layers": [{"content": "to"}]}
            """#
        do {
            _ = try Effect(json: Data(json.utf8), file: "x")
            Issue.record("a file with a key given twice was read")
        } catch {
            #expect(error.problems == [
                // Each at the key given again (the last time).
                JSONProblem("$.layers[1].opacity", "the key 'opacity' is given twice in one object", line: 2, column: 66),
                JSONProblem("$.layers", "the key 'layers' is given twice in one object", line: 3, column: 33),
            ])
        }
        // JSON may come as UTF-16 or UTF-32 (JSONSerialization reads them): its keys are compared as read.
        for encoding in [String.Encoding.utf16LittleEndian, .utf16, .utf32BigEndian] {
            let data = try #require(json.data(using: encoding))
            let error = #expect(throws: EffectFileError.self) { try Effect(json: data, file: "x") }
            #expect(error?.problems.map(\.path) == ["$.layers[1].opacity", "$.layers"], "\(encoding)")
        }
        let board = #"{"fps": 30, "screens": {"a": "sample:home"}, "timeline": [{"hold": "a", "duration": 1, "duration": 2}], "fps": 10}"#
        let parsed = Storyboard.parse(json: Data(board.utf8)) { _ in "" }
        #expect(parsed.problems.map(\.description) == ["$.timeline[0].duration: the key 'duration' is given twice in one object",
                                                        "$.fps: the key 'fps' is given twice in one object"])
        // A file repeating keys in every object is reported by its first few.
        let many = Data(("{\"layers\": [" + Array(repeating: #"{"content": "from", "content": "to"}"#, count: 10_000).joined(separator: ",") + "]}").utf8)
        let repeated = #expect(throws: EffectFileError.self) { try Effect(json: many, file: "x") }
        #expect(repeated?.problems.map(\.path) == (0..<JSONDuplicateKeys.limit).map { "$.layers[\($0)].content" })
        #expect(try Effect(json: file(let: #""a": "W", "b": {"keyframes": [{"at": 0, "value": "a"}, {"at": 1, "value": 2}]}"#), file: "x").name == "mine")
    }

    /// A program reading options of its own beside the effect's reserves their names; the file says which.
    @Test func anOptionMayNotTakeAReservedName() throws {
        let data = file(let: "", options: #"[{"name": "threads", "type": "number", "default": 1, "help": "h"}]"#)
        #expect(try Effect(json: data, file: "x").options.map(\.name) == ["threads"])
        do {
            _ = try Effect(json: data, file: "x", reservedOptionNames: ["threads", "out"])
            Issue.record("a reserved name was taken")
        } catch {
            #expect(error.description == "x: $.options[0].name: 'threads' cannot name an option: the program reading this file reserves that name for itself")
        }
    }

    /// A copy of a built-in under another name draws exactly what the built-in draws.
    @Test(arguments: ["door.json", "page-flip.json", "spin.json", "hero.json"])
    func aCopyDrawsWhatTheBuiltInDraws(_ file: String) throws {
        let original = try #require(EffectCatalog.builtIn.first { "\($0.name).json" == file })
        let copy = try Effect(json: try builtIn(file) { $0.replacingOccurrences(of: "\"name\": \"\(original.name)\"", with: "\"name\": \"mine\"") }, file: "mine.json")
        #expect(copy.name == "mine" && copy != original)
        var options = EffectOptions()
        if original == .hero { options.set("from-rect", Rect(20, 100, 60, 60)); options.set("to-rect", Rect(0, 0, 375, 280)) }
        for direction in Direction.allCases {
            for t in [0, 0.2, 0.5, 0.8, 1] {
                let a = Transition(original, direction: direction, options: options).scene(at: t, frame: frame, scale: 1)
                let b = Transition(copy, direction: direction, options: options).scene(at: t, frame: frame, scale: 1)
                #expect(a == b, "\(file) \(direction) t = \(t)")
            }
        }
    }

    /// Hero's matched pairs: one flying layer per pair, a radius given once serving every pair, and pairs
    /// whose counts disagree refused.
    @Test func heroFliesEveryPair() throws {
        var options = EffectOptions()
        options.set("from-rect", [Rect(10, 10, 40, 40), Rect(100, 10, 40, 40)])
        options.set("to-rect", [Rect(0, 0, 375, 200), Rect(0, 300, 375, 200)])
        options.set("from-radius", 8)
        let t = Transition(.hero, options: options)
        try t.validate(frame: frame)
        let scene = t.scene(at: 0, frame: frame, scale: 1)
        #expect(scene.layers.count == 4)
        #expect(scene.layers[2].content == .snapshot(.from, Rect(10, 10, 40, 40)))
        #expect(scene.layers[3].content == .snapshot(.from, Rect(100, 10, 40, 40)))
        #expect(scene.layers[3].mask == .roundedRect(Rect(0, 0, 40, 40), radius: 8))
        let end = t.scene(at: 1, frame: frame, scale: 1)
        #expect(end.layers[3].position == Point(187.5, 400))
        var odd = options
        odd.set("to-rect", [Rect(0, 0, 375, 200), Rect(0, 300, 375, 200), Rect(0, 0, 5, 5)])
        #expect(throws: SegueError.self) { try Transition(.hero, options: odd).validate(frame: frame) }
    }

    /// Choice options give expressions their named constants.
    @Test func choicesGiveTheirConstants() throws {
        let json = """
            {"name": "slider", "summary": "s", "source": "test", "duration": 1, "curve": "linear",
             "options": [{"name": "edge", "type": "choice", "default": "right", "help": "h",
                          "choices": {"right": {"dx": 1}, "left": {"dx": -1}}}],
             "layers": [{"content": "from"}, {"content": "to", "transform": [{"translate": ["edge.dx * (1 - e) * W", 0]}]}],
             "back": "reverse"}
            """
        let effect = try Effect(json: Data(json.utf8), file: "slider.json")
        let option = try #require(effect.option("edge"))
        #expect(option.parse("up") == nil)
        var options = EffectOptions()
        options.set("edge", choice: "left")
        let scene = Transition(effect, options: options).scene(at: 0.25, frame: frame, scale: 1)
        #expect(scene.layers[1].transform.m41 == -0.75 * 375)
        // Reverse: the snapshots swap and progress runs backwards.
        let back = Transition(effect, direction: .back, options: options).scene(at: 0.25, frame: frame, scale: 1)
        #expect(back.layers[1].content == .snapshot(.from, Rect(0, 0, 375, 667)))
        #expect(back.layers[1].transform.m41 == -0.25 * 375)
    }

    /// The built-in list names every file in the folder, and each reads.
    @Test func everyEffectFileIsListed() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/SegueCore/Effects/Catalog")
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(onDisk == EffectCatalog.fileNames.sorted())
        for effect in EffectCatalog.builtIn { #expect("\(effect.name).json" == EffectCatalog.fileNames[EffectCatalog.builtIn.firstIndex(of: effect)!]) }
    }
}

/// Reads one value of an effect file, as the reader does.
struct EffectFileReaderProbe {
    mutating func parse(_ json: Any, scope: ExpressionScope) throws -> EffectExpression {
        try EffectDefinition.parseValue(json, scope: scope).0
    }
}
