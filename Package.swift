// swift-tools-version: 6.2
import PackageDescription

// Modules are split by what they depend on: SegueCore imports no C module; each backend, the image codecs,
// the job layer (SegueRender) and the command line are their own targets, and the C wrappers (CEGL,
// CSPNG, CDeflate, CTurboJPEG, CLCMS2, CHeif) and kernels (CSegueKernels) are never public API. No target has unsafe flags: a package that depends on Segue by
// version could not build otherwise (the hot loops use wrapping arithmetic and pointers instead).

let package = Package(
    name: "Segue",
    // Linux is the platform (Debian 12 is what it is built and tested on): the backends need EGL/GLES and
    // Glibc, so no Apple platform is claimed.
    products: [
        .executable(name: "segue", targets: ["segue"]),
        // What a program needs to render, as one module: `import Segue` (the job layer, the core and the samples).
        .library(name: "Segue", targets: ["Segue"]),
        // The modules under it, for a program that wants only part: the job layer, and the core, backends, image
        // I/O and samples under it.
        .library(name: "SegueRender", targets: ["SegueRender"]),
        // The machine check `segue doctor` runs: every backend against the CPU, timings, the GPU's link.
        .library(name: "SegueDoctor", targets: ["SegueDoctor"]),
        .library(name: "SegueCore", targets: ["SegueCore"]),
        .library(name: "SegueCPU", targets: ["SegueCPU"]),
        .library(name: "SegueGLES", targets: ["SegueGLES"]),
        .library(name: "SegueImageIO", targets: ["SegueImageIO"]),
        .library(name: "SegueSamples", targets: ["SegueSamples"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation --target SegueRender` (make docs): the DocC catalog in
        // Sources/SegueRender/SegueRender.docc. A plugin: nothing of it is linked into a product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.0.0"),
        // `segue studio`'s sockets and event loop: FlyingSocks, of the FlyingFox package (SegueStudio only; no
        // library product links it). Its FlyingFox module is not used: its proxy handler brings Foundation's
        // URLSession, and with it libcurl and TLS, into the static build `make dist` ships. FlyingSocks rather than
        // swift-nio: a few thousand lines over BSD sockets, where swift-nio's several hundred thousand would be built
        // again by every CI run.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        .systemLibrary(name: "CSPNG", pkgConfig: "spng", providers: [.apt(["libspng-dev"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        // Little CMS 2: inputs' ICC profiles and colour chunks, and the working spaces' profiles (SegueImageIO).
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        // EGL and GLES 3 through a table of pointers that dlopen fills when a GLES renderer is first asked for
        // (not linked: a program that draws on the CPU starts without libEGL.so.1 and libGLESv2.so.2). Built
        // against the Khronos headers from libegl-dev and libgles-dev.
        .target(name: "CEGL"),
        // libheif (HEIC input) through a table that dlopen fills when the first HEIC is read: not linked, so neither
        // a build nor `make dist` carries its codecs (Debian's libheif1 brings x265, aom, dav1d and de265), and a
        // program that reads no HEIC starts without it. Built against libheif-dev's header.
        .target(name: "CHeif"),

        // The built-in effects are files (Sources/SegueCore/Effects/Catalog/*.json), embedded as the shaders are;
        // so are the shipped custom transitions (Shaders/transitions/*.glsl, through the link
        // Sources/SegueCore/CustomShaders/Transitions): content of the core, which any backend that runs GLSL draws.
        .target(name: "SegueCore", resources: [.embedInCode("Effects/Catalog"), .embedInCode("CustomShaders/Transitions")]),
        .target(name: "SegueSamples", dependencies: ["SegueCore"]),
        .target(name: "SegueCPU", dependencies: ["SegueCore", "CSegueKernels"]),
        // The CPU compositor's AVX2 row kernels, chosen at run time (C: Swift cannot enable AVX2 for one function).
        .target(name: "CSegueKernels"),
        .target(name: "SegueImageIO", dependencies: ["SegueCore", "CSPNG", "CDeflate", "CTurboJPEG", "CLCMS2", "CHeif", "CSegueKernels"]),
        // The GLSL files live in the top-level Shaders/; Sources/SegueGLES/Shaders is a link to them, because SwiftPM
        // takes a target's resources from inside its folder.
        .target(name: "SegueGLES", dependencies: ["SegueCore", "CEGL"], exclude: ["Shaders/transitions"], resources: [.embedInCode("Shaders")]),
        // Inputs, the frame schedule, the frame pipeline, sinks, backend choice, resume and shards.
        // Only Backends/Backend.swift, which makes renderers, imports SegueGLES (scripts/check-rooms.sh).
        .target(name: "SegueRender", dependencies: ["SegueCore", "SegueCPU", "SegueGLES", "SegueImageIO", "SegueSamples", "CSegueKernels"]),
        // The machine check: a client of the backends (as the command line is), so the GLES internals it
        // reports (paths, read-back, driver messages) stay out of the job layer.
        .target(name: "SegueDoctor", dependencies: ["SegueCore", "SegueCPU", "SegueGLES", "SegueSamples", "SegueRender"]),
        .target(name: "Segue", dependencies: ["SegueCore", "SegueRender", "SegueSamples", "SegueImageIO"]),
        // `segue studio`: a local preview server, a client of `import Segue` only (scripts/check-rooms.sh), with
        // its page (Page/: HTML, script and style) embedded.
        .target(
            name: "SegueStudio",
            dependencies: ["Segue", .product(name: "FlyingSocks", package: "FlyingFox")],
            resources: [.embedInCode("Page")]),
        // Signal handlers installed before main runs (a C constructor), for the command line only.
        .target(name: "CSegueStartup"),
        .executableTarget(
            name: "segue",
            dependencies: [
                "CSegueStartup", "SegueCore", "SegueGLES", "SegueImageIO", "SegueRender", "SegueDoctor", "SegueBench",
                "SegueStudio",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // The benchmark harness is a library so that one binary can be both programs (as busybox is): `segue`
        // started under the name `segue-bench` runs it, so `make dist` ships one static binary and a link. The
        // `segue-bench` executable is the same harness on its own (make bench).
        .target(
            name: "SegueBench",
            dependencies: ["SegueCore", "SegueCPU", "SegueGLES", "SegueImageIO", "SegueRender", "SegueSamples", "CSPNG"],
            path: "bench/Sources/SegueBench"),
        .executableTarget(name: "segue-bench", dependencies: ["SegueBench"], path: "bench/Sources/segue-bench"),

        // 10,000 frames at 1080p on each backend in one process: memory and GL objects must stay flat (make soak).
        .executableTarget(
            name: "segue-soak",
            dependencies: ["SegueCore", "SegueCPU", "SegueGLES", "SegueSamples"],
            path: "Tools/Soak"),

        .target(name: "SegueTestSupport", dependencies: ["SegueCore", "SegueImageIO", "CSPNG", "CTurboJPEG"], path: "Tests/SegueTestSupport"),
        .testTarget(name: "SegueCoreTests", dependencies: ["SegueCore"]),
        .testTarget(
            name: "SegueCPUTests",
            dependencies: ["SegueCore", "SegueCPU", "SegueImageIO", "SegueSamples", "SegueTestSupport"],
            exclude: ["Goldens"]),
        .testTarget(
            name: "SegueImageIOTests", dependencies: ["SegueCore", "SegueImageIO", "SegueSamples", "SegueTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "SegueRenderTests",
            dependencies: ["SegueCore", "SegueCPU", "SegueGLES", "SegueImageIO", "SegueSamples", "SegueTestSupport"],
            exclude: ["Goldens"]),
        // Runs the `segue` binary: declared so that building the tests builds it (found beside the test bundle).
        .testTarget(name: "SegueCLITests", dependencies: ["segue", "SegueCore", "SegueImageIO", "SegueTestSupport"]),
        // The studio's server in process (its routes, token, refusals and frames); the browser tests are Tests/Studio.
        // It imports `segue` (testable) for the command line's words, as `segue studio` gives them to the studio.
        .testTarget(name: "SegueStudioTests", dependencies: ["SegueStudio", "Segue", "segue", .product(name: "FlyingSocks", package: "FlyingFox")]),
        .testTarget(name: "SegueRenderJobTests", dependencies: ["SegueCore", "SegueGLES", "SegueRender", "SegueDoctor", "SegueImageIO", "SegueTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
