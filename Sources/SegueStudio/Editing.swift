import Foundation
import Segue

/// The page's editor: the text of a file studio watches, as it is on disk, and a save that replaces it the way
/// an editor saves (issue 47). The watcher then reads the saved file as it reads any other change.
///
/// A save is refused rather than done when:
/// - the subject is no file named on the command line (the catalogue's effects are no one's file): 422;
/// - the text is longer than `Limits.maxTextBytes`, what studio reads of a file: 413;
/// - the file changed on disk since the page loaded it (its digest is not the one the page sends): 409, with
///   the digest it has now, so that the page says so rather than writing over the other change;
/// - a link (or anything but a regular file) stands at the file's name: 403. Studio never writes through a
///   link; and as the new text is renamed over the name, a link planted there after this check is replaced,
///   not followed.
/// The new text goes to a temporary file in the same directory (created, never opened if there, never through
/// a link), is synced, given the old file's mode and renamed over the name: a reader sees the old file or
/// the new one, never part of one.
enum Editing {
    /// What the page's editor shows.
    struct Source: Encodable {
        var subject: String
        var path: String
        var text: String
        /// `Subjects.digest` of the bytes on disk: what a save sends back as the version it replaces.
        var digest: String
        /// False when the bytes are no UTF-8 (the editor would change them): shown, not saved.
        var editable: Bool
    }

    enum Refusal: Error, Equatable {
        case notAFile(subject: String)
        case tooLarge(bytes: Int, limit: Int)
        case changedOnDisk(path: String, digest: String)
        case notARegularFile(path: String, link: Bool)
        case unwritable(path: String, reason: String)

        var status: HTTPStatusCode {
            switch self {
            case .notAFile: return .unprocessableContent
            case .tooLarge: return .payloadTooLarge
            case .changedOnDisk: return .conflict
            case .notARegularFile: return .forbidden
            case .unwritable: return .internalServerError
            }
        }

        var message: String {
            switch self {
            case let .notAFile(subject):
                return "'\(subject)' is no file studio watches: only a file named on the command line (segue studio FILE) is edited here"
            case let .tooLarge(bytes, limit):
                return "the text is \(bytes) bytes, more than the \(limit) studio reads of a file"
            case let .changedOnDisk(path, _):
                return "'\(path)' changed on disk since the editor loaded it: load it again (your text is kept until then) or copy your change first"
            case let .notARegularFile(path, link):
                return "'\(path)' is \(link ? "a symbolic link" : "not a regular file"): studio writes only a regular file, never through a link"
            case let .unwritable(_, reason):
                return reason
            }
        }
    }

    /// The most bytes a saved text may have: what studio reads of a file it watches.
    static let maxBytes = Limits.maxTextBytes

    /// The file's text now (read as the watcher reads it: a regular file, within its size limit).
    static func source(subject: String, path: String) throws(SegueError) -> Source {
        let bytes = try Subjects.read(path)
        let text = String(validating: bytes, as: UTF8.self)
        return Source(subject: subject, path: path, text: text ?? String(decoding: bytes, as: UTF8.self),
                      digest: Subjects.digest(bytes), editable: text != nil)
    }

    /// Replaces the file at `path` with `bytes` if its bytes on disk still have the digest `base`; the new
    /// digest.
    static func save(_ bytes: [UInt8], to path: String, base: String) throws(Refusal) -> String {
        guard bytes.count <= maxBytes else { throw .tooLarge(bytes: bytes.count, limit: maxBytes) }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            // Gone (or moved away) since the page loaded it: not what the page replaces.
            throw .changedOnDisk(path: path, digest: "")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .notARegularFile(path: path, link: info.st_mode & S_IFMT == S_IFLNK)
        }
        let current = try onDisk(path)
        guard Subjects.digest(current) == base else { throw .changedOnDisk(path: path, digest: Subjects.digest(current)) }
        try replace(path, with: bytes, mode: info.st_mode & 0o7777)
        return Subjects.digest(bytes)
    }

    /// The file's bytes, opened without following a link (one planted since `lstat` fails here).
    static func onDisk(_ path: String) throws(Refusal) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ELOOP { throw .notARegularFile(path: path, link: true) }
            throw .unwritable(path: path, reason: "cannot read '\(path)': \(ErrnoReason.text(errno))")
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path, link: false) }
        guard let data = try? handle.read(upToCount: maxBytes + 1) ?? Data() else {
            throw .unwritable(path: path, reason: "cannot read '\(path)'")
        }
        return [UInt8](data)
    }

    /// Writes `bytes` as segue writes every file (`FileWriter`: a temporary file beside `path`, renamed over it),
    /// synced and given `mode`; the temporary file is removed when any step fails.
    static func replace(_ path: String, with bytes: [UInt8], mode: mode_t) throws(Refusal) {
        do {
            try FileWriter.writeAtomically(bytes, to: path, mode: mode, durable: true)
        } catch {
            throw .unwritable(path: path, reason: "\(error)")
        }
    }
}
