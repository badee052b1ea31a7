import Foundation
import SegueCore
import SegueSamples
@testable import SegueGLES
import Testing

extension GLESSuite {
    /// Custom transitions (the gl-transitions interface) on the GLES backend, at 64x48.
    @Suite struct CustomTransitions {
        static let width = 64, height = 48
        static let snapshots = TestTransitions.snapshots(width: width, height: height)
        /// The snapshots as frames show them: over the opaque black background (a premultiplied pixel keeps its
        /// colour bytes and becomes opaque; `to` has a translucent band and a transparent hole).
        static let shown = snapshots.map { Pixmap(width: $0.width, height: $0.height, pixels: $0.pixels.map { $0 | 0xFF00_0000 }) }

        /// Nil when `a` and `b` are the same bytes; else how many pixels differ and the first.
        static func difference(_ a: Pixmap, _ b: Pixmap) -> String? {
            guard a.width == b.width, a.height == b.height else { return "\(a.width)x\(a.height) vs \(b.width)x\(b.height)" }
            let differing = a.pixels.indices.filter { a.pixels[$0] != b.pixels[$0] }
            guard let first = differing.first else { return nil }
            let hex = { (p: UInt32) in String(p, radix: 16) }
            return "\(differing.count) pixels differ; first (\(first % a.width), \(first / a.width)): \(hex(a.pixels[first])) vs \(hex(b.pixels[first]))"
        }

        private func render(_ transition: ShaderTransition, progress: Double, values: [String: ShaderValue] = [:],
                            on renderer: GLESRenderer? = nil) throws -> Pixmap {
            let renderer = try renderer ?? GLESRenderer()
            try renderer.load(snapshots: Self.snapshots)
            let prepared = try renderer.prepare(transition, values: values)
            var frame = Pixmap(width: 0, height: 0)
            try renderer.draw(prepared, progress: progress, width: Self.width, height: Self.height, into: &frame)
            return frame
        }

        private static func source(_ body: String, name: String = "test.glsl") throws -> ShaderTransition {
            try ShaderTransition(name: name, source: body)
        }

        /// The same on the built-in phone screens at 375x667, whose sharp edges show any sampling that is not
        /// exactly at texel centres (pixelate once missed this: a division by zero in a branch it did not take
        /// reached the texture derivatives on llvmpipe).
        @Test("shipped transition is exact at the ends on the phone screens", arguments: ShippedTransitions.all.map(\.name))
        func exactAtTheEndsOnPhoneScreens(name: String) throws {
            let transition = try #require(ShippedTransitions.named(name))
            let screens = [SampleScreens.home(), SampleScreens.detail()]
            let renderer = try GLESRenderer()
            try renderer.load(snapshots: screens)
            let prepared = try renderer.prepare(transition)
            var frames: [Pixmap] = []
            try renderer.drawFrames(prepared, progress: [0, 1], width: screens[0].width, height: screens[0].height) { _, frame in
                frames.append(frame)
            }
            #expect(Self.difference(frames[0], screens[0]) == nil)
            #expect(Self.difference(frames[1], screens[1]) == nil)
        }

        /// At progress 0 the frame is `from` and at 1 it is `to`, byte for byte (over the black background a
        /// premultiplied snapshot, even its translucent band, keeps its bytes), with draw and drawFrames.
        @Test("shipped transition is exact at progress 0 and 1", arguments: ShippedTransitions.all.map(\.name))
        func exactAtTheEnds(name: String) throws {
            let transition = try #require(ShippedTransitions.named(name))
            let renderer = try GLESRenderer()
            #expect(Self.difference(try render(transition, progress: 0, on: renderer), Self.shown[0]) == nil)
            #expect(Self.difference(try render(transition, progress: 1, on: renderer), Self.shown[1]) == nil)
            let middle = try render(transition, progress: 0.5, on: renderer)
            #expect(Self.difference(middle, Self.shown[0]) != nil && Self.difference(middle, Self.shown[1]) != nil,
                    "progress 0.5 shows a screen unchanged")
            let prepared = try renderer.prepare(transition)
            var frames: [Pixmap] = []
            try renderer.drawFrames(prepared, progress: [0, 0.5, 1], width: Self.width, height: Self.height) { k, frame in
                #expect(frames.count == k)
                frames.append(frame)
            }
            #expect(frames.count == 3)
            for (frame, expected) in zip(frames, [Self.shown[0], middle, Self.shown[1]]) {
                #expect(Self.difference(frame, expected) == nil)
            }
        }

