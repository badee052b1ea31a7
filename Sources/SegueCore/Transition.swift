import Foundation

/// An effect with its direction, options, timing curve and duration: evaluated at progress `t` on a frame it
/// gives the scene of that frame, as a pure function of its inputs.
public struct Transition: Sendable, Equatable {
    public var effect: Effect
    public var direction: Direction
    public var options: EffectOptions
    public var curve: TimingCurve
    public var duration: Double

    /// `curve` and `duration` default to the effect's own for the direction.
    public init(_ effect: Effect, direction: Direction = .forward, options: EffectOptions = .init(),
                curve: TimingCurve? = nil, duration: Double? = nil) {
        let info = EffectCatalog.info(effect)
        self.effect = effect
        self.direction = direction
        self.options = options
        self.curve = curve ?? info.defaultCurve(direction)
        self.duration = duration ?? info.defaultDuration(direction)
    }

    /// Checks the options against the effect and a frame of `frame` points; throws a usage error naming the
    /// first problem.
    public func validate(frame: Size) throws {
        let info = EffectCatalog.info(effect)
        let allowed = Set(info.options.map(\.name))
        if let stray = options.setNames.first(where: { !allowed.contains($0) }) {
            let takes = allowed.isEmpty ? "takes no options" : "takes " + info.options.map { "--" + $0.name }.joined(separator: ", ")
            throw SegueError.invalidValue("--\(stray) does not apply to \(effect.rawValue), which \(takes)")
        }
        guard duration.isFinite, duration > 0 else {
            throw SegueError.invalidValue("--duration must be a positive number of seconds, not \(duration.compact)")
        }
        func nonNegative(_ v: Double?, _ name: String) throws {
            if let v, !(v >= 0 && v.isFinite) { throw SegueError.invalidValue("--\(name) must be >= 0, not \(v.compact)") }
        }
        func rect(_ r: Rect?, _ name: String) throws {
            guard let r else { return }
            guard [r.x, r.y, r.width, r.height].allSatisfy(\.isFinite), r.width > 0, r.height > 0 else {
                throw SegueError.invalidValue("--\(name) \(r) has no area (width and height must be > 0)")
            }
        }
        try nonNegative(options.startRadius, "start-radius")
        try nonNegative(options.endRadius, "end-radius")
        try nonNegative(options.fromRadius, "from-radius")
        try nonNegative(options.toRadius, "to-radius")
        try nonNegative(options.perspective, "perspective")
        try rect(options.fromRect, "from-rect")
        try rect(options.toRect, "to-rect")
        if let z = options.zoom, !(z > 0 && z.isFinite) {
            throw SegueError.invalidValue("--zoom must be > 0, not \(z.compact)")
        }
        if let s = options.shadow, !(0...1).contains(s) {
            throw SegueError.invalidValue("--shadow must be in [0, 1], not \(s.compact)")
        }
        if let c = options.center, !(c.x.isFinite && c.y.isFinite) {
            throw SegueError.invalidValue("--center must be two finite numbers")
        }
        if effect == .pageFlip, let d = options.perspective, d == 0 {
            throw SegueError.invalidValue("--perspective must be > 0 for page-flip (500 by default)")
        }
        if effect == .hero {
            if options.fromRect == nil { throw SegueError.invalidValue("hero needs --from-rect x,y,w,h") }
            if options.toRect == nil { throw SegueError.invalidValue("hero needs --to-rect x,y,w,h") }
        }
        if let h = options.height, !(h > 0 && h <= frame.height) {
            throw SegueError.invalidValue("--height must be in (0, \(frame.height.compact)] (the frame's height in points), not \(h.compact)")
        }
    }

    /// The eased value at progress `t`.
    public func eased(_ t: Double) -> Double { curve.value(at: t, duration: duration) }

