import SegueCore

extension Pixmap {
    /// The upright image for an EXIF orientation value (1...8); 1 and unknown values return `self`.
    ///
    /// Orientations 5...8 swap width and height. Each case is an affine map from output (x, y) to a source
    /// index, `base + x * stepX + y * stepY`, so the copy is one tight loop.
    func applyingEXIFOrientation(_ orientation: Int) -> Pixmap {
        let w = width, h = height
        let last = (h - 1) * w  // index of the bottom-left source pixel
        let (base, stepX, stepY, swaps): (Int, Int, Int, Bool)
        switch orientation {
        case 2: (base, stepX, stepY, swaps) = (w - 1, -1, w, false)  // mirror horizontally
        case 3: (base, stepX, stepY, swaps) = (last + w - 1, -1, -w, false)  // rotate 180°
        case 4: (base, stepX, stepY, swaps) = (last, 1, -w, false)  // mirror vertically
        case 5: (base, stepX, stepY, swaps) = (0, w, 1, true)  // transpose
        case 6: (base, stepX, stepY, swaps) = (last, -w, 1, true)  // rotate 90° clockwise
        case 7: (base, stepX, stepY, swaps) = (last + w - 1, -w, -1, true)  // transverse
        case 8: (base, stepX, stepY, swaps) = (w - 1, w, -1, true)  // rotate 90° counter-clockwise
        default: return self
        }
        let outWidth = swaps ? h : w, outHeight = swaps ? w : h
        var result = Pixmap(width: outWidth, height: outHeight)
        pixels.withUnsafeBufferPointer { src in
            result.pixels.withUnsafeMutableBufferPointer { dst in
                var i = 0
                for y in 0..<outHeight {
                    var s = base + y * stepY
                    for _ in 0..<outWidth {
                        dst[i] = src[s]
                        s += stepX
                        i += 1
                    }
                }
            }
        }
        return result
    }
}
