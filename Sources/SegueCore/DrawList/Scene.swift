/// What one frame shows: a frame of `size` points, its sublayer transform (identity, or a perspective) and
/// the layers, bottom to top. An effect evaluated at progress `t` gives one.
public struct Scene: Sendable, Equatable {
    public var size: Size
    public var sublayerTransform: Transform3D
    public var layers: [Layer]

    public init(size: Size, sublayerTransform: Transform3D = .identity, layers: [Layer]) {
        self.size = size
        self.sublayerTransform = sublayerTransform
        self.layers = layers
    }

    public var center: Point { Point(size.width / 2, size.height / 2) }

    /// The pixel the layer-tree point `p` (homogeneous, before the sublayer transform) lands on at `scale`
    /// pixels per point, in homogeneous form: `((p - c) * S + c*w) * scale`.
    public func toPixels(scale: Double) -> Transform3D {
        Transform3D.translation(-center.x, -center.y) * sublayerTransform
            * Transform3D.translation(center.x, center.y) * Transform3D.scale(scale, scale, 1)
    }
}
