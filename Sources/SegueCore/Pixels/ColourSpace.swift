/// The colour space a job works in: every input is converted into it once, when it is read, and every output
/// is tagged with it. Both use the sRGB transfer curve and the D65 white; they differ in their primaries.
///
/// Colours a job is given as numbers (in effect files and options) are sRGB values, converted into the working
/// space, so that the same number means the same colour in either.
public enum ColourSpace: Sendable, Equatable, Hashable, CaseIterable {
    /// sRGB (IEC 61966-2-1): what untagged images are taken to be.
    case srgb
    /// Display P3: the DCI-P3 primaries with the D65 white and the sRGB transfer curve (what iPhones and Macs
    /// write), about a quarter wider than sRGB.
    case displayP3

    /// The space's usual name, for messages and stream headers ("sRGB", "Display P3").
    public var name: String {
        switch self {
        case .srgb: "sRGB"
        case .displayP3: "Display P3"
        }
    }
}
