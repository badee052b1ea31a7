@testable import SegueGLES
import Testing

/// The read-back's copy on several cores gives the bytes one `memcpy` gives, at frame sizes and odd lengths.
@Suite struct ParallelCopyTests {
    @Test(arguments: [0, 1, 4 << 20, 3840 * 2160 * 4, 1921 * 1081 * 4 + 3])
    func copiesEveryByte(count: Int) {
        var source = [UInt8](repeating: 0, count: count)
        var state: UInt32 = 12345
        for k in 0..<count { state = state &* 1_664_525 &+ 1_013_904_223; source[k] = UInt8(truncatingIfNeeded: state >> 24) }
        for threads in [1, 3, 16] {
            var destination = [UInt8](repeating: 0xAA, count: count + 64)
            source.withUnsafeBytes { from in
                destination.withUnsafeMutableBytes { to in
                    ParallelCopy.copy(into: UnsafeMutableRawBufferPointer(rebasing: to.prefix(count)), from: from, threads: threads)
                }
            }
            #expect(Array(destination.prefix(count)) == source, "\(count) bytes on \(threads) threads")
            #expect(destination.suffix(64).allSatisfy { $0 == 0xAA }, "wrote past the end")
        }
    }
}
