/// How a screen that is a video clip plays: where its clock starts in the clip, and whether it loops past its
/// end (else its last frame is held). Still screens ignore it.
public struct ClipPlayback: Sendable, Equatable, Hashable {
    /// Seconds into the clip its clock starts at (`--from-start`, `--to-start`; `"start"` in a storyboard).
    public var start: Double
    /// Starts the clip over at its end rather than holding its last frame.
    public var loop: Bool

    public init(start: Double = 0, loop: Bool = false) {
        self.start = start
        self.loop = loop
    }
}
