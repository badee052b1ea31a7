import ArgumentParser
import Foundation
import SegueCore
import SegueCPU

/// `segue info`: which backends work on this machine and which one `auto` picks.
struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Say which backends work here and which one --backend auto uses.")

    func run() throws {
        let cpu = CPUCompositor()
        print("cpu: available - \(cpu.details)")
        print("gles: not built yet (issue 3)")
        print("auto: cpu")
    }
}
