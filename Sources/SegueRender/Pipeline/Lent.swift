import SegueCore

/// A renderer handed to a job's thread: the caller gives it up for the job's duration (renderers are confined
/// to one thread at a time, not `Sendable`).
struct Lent: @unchecked Sendable {
    let renderer: (any Renderer)?
    init(_ renderer: (any Renderer)?) { self.renderer = renderer }
}
