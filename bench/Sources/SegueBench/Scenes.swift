import SegueCore
import SegueSamples

/// The benchmark's picture: a 1280x720-point scene at scales 1, 1.5, 3 and 6 (1280x720 ... 7680x4320
/// pixels), the built-in sample screens as snapshots, so every resolution shows the same picture.
enum BenchScene {
    static let frame = Size(1280, 720)

    static func snapshots(scale: Double) -> [Pixmap] {
        [SampleScreens.home(width: frame.width, height: frame.height, scale: scale),
         SampleScreens.detail(width: frame.width, height: frame.height, scale: scale)]
    }

    /// Each effect with options that suit a wide frame (page-flip's eye distance 1.3 x the width).
    static func transition(_ effect: Effect) -> Transition {
        var o = EffectOptions()
        switch effect {
        case .pageFlip: o.set("perspective", 1700)
        case .hero:
            o.set("from-rect", Rect(80, 120, 160, 160)); o.set("to-rect", Rect(0, 0, 1280, 400)); o.set("from-radius", 36)
        case .circleSpread, .circleZoom: o.set("center", Point(400, 300))
        case .sheet: o.set("height", 400)
        case .hinge, .spin: o.set("perspective", 2000)
        default: break
        }
        return Transition(effect, options: o)
    }

    /// `frames` draw lists evenly spread over the transition, both ends included.
    static func lists(_ effect: Effect, scale: Double, frames: Int, snapshots: [SnapshotInfo]) -> [DrawList] {
        let t = transition(effect)
        return (0..<frames).map { k in
            DrawList(scene: t.scene(at: frames == 1 ? 0.5 : Double(k) / Double(frames - 1), frame: frame, scale: scale),
                     scale: scale, snapshots: snapshots)
        }
    }

    /// `frames` lists of a card of the next screen (60% of the frame, its middle) sliding from left to right
    /// over the background alone, with a Core Animation shadow or without.
    static func cardLists(shadowed: Bool, scale: Double, frames: Int, snapshots: [SnapshotInfo]) -> [DrawList] {
        let rect = Rect(frame.width * 0.2, frame.height * 0.2, frame.width * 0.6, frame.height * 0.6)
        return (0..<frames).map { k in
            var card = Layer.piece(.to, rect)
            card.transform = .translation((Double(k) / Double(max(1, frames - 1)) - 0.5) * frame.width * 0.3, 0)
            if shadowed { card.shadow = Shadow(opacity: 0.5, radius: 20, offset: Point(0, 10)) }
            return DrawList(scene: Scene(size: frame, layers: [card]), scale: scale, snapshots: snapshots)
        }
    }

    /// The lists less their shadows' items (a blurred mask), or nil when none has one: what a shadow costs in
    /// its effect.
    static func withoutShadows(_ lists: [DrawList]) -> [DrawList]? {
        func isShadow(_ item: DrawItem) -> Bool { if case .blurred? = item.mask { true } else { false } }
        guard lists.contains(where: { $0.items.contains(where: isShadow) }) else { return nil }
        return lists.map { list in
            var plain = list
            plain.items.removeAll(where: isShadow)
            return plain
        }
    }
}
