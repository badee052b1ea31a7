/// Every bound a job has, named and documented once: the command line, storyboard files, effect files, drag
/// tracks and programs check a value against these, so that one job reads the same whichever way it was
/// written, and each resource a job uses has a limit known before it starts. `docs/reliability.md`'s table of
/// limits is tested against these values (`LimitsDocumentTests`).
public enum Limits {
    // MARK: Time

    /// The longest a transition, a hold, a step or a drag may last, in seconds (an hour: far past any real
    /// one, and a bound on the frames a mistyped value can ask for).
    public static let maxSeconds = 3600.0
    /// The frame rates a job may have, in frames per second.
    public static let fps: ClosedRange<Double> = 0.001...1000
    /// The most frames a job may have (a million: over 4.6 hours at 60 fps); known before anything starts
    /// (`RenderJob.maxFrames` may lower it).
    public static let maxFrames = 1_000_000
    /// The most steps a storyboard's timeline may have.
    public static let maxSteps = 10_000
    /// The most samples motion blur may draw for a frame (each one a whole frame drawn); also the most draw
    /// lists one dispatch of the GPU's compute path takes (`MAX_SAMPLES` in its shader).
    public static let maxMotionBlurSamples = 64
    /// The most draw items one dispatch of the GPU's compute path takes, over all of its samples (`MAX_ITEMS`
    /// in its shader: one bit each in a workgroup's shared memory); a frame with more is drawn by the raster path.
    public static let maxItemsPerDispatch = 1024

    // MARK: Size

    /// Pixels per point.
    public static let maxScale = 64.0
    /// The longest side of a frame, in pixels.
    public static let maxSide = 16384
    /// The most pixels an input image may have by default, refused from its header before it is decoded
    /// (`RenderJob.maxPixels` sets a job's own).
    public static let maxPixels = maxSide * maxSide

    // MARK: Files read

    /// The largest storyboard or drag track read (16 MiB): far more than any real one, and a bound on what a
    /// file that never ends (a FIFO fed forever) can make the job hold.
    public static let maxTextBytes = 16 << 20
    /// The largest effect file read (1 MiB, far more than any real one).
    public static let maxEffectFileBytes = 1 << 20
    /// The largest custom shader file read (256 KiB; the public gl-transitions collection's largest is under
    /// 10 KiB): the bound on what the driver is asked to compile, whose time and memory grow with the source.
    public static let maxShaderSourceBytes = 256 << 10

    // MARK: Effect files

    /// The most layers a direction of an effect file may list (each repeat of a repeating layer counts once
    /// here).
    public static let maxEffectLayers = 64
    /// The most named values (`let`) a direction of an effect file may have.
    public static let maxEffectNames = 256
    /// The most options an effect file may declare.
    public static let maxEffectOptions = 64
    /// The most choices a choice option may have.
    public static let maxEffectChoices = 64
    /// The most operations a layer's transform may list.
    public static let maxEffectOperations = 16
    /// The longest expression an effect file may write, in characters. This and the five above are far past
    /// any real effect, and bounds on the work of reading a hostile file.
    public static let maxExpressionCharacters = 4096

    // MARK: Distribution

    /// The most chunks a job may be split into.
    public static let maxChunks = 10_000

    // MARK: As messages write them

    /// `fps` as the messages write it.
    public static let fpsText = "[\(fps.lowerBound.compact), \(fps.upperBound.compact)]"
    /// `maxSeconds` as the messages write it, for a duration that must be positive.
    public static let secondsText = "(0, \(maxSeconds.compact)]"
    /// `scale` as the messages write it.
    public static let scaleText = "(0, \(maxScale.compact)]"
    /// A side's range as the messages write it.
    public static let sideText = "1...\(maxSide)"
}
