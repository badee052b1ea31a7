/// Formats of a frame stream.
public enum OutputFormat: String, CaseIterable, Sendable {
    /// PNG files back to back (or one PNG file).
    case png
    /// Raw 8-bit RGBA, straight alpha.
    case rgba
    /// YUV4MPEG2, which `ffmpeg -i -` reads.
    case y4m
}
