import Foundation

/// The video files a job writes through ffmpeg, by their extension (any case): the one list that the
/// storyboard reader, the job's output rules and the encoder's settings share.
public enum VideoContainer: String, CaseIterable, Sendable {
    case mp4, webm, mov, gif

    /// The container `path`'s extension names, or nil.
    public init?(path: String) {
        self.init(rawValue: PathName.extension(path).lowercased())
    }

    /// The extensions as a message lists them: `.mp4, .webm, .mov or .gif`.
    public static var listed: String {
        let names = allCases.map { ".\($0.rawValue)" }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
