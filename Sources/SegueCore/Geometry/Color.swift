/// A straight-alpha sRGB colour with components in `0...1`, as `UIColor` takes them. A component may stray
/// outside (a spring overshooting a colour lerp, an effect file's arithmetic); everything that draws a colour
/// takes `clamped` first, so both backends see the same values.
public struct Color: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// Parses a background: `transparent` (alpha 0 where no layer is), else `RRGGBB` as `init(hex:)`.
    public init?(background text: String) {
        if text.lowercased() == "transparent" { self = .clear } else { self.init(hex: text) }
    }

    /// Alpha 0: as a background, what is left where no layer is stays transparent.
    public var isTransparent: Bool { alpha <= 0 }

    /// The premultiplied RGBA8 pixel of this colour as a frame's background: 0 when it is transparent,
    /// else opaque (a background is never partly transparent).
    public var backgroundPixel: UInt32 { isTransparent ? 0 : premultipliedPixel | 0xFF00_0000 }

    /// Parses `RRGGBB` or `RRGGBBAA` (an optional leading `#`).
    public init?(hex: String) {
        var s = Substring(hex)
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.count == 6 || s.count == 8, let v = UInt32(s, radix: 16) else { return nil }
        let rgba = s.count == 6 ? v << 8 | 0xFF : v
        self.init(red: Double(rgba >> 24 & 0xFF) / 255, green: Double(rgba >> 16 & 0xFF) / 255,
                  blue: Double(rgba >> 8 & 0xFF) / 255, alpha: Double(rgba & 0xFF) / 255)
    }

    /// Each component held to `0...1`, NaN taken as 0: what a colour means when it is drawn. An RGBA8 target
    /// clamps on write as GLES does, but only the last step's value; a colour clamped here first is the same
    /// at every step, on every backend (and a NaN, which GPUs treat as they please, is 0 on all).
    public var clamped: Color {
        func unit(_ c: Double) -> Double { c >= 0 ? min(c, 1) : 0 }
        return Color(red: unit(red), green: unit(green), blue: unit(blue), alpha: unit(alpha))
    }

    public var hex: String {
        func byte(_ c: Double) -> String {
            let v = Int((c * 255).rounded())
            return String(v, radix: 16, uppercase: true).leftPadded(to: 2)
        }
        let c = clamped
        return byte(c.red) + byte(c.green) + byte(c.blue) + (c.alpha < 1 ? byte(c.alpha) : "")
    }

    public var description: String { hex }

    /// The premultiplied RGBA8 pixel of this colour.
    public var premultipliedPixel: UInt32 {
        func byte(_ c: Double) -> UInt32 { UInt32((c * 255).rounded()) }
        let c = clamped
        return Pixmap.pack(r: byte(c.red * c.alpha), g: byte(c.green * c.alpha), b: byte(c.blue * c.alpha),
                           a: byte(c.alpha))
    }
}

extension String {
    func leftPadded(to n: Int, with c: Character = "0") -> String {
        count >= n ? self : String(repeating: c, count: n - count) + self
    }
}
