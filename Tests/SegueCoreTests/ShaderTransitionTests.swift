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
        #expect(throws: SegueError.invalidValue("--param 'count=abc': count is declared int (for example 3)")) {
            try t.values(assigning: ["count=abc"])
        }
        #expect {
            try t.values(assigning: ["foo=1"])
        } throws: { "\($0)".hasPrefix("unknown --param 'foo' (the shader declares: amplitude (float), center (vec2), cells (ivec2)") }
        #expect(throws: SegueError.invalidValue("--param 'amplitude' is not name=value")) { try t.values(assigning: ["amplitude"]) }
        #expect { try t.values(assigning: ["progress=1"]) } throws: { ($0 as? SegueError)?.isUsageError == true }
        let none = try ShaderTransition(name: "plain.glsl", source: "vec4 transition(vec2 uv) { return getToColor(uv); }")
        #expect(throws: SegueError.invalidValue("unknown --param 'a' (the shader declares no parameters)")) {
            try none.values(assigning: ["a=1"])
        }
    }

    @Test func badFilesNameTheLine() {
        #expect(throws: SegueError.failed("bad.glsl:2: uniform sampler2D map: a parameter must be one of float, int, bool, vec2, vec3, vec4, ivec2")) {
            try ShaderTransition(name: "bad.glsl", source: "// x\nuniform sampler2D map;\nvec4 transition(vec2 uv) { return vec4(1.0); }")
        }
        #expect(throws: SegueError.failed("bad.glsl:1: the default 'abc' of n is not a int")) {
            try ShaderTransition(name: "bad.glsl", source: "uniform int n; // = abc\nvec4 transition(vec2 uv) { return vec4(1.0); }")
        }
        #expect(throws: SegueError.failed("bad.glsl: defines no 'vec4 transition(vec2 uv)'")) {
            try ShaderTransition(name: "bad.glsl", source: "// transition(\nvec4 other(vec2 uv) { return vec4(1.0); }")
        }
    }
}