        /// pixelate's `cells` is the number of blocks at the middle: 4x3 gives 16x16-pixel blocks of one colour.
        @Test func pixelateCellsSetTheBlocks() throws {
            let pixelate = try #require(ShippedTransitions.named("pixelate"))
            let values = try pixelate.values(assigning: ["cells=4,3"])
            let coarse = try render(pixelate, progress: 0.5, values: values)
            for y in 0..<Self.height {
                for x in 0..<Self.width {
                    #expect(coarse[x, y] == coarse[x / 16 * 16 + 8, y / 16 * 16 + 8], "(\(x), \(y))")
                }
            }
            #expect(Set(coarse.pixels).count <= 12)
            // The default, 24x16, is finer: more distinct blocks.
            let fine = try render(pixelate, progress: 0.5)
            #expect(Set(fine.pixels).count > 12)
            #expect(pixelate.parameter(named: "cells")?.defaultValue == ShaderValue(type: .ivec2, components: [24, 16]))
        }

        /// wipe-diagonal's `direction`: by default the edge runs from the top-left corner; (-1, 0) makes it run
        /// from the right edge.
        @Test func wipeDirectionIsTheWayTheEdgeTravels() throws {
            let wipe = try #require(ShippedTransitions.named("wipe-diagonal"))
            let (from, to) = (Self.shown[0], Self.shown[1])
            let byDefault = try render(wipe, progress: 0.5)
            #expect(byDefault[1, 1] == to[1, 1] && byDefault[62, 46] == from[62, 46])
            let leftward = try render(wipe, progress: 0.5, values: wipe.values(assigning: ["direction=-1,0"]))
            #expect(leftward[62, 1] == to[62, 1] && leftward[62, 46] == to[62, 46])
            #expect(leftward[1, 1] == from[1, 1] && leftward[1, 46] == from[1, 46])
        }

        /// `uv` has its origin at the bottom left and `ratio` is width / height; getFromColor is upright.
        @Test func uvRatioAndSnapshotsAreUpright() throws {
            let probe = try Self.source("vec4 transition(vec2 uv) { return vec4(uv, ratio / 4.0, 1.0); }")
            let frame = try render(probe, progress: 0.5)
            func channels(_ p: UInt32) -> [UInt32] { [p & 0xFF, (p >> 8) & 0xFF, (p >> 16) & 0xFF] }
            // Top-left: uv (0.5/64, 47.5/48); bottom-right: (63.5/64, 0.5/48). ratio 4/3 gives blue 85.
            #expect(channels(frame[0, 0]) == [2, 252, 85])
            #expect(channels(frame[63, 47]) == [253, 3, 85])
            let from = try Self.source("vec4 transition(vec2 uv) { return getFromColor(uv); }")
            #expect(Self.difference(try render(from, progress: 0.3), Self.shown[0]) == nil)
        }

        /// A GLSL ES 1.00-style file (#version 100, a precision line, texture2D) and a 3.00-style one both run.
        @Test func glsl100And300StylesBothRun() throws {
            let old = try Self.source("""
                #version 100
                #ifdef GL_ES
                precision mediump float;
                #endif
                uniform float amount; // = 1.0
                vec4 transition(vec2 uv) {
                    vec4 a = texture2D(segue_from, vec2(uv.x, 1.0 - uv.y));
                    return mix(a, getToColor(uv), progress * amount);
                }
                """)
            #expect(old.isGLSL100)
            let new = try Self.source("""
                #version 300 es
                precision highp float;
                uniform float amount; /* = 1.0 */
                vec4 transition(vec2 uv) {
                    return mix(getFromColor(uv), texture(segue_to, vec2(uv.x, 1.0 - uv.y)), progress * amount);
                }
                """)
            #expect(!new.isGLSL100)
            let renderer = try GLESRenderer()
            let a = try render(old, progress: 0.5, on: renderer), b = try render(new, progress: 0.5, on: renderer)
            #expect(Self.difference(a, b) == nil)
            #expect(Self.difference(try render(old, progress: 1, on: renderer), Self.shown[1]) == nil)
        }

