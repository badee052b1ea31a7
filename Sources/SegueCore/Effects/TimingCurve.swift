import Foundation

/// Maps progress `t` in `[0, 1]` (the fraction of the duration that has passed) to the eased value `e`.
/// The curves of docs/effects.md section 2. A spring may overshoot 1; nothing clamps `e`.
public enum TimingCurve: Sendable, Equatable, Hashable, CustomStringConvertible {
    case linear
    /// A CSS-style cubic Bezier from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2).
    case cubic(Double, Double, Double, Double)
    /// A damped oscillator: damping ratio ζ and initial velocity v0 in total distances per second.
    case spring(damping: Double, velocity: Double)

    public static let easeIn = TimingCurve.cubic(0.42, 0, 1, 1)
    public static let easeOut = TimingCurve.cubic(0, 0, 0.58, 1)
    public static let easeInOut = TimingCurve.cubic(0.42, 0, 0.58, 1)
    /// `kCAMediaTimingFunctionDefault`.
    public static let caDefault = TimingCurve.cubic(0.25, 0.1, 0.25, 1)

    /// The named curves, as the command line spells them.
    public static let named: [(String, TimingCurve)] = [
        ("linear", .linear), ("ease-in", .easeIn), ("ease-out", .easeOut),
        ("ease-in-out", .easeInOut), ("default", .caDefault),
    ]

    /// The eased value at progress `t` of an animation lasting `duration` seconds (only a spring uses it).
    public func value(at t: Double, duration: Double) -> Double {
        switch self {
        case .linear:
            return t
        case let .cubic(x1, y1, x2, y2):
            return CubicBezier(x1: x1, y1: y1, x2: x2, y2: y2).y(atX: t)
        case let .spring(zeta, v0):
            return Spring(damping: zeta, velocity: v0, duration: duration).value(at: t * duration)
        }
    }

    public var description: String {
        if let name = Self.named.first(where: { $0.1 == self })?.0 { return name }
        switch self {
        case .linear: return "linear"
        case let .cubic(a, b, c, d): return "cubic(\(a.compact),\(b.compact),\(c.compact),\(d.compact))"
        case let .spring(z, v): return "spring(\(z.compact),\(v.compact))"
        }
    }

    /// Parses `linear`, `ease-in`, `ease-out`, `ease-in-out`, `default`, `cubic(x1,y1,x2,y2)` or
    /// `spring(damping,velocity)`.
    public init(parsing text: String) throws {
        let s = text.replacingOccurrences(of: " ", with: "").lowercased()
        if let named = Self.named.first(where: { $0.0 == s }) { self = named.1; return }
        func arguments(_ prefix: String, count: Int) throws -> [Double]? {
            guard s.hasPrefix(prefix + "("), s.hasSuffix(")") else { return nil }
            let inner = s.dropFirst(prefix.count + 1).dropLast()
            let values = inner.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard values.count == count, values.allSatisfy({ $0 != nil && $0!.isFinite }) else {
                throw SegueError.invalidOption("curve", value: text, "curve '\(text)' needs \(count) numbers: \(prefix)(\(count == 4 ? "x1,y1,x2,y2" : "damping,velocity"))")
            }
            return values.map { $0! }
        }
        if let v = try arguments("cubic", count: 4) {
            guard (0...1).contains(v[0]), (0...1).contains(v[2]) else {
                throw SegueError.invalidOption("curve", value: text, "curve '\(text)': x1 and x2 must be in [0, 1]")
            }
            self = .cubic(v[0], v[1], v[2], v[3]); return
        }
        if let v = try arguments("spring", count: 2) {
            guard v[0] > 0 else { throw SegueError.invalidOption("curve", value: text, "curve '\(text)': damping must be > 0") }
            self = .spring(damping: v[0], velocity: v[1]); return
        }
        throw SegueError.invalidOption("curve", value: text,
            "unknown curve '\(text)' (use linear, ease-in, ease-out, ease-in-out, default, cubic(x1,y1,x2,y2) or spring(damping,velocity))")
    }
}

/// A CSS cubic Bezier timing function; x is solved for `t` to within 1e-6.
struct CubicBezier {
    let x1, y1, x2, y2: Double

    private func sample(_ a1: Double, _ a2: Double, _ s: Double) -> Double {
        // B(s) = 3(1-s)^2 s a1 + 3(1-s) s^2 a2 + s^3
        let u = 1 - s
        return 3 * u * u * s * a1 + 3 * u * s * s * a2 + s * s * s
    }

    private func slope(_ a1: Double, _ a2: Double, _ s: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * a1 + 6 * u * s * (a2 - a1) + 3 * s * s * (1 - a2)
    }

