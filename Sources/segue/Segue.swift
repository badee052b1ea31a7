import ArgumentParser
import Foundation
import SegueCore
import SegueGLES
import SegueImageIO

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
        } catch let error as SegueError {
            fail(error.description, status: error.isUsageError ? ExitStatus.usage : ExitStatus.failure)
        } catch let error as CLIFailure {
            fail(error.message, status: error.status)
        } catch let error as ImageIOError {
            fail(error.description, status: ExitStatus.failure)
        } catch let error as EGLError {
            fail(error.description, status: ExitStatus.failure)
        } catch let error as GLError {
            fail(error.description, status: ExitStatus.failure)
        } catch {
            let code = Segue.exitCode(for: error)
            if code == .success {
                Segue.exit(withError: error)  // --help, --version
            }
            let message = Segue.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            let isUsage = code == .validationFailure || error is ValidationError
            fail(message.replacingOccurrences(of: "Error: ", with: ""), status: isUsage ? ExitStatus.usage : ExitStatus.failure)
        }
    }

    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("segue: error: \(message)\n".utf8))
        exit(status)
    }
}

/// A failure with its exit status and the one line to print.
struct CLIFailure: Error, CustomStringConvertible {
    let message: String
    let status: Int32

    var description: String { message }

    static func failure(_ message: String) -> CLIFailure { CLIFailure(message: message, status: ExitStatus.failure) }
    static func usage(_ message: String) -> CLIFailure { CLIFailure(message: message, status: ExitStatus.usage) }
}

/// Lines for the user on standard error.
enum Console {
    static func note(_ line: String) {
        FileHandle.standardError.write(Data("segue: \(line)\n".utf8))
    }
}
