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

    /// Checks the options against the effect's entries in the option table and a frame of `frame` points;
    /// throws a usage error naming the first problem.
    public func validate(frame: Size) throws {
        let takes = EffectOption.options(of: effect)
        if let stray = options.setOptions.first(where: { $0.use(by: effect) == nil }) {
            let list = takes.isEmpty ? "takes no options" : "takes " + takes.map { "--" + $0.name }.joined(separator: ", ")
            throw SegueError.invalidValue("--\(stray.name) does not apply to \(effect.rawValue), which \(list)")
        }
        guard duration.isFinite, duration > 0 else {
            throw SegueError.invalidValue("--duration must be a positive number of seconds, not \(duration.compact)")
        }
        for option in takes {
            let use = option.use(by: effect)!
            guard let value = options[option] else {
                if use.defaultValue == .required {
                    throw SegueError.invalidValue("\(effect.rawValue) needs --\(option.name) \(option.valueName)")
                }
                continue
            }
            try Self.check(value, of: option, use: use, frame: frame)
        }
    }

    /// A set value against its kind and range.
    private static func check(_ value: OptionValue, of option: EffectOption, use: EffectOption.Use, frame: Size) throws {
        let name = "--\(option.name)"
        guard value.kind == option.kind else { throw SegueError.invalidValue("\(name) takes \(option.kind.form), not \(value)") }
        switch value {
        case let .number(x):
            guard x.isFinite else { throw SegueError.invalidValue("\(name) must be a finite number, not \(x.compact)") }
            switch use.range {
            case .positive where !(x > 0):
                // A shared option (perspective) whose range differs by effect says which effect needs more.
                let shared = option.uses.contains { $0.range != use.range }
                let which = shared ? " for \(use.effect.rawValue) (\(option.defaultText(for: use.effect)) by default)" : ""
                throw SegueError.invalidValue("\(name) must be > 0\(which), not \(x.compact)")
            case .nonNegative where !(x >= 0):
                throw SegueError.invalidValue("\(name) must be >= 0, not \(x.compact)")
            case .unit where !(0...1).contains(x):
                throw SegueError.invalidValue("\(name) must be in [0, 1], not \(x.compact)")
            case .upToFrameHeight where !(x > 0 && x <= frame.height):
                throw SegueError.invalidValue("\(name) must be in (0, \(frame.height.compact)] (the frame's height in points), not \(x.compact)")
            default:
                break
            }
        case let .point(p):
            guard p.x.isFinite, p.y.isFinite else { throw SegueError.invalidValue("\(name) must be two finite numbers") }
        case let .rect(r):
            let hasArea = r.width > 0 && r.height > 0
            guard [r.x, r.y, r.width, r.height].allSatisfy(\.isFinite), hasArea || use.range != .area else {
                throw SegueError.invalidValue("\(name) \(r) has no area (width and height must be > 0)")
            }
        case .color:
            break
        }
    }

    /// The eased value at progress `t`.
    public func eased(_ t: Double) -> Double { curve.value(at: t, duration: duration) }

    /// The frame at progress `t` (the fraction of the duration that has passed) on a frame of `frame` points.
    public func scene(at t: Double, frame: Size) -> Scene {
        let w = frame.width, h = frame.height
        let c = Point(w / 2, h / 2)
        let o = options.resolved(for: effect, frame: frame)
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
            let zoom = o.number(.zoom)!
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
            let center = o.point(.center) ?? c
            let start = o.number(.startRadius)!
            let end = o.number(.endRadius) ?? farthestCorner(center, frame)
            var top = full(second)
            top.mask = .circle(center: center, radius: max(0, forward ? lerp(start, end, e) : lerp(end, start, e)))
            return Scene(size: frame, layers: [full(first), top])

        case .circleZoom:
            let e = eased(t)
            let center = o.point(.center) ?? c
            let radius = farthestCorner(center, frame)
            let k = forward ? lerp(0.01, 1, e) : lerp(1, 0.01, e)
            let disc = Layer(bounds: Size(2 * radius, 2 * radius), position: center, transform: .scale(k, k),
                             content: .color(o.color(.color)!),
                             mask: .circle(center: Point(radius, radius), radius: radius))
            var screen = scaled(full(second), k)
            screen.position = forward ? lerp(center, c, e) : lerp(c, center, e)
            screen.opacity = forward ? e : 1 - e
            return Scene(size: frame, layers: [full(first), disc, screen])

        case .pageFlip:
            let e = eased(t)
            let k1 = min(max(e / 0.5, 0), 1), k2 = min(max((e - 0.5) / 0.5, 0), 1)
            let shadow = o.number(.shadow)!
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
            return Scene(size: frame, sublayerTransform: .perspective(o.number(.perspective)!), layers: layers)

        case .hero:
            let e = eased(t)
            let r0 = o.rect(.fromRect) ?? Rect(0, 0, w, h), r1 = o.rect(.toRect) ?? Rect(0, 0, w, h)
            let a0 = o.number(.fromRadius)!, a1 = o.number(.toRadius)!
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
            return Scene(size: frame, sublayerTransform: Self.perspective(o), layers: [layer])

        case .hinge:
            let e = eased(t)
            var swinging = full(second)
            swinging.anchor = Point(1, 0.5)
            swinging.position = Point(w, h / 2)
            swinging.transform = .rotationY(forward ? lerp(.pi / 2, 0, e) : lerp(0, .pi / 2, e))
            return Scene(size: frame, sublayerTransform: Self.perspective(o), layers: [full(first), swinging])

        case .sheet:
            let e = eased(t)
            let sheetHeight = o.number(.height)!
            let behind = scaled(full(first), forward ? lerp(1, 0.88, e) : lerp(0.88, 1, e))
            let top = forward ? lerp(h, h - sheetHeight, e) : lerp(h - sheetHeight, h, e)
            let sheet = Layer(bounds: Size(w, sheetHeight), position: Point(w / 2, top + sheetHeight / 2),
                              content: .snapshot(second, Rect(0, h - sheetHeight, w, sheetHeight)))
            return Scene(size: frame, layers: [behind, sheet])
        }
    }

    /// The sublayer transform of the effects whose `--perspective` defaults to none.
    private static func perspective(_ options: EffectOptions) -> Transform3D {
        if let d = options.number(.perspective), d > 0 { return .perspective(d) }
        return .identity
    }
}

/// `R(c)`: the distance from `c` to the farthest corner of the frame.
public func farthestCorner(_ c: Point, _ frame: Size) -> Double {
    let dx = max(c.x, frame.width - c.x), dy = max(c.y, frame.height - c.y)
    return (dx * dx + dy * dy).squareRoot()
}
