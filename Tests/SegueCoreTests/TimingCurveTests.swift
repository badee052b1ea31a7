import Testing
@testable import SegueCore

@Suite struct TimingCurveTests {
    @Test func namedCurvesMatchTheirBezierControlPoints() throws {
        // Reference values of the CSS/Core Animation curves, solved independently to 1e-4.
        #expect(abs(TimingCurve.easeInOut.value(at: 0.5, duration: 1) - 0.5) < 1e-6)
        #expect(abs(TimingCurve.easeIn.value(at: 0.5, duration: 1) - 0.3153) < 1e-3)
        #expect(abs(TimingCurve.easeOut.value(at: 0.5, duration: 1) - 0.6847) < 1e-3)
        #expect(abs(TimingCurve.caDefault.value(at: 0.5, duration: 1) - 0.8024) < 1e-3)
        #expect(abs(TimingCurve.easeInOut.value(at: 0.25, duration: 1) - 0.1291) < 1e-3)
        for curve in [TimingCurve.linear, .easeIn, .easeOut, .easeInOut, .caDefault] {
            #expect(curve.value(at: 0, duration: 1) == 0)
            #expect(curve.value(at: 1, duration: 1) == 1)
        }
    }

    @Test func bezierSolvesXToMicroPrecision() {
        let bezier = CubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
        for k in 1..<100 {
            let x = Double(k) / 100
            // Find the curve parameter for y, then check its x comes back to within 1e-6.
            let y = bezier.y(atX: x)
            var lo = 0.0, hi = 1.0
            for _ in 0..<80 {
                let s = (lo + hi) / 2
                let u = 1 - s
                if 3 * u * u * s * 0 + 3 * u * s * s * 1 + s * s * s < y { lo = s } else { hi = s }
            }
            let s = (lo + hi) / 2, u = 1 - s
            let xs = 3 * u * u * s * 0.42 + 3 * u * s * s * 0.58 + s * s * s
            #expect(abs(xs - x) < 1e-6)
        }
    }

    @Test func springSettlesWithinTheDurationAndOvershoots() {
        let spring = TimingCurve.spring(damping: 0.5, velocity: 2)
        #expect(spring.value(at: 0, duration: 0.35) == 0)
        // The envelope is 0.001 at the duration.
        #expect(abs(spring.value(at: 1, duration: 0.35) - 1) <= 0.0015)
        let peak = (0...100).map { spring.value(at: Double($0) / 100, duration: 0.35) }.max()!
        #expect(peak > 1.05)
        // Critically damped: no overshoot with no initial velocity.
        let critical = TimingCurve.spring(damping: 1, velocity: 0)
        let values = (0...100).map { critical.value(at: Double($0) / 100, duration: 1) }
        #expect(values.allSatisfy { $0 <= 1 + 1e-9 })
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 + 1e-12 })
    }

    @Test func springMatchesTheClosedForm() {
        // e(t) = 1 - exp(-ζω0τ)(cos ωdτ + ((ζω0 - v0)/ωd) sin ωdτ), ω0 = ln(1000)/(ζT)
        let zeta = 0.55, v0 = 1 / 0.55, duration = 0.8
        let w0 = log(1000) / (zeta * duration), wd = w0 * (1 - zeta * zeta).squareRoot()
        for t in [0.1, 0.3, 0.5, 0.9] {
            let tau = t * duration
            let expected = 1 - exp(-zeta * w0 * tau) * (cos(wd * tau) + ((zeta * w0 - v0) / wd) * sin(wd * tau))
            #expect(abs(TimingCurve.spring(damping: zeta, velocity: v0).value(at: t, duration: duration) - expected) < 1e-12)
        }
    }

    @Test func overdampedSpringIsTheCoshFormAndNeverOverflows() {
        // e = 1 - exp(-aτ)(cosh ωdτ + ((a - v0)/ωd) sinh ωdτ), written as two decaying exponentials.
        let spring = Spring(damping: 3, response: 0.5, velocity: 4)
        let a = 3 * spring.omega0, wd = spring.omega0 * 8.0.squareRoot()
        for tau in [0.01, 0.1, 0.5] {
            let expected = 1 - exp(-a * tau) * (cosh(wd * tau) + (a - 4) / wd * sinh(wd * tau))
            #expect(abs(spring.value(at: tau) - expected) < 1e-12)
        }
        // cosh(ωd τ) alone would overflow here (ωd τ > 710).
        #expect(spring.value(at: 100) == 1)
    }

    @Test(arguments: [(0.3, 0.0), (1.0, 0.0), (1.0, 30.0), (2.5, -3.0)])
    func springSettleTimeIsTheLastTimeOutsideEpsilon(_ damping: Double, _ velocity: Double) {
        let spring = Spring(damping: damping, response: 0.5, velocity: velocity)
        for holding in [false, true] {
            let settle = spring.settleTime(epsilon: 0.001, holdingOvershoot: holding)
            func outside(_ tau: Double) -> Bool {
                let x = spring.value(at: tau) - 1
                return x < -0.001 || (!holding && x > 0.001)
            }
            #expect(outside(settle - 1e-9), "ζ \(damping), v0 \(velocity)")
            #expect((0...2000).allSatisfy { !outside(settle + Double($0) * 0.005) }, "ζ \(damping), v0 \(velocity)")
        }
        // Holding an overshoot ends a flick as it arrives: sooner than waiting for the overshoot to die away.
        if velocity > spring.omega0 {
            #expect(spring.settleTime(epsilon: 0.001, holdingOvershoot: true) < spring.settleTime(epsilon: 0.001, holdingOvershoot: false))
        }
    }

    @Test(arguments: ["linear", "ease-in", "ease-out", "ease-in-out", "default", "cubic(0.1,0.2,0.3,1)", "spring(0.5,2)"])
    func curveNamesRoundTrip(_ name: String) throws {
        let curve = try TimingCurve(parsing: name)
        #expect(try TimingCurve(parsing: curve.description) == curve)
    }

    @Test(arguments: ["bounce", "cubic(1,2,3)", "cubic(2,0,0.5,1)", "spring(0,1)", "spring(a,b)"])
    func badCurveNamesAreUsageErrors(_ name: String) {
        #expect(throws: SegueError.self) { try TimingCurve(parsing: name) }
    }
}

import Foundation
