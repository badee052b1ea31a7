import Foundation

/// An effect: a file of layers over progress (`docs/effects.md`, "Effect files"), read and checked once.
/// The built-in ones are `EffectCatalog.builtIn`; `Effect(json:file:)` reads a user's file the same way.
/// Two effects are equal when their names and their files' bytes are.
public struct Effect: Sendable, Hashable, CustomStringConvertible {
    let definition: EffectDefinition

    /// Reads an effect file; throws every problem at its JSON path. An option may not take a name in
    /// `reservedOptionNames`: a program that reads options of its own beside the effect's (a command line's
    /// flags) keeps those names, so that neither can hide the other.
    public init(json data: Data, file: String, reservedOptionNames: Set<String> = []) throws(EffectFileError) {
        definition = try EffectDefinition.read(data, file: file, reservedOptionNames: reservedOptionNames)
    }

    /// The largest effect file read (1 MiB: far more than any real one).
    public static let maxFileBytes = EffectDefinition.maxBytes

    public var name: String { definition.name }
    public var summary: String { definition.summary }
    /// Where the effect's numbers come from.
    public var source: String { definition.source }
    /// The options the file declares, in its order.
    public var options: [EffectOption] { definition.options }
    public var description: String { name }

    /// The option `name` declares, nil when it takes none of that name.
    public func option(_ name: String) -> EffectOption? { options.first { $0.name == name } }

    public func defaultDuration(_ direction: Direction) -> Double { definition.timing[direction]!.duration }
    public func defaultCurve(_ direction: Direction) -> TimingCurve { definition.timing[direction]!.curve }

    /// Name and digest of the file's bytes: what a resumed job compares.
    public var identity: String { "\(name)#\(String(definition.digest, radix: 16))" }

    public static func == (a: Effect, b: Effect) -> Bool {
        a.definition === b.definition || (a.name == b.name && a.definition.digest == b.definition.digest)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(definition.digest)
    }
}

/// `forward` is push/present, `back` is pop/dismiss.
public enum Direction: String, Sendable, CaseIterable, Equatable, Hashable {
    case forward
    case back
}

// MARK: - Evaluating a frame

extension Effect {
    /// The scene at progress `t` of a transition with these settings on a frame of `frame` points drawn at
    /// `scale` pixels per point (for `snap`). Options must have passed `Transition.validate`.
    func scene(at t: Double, direction: Direction, options: EffectOptions, curve: TimingCurve, duration: Double,
               frame: Size, scale: Double) -> Scene {
        let d = definition, base = d.slots
        let reverse = direction == .back && d.back == nil
        let program = direction == .forward || reverse ? d.forward : d.back!
        var slots = Slots(count: program.slotCount, frame: frame, scale: scale, duration: duration)

        let e = curve.value(at: t, duration: duration)
        slots[base.t] = [reverse ? 1 - t : t]
        slots[base.e] = [reverse ? 1 - e : e]
        slots[base.forward] = [direction == .forward || reverse ? 1 : 0]
        slots[base.W] = [frame.width]
        slots[base.H] = [frame.height]
        slots[base.frame] = [0, 0, frame.width, frame.height]
        slots[base.i] = [0]
        slots[base.n] = [1]
        if !d.stages.isEmpty {
            // Stage k covers [start_k, end_k) of the progress; each has its own eased value, 0 before it and
            // 1 after it; `stage` is the one that holds t (1-based; the last holds t = 1).
            var start = 0.0
            slots[base.stage] = [1]
            for (k, share) in d.stages.enumerated() {
                let end = k == d.stages.count - 1 ? 1 : start + share
                let local = min(max((t - start) / (end - start), 0), 1)
                slots[base.stageValues[k]] = [curve.value(at: local, duration: duration * (end - start))]
                if t >= start { slots[base.stage] = [Double(k + 1)] }
                start = end
            }
        }
        let lists = resolvedOptions(options, frame: frame, into: &slots)
        for (slot, value) in program.lets { slots[slot] = value.evaluate(slots) }

        var sublayer = Transform3D.identity
        if let p = program.perspective, case let distance = p.evaluate(slots)[0], distance > 0 {
            sublayer = .perspective(distance)
        }
        var layers: [Layer] = []
        for layer in program.layers {
            guard let over = layer.repeatOver else {
                if let l = Self.layer(layer, slots, swap: reverse) { layers.append(l) }
                continue
            }
            // One layer per value of the repeated option; every repeatable option takes its k-th value (or
            // its one value), and the named values are worked out again with them.
            let count = lists[over]?.count ?? 1
            var each = slots
            each[base.n] = [Double(count)]
            for k in 0..<count {
                each[base.i] = [Double(k)]
                for (name, values) in lists { each[base.options[name]!] = values[values.count == 1 ? 0 : k] }
                for (slot, value) in program.lets { each[slot] = value.evaluate(each) }
                if let l = Self.layer(layer, each, swap: reverse) { layers.append(l) }
            }
        }
        return Scene(size: frame, sublayerTransform: sublayer, layers: layers)
    }

    /// Fills the options' slots: a value set, else the default (a height lowered to the frame's), else the
    /// computed default, in the file's order. Returns each repeatable option's values.
    private func resolvedOptions(_ options: EffectOptions, frame: Size, into slots: inout Slots) -> [String: [Vector]] {
        let base = definition.slots
        var lists: [String: [Vector]] = [:]
        for option in definition.options {
            let slot = base.options[option.name]!
            var value = options[option.name]
            if value == nil, case let .value(v) = option.defaultValue {
                value = v
                if option.range == .upToFrameHeight, case let .number(x) = v { value = .number(min(x, frame.height)) }
            }
            if let value {
                slots[slot] = value.vector
                if option.repeatable { lists[option.name] = value.items.map(\.vector) }
                if case let .choice(c) = value {
                    for constant in base.constants[option.name] ?? [] { slots[constant.slot] = [constant.choiceValues[c] ?? 0] }
                }
            } else if case let .computed(expression, _) = option.defaultValue {
                slots[slot] = expression.evaluate(slots)
            } else {
                slots[slot] = Array(repeating: 0, count: option.kind.arity)
            }
        }
        return lists
    }

