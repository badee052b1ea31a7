/// The entry every fuzz target starts from. SwiftPM links an executable target with `--defsym
/// main=<Target>_main`, which takes `main` from libFuzzer; each target's `<Target>_main` calls this, which hands
/// control straight to libFuzzer's driver with the target's `LLVMFuzzerTestOneInput`, as libFuzzer's own `main`
/// would.
public func runFuzzerDriver(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                            _ test: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, test)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt
