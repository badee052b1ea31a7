// swift-tools-version: 6.0
import PackageDescription

// Modules are split by what they depend on: SegueCore imports no C module; each backend, the image codecs
// and the command line are their own targets, and the C wrappers (CEGL, CGBM, CSPNG, CTurboJPEG) are never
// public API.

let package = Package(
    name: "Segue",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "segue", targets: ["segue"]),
        .library(name: "SegueCore", targets: ["SegueCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CSPNG", pkgConfig: "spng", providers: [.apt(["libspng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CEGL", pkgConfig: "egl glesv2", providers: [.apt(["libegl-dev", "libgles-dev"])]),
        .systemLibrary(name: "CGBM", pkgConfig: "gbm", providers: [.apt(["libgbm-dev"])]),

        .target(name: "SegueCore"),
        .target(name: "SegueSamples", dependencies: ["SegueCore"]),
        .target(name: "SegueCPU", dependencies: ["SegueCore"]),
        .target(name: "SegueImageIO", dependencies: ["SegueCore", "CSPNG", "CTurboJPEG"]),
        .target(name: "SegueGLES", dependencies: ["SegueCore", "CEGL", "CGBM"]),
        .executableTarget(
            name: "segue",
            dependencies: [
                "SegueCore", "SegueCPU", "SegueImageIO", "SegueGLES", "SegueSamples",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        .executableTarget(
            name: "segue-bench",
            dependencies: ["SegueCore", "SegueCPU", "SegueGLES", "SegueImageIO", "SegueSamples"],
            path: "bench/Sources/SegueBench"),

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
        .testTarget(name: "SegueImageIOTests", dependencies: ["SegueCore", "SegueImageIO", "SegueTestSupport"]),
        .testTarget(
            name: "SegueRenderTests",
            dependencies: ["SegueCore", "SegueCPU", "SegueGLES", "SegueImageIO", "SegueSamples", "SegueTestSupport"],
            exclude: ["Goldens"]),
        .testTarget(name: "SegueCLITests", dependencies: ["SegueCore", "SegueImageIO", "SegueTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