    /// The layer a layer program gives with these values, nil when it is not visible.
    private static func layer(_ p: EffectDefinition.LayerProgram, _ s: Slots, swap: Bool) -> Layer? {
        if let visible = p.visible, visible.evaluate(s)[0] == 0 { return nil }
        let frame = s.frame
        func point(_ v: Vector) -> Point { Point(v[0], v[1]) }
        func rect(_ v: Vector) -> Rect { Rect(v[0], v[1], v[2], v[3]) }
        func colour(_ v: Vector) -> Color { Color(red: v[0], green: v[1], blue: v[2], alpha: v[3]) }

        var content: LayerContent
        var placed: Rect?
        var overlay: GradientOverlay?
        switch p.content {
        case let .snapshot(id, rectValue):
            let shown = swap ? (id == .from ? SnapshotID.to : .from) : id
            let r = rectValue.map { rect($0.evaluate(s)) } ?? Rect(0, 0, frame.width, frame.height)
            content = .snapshot(shown, r)
            placed = r
        case let .color(c):
            content = .color(colour(c.evaluate(s)))
        case let .gradient(start, end, from, to):
            // A gradient is a clear layer whose overlay is the gradient at full opacity.
            content = .color(.clear)
            overlay = GradientOverlay(start: point(start.evaluate(s)), end: point(end.evaluate(s)),
                                      startColor: colour(from.evaluate(s)), endColor: colour(to.evaluate(s)), opacity: 1)
        }
        let anchor = p.anchor.map { point($0.evaluate(s)) } ?? Point(0.5, 0.5)
        let box = p.frame.map { rect($0.evaluate(s)) } ?? placed ?? Rect(0, 0, frame.width, frame.height)
        let bounds = p.bounds.map { v -> Size in let b = v.evaluate(s); return Size(max(0, b[0]), max(0, b[1])) }
            ?? Size(max(0, box.width), max(0, box.height))
        let position = p.position.map { point($0.evaluate(s)) }
            ?? Point(box.x + anchor.x * box.width, box.y + anchor.y * box.height)

        var transform = Transform3D.identity
        for (k, op) in p.transform.enumerated() {
            let m: Transform3D
            switch op {
            case let .translate(v):
                let x = v.evaluate(s)
                m = .translation(x[0], x[1], x.count > 2 ? x[2] : 0)
            case let .scale(v):
                let x = v.evaluate(s)
                m = x.count == 1 ? .scale(x[0], x[0]) : .scale(x[0], x[1], x.count > 2 ? x[2] : 1)
            case let .rotateX(v): m = .rotationX(v.evaluate(s)[0])
            case let .rotateY(v): m = .rotationY(v.evaluate(s)[0])
            case let .rotateZ(v): m = .rotationZ(v.evaluate(s)[0])
            }
            transform = k == 0 ? m : transform * m
        }

        var mask: Mask?
        switch p.mask {
        case nil: break
        case let .circle(center, radius)?:
            mask = .circle(center: point(center.evaluate(s)), radius: max(0, radius.evaluate(s)[0]))
        case let .rect(r, radius, continuous)?:
            let corner = max(0, radius?.evaluate(s)[0] ?? 0)
            mask = continuous ? .continuousRect(rect(r.evaluate(s)), radius: corner) : .roundedRect(rect(r.evaluate(s)), radius: corner)
        case let .sector(center, start, sweep)?:
            mask = .sector(center: point(center.evaluate(s)), startAngle: start.evaluate(s)[0], sweep: sweep.evaluate(s)[0])
        }
        if let o = p.overlay {
            overlay = GradientOverlay(start: point(o.start.evaluate(s)), end: point(o.end.evaluate(s)),
                                      startColor: colour(o.from.evaluate(s)), endColor: colour(o.to.evaluate(s)),
                                      opacity: o.opacity?.evaluate(s)[0] ?? 1)
        }
        var layer = Layer(bounds: bounds, position: position, anchor: anchor, transform: transform,
                          opacity: p.opacity?.evaluate(s)[0] ?? 1, content: content, mask: mask, overlay: overlay)
        layer.isDoubleSided = p.doubleSided
        if let shadow = p.shadow {
            // Core Animation's defaults for what the file leaves out: black, radius 3, offset (0, -3).
            var cast = Shadow(color: shadow.color.map { colour($0.evaluate(s)) } ?? .black,
                              opacity: shadow.opacity?.evaluate(s)[0] ?? 0, radius: max(0, shadow.radius?.evaluate(s)[0] ?? 3),
                              offset: shadow.offset.map { point($0.evaluate(s)) } ?? Point(0, -3))
            switch shadow.path {
            case nil: break
            case let .rect(r, radius)?: cast.path = ShadowPath(rect: rect(r.evaluate(s)), cornerRadius: max(0, radius?.evaluate(s)[0] ?? 0))
            case let .circle(center, radius)?: cast.path = .circle(center: point(center.evaluate(s)), radius: max(0, radius.evaluate(s)[0]))
            }
            layer.shadow = cast
        }
        return layer
    }
}
