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

/// Every effect option, as the command line names them (`--zoom`, `--center`, ...). `nil` means the
/// effect's default. Which options an effect takes is in `EffectCatalog`.
public struct EffectOptions: Sendable, Equatable {
    public var zoom: Double?
    public var center: Point?
    public var startRadius: Double?
    public var endRadius: Double?
    public var color: Color?
    public var perspective: Double?
    public var shadow: Double?
    public var fromRect: Rect?
    public var toRect: Rect?
    public var fromRadius: Double?
    public var toRadius: Double?
    public var height: Double?

    public init() {}

    /// The names of the options that are set, as the command line spells them.
    public var setNames: [String] {
        var names: [String] = []
        if zoom != nil { names.append("zoom") }
        if center != nil { names.append("center") }
        if startRadius != nil { names.append("start-radius") }
        if endRadius != nil { names.append("end-radius") }
        if color != nil { names.append("color") }
        if perspective != nil { names.append("perspective") }
        if shadow != nil { names.append("shadow") }
        if fromRect != nil { names.append("from-rect") }
        if toRect != nil { names.append("to-rect") }
        if fromRadius != nil { names.append("from-radius") }
        if toRadius != nil { names.append("to-radius") }
        if height != nil { names.append("height") }
        return names
    }
}
