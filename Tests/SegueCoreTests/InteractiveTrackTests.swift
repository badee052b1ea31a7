import Foundation
import Testing
@testable import SegueCore

/// The drag and the `.easeInOut` completion (the behaviour before the spring, named explicitly here).
@Suite struct InteractiveTrackTests {
    func track(_ pairs: [(Double, Double)], threshold: Double = 0.5, duration: Double = 1,
               completion: InteractiveTrack.Completion = .easeInOut) throws -> InteractiveTrack {
        try InteractiveTrack(samples: pairs.map { .init(time: $0.0, progress: $0.1) }, threshold: threshold, duration: duration,
                             completion: completion)
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

/// The `.spring` completion: the drag's velocity at the release carried into a damped spring.
@Suite struct InteractiveSpringTests {
    func track(_ pairs: [(Double, Double)], threshold: Double = 0.5,
               completion: InteractiveTrack.Completion = InteractiveTrack.defaultCompletion) throws -> InteractiveTrack {
        try InteractiveTrack(samples: pairs.map { .init(time: $0.0, progress: $0.1) }, threshold: threshold, duration: 1,
                             completion: completion)
    }

    /// A drag at a steady `speed` (progress a second) sampled at 120 Hz, released at `progress` at 0.5 s.
    func steady(to progress: Double, speed: Double) -> [(Double, Double)] {
        (0...60).map { k in let t = Double(k) / 120; return (t, progress - speed * (0.5 - t)) }
    }

    @Test func theSpringIsTheDefault() throws {
        let t = try InteractiveTrack(samples: [.init(time: 0, progress: 0.7)], duration: 1)
        #expect(t.completion == .spring(damping: 1, response: 0.5))
        #expect(InteractiveTrack.defaultCompletion == (try InteractiveTrack.Completion()))
    }

    @Test func theVelocityIsTheSlopeOfTheLastTenthOfASecond() throws {
        // Least squares over the samples of the last 0.1 s: a steady drag reads its speed.
        #expect(abs(try track(steady(to: 0.6, speed: 1.5)).releaseVelocity - 1.5) < 1e-9)
        // Noise on the last samples is averaged, not taken at face value.
        var jittered = steady(to: 0.6, speed: 1)
        jittered[jittered.count - 1].1 += 0.01
        let v = try track(jittered).releaseVelocity
        #expect(v > 1 && v < 1 + 0.01 * 120)
        // Samples sparser than the window: the last segment's slope; one sample, or one time: 0.
        #expect(abs(try track([(0, 0), (0.25, 0.1), (0.5, 0.6)]).releaseVelocity - 2) < 1e-12)
        #expect(try track([(0.3, 0.6)]).releaseVelocity == 0)
        #expect(try track([(0.3, 0.2), (0.3, 0.6)]).releaseVelocity == 0)
        // Two samples a nanosecond apart read as at most maxVelocity.
        #expect(try track([(0, 0.2), (1e-9, 0.8)]).releaseVelocity == InteractiveTrack.maxVelocity)
    }

    @Test func aFlickIsFurtherAlongJustAfterTheReleaseThanASlowRelease() throws {
        let flick = try track(steady(to: 0.6, speed: 3)), slow = try track(steady(to: 0.6, speed: 0.2))
        #expect(flick.finishes && slow.finishes)
        for dt in [0.01, 0.03, 0.05, 0.1] {
            #expect(flick.progress(at: 0.5 + dt) > slow.progress(at: 0.5 + dt) + 1e-3, "at +\(dt) s")
        }
        // The flick starts at the finger's speed: the spring's slope at the release is the drag's.
        let h = 1e-6
        #expect(abs((flick.progress(at: 0.5 + h) - 0.6) / h - 3) < 1e-3)
        // And a faster release completes sooner.
        #expect(flick.completionDuration < slow.completionDuration)
    }

    @Test func zeroVelocityIsTheSpringFromRest() throws {
        let t = try track([(0, 0.3), (0.2, 0.7), (0.4, 0.7)])
        #expect(t.releaseVelocity == 0 && t.finishes)
        // x(τ) = -(1 + ω τ) exp(-ω τ), ω = 2π / 0.5: critically damped from rest.
        let omega = 2 * Double.pi / 0.5
        for tau in [0.05, 0.1, 0.2, 0.4] {
            let expected = 0.7 + 0.3 * (1 - (1 + omega * tau) * exp(-omega * tau))
            #expect(abs(t.progress(at: 0.4 + tau) - expected) < 1e-12)
        }
        // It settles where x = -0.001: (1 + ω τ) exp(-ω τ) = 0.001 at ω τ = 9.2334.
        #expect(abs(t.completionDuration - 9.233_413_476 / omega) < 1e-6)
    }

    @Test(arguments: [0.3, 0.6, 1.0, 1.5])
    func theSpringMatchesTheClosedFormForEachDamping(_ zeta: Double) throws {
        let t = try track(steady(to: 0.6, speed: 0.8), completion: .spring(damping: zeta, response: 0.4))
        let omega = 2 * Double.pi / 0.4, v0 = 0.8 / 0.4, a = zeta * omega
        for tau in [0.02, 0.1, 0.25] {
            let x: Double
            if zeta < 1 {
                let wd = omega * (1 - zeta * zeta).squareRoot()
                x = -exp(-a * tau) * (cos(wd * tau) + (a - v0) / wd * sin(wd * tau))
            } else if zeta == 1 {
                x = -exp(-omega * tau) * (1 + (omega - v0) * tau)
            } else {
                let wd = omega * (zeta * zeta - 1).squareRoot()
                x = -exp(-a * tau) * (cosh(wd * tau) + (a - v0) / wd * sinh(wd * tau))
            }
            #expect(abs(t.progress(at: 0.5 + tau) - min(1, 1 + 0.4 * x)) < 1e-9, "ζ \(zeta) at +\(tau) s")
        }
    }

    @Test func theCompletionEndsExactlyAtTheEndAndStaysThere() throws {
        for (pairs, end) in [(steady(to: 0.6, speed: 0.5), 1.0), (steady(to: 0.4, speed: -0.5), 0.0),
                             (steady(to: 0.9, speed: 4), 1.0), (steady(to: 0.2, speed: -3), 0.0)] {
            for completion in [InteractiveTrack.defaultCompletion, .spring(damping: 0.4, response: 0.3), .easeInOut] {
                let t = try track(pairs, completion: completion)
                #expect(t.finalProgress == end)
                #expect(t.progress(at: t.totalDuration) == end)
                #expect(t.progress(at: t.totalDuration + 10) == end)
                // Within the settle tolerance of the distance just before the end, and never past either end.
                let before = t.progress(at: t.totalDuration - 1e-9)
                #expect(abs(before - end) <= InteractiveTrack.settleEpsilon + 1e-9, "\(completion)")
                for k in 0...200 {
                    let p = t.progress(at: t.releaseTime + t.completionDuration * Double(k) / 200)
                    #expect((0...1).contains(p))
                }
            }
        }
    }

    @Test func aFlickTowardTheOtherSideDecidesWithTheProjectedProgress() throws {
        // Released at 0.6, above the threshold, but moving back at 1 a second: projected 0.6 - 0.499 < 0.5.
        let back = steady(to: 0.6, speed: -1)
        #expect(!(try track(back)).finishes)
        #expect(try track(back, completion: .easeInOut).finishes)
        // Released at 0.3 moving forward at 1.5 a second: projected 1.05, it finishes.
        let forward = steady(to: 0.3, speed: 1.5)
        #expect(try track(forward).finishes)
        #expect(!(try track(forward, completion: .easeInOut)).finishes)
        // At rest, the threshold decides as before.
        #expect(try track([(0, 0.51)]).finishes)
        #expect(!(try track([(0, 0.5)])).finishes)
    }

    @Test func aCancelRunsTheSpringBackToZero() throws {
        let t = try track(steady(to: 0.3, speed: -0.6))
        #expect(!t.finishes && t.finalProgress == 0)
        // The spring's unit velocity is the drag's over the distance left, -0.6 / -0.3 = 2 a second.
        let h = 1e-6
        #expect(abs((t.progress(at: 0.5 + h) - 0.3) / h + 0.6) < 1e-3)
        let values = (0...100).map { t.progress(at: 0.5 + t.completionDuration * Double($0) / 100) }
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 >= $1 })
    }

