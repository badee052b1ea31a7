// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for Segue's parsers of untrusted bytes: image decoding, storyboards and effect files.
// A package of its own because `-sanitize=fuzzer` supplies `main` and breaks the root package's executables.
// The sources are the root package's own, through symlinks in Sources/ (a path dependency on ".." would
// take its identity from the checkout's directory name, which differs between clones).
// Build and run: `make fuzz-smoke` (30 s each) or `make fuzz FUZZ_SECONDS=600` from the root.
let package = Package(
    name: "SegueFuzz",
    targets: [
        .systemLibrary(name: "CSPNG", pkgConfig: "spng"),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg"),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate"),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2"),
        .target(name: "SegueCore", resources: [.embedInCode("Effects/Catalog"), .embedInCode("CustomShaders/Transitions")]),
        .target(name: "CSegueKernels"),
        .target(name: "CHeif"),
        .target(name: "SegueImageIO", dependencies: ["SegueCore", "CSPNG", "CTurboJPEG", "CDeflate", "CLCMS2", "CHeif", "CSegueKernels"]),
        // The libFuzzer driver's entry, which each target's `main` calls.
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzImageDecoder", dependencies: ["SegueImageIO", "FuzzDriver"]),
        .executableTarget(name: "FuzzStoryboard", dependencies: ["SegueCore", "FuzzDriver"]),
        .executableTarget(name: "FuzzEffectFile", dependencies: ["SegueCore", "FuzzDriver"]),
    ],
    swiftLanguageModes: [.v6]
)
