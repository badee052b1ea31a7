import Foundation

/// Every problem found in a storyboard, reported together before anything renders.
public struct StoryboardError: Error, Sendable, Equatable, CustomStringConvertible {
    public var problems: [JSONProblem]

    public init(_ problems: [JSONProblem]) { self.problems = problems }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

extension Storyboard {
    /// The most steps a timeline may have (`Limits.maxSteps`).
    public static let maxSteps = Limits.maxSteps

    /// Reads a storyboard from JSON, collecting every problem with its JSON path instead of stopping at the
    /// first. Steps with problems are left out of the returned storyboard. `loadTrack` returns the text of an
    /// interactive step's track file (its path as written in the file).
    ///
    /// Checks here need no image; `problems(frame:)` checks the transitions against the frame once the
    /// screens' size is known.
    /// `loadShader` reads the custom transition of a `"shader:NAME|FILE"` step (a file relative to the
    /// storyboard, or a shipped transition's name); without it such steps are problems. `loadImage` decodes
    /// the image file a `sampler2D` parameter names in `options.params` (its path as written in the file).
    /// `loadEffect` reads the effect file of an `"effect:FILE"` step (its path as written in the file).
    public static func parse(json data: Data, loadTrack: (String) throws -> String,
                             loadShader: (String) throws -> ShaderTransition = { _ in
                                 throw SegueError.failed("custom shaders are not available here")
                             },
                             loadImage: (String) throws -> Pixmap = { _ in
                                 throw SegueError.failed("images are not read here")
                             },
                             loadEffect: (String) throws -> Effect = { _ in
                                 throw SegueError.failed("effect files are not read here")
                             }) -> Parsed {
        withoutActuallyEscaping(loadTrack) { load in withoutActuallyEscaping(loadShader) { shader in
            withoutActuallyEscaping(loadImage) { image in withoutActuallyEscaping(loadEffect) { effect in
                var p = Parser(loadTrack: load, loadShader: shader, loadImage: image, loadEffect: effect)
                let board = p.storyboard(data)
                return Parsed(storyboard: board, problems: JSONProblem.locate(p.problems, in: data), stepPaths: p.stepPaths, files: p.named.files)
            } }
        } }
    }

    /// What `parse` found: the storyboard (without the steps that have problems), the problems, the JSON
    /// path of each step kept, and the files the storyboard names.
    public struct Parsed: Sendable {
        public var storyboard: Storyboard
        public var problems: [JSONProblem]
        public var stepPaths: [String]
        /// Every file the storyboard names for its job to read, once each, in the order the parser meets them:
        /// its screens (not `sample:` ones), interactive steps' tracks, effect files (`effect:FILE`), custom
        /// shaders (`shader:FILE`) and the images their `sampler2D` parameters name. Steps with problems name
        /// theirs too, up to the problem: a shader's images are known only when `loadShader` read it.
        public var files: [NamedFile] = []
    }

    /// A file a storyboard names, as it writes it: relative to the storyboard unless absolute.
    public struct NamedFile: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable {
            /// A screen's image or video clip.
            case screen
            /// An interactive step's track (CSV).
            case track
            /// An effect file (`"transition": "effect:FILE"`).
            case effect
            /// A custom shader (`"transition": "shader:FILE"`); its job reads a shipped transition of that name
            /// when no such file is there.
            case shader
            /// The image a custom shader's `sampler2D` parameter names.
            case image
        }

        public var kind: Kind
        public var path: String

        public init(_ kind: Kind, _ path: String) {
            self.kind = kind
            self.path = path
        }
    }

