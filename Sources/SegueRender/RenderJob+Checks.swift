import SegueCore

extension RenderJob {
    /// What the job asks, checked before anything is read (the checks a command line would make, made here so
    /// that every caller gets them): `progress` values in `[0, 1]`, and an image output only for a job of one
    /// frame (an image file holds one picture, not a sequence). `forMemory`: the frames go to memory, not to
    /// `outputs`.
    func checkRequest(forMemory: Bool) throws(SegueError) {
        if let progress {
            guard !progress.isEmpty else {
                throw .invalidOption("progress", value: "[]", "progress lists no values: give at least one, or none to render every frame")
            }
            if let bad = progress.first(where: { !(0...1).contains($0) }) {
                throw .invalidOption("progress", value: bad.compact, "progress must be in [0, 1], not \(bad.compact)")
            }
        }
        guard !forMemory else { return }
        for case let .image(path) in outputs where progress?.count != 1 {
            let frames = progress?.count ?? storyboard.schedule.count
            throw .invalidOption("output", value: path,
                                 "the image '\(path)' holds one frame, but the job renders \(frames): give one progress value, or write a directory of frames")
        }
    }
}
