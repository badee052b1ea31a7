// swift-tools-version: 6.0
// A program that renders through Segue's library as any other package does: it depends on Segue by version.
// `make example` clones this checkout's last commit into .build/tagged/segue and tags it with Segue's version
// (the one `segue --version` prints), so the dependency below resolves `from:` against real tags, as it would
// against Segue's public repository.
import Foundation
import PackageDescription

let tagged = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../../.build/tagged/segue").standardized.path

let package = Package(
    name: "segue-library-example",
    dependencies: [.package(url: tagged, from: "0.1.0")],
    targets: [
        .executableTarget(
            name: "segue-library-example",
            dependencies: [.product(name: "Segue", package: "segue")]),
    ]
)
