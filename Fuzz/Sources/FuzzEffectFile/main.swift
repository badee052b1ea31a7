import Foundation
import FuzzDriver
import SegueCore

/// libFuzzer entry: any bytes as an effect file; one that reads is then checked and evaluated, both
/// directions, at progress 0, 0.5 and 1 (and a spring's overshoot), with its options' examples or defaults.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let effect = try? Effect(json: Data(bytes: data, count: size), file: "fuzz.json") else { return 0 }
    var options = EffectOptions()
    for option in effect.options { options[option.name] = option.example }
    let frame = Size(width: 375, height: 667)
    for direction in Direction.allCases {
        let transition = Transition(effect, direction: direction, options: options)
        guard (try? transition.validate(frame: frame)) != nil else { continue }
        for t in [0, 0.5, 1, 1.2] { _ = transition.scene(at: t, frame: frame, scale: 2) }
    }
    return 0
}

// libFuzzer's `main` is taken by SwiftPM's `--defsym main=FuzzEffectFile_main`: this starts libFuzzer's driver.
@_cdecl("FuzzEffectFile_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv, fuzz)
}