    /// Problems of the transitions on a frame of `frame` points (`Transition.validate(frame:)` for each step),
    /// each at its step's path (an option's, when the error names an option the step sets).
    public func problems(frame: Size, stepPaths: [String]? = nil) -> [JSONProblem] {
        var problems: [JSONProblem] = []
        for (i, step) in timeline.enumerated() {
            let transition: Transition
            switch step {
            case .hold, .shader: continue
            case let .transition(t, _, _), let .interactive(t, _, _, _): transition = t
            }
            let path = stepPaths?[i] ?? "$.timeline[\(i)]"
            do {
                try transition.validate(frame: frame)
            } catch {
                let message = "\(error)"
                var option = ""
                if let error = error as? SegueError, case let .invalidOption(_, name, _) = error.kind { option = name }
                if transition.options.setNames.contains(option) {
                    problems.append(JSONProblem("\(path).options.\(option)", message))
                } else if option == "duration" {
                    problems.append(JSONProblem("\(path).duration", message))
                } else {
                    problems.append(JSONProblem(path, message))
                }
            }
        }
        return problems
    }
}

/// The reader behind `Storyboard.parse`: each accessor records a problem and returns `nil` when a value is
/// missing or of the wrong kind.
private struct Parser: JSONProblemReader {
    let loadTrack: (String) throws -> String
    let loadShader: (String) throws -> ShaderTransition
    let loadImage: (String) throws -> Pixmap
    let loadEffect: (String) throws -> Effect
    var problems: [JSONProblem] = []
    /// The JSON path of each kept step (steps with problems are dropped, so indices shift).
    var stepPaths: [String] = []
    /// The files named so far (`Storyboard.Parsed.files`): a reference, so that the loaders record theirs.
    let named: NamedFiles

    /// The files a storyboard names, each recorded once as the parser meets it.
    final class NamedFiles {
        private(set) var files: [Storyboard.NamedFile] = []
        private var seen: Set<Storyboard.NamedFile> = []

        func add(_ kind: Storyboard.NamedFile.Kind, _ path: String) {
            let file = Storyboard.NamedFile(kind, path)
            if seen.insert(file).inserted { files.append(file) }
        }
    }

    init(loadTrack: @escaping (String) throws -> String, loadShader: @escaping (String) throws -> ShaderTransition,
         loadImage: @escaping (String) throws -> Pixmap, loadEffect: @escaping (String) throws -> Effect) {
        // Each file is named before it is read, so one that cannot be read is named too.
        let named = NamedFiles()
        self.named = named
        self.loadTrack = { named.add(.track, $0); return try loadTrack($0) }
        self.loadShader = { named.add(.shader, $0); return try loadShader($0) }
        self.loadImage = { named.add(.image, $0); return try loadImage($0) }
        self.loadEffect = { named.add(.effect, $0); return try loadEffect($0) }
    }