    /// The frame at progress `t` (the fraction of the duration that has passed) on a frame of `frame` points.
    public func scene(at t: Double, frame: Size) -> Scene {
        let w = frame.width, h = frame.height
        let c = Point(w / 2, h / 2)
        let forward = direction == .forward
        let (first, second): (SnapshotID, SnapshotID) = forward ? (.from, .to) : (.to, .from)
        let leftHalf = Rect(0, 0, w / 2, h), rightHalf = Rect(w / 2, 0, w / 2, h)

        func full(_ id: SnapshotID) -> Layer { .full(id, frame: frame) }
        func scaled(_ layer: Layer, _ k: Double) -> Layer {
            var l = layer
            l.transform = .scale(k, k)
            return l
        }

        switch effect {
        case .fade:
            let e = eased(t)
            var top = full(second)
            top.opacity = forward ? e : 1 - e
            return Scene(size: frame, layers: [full(first), top])

        case .door:
            let e = eased(t)
            let zoom = options.zoom ?? 0.7
            let behind: SnapshotID = forward ? .to : .from
            let doors: SnapshotID = forward ? .from : .to
            let k = forward ? lerp(zoom, 1, e) : lerp(1, zoom, e)
            let open = forward ? e : 1 - e
            var left = Layer.piece(doors, leftHalf), right = Layer.piece(doors, rightHalf)
            left.transform = .translation(-open * w / 2, 0)
            right.transform = .translation(open * w / 2, 0)
            return Scene(size: frame, layers: [scaled(full(behind), k), left, right])

        case .circleSpread:
            let e = eased(t)
            let center = options.center ?? c
            let start = options.startRadius ?? 30
            let end = options.endRadius ?? farthestCorner(center, frame)
            var top = full(second)
            top.mask = .circle(center: center, radius: max(0, forward ? lerp(start, end, e) : lerp(end, start, e)))
            return Scene(size: frame, layers: [full(first), top])

        case .circleZoom:
            let e = eased(t)
            let center = options.center ?? c
            let radius = farthestCorner(center, frame)
            let k = forward ? lerp(0.01, 1, e) : lerp(1, 0.01, e)
            let disc = Layer(bounds: Size(2 * radius, 2 * radius), position: center, transform: .scale(k, k),
                             content: .color(options.color ?? Color(hex: "FFA500")!),
                             mask: .circle(center: Point(radius, radius), radius: radius))
            var screen = scaled(full(second), k)
            screen.position = forward ? lerp(center, c, e) : lerp(c, center, e)
            screen.opacity = forward ? e : 1 - e
            return Scene(size: frame, layers: [full(first), disc, screen])

        case .pageFlip:
            let e = eased(t)
            let k1 = min(max(e / 0.5, 0), 1), k2 = min(max((e - 0.5) / 0.5, 0), 1)
            let shadow = options.shadow ?? 0.1
            let spine = Point(w / 2, h / 2)
            // A half turning about the spine; `spineOnLeft` when its anchor is its left edge.
            func turning(_ id: SnapshotID, _ half: Rect, spineOnLeft: Bool, angle: Double, overlay: Double) -> Layer {
                let spineX = spineOnLeft ? 0.0 : 1.0
                return Layer(bounds: half.size, position: spine, anchor: Point(spineX, 0.5),
                             transform: .rotationY(angle), content: .snapshot(id, half),
                             overlay: GradientOverlay(start: Point(spineX, 0.5), end: Point(1 - spineX, 0.5),
                                                      startColor: Color(red: 0, green: 0, blue: 0, alpha: shadow),
                                                      endColor: .clear, opacity: overlay))
            }
            // forward turns the right half leftwards; back mirrors it.
            let sign = forward ? 1.0 : -1.0
            let turnedHalf = forward ? rightHalf : leftHalf
            let stillHalf = forward ? leftHalf : rightHalf
            var layers = [full(.from)]
            if e >= 0.5 {
                layers.append(turning(.to, stillHalf, spineOnLeft: !forward, angle: lerp(sign * .pi / 2, 0, k2), overlay: 1 - k2))
            }
            layers.append(.piece(.to, turnedHalf))
            layers.append(turning(.from, turnedHalf, spineOnLeft: forward, angle: lerp(0, -sign * .pi / 2, k1), overlay: 1))
            return Scene(size: frame, sublayerTransform: .perspective(options.perspective ?? 500), layers: layers)

        case .hero:
            let e = eased(t)
            let r0 = options.fromRect ?? Rect(0, 0, w, h), r1 = options.toRect ?? Rect(0, 0, w, h)
            let a0 = options.fromRadius ?? 0, a1 = options.toRadius ?? 0
            let (startRect, endRect, startRadius, endRadius) = forward ? (r0, r1, a0, a1) : (r1, r0, a1, a0)
            let rect = Rect.lerp(startRect, endRect, e)
            let size = Size(max(0, rect.width), max(0, rect.height))
            let flying = Layer(bounds: size, position: rect.center, content: .snapshot(.from, startRect),
                               mask: .roundedRect(Rect(origin: .zero, size: size), radius: max(0, lerp(startRadius, endRadius, e))))
            var top = full(.to)
            top.opacity = e
            return Scene(size: frame, layers: [full(.from), top, flying])

        case .spin:
            let split = 4.0 / 7.0
            let stageOne = Transition(effect, direction: direction, options: options, curve: curve, duration: duration * split)
            let stageTwo = Transition(effect, direction: direction, options: options, curve: curve, duration: duration * (1 - split))
            var layer: Layer
            if t < split {
                let e1 = stageOne.eased(t / split)
                layer = full(.from)
                layer.transform = .rotationY(lerp(0, (forward ? 1 : -1) * .pi / 2, e1))
                layer.opacity = 1 - e1
            } else {
                let e2 = stageTwo.eased((t - split) / (1 - split))
                layer = full(.to)
                layer.transform = .rotationY(lerp(3 * .pi / 2, 2 * .pi, e2))
            }
            return Scene(size: frame, sublayerTransform: perspective, layers: [layer])

        case .hinge:
            let e = eased(t)
            var swinging = full(second)
            swinging.anchor = Point(1, 0.5)
            swinging.position = Point(w, h / 2)
            swinging.transform = .rotationY(forward ? lerp(.pi / 2, 0, e) : lerp(0, .pi / 2, e))
            return Scene(size: frame, sublayerTransform: perspective, layers: [full(first), swinging])

        case .sheet:
            let e = eased(t)
            let sheetHeight = options.height ?? min(400, h)
            let behind = scaled(full(first), forward ? lerp(1, 0.88, e) : lerp(0.88, 1, e))
            let top = forward ? lerp(h, h - sheetHeight, e) : lerp(h - sheetHeight, h, e)
            let sheet = Layer(bounds: Size(w, sheetHeight), position: Point(w / 2, top + sheetHeight / 2),
                              content: .snapshot(second, Rect(0, h - sheetHeight, w, sheetHeight)))
            return Scene(size: frame, layers: [behind, sheet])
        }
    }

    /// The sublayer transform of the effects whose `--perspective` defaults to none.
    private var perspective: Transform3D {
        if let d = options.perspective, d > 0 { return .perspective(d) }
        return .identity
    }
}

/// `R(c)`: the distance from `c` to the farthest corner of the frame.
public func farthestCorner(_ c: Point, _ frame: Size) -> Double {
    let dx = max(c.x, frame.width - c.x), dy = max(c.y, frame.height - c.y)
    return (dx * dx + dy * dy).squareRoot()
}
