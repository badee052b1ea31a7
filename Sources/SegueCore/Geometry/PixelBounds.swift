/// A half-open rectangle of whole pixels: columns `x0..<x1`, rows `y0..<y1`.
public struct PixelBounds: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var x0, y0, x1, y1: Int

    public init(x0: Int, y0: Int, x1: Int, y1: Int) { self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1 }

    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    public var width: Int { max(0, x1 - x0) }
    public var height: Int { max(0, y1 - y0) }

    public func contains(_ other: PixelBounds) -> Bool {
        other.isEmpty || (other.x0 >= x0 && other.y0 >= y0 && other.x1 <= x1 && other.y1 <= y1)
    }

    public func intersection(_ o: PixelBounds) -> PixelBounds {
        PixelBounds(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
    }

    public var description: String { "[\(x0),\(y0) \(width)x\(height)]" }
}
