import Foundation
@testable import SegueCore
import Testing

/// Where a problem's JSON path is in its file's text (`JSONProblem.locate`), and a syntax error's place said
/// as a line and column (issue 47: studio's editor marks them; the command line says them).
@Suite struct JSONProblemLocationTests {
    let text = """
        {
          "name": "mine",
          "layers": [
            {"content": "from"},
            {"content": "to", "opacity": "é + x"}
          ],
          "odd key": {"a": 1}
        }
        """

    func placed(_ path: String) -> (Int?, Int?) {
        let problem = JSONProblem.locate([JSONProblem(path, "m")], in: Data(text.utf8))[0]
        return (problem.line, problem.column)
    }

    @Test func aPathIsPlacedAtItsKeyOrItem() {
        #expect(placed("$") == (1, 1))
        #expect(placed("$.name") == (2, 3))
        #expect(placed("$.layers") == (3, 3))
        #expect(placed("$.layers[0]") == (4, 5))
        #expect(placed("$.layers[1].opacity") == (5, 23))
        #expect(placed(#"$["odd key"].a"#) == (7, 15))
    }

    /// A key the object lacks is placed at the object; a path the text has nothing of, at the document.
    @Test func aMissingKeyIsPlacedAtItsObject() {
        #expect(placed("$.layers[1].transform") == (5, 5))
        #expect(placed("$.layers[7]") == (3, 3))
        #expect(placed("$.nothing.at.all") == (1, 1))
        // `$.name2` is no part of `$.name`.
        #expect(placed("$.name2") == (1, 1))
    }

    /// A text nested past what the pass follows (JSONSerialization reads 512 levels) places what it noted before
    /// it stopped, and nothing deeper.
    @Test func aDeepTextIsPlacedAsFarAsItIsFollowed() {
        let deep = "{\"a\": 1,\n\"b\": " + String(repeating: "[", count: 500) + String(repeating: "]", count: 500) + "}"
        let problems = JSONProblem.locate([JSONProblem("$.a", "m"), JSONProblem("$.b" + String(repeating: "[0]", count: 400), "m")],
                                          in: Data(deep.utf8))
        #expect(problems.map(\.line) == [1, 2])
        #expect(problems[1].column! > 4)
    }

    /// Columns count characters, not bytes: `é` is one.
    @Test func columnsCountCharacters() {
        let bytes = Array("{\"a\": \"é\", \"b\": x}".utf8)
        #expect(JSONProblem.lineAndColumn(ofByte: 17, in: bytes) == (1, 17))
    }

    /// A problem already placed keeps its place; text that is no UTF-8 JSON places nothing.
    @Test func placedProblemsAndOtherEncodingsAreLeft() throws {
        let placed = JSONProblem("$.name", "m", line: 9, column: 9)
        #expect(JSONProblem.locate([placed], in: Data(text.utf8)) == [placed])
        let utf16 = try #require(text.data(using: .utf16LittleEndian))
        #expect(JSONProblem.locate([JSONProblem("$.name", "m")], in: utf16)[0].line == nil)
    }

    /// A syntax error says its line and column, not "around character 347", in an effect file and a storyboard.
    @Test func aSyntaxErrorSaysItsLineAndColumn() throws {
        let broken = "{\n  \"name\": \"mine\",\n  \"layers\": ]\n}"
        let error = #expect(throws: EffectFileError.self) { try Effect(json: Data(broken.utf8), file: "x") }
        let problem = try #require(error?.problems.first)
        #expect(problem.path == "$")
        #expect(problem.message.hasPrefix("not valid JSON"))
        #expect(problem.description == "$: not valid JSON: Invalid value at line 3, column 13", "\(problem)")
        #expect(!problem.description.contains("character"))
        #expect(problem.line == 3 && problem.column == 13)
        // The message says the place no more than once: once in the description, not in the message (the
        // studio's page shows the place beside the message).
        #expect(problem.message == "not valid JSON: Invalid value", "\(problem.message)")
        #expect(error.map { "\($0)" } == "x: $: not valid JSON: Invalid value at line 3, column 13")
        let parsed = Storyboard.parse(json: Data("{\"screens\": {},\n \"timeline\": [".utf8), loadTrack: { _ in "" })
        let end = try #require(parsed.problems.first)
        #expect(end.description.hasSuffix("at line 2, column 15"), "\(end)")
        #expect(!end.message.contains("line"), "\(end.message)")
        #expect(end.line == 2 && end.column == 15)
    }

    /// The problems of an effect file and a storyboard come placed from their readers.
    @Test func readersPlaceTheirProblems() throws {
        let effect = """
            {"name": "mine", "summary": "s", "source": "t", "duration": 1, "curve": "linear",
             "layers": [{"content": "from", "opacity": "1 - nope"}]}
            """
        let error = #expect(throws: EffectFileError.self) { try Effect(json: Data(effect.utf8), file: "x") }
        let problem = try #require(error?.problems.first { $0.path == "$.layers[0].opacity" })
        #expect(problem.line == 2 && problem.column == 33, "\(problem)")
        let story = """
            {"screens": {"a": "sample:home"},
             "timeline": [{"hold": "a", "duration": -1}]}
            """
        let parsed = Storyboard.parse(json: Data(story.utf8), loadTrack: { _ in "" })
        let first = try #require(parsed.problems.first { $0.path == "$.timeline[0].duration" })
        #expect(first.line == 2 && first.column == 29, "\(first)")
    }
}
