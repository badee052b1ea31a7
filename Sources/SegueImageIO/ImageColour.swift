import SegueCore

/// What an image file says about its colour, read from its header (PNG chunks, JPEG segments, HEIF boxes) without decoding
/// its pixels: enough for a job to choose its working space before it reads them.
public struct ImageColour: Sendable, Equatable {
    /// Where the file says it.
    public enum Tag: Sendable, Equatable {
        /// Nothing is said: the image is read as sRGB.
        case untagged
        /// PNG's `sRGB` chunk.
        case srgbChunk
        /// An ICC profile (PNG's `iCCP`, JPEG's APP2 segments).
        case iccProfile
        /// PNG's `cICP` chunk (ITU-T H.273 code points).
        case cicp
        /// PNG's `gAMA`, with `cHRM` where given.
        case gamma
        /// HEIF's `nclx` colour box (H.273 code points, as cICP's).
        case nclx
    }

    /// Where the file says it.
    public var tag: Tag
    /// The image is sRGB (untagged, or tagged with sRGB itself): read into sRGB, its values are kept exactly.
    public var isSRGB: Bool
    /// Its primaries span more than sRGB's (Display P3, Adobe RGB, BT.2020): `ColourSpace.auto` works in Display
    /// P3 for it.
    public var isWide: Bool
}

extension ImageDecoder {
    /// What the PNG, JPEG or HEIC file at `path` says about its colour; errors name `path`, and a profile that cannot
    /// be used throws as decoding would.
    public static func colour(contentsOf path: String, maxPixels: Int = defaultMaxPixels) throws -> ImageColour {
        let bytes = try InputFile.read(path, limit: InputFile.imageLimit(maxPixels: maxPixels))
        return try colour(data: bytes, name: path)
    }

    /// What PNG, JPEG or HEIC `data` says about its colour; `name` is what messages call the data.
    public static func colour(data: [UInt8], name: String) throws -> ImageColour {
        if data.isEmpty { throw ImageIOError.empty(path: name) }
        let tag: ColourTag
        if data.starts(with: pngSignature) {
            tag = try pngColourTag(data: data, name: name)
        } else if data.starts(with: jpegSignature) {
            tag = try data.withUnsafeBufferPointer { bytes throws(ImageIOError) in
                try JPEGMetadata(scanning: bytes).colourTag(name: name)
            }
        } else if isHEIF(data) {
            tag = try heifColourTag(data: data, name: name)
        } else {
            throw ImageIOError.unknownFormat(path: name)
        }
        let source = try sourceColour(tag, name: name)
        let kind: ImageColour.Tag = switch tag {
        case .untagged: .untagged
        case .srgb: .srgbChunk
        case .icc: .iccProfile
        case .cicp: .cicp
        case .gamma: .gamma
        case .nclx: .nclx
        }
        let isSRGB = if case .srgb = source { true } else { false }
        return ImageColour(tag: kind, isSRGB: isSRGB, isWide: source.isWide)
    }

    /// A tag's meaning, or the one line that says why its profile cannot be used.
    static func sourceColour(_ tag: ColourTag, name: String) throws(ImageIOError) -> SourceColour {
        switch ColourConversion.source(of: tag) {
        case let .success(source): return source
        case let .failure(problem): throw .unusableColourProfile(path: name, reason: problem.words)
        }
    }

    /// The transform from `tag` into `space` for `layout`, nil when the samples are kept as they are.
    static func colourTransform(_ tag: ColourTag, into space: ColourSpace, layout: SampleLayout, name: String) throws(ImageIOError) -> ColourTransform? {
        switch ColourConversion.transform(from: tag, into: space, layout: layout) {
        case let .success(transform): return transform
        case let .failure(problem): throw .unusableColourProfile(path: name, reason: problem.words)
        }
    }
}
