/// The bounds every way into a job shares: the command line, storyboard files, effect files and drag tracks
/// check a value against these, so that one job reads the same whichever way it was written.
public enum Limits {
    /// The longest a transition, a hold, a step or a drag may last, in seconds (an hour: far past any real
    /// one, and a bound on the frames a mistyped value can ask for).
    public static let maxSeconds = 3600.0
    /// The frame rates a job may have, in frames per second.
    public static let fps: ClosedRange<Double> = 0.001...1000
    /// `fps` as the messages write it.
    public static let fpsText = "[\(fps.lowerBound.compact), \(fps.upperBound.compact)]"
    /// `maxSeconds` as the messages write it, for a duration that must be positive.
    public static let secondsText = "(0, \(maxSeconds.compact)]"
    /// Pixels per point.
    public static let maxScale = 64.0
    /// `scale` as the messages write it.
    public static let scaleText = "(0, \(maxScale.compact)]"
    /// The longest side of a frame, in pixels.
    public static let maxSide = 16384
}
