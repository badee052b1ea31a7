import Foundation

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
            FileHandle.standardError.write(Data("\r[\(bar)] \(line)\u{1B}[K\(done == total ? "\n" : "")".utf8))
        } else {
            let decile = total > 0 ? done * 10 / total : 10
            if decile > lastDecile {
                lastDecile = decile
                FileHandle.standardError.write(Data("segue: \(decile * 10)% \(line)\n".utf8))
            }
        }
    }
}
