/// What a job is asked to work in: one colour space, or `auto`.
public enum ColourSpaceChoice: Sendable, Equatable, Hashable, CaseIterable {
    /// Display P3 when any input image is wider than sRGB (tagged Display P3, Adobe RGB, BT.2020...), sRGB
    /// otherwise: an all-sRGB job keeps every value as it is.
    case auto
    /// sRGB, whatever the inputs: wider images are converted into it (their colours outside it clipped).
    case srgb
    /// Display P3, whatever the inputs: sRGB images and colours are converted into it.
    case displayP3

    /// The space this choice gives when `anyInputIsWide` says whether an input is wider than sRGB.
    public func resolved(anyInputIsWide: Bool) -> ColourSpace {
        switch self {
        case .auto: anyInputIsWide ? .displayP3 : .srgb
        case .srgb: .srgb
        case .displayP3: .displayP3
        }
    }
}
