import Foundation
import SegueTestSupport
import Testing

/// Runs `segue` with libEGL.so.1 and libGLESv2.so.2 (or other libraries) hidden from it.
enum WithoutGLESLibraries {
    static let unshare = URL(fileURLWithPath: "/usr/bin/unshare")
    static let namespace = ["--user", "--map-root-user", "--mount"]

    /// Whether this machine lets this user make a mount namespace of its own.
    static let canHide: Bool = {
        guard FileManager.default.isExecutableFile(atPath: unshare.path) else { return false }
        let process = Process()
        process.executableURL = unshare
        process.arguments = namespace + ["/bin/true"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// Bind-mounts the empty file `$1` over each copy of the libraries named after it (up to `--`) that the
    /// loader's cache lists (none where they are not installed), checks they are hidden, then runs the rest.
    static let hide = """
        set -e
        empty=$1; shift
        names=""
        while [ "$1" != -- ]; do names="$names $1"; shift; done
        shift
        for lib in $(/sbin/ldconfig -p | awk -v names="$names" 'BEGIN { n = split(names, want, " ") }
                                                              { for (i = 1; i <= n; i++) if ($1 == want[i]) print $NF }'); do
            mount --bind "$empty" "$lib"
            [ ! -s "$lib" ] || { echo "could not hide $lib" >&2; exit 97; }
        done
        exec "$@"
        """

    /// `segue arguments` in `dir` with `libraries` (sonames) hidden: libEGL.so.1 and libGLESv2.so.2 unless
    /// told otherwise (`MissingHeifLibraryTests` hides libheif.so.1).
    static func hidden(_ arguments: [String], in dir: URL,
                       libraries: [String] = ["libEGL.so.1", "libGLESv2.so.2"]) throws -> Segue.Result {
        let empty = dir.appendingPathComponent(".empty")
        _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
        return try Segue.run(namespace + ["/bin/sh", "-c", hide, "sh", empty.path] + libraries + ["--", try Segue.executable.path] + arguments,
                             in: dir, executable: unshare)
    }
}

/// `segue` on a machine without libEGL.so.1 and libGLESv2.so.2: they are opened with dlopen when GLES is first
/// asked for, not linked, so the binary starts, draws on the CPU, `--backend auto` falls back with a note naming
/// the library, `--backend gles` fails with one line naming it, and `segue info` and `segue doctor` say GLES
/// is unavailable and why.
///
/// The libraries are hidden from one command at a time: in a new user and mount namespace (no root needed
/// where the kernel allows unprivileged user namespaces), an empty file is bind-mounted over every copy the
/// loader's cache lists, so dlopen fails ("file too short") as it does where they are not installed.
@Suite(.enabled(if: WithoutGLESLibraries.canHide,
                "needs `unshare --user --map-root-user --mount` (unprivileged user namespaces) to hide the libraries"))
struct MissingGLESLibraryTests {
    let render = ["render", "door", "--from", "sample:home", "--to", "sample:detail", "--size", "40x72", "--progress", "0.5"]

    /// The binary does not need either library to start (neither is in its ELF NEEDED list, directly or not).
    @Test func binaryDoesNotLinkThem() throws {
        let ldd = try Segue.run([try Segue.executable.path], executable: URL(fileURLWithPath: "/usr/bin/ldd"))
        #expect(ldd.status == 0, "\(ldd.stderr)")
        let lines = String(decoding: ldd.stdout, as: UTF8.self).split(separator: "\n")
        #expect(!lines.contains { $0.contains("libEGL") || $0.contains("libGLESv2") }, "\(lines)")
    }

    @Test func cpuRenders() throws {
        let dir = try temporaryDirectory()
        let out = dir.appendingPathComponent("cpu.png")
        let cpu = try WithoutGLESLibraries.hidden(render + ["--backend", "cpu", "--out", out.path], in: dir)
        #expect(cpu.status == 0, "\(cpu.stderr)")
        #expect(cpu.stderr == "")
        #expect(FileManager.default.fileExists(atPath: out.path))
    }

    @Test func autoFallsBackWithANoteNamingTheLibrary() throws {
        let dir = try temporaryDirectory()
        let out = dir.appendingPathComponent("auto.png")
        let auto = try WithoutGLESLibraries.hidden(render + ["--backend", "auto", "--out", out.path], in: dir)
        #expect(auto.status == 0, "\(auto.stderr)")
        #expect(auto.stderr.hasPrefix("segue: GLES is unavailable (libEGL.so.1 cannot be loaded: "), "\(auto.stderr)")
        #expect(auto.stderr.hasSuffix("(install libegl1 and a GLES driver, such as Mesa's)); using the CPU compositor\n"), "\(auto.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.path))
    }

    @Test func glesFailsWithOneLineNamingTheLibrary() throws {
        let dir = try temporaryDirectory()
        let gles = try WithoutGLESLibraries.hidden(render + ["--backend", "gles", "--out", dir.appendingPathComponent("gles.png").path], in: dir)
        #expect(gles.status == 1)
        #expect(gles.stderr.hasPrefix("segue: error: the GLES backend is unavailable: libEGL.so.1 cannot be loaded: "), "\(gles.stderr)")
        #expect(gles.stderr.split(separator: "\n").count == 1, "\(gles.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("gles.png").path))
    }

    @Test func infoSaysGLESIsUnavailable() throws {
        let dir = try temporaryDirectory()
        let info = try WithoutGLESLibraries.hidden(["info"], in: dir)
        #expect(info.status == 0, "\(info.stderr)")
        let text = String(decoding: info.stdout, as: UTF8.self)
        #expect(text.contains("\n  surfaceless: unavailable - libEGL.so.1 cannot be loaded: "), "\(text)")
        #expect(text.contains("\ngles: unavailable - libEGL.so.1 cannot be loaded: "), "\(text)")
        #expect(text.contains("\ncpu: available - "), "\(text)")
        #expect(text.contains("\nauto: cpu (GLES is unavailable: libEGL.so.1 cannot be loaded: "), "\(text)")
    }

    /// `segue doctor` says why GLES is unavailable; that fails it only where GLES was asked for.
    @Test func doctorSaysGLESIsUnavailable() throws {
        let dir = try temporaryDirectory()
        let quick = ["doctor", "--quick", "--quiet", "--seconds", "0.05"]
        let both = try WithoutGLESLibraries.hidden(quick, in: dir)
        let bothText = String(decoding: both.stdout, as: UTF8.self)
        #expect(both.status == 0, "\(bothText)\(both.stderr)")
        #expect(bothText.contains("\ngles: unavailable - libEGL.so.1 cannot be loaded: "), "\(bothText)")
        let gles = try WithoutGLESLibraries.hidden(quick + ["--backend", "gles"], in: dir)
        let glesText = String(decoding: gles.stdout, as: UTF8.self)
        #expect(gles.status == 1)
        // After what the machine is (the PCIe and nvidia-smi lines).
        #expect(glesText.contains("\ngles: unavailable - libEGL.so.1 cannot be loaded: "), "\(glesText)")
        #expect(glesText.contains("\ndoctor: FAILED - a backend asked for is unavailable"), "\(glesText)")
    }
}