        /// A compile error names the file and the file's own line, then the driver's message.
        @Test func compileErrorNamesTheFileAndLine() throws {
            let broken = try Self.source("""
                // A transition with a mistake on line 7.
                uniform float amount; // = 1.0

                vec4 transition(vec2 uv) {
                    vec4 a = getFromColor(uv);
                    vec4 b = getToColor(uv);
                    return mix(a, b, progress * amount) + nope;
                }
                """, name: "broken.glsl")
            let renderer = try GLESRenderer()
            let objects = renderer.liveGLObjects
            do {
                _ = try renderer.prepare(broken)
                Issue.record("compiled")
            } catch {
                let message = "\(error)"
                #expect(message.hasPrefix("broken.glsl:7"), "\(message)")
                #expect(message.contains("nope"), "\(message)")
            }
            #expect(renderer.liveGLObjects == objects)
        }

        @Test func driverLogsBecomeFileLines() {
            #expect(TransitionProgram.messages("0:7(12): error: `nope' undeclared\n0:7(12): error: type mismatch\n", file: "a.glsl")
                    == ["a.glsl:7:12: error: `nope' undeclared", "a.glsl:7:12: error: type mismatch"])
            #expect(TransitionProgram.messages("ERROR: 0:3: 'x' : undeclared identifier\n", file: "a.glsl")
                    == ["a.glsl:3: error: 'x' : undeclared identifier"])
            #expect(TransitionProgram.messages("link failed\n", file: "a.glsl") == ["a.glsl: link failed"])
        }

        /// A program is compiled once per renderer and text, and released with the renderer.
        @Test func programsAreSharedAndReleased() throws {
            let ripple = try #require(ShippedTransitions.named("ripple"))
            var renderer: GLESRenderer? = try GLESRenderer()
            let before = renderer!.liveGLObjects
            let a = try renderer!.prepare(ripple)
            let after = renderer!.liveGLObjects
            let b = try renderer!.prepare(ripple, values: ["amplitude": ShaderValue(type: .float, components: [0.1])!])
            #expect(after == before + 1 && renderer!.liveGLObjects == after)
            #expect(a.values["amplitude"] != b.values["amplitude"])
            renderer = nil
            let other = try GLESRenderer()
            var frame = Pixmap(width: 0, height: 0)
            #expect(throws: GLError.self) { try other.draw(a, progress: 0, width: 4, height: 4, into: &frame) }
        }

        // MARK: The public collection's files, as WebGL runs them

        /// Exact `from` at 0 and `to` at 1, and a middle frame that is neither.
        private func expectExactEnds(_ transition: ShaderTransition, values: [String: ShaderValue] = [:],
                                     sourceLocation: SourceLocation = #_sourceLocation) throws {
            let renderer = try GLESRenderer()
            #expect(Self.difference(try render(transition, progress: 0, values: values, on: renderer), Self.shown[0]) == nil,
                    sourceLocation: sourceLocation)
            #expect(Self.difference(try render(transition, progress: 1, values: values, on: renderer), Self.shown[1]) == nil,
                    sourceLocation: sourceLocation)
        }

        /// A file with CRLF (or lone CR) line endings runs, and its errors carry its own line numbers.
        @Test func crlfFilesRunWithTheirLineNumbers() throws {
            let lines = ["// CRLF, for a test.", "uniform float amount; // = 1.0", "",
                         "vec4 transition(vec2 uv) {", "    return mix(getFromColor(uv), getToColor(uv), progress * amount);", "}", ""]
            for ending in ["\r\n", "\r"] {
                try expectExactEnds(try Self.source(lines.joined(separator: ending)))
            }
            var broken = lines
            broken[4] = "    return getToColor(uv) + nope;"
            let transition = try Self.source(broken.joined(separator: "\r\n"), name: "crlf.glsl")
            #expect { _ = try GLESRenderer().prepare(transition) } throws: { "\($0)".hasPrefix("crlf.glsl:5") }
        }

        /// A GLSL ES 1.00 file that defines its own `texture` (3.00 refuses that) runs as 1.00, exact at the
        /// ends, with its errors on its own lines.
        @Test func glsl100FileWithItsOwnTextureFunctionRuns() throws {
            let file = """
                // Defines texture(), as WebGL 1 files may.
                precision mediump float;
                uniform float amount; // = 1.0
                vec4 texture(vec2 p) {
                    return texture2D(segue_from, vec2(p.x, 1.0 - p.y));
                }
                vec4 transition(vec2 uv) {
                    return mix(texture(uv), getToColor(uv), progress * amount);
                }
                """
            let transition = try Self.source(file)
            #expect(transition.isGLSL100)
            try expectExactEnds(transition)
            // The same picture as a 3.00 file.
            let new = try Self.source("vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress); }")
            let renderer = try GLESRenderer()
            #expect(Self.difference(try render(transition, progress: 0.5, on: renderer), try render(new, progress: 0.5, on: renderer)) == nil)
            let broken = try Self.source(file.replacingOccurrences(of: "progress * amount", with: "progress * nope"), name: "old.glsl")
            #expect { _ = try renderer.prepare(broken) } throws: { "\($0)".hasPrefix("old.glsl:8") }
        }

        /// Globals that start from uniforms (`float r = ratio / 4.0;`, `vec2 c = center;`) run in both dialects,
        /// with the values the uniforms have; an error in such an initialiser is on its own line.
        @Test func globalsInitialisedFromUniformsRun() throws {
            for dialect in ["", "#version 100\n"] {
                let probe = try Self.source(dialect + """
                    uniform vec2 center; // = vec2(0.25, 0.75)
                    float r = ratio / 4.0;
                    vec2 c = center;
                    vec4 transition(vec2 uv) { return vec4(c, r, 1.0); }
                    """)
                #expect(probe.globalInitializers.count == 2)
                let frame = try render(probe, progress: 0.5)
                // ratio 4/3: r = 1/3, blue 85; center (0.25, 0.75): 64, 191.
                #expect(frame[10, 10] == 0xFF55_BF40, "\(String(frame[10, 10], radix: 16))")
                let moved = try render(probe, progress: 0.5, values: ["center": ShaderValue(type: .vec2, components: [1, 0])!])
                #expect(moved[10, 10] == 0xFF55_00FF, "\(String(moved[10, 10], radix: 16))")
                let mix = try Self.source(dialect + """
                    float p = progress;
                    vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), p); }
                    """)
                try expectExactEnds(mix)
            }
            let broken = try Self.source("// x\nfloat r = ratio *\n  nope;\nvec4 transition(vec2 uv) { return getToColor(uv) * r; }", name: "g.glsl")
            #expect { _ = try GLESRenderer().prepare(broken) } throws: { "\($0)".hasPrefix("g.glsl:2") }
        }

        /// `uniform bool flip; // = 1` is true.
        @Test func boolDefaultOfOneIsTrue() throws {
            let t = try Self.source("""
                uniform bool flip; // = 1
                vec4 transition(vec2 uv) { return flip ? mix(getToColor(uv), getFromColor(uv), progress) : getToColor(uv); }
                """)
            let frame = try render(t, progress: 0)
            #expect(Self.difference(frame, Self.shown[1]) == nil)
            let off = try render(t, progress: 0, values: ["flip": ShaderValue(type: .bool, components: [0])!])
            #expect(Self.difference(off, Self.shown[1]) == nil)
            #expect(Self.difference(try render(t, progress: 1), Self.shown[0]) == nil)
        }

        /// A sampler2D parameter shows its image upright (uv (0, 1) is its top-left, as WebGL's flipped images),
        /// in both dialects, bound after the snapshots; another image gives other pixels; none is an error.
        @Test func samplerParametersShowTheirImage() throws {
            // Top half white, bottom half red, left column blue.
            var image = Pixmap(width: 8, height: 8, fill: 0xFF00_00FF)
            for y in 0..<4 { for x in 0..<8 { image[x, y] = 0xFFFF_FFFF } }
            for y in 0..<8 { image[0, y] = 0xFFFF_0000 }
            for (source, sample) in [("", "texture"), ("#version 100\n", "texture2D")] {
                let t = try Self.source(source + """
                    uniform sampler2D map;
                    uniform sampler2D other;
                    vec4 transition(vec2 uv) { return mix(\(sample)(map, uv), \(sample)(other, uv), progress); }
                    """)
                let black = Pixmap(width: 1, height: 1, fill: 0xFF00_0000)
                let values = ["map": ShaderValue(image: image), "other": ShaderValue(image: black)]
                let frame = try render(t, progress: 0, values: values)
                #expect(frame[32, 2] == 0xFFFF_FFFF && frame[32, 45] == 0xFF00_00FF, "\(source)")
                #expect(frame[0, 2] == 0xFFFF_0000 && frame[0, 45] == 0xFFFF_0000, "\(source)")
                #expect(Set(try render(t, progress: 1, values: values).pixels) == [0xFF00_0000])
                #expect(throws: SegueError(.invalidOption(effect: t.name, option: "map", value: ""),
                                           "map is a sampler2D: give an image with the parameter map=FILE.png")) {
                    _ = try GLESRenderer().prepare(t, values: ["other": ShaderValue(image: black)])
                }
            }
        }
    }
}
