import Foundation
import SegueCore
import SegueRender

// Renders door, forward, half way, with the effect's own defaults, from the built-in sample screens at
// scale 1 on the CPU backend, into the PNG file named by the first argument.
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: segue-library-example OUT.png\n".utf8))
    exit(2)
}
var job = RenderJob(Transition(.door, direction: .forward), from: "sample:home", to: "sample:detail",
                    scale: 1, output: .image(CommandLine.arguments[1]))
job.progress = [0.5]
job.backend = .cpu
do {
    try job.run()
} catch {
    FileHandle.standardError.write(Data("segue-library-example: \(error)\n".utf8))
    exit(1)
}
