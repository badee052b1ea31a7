import SegueCore
import SegueCPU
import SegueSamples

/// Small frames that exercise every option the effects have: 64x112 points, the sample screens as snapshots.
enum Fixture {
    static let frame = Size(64, 112)
    static let progressSteps: [Double] = [0, 0.25, 0.5, 0.75, 1]

    static func snapshots(scale: Double) -> [Pixmap] {
        [SampleScreens.home(width: frame.width, height: frame.height, scale: scale),
         SampleScreens.detail(width: frame.width, height: frame.height, scale: scale)]
    }

    /// The effect with options sized for the small frame; page-flip and hinge get a short eye distance so
    /// their perspective shows, and container-transform a tile growing into a card.
    static func transition(_ effect: Effect, _ direction: Direction) -> Transition {
        var o = EffectOptions()
        switch effect {
        case .hero:
            o.set("from-rect", Rect(4, 18, 14, 14)); o.set("to-rect", Rect(0, 0, 64, 47)); o.set("from-radius", 3); o.set("to-radius", 0)
        case .sheet: o.set("height", 48)
        case .circleSpread: o.set("start-radius", 4); o.set("center", Point(20, 30))
        case .circleZoom: o.set("center", Point(20, 30))
        case .pageFlip: o.set("perspective", 80)
        case .hinge: o.set("perspective", 150)
        case let e where e.name == "container-transform":
            // A small tile into a wide card: the images share the height (Android's fit by height).
            o.set("from-rect", Rect(4, 18, 14, 14)); o.set("to-rect", Rect(4, 56, 56, 40)); o.set("from-radius", 3); o.set("to-radius", 8)
        default: break
        }
        return Transition(effect, direction: direction, options: o)
    }

    static func render(_ transition: Transition, at t: Double, scale: Double = 1, snapshots: [Pixmap]? = nil,
                       renderer: Renderer = CPUCompositor(threads: 2)) throws -> Pixmap {
        let snapshots = snapshots ?? Self.snapshots(scale: scale)
        try renderer.load(snapshots: snapshots)
        let list = DrawList(scene: transition.scene(at: t, frame: frame, scale: scale), scale: scale,
                            snapshots: snapshots.map(SnapshotInfo.init))
        return try renderer.render(list)
    }

    /// Frames side by side, left to right.
    static func strip(_ frames: [Pixmap]) -> Pixmap {
        let w = frames[0].width, h = frames[0].height
        var out = Pixmap(width: w * frames.count, height: h)
        for (k, f) in frames.enumerated() {
            for y in 0..<h {
                out.pixels.replaceSubrange((y * out.width + k * w)..<(y * out.width + k * w + w), with: f.pixels[(y * w)..<(y * w + w)])
            }
        }
        return out
    }

    /// Each output pixel the mean of a 2x2 block.
    static func halve(_ p: Pixmap) -> Pixmap {
        var out = Pixmap(width: p.width / 2, height: p.height / 2)
        for y in 0..<out.height {
            for x in 0..<out.width {
                var v: UInt32 = 0
                for shift in stride(from: UInt32(0), to: 32, by: 8) {
                    var sum: UInt32 = 2
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] { sum += p[2 * x + dx, 2 * y + dy] >> shift & 0xFF }
                    v |= (sum / 4) << shift
                }
                out[x, y] = v
            }
        }
        return out
    }
}

struct Case: CustomStringConvertible, Sendable {
    let effect: Effect
    let direction: Direction
    var description: String { "\(effect.name)-\(direction.rawValue)" }

    static let all = EffectCatalog.builtIn.flatMap { e in Direction.allCases.map { Case(effect: e, direction: $0) } }
}
