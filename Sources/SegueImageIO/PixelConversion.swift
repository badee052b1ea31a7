import SegueCore

/// The colour conversion a decoder makes when it reads an image in a given space into a working space, on
/// pixels a program holds: for the bench, which times Segue's path beside Little CMS 2's own transform on the
/// same pixels. Straight (not premultiplied) RGBA8, R in the low byte, converted in place.
public struct PixelConversion: Sendable {
    /// The space the pixels are in, as a file would say it (cICP code points).
    public enum Source: String, Sendable, CaseIterable {
        case srgb
        case displayP3 = "display-p3"
        case bt2020
    }

    /// Which conversion: the one the decoders take, or lcms2's own transform wherever a conversion is made.
    public enum Method: String, Sendable {
        case automatic
        case littleCMS = "lcms2"
    }

    /// What runs: `skipped` (sRGB into sRGB: nothing is converted), `matrix-shaper` or `lcms2`.
    public let path: String
    private let transform: ColourTransform?

    /// Nil only where lcms2 cannot make the transform.
    public init?(from source: Source, into space: ColourSpace, method: Method = .automatic) {
        let tag: ColourTag = switch source {
        case .srgb: .untagged
        case .displayP3: .cicp(primaries: 12, transfer: 13, matrix: 0, fullRange: true)
        case .bt2020: .cicp(primaries: 9, transfer: 1, matrix: 0, fullRange: true)
        }
        guard case let .success(chosen) = ColourConversion.transform(from: tag, into: space, layout: .rgba8) else { return nil }
        var transform = chosen
        if method == .littleCMS, let chosen, chosen.path != .littleCMS {
            guard case let .success(meaning) = ColourConversion.source(of: tag) else { return nil }
            let profile = if case let .profile(p) = meaning { p } else { ColourProfile.srgb }
            guard case let .success(general) = ColourTransform.make(from: profile, to: ColourProfile.of(space), layout: .rgba8, matrixShaper: false)
            else { return nil }
            transform = general
        }
        self.transform = transform
        path = switch transform?.path {
        case nil: "skipped"
        case .matrixShaper?: "matrix-shaper"
        case .littleCMS?, .greyTable?: "lcms2"
        }
    }

    /// Converts `pixels` in place, in bands on all cores, or on the calling thread alone for `threads` 1.
    public func apply(_ pixels: UnsafeMutableBufferPointer<UInt32>, threads: Int = cores) {
        guard let transform, let base = pixels.baseAddress else { return }
        transform.apply(UnsafeRawPointer(base), base, count: pixels.count, threads: threads)
    }

    /// The cores a conversion's bands are spread over.
    public static var cores: Int { ColourTransform.cores }
}
