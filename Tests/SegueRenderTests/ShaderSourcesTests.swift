import Foundation
@testable import SegueGLES
import SegueCore
import Testing

/// The shaders built into the binary (`Shaders/`, embedded by SwiftPM's `.embedInCode`) are
/// all listed in `ShaderSources`; every program the renderer compiles passes `glslangValidator` as the renderer
/// builds it; the draw item's record is laid out as the GLSL struct word for word.
@Suite struct ShaderSourcesTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    private static let shaders = root.appendingPathComponent("Shaders")

    private static func files(in directory: URL, _ suffixes: [String]) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { name in suffixes.contains { name.hasSuffix($0) } }.sorted()
    }

    /// SwiftPM embeds every file but cannot list them: each must be named in ShaderSources.swift.
    @Test func everyShaderFileIsListed() throws {
        let files = try Self.files(in: Self.shaders, [".vert", ".frag", ".comp", ".glsl"])
        #expect(files.contains("layer.vert") && files.contains("layer.frag") && files.contains("composite.comp"))
        #expect(ShaderSources.files.map(\.name).sorted() == files,
                "list each file of Shaders/ in ShaderSources.files")
        for name in files {
            let text = try String(contentsOf: Self.shaders.appendingPathComponent(name), encoding: .utf8)
            #expect(ShaderSources.files.first { $0.name == name }?.text == text, "\(name) is not built in byte for byte")
        }
        // The per-pixel function is written once: both paths compile it from draw-item.glsl.
        let function = try #require(ShaderSources.files.first { $0.name == "draw-item.glsl" }?.text)
        for name in ["layer.frag", "composite.comp"] {
            let raw = try #require(ShaderSources.files.first { $0.name == name }?.text)
            #expect(raw.contains("#include \"draw-item.glsl\"") && !raw.contains("vec4 drawItemColor("), "\(name) must include the function, not copy it")
            #expect(ShaderSources.text(of: name)?.contains(function) == true, "\(name) as compiled must hold draw-item.glsl")
        }
        // The shipped transitions, and each one parses.
        let transitions = try Self.files(in: Self.shaders.appendingPathComponent("transitions"), [".glsl"])
        #expect(transitions.count == 5)
        #expect(ShaderSources.transitions.map(\.name) == transitions,
                "list each file of Shaders/transitions/ in ShaderSources.transitions, in name order")
        for name in transitions {
            let text = try String(contentsOf: Self.shaders.appendingPathComponent("transitions/\(name)"), encoding: .utf8)
            #expect(ShaderSources.transitions.first { $0.name == name }?.text == text, "\(name) is not built in byte for byte")
        }
        #expect(ShippedTransitions.all.map(\.name) == transitions.map { String($0.dropLast(5)) })
    }

    static var validator: String? {
        ["/usr/bin/glslangValidator", "/usr/local/bin/glslangValidator"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The files that need no preamble, and the shipped transitions (scripts/check-shaders.sh).
    @Test func shadersPassGlslangValidator() throws {
        try #require(Self.validator != nil, "glslangValidator is not installed (apt-get install glslang-tools)")
        let script = Self.root.appendingPathComponent("scripts/check-shaders.sh")
        let (status, output) = try Self.run("/bin/bash", [script.path])
        #expect(status == 0, "scripts/check-shaders.sh failed:\n\(output)")
    }

    /// Every program of the per-pixel function, built as the renderer builds it (`ShaderSources.text(of:defines:)`:
    /// the record's definitions, then the variant's switches): each `layer.frag` variant, and `composite.comp`
    /// for each output with every kind of item and with none.
    @Test func everyProgramPassesGlslangValidator() throws {
        let validator = try #require(Self.validator, "glslangValidator is not installed (apt-get install glslang-tools)")
        var programs: [(name: String, stage: String, source: String?)] = LayerVariant.all.map {
            ("layer.frag (\($0))", "frag", ShaderSources.text(of: LayerProgram.fragmentFile, defines: $0.defines))
        }
        for output in ComputeCompositor.Output.allCases {
            for kinds in [ComputeCompositor.Kinds.every, ComputeCompositor.Kinds([])] {
                let defines = ComputeCompositor.defines(output: output, kinds: kinds)
                programs.append(("composite.comp (\(defines.split(separator: "\n").joined(separator: ", ")))", "comp",
                                 ShaderSources.text(of: ComputeCompositor.shaderFile, defines: defines)))
            }
        }
        #expect(programs.count == 2 * MaskKind.allCases.count * 2 * 2 + 1 + 2 * ComputeCompositor.Output.allCases.count)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("segue-programs-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (k, program) in programs.enumerated() {
            let source = try #require(program.source, "\(program.name) has no source")
            let file = scratch.appendingPathComponent("\(k).\(program.stage)")
            try source.write(to: file, atomically: true, encoding: .utf8)
            let (status, output) = try Self.run(validator, [file.path])
            #expect(status == 0, "\(program.name) fails glslangValidator:\n\(output)")
        }
    }

    /// `DrawItemRecord` (the core's) and `struct DrawItemRecord` (draw-item.glsl) name the same fields, of the
    /// same types, at the same offsets in std430 (and std140: every field is a four-word vector), word by word;
    /// Swift's layout has no padding, so the compute path's upload is a copy of the records.
    @Test func theRecordIsTheGLSLStructWordForWord() throws {
        let text = try #require(ShaderSources.files.first { $0.name == "draw-item.glsl" }?.text)
        let body = try #require(text.components(separatedBy: "struct DrawItemRecord {").dropFirst().first?
            .components(separatedBy: "};").first, "draw-item.glsl has no struct DrawItemRecord")
        let members = body.split(separator: "\n").compactMap { line -> (type: String, name: String)? in
            let code = line.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
            let words = code.replacingOccurrences(of: ";", with: "").split(separator: " ").map(String.init)
            return words.count == 2 ? (words[0], words[1]) : nil
        }
        let swift = DrawItemRecord.fields
        #expect(members.map(\.name) == swift.map(\.name))
        #expect(members.map(\.type) == swift.map(\.type.rawValue))
        // std430: a vec4 or ivec4 is 16 bytes aligned to 16, so member k starts at word 4k.
        for (k, field) in swift.enumerated() {
            #expect(field.offset == 16 * k, "\(field.name) is at byte \(field.offset) in Swift, \(16 * k) in GLSL")
        }
        #expect(MemoryLayout<DrawItemRecord>.size == 16 * members.count)
        #expect(MemoryLayout<DrawItemRecord>.stride == 16 * members.count)
        #expect(DrawItemRecord.words == 4 * members.count)
        // Every mask kind has its #define, and no shader writes a kind as a bare number.
        for kind in MaskKind.allCases {
            #expect(DrawItemRecord.glslDefinitions.contains("#define \(kind.glslName) \(kind.rawValue)\n"))
        }
        for name in ["draw-item.glsl", "layer.frag", "composite.comp"] {
            let source = try #require(ShaderSources.files.first { $0.name == name }?.text)
            #expect(source.range(of: #"maskKind == [0-9]|HAS_MASK\([0-9]\)|MASK [0-9]"#, options: .regularExpression) == nil,
                    "\(name) names a mask kind by number")
        }
    }

    private static func run(_ tool: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
