import ArgumentParser
import Foundation
import SegueCore
import SegueRender

/// `segue render --shader FILE.glsl [--param name=value ...]`: a transition written to the gl-transitions
/// interface instead of a built-in effect.
struct ShaderArguments: ParsableArguments {
    @Option(help: ArgumentHelp("""
        A custom GLSL transition (gl-transitions interface) instead of an effect: a .glsl file, or a shipped one \
        by name (\(ShaderLibrary.shipped.map(\.name).joined(separator: ", "))). Needs the GLES backend; 1 s, \
        linear unless --duration / --curve.
        """, valueName: "file"))
    var shader: String?

    @Option(name: .customLong("param"), help: ArgumentHelp("""
        Set one of the shader's parameters (repeatable): amplitude=0.05, cells=4,3, center=vec2(0.3,0.7), \
        clockwise=false, or a sampler2D's image: map=FILE.png. 'segue effects' lists those of the shipped ones.
        """, valueName: "name=value"))
    var params: [String] = []
}

/// What `segue effects` says about the shipped custom transitions.
enum ShippedTransitionList {
    static func printText() {
        print("")
        print("Custom GLSL transitions (segue render --shader NAME or FILE.glsl; \(ShaderStep.defaultDuration.compact) s, "
              + "\(ShaderStep.defaultCurve) unless --duration / --curve; GLES backend):")
        for (name, transition) in ShaderLibrary.shipped {
            print("\(name) - \(transition.summary)")
            for p in transition.parameters {
                print("    --param \(p.name)=\(p.defaultValue) (\(p.type.rawValue)): \(p.help)")
            }
        }
    }

    static var json: [[String: Any]] {
        ShaderLibrary.shipped.map { name, transition in
            [
                "name": name, "file": "Shaders/transitions/\(transition.name)", "summary": transition.summary,
                "duration": ShaderStep.defaultDuration, "curve": ShaderStep.defaultCurve.description,
                "parameters": transition.parameters.map {
                    ["name": $0.name, "type": $0.type.rawValue, "default": $0.defaultValue.description, "help": $0.help]
                },
            ]
        }
    }
}
