import SegueCore

/// Everything that can go wrong reading, decoding, encoding or writing an image.
///
/// Each case renders as one line that names the file and says what is wrong, ready to print as is.
public enum ImageIOError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file could not be opened or read; `reason` is short and lower case ("no such file").
    case unreadable(path: String, reason: String)
    /// The file is larger than any input of its kind allowed here (`limit` bytes).
    case tooLarge(path: String, limit: Int)
    /// The file exists but holds no bytes.
    case empty(path: String)
    /// The bytes start with neither the PNG signature, a JPEG start-of-image marker nor a HEIF `ftyp` box.
    case unknownFormat(path: String)
    /// libspng rejected the data; `detail` is its `spng_strerror` text.
    case corruptPNG(path: String, detail: String)
    /// TurboJPEG rejected the data; `detail` is its `tjGetErrorStr2` text.
    case corruptJPEG(path: String, detail: String)
    /// libheif rejected the data; `detail` is its message.
    case corruptHEIC(path: String, detail: String)
    /// libheif refused the image as larger than it reads (a side over 32768 pixels); `detail` is its message.
    case heicOverLimit(path: String, detail: String)
    /// A HEIC image, and libheif cannot be loaded; `reason` says why and what to install.
    case heifUnavailable(path: String, reason: String)
    /// The image declares a width or height of zero.
    case invalidSize(path: String, width: Int, height: Int)
    /// The image has more pixels than the caller allows; refused before the pixels are allocated.
    case tooManyPixels(path: String, width: Int, height: Int, limit: Int)
    /// The image's colour profile (or PNG colour chunk) cannot be used: lcms2 rejects it, it is too large, its
    /// channels do not fit the image, its primaries are absurd. `reason` is short and lower case.
    case unusableColourProfile(path: String, reason: String)
    /// PNG encoding failed inside libspng.
    case encodingFailed(detail: String)
    /// The file could not be written; `reason` is short and lower case ("no space left on device").
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            return "cannot read '\(path)': \(reason)"
        case let .tooLarge(path, limit):
            return "'\(path)' is larger than \(limit) bytes, more than any input of its kind allowed here"
        case let .empty(path):
            return "'\(path)' is an empty file"
        case let .unknownFormat(path):
            return "'\(path)' is not a PNG, JPEG or HEIC image"
        case let .corruptPNG(path, detail):
            return "'\(path)': corrupt PNG data (libspng: \(detail))"
        case let .corruptJPEG(path, detail):
            return "'\(path)': corrupt JPEG data (\(detail))"
        case let .corruptHEIC(path, detail):
            return "'\(path)': corrupt HEIC data (libheif: \(detail))"
        case let .heicOverLimit(path, detail):
            return "'\(path)' is larger than libheif reads (libheif: \(detail))"
        case let .heifUnavailable(path, reason):
            return "cannot read the HEIC image '\(path)': \(reason)"
        case let .invalidSize(path, width, height):
            return "'\(path)' has an invalid size of \(width)x\(height) pixels"
        case .tooManyPixels:
            return words.description
        case let .unusableColourProfile(path, reason):
            return "'\(path)': its colour profile cannot be used: \(reason)"
        case let .encodingFailed(detail):
            return "cannot encode PNG (libspng: \(detail))"
        case let .unwritable(path, reason):
            return "cannot write '\(path)': \(reason)"
        }
    }
}

extension ImageIOError: SegueErrorConvertible {
    /// An unreadable input, the pixel limit, or a failure to write.
    public var segueError: SegueError {
        let kind: SegueError.Kind
        switch self {
        case let .unreadable(path, _), let .tooLarge(path, _), let .empty(path), let .unknownFormat(path),
             let .corruptPNG(path, _), let .corruptJPEG(path, _), let .corruptHEIC(path, _), let .heifUnavailable(path, _),
             let .invalidSize(path, _, _),
             let .unusableColourProfile(path, _):
            kind = .inputUnreadable(path: path)
        case .tooManyPixels, .heicOverLimit: kind = .resourceLimit(name: "maxPixels")
        case .encodingFailed, .unwritable: kind = .failed
        }
        return SegueError(kind, words)
    }

    /// The description, with the option it names (the limit `maxPixels`) as a reference, for `SegueError`.
    public var words: SegueError.Message {
        if case let .tooManyPixels(path, width, height, limit) = self {
            return "'\(path)' is \(width)x\(height) pixels, over the limit of \(limit) pixels (\(option: .maxPixels))"
        }
        return SegueError.Message(description)
    }
}
