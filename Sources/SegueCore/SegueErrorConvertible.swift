/// An error of a module under the library that says what it is as a `SegueError`: its kind and its message.
/// Each module conforms its own error types (the image codecs' `ImageIOError`, the GLES backend's `EGLError`
/// and `GLError`, a chunk's or a scheduler's problem), so that the job layer turns any of them into the one
/// error it throws (`SegueError(classifying:)`) without naming them.
public protocol SegueErrorConvertible: Error {
    var segueError: SegueError { get }
}
