import ArgumentParser
import Foundation
import SegueCore
import SegueImageIO
import SegueRender
import SegueDoctor

/// `segue doctor`: whether this machine draws right, and how fast, before a long job.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check that every backend here draws what the CPU compositor draws, and measure its speed.",
        discussion: """
            For each EGL platform that gives a GLES 3 context (or the one --egl-platform names), draws every \
            built-in effect in both directions at t = 0, 0.5 and 1, at 375x667 and 3840x2160, and compares \
            each frame with the CPU compositor's (PSNR >= 40 dB, 99.5% of pixels within 2 levels); a frame \
            outside that is named with what is wrong with it (blank, upside down, shifted, red and blue \
            swapped, alpha wrong, not premultiplied). The shipped custom shaders must show 'from' at 0 and \
            'to' at 1. Then times drawing, reading back, both pipelined, and reading back an empty frame, at \
            1920x1080 and 3840x2160. Ends with one line per backend and an overall verdict.

            Says what the machine is, too: each PCI GPU's PCIe link from sysfs (generation and width now and at \
            most) and nvidia-smi's P-state and clocks where it is on PATH, at rest; then, for each GLES backend, \
            empty 3840x2160 frames read back for 0.5 s, in GB/s device to host against what the link carries \
            at the generation and width read during it, with nvidia-smi read while they go.

            Exit status: 0 when every backend that could be made draws right, 1 when one draws wrong (or a \
            platform named with --egl-platform is unavailable).
            """)

    @Flag(help: "Write the report as JSON on standard output instead of text.")
    var json = false

    @Option(help: ArgumentHelp("Also write the JSON report to this file (with the text on standard output).", valueName: "file"))
    var report: String?

    @Option(help: ArgumentHelp("Check only this backend: gles or cpu (default: both).", valueName: "name"))
    var backend: String?

    @Option(name: .customLong("egl-platform"), help: ArgumentHelp("Check only this EGL platform (and device): gbm, device, device:1, surfaceless, or a DRM node.", valueName: "name"))
    var eglPlatform: BackendChoice.GLESTarget?

    @Option(parsing: .unconditional, help: ArgumentHelp("Threads for the CPU compositor (all cores by default).", valueName: "n"))
    var threads: Int?

    @Option(help: ArgumentHelp("Seconds each speed figure is measured for.", valueName: "s"))
    var seconds: Double = 1.5

    @Option(name: .customLong("frame-timeout"), parsing: .unconditional, help: ArgumentHelp("Stop with an error when one frame or one timing takes longer than this many seconds (a driver that hangs).", valueName: "s"))
    var frameTimeout: Double = 60

    @Flag(help: "A quick check: compare at 188x334 only (the phone size at half scale), and time 1920x1080 for 0.2 s a figure.")
    var quick = false

    @Flag(help: "No progress on standard error.")
    var quiet = false

    func validate() throws {
        if let backend, backend != "gles", backend != "cpu" { throw ValidationError("--backend takes gles or cpu") }
        if backend == "cpu", eglPlatform != nil { throw ValidationError("--egl-platform applies to the gles backend, not cpu") }
        guard frameTimeout > 0, frameTimeout <= 86_400 else { throw ValidationError("--frame-timeout must be in (0, 86400]") }
        guard seconds > 0, seconds <= 60 else { throw ValidationError("--seconds must be in (0, 60]") }
        if let threads, threads < 1 || threads > 1024 { throw ValidationError("--threads must be in 1...1024") }
        // Checked before the minute of checks, not after.
        try Console.requireStandardOutput(for: json ? "the JSON report" : "the report")
        if let report {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: report, isDirectory: &isDir), isDir.boolValue {
                throw ValidationError("--report \(report) is a directory: name a file to write the JSON report to")
            }
            let directory = PathName.directory(report)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory),
                  isDirectory.boolValue else {
                throw ValidationError("--report \(report): no directory \(directory) to write it in")
            }
        }
    }

    func run() throws {
        var options = Doctor.Options()
        options.target = eglPlatform
        options.gles = backend != "cpu"
        options.cpu = backend != "gles"
        options.threads = threads
        options.secondsPerTiming = seconds
        if quick {
            options.sizes = [(Size(375, 667), 0.5)]
            options.timedSizes = Array(options.timedSizes.prefix(1))
            options.secondsPerTiming = min(seconds, 0.2)
        }
        Signals.watch(frameTimeout: frameTimeout)
        let report = Doctor(options: options).run(control: Signals.control, progress: { line in if !quiet { Console.note(line) } })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(JSONReport(report))
        if let path = self.report {
            do {
                try FileWriter.writeAtomically(Array(data + Data("\n".utf8)), to: path)
            } catch {
                throw SegueError.failed("cannot write the report to \(path): \(Self.reason(error))")
            }
        }
        if json {
            print(String(decoding: data, as: UTF8.self))
        } else {
            printText(report)
        }
        // The verdict is printed: the status says the rest, with no line of its own.
        if !report.ok { throw ExitCode(ExitStatus.failure) }
    }

    /// What went wrong writing a file, in words (never a Foundation error domain).
    static func reason(_ error: Error) -> String {
        if case let ImageIOError.unwritable(_, reason)? = error as? ImageIOError { return reason }
        if let error = error as? SegueError { return error.message }
        return "\(error)"
    }

    private func printText(_ report: Doctor.Report) {
        for line in report.machine.lines { print(line) }
        for backend in report.backends {
            if !backend.timings.isEmpty || backend.checkedOn != nil {
                print("\(backend.backend)\(backend.platform.map { " on \($0)" } ?? ""): \(backend.details)")
                if let first = backend.checkedOn {
                    print("  the same driver as on \(first): compared at the first size on the raster path; its shaders, planes and timings are not repeated")
                }
                for timing in backend.timings {
                    print(String(format: "  %@ %@: %.1f frames/s (%.2f ms)", "\(timing.width)x\(timing.height)", timing.stage,
                                 timing.framesPerSecond, timing.msPerFrame))
                }
            }
            for line in backend.transfer?.lines ?? [] { print("  \(line)") }
            if !backend.paths.isEmpty { print("  paths: \(backend.paths.joined(separator: ", ")); read-back: \(backend.readback ?? "?")") }
            for line in backend.catalogueDrawnBy { print("  catalogue on \(line)") }
            for check in backend.outputs { print("  what jobs use on \(check.line)") }
            if !backend.phases.isEmpty {
                print("  seconds: " + backend.phases.map { String(format: "%@ %.1f", $0.name, $0.seconds) }.joined(separator: ", "))
            }
            if !backend.driverMessages.isEmpty {
                print("  the driver said (KHR_debug, \(backend.driverMessages.count)):")
                for message in backend.driverMessages.prefix(12) { print("    \(message)") }
            }
            for failure in backend.failures.prefix(10) { print("  wrong: \(failure)") }
            if backend.failures.count > 10 { print("  ... and \(backend.failures.count - 10) more") }
        }
        for line in report.speedComparison { print("speed: \(line)") }
        print(report.gpu)
        for backend in report.backends { print(backend.verdict) }
        print("auto: \(report.auto)")
        let why = report.forced && report.backends.contains { $0.unavailable != nil }
            ? "a backend asked for is unavailable" : "a backend draws wrong"
        print(report.ok ? String(format: "doctor: ok (%.0f s)", report.seconds)
                        : String(format: "doctor: FAILED - %@ (%.0f s)", why, report.seconds))
    }

    /// The report with each backend's verdict line and the overall result spelled out.
    private struct JSONReport: Encodable {
        var ok: Bool
        var auto: String
        var gpu: String
        var tolerance: String
        var seconds: Double
        var speed: [String]
        /// The PCIe links and nvidia-smi at rest, and each line as the text shows it.
        var machine: Doctor.MachineReport
        var machineLines: [String]
        var backends: [Backend]

        struct Backend: Encodable {
            var verdict: String
            var ok: Bool
            var report: Doctor.BackendReport
        }

        init(_ report: Doctor.Report) {
            ok = report.ok; auto = report.auto; gpu = report.gpu; tolerance = report.tolerance; seconds = report.seconds
            speed = report.speedComparison
            machine = report.machine
            machineLines = report.machine.lines + report.backends.flatMap { $0.transfer?.lines ?? [] }
            backends = report.backends.map { Backend(verdict: $0.verdict, ok: $0.ok, report: $0) }
        }
    }
}
