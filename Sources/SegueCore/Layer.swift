/// Which input image a snapshot shows.
public enum SnapshotID: Int, Sendable, Equatable, Hashable, CaseIterable {
    case from = 0
    case to = 1
}

/// What a layer shows.
public enum LayerContent: Sendable, Equatable {
    /// A sub-rectangle of the `from` or `to` image, in the frame's points, stretched over the layer's bounds.
    case snapshot(SnapshotID, Rect)
    /// A solid colour.
    case color(Color)
}

/// A layer's mask, in the layer's own local coordinates, in points (not unit coordinates, and before the
/// layer's transform): `(0, 0)` is the top-left corner of its bounds, as a `CAShapeLayer` mask's path is.
public enum Mask: Sendable, Equatable {
    case circle(center: Point, radius: Double)
    case roundedRect(Rect, radius: Double)
    /// The points whose angle about `center`, measured from `startAngle`, lies within `0...sweep`, at any
    /// distance (a clock wipe). Angles are in radians, 0 along +x and increasing toward +y (clockwise on
    /// screen, y being down), `atan2(v, u)` about the centre; a negative `sweep` turns the other way. A sweep
    /// of 2π or more keeps everything (no seam along the ray), a sweep of 0 nothing.
    case sector(center: Point, startAngle: Double, sweep: Double)
}

/// A linear gradient drawn over a layer's content (a `CAGradientLayer` sublayer filling its bounds).
/// `start` and `end` are in unit coordinates of the layer, as `CAGradientLayer.startPoint/endPoint`.
public struct GradientOverlay: Sendable, Equatable {
    public var start: Point
    public var end: Point
    public var startColor: Color
    public var endColor: Color
    public var opacity: Double

    public init(start: Point, end: Point, startColor: Color, endColor: Color, opacity: Double) {
        self.start = start; self.end = end
        self.startColor = startColor; self.endColor = endColor
        self.opacity = opacity
    }
}

/// One layer of Core Animation's model: a `bounds` rectangle placed by `position`, `anchorPoint` and a 3D
/// `transform`, with an opacity, content, and an optional mask and gradient overlay. A layer that is not
/// `isDoubleSided` draws nothing while its back faces the viewer, as `CALayer.isDoubleSided` says.
public struct Layer: Sendable, Equatable {
    public var bounds: Size
    public var position: Point
    public var anchor: Point
    public var transform: Transform3D
    public var opacity: Double
    public var content: LayerContent
    public var mask: Mask?
    public var overlay: GradientOverlay?
    /// False: nothing is drawn while the layer is seen from its back, where the frame shows its local
    /// rectangle mirrored (after its transform and the frame's sublayer transform, the projected outline
    /// winds the other way round). True by default, as in Core Animation: the back shows the content mirrored.
    public var isDoubleSided: Bool

    public init(bounds: Size, position: Point, anchor: Point = Point(0.5, 0.5),
                transform: Transform3D = .identity, opacity: Double = 1, content: LayerContent,
                mask: Mask? = nil, overlay: GradientOverlay? = nil, isDoubleSided: Bool = true) {
        self.bounds = bounds; self.position = position; self.anchor = anchor
        self.transform = transform; self.opacity = opacity; self.content = content
        self.mask = mask; self.overlay = overlay; self.isDoubleSided = isDoubleSided
    }

    /// A layer filling the frame and showing the whole of one image.
    public static func full(_ id: SnapshotID, frame: Size) -> Layer {
        Layer(bounds: frame, position: Point(frame.width / 2, frame.height / 2),
              content: .snapshot(id, Rect(0, 0, frame.width, frame.height)))
    }

    /// A layer showing `rect` of one image at the same place in the frame.
    public static func piece(_ id: SnapshotID, _ rect: Rect) -> Layer {
        Layer(bounds: rect.size, position: rect.center, content: .snapshot(id, rect))
    }

    /// The frame point of the layer's local point `(u, v)` before any sublayer transform, in homogeneous form:
    /// `[u - ax*w, v - ay*h, 0, 1] * T + [position, 0, 0]`.
    public var toParent: Transform3D {
        Transform3D.translation(-anchor.x * bounds.width, -anchor.y * bounds.height)
            * transform * Transform3D.translation(position.x, position.y)
    }
}
