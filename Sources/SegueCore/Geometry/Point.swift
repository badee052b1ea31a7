import Foundation

/// A point or vector in points (origin top-left, x right, y down).
public struct Point: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    public static let zero = Point(0, 0)

    public var description: String { "\(x.compact),\(y.compact)" }

    public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    public static func * (a: Point, k: Double) -> Point { Point(a.x * k, a.y * k) }
    public var length: Double { (x * x + y * y).squareRoot() }
}

extension Double {
    /// A short decimal form: `2` rather than `2.0`, at most 4 decimals; `1e+308` for magnitudes of 1e15 and up.
    public var compact: String {
        if self == rounded() && abs(self) < 1e15 { return String(Int(self)) }
        if (abs(self) >= 1e15 || abs(self) < 1e-4) && isFinite { return String(format: "%g", self) }
        var s = String(format: "%.4f", self)
        while s.hasSuffix("0") { s.removeLast() }
        return s
    }
}
