// swift-tools-version: 6.0
// A program that renders a transition through Segue's library, as any other package would use it.
import PackageDescription

let package = Package(
    name: "segue-library-example",
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "segue-library-example",
            dependencies: [.product(name: "SegueRender", package: "Segue")]),
    ]
)