    mutating func storyboard(_ data: Data) -> Storyboard {
        let empty = Storyboard(screens: [:], timeline: [])
        guard let object = rootObject(data, expected: "an object with \"screens\" and \"timeline\"") else { return empty }
        unknownKeys(object, "$", allowed: ["fps", "scale", "size", "background", "screens", "timeline", "output", "motionBlur", "$schema", "comment"])

        var board = empty
        if let v = object["motionBlur"] { board.motionBlur = motionBlur(v, "$.motionBlur") }
        if let v = object["fps"] {
            if let fps = number(v, "$.fps"), check(Limits.fps.contains(fps), "$.fps", "expected a number of frames per second in \(Limits.fpsText), not \(fps.compact)") {
                board.fps = fps
            }
        }
        if let v = object["scale"] {
            if let s = number(v, "$.scale"), check(s > 0 && s <= Limits.maxScale, "$.scale", "expected pixels per point in \(Limits.scaleText), not \(s.compact)") {
                board.scale = s
            }
        }
        if let v = object["size"] {
            if let a = numbers(v, "$.size", count: 2, form: "[width, height] in pixels") {
                if a.allSatisfy({ $0 == $0.rounded() && $0 >= 1 && $0 <= Double(Limits.maxSide) }) {
                    board.size = (Int(a[0]), Int(a[1]))
                } else {
                    problem("$.size", "each side must be a whole number of pixels in \(Limits.sideText)")
                }
            }
        }
        if let v = object["background"] {
            if let s = v as? String, s.lowercased() == "transparent" {
                board.background = .clear
            } else if let c = color(v, "$.background") {
                board.background = c
            }
        }

        var screenNames = Set<String>()
        if let v = object["screens"] {
            if let screens = v as? [String: Any] {
                if screens.isEmpty { problem("$.screens", "expected at least one screen") }
                for name in screens.keys.sorted() {
                    let path = "$.screens" + key(name)
                    screenNames.insert(name)
                    if let s = screens[name] as? String, !s.isEmpty {
                        board.screens[name] = s
                        if !s.hasPrefix("sample:") { named.add(.screen, s) }
                    } else if let clip = screens[name] as? [String: Any] {
                        // A clip with how it plays: {"path": "a.mp4", "loop": true, "start": 1.5}.
                        unknownKeys(clip, path, allowed: ["path", "loop", "start"])
                        if let s = clip["path"] as? String, !s.isEmpty {
                            board.screens[name] = s
                            if !s.hasPrefix("sample:") { named.add(.screen, s) }
                        } else {
                            problem(path + ".path", "expected a video or image path, relative to the storyboard")
                        }
                        var playback = ClipPlayback()
                        if let v = clip["loop"] {
                            if let b = v as? Bool {
                                playback.loop = b
                            } else {
                                problem(path + ".loop", "expected true or false")
                            }
                        }
                        if let v = clip["start"] {
                            if let d = v as? Double, d.isFinite, d >= 0 {
                                playback.start = d
                            } else {
                                problem(path + ".start", "expected seconds into the clip, at least 0")
                            }
                        }
                        if playback != ClipPlayback() { board.playback[name] = playback }
                    } else {
                        problem(path, "expected an image path (PNG, JPEG or HEIC) or a video clip, relative to the storyboard, sample:home / sample:detail, or {\"path\": ..., \"loop\": true}")
                    }
                }
            } else {
                problem("$.screens", "expected an object of screen names to image or clip paths")
            }
        } else {
            problem("$", "missing \"screens\": an object of screen names to image paths")
        }

        if let v = object["timeline"] {
            if let steps = v as? [Any] {
                if steps.isEmpty { problem("$.timeline", "expected at least one step") }
                if steps.count > Storyboard.maxSteps {
                    problem("$.timeline", "\(steps.count) steps, more than the limit of \(Storyboard.maxSteps)")
                }
                for (i, raw) in steps.prefix(Storyboard.maxSteps).enumerated() {
                    let path = "$.timeline[\(i)]"
                    if let step = step(raw, path, screens: screenNames) {
                        board.timeline.append(step)
                        stepPaths.append(path)
                        if let v = (raw as? [String: Any])?["motionBlur"], let blur = motionBlur(v, "\(path).motionBlur") {
                            board.stepMotionBlur[board.timeline.count - 1] = blur
                        }
                    }
                }
            } else {
                problem("$.timeline", "expected an array of steps")
            }
        } else {
            problem("$", "missing \"timeline\": an array of steps")
        }

        if let v = object["output"] {
            if let output = v as? [String: Any] {
                unknownKeys(output, "$.output", allowed: ["frames", "video"])
                if let f = output["frames"] { board.output.frames = string(f, "$.output.frames") }
                if let f = output["video"] {
                    if let video = string(f, "$.output.video") {
                        if VideoContainer(path: video) != nil {
                            board.output.video = video
                        } else {
                            problem("$.output.video", "expected a \(VideoContainer.listed) file, not '\(video)'")
                        }
                    }
                }
            } else {
                problem("$.output", "expected an object with \"frames\" and/or \"video\"")
            }
        }
        // The transitions' own checks need the frame size; here only what needs no image.
        return board
    }

