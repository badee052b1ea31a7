import Foundation
import SegueCore
import SegueImageIO
import SegueTestSupport
import Testing

/// `segue` on a machine without libheif.so.1: it is opened with dlopen when the first HEIC is read, not linked,
/// so the binary starts and reads PNG and JPEG, and a HEIC screen is refused in one line that names the file and
/// says to install libheif1, before anything is written. Hidden as `MissingGLESLibraryTests` hides EGL: an empty
/// file bind-mounted over each copy the loader's cache lists, in a user and mount namespace of its own.
@Suite(.enabled(if: WithoutGLESLibraries.canHide,
                "needs `unshare --user --map-root-user --mount` (unprivileged user namespaces) to hide the library"))
struct MissingHeifLibraryTests {
    static func hidden(_ arguments: [String], in dir: URL) throws -> Segue.Result {
        try WithoutGLESLibraries.hidden(arguments, in: dir, libraries: ["libheif.so.1"])
    }

    /// A HEIC fixture of the image decoder's tests (a 24x16 Display P3 photo).
    static let heic = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SegueImageIOTests/Fixtures/heic/p3-icc.heic").path

    @Test func binaryDoesNotLinkIt() throws {
        let ldd = try Segue.run([try Segue.executable.path], executable: URL(fileURLWithPath: "/usr/bin/ldd"))
        #expect(ldd.status == 0, "\(ldd.stderr)")
        #expect(!String(decoding: ldd.stdout, as: UTF8.self).contains("libheif"))
    }

    @Test func aHEICIsRefusedInOneLineAndAPNGRenders() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("heic.png")
        let r = try Self.hidden(["render", "fade", "--from", Self.heic, "--to", "sample:detail", "--progress", "0", "--backend", "cpu",
                                 "--out", out.path], in: dir)
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("segue: error: cannot read the HEIC image '\(Self.heic)': libheif.so.1 cannot be loaded: "), "\(r.stderr)")
        #expect(r.stderr.hasSuffix(" (install libheif1)\n"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))

        let png = dir.appendingPathComponent("screen.png")
        try Data(try PNGEncoder.encode(Pixmap(width: 8, height: 8, pixels: Array(repeating: 0xFF20_4080, count: 64)))).write(to: png)
        let plain = try Self.hidden(["render", "fade", "--from", png.path, "--to", "sample:detail", "--progress", "0", "--backend", "cpu",
                                     "--out", dir.appendingPathComponent("png.png").path], in: dir)
        #expect(plain.status == 0, "\(plain.stderr)")
    }
}
