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

/// A damped spring from 0 to 1 whose envelope `exp(-ζ ω0 T)` has fallen to 0.001 at the duration T.
struct Spring {
    let zeta: Double
    let v0: Double
    let omega0: Double

    init(damping: Double, velocity: Double, duration: Double) {
        zeta = damping
        v0 = velocity
        omega0 = log(1000) / (damping * max(duration, 1e-9))
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
            return 1 - exp(-a * tau) * (cosh(wd * tau) + ((a - v0) / wd) * sinh(wd * tau))
        }
    }
}
