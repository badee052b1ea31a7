import SegueCore

/// A snapshot's pixels held by the CPU compositor for the whole transition (a clip's replaced between frames) (premultiplied RGBA8).
final class Texture: @unchecked Sendable {
    let width: Int
    let height: Int
    let base: UnsafeMutablePointer<UInt32>

    init(_ pixmap: Pixmap) {
        width = pixmap.width
        height = pixmap.height
        // Past the last row, a copy of it and one texel more (see `paddingCount`).
        base = .allocate(capacity: pixmap.pixels.count + Self.paddingCount(width: width))
        pixmap.pixels.withUnsafeBufferPointer { base.initialize(from: $0.baseAddress!, count: $0.count) }
        (base + pixmap.pixels.count).initialize(repeating: 0, count: Self.paddingCount(width: width))
        copyLastRow()
    }

    /// Texels kept past the last row: a copy of it, which the AVX2 kernels read as the row below the last
    /// (where `bilinear` reads the last row twice), and one texel more, the right neighbour a bilinear step
    /// reads past the last texel, with weight 0.
    private static func paddingCount(width: Int) -> Int { width + 1 }

    /// Copies `pixmap` (of this texture's size) over the texels, between frames: a clip's next frame.
    func replace(with pixmap: Pixmap) {
        pixmap.pixels.withUnsafeBufferPointer { base.update(from: $0.baseAddress!, count: $0.count) }
        copyLastRow()
    }

    private func copyLastRow() {
        guard height > 0 else { return }
        (base + width * height).update(from: base + width * (height - 1), count: width)
    }

    deinit { base.deallocate() }
}
