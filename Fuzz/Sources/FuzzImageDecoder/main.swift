import SegueImageIO

/// libFuzzer entry: any bytes through the PNG/JPEG decoder. Errors are expected; crashes, hangs, leaks and
/// sanitizer reports are findings. The pixel limit keeps each input's allocation modest (64 MiB decoded).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? ImageDecoder.decode(data: bytes, name: "fuzz", maxPixels: 4096 * 4096)
    return 0
}

// SwiftPM links an executable target with `--defsym main=FuzzImageDecoder_main`, which takes `main` from libFuzzer;
// this entry point hands control straight to libFuzzer's driver, as its own `main` would.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("FuzzImageDecoder_main")
func fuzzerMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzz)
}