    func y(atX x: Double) -> Double {
        if x <= 0 { return x == 0 ? 0 : sample(y1, y2, 0) }
        if x >= 1 { return 1 }
        // Newton from a good start, falling back to bisection, which always converges.
        var s = x
        for _ in 0..<8 {
            let err = sample(x1, x2, s) - x
            if abs(err) < 1e-7 { return sample(y1, y2, s) }
            let d = slope(x1, x2, s)
            if abs(d) < 1e-6 { break }
            s -= err / d
            if s < 0 || s > 1 { break }
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<60 {
            let v = sample(x1, x2, s)
            if abs(v - x) < 1e-7 { break }
            if v < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return sample(y1, y2, s)
    }
}

/// A damped spring from 0 to 1: a unit mass on a spring of natural frequency `omega0` and damping ratio `zeta`,
/// starting at 0 with velocity `v0` in whole distances per second (UIKit's normalisation of a spring's initial
/// velocity: the rate of change divided by the distance to travel). Closed form: with `x = value - 1`,
/// `x(0) = -1`, `x'(0) = v0` and `a = ζ ω0`,
///
/// - underdamped (`ζ < 1`, `ωd = ω0 sqrt(1 - ζ²)`): `x = -exp(-a τ) (cos ωd τ + ((a - v0) / ωd) sin ωd τ)`;
/// - critically damped (`ζ = 1`): `x = -exp(-ω0 τ) (1 + (ω0 - v0) τ)`;
/// - overdamped (`ζ > 1`, `ωd = ω0 sqrt(ζ² - 1)`, `c = (a - v0) / ωd`):
///   `x = -((1 + c) exp(-(a - ωd) τ) + (1 - c) exp(-(a + ωd) τ)) / 2`, the cosh and sinh form written as two
///   decaying exponentials, which do not overflow however long the spring runs.
struct Spring: Sendable, Equatable {
    let zeta: Double
    let v0: Double
    let omega0: Double

    /// The timing curve's spring: `omega0` such that the envelope `exp(-ζ ω0 T)` has fallen to 0.001 at the
    /// duration T.
    init(damping: Double, velocity: Double, duration: Double) {
        zeta = damping
        v0 = velocity
        omega0 = log(1000) / (damping * max(duration, 1e-9))
    }

    /// A spring of `response` seconds, the period of its undamped oscillation: `omega0 = 2π / response`, as
    /// SwiftUI's `Spring(response:dampingRatio:)` (whose `Spring(duration: 0.5)` has stiffness 157.9 for a
    /// unit mass, `(2π / 0.5)²`; developer.apple.com/documentation/swiftui/spring).
    init(damping: Double, response: Double, velocity: Double) {
        zeta = damping
        v0 = velocity
        omega0 = 2 * .pi / response
    }

    /// The value at `tau` seconds.
    func value(at tau: Double) -> Double {
        let a = zeta * omega0
        if abs(zeta - 1) < 1e-9 {
            return 1 - exp(-omega0 * tau) * (1 + (omega0 - v0) * tau)
        } else if zeta < 1 {
            let wd = omega0 * (1 - zeta * zeta).squareRoot()
            return 1 - exp(-a * tau) * (cos(wd * tau) + ((a - v0) / wd) * sin(wd * tau))
        } else {
            let wd = omega0 * (zeta * zeta - 1).squareRoot()
            let c = (a - v0) / wd
            return 1 - ((1 + c) * exp(-slowRate * tau) + (1 - c) * exp(-(a + wd) * tau)) / 2
        }
    }

    /// An overdamped spring's slower decay rate, `a - ωd`, written so that it loses no digits for a large `ζ`.
    private var slowRate: Double { omega0 / (zeta + (zeta * zeta - 1).squareRoot()) }

    /// The time from which the value stays within `epsilon` of 1: the end of the last stretch where it is further.
    /// With `holdingOvershoot`, a value past 1 counts as arrived (the caller holds it at 1), so only a value short
    /// of `1 - epsilon` keeps the spring unsettled. Found by stepping back from a time the envelope guarantees
    /// (below), at most 4096 steps or 64 a period of the oscillation, then halving the last step 60 times: a
    /// pure function of the spring.
    func settleTime(epsilon: Double, holdingOvershoot: Bool) -> Double {
        func unsettled(_ tau: Double) -> Bool {
            let x = value(at: tau) - 1
            return x < -epsilon || (!holdingOvershoot && x > epsilon)
        }
        let horizon = envelopeTime(epsilon)
        guard horizon.isFinite else { return .infinity }
        guard horizon > 0 else { return 0 }
        var step = horizon / 4096
        if zeta < 1 - 1e-9 { step = min(step, 2 * .pi / (omega0 * (1 - zeta * zeta).squareRoot()) / 64) }
        // From the horizon (settled) back to the last step that is not; at 0 the value is 0, never settled.
        var k = Int((horizon / step).rounded(.up))
        while k > 0 && !unsettled(Double(k) * step) { k -= 1 }
        var low = Double(k) * step, high = min(Double(k + 1) * step, horizon)
        for _ in 0..<60 {
            let mid = (low + high) / 2
            if unsettled(mid) { low = mid } else { high = mid }
        }
        return high
    }

    /// A time after which `|value - 1| <= epsilon` for certain, from a bound on the envelope of `x`:
    /// `sqrt(1 + c²) exp(-a τ)` underdamped (`c = (a - v0) / ωd`); `exp(-ω0 τ) (1 + b τ) <= (1 + 2b / (e ω0))
    /// exp(-ω0 τ / 2)` critically damped (`b = |ω0 - v0|`, as `τ exp(-ω0 τ / 2) <= 2 / (e ω0)`);
    /// `(|1 + c| + |1 - c|) / 2 exp(-(a - ωd) τ)` overdamped.
    private func envelopeTime(_ epsilon: Double) -> Double {
        let a = zeta * omega0
        let amplitude: Double, rate: Double
        if abs(zeta - 1) < 1e-9 {
            amplitude = 1 + 2 * abs(omega0 - v0) / (exp(1) * omega0)
            rate = omega0 / 2
        } else if zeta < 1 {
            let c = (a - v0) / (omega0 * (1 - zeta * zeta).squareRoot())
            amplitude = (1 + c * c).squareRoot()
            rate = a
        } else {
            let c = (a - v0) / (omega0 * (zeta * zeta - 1).squareRoot())
            amplitude = (abs(1 + c) + abs(1 - c)) / 2
            rate = slowRate
        }
        return max(0, log(amplitude / epsilon) / rate)
    }
}
