import FuzzDriver
import SegueImageIO

/// libFuzzer entry: any bytes through the PNG/JPEG decoder. Errors are expected; crashes, hangs, leaks and
/// sanitizer reports are findings. The pixel limit keeps each input's allocation modest (64 MiB decoded).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? ImageDecoder.decode(data: bytes, name: "fuzz", maxPixels: 4096 * 4096)
    return 0
}

// libFuzzer's `main` is taken by SwiftPM's `--defsym main=FuzzImageDecoder_main`: this starts libFuzzer's driver.
@_cdecl("FuzzImageDecoder_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv, fuzz)
}