    mutating func step(_ raw: Any, _ path: String, screens: Set<String>) -> Storyboard.Step? {
        guard let object = raw as? [String: Any] else {
            problem(path, "expected an object: {\"hold\": ...}, {\"transition\": ...} or {\"interactive\": ...}")
            return nil
        }
        let kinds = ["hold", "transition", "interactive"].filter { object[$0] != nil }
        guard kinds.count == 1 else {
            problem(path, kinds.isEmpty
                ? "expected one of \"hold\", \"transition\" or \"interactive\""
                : "a step is one of \"hold\", \"transition\" or \"interactive\", not \(kinds.map { "\"\($0)\"" }.joined(separator: " and "))")
            return nil
        }
        let before = problems.count
        func screen(_ key: String) -> String? {
            guard let v = object[key] else {
                problem(path, "missing \"\(key)\": a screen name")
                return nil
            }
            guard let name = string(v, "\(path).\(key)") else { return nil }
            if !screens.isEmpty && !screens.contains(name) {
                problem("\(path).\(key)", "unknown screen '\(name)' (screens: \(screens.sorted().joined(separator: ", ")))")
                return nil
            }
            return name
        }

        if kinds[0] == "hold" {
            unknownKeys(object, path, allowed: ["hold", "duration", "motionBlur"])
            let name = screen("hold")
            var duration: Double?
            if let v = object["duration"] {
                if let d = number(v, "\(path).duration"), check(d > 0 && d <= Limits.maxSeconds, "\(path).duration", "expected seconds in \(Limits.secondsText), not \(d.compact)") {
                    duration = d
                }
            } else {
                problem(path, "missing \"duration\": seconds the screen is held")
            }
            guard problems.count == before, let name, let duration else { return nil }
            return .hold(screen: name, duration: duration)
        }

        let interactive = kinds[0] == "interactive"
        var allowed = [kinds[0], "from", "to", "duration", "curve", "direction", "options", "motionBlur"]
        if interactive { allowed += ["track", "threshold", "completion", "damping", "response"] }
        unknownKeys(object, path, allowed: Set(allowed))

        if !interactive, let name = object[kinds[0]] as? String, name.hasPrefix("shader:") {
            let from = screen("from"), to = screen("to")
            return shaderStep(object, path, spec: String(name.dropFirst("shader:".count)), from: from, to: to, before: before)
        }
        var effect: Effect?
        if let name = string(object[kinds[0]]!, "\(path).\(kinds[0])") {
            if name.hasPrefix("effect:") {
                let file = String(name.dropFirst("effect:".count))
                do { effect = try loadEffect(file) } catch { problem("\(path).\(kinds[0])", "'\(file)': \(error)") }
            } else {
                effect = EffectCatalog.named(name)
                if effect == nil {
                    problem("\(path).\(kinds[0])", "unknown effect '\(name)' (effects: \(EffectCatalog.names); a file is \"effect:FILE.json\", a shader \"shader:FILE.glsl\")")
                }
            }
        }
        let from = screen("from"), to = screen("to")
        let (duration, curve, direction) = timing(object, path)
        var options = EffectOptions()
        if let v = object["options"] {
            options = effectOptions(v, "\(path).options", effect: effect)
        }
        guard let effect else { return nil }
        let transition = Transition(effect, direction: direction, options: options, curve: curve, duration: duration)

