import Glibc

/// A 64-bit content hash (FNV-1a over 8-byte words, then the SplitMix64 finaliser), written as 16 hex digits.
/// It detects changed inputs and damaged files; it is not cryptographic (it does not stand up to someone forging
/// a file on purpose).
struct ContentHash {
    private var state: UInt64 = 0xCBF2_9CE4_8422_2325
    private var length: UInt64 = 0

    init() {}

    mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        var i = 0
        let n = bytes.count
        var h = state
        while i + 8 <= n {
            let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            h = (h ^ word) &* 0x0000_0100_0000_01B3
            h ^= h >> 29
            i += 8
        }
        while i < n {
            h = (h ^ UInt64(bytes[i])) &* 0x0000_0100_0000_01B3
            i += 1
        }
        state = h
        length &+= UInt64(n)
    }

    mutating func combine(_ bytes: [UInt8]) { bytes.withUnsafeBytes { combine($0) } }

    mutating func combine(_ text: String) {
        var t = text
        t.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
        combine([0])  // a separator: "ab" + "c" is not "a" + "bc"
    }

    /// The hash of everything combined so far.
    var hex: String {
        var z = state ^ length &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let digits = String(z, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    static func of(_ bytes: [UInt8]) -> String {
        var h = ContentHash()
        h.combine(bytes)
        return h.hex
    }

    /// How much of a file `of(file:)` holds at once.
    static let fileBufferBytes = 1 << 20

    /// The hash of a file's bytes (the same as `of` its whole contents) and how many there are, read
    /// `fileBufferBytes` at a time: hashing a video of any size holds 1 MiB. Nil when it cannot be opened or
    /// read.
    static func of(file path: String) -> (hash: String, bytes: Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: fileBufferBytes, alignment: 8)
        defer { buffer.deallocate() }
        var h = ContentHash()
        var total = 0
        while true {
            // Each read but the last fills the buffer whole: `combine` takes 8-byte words and then single bytes,
            // so only the file's last piece may end off a word, as it does when the whole file is combined once.
            var filled = 0
            while filled < buffer.count {
                let n = read(fd, buffer.baseAddress! + filled, buffer.count - filled)
                if n < 0 && errno == EINTR { continue }
                guard n >= 0 else { return nil }
                if n == 0 { break }
                filled += n
            }
            h.combine(UnsafeRawBufferPointer(rebasing: buffer[..<filled]))
            total += filled
            if filled < buffer.count { return (h.hex, total) }
        }
    }
}
