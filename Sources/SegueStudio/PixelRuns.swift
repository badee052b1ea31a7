/// A raw RGBA frame as runs, what the page's canvas is sent while it scrubs (`format=rgba-runs`): the pixels
/// `format=rgba` sends, in a form about as small as the frame's PNG (64 KB for a 750x1334 door frame, of 4 MB),
/// which takes about a millisecond to make here and to undo in the page's script, where a PNG took 11 ms to
/// encode and 8-16 ms for Chromium to decode, and 4 MB of raw pixels 20-50 ms to reach the page.
///
/// The bytes are 32-bit words, each op followed by its pixels: an op is `kind << 30 | count`, little-endian;
/// kind 0 is `count` pixels that follow (each the RGBA bytes as the frame has them), 1 repeats the pixel before
/// `count` times, 2 copies `count` pixels from one row up (pixel by pixel: a copy longer than a row repeats
/// what it has just written). Ops run in order from the first pixel to the last.
enum PixelRuns {
    static let literal: UInt32 = 0, repeatLeft: UInt32 = 1, copyUp: UInt32 = 2

    /// `rgba` (4 bytes a pixel, rows of `width` pixels) as runs.
    static func encode(_ rgba: [UInt8], width: Int) -> [UInt8] {
        let n = rgba.count / 4
        var words: [UInt32] = []
        words.reserveCapacity(n / 16 + 16)
        rgba.withUnsafeBytes { raw in
            // A pixel as one word, its bytes kept as they are (stored back as it was loaded).
            let pixel = { (i: Int) in raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self) }
            var i = 0
            var open = -1, literals = 0  // the literal op being added to (its index), and its pixels so far
            func close() {
                if open >= 0 { words[open] = (literal << 30 | UInt32(literals)).littleEndian }
                open = -1
                literals = 0
            }
            while i < n {
                var left = 0
                if i > 0 {
                    let before = pixel(i - 1)
                    while i + left < n && pixel(i + left) == before { left += 1 }
                }
                var up = 0
                if i >= width {
                    while i + up < n && pixel(i + up) == pixel(i + up - width) { up += 1 }
                }
                if max(left, up) >= 2 {
                    close()
                    words.append(((left >= up ? repeatLeft : copyUp) << 30 | UInt32(max(left, up))).littleEndian)
                    i += max(left, up)
                } else {
                    if open < 0 {
                        open = words.count
                        words.append(0)
                    }
                    literals += 1
                    words.append(pixel(i))
                    i += 1
                }
            }
            close()
        }
        return words.withUnsafeBytes { Array($0) }
    }

    /// The RGBA bytes of `runs` (what `encode` made of a frame `width` pixels wide and `pixels` in all), or nil
    /// where they are not runs of that frame.
    static func decode(_ runs: [UInt8], width: Int, pixels: Int) -> [UInt8]? {
        guard runs.count % 4 == 0 else { return nil }
        var out = [UInt32](repeating: 0, count: pixels)
        var i = 0, j = 0
        let words = runs.count / 4
        let word = { (k: Int) in runs.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4 * k, as: UInt32.self) } }
        while j < words {
            let op = UInt32(littleEndian: word(j))
            j += 1
            let kind = op >> 30, count = Int(op & 0x3FFF_FFFF)
            guard i + count <= pixels else { return nil }
            switch kind {
            case literal:
                guard j + count <= words else { return nil }
                for k in 0..<count { out[i + k] = word(j + k) }
                j += count
            case repeatLeft:
                guard i > 0 else { return nil }
                for k in 0..<count { out[i + k] = out[i - 1] }
            case copyUp:
                guard i >= width else { return nil }
                for k in 0..<count { out[i + k] = out[i + k - width] }
            default:
                return nil
            }
            i += count
        }
        guard i == pixels else { return nil }
        return out.withUnsafeBytes { Array($0) }
    }
}
