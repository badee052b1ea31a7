import ArgumentParser
import Foundation
import SegueCore
import SegueGLES

/// `segue render --shader FILE.glsl [--param name=value ...]`: a transition written to the gl-transitions
/// interface instead of a built-in effect.
struct ShaderArguments: ParsableArguments {
    @Option(help: ArgumentHelp("""
        A custom GLSL transition (gl-transitions interface) instead of an effect: a .glsl file, or a shipped one \
        by name (\(ShippedTransitions.all.map(\.name).joined(separator: ", "))). Needs the GLES backend; 1 s, \
        linear unless --duration / --curve.
        """, valueName: "file"))
    var shader: String?

    @Option(name: .customLong("param"), help: ArgumentHelp("""
        Set one of the shader's parameters (repeatable): amplitude=0.05, cells=4,3, center=vec2(0.3,0.7), \
        clockwise=false. 'segue effects' lists those of the shipped ones.
        """, valueName: "name=value"))
    var params: [String] = []

    /// The transition `--shader` names: an existing file, else a shipped transition's name.
    static func load(_ spec: String) throws -> ShaderTransition {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: spec, isDirectory: &isDirectory), !isDirectory.boolValue {
            guard let data = FileManager.default.contents(atPath: spec) else {
                throw CLIFailure.failure("cannot read '\(spec)'")
            }
            return try ShaderTransition(name: spec, source: String(decoding: data, as: UTF8.self))
        }
        if let shipped = ShippedTransitions.named(spec) { return shipped }
        if spec.contains("/") || spec.hasSuffix(".glsl") || isDirectory.boolValue {
            throw CLIFailure.failure("cannot read '\(spec)': \(isDirectory.boolValue ? "a directory" : "no such file")")
        }
        let names = ShippedTransitions.all.map(\.name).joined(separator: ", ")
        throw CLIFailure.usage("unknown --shader '\(spec)' (shipped: \(names); or give a .glsl file)")
    }
}

/// A custom transition rendered to its output, as `RenderJob` renders an effect: every check first (the
/// parameters, the inputs, the GLES context, the compile), then the frames, in order, to the sink.
struct ShaderRenderJob {
    static let defaultDuration = 1.0
    static let defaultCurve = TimingCurve.linear

    let transition: ShaderTransition
    let values: [String: ShaderValue]
    let inputs: TransitionInputs
    let options: RenderOptions
    /// The progress of each frame, after the curve (and reversed for `--direction back`).
    let progress: [Double]

    init(_ spec: String, params: [String], options: RenderOptions, effectOptions: EffectOptions) throws {
        if let stray = effectOptions.setNames.first {
            throw SegueError.invalidValue("--\(stray) does not apply to --shader (set the shader's parameters with --param)")
        }
        if BackendChoice(rawValue: options.backend) == .cpu {
            throw CLIFailure.usage("--shader needs the GLES backend (--backend auto or gles): the CPU compositor does not run GLSL")
        }
        self.options = options
        transition = try ShaderArguments.load(spec)
        values = try transition.values(assigning: params)
        inputs = try TransitionInputs.load(from: options.from, to: options.to, size: options.size,
                                           scale: options.scale, maxPixels: options.maxPixels)
        let duration = options.duration ?? Self.defaultDuration
        let curve = options.curve ?? Self.defaultCurve
        let times: [Double]
        if let t = options.progress {
            times = [t]
        } else {
            let span = options.fps * duration
            times = (0...Int(span.rounded())).map { min(1, Double($0) / span) }
        }
        // Back plays the transition in reverse between the swapped screens: it starts on --from, ends on --to.
        let back = options.direction == .back
        progress = times.map { t in
            let p = curve.value(at: t, duration: duration)
            return back ? 1 - p : p
        }
    }

    func run() throws {
        Interrupt.install()
        let renderer: GLESRenderer
        do {
            renderer = try GLESRenderer(platform: options.eglPlatform)
        } catch {
            throw CLIFailure.failure("--shader needs the GLES backend, which is unavailable: \(error)")
        }
        let back = options.direction == .back
        let outputs = try RenderJob.makeOutputs(OutputFormat(rawValue: options.format)!, options: options,
                                                width: inputs.from.width, height: inputs.from.height)
        let pipeline = FramePipeline(outputs: outputs, total: progress.count, quiet: options.quiet)
        let run = FrameDriver.Run(snapshots: back ? [inputs.to, inputs.from] : [inputs.from, inputs.to],
                                  indices: Array(progress.indices),
                                  frames: .shader(transition, values: values, progress: progress, width: inputs.from.width,
                                                  height: inputs.from.height, background: options.background))
        try FrameDriver.render([run], with: renderer, into: pipeline)
    }
}

/// What `segue effects` says about the shipped custom transitions.
enum ShippedTransitionList {
    static func printText() {
        print("")
        print("Custom GLSL transitions (segue render --shader NAME or FILE.glsl; \(ShaderRenderJob.defaultDuration.compact) s, "
              + "\(ShaderRenderJob.defaultCurve) unless --duration / --curve; GLES backend):")
        for (name, transition) in ShippedTransitions.all {
            print("\(name) - \(transition.summary)")
            for p in transition.parameters {
                print("    --param \(p.name)=\(p.defaultValue) (\(p.type.rawValue)): \(p.help)")
            }
        }
    }

    static var json: [[String: Any]] {
        ShippedTransitions.all.map { name, transition in
            [
                "name": name, "file": "Shaders/transitions/\(transition.name)", "summary": transition.summary,
                "duration": ShaderRenderJob.defaultDuration, "curve": ShaderRenderJob.defaultCurve.description,
                "parameters": transition.parameters.map {
                    ["name": $0.name, "type": $0.type.rawValue, "default": $0.defaultValue.description, "help": $0.help]
                },
            ]
        }
    }
}
