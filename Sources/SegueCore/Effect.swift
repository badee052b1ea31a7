/// The nine built-in effects of EFFECTS.md section 3.
public enum Effect: String, Sendable, CaseIterable, Equatable, Hashable {
    case fade
    case door
    case circleSpread = "circle-spread"
    case circleZoom = "circle-zoom"
    case pageFlip = "page-flip"
    case hero
    case spin
    case hinge
    case sheet
}

/// `forward` is push/present, `back` is pop/dismiss.
public enum Direction: String, Sendable, CaseIterable, Equatable, Hashable {
    case forward
    case back
}

