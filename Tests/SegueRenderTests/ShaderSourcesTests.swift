import Foundation
import SegueGLES
import SegueCore
import Testing

/// The shaders built into the binary (`Shaders/`, embedded by SwiftPM's `.embedInCode`) are
/// all listed in `ShaderSources`, and the files pass `glslangValidator`.
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

    @Test func shadersPassGlslangValidator() throws {
        let validator = ["/usr/bin/glslangValidator", "/usr/local/bin/glslangValidator"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        try #require(validator != nil, "glslangValidator is not installed (apt-get install glslang-tools)")
        let script = Self.root.appendingPathComponent("scripts/check-shaders.sh")
        let (status, output) = try Self.run("/bin/bash", [script.path])
        #expect(status == 0, "scripts/check-shaders.sh failed:\n\(output)")
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
