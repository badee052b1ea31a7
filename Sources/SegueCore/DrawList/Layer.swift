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
    /// A rounded rectangle whose corners follow iOS's continuous corner curve (`CALayerCornerCurve.continuous`,
    /// `UIBezierPath(roundedRect:cornerRadius:)` since iOS 7) for corner radius `radius`: the curve leaves each
    /// side `Mask.continuousReach` radii from the corner, where a circular arc leaves it one radius from it.
    case continuousRect(Rect, radius: Double)
    /// The points whose angle about `center`, measured from `startAngle`, lies within `0...sweep`, at any
    /// distance (a clock wipe). Angles are in radians, 0 along +x and increasing toward +y (clockwise on
    /// screen, y being down), `atan2(v, u)` about the centre; a negative `sweep` turns the other way. A sweep
    /// of 2π or more keeps everything (no seam along the ray), a sweep of 0 nothing.
    case sector(center: Point, startAngle: Double, sweep: Double)
    /// The rounded rectangle `rect` (corner radius `radius`, 0 for a plain rectangle) blurred by a Gaussian of
    /// standard deviation `sigma` in local points: what a shadow covers (`Shadow`). Coverage goes from 1 deep
    /// inside to 0 about `4.24 sigma` outside; `DrawItem` documents the function both backends evaluate.
    case blurred(Rect, radius: Double, sigma: Double)
}

/// A Core Animation shadow (`CALayer.shadowColor`, `shadowOpacity`, `shadowRadius`, `shadowOffset` and
/// `shadowPath`): the layer's shape, blurred, offset and tinted, drawn just beneath the layer and moved by the
/// layer's transform as the layer is. The shape is `path` when given, else the layer's bounds, rounded as its
/// rounded-rectangle mask rounds them (a circle mask casts a circle). Opacity multiplies the colour's alpha;
/// the layer's own opacity applies to its shadow too.
public struct Shadow: Sendable, Equatable {
    public var color: Color
    public var opacity: Double
    /// Core Animation's `shadowRadius`, in points; the Gaussian's standard deviation is `radius *
    /// sigmaPerRadius`.
    public var radius: Double
    /// In the layer's own points (y down), as `shadowOffset`.
    public var offset: Point
    public var path: ShadowPath?

    public init(color: Color = .black, opacity: Double, radius: Double, offset: Point = Point(0, 0), path: ShadowPath? = nil) {
        self.color = color; self.opacity = opacity; self.radius = radius; self.offset = offset; self.path = path
    }

    /// The Gaussian's standard deviation per point of `shadowRadius`: Core Animation's `shadowRadius` is the
    /// standard deviation of its blur (docs/effects.md, "Shadows", gives the sources).
    public static let sigmaPerRadius = 1.0

    /// The widest blur drawn, in points (far wider than any frame): a wider one is held to it, which keeps a
    /// shadow's coordinates within what single precision (both backends' arithmetic) holds well.
    public static let maxSigma = 100_000.0
    /// How far from the layer's origin, in points, a shadow's shape may reach: an edge past it is held there.
    public static let maxExtent = 1_000_000.0
}

/// A shadow's shape in the layer's local points: a rectangle with rounded corners (radius 0: square ones; a
/// square with radius half its side: a circle).
public struct ShadowPath: Sendable, Equatable {
    public var rect: Rect
    public var cornerRadius: Double

    public init(rect: Rect, cornerRadius: Double = 0) { self.rect = rect; self.cornerRadius = cornerRadius }

    public static func circle(center: Point, radius: Double) -> ShadowPath {
        ShadowPath(rect: Rect(center.x - radius, center.y - radius, 2 * radius, 2 * radius), cornerRadius: radius)
    }
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
/// `transform`, with an opacity, content, and an optional mask, gradient overlay and shadow. A layer that is not
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
    /// Drawn just beneath the layer, with its transform.
    public var shadow: Shadow?

    public init(bounds: Size, position: Point, anchor: Point = Point(0.5, 0.5),
                transform: Transform3D = .identity, opacity: Double = 1, content: LayerContent,
                mask: Mask? = nil, overlay: GradientOverlay? = nil, isDoubleSided: Bool = true, shadow: Shadow? = nil) {
        self.bounds = bounds; self.position = position; self.anchor = anchor
        self.transform = transform; self.opacity = opacity; self.content = content
        self.mask = mask; self.overlay = overlay; self.isDoubleSided = isDoubleSided; self.shadow = shadow
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