        if interactive {
            var threshold = InteractiveTrack.defaultThreshold
            if let v = object["threshold"], let th = number(v, "\(path).threshold") {
                if check((0...1).contains(th), "\(path).threshold", "expected a progress in [0, 1], not \(th.compact)") { threshold = th }
            }
            let completion = self.completion(object, path)
            var track: InteractiveTrack?
            if let v = object["track"] {
                if let file = string(v, "\(path).track"), let completion {
                    do {
                        let samples = try InteractiveTrack.parseCSV(try loadTrack(file))
                        track = try InteractiveTrack(samples: samples, threshold: threshold, duration: transition.duration,
                                                     completion: completion)
                    } catch {
                        problem("\(path).track", "'\(file)': \(error)")
                    }
                }
            } else {
                problem(path, "missing \"track\": a CSV file of time,progress samples")
            }
            guard problems.count == before, let from, let to, let track else { return nil }
            return .interactive(transition, from: from, to: to, track: track)
        }
        guard problems.count == before, let from, let to else { return nil }
        return .transition(transition, from: from, to: to)
    }

    /// An interactive step's `completion` (`spring` or `ease-in-out`; the spring when absent) with the spring's
    /// `damping` and `response`, checked by `InteractiveTrack.Completion`; nil after a problem.
    mutating func completion(_ object: [String: Any], _ path: String) -> InteractiveTrack.Completion? {
        let before = problems.count
        let name = object["completion"].flatMap { string($0, "\(path).completion") }
        let damping = object["damping"].flatMap { number($0, "\(path).damping") }
        let response = object["response"].flatMap { number($0, "\(path).response") }
        guard problems.count == before else { return nil }
        do {
            return try InteractiveTrack.Completion(named: name, damping: damping, response: response)
        } catch let error as SegueError {
            guard case let .invalidOption(_, option, _) = error.kind else { problem(path, error.message); return nil }
            problem("\(path).\(option)", error.message)
        } catch {
            problem(path, "\(error)")
        }
        return nil
    }

    /// A step's `duration`, `curve` and `direction`, each checked (nil or forward when absent).
    mutating func timing(_ object: [String: Any], _ path: String) -> (Double?, TimingCurve?, Direction) {
        var duration: Double?
        if let v = object["duration"], let d = number(v, "\(path).duration") {
            if check(d > 0 && d <= Limits.maxSeconds, "\(path).duration", "expected seconds in \(Limits.secondsText), not \(d.compact)") { duration = d }
        }
        var curve: TimingCurve?
        if let v = object["curve"], let text = string(v, "\(path).curve") {
            do { curve = try TimingCurve(parsing: text) } catch { problem("\(path).curve", "\(error)") }
        }
        var direction = Direction.forward
        if let v = object["direction"], let text = string(v, "\(path).direction") {
            if let d = Direction(rawValue: text) { direction = d } else { problem("\(path).direction", "expected \"forward\" or \"back\", not '\(text)'") }
        }
        return (duration, curve, direction)
    }

    /// A `"shader:NAME|FILE"` step: the transition read through `loadShader`, its `options.params` checked
    /// against the parameters the file declares.
    mutating func shaderStep(_ object: [String: Any], _ path: String, spec: String,
                             from: String?, to: String?, before: Int) -> Storyboard.Step? {
        var transition: ShaderTransition?
        do { transition = try loadShader(spec) } catch { problem("\(path).transition", "\(error)") }
        let (duration, curve, direction) = timing(object, path)
        var values: [String: ShaderValue] = [:]
        var pairs: [(name: String, value: String)] = []
        let beforeOptions = problems.count
        var hasParams = false
        if let options = object["options"] {
            if let options = options as? [String: Any] {
                unknownKeys(options, "\(path).options", allowed: ["params"])
                if let params = options["params"] {
                    if let params = params as? [String: Any], transition != nil {
                        hasParams = true
                        // JSON values as --param spells them: 0.5, 3, true, [1, 2] -> "1,2"; an image's path.
                        func text(_ v: Any) -> String? {
                            if let b = v as? Bool { return b ? "true" : "false" }
                            if let n = JSONNumber.value(v) { return n.compact }
                            if let a = v as? [Any] {
                                let parts = a.compactMap(JSONNumber.value).map(\.compact)
                                return parts.count == a.count ? parts.joined(separator: ",") : nil
                            }
                            return v as? String
                        }
                        for name in params.keys.sorted() {
                            guard let value = text(params[name]!) else {
                                problem("\(path).options.params\(key(name))", "expected a number, a bool, an array of numbers or an image file")
                                continue
                            }
                            pairs.append((name, value))
                        }
                    } else if !(params is [String: Any]) {
                        problem("\(path).options.params", "expected an object of the shader's parameters")
                    }
                }
            } else {
                problem("\(path).options", "expected an object: {\"params\": {...}}")
            }
        }
        // Checked even with no params: a sampler2D parameter needs its image.
        if let transition, problems.count == beforeOptions {
            do {
                if hasParams {
                    values = try transition.values(pairs, from: .storyboard, loadImage: loadImage)
                } else {
                    try transition.checkImages([:], from: .storyboard)
                }
            } catch {
                problem("\(path).options.params", "\(error)")
            }
        }
        guard problems.count == before, let transition, let from, let to else { return nil }
        return .shader(ShaderStep(transition: transition, values: values, duration: duration, curve: curve,
                                  direction: direction), from: from, to: to)
    }

    /// Effect options, named and checked by the effect's declarations: `{"center": [x, y], "from-rect": [x, y, w, h],
    /// "color": "RRGGBB", ...}`.
    mutating func effectOptions(_ raw: Any, _ path: String, effect: Effect?) -> EffectOptions {
        var o = EffectOptions()
        guard let object = raw as? [String: Any] else {
            problem(path, "expected an object of effect options (as 'segue effects' names them)")
            return o
        }
        guard let effect else { return o }
        for name in object.keys.sorted() {
            let p = path + key(name)
            guard let option = effect.option(name) else {
                let takes = effect.options.map(\.name)
                problem(p, "does not apply to \(effect.name), which " + (takes.isEmpty ? "takes no options" : "takes " + takes.sorted().joined(separator: ", ")))
                continue
            }
            guard let value = option.parse(json: object[name]!) else {
                problem(p, "expected \(option.jsonForm)")
                continue
            }
            o[option.name] = value
        }
        return o
    }

    // MARK: Values

    mutating func check(_ ok: Bool, _ path: String, _ message: String) -> Bool {
        if !ok { problem(path, message) }
        return ok
    }

    mutating func number(_ v: Any, _ path: String) -> Double? {
        if let n = JSONNumber.value(v), n.isFinite { return n }
        problem(path, "expected a number")
        return nil
    }

    mutating func numbers(_ v: Any, _ path: String, count: Int, form: String) -> [Double]? {
        guard let array = v as? [Any], array.count == count,
              case let values = array.compactMap(JSONNumber.value),
              values.count == count, values.allSatisfy(\.isFinite) else {
            problem(path, "expected \(form)")
            return nil
        }
        return values
    }

    mutating func string(_ v: Any, _ path: String) -> String? {
        if let s = v as? String { return s }
        problem(path, "expected a string")
        return nil
    }

    mutating func color(_ v: Any, _ path: String) -> Color? {
        if let s = v as? String, let c = Color(hex: s) { return c }
        problem(path, "expected a colour \"RRGGBB\"")
        return nil
    }

    /// `{"samples": N, "shutter": DEGREES}` (shutter 180 unless given).
    mutating func motionBlur(_ v: Any, _ path: String) -> MotionBlur? {
        guard let object = v as? [String: Any] else {
            problem(path, "expected {\"samples\": N, \"shutter\": degrees}")
            return nil
        }
        unknownKeys(object, path, allowed: ["samples", "shutter"])
        var blur = MotionBlur(samples: 1)
        if let s = object["samples"] {
            guard let n = number(s, "\(path).samples") else { return nil }
            guard check(n == n.rounded() && n >= 1 && n <= Double(MotionBlur.maxSamples), "\(path).samples",
                        "expected a whole number of samples in 1...\(MotionBlur.maxSamples), not \(n.compact)") else { return nil }
            blur.samples = Int(n)
        } else {
            problem(path, "missing \"samples\": frames averaged per output frame")
            return nil
        }
        if let s = object["shutter"] {
            guard let d = number(s, "\(path).shutter") else { return nil }
            guard check(d > 0 && d <= 360, "\(path).shutter", "expected a shutter angle in (0, 360] degrees, not \(d.compact)") else { return nil }
            blur.shutter = d
        }
        return blur
    }
}

extension StoryboardError: SegueErrorConvertible {
    /// Each problem a line of invalid input.
    public var segueError: SegueError {
        return SegueError(.invalidInput(path: nil), problems: problems)
    }
}
