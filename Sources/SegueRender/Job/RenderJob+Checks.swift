import SegueCore

extension RenderJob {
    /// What the job asks, checked before anything is read (the checks a command line would make, made here so
    /// that every caller gets them): the storyboard's bounds, every screen a step names, and `progress` values
    /// in `[0, 1]`. The outputs' rules are `checkOutputs`.
    func checkRequest() throws(SegueError) {
        // The storyboard as code may have made it: the bounds the storyboard reader and the command line hold
        // it to (`Limits`), and every screen a step names.
        let board = storyboard
        guard Limits.fps.contains(board.fps) else {
            throw .invalidOption("fps", value: board.fps.compact, "\(option: .fps) must be in \(Limits.fpsText), not \(board.fps.compact)")
        }
        guard board.scale > 0, board.scale <= Limits.maxScale else {
            throw .invalidOption("scale", value: board.scale.compact, "\(option: .scale) must be in \(Limits.scaleText), not \(board.scale.compact)")
        }
        if let size = board.size, !((1...Limits.maxSide).contains(size.width) && (1...Limits.maxSide).contains(size.height)) {
            throw .invalidOption("size", value: "\(size.width)x\(size.height)", "\(option: .size) \(size.width)x\(size.height) is out of range: each side must be 1...\(Limits.maxSide) pixels")
        }
        let alpha = board.background.alpha
        guard alpha == 0 || alpha == 1 else {
            throw .invalidOption("background", value: board.background.hex, "the background \(board.background.hex) is partly transparent: a background is opaque, or transparent (alpha 0)")
        }
        for (i, step) in board.timeline.enumerated() {
            // An interactive step lasts its drag and its completion, each held to its own bounds.
            let duration = step.duration
            if case .interactive = step {} else if !(duration > 0 && duration <= Limits.maxSeconds) {
                throw .invalidOption("duration", value: duration.compact, "\(option: .duration) must be in \(Limits.secondsText) seconds, not \(duration.compact)\(board.timeline.count > 1 ? " (step \(i) of the timeline)" : "")")
            }
            // A storyboard's text reports its missing screens with its other problems, at their JSON paths.
            guard storyboardFile == nil, parseProblems.isEmpty else { continue }
            let (from, to) = step.screens
            for name in [from, to] where board.screens[name] == nil {
                let known = board.screens.keys.sorted()
                throw .invalidOption("screen", value: name, "step \(i) of the timeline names the screen '\(name)', which is not one of the storyboard's screens (\(known.isEmpty ? "it has none" : known.joined(separator: ", ")))")
            }
        }
        if let progress {
            guard !progress.isEmpty else {
                throw .invalidOption("progress", value: "[]", "\(option: .progress) lists no values: give at least one, or none to render every frame")
            }
            if let bad = progress.first(where: { !(0...1).contains($0) }) {
                throw .invalidOption("progress", value: bad.compact, "\(option: .progress) must be in [0, 1], not \(bad.compact)")
            }
        }
    }
}
