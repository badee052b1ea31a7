import Foundation
import SegueRender

/// Progress on standard error: a live line when it is a terminal (frames done, frames/s, ETA), one line per
/// 10% otherwise, nothing when quiet or for a single frame.
struct ProgressReporter {
    let total: Int
    let quiet: Bool
    private let start = Date()
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var lastDecile = 0
    private var lastDraw = Date.distantPast

    /// What is counted: `frames`, or `transitions` for the demo.
    let unit: String

    init(total: Int, quiet: Bool, unit: String = "frames") {
        self.total = total
        self.unit = unit
        self.quiet = quiet || total <= 1
    }

    mutating func update(done: Int) {
        guard !quiet else { return }
        let elapsed = Date().timeIntervalSince(start)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let line = String(format: "%d/%d %@, %.1f %@/s, ETA %.0f s", done, total, unit, rate, unit, eta)
        if isTerminal {
            guard done == total || Date().timeIntervalSince(lastDraw) > 0.1 else { return }
            lastDraw = Date()
            let width = 24, filled = total > 0 ? width * done / total : width
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            Console.write("\r[\(bar)] \(line)\u{1B}[K\(done == total ? "\n" : "")")
        } else {
            let decile = total > 0 ? done * 10 / total : 10
            if decile > lastDecile {
                lastDecile = decile
                Console.write("segue: \(decile * 10)% \(line)\n")
            }
        }
    }
}

/// What a job tells the user: notes always, status lines and progress unless `--quiet`.
final class JobConsole: @unchecked Sendable {
    private var progress: ProgressReporter?
    private let quiet: Bool

    init(quiet: Bool) { self.quiet = quiet }

    /// Called by the job one call at a time (the frame pipeline reports under its lock).
    var observer: RenderJob.Observer {
        RenderJob.Observer(
            note: { Console.note($0) },
            status: { [quiet] line in if !quiet { Console.note(line) } },
            progress: { [self] done, total in
                if progress == nil { progress = ProgressReporter(total: total, quiet: quiet) }
                progress!.update(done: done)
            })
    }
}
