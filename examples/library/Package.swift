// swift-tools-version: 6.0
// A program that renders a transition through Segue's library, as any other package would use it. The path
// dependency is named: a path package's identity is otherwise its directory's name, which differs between clones.
import PackageDescription

let package = Package(
    name: "segue-library-example",
    dependencies: [.package(name: "Segue", path: "../..")],
    targets: [
        .executableTarget(
            name: "segue-library-example",
            dependencies: [.product(name: "SegueRender", package: "Segue")]),
    ]
)
