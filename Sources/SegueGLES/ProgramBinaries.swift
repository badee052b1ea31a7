import CEGL
import Foundation
import SegueCore

/// Linked programs kept on disk as the driver's own binaries (`glGetProgramBinary`, core in OpenGL ES 3.0), so
/// that a program is compiled once per driver and shader text, not once per process: a driver compiles a
/// program in 50-300 ms, and a job sharded over a farm starts many processes. NVIDIA's own shader cache is off
/// for root and needs a writable home; this one lives in the user's cache directory
/// (`$XDG_CACHE_HOME/segue/programs`, `/cache` in the container image).
///
/// A file is named by a 64-bit hash of its key (the driver, the binary format and every stage's type and
/// text) and holds the whole 128-bit key, so a file made by another driver or for other text is never used; one
/// the driver refuses (a driver updated in place, a damaged file) is compiled again and replaced. At most
/// `maxFiles` files are kept, the oldest removed first, each at most `maxBytes`.
final class ProgramBinaries {
    let directory: URL
    private let driver: String
    private let format: GLenum
    /// Called for each program linked from a file (counted in `GLESStats.programsLoaded`).
    var loadedOne: () -> Void = {}

    static let maxFiles = 256
    static let maxBytes = 32 << 20
    /// `SEGUE_PROGRAM_CACHE=0`: every program compiled from its text (for comparing the two).
    static let disableSwitch = "SEGUE_PROGRAM_CACHE"
    private static let magic = Array("SEGUEPB1".utf8)

    /// The store for the current context, or nil where the driver offers no binary format (Mesa with its own
    /// shader cache disabled), where there is no cache directory, or where it is switched off.
    init?(info: GLInfo, environment: [String: String]) {
        guard environment[Self.disableSwitch] != "0", let cache = UserCache.directory(environment: environment) else { return nil }
        var count: GLint = 0
        glGetIntegerv(GLenum(GL_NUM_PROGRAM_BINARY_FORMATS), &count)
        guard count > 0 else { return nil }
        var formats = [GLint](repeating: 0, count: Int(count))
        glGetIntegerv(GLenum(GL_PROGRAM_BINARY_FORMATS), &formats)
        directory = cache.appendingPathComponent("programs")
        driver = "\(info.eglVendor); \(info.renderer); \(info.version)"
        format = GLenum(bitPattern: formats[0])
    }

    /// The key of a program made of `stages` (each stage's GL type and text).
    func key(_ stages: [(type: Int32, text: String)]) -> Key {
        var key = Key()
        key.combine(driver)
        key.combine(String(format))
        for stage in stages {
            key.combine(String(stage.type))
            key.combine(stage.text)
        }
        return key
    }

    /// A program linked from the binary kept for `key`, or nil (none kept, or the driver refused it: then the
    /// file is removed).
    func program(for key: Key, ledger: GLObjectLedger) -> GLuint? {
        let file = directory.appendingPathComponent(key.fileName)
        guard let bytes = Self.contents(of: file), bytes.count > Self.headerBytes, Array(bytes[0..<8]) == Self.magic,
              Array(bytes[8..<24]) == key.bytes else { return nil }
        let format = bytes.withUnsafeBytes { GLenum(littleEndian: $0.loadUnaligned(fromByteOffset: 24, as: UInt32.self)) }
        let length = bytes.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 28, as: UInt32.self))) }
        guard format == self.format, length == bytes.count - Self.headerBytes else {
            try? FileManager.default.removeItem(at: file)
            return nil
        }
        var program = glCreateProgram()
        guard program != 0 else { return nil }
        ledger.created(.program)
        bytes.withUnsafeBytes { glProgramBinary(program, format, $0.baseAddress! + Self.headerBytes, GLsizei(length)) }
        var status: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &status)
        _ = glGetError()  // GL_INVALID_ENUM for a format the driver no longer takes: it is compiled again
        guard status == GL_TRUE else {
            ledger.delete(.program, &program) { _, name in glDeleteProgram(name.pointee) }
            try? FileManager.default.removeItem(at: file)
            return nil
        }
        loadedOne()
        return program
    }

    /// Keeps `program`'s binary for `key` (linked with `GL_PROGRAM_BINARY_RETRIEVABLE_HINT`). A cache: a
    /// failure to write it is not an error.
    func keep(_ program: GLuint, for key: Key) {
        var length: GLint = 0
        glGetProgramiv(program, GLenum(GL_PROGRAM_BINARY_LENGTH), &length)
        guard length > 0, Int(length) <= Self.maxBytes else { return }
        var binary = [UInt8](repeating: 0, count: Self.headerBytes + Int(length))
        var written: GLsizei = 0
        var format: GLenum = 0
        binary.withUnsafeMutableBytes { glGetProgramBinary(program, length, &written, &format, $0.baseAddress! + Self.headerBytes) }
        guard glGetError() == GLenum(GL_NO_ERROR), written == length, format == self.format else { return }
        binary.replaceSubrange(0..<8, with: Self.magic)
        binary.replaceSubrange(8..<24, with: key.bytes)
        withUnsafeBytes(of: UInt32(format).littleEndian) { binary.replaceSubrange(24..<28, with: $0) }
        withUnsafeBytes(of: UInt32(length).littleEndian) { binary.replaceSubrange(28..<32, with: $0) }
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // A name of its own: renderers in one process, and processes, may keep the same program at once.
            let temporary = directory.appendingPathComponent(".\(key.fileName).tmp-\(getpid())-\(UUID().uuidString)")
            try Data(binary).write(to: temporary)
            guard rename(temporary.path, directory.appendingPathComponent(key.fileName).path) == 0 else {
                try? manager.removeItem(at: temporary)
                return
            }
            trim()
        } catch {
            return
        }
    }

    /// Removes the oldest files past `maxFiles`, and temporaries a process that died left (10 minutes old).
    private func trim() {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory.path) else { return }
        func modified(_ name: String) -> Date {
            ((try? manager.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.modificationDate]) as? Date) ?? .distantPast
        }
        for name in names where name.contains(".tmp-") && modified(name) < Date(timeIntervalSinceNow: -600) {
            try? manager.removeItem(at: directory.appendingPathComponent(name))
        }
        let kept = names.filter { $0.hasSuffix(".bin") }
        guard kept.count > Self.maxFiles else { return }
        for name in kept.map({ ($0, modified($0)) }).sorted(by: { $0.1 < $1.1 }).prefix(kept.count - Self.maxFiles).map(\.0) {
            try? manager.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// A regular file's bytes, at most `maxBytes` and the header; nil otherwise.
    private static func contents(of file: URL) -> [UInt8]? {
        let fd = open(file.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size <= off_t(maxBytes + headerBytes) else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            filled += n
        }
        return bytes
    }

    /// Magic, key, format and length before the binary.
    private static let headerBytes = 32

    /// Two 64-bit FNV-1a hashes with different starting points over the key's parts (each ended by a zero).
    struct Key: Equatable {
        private var a: UInt64 = 0xCBF2_9CE4_8422_2325
        private var b: UInt64 = 0x6C62_272E_07BB_0142

        mutating func combine(_ text: String) {
            for byte in text.utf8 + [0] {
                a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                b ^= b >> 31
            }
        }

        var bytes: [UInt8] { withUnsafeBytes(of: a.littleEndian) { Array($0) } + withUnsafeBytes(of: b.littleEndian) { Array($0) } }

        var fileName: String {
            let digits = String(a, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits + ".bin"
        }
    }
}
