import ArgumentParser
import Foundation
import SegueRender

/// `segue`: renders iOS-style view transitions offscreen, frame by frame, at any resolution.
struct Segue: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segue",
        abstract: "Render iOS-style view transitions offscreen, frame by frame, at any resolution.",
        discussion: """
            Each frame is drawn by OpenGL ES 3 shaders on a headless EGL context or by a CPU compositor that \
            draws the same picture. Start with 'segue demo', then 'segue effects' and 'segue render --help'.

            Exit status: 0 success, 1 failure (unreadable input, rendering or writing failed), 2 usage error \
            (unknown effect or option, bad value), 130 interrupted.
            """,
        version: "0.1.0",
        subcommands: [Render.self, Batch.self, Effects.self, Info.self, Demo.self])
}

/// Exit statuses, as `--help` documents them.
enum ExitStatus {
    static let failure: Int32 = 1
    static let usage: Int32 = 2
    static let interrupted: Int32 = 130

    static func of(_ kind: JobError.Kind) -> Int32 {
        switch kind {
        case .usage: return usage
        case .failure: return failure
        case .interrupted: return interrupted
        }
    }
}

@main
enum Main {
    static func main() {
        // Past a file size limit (`ulimit -f`) write() then fails with EFBIG, reported as "file too large",
        // instead of SIGXFSZ killing the process with a partial temporary file left behind.
        signal(SIGXFSZ, SIG_IGN)
        do {
            var command = try Segue.parseAsRoot()
            try command.run()
        } catch {
            // The library's errors (and the core's, the codecs' and the backends') carry their kind; the rest
            // are the argument parser's.
            if let failure = JobError(classifying: error) {
                fail(failure.message, status: ExitStatus.of(failure.kind))
            }
            let code = Segue.exitCode(for: error)
            if code == .success {
                Segue.exit(withError: error)  // --help, --version
            }
            let message = Segue.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            let isUsage = code == .validationFailure || error is ValidationError
            fail(message.replacingOccurrences(of: "Error: ", with: ""), status: isUsage ? ExitStatus.usage : ExitStatus.failure)
        }
    }

    /// Prints each line of `message` as `segue: error: ...` and exits.
    static func fail(_ message: String, status: Int32) -> Never {
        Console.write(message.split(separator: "\n", omittingEmptySubsequences: false).map { "segue: error: \($0)\n" }.joined())
        exit(status)
    }
}

/// Lines for the user on standard error, written with plain write(2): a closed or full standard error loses
/// the line, never the job.
enum Console {
    static func note(_ line: String) { write("segue: \(line)\n") }

    static func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }
}

/// SIGINT and SIGTERM cancel the running job: it stops after the frame in flight, partial files are removed
/// and the command exits 130. A command installs the handlers before it creates any output, so a signal
/// that comes while it is still setting up is caught too.
enum Signals {
    static let cancellation = CancellationFlag()

    static func install() {
        _ = cancellation  // initialised here, never first inside the handler
        // A parent may have started us with these blocked (a spawning thread's mask is inherited).
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        signal(SIGINT) { _ in Signals.cancellation.cancel() }
        signal(SIGTERM) { _ in Signals.cancellation.cancel() }
    }
}
