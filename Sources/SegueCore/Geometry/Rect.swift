/// An axis-aligned rectangle in points: origin (top-left corner) and size.
public struct Rect: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    public init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        self.origin = Point(x, y)
        self.size = Size(width, height)
    }

    public var x: Double { origin.x }
    public var y: Double { origin.y }
    public var width: Double { size.width }
    public var height: Double { size.height }
    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var center: Point { Point(origin.x + size.width / 2, origin.y + size.height / 2) }
    public var isEmpty: Bool { size.isEmpty }

    public var description: String { "\(x.compact),\(y.compact),\(width.compact),\(height.compact)" }

    /// `lerp` of each of x, y, width and height.
    public static func lerp(_ a: Rect, _ b: Rect, _ e: Double) -> Rect {
        Rect(SegueCore.lerp(a.x, b.x, e), SegueCore.lerp(a.y, b.y, e),
             SegueCore.lerp(a.width, b.width, e), SegueCore.lerp(a.height, b.height, e))
    }
}

/// `a + (b - a) e`, unclamped: a spring's overshoot carries through.
@inline(__always)
public func lerp(_ a: Double, _ b: Double, _ e: Double) -> Double { a + (b - a) * e }

/// `lerp` of each coordinate.
@inline(__always)
public func lerp(_ a: Point, _ b: Point, _ e: Double) -> Point { Point(lerp(a.x, b.x, e), lerp(a.y, b.y, e)) }
