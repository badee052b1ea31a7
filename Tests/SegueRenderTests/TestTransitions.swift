import SegueCore

/// The small frames the render tests draw: 120x200 points, with options that exercise every path (hero
/// flies between two rects with rounded corners, the sheet is 80 points high, hinge turns in perspective,
/// container-transform grows a rounded container between two rects, shared-axis scales along z).
enum TestTransitions {
    static let frame = Size(120, 200)
    static let progress: [Double] = [0, 0.25, 0.5, 0.75, 1]

    static func transition(_ effect: Effect, _ direction: Direction) -> Transition {
        var options = EffectOptions()
        switch effect {
        case .hero:
            options.set("from-rect", Rect(10, 20, 40, 60))
            options.set("to-rect", Rect(25, 70, 85, 110))
            options.set("from-radius", 6)
            options.set("to-radius", 20)
        case .sheet:
            options.set("height", 80)
        case .hinge:
            options.set("perspective", 300)
        case let e where e.name == "container-transform":
            options.set("from-rect", Rect(10, 20, 40, 60))
            options.set("to-rect", Rect(10, 90, 100, 80))
            options.set("from-radius", 6)
            options.set("to-radius", 12)
        case let e where e.name == "shared-axis":
            options.set("axis", choice: "z")
        default:
            break
        }
        return Transition(effect, direction: direction, options: options)
    }

    /// The draw list of `effect` at progress `t`, at `scale` pixels per point, over `snapshots`.
    static func drawList(_ effect: Effect, _ direction: Direction, t: Double, scale: Double = 1,
                         snapshots: [Pixmap]) -> DrawList {
        let scene = transition(effect, direction).scene(at: t, frame: frame, scale: scale)
        return DrawList(scene: scene, scale: scale, snapshots: snapshots.map(SnapshotInfo.init),
                        background: Color(red: 0.1, green: 0.2, blue: 0.3))
    }

    /// `from` and `to` at `width` x `height` pixels.
    static func snapshots(width: Int, height: Int) -> [Pixmap] {
        [SyntheticSnapshots.from(width: width, height: height), SyntheticSnapshots.to(width: width, height: height)]
    }
}
