import Testing
@testable import SegueCore

@Suite struct InteractiveTrackTests {
    func track(_ pairs: [(Double, Double)], threshold: Double = 0.5, duration: Double = 1) throws -> InteractiveTrack {
        try InteractiveTrack(samples: pairs.map { .init(time: $0.0, progress: $0.1) }, threshold: threshold, duration: duration)
    }

    @Test func followsTheFingerLinearlyBetweenSamples() throws {
        let t = try track([(0, 0), (0.2, 0.2), (0.4, 0.6)])
        #expect(t.progress(at: 0) == 0)
        #expect(abs(t.progress(at: 0.1) - 0.1) < 1e-12)
        #expect(abs(t.progress(at: 0.3) - 0.4) < 1e-12)
        #expect(t.progress(at: 0.4) == 0.6)
    }

    @Test func finishesAboveTheThresholdOverTheRemainingSpan() throws {
        let t = try track([(0, 0), (0.5, 0.6)], duration: 1)
        #expect(t.finishes)
        #expect(abs(t.completionDuration - 0.4) < 1e-12)
        #expect(abs(t.totalDuration - 0.9) < 1e-12)
        // Halfway through the completion, ease-in-out is at 0.5 by symmetry.
        #expect(abs(t.progress(at: 0.7) - 0.8) < 1e-6)
        #expect(t.progress(at: 0.9) == 1)
        #expect(t.progress(at: 5) == 1)
    }

    @Test func cancelsAtOrBelowTheThreshold() throws {
        let t = try track([(0, 0), (0.3, 0.5)], duration: 2)
        #expect(!t.finishes)
        #expect(abs(t.completionDuration - 1) < 1e-12)
        #expect(abs(t.progress(at: 0.8) - 0.25) < 1e-6)
        #expect(t.progress(at: 1.3) == 0)
        #expect(t.finalProgress == 0)
        // The ease is slow at both ends of the completion.
        #expect(t.progress(at: 0.31) > 0.499)
    }

    @Test func clampsProgressAndHoldsBeforeTheFirstSample() throws {
        let t = try track([(0.2, -0.5), (0.4, 1.5)], threshold: 0.9)
        #expect(t.progress(at: 0) == 0)
        #expect(t.releaseProgress == 1)
        #expect(t.completionDuration == 0)
        #expect(t.progress(at: 0.4) == 1)
    }

    @Test func parsesCSVWithAHeaderAndNamesTheBadLine() throws {
        let samples = try InteractiveTrack.parseCSV("time,progress\n0,0\n# comment\n\n0.1, 0.25\n")
        #expect(samples == [.init(time: 0, progress: 0), .init(time: 0.1, progress: 0.25)])
        #expect(throws: SegueError(.invalidInput(path: nil), "line 3: '0.2' is not 'time,progress' (two numbers)")) {
            try InteractiveTrack.parseCSV("0,0\n0.1,0.1\n0.2\n")
        }
    }

    @Test func refusesTimeGoingBackwardsAndEmptyTracks() {
        #expect(throws: SegueError.self) { try track([(0.2, 0), (0.1, 0.5)]) }
        #expect(throws: SegueError.self) { try track([]) }
        #expect(throws: SegueError.self) { try track([(0, 0)], threshold: 2) }
    }
}
