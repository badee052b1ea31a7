import Foundation
import SegueGLES
import Testing

/// The shaders built into the binary (`Sources/SegueGLES/ShaderSources.swift`, written by
/// `Shaders/generate.sh`) are the files in `Shaders/`, and the files pass `glslangValidator`.
@Suite struct ShaderSourcesTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    private static let shaders = root.appendingPathComponent("Shaders")

    private static func shaderFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: shaders.path)
            .filter { $0.hasSuffix(".vert") || $0.hasSuffix(".frag") }.sorted()
    }

    @Test func generatedFileIsInSync() throws {
        let files = try Self.shaderFiles()
        #expect(files.contains("layer.vert") && files.contains("layer.frag"))
        #expect(ShaderSources.files.map(\.name).sorted() == files, "run Shaders/generate.sh")
        for name in files {
            let text = try String(contentsOf: Self.shaders.appendingPathComponent(name), encoding: .utf8)
            #expect(ShaderSources.text(of: name) == text, "\(name) differs from ShaderSources.swift; run Shaders/generate.sh")
        }
        // The shipped transitions, and each one parses.
        let transitions = try FileManager.default.contentsOfDirectory(atPath: Self.shaders.appendingPathComponent("transitions").path)
            .filter { $0.hasSuffix(".glsl") }.sorted()
        #expect(transitions.count == 5)
        #expect(ShaderSources.transitions.map(\.name) == transitions, "run Shaders/generate.sh")
        for name in transitions {
            let text = try String(contentsOf: Self.shaders.appendingPathComponent("transitions/\(name)"), encoding: .utf8)
            #expect(ShaderSources.transitions.first { $0.name == name }?.text == text, "\(name) differs; run Shaders/generate.sh")
        }
        #expect(ShippedTransitions.all.map(\.name) == transitions.map { String($0.dropLast(5)) })
        // And the generator, run now, writes the committed file byte for byte.
        let committed = try String(contentsOf: Self.root.appendingPathComponent("Sources/SegueGLES/ShaderSources.swift"), encoding: .utf8)
        let (status, output) = try Self.run("/bin/bash", [Self.shaders.appendingPathComponent("generate.sh").path, "--stdout"])
        #expect(status == 0)
        #expect(output == committed, "Shaders/generate.sh would write a different ShaderSources.swift; run it")
    }

    @Test func shadersPassGlslangValidator() throws {
        let validator = ["/usr/bin/glslangValidator", "/usr/local/bin/glslangValidator"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        try #require(validator != nil, "glslangValidator is not installed (apt-get install glslang-tools)")
        let (status, output) = try Self.run("/bin/bash", [Self.shaders.appendingPathComponent("check.sh").path])
        #expect(status == 0, "Shaders/check.sh failed:\n\(output)")
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
