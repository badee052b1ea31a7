import SegueCore

/// Two phone screens drawn by code, for `segue demo` and the tests: a home screen (a grid of app tiles) and
/// a detail screen (a header picture, text and a button). Any size; the layout is in points on a frame of
/// `width x height` points at `scale` pixels per point.
public enum SampleScreens {
    public static let defaultSize = Size(375, 667)

    static func hex(_ s: String) -> Color { Color(hex: s)! }

    /// The home screen: a blue-violet gradient, a title bar and a grid of coloured, rounded tiles.
    public static func home(width: Double = 375, height: Double = 667, scale: Double = 1) -> Pixmap {
        var canvas = Canvas(width: Int((width * scale).rounded()), height: Int((height * scale).rounded()),
                            scale: scale, background: hex("1B2A49"))
        canvas.fill(Rect(0, 0, width, height), hex("2E4A86"), to: hex("6A3D8F"))
        canvas.fill(Rect(0, 0, width, 44), hex("FFFFFF33"))
        canvas.fill(Rect(16, 56, width * 0.5, 22), radius: 6, hex("FFFFFFDD"))
        let palette = ["FF6B6B", "FFD93D", "6BCB77", "4D96FF", "F38BA0", "9D4EDD", "00C2A8", "FF9F1C"]
        let columns = 4
        let gap = width * 0.06, tile = (width - gap * Double(columns + 1)) / Double(columns)
        var index = 0
        var y = 100.0
        while y + tile < height - 90 {
            for column in 0..<columns {
                let x = gap + Double(column) * (tile + gap)
                canvas.fill(Rect(x, y, tile, tile), radius: tile * 0.22, hex(palette[index % palette.count]))
                canvas.fill(Rect(x + tile * 0.3, y + tile * 0.3, tile * 0.4, tile * 0.4), radius: tile * 0.2, hex("FFFFFF88"))
                index += 1
            }
            y += tile + gap
        }
        canvas.fill(Rect(8, height - 84, width - 16, 76), radius: 24, hex("FFFFFF40"))
        return canvas.pixmap
    }

    /// The detail screen: a warm header picture with a sun, lines of text and a button.
    public static func detail(width: Double = 375, height: Double = 667, scale: Double = 1) -> Pixmap {
        var canvas = Canvas(width: Int((width * scale).rounded()), height: Int((height * scale).rounded()),
                            scale: scale, background: hex("F7F4EF"))
        let header = height * 0.42
        canvas.fill(Rect(0, 0, width, header), hex("FF8C42"), to: hex("C2185B"))
        canvas.circle(center: Point(width * 0.72, header * 0.38), radius: width * 0.12, hex("FFE66D"))
        canvas.fill(Rect(0, header * 0.72, width, header * 0.28), hex("3A1C71CC"))
        canvas.fill(Rect(20, header + 24, width * 0.7, 26), radius: 6, hex("222222"))
        var y = header + 70
        var line = 0
        while y < height - 110 {
            let w = (line % 3 == 2 ? 0.55 : 0.88) * (width - 40)
            canvas.fill(Rect(20, y, w, 12), radius: 6, hex("9A9A9A"))
            y += 24
            line += 1
        }
        canvas.fill(Rect(20, height - 84, width - 40, 52), radius: 26, hex("0A84FF"))
        canvas.fill(Rect(width / 2 - 40, height - 64, 80, 12), radius: 6, hex("FFFFFF"))
        return canvas.pixmap
    }
}
