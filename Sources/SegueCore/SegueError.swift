/// The one error the library throws: a kind a program can switch on, with the data it names (the path, the
/// option and its value, the failing GPU call), and the message a person reads.
///
/// Every public entry point of Segue (a `RenderJob`'s run, loading effect files and shaders, validating a
/// transition, the doctor's checks, chunking and joining) throws only this type; the modules' own error
/// types (`ImageIOError`, `EGLError`, `GLError`...) are turned into it before they leave the library. The
/// message says what is wrong in the library's terms (the job's `overwrite`, the effect's option `edge`),
/// never a command-line flag: the options it names are references (`words`), which the library says by their
/// names and a command line by its flags; a command line maps the kind to its own exit status.
///
/// ```swift
/// do { try job.run() } catch let error as SegueError {
///     switch error.kind {
///     case let .inputUnreadable(path): print("missing: \(path)")
///     case .gpu(let call): print("GPU failed in \(call)")
///     default: print(error.message)
///     }
/// }
/// ```
public struct SegueError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, with what a caller needs to act on it.
    public enum Kind: Sendable, Equatable {
        /// An input (a screen, a clip, a storyboard, an effect file, a track, a shader, an image) is missing
        /// or cannot be read.
        case inputUnreadable(path: String)
        /// An option's value is out of range or malformed. `effect` names the effect the option belongs to
        /// (nil for an option of the job itself, such as `output`, `progress` or `shard`); `option` is the
        /// option's name without any prefix, `value` the value as given.
        case invalidOption(effect: String?, option: String, value: String)
        /// A file's contents the user must change (a storyboard's or an effect file's problems, one in each
        /// of `lines`); `path` is nil for contents given as a string.
        case invalidInput(path: String?)
        /// A shader file that the shader parser or the GLES compiler rejected (its message carries the file's
        /// line numbers or the compiler's log).
        case invalidShader(path: String)
        /// What was asked is not supported on this backend (a custom shader on the CPU compositor...).
        case unsupported(backend: String)
        /// The output is in use: held by another job running now (`byRunningJob`), or holding the frames or
        /// chunks of another job, which the job may replace only when allowed to overwrite them.
        case outputInUse(path: String, byRunningJob: Bool)
        /// A limit was reached: `name` is the limit (`maxPixels`, `maxFrames`, `memory`, `timeLimit`).
        case resourceLimit(name: String)
        /// An EGL or GLES failure; `call` names the failing call (`eglInitialize`, `glReadPixels`...).
        case gpu(call: String)
        /// The job was cancelled (`JobControl.cancel()`); its partial output is removed.
        case interrupted
        /// The reader of a stream (standard output, a FIFO) closed it: the job ended cleanly, short.
        case outputClosed
        /// Anything else: a disk, a child process (ffmpeg), a thread that could not start.
        case failed
    }

    public let kind: Kind
    /// The message, one line per problem.
    public let message: String
    /// The message's lines: the message itself, or one line per problem of a list (a storyboard's, an effect
    /// file's). A line break inside a line (a file name holding one) is part of that line, never a line of its
    /// own: a program that shows each line on its own must escape it there.
    public let lines: [String]
    /// The lines as text and references to the options they name (`Message`): `lines` says each reference
    /// in the library's words; a command line says its flags instead.
    public let words: [Message]
    /// A file's problems, each at its JSON path (a storyboard's or an effect file's): what `lines` says, for a
    /// program that shows each problem where it is (an editor, a preview page); empty for any other error.
    public let problems: [JSONProblem]

    public init(_ kind: Kind, _ message: String) {
        self.init(kind, Message(message))
    }

    /// An error whose message names options as references: `SegueError(.failed, "\(option: .video) needs ffmpeg")`.
    public init(_ kind: Kind, _ message: Message) {
        self.kind = kind
        self.message = message.description
        lines = [self.message]
        words = [message]
        problems = []
    }

    /// An error of several problems, one a line.
    public init(_ kind: Kind, lines: [String]) {
        self.kind = kind
        self.lines = lines
        message = lines.joined(separator: "\n")
        words = lines.map { Message($0) }
        problems = []
    }

    /// A file's problems, one a line (`file: path: message`, or `path: message` without a file).
    public init(_ kind: Kind, problems: [JSONProblem], file: String? = nil) {
        self.kind = kind
        self.problems = problems
        let prefix = file.map { "\($0): " } ?? ""
        lines = problems.map { prefix + $0.description }
        message = lines.joined(separator: "\n")
        words = lines.map { Message($0) }
    }

    public var description: String { message }

    /// Two errors are equal when they are of the same kind and say the same lines in the library's words.
    public static func == (a: SegueError, b: SegueError) -> Bool {
        a.kind == b.kind && a.lines == b.lines
    }

    /// True for an error the caller must fix in what it asked (an option, a file's contents, a backend that
    /// cannot do it, an output holding another job's frames); false for a failure of the work itself.
    public var isUsageError: Bool {
        switch kind {
        case .invalidOption, .invalidInput, .unsupported: return true
        case let .outputInUse(_, byRunningJob): return !byRunningJob
        // A job of more frames than `maxFrames` is refused before it starts; other limits are met by the work.
        case let .resourceLimit(name): return name == "maxFrames"
        case .inputUnreadable, .invalidShader, .gpu, .interrupted, .outputClosed, .failed: return false
        }
    }

    public static let interrupted = SegueError(.interrupted, "interrupted")

    /// An option's value out of range or malformed.
    public static func invalidOption(_ option: String, of effect: String? = nil, value: String, _ message: String) -> SegueError {
        SegueError(.invalidOption(effect: effect, option: option, value: value), message)
    }

    /// An option's value out of range or malformed, with a message naming options as references.
    public static func invalidOption(_ option: String, of effect: String? = nil, value: String, _ message: Message) -> SegueError {
        SegueError(.invalidOption(effect: effect, option: option, value: value), message)
    }

    /// A failure of no other kind.
    public static func failed(_ message: String) -> SegueError { SegueError(.failed, message) }

    /// A failure of no other kind, with a message naming options as references.
    public static func failed(_ message: Message) -> SegueError { SegueError(.failed, message) }
}
