import SegueCore

/// Frames side by side on a white strip (`segue demo`'s overview of a transition).
public enum ContactSheet {
    /// `frames` (all of one size) left to right with `gap` pixels of white around each.
    public static func strip(_ frames: [Pixmap], gap: Int) -> Pixmap {
        let w = frames[0].width, h = frames[0].height
        var sheet = Pixmap(width: frames.count * w + (frames.count + 1) * gap, height: h + 2 * gap, fill: 0xFFFF_FFFF)
        for (k, f) in frames.enumerated() {
            let x0 = gap + k * (w + gap)
            for y in 0..<h {
                let dst = (y + gap) * sheet.width + x0
                sheet.pixels.replaceSubrange(dst..<dst + w, with: f.pixels[y * w..<(y + 1) * w])
            }
        }
        return sheet
    }
}
