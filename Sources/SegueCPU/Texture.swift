import SegueCore

/// A snapshot's pixels held by the CPU compositor for the whole transition (premultiplied RGBA8).
final class Texture: @unchecked Sendable {
    let width: Int
    let height: Int
    let base: UnsafeMutablePointer<UInt32>

    init(_ pixmap: Pixmap) {
        width = pixmap.width
        height = pixmap.height
        base = .allocate(capacity: max(1, pixmap.pixels.count))
        pixmap.pixels.withUnsafeBufferPointer { base.initialize(from: $0.baseAddress!, count: $0.count) }
    }

    deinit { base.deallocate() }
}