    @Test func aReleaseAtTheEndCompletesAtOnce() throws {
        let t = try track([(0, 0.5), (0.1, 1)])
        #expect(t.finishes && t.completionDuration == 0 && t.progress(at: 0.1) == 1)
    }

    @Test func theSameTrackGivesTheSameProgressBitForBit() throws {
        let pairs = steady(to: 0.62, speed: 2.3)
        let a = try track(pairs, completion: .spring(damping: 0.7, response: 0.45))
        let b = try track(pairs, completion: .spring(damping: 0.7, response: 0.45))
        #expect(a == b)
        let times = (0..<120).map { Double($0) / 60 }
        #expect(times.map { a.progress(at: $0).bitPattern } == times.map { b.progress(at: $0).bitPattern })
    }

    @Test func theEaseInOutOptionKeepsTheOldCompletion() throws {
        // (1 - p) * duration, ease-in-out: what every interactive track did before the spring.
        let t = try track([(0, 0), (0.5, 0.6)], completion: .easeInOut)
        #expect(t.finishes && abs(t.completionDuration - 0.4) < 1e-12)
        for u in [0.1, 0.25, 0.5, 0.9] {
            let expected = 0.6 + 0.4 * TimingCurve.easeInOut.value(at: u, duration: 0.4)
            #expect(abs(t.progress(at: 0.5 + 0.4 * u) - expected) < 1e-12)
        }
    }

    @Test func badOptionsAreInvalidOptions() {
        let cases: [(String?, Double?, Double?, SegueError)] = [
            ("bounce", nil, nil, .invalidOption("completion", value: "bounce", "unknown completion 'bounce' (use spring or ease-in-out)")),
            ("spring", 0, nil, .invalidOption("damping", value: "0", "the spring's damping ratio must be in [0.05, 10], not 0")),
            (nil, 11, nil, .invalidOption("damping", value: "11", "the spring's damping ratio must be in [0.05, 10], not 11")),
            (nil, nil, 0, .invalidOption("response", value: "0", "the spring's response must be in (0, 10] seconds, not 0")),
            (nil, nil, .infinity, .invalidOption("response", value: "inf", "the spring's response must be in (0, 10] seconds, not inf")),
            ("ease-in-out", 0.8, nil, .invalidOption("damping", value: "0.8", "damping applies to the spring completion, not ease-in-out")),
        ]
        for (name, damping, response, error) in cases {
            #expect(throws: error) { try InteractiveTrack.Completion(named: name, damping: damping, response: response) }
        }
        #expect(throws: SegueError.self) {
            try InteractiveTrack(samples: [.init(time: 0, progress: 0)], duration: 1, completion: .spring(damping: -1, response: 0.5))
        }
    }
}
