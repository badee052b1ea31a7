import Foundation
import SegueCore
import SegueImageIO
import SegueTestSupport
import Testing

/// Runs the built `segue` binary and captures what it prints.
struct Segue {
    struct Result {
        let status: Int32
        let stdout: Data
        let stderr: String
    }

    struct MissingExecutable: Error, CustomStringConvertible {
        let looked: [String]
        var description: String {
            "the segue executable is not beside the test bundle (looked for \(looked.joined(separator: ", "))); "
                + "build it with the tests: swift build --build-tests"
        }
    }

    /// The directories SwiftPM may have put this build's products in: the one holding the test bundle
    /// (`<products>/SeguePackageTests.xctest`, a bundle directory on macOS) or the test executable (Linux).
    /// Whatever the configuration or scratch path, `segue` is built there, since the test target depends on it.
    private static var productDirectories: [URL] {
        var dirs: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            dirs.append(bundle.bundleURL.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        if let main = Bundle.main.executableURL {
            dirs.append(main.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        dirs.append(URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
        return dirs
    }

    private static let located: Swift.Result<URL, MissingExecutable> = {
        var seen: [String] = []
        for dir in productDirectories {
            let candidate = dir.appendingPathComponent("segue")
            if seen.contains(candidate.path) { continue }
            seen.append(candidate.path)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return .success(candidate) }
        }
        return .failure(MissingExecutable(looked: seen))
    }()

    /// The `segue` executable of this build, beside the test bundle; throws a clear error when it is missing.
    static var executable: URL {
        get throws { try located.get() }
    }

    /// Runs `segue` with `arguments`; `executable` runs another path to it instead (a link under another name).
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                    executable: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = try executable ?? Self.executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes while it runs so a large stream cannot block it.
        // The semaphore orders the reader's write before our read (ThreadSanitizer checks it).
        nonisolated(unsafe) var errData = Data()
        let readDone = DispatchSemaphore(value: 0)
        let reader = Thread {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            readDone.signal()
        }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        readDone.wait()
        let result = Result(status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
        // Every refusal any suite provokes is checked for words (`MessageWords`).
        for finding in MessageWords.findings(in: result.stderr) {
            Issue.record("segue \(arguments.joined(separator: " ")): an error line that is not words: \(finding)")
        }
        return result
    }
}

/// The rule for what segue prints as an error: words. No type's description (`ExitCode(rawValue: 1)`,
/// `Optional("x")`, `SegueError(kind: ...)`), no Foundation error domain, and every limit with its number.
enum MessageWords {
    static let forbidden = ["ExitCode(", "Optional(", "NSCocoaErrorDomain", "Error Domain", "rawValue:", "NSError", "nil)"]

    /// Each `segue: error:` line of `stderr` that breaks the rule, with why.
    static func findings(in stderr: String) -> [String] {
        var found: [String] = []
        for line in stderr.split(separator: "\n").map(String.init) where line.hasPrefix("segue: error:") {
            if let word = forbidden.first(where: { line.contains($0) }) {
                found.append("'\(word)' in \(line)")
            } else if line.range(of: #"\b[A-Z][A-Za-z0-9]*\([a-z][A-Za-z]*: "#, options: .regularExpression) != nil {
                found.append("a type's description in \(line)")
            } else if line.lowercased().contains("limit"), !line.contains("ulimit"), line.rangeOfCharacter(from: .decimalDigits) == nil {
                found.append("a limit without its number in \(line)")
            }
        }
        return found
    }
}

@Suite struct CommandLineTests {
    let base = ["render", "door", "--from", "sample:home", "--to", "sample:detail", "--size", "40x72", "--backend", "cpu"]

    @Test func rendersOneFrameToAFile() throws {
        let dir = try temporaryDirectory()
        let out = dir.appendingPathComponent("mid.png").path
        let r = try Segue.run(base + ["--progress", "0.5", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let frame = try ImageDecoder.decode(contentsOf: out)
        #expect(frame.width == 40 && frame.height == 72)
        // Only the finished file is left: no temporary names.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["mid.png"])
    }

    @Test func rendersEveryFrameIntoADirectory() throws {
        let dir = try temporaryDirectory()
        // door lasts 0.5 s: at 20 fps that is frames 0 ... 10.
        let r = try Segue.run(base + ["--fps", "20", "--out", dir.appendingPathComponent("frames").path, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let names = try frameDirectoryNames(atPath: dir.appendingPathComponent("frames").path).sorted()
        #expect(names.count == 11)
        #expect(names.first == "frame_00000.png" && names.last == "frame_00010.png")
    }

    @Test func streamsRawRGBA() throws {
        let r = try Segue.run(base + ["--fps", "10", "--out", "-", "--format", "rgba"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.count == 6 * 40 * 72 * 4)
    }

    @Test func streamsY4M() throws {
        let r = try Segue.run(base + ["--fps", "10", "--out", "-", "--format", "y4m", "--y4m-chroma", "420"])
        #expect(r.status == 0, "\(r.stderr)")
        let header = String(decoding: r.stdout.prefix(while: { $0 != 0x0A }), as: UTF8.self)
        #expect(header == "YUV4MPEG2 W40 H72 F10:1 Ip A1:1 C420jpeg XCOLORRANGE=FULL")
        let frameBytes = 6 + 40 * 72 + 2 * 20 * 36
        #expect(r.stdout.count == header.utf8.count + 1 + 6 * frameBytes)
    }

    @Test func effectsListsEveryEffect() throws {
        let r = try Segue.run(["effects", "--json"])
        #expect(r.status == 0)
        let json = try JSONSerialization.jsonObject(with: r.stdout) as! [String: Any]
        let names = (json["effects"] as! [[String: Any]]).map { $0["name"] as! String }
        #expect(names == EffectCatalog.builtIn.map(\.name))
    }

    /// Started under the name `segue-bench` (bin/segue-bench is a link to bin/segue in the release archive),
    /// segue is the benchmark harness: an argument it does not know is its usage error, before anything is measured.
    @Test func answersAsTheBenchmarkUnderItsName() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("segue-bench")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: try Segue.executable)
        let r = try Segue.run(["--no-such-flag"], executable: link)
        #expect(r.status == 2)
        #expect(r.stderr == "segue-bench: unknown argument '--no-such-flag' (see the comment at the top of Bench.swift)\n")
        // Under its own name it is segue still.
        let own = try Segue.run(["--no-such-flag"])
        #expect(own.status == 2 && own.stderr.hasPrefix("segue: error: "), "\(own.stderr)")
    }

    /// Each bad input gets one clear line on stderr, the documented status, and no output file.
    @Test(arguments: [
        (["render", "wobble", "--from", "a", "--to", "b", "--out", "x"], Int32(2), "wobble"),
        (["render", "door", "--from", "sample:home", "--to", "sample:detail", "--out", "x.png", "--bogus"], 2, "--bogus"),
        (["render", "door", "--from", "sample:home", "--to", "sample:detail", "--out", "x.png", "--zoom", "abc"], 2, "abc"),
        (["render", "door", "--from", "sample:home", "--to", "sample:detail", "--out", "x.png", "--progress", "1.5"], 2,
         "--progress must be in [0, 1], not 1.5"),
        (["render", "hero", "--from", "sample:home", "--to", "sample:detail", "--out", "x.png", "--progress", "0.5",
          "--from-rect", "0,0,0,10", "--to-rect", "0,0,10,10"], 2, "--from-rect 0,0,0,10 has no area"),
        (["render", "circle-spread", "--from", "sample:home", "--to", "sample:detail", "--out", "x.png", "--progress", "0.5",
          "--start-radius", "-5"], 2, "--start-radius must be >= 0, not -5"),
        (["render", "fade", "--from", "sample:home", "--to", "sample:detail", "--out", "x.png", "--progress", "0.5",
          "--zoom", "2"], 2, "--zoom does not apply to fade"),
        (["render", "door", "--from", "missing.png", "--to", "sample:detail", "--out", "x.png", "--progress", "0.5"], 1,
         "cannot read 'missing.png'"),
        (["render", "door", "--from", "notes.txt", "--to", "sample:detail", "--out", "x.png", "--progress", "0.5"], 1,
         "'notes.txt' is not a PNG, JPEG or HEIC image"),
        (["render", "door", "--from", "sample:home", "--to", "sample:detail", "--out", "x.png", "--curve", "wiggle"], 2,
         "unknown curve 'wiggle'"),
        (["render", "door", "--from", "sample:home", "--to", "sample:detail", "--out", "x.png", "--backend", "gpu"], 2,
         "unknown backend 'gpu'"),
        (["render", "--shader", "pixelate", "--from", "sample:home", "--to", "sample:detail", "--out", "x.png", "--param", "cells=abc"], 2,
         "--param 'cells=abc': cells is declared ivec2"),
        (["render", "--shader", "ripple", "--from", "sample:home", "--to", "sample:detail", "--out", "x.png", "--param", "foo=1"], 2,
         "unknown --param 'foo' (the shader declares: amplitude (float), frequency (float), center (vec2))"),
        (["render", "--shader", "ripple", "--from", "sample:home", "--to", "sample:detail", "--out", "x.png", "--backend", "cpu"], 2,
         "--shader needs the GLES backend"),
        (["render", "--shader", "wobble", "--from", "sample:home", "--to", "sample:detail", "--out", "x.png"], 2,
         "unknown --shader 'wobble'"),
        (["render", "door", "--shader", "ripple", "--from", "sample:home", "--to", "sample:detail", "--out", "x.png"], 2,
         "give an effect or --shader, not both"),
        (["render", "--from", "sample:home", "--to", "sample:detail", "--out", "x.png"], 2, "give an effect, or --shader"),
        (["render", "--shader", "ripple", "--from", "sample:home", "--to", "sample:detail", "--out", "x.png", "--zoom", "2"], 2,
         "--zoom does not apply to --shader"),
    ] as [([String], Int32, String)])
    func badInputIsOneClearLine(_ arguments: [String], _ status: Int32, _ message: String) throws {
        let dir = try temporaryDirectory()
        try Data("hello".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        let r = try Segue.run(arguments, in: dir)
        #expect(r.status == status, "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("segue: error: "))
        #expect(!r.stderr.contains("Fatal error"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["notes.txt"])
    }

    /// `auto` falls back to the CPU with one line saying why; `gles` and a forced platform fail clearly.
    @Test func backendSelection() throws {
        let dir = try temporaryDirectory()
        let args = ["render", "fade", "--from", "sample:home", "--to", "sample:detail", "--size", "40x72", "--progress", "0.5"]
        let fallback = try Segue.run(args + ["--out", dir.appendingPathComponent("a.png").path], environment: ["SEGUE_EGL_FAIL": "1"])
        #expect(fallback.status == 0)
        #expect(fallback.stderr == "segue: GLES is unavailable (EGL context creation is disabled: SEGUE_EGL_FAIL=1 is set); using the CPU compositor\n")
        let forced = try Segue.run(args + ["--out", dir.appendingPathComponent("b.png").path, "--backend", "gles"],
                                   environment: ["SEGUE_EGL_FAIL": "1"])
        #expect(forced.status == 1)
        #expect(forced.stderr.hasPrefix("segue: error: the GLES backend is unavailable"))
        let gbm = try Segue.run(args + ["--out", dir.appendingPathComponent("c.png").path, "--egl-platform", "gbm"])
        if !FileManager.default.fileExists(atPath: "/dev/dri") {
            #expect(gbm.status == 1)
            #expect(gbm.stderr.contains("gbm is unavailable: no DRM render node (/dev/dri/renderD*)"), "\(gbm.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["a.png"])
        // Both backends draw the same picture.
        let cpu = try Segue.run(args + ["--out", "-", "--format", "rgba", "--backend", "cpu"])
        let gles = try Segue.run(args + ["--out", "-", "--format", "rgba", "--backend", "gles"])
        #expect(gles.status == 0, "\(gles.stderr)")
        #expect(cpu.stdout.count == gles.stdout.count)
        let worst = zip(cpu.stdout, gles.stdout).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 2)
    }

    /// A custom shader renders on GLES; a compile error is exit 1 with the file's own line first.
    @Test func customShader() throws {
        let dir = try temporaryDirectory()
        let args = ["--from", "sample:home", "--to", "sample:detail", "--size", "40x72"]
        let frames = try Segue.run(["render", "--shader", "ripple", "--param", "amplitude=0.05", "--fps", "10", "--out", "-",
                                    "--format", "rgba"] + args)
        #expect(frames.status == 0, "\(frames.stderr)")
        #expect(frames.stdout.count == 11 * 40 * 72 * 4)  // 1 s at 10 fps
        let broken = dir.appendingPathComponent("broken.glsl")
        try Data("// broken\nuniform float a; // = 1.0\n\nvec4 transition(vec2 uv) {\n  vec4 x = getFromColor(uv);\n  vec4 y = getToColor(uv);\n  return mix(x, y, progress) + nope;\n}\n".utf8).write(to: broken)
        let r = try Segue.run(["render", "--shader", broken.path, "--progress", "0.5", "--out", dir.appendingPathComponent("x.png").path] + args)
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("segue: error: \(broken.path):7"), "\(r.stderr)")
        #expect(r.stderr.contains("nope"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["broken.glsl"])
        let noGLES = try Segue.run(["render", "--shader", "ripple", "--progress", "0.5", "--out", dir.appendingPathComponent("y.png").path] + args,
                                   environment: ["SEGUE_EGL_FAIL": "1"])
        #expect(noGLES.status == 1)
        #expect(noGLES.stderr.hasPrefix("segue: error: --shader needs the GLES backend, which is unavailable"), "\(noGLES.stderr)")
        let effects = try Segue.run(["effects", "--json"])
        let json = try JSONSerialization.jsonObject(with: effects.stdout) as! [String: Any]
        let names = (json["transitions"] as! [[String: Any]]).map { $0["name"] as! String }
        #expect(names == ["dissolve-noise", "pixelate", "radial-sweep", "ripple", "wipe-diagonal"])
    }

    /// Every platform, and a frame asked of each GLES path drawn by that path (the renderer's count), in
    /// the text and in `--json` (its calibration in a cache of the test's own, not the user's).
    @Test func infoReportsEveryPlatform() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("segue-info-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let environment = ["XDG_CACHE_HOME": cache.path]
        let r = try Segue.run(["info"], environment: environment)
        #expect(r.status == 0)
        let text = String(decoding: r.stdout, as: UTF8.self)
        for platform in ["gbm:", "device:", "surfaceless:", "GL_RENDERER", "auto: "] { #expect(text.contains(platform), "\(text)") }
        let j = try Segue.run(["info", "--json"], environment: environment)
        #expect(j.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: j.stdout) as? [String: Any])
        let platforms = (json["platforms"] as? [[String: Any]])?.compactMap { $0["platform"] as? String }
        #expect(platforms == ["gbm", "device", "surfaceless"])
        #expect((json["auto"] as? String)?.isEmpty == false && json["cpu"] is String && json["scheduler"] is String)
        guard let gles = json["gles"] as? [String: Any] else { return }  // no GLES here: said in glesUnavailable
        let paths = try #require(gles["paths"] as? [String])
        let drawn = try #require(gles["checkFrameDrawnBy"] as? [String: [String: Int]])
        #expect(paths.first == "raster")
        for path in paths { #expect(drawn[path] == [path: 1], "\(drawn)") }
        #expect(text.contains("  a 64x36 frame on each path, drawn by: raster: raster 1"), "\(text)")
    }

    /// `segue info` reads auto's calibration from the cache (a figure written there shows), and
    /// `--recalibrate` measures again and replaces it.
    @Test func infoRecalibrates() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("segue-info-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let environment = ["XDG_CACHE_HOME": cache.path]
        let first = try Segue.run(["info"], environment: environment)
        #expect(first.status == 0)
        let file = cache.appendingPathComponent("segue/calibration.json")
        guard String(decoding: first.stdout, as: UTF8.self).contains("measured on ") else { return }  // no GLES here: nothing measured
        // The CPU compositor's RGBA figure made 12345.5 ms a frame, as if measured so on a quiet machine (one
        // measured while busy, as during the suite, would be measured again once the machine is quiet).
        var entries = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        var figures = try #require(entries.first?["figures"] as? [String: Any])
        var rgba = try #require(figures["rgba"] as? [String: Any])
        rgba["cpu"] = 12345.5
        figures["rgba"] = rgba
        entries[0]["figures"] = figures
        entries[0]["busy"] = nil
        try JSONSerialization.data(withJSONObject: entries, options: [.prettyPrinted]).write(to: file)
        let cached = try Segue.run(["info"], environment: environment)
        #expect(String(decoding: cached.stdout, as: UTF8.self).contains("cpu 12345.50 ms"), "\(String(decoding: cached.stdout, as: UTF8.self))")
        let again = try Segue.run(["info", "--recalibrate"], environment: environment)
        #expect(again.status == 0)
        #expect(!String(decoding: again.stdout, as: UTF8.self).contains("12345.50"), "\(String(decoding: again.stdout, as: UTF8.self))")
        #expect(try !String(contentsOf: file, encoding: .utf8).contains("12345.5"), "--recalibrate did not replace the cached entry")
    }
}
