import Foundation
import FuzzDriver
import SegueCore

/// libFuzzer entry: any bytes as a storyboard file, then the frame checks the command line runs once the
/// screens' size is known. Every track path loads one small valid track, so interactive steps are reached.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let json = Data(bytes: data, count: size)
    let parsed = Storyboard.parse(json: json) { _ in "t,progress\n0,0\n0.5,0.4\n1,1\n" }
    _ = parsed.storyboard.problems(frame: Size(width: 375, height: 667), stepPaths: parsed.stepPaths)
    return 0
}

// libFuzzer's `main` is taken by SwiftPM's `--defsym main=FuzzStoryboard_main`: this starts libFuzzer's driver.
@_cdecl("FuzzStoryboard_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv, fuzz)
}
