import SegueCore
import Testing

@Suite struct ShaderTransitionTests {
    static let file = """
        // Waves, for a test.
        #ifdef GL_ES
        precision mediump float;
        #endif
        uniform float progress;
        // How far the waves push.
        uniform float amplitude; // = 0.03
        uniform highp vec2 center /* = vec2(0.25, .75) */;
        uniform ivec2 cells; // = ivec2(4)
        uniform bool clockwise; /* = false */
        uniform int count; // = 3
        uniform vec3 tint; // = vec3(1.0, 0.5, 0.) the colour
        uniform vec4 shade;
        // uniform float commented; // = 1.0
        /* uniform float alsoCommented; // = 1.0 */
        vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress); }
        """

    @Test func findsParametersWithTheirDefaults() throws {
        let t = try ShaderTransition(name: "waves.glsl", source: Self.file)
        #expect(t.summary == "Waves, for a test.")
        #expect(t.parameters.map(\.name) == ["amplitude", "center", "cells", "clockwise", "count", "tint", "shade"])
        #expect(t.parameters.map(\.type) == [.float, .vec2, .ivec2, .bool, .int, .vec3, .vec4])
        let d = t.defaults
        #expect(d["amplitude"]?.components == [0.03])
        #expect(d["center"]?.components == [0.25, 0.75])
        #expect(d["cells"]?.components == [4, 4])
        #expect(d["clockwise"]?.components == [0])
        #expect(d["count"]?.components == [3])
        #expect(d["tint"]?.components == [1, 0.5, 0])
        #expect(d["shade"] == .zero(.vec4) && t.parameter(named: "shade")?.hasDeclaredDefault == false)
        #expect(t.parameter(named: "amplitude")?.help == "How far the waves push.")
        #expect(t.parameter(named: "amplitude")?.line == 7)
    }

