/// A width and height in points (or pixels, where a name says so).
public struct Size: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(_ width: Double, _ height: Double) { self.width = width; self.height = height }
    public init(width: Double, height: Double) { self.width = width; self.height = height }

    public var description: String { "\(width.compact)x\(height.compact)" }
    public var isEmpty: Bool { !(width > 0 && height > 0) }
}
