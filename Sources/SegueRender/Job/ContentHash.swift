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
}
