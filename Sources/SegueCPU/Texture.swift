import SegueCore

/// A snapshot's pixels held by the CPU compositor for the whole transition (a clip's replaced between frames) (premultiplied RGBA8).
final class Texture: @unchecked Sendable {
    let width: Int
    let height: Int
    let base: UnsafeMutablePointer<UInt32>

    init(_ pixmap: Pixmap) {
        width = pixmap.width
        height = pixmap.height
        // One texel of padding: a bilinear step reads the right neighbour of the last texel, with weight 0.
        base = .allocate(capacity: pixmap.pixels.count + 1)
        pixmap.pixels.withUnsafeBufferPointer { base.initialize(from: $0.baseAddress!, count: $0.count) }
        (base + pixmap.pixels.count).initialize(to: 0)
    }

    /// Copies `pixmap` (of this texture's size) over the texels, between frames: a clip's next frame.
    func replace(with pixmap: Pixmap) {
        pixmap.pixels.withUnsafeBufferPointer { base.update(from: $0.baseAddress!, count: $0.count) }
    }

    deinit { base.deallocate() }
}
