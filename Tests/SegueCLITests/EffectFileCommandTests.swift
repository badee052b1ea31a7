import Foundation
import SegueTestSupport
import Testing
import SegueCore

/// A user's effect file runs wherever a built-in does: `segue render ./FILE.json` with `--set`, and a
/// storyboard's `"effect:FILE.json"`; a bad file is one clear message per problem and status 2, one that cannot be
/// read one line and status 1.
@Suite struct EffectFileCommandTests {
    /// `Sources/SegueCore/Effects/Catalog/door.json` renamed: what a user copies to start their own.
    func doorCopy(in dir: URL, name: String = "my-door", edit: (String) -> String = { $0 }) throws -> String {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/SegueCore/Effects/Catalog/door.json")
        let text = try String(contentsOf: source, encoding: .utf8).replacingOccurrences(of: "\"name\": \"door\"", with: "\"name\": \"\(name)\"")
        return try write(edit(text), "\(name).json", in: dir)
    }

    @Test func aCopyOfDoorRendersWhatDoorRenders() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try doorCopy(in: dir)
        let common = ["--from", "sample:home", "--to", "sample:detail", "--size", "150x267", "--fps", "10", "--quiet", "--backend", "cpu"]
        let mine = try Segue.run(["render", file, "--set", "zoom=0.5", "--out", dir.appendingPathComponent("mine").path] + common)
        let door = try Segue.run(["render", "door", "--zoom", "0.5", "--out", dir.appendingPathComponent("door").path] + common)
        #expect(mine.status == 0 && door.status == 0, "\(mine.stderr) \(door.stderr)")
        let a = try files(dir.appendingPathComponent("mine")), b = try files(dir.appendingPathComponent("door"))
        #expect(a.count == 6 && a == b)
        // Its options are its own: --set and --NAME alike, checked against its declaration.
        let bad = try Segue.run(["render", file, "--set", "zoom=-1", "--progress", "0.5", "--out", dir.appendingPathComponent("x.png").path] + common)
        #expect(bad.status == 2 && bad.stderr.contains("--zoom must be > 0"))
        let stray = try Segue.run(["render", file, "--center", "1,2", "--progress", "0.5", "--out", dir.appendingPathComponent("x.png").path] + common)
        #expect(stray.status == 2 && stray.stderr.contains("--center does not apply to my-door, which takes --zoom"))
    }

    /// Shadows and continuous corners from a user's file with hostile values: infinities and NaNs from the
    /// expressions render (what cannot show is not drawn, on both backends), a shadow of the wrong shape is one
    /// problem at its path and status 2.
    @Test func hostileShadowsRenderAndBadOnesAreNamed() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for backend in ["cpu", "gles"] {
            for (k, (radius, offset, opacity)) in [("1 / 0", "[0, 3]", "0.5"), ("0 / 0", "[0, 0]", "0.5"), ("99999999 * 99999999 * 99999999", "[\"99999999 * 99999999 * 99999999\", 0]", "e * 99999999"),
                                                    ("5", "[\"0 / 0\", 1]", "0 / 0"), ("-3", "[\"-1 / 0\", \"1 / 0\"]", "-1")].enumerated() {
                let file = try doorCopy(in: dir, name: "shadowed\(k)") {
                    $0.replacingOccurrences(of: "\"content\": {\"snapshot\": \"from\", \"rect\": [0, 0, \"half\", \"H\"]}",
                                            with: "\"content\": {\"snapshot\": \"from\", \"rect\": [0, 0, \"half\", \"H\"]}, \"mask\": {\"rect\": [0, 0, \"half\", \"H\"], \"radius\": \"\(radius)\", \"corner\": \"continuous\"}, \"shadow\": {\"opacity\": \"\(opacity)\", \"radius\": \"\(radius)\", \"offset\": \(offset)}")
                }
                #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\"shadow\""), "the edit must reach the file")
                let out = dir.appendingPathComponent("s\(k)-\(backend).png").path
                let r = try Segue.run(["render", file, "--from", "sample:home", "--to", "sample:detail", "--size", "150x267",
                                       "--progress", "0.5", "--backend", backend, "--out", out])
                if backend == "gles" && r.stderr.contains("GLES") && r.status != 0 { continue }  // no GLES here
                #expect(r.status == 0 && FileManager.default.fileExists(atPath: out), "\(backend) radius \(radius): \(r.stderr)")
            }
        }
        let bad = try doorCopy(in: dir, name: "badshadow") {
            $0.replacingOccurrences(of: "\"content\": {\"snapshot\": \"from\", \"rect\": [0, 0, \"half\", \"H\"]}",
                                    with: "\"content\": {\"snapshot\": \"from\", \"rect\": [0, 0, \"half\", \"H\"]}, \"shadow\": {\"radius\": [1, 2]}")
        }
        let r = try Segue.run(["render", bad, "--from", "sample:home", "--to", "sample:detail", "--progress", "0.5", "--out", dir.appendingPathComponent("bad.png").path])
        #expect(r.status == 2 && r.stderr.contains("$.layers[1].shadow.radius: gives 2 numbers; expected 1"), "\(r.stderr)")
        #expect(r.stderr.contains("$.layers[1].shadow: missing \"opacity\""), "\(r.stderr)")
    }

    @Test func aBadFileNamesEachProblemAtItsPathAndWritesNothing() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try doorCopy(in: dir, name: "broken") {
            $0.replacingOccurrences(of: "\"-e * half\"", with: "\"-e * halff\"").replacingOccurrences(of: "\"duration\": 0.5", with: "\"duration\": -1")
        }
        let out = dir.appendingPathComponent("out")
        let r = try Segue.run(["render", file, "--from", "sample:home", "--to", "sample:detail", "--out", out.path, "--quiet"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("broken.json: $.layers[1].transform[0].translate: unknown name 'halff'"))
        #expect(r.stderr.contains("broken.json: $.duration: expected seconds in (0, 3600]"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
        // Not JSON: one line, status 2. Missing, a directory or too large: one line, status 1, as for an image.
        let garbage = try write(String(repeating: "{", count: 100_000), "garbage.json", in: dir)
        let huge = try write(String(repeating: " ", count: Effect.maxFileBytes + 1), "huge.json", in: dir)
        let missing = dir.appendingPathComponent("missing.json").path
        for (path, status, says) in [(garbage, Int32(2), "garbage.json: $: not valid JSON"),
                                     (missing, 1, "cannot read the effect file '\(missing)': no such file"),
                                     (dir.path + "/", 1, "cannot read the effect file '\(dir.path)/': is a directory"),
                                     (huge, 1, "the effect file '\(huge)' is larger than \(Effect.maxFileBytes) bytes")] {
            let r = try Segue.run(["render", path, "--from", "sample:home", "--to", "sample:detail", "--progress", "0.5", "--out", out.path + ".png"])
            #expect(r.status == status, "\(path): \(r.stderr)")
            #expect(r.stderr.hasPrefix("segue: error: ") && r.stderr.contains(says), "\(path): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1 && !r.stderr.contains("Fatal"), "\(path): \(r.stderr)")
        }
        let unknown = try Segue.run(["render", "dorr", "--from", "sample:home", "--to", "sample:detail", "--progress", "0.5", "--out", out.path + ".png"])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown effect 'dorr'"))
    }

    /// Every long name `segue render` parses itself, as its argument parser describes them: an option of an
    /// effect file named so could never be given (the flag would win: `--version 0.9` printed the version), so
    /// the file is refused, one line naming the option, wherever it is read; no built-in takes such a name.
    @Test func effectOptionsMayNotTakeTheCommandLinesNames() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        struct ToolInfo: Decodable {
            struct Command: Decodable { var arguments: [Argument]? }
            struct Argument: Decodable { var names: [Name]? }
            struct Name: Decodable { var kind: String; var name: String }
            var command: Command
        }
        let dump = try Segue.run(["render", "--experimental-dump-help"])
        let info = try JSONDecoder().decode(ToolInfo.self, from: dump.stdout)
        let names = (info.command.arguments ?? []).flatMap { $0.names ?? [] }.filter { $0.kind == "long" }.map(\.name)
        #expect(names.count >= 30 && names.contains("threads") && names.contains("version") && names.contains("help"), "\(names)")
        // Beside them: the parser's hidden built-ins, and the effect arguments' own --set.
        for name in names + ["help-hidden", "experimental-dump-help", "generate-completion-script", "set"] {
            let file = try write("""
                {"name": "mine", "summary": "s", "source": "test", "duration": 1, "curve": "linear",
                 "options": [{"name": "\(name)", "type": "number", "default": 1, "help": "h"}], "layers": [{"content": "from"}]}
                """, "mine.json", in: dir)
            let r = try Segue.run(["effects", file])
            #expect(r.status == 2 && r.stdout.isEmpty, "\(name): \(r.stderr)")
            #expect(r.stderr == "segue: error: \(file): $.options[0].name: '\(name)' cannot name an option: the program reading this file reserves that name for itself\n")
            #expect(EffectCatalog.builtIn.allSatisfy { $0.option(name) == nil }, "a built-in takes --\(name)")
        }
        let file = try write("""
            {"name": "mine", "summary": "s", "source": "test", "duration": 1, "curve": "linear",
             "options": [{"name": "from-start", "type": "number", "default": 1, "help": "h"}], "layers": [{"content": "from"}]}
            """, "mine.json", in: dir)
        let out = dir.appendingPathComponent("x.png").path
        let r = try Segue.run(["render", file, "--from", "sample:home", "--to", "sample:detail", "--progress", "0.5", "--from-start", "2", "--out", out])
        #expect(r.status == 2 && r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("'from-start' cannot name an option"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))

        // The parser's own --version and --help act before any file is read: with a value after them they are a
        // usage error, not the version printed, exit 0 and no frame.
        for flag in ["--version", "--help"] {
            let v = try Segue.run(["render", file, "--from", "sample:home", "--to", "sample:detail", "--progress", "0.5", flag, "0.9", "--out", out])
            #expect(v.status == 2 && v.stdout.isEmpty && v.stderr.contains("\(flag) takes no value"), "\(flag): \(v.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    @Test func effectsListsAUsersFileAsItListsABuiltIn() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try doorCopy(in: dir)
        let r = try Segue.run(["effects", file, "spin", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: r.stdout) as! [String: Any]
        let listed = json["effects"] as! [[String: Any]]
        #expect(listed.map { $0["name"] as! String } == ["my-door", "spin"])
        #expect((listed[0]["options"] as! [[String: Any]]).map { $0["name"] as! String } == Effect.door.options.map(\.name))
        #expect(json["transitions"] == nil, "the shipped custom transitions are listed only with every effect")
        let text = try Segue.run(["effects", file])
        #expect(text.status == 0 && String(decoding: text.stdout, as: UTF8.self).hasPrefix("my-door - "))
        // A bad file, or an unknown name: the problems on stderr, status 2, nothing on stdout.
        let broken = try doorCopy(in: dir, name: "broken") { $0.replacingOccurrences(of: "\"-e * half\"", with: "\"-e * halff\"") }
        for (args, says) in [([broken], "broken.json: $.layers[1].transform[0].translate: unknown name 'halff'"),
                             (["dorr"], "unknown effect 'dorr'")] {
            let bad = try Segue.run(["effects"] + args)
            #expect(bad.status == 2 && bad.stderr.contains(says) && bad.stdout.isEmpty, "\(args): \(bad.stderr)")
        }
    }

    @Test func aStoryboardStepNamesAFileRelativeToItself() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try doorCopy(in: dir)
        let board = try write("""
            {"size": [90, 160], "fps": 10, "screens": {"a": "sample:home", "b": "sample:detail"},
             "timeline": [{"transition": "effect:my-door.json", "from": "a", "to": "b", "options": {"zoom": 0.5}},
                          {"transition": "door", "from": "b", "to": "a", "options": {"zoom": 0.5}}]}
            """, "story.json", in: dir)
        let r = try Segue.run(["batch", board, "--out", dir.appendingPathComponent("frames").path, "--quiet", "--backend", "cpu"])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try files(dir.appendingPathComponent("frames"))
        // Both steps draw the door: frame 0 is screen a, the step boundary b, the last a again.
        #expect(frames.count == 11)
        let bad = try write("""
            {"screens": {"a": "sample:home", "b": "sample:detail"},
             "timeline": [{"transition": "effect:nowhere.json", "from": "a", "to": "b"},
                          {"transition": "effect:my-door.json", "from": "a", "to": "b", "options": {"center": [1, 2]}}]}
            """, "bad.json", in: dir)
        let b = try Segue.run(["batch", bad, "--out", dir.appendingPathComponent("bad").path, "--quiet"])
        #expect(b.status == 2)
        #expect(b.stderr.contains("$.timeline[0].transition: 'nowhere.json'"))
        #expect(b.stderr.contains("$.timeline[1].options.center: does not apply to my-door"))
    }

    /// Hero's matched pairs on the command line: --from-rect and --to-rect repeated, a radius once for all.
    @Test func heroTakesSeveralPairs() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let common = ["hero", "--from", "sample:home", "--to", "sample:detail", "--progress", "0.5", "--backend", "cpu", "--quiet",
                      "--from-rect", "22.5,100,65.625,65.625", "--to-rect", "0,0,375,280", "--from-radius", "14"]
        let one = dir.appendingPathComponent("one.png").path, two = dir.appendingPathComponent("two.png").path
        let a = try Segue.run(["render"] + common + ["--out", one])
        let b = try Segue.run(["render"] + common + ["--from-rect", "110,100,65.625,65.625", "--to-rect", "0,380,375,280", "--out", two])
        #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: one)) != Data(contentsOf: URL(fileURLWithPath: two)))
        // Each repeatable option once (for every pair) or as often as the most repeated one.
        let odd = try Segue.run(["render"] + common + ["--from-rect", "110,100,65,65", "--from-rect", "200,100,65,65",
                                                       "--to-rect", "0,380,375,280", "--out", dir.appendingPathComponent("x.png").path])
        #expect(odd.status == 2 && odd.stderr.contains("--to-rect is given 2 times but --from-rect 3 times"), "\(odd.stderr)")
        let twice = try Segue.run(["render", "door", "--zoom", "0.5", "--zoom", "0.6", "--from", "sample:home", "--to", "sample:detail",
                                   "--progress", "0.5", "--out", dir.appendingPathComponent("y.png").path])
        #expect(twice.status == 2 && twice.stderr.contains("--zoom is given twice"))
    }
}
