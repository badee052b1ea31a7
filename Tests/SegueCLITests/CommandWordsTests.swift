import Foundation
import SegueCore
import SegueImageIO
@testable import segue
import Testing

/// The library's messages name options as references (`SegueError.Reference`); the command line says each as
/// its flag through one table (`CommandWords.flags`). Every option a message can name is a case of
/// `SegueError.Option`, so a message that names an option the table lacks fails here, not in front of a user.
@Suite struct CommandWordsTests {
    @Test(arguments: SegueError.Option.allCases)
    func everyOptionTheLibraryNamesHasAFlag(_ option: SegueError.Option) {
        let flag = CommandWords.flags[option]
        #expect(flag?.hasPrefix("--") == true, "CommandWords.flags has no flag for the library's option \(option.rawValue)")
        #expect(CommandWords.flag(.option(option)) == flag)
    }

    /// The table's flags are the ones the commands take: each is in `render --help` or `batch --help`.
    @Test func everyFlagInTheTableIsOneTheCommandsTake() throws {
        let help = try ["render", "batch"].map { try Segue.run([$0, "--help"]) }
        let text = help.map { String(decoding: $0.stdout, as: UTF8.self) + $0.stderr }.joined()
        for (option, flag) in CommandWords.flags {
            #expect(text.contains(flag + " ") || text.contains(flag + "\n") || text.contains(flag + ","),
                    "\(option.rawValue)'s flag \(flag) is in neither command's help")
        }
    }

    /// An effect's option is `--NAME` (`EffectArguments`), for every option of every built-in effect.
    @Test func anEffectsOptionIsItsName() {
        let options = EffectCatalog.builtIn.flatMap(\.options)
        #expect(!options.isEmpty)
        for option in options {
            #expect(CommandWords.flag(.effectOption(option.name)) == "--\(option.name)")
        }
    }

    /// The library's words in `message` and `lines`; the command line's flags for the same error.
    @Test func theLibrarySaysNamesAndTheCommandLineFlags() throws {
        let ease = #expect(throws: SegueError.self) { try InteractiveTrack.Completion(named: "ease-in-out", damping: 0.8) }
        #expect(ease?.message == "damping applies to the spring completion, not ease-in-out")
        #expect(ease.map(CommandWords.lines) == ["--damping applies to --completion spring, not ease-in-out"])
        #expect(ease?.words.first?.references == [.option(.damping), .option(.completion)])

        // An effect option's range, checked by its declaration and named by the transition's effect.
        let zoom = #expect(throws: SegueError.self) {
            try Transition(EffectCatalog.named("door")!, options: EffectOptions(["zoom": .number(0)])).validate(frame: Size(100, 100))
        }
        #expect(zoom?.message == "zoom must be > 0, not 0")
        #expect(zoom.map(CommandWords.lines) == ["--zoom must be > 0, not 0"])

        var options = EffectOptions()
        options["from-rect"] = .list(Array(repeating: .rect(Rect(0, 0, 10, 10)), count: 3))
        options["to-rect"] = .list(Array(repeating: .rect(Rect(0, 0, 10, 10)), count: 2))
        let odd = #expect(throws: SegueError.self) {
            try Transition(EffectCatalog.named("hero")!, options: options).validate(frame: Size(100, 100))
        }
        #expect(odd?.message.hasPrefix("to-rect is given 2 times but from-rect 3 times") == true, "\(String(describing: odd))")
        #expect(odd.map(CommandWords.lines)?.first?.hasPrefix("--to-rect is given 2 times but --from-rect 3 times") == true)

        let pixels = ImageIOError.tooManyPixels(path: "huge.png", width: 100, height: 100, limit: 50)
        let limit = SegueError(.resourceLimit(name: "maxPixels"), pixels.words)
        #expect(limit.message == pixels.description)
        #expect(limit.message == "'huge.png' is 100x100 pixels, over the limit of 50 pixels (maxPixels)")
        #expect(CommandWords.lines(of: limit) == ["'huge.png' is 100x100 pixels, over the limit of 50 pixels (--max-pixels)"])
    }

    /// An error made from a string (or several lines of one) carries no references: its lines are printed
    /// as they are, and it equals the same error made with references when the library's words are the same.
    @Test func anErrorOfPlainTextIsPrintedAsItIs() {
        let plain = SegueError(.invalidInput(path: nil), lines: ["a: one", "b: two"])
        #expect(CommandWords.lines(of: plain) == plain.lines)
        let referenced = SegueError(.failed, "use \(option: .overwrite) to replace them")
        #expect(referenced == SegueError(.failed, "use overwrite to replace them"))
        #expect(CommandWords.lines(of: referenced) == ["use --overwrite to replace them"])
    }
}