    /// The body keeps every line (so driver line numbers are the file's) with precision and reserved
    /// declarations blanked.
    @Test func bodyKeepsLineNumbers() throws {
        let t = try ShaderTransition(name: "waves.glsl", source: "#version 100\n" + Self.file)
        #expect(t.isGLSL100)
        let lines = t.body.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == Self.file.split(separator: "\n", omittingEmptySubsequences: false).count + 1)
        #expect(lines[0].isEmpty && lines[3].isEmpty && lines[5].isEmpty)
        #expect(lines[7].contains("uniform float amplitude"))
    }

    @Test func parsesValuesOfEachType() {
        #expect(ShaderValue(parsing: "0.5", as: .float)?.components == [0.5])
        #expect(ShaderValue(parsing: "3", as: .float)?.components == [3])
        #expect(ShaderValue(parsing: "3", as: .int)?.components == [3])
        #expect(ShaderValue(parsing: "3.5", as: .int) == nil)
        #expect(ShaderValue(parsing: "abc", as: .int) == nil)
        #expect(ShaderValue(parsing: "true", as: .bool)?.components == [1])
        #expect(ShaderValue(parsing: "1", as: .bool) == nil)
        #expect(ShaderValue(parsing: "a.png", as: .sampler2D) == nil)
        #expect(ShaderValue(parsing: "1,2", as: .vec2)?.components == [1, 2])
        #expect(ShaderValue(parsing: "vec2(1, 2)", as: .vec2)?.components == [1, 2])
        #expect(ShaderValue(parsing: "vec3(0.5)", as: .vec3)?.components == [0.5, 0.5, 0.5])
        #expect(ShaderValue(parsing: "1,2", as: .vec3) == nil)
        #expect(ShaderValue(parsing: "vec3(1,2,3)", as: .vec2) == nil)
        #expect(ShaderValue(parsing: "1,0.5,0,1", as: .vec4)?.components == [1, 0.5, 0, 1])
        #expect(ShaderValue(parsing: "4,3", as: .ivec2)?.components == [4, 3])
        #expect(ShaderValue(parsing: "4.5,3", as: .ivec2) == nil)
        #expect(ShaderValue(parsing: "nan", as: .float) == nil)
        #expect(ShaderValue(parsing: "vec2(1, 2)", as: .vec2)?.description == "vec2(1, 2)")
    }

    @Test func paramsOverrideDefaultsWithTypeChecks() throws {
        let t = try ShaderTransition(name: "waves.glsl", source: Self.file)
        let v = try t.values(assigning: ["amplitude=0.1", "center=vec2(0.5,0.5)", "clockwise=true"])
        #expect(v["amplitude"]?.components == [0.1] && v["center"]?.components == [0.5, 0.5] && v["clockwise"]?.components == [1])
        #expect(v["count"]?.components == [3])
        #expect(throws: SegueError(.invalidOption(effect: "waves.glsl", option: "count", value: "abc"), "parameter 'count=abc': count is declared int (for example 3)")) {
            try t.values(assigning: ["count=abc"])
        }
        #expect {
            try t.values(assigning: ["foo=1"])
        } throws: { "\($0)".hasPrefix("unknown parameter 'foo' (the shader declares: amplitude (float), center (vec2), cells (ivec2)") }
        #expect(throws: SegueError(.invalidOption(effect: "waves.glsl", option: "amplitude", value: "amplitude"), "parameter 'amplitude' is not name=value")) { try t.values(assigning: ["amplitude"]) }
        #expect { try t.values(assigning: ["progress=1"]) } throws: { ($0 as? SegueError)?.isUsageError == true }
        let none = try ShaderTransition(name: "plain.glsl", source: "vec4 transition(vec2 uv) { return getToColor(uv); }")
        #expect(throws: SegueError(.invalidOption(effect: "plain.glsl", option: "a", value: "1"), "unknown parameter 'a' (the shader declares no parameters)")) {
            try none.values(assigning: ["a=1"])
        }
    }

    @Test func badFilesNameTheLine() {
        #expect(throws: SegueError(.invalidShader(path: "bad.glsl"), "bad.glsl:2: uniform mat2 m: a parameter must be one of float, int, bool, vec2, vec3, vec4, ivec2, sampler2D")) {
            try ShaderTransition(name: "bad.glsl", source: "// x\nuniform mat2 m;\nvec4 transition(vec2 uv) { return vec4(1.0); }")
        }
        #expect(throws: SegueError(.invalidShader(path: "bad.glsl"), "bad.glsl:1: the default '2' of b is not a bool")) {
            try ShaderTransition(name: "bad.glsl", source: "uniform bool b; // = 2\nvec4 transition(vec2 uv) { return vec4(1.0); }")
        }
        #expect(throws: SegueError(.invalidShader(path: "bad.glsl"), "bad.glsl:1: the default 'abc' of n is not a int")) {
            try ShaderTransition(name: "bad.glsl", source: "uniform int n; // = abc\nvec4 transition(vec2 uv) { return vec4(1.0); }")
        }
        #expect(throws: SegueError(.invalidShader(path: "bad.glsl"), "bad.glsl: defines no 'vec4 transition(vec2 uv)'")) {
            try ShaderTransition(name: "bad.glsl", source: "// transition(\nvec4 other(vec2 uv) { return vec4(1.0); }")
        }
    }

    // MARK: The public collection's files, as WebGL runs them

    /// CRLF and lone CR line endings are line breaks: the file parses, and line numbers are the file's.
    @Test func crlfAndCRLineEndings() throws {
        for ending in ["\r\n", "\r"] {
            let source = ["// Lines, for a test.", "uniform float amount; // = 0.5", "", "vec4 transition(vec2 uv) {",
                          "  return mix(getFromColor(uv), getToColor(uv), progress * amount);", "}", ""].joined(separator: ending)
            let t = try ShaderTransition(name: "crlf.glsl", source: source)
            #expect(t.summary == "Lines, for a test.")
            #expect(t.parameters.map(\.name) == ["amount"] && t.parameter(named: "amount")?.line == 2)
            #expect(t.defaults["amount"]?.components == [0.5])
            #expect(!t.body.contains("\r"))
            #expect(t.body.split(separator: "\n", omittingEmptySubsequences: false).count == 7)
            #expect(t.source == source)
        }
    }

    /// GLSL ES 1.00 (WebGL 1) or 3.00, from the #version line or, without one, from the words the file uses.
    @Test func dialectIsToldFromTheText() throws {
        let ends = "vec4 transition(vec2 uv) { return getToColor(uv); }"
        let cases: [(String, Bool)] = [
            ("#version 100\n" + ends, true),
            ("#version 300 es\nvec4 f(vec2 p) { return texture2D(segue_to, p); }\n" + ends, false),
            (ends, false),
            ("vec4 f(vec2 p) { return texture2D(segue_to, p); }\n" + ends, true),
            ("vec4 texture(vec2 p) { return getFromColor(p); }\n" + ends, true),
            ("float round(float x) { return floor(x + 0.5); }\n" + ends, true),
            ("varying vec2 v;\n" + ends, true),
            // A 1.00 word, but 3.00's texture(): the 3.00 preamble reads texture2D as texture.
            ("vec4 f(vec2 p) { return texture2D(segue_to, p) + texture(segue_from, p); }\n" + ends, false),
            // Words in comments do not count.
            ("// texture2D, gl_FragColor\n/* varying */\n" + ends, false),
        ]
        for (source, is100) in cases {
            #expect(try ShaderTransition(name: "d.glsl", source: source).isGLSL100 == is100, "\(source)")
        }
    }

    /// A global variable that starts from a uniform keeps its declaration, and its initialiser becomes an
    /// assignment the renderer runs before `transition`; `const` globals and functions stay as they are.
    @Test func globalInitializersAreTakenOut() throws {
        let source = """
            uniform vec2 center; // = vec2(0.5)
            const float PI = 3.14159;
            float r = ratio * 2.0; // twice
            vec2 c = center, d, e = vec2(
                progress, 1.0);
            struct S { float x; };
            float f(float x) { float y = x * r; return y; }
            highp float g = f(progress);
            vec4 transition(vec2 uv) { float local = 1.0; return getToColor(uv) * local; }
            """
        let t = try ShaderTransition(name: "g.glsl", source: source)
        let lines = t.body.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 9)
        #expect(lines[1] == "const float PI = 3.14159;")
        #expect(lines[2] == "float r; // twice")
        #expect(lines[3] == "vec2 c, d, e" && lines[4] == ";")
        #expect(lines[6] == "float f(float x) { float y = x * r; return y; }")
        #expect(lines[7] == "highp float g;")
        #expect(lines[8].contains("float local = 1.0;"))
        #expect(t.globalInitializers == [
            .init(line: 3, assignment: "r = ratio * 2.0;"),
            .init(line: 4, assignment: "c = center;"),
            .init(line: 4, assignment: "e = vec2( progress, 1.0);"),
            .init(line: 8, assignment: "g = f(progress);"),
        ])
        let none = try ShaderTransition(name: "n.glsl", source: Self.file)
        #expect(none.globalInitializers.isEmpty)
    }

    /// A bool's default may be written 1 or 0, as GLSL's bool(1) is true.
    @Test func boolDefaultsMayBeOneOrZero() throws {
        let t = try ShaderTransition(name: "b.glsl", source: """
            uniform bool a; // = 1
            uniform bool b; // = 0
            uniform bool c; // = true
            vec4 transition(vec2 uv) { return a && !b && c ? getToColor(uv) : getFromColor(uv); }
            """)
        #expect(t.parameters.map { $0.defaultValue.components } == [[1], [0], [1]])
        #expect(t.defaults["a"]?.description == "true")
    }

    /// Several declarations on one line each count; a comment's default belongs to the declaration before it.
    @Test func severalDeclarationsOnOneLine() throws {
        let t = try ShaderTransition(name: "m.glsl", source: """
            uniform float a; uniform float b; // = 0.5
            uniform float c /* = 2.0 */; uniform float d; /* = 3.0 */ uniform vec2 e; // = vec2(1, 2)
            uniform float progress; uniform int n; // = 4
            uniform float x, y; // = 7.0
            vec4 transition(vec2 uv) { return getToColor(uv); }
            """)
        #expect(t.parameters.map(\.name) == ["a", "b", "c", "d", "e", "n", "x", "y"])
        let d = t.defaults
        #expect(d["a"]?.components == [0] && t.parameter(named: "a")?.hasDeclaredDefault == false)
        #expect(d["b"]?.components == [0.5])
        #expect(d["c"]?.components == [2] && d["d"]?.components == [3] && d["e"]?.components == [1, 2])
        #expect(d["n"]?.components == [4])
        #expect(d["x"]?.components == [0] && d["y"]?.components == [7])
        // The reserved declaration goes; the one beside it stays.
        let third = t.body.split(separator: "\n", omittingEmptySubsequences: false)[2]
        #expect(!third.contains("progress") && third.contains("uniform int n;"))
    }

    /// A sampler2D parameter's value is an image, read by the loader given; one with none is a usage error.
    @Test func samplerParametersTakeAnImage() throws {
        let t = try ShaderTransition(name: "s.glsl", source: """
            uniform sampler2D map;
            uniform float amount; // = 1.0
            vec4 transition(vec2 uv) { return texture2D(map, uv) * amount; }
            """)
        #expect(t.parameter(named: "map")?.type == .sampler2D)
        #expect(t.defaults["map"]?.image == nil)
        let image = Pixmap(width: 2, height: 1, pixels: [0xFF00_00FF, 0xFFFF_FFFF])
        var asked: [String] = []
        let v = try t.values(assigning: ["map=maps/a.png"], loadImage: { path in asked.append(path); return image })
        #expect(asked == ["maps/a.png"] && v["map"]?.image == image && v["map"]?.type == .sampler2D)
        #expect(throws: SegueError(.invalidOption(effect: "s.glsl", option: "map", value: ""), "map is a sampler2D: give an image with the parameter map=FILE.png")) {
            try t.values(assigning: ["amount=2"], loadImage: { _ in image })
        }
        #expect(throws: SegueError(.invalidOption(effect: "s.glsl", option: "map", value: ""), #"map is a sampler2D: give an image with params {"map": "FILE.png"}"#)) {
            try t.values([], flag: "params", loadImage: { _ in image })
        }
        #expect(throws: SegueError(.inputUnreadable(path: "gone.png"), "parameter 'map=gone.png': cannot read the image of sampler2D map: cannot read 'gone.png'")) {
            try t.values(assigning: ["map=gone.png"], loadImage: { _ in throw SegueError.failed("cannot read 'gone.png'") })
        }
        #expect(throws: SegueError(.invalidShader(path: "s.glsl"), "s.glsl:1: map is a sampler2D: its image is given as a parameter value, not a default")) {
            try ShaderTransition(name: "s.glsl", source: "uniform sampler2D map; // = a.png\nvec4 transition(vec2 uv) { return vec4(1.0); }")
        }
    }
}
