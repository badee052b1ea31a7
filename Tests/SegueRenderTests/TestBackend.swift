import SegueCore
@testable import SegueCPU
import SegueGLES
import SegueTestSupport
import Testing

/// The backends a test is written once for and run on each (`@Test(arguments: TestBackend.all)`): the
/// argument's name shows in the test's name. The CPU compositor is the reference; each backend is held to it
/// (or to an analytic picture) within its own named tolerance.
enum TestBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case cpu, gles
    /// GLES on its compute path (`composite.comp`), one dispatch a frame.
    case glesCompute = "gles-compute"

    static let all = allCases

    var testDescription: String { rawValue }

    /// How close this backend's frame must be to the reference: the CPU bit for bit, GLES within
    /// `Tolerance.glesVsCPU`.
    var tolerance: Tolerance {
        switch self {
        case .cpu: .exact
        case .gles, .glesCompute: .glesVsCPU
        }
    }

    /// A renderer of this backend. The CPU's runs on three bands where the reference (`reference()`) runs on
    /// two, so the CPU case checks that the split into bands changes nothing. Where no EGL platform gives a
    /// GLES context the GLES case is cancelled (skipped), printing why. (The other `GLESSuite` tests still fail
    /// there: a context that cannot be made is caught by them.)
    func makeRenderer() throws -> any Renderer {
        switch self {
        case .cpu:
            return CPUCompositor(threads: 3)
        case .gles, .glesCompute:
            do {
                let gles = try GLESRenderer()
                if self == .glesCompute { try gles.use(.compute) }
                return gles
            } catch {
                // Swift Testing 6.3's console shows a cancelled case as passed, without the reason: say it here.
                let why = "no GLES context here: \(error)"
                print("gles skipped in \(Test.current?.displayName ?? Test.current?.name ?? "this test"): \(why)")
                try Test.cancel(Comment(rawValue: why))
            }
        }
    }

    /// The reference frames are drawn by: the CPU compositor on two bands.
    static func reference() -> CPUCompositor { CPUCompositor(threads: 2) }
}

extension TestBackend {
    /// Draws `list` on this backend and on the reference, prints how far apart they are, and records a failure
    /// (writing `actual`, `expected`, `diff` and a report) where they differ beyond this backend's tolerance.
    func expectMatchesReference(_ list: DrawList, snapshots: [Pixmap], name: String) throws {
        let renderer = try makeRenderer(), reference = Self.reference()
        try renderer.load(snapshots: snapshots)
        try reference.load(snapshots: snapshots)
        let actual = try renderer.render(list), expected = try reference.render(list)
        try expectDrewOnItsPath(renderer, frames: 1, name: name)
        let comparison = ImageComparison(actual: actual, expected: expected, levels: tolerance.maxLevelDiff)
        let label = "\(self)-vs-cpu.\(name)"
        print("\(label): \(comparison)")
        if !comparison.passes(tolerance) {
            let paths = FailureReport.write(name: label, actual: actual, expected: expected, comparison: comparison,
                                            tolerance: tolerance, context: ["actual": renderer.details, "expected": reference.details])
            Issue.record("\(label): \(comparison), needs \(tolerance)\n  \(paths)")
        }
    }

    /// Records a failure unless `renderer` (made by `makeRenderer`) drew its last `frames` frames on this backend's
    /// GLES path (`GLESStats.pathFrames`): a GLES case that fell back to another path passes for the wrong reason.
    /// Resets the counts.
    /// With `frames` nil: at least one frame, and every frame, on that path.
    func expectDrewOnItsPath(_ renderer: any Renderer, frames: Int? = nil, name: String) throws {
        guard let gles = renderer as? GLESRenderer else { return }
        let stats = gles.stats
        gles.resetStats()
        let path: GLESPath = self == .glesCompute ? .compute : .raster
        let drawn = stats.frames(by: path)
        let meant = frames.map { drawn == $0 } ?? (drawn > 0 && stats.pathFrames.keys.allSatisfy { $0 == path.rawValue })
        #expect(meant && stats.fallbacks.isEmpty,
                "\(self).\(name): \(frames.map(String.init) ?? "every") frame(s) meant for the \(path.rawValue) path; drawn: \(stats.pathSummary)")
    }

    /// How many pixels of `list` the CPU compositor's shortcuts draw otherwise than its general per-pixel
    /// function does.
    static func pixelsTheShortcutsChange(_ list: DrawList, snapshots: [Pixmap]) throws -> Int {
        func render(shortcuts: Bool) throws -> Pixmap {
            let cpu = CPUCompositor(threads: 2)
            cpu.takesShortcuts = shortcuts
            try cpu.load(snapshots: snapshots)
            return try cpu.render(list)
        }
        let fast = try render(shortcuts: true), general = try render(shortcuts: false)
        return zip(fast.pixels, general.pixels).filter { $0 != $1 }.count
    }
}
