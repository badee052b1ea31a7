import ArgumentParser
import CSegueStartup
import Foundation
import Synchronization
import SegueBench
import SegueCore
import SegueImageIO
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
            (unknown effect or option, bad value), 3 the reader of a stream closed it (as `| head` does), \
            130 interrupted.
            """,
        version: SegueBuild.version,
        subcommands: subcommands)

    static let subcommands: [any ParsableCommand.Type] = [Render.self, Batch.self, Join.self, Effects.self, Info.self, DoctorCommand.self, Demo.self, StudioCommand.self]
}

/// Exit statuses, as `--help` documents them.
enum ExitStatus {
    static let failure: Int32 = 1
    static let usage: Int32 = 2
    static let interrupted: Int32 = 130
    static let outputClosed: Int32 = 3

    static func of(_ error: SegueError) -> Int32 {
        switch error.kind {
        case .interrupted: return interrupted
        case .outputClosed: return outputClosed
        default: return error.isUsageError ? usage : failure
        }
    }
}

@main
enum Main {
    static func main() {
        // One binary, two programs (as busybox is): started under the name `segue-bench` (the release archive's
        // bin/segue-bench is a link to bin/segue) it is the benchmark harness, with its own arguments, messages
        // and exit statuses, and none of segue's.
        if let argv0 = CommandLine.arguments.first, Bench.isCommandName(argv0) {
            exit(Bench.main(Array(CommandLine.arguments.dropFirst())))
        }
        // Past a file size limit (`ulimit -f`) write() then fails with EFBIG, reported as "file too large",
        // instead of SIGXFSZ killing the process with a partial temporary file left behind.
        signal(SIGXFSZ, SIG_IGN)
        // A closed pipe is an error a write reports (EPIPE), never a signal that kills a job mid-frame: a
        // progress line into `2>&1 | head` is dropped, a stream to a closed reader ends with its own status.
        signal(SIGPIPE, SIG_IGN)
        // A closed standard stream (`2>&-`) would let the next file opened take its descriptor, and progress
        // lines would be written into an output file: hold each closed one open on /dev/null instead.
        for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 {
            if fd == STDOUT_FILENO { Console.standardOutputWasClosed = true }
            _ = open("/dev/null", O_RDWR)
        }
        segue_startup_linked()  // keeps the early handlers' object file in the link
        Signals.install()
        refuseValuedBuiltInFlags(Array(CommandLine.arguments.dropFirst()))
        do {
            var command = try Segue.parseAsRoot()
            try command.run()
            // What a command printed (info, effects, --json) reaches its reader or the command fails: into a full
            // disk or /dev/full it would otherwise exit 0 with a truncated or empty answer.
            Console.requireAnswerWritten()
        } catch {
            // A job ended by the watchdog or a signal fails as a consequence (a child it waited for was ended):
            // the watchdog's line and status are the ones that count.
            if Signals.timedOut.load(ordering: .acquiring) {
                while true { pause() }  // the watchdog is writing its line and ending the process
            }
            if Signals.control.isCancelled {
                Signals.control.removeTemporaries()
                fail("interrupted", status: ExitStatus.interrupted)
            }
            // The library's errors (and the core's, the codecs' and the backends') carry their kind; the rest
            // are the argument parser's.
            if let failure = SegueError(classifying: error) {
                fail(lines: CommandWords.lines(of: failure), status: ExitStatus.of(failure))
            }
            let code = Segue.exitCode(for: error)
            if code == .success {  // --help, --version: the answer, checked as any command's is
                print(Segue.fullMessage(for: error))
                Console.requireAnswerWritten()
                exit(0)
            }
            // A command that has said why (doctor's verdict) and ends with a status alone: no line of its own.
            if let status = error as? ExitCode { exit(status.rawValue) }
            let message = Segue.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            let isUsage = code == .validationFailure || error is ValidationError
            fail(message.replacingOccurrences(of: "Error: ", with: ""), status: isUsage ? ExitStatus.usage : ExitStatus.failure)
        }
    }

    /// The argument parser acts on `--version` and `--help` wherever they are, before anything else: in
    /// `segue render ./fx.json --version 0.9` the user meant an effect option (which no effect may be named
    /// after a flag, `EffectArguments.reservedNames`), and would get the version, exit 0 and no frames. A
    /// built-in flag followed by a value is a usage error instead.
    static func refuseValuedBuiltInFlags(_ arguments: [String]) {
        guard arguments.first == "render" else { return }
        for (i, word) in arguments.enumerated() where ["--version", "--help", "-h"].contains(word) && i + 1 < arguments.count {
            let next = arguments[i + 1]
            if !next.hasPrefix("-") || Double(next) != nil {
                fail("\(word) takes no value, but '\(next)' follows it (no effect has an option named \(word.drop { $0 == "-" }))",
                     status: ExitStatus.usage)
            }
        }
    }

    /// Prints `message` as one `segue: error: ...` line and exits.
    static func fail(_ message: String, status: Int32) -> Never {
        fail(lines: [message], status: status)
    }

    /// Prints each of `lines` as a `segue: error: ...` line and exits. A line break or other control character
    /// inside a line (a file name holding one) is printed escaped (`\x0A`), so no line can pass for another.
    static func fail(lines: [String], status: Int32) -> Never {
        Console.write(lines.map { "segue: error: \(Console.printable($0))\n" }.joined())
        exit(status)
    }
}

/// Lines for the user on standard error, written with plain write(2): a closed or full standard error loses
/// the line, never the job.
enum Console {
    /// Standard output was closed when segue started (`>&-`): it is held on /dev/null, and a stream to it
    /// (`--out -`) would write nothing and succeed.
    nonisolated(unsafe) static var standardOutputWasClosed = false

    /// Refuses a command whose result is written on standard output (`what`) when it was closed at start:
    /// it would write nothing and succeed.
    static func requireStandardOutput(for what: String) throws {
        if standardOutputWasClosed {
            throw SegueError.failed("standard output is closed: there is nowhere to write \(what)")
        }
    }

    /// Refuses a stream to standard output when it was closed at start.
    static func checkStandardOutput(_ out: String?) throws {
        if out == "-" && standardOutputWasClosed {
            throw SegueError.failed("standard output is closed: there is nothing to stream the frames into")
        }
    }

    static func note(_ line: String) { write("segue: \(printable(line))\n") }

    /// Writes out what `print` has buffered for standard output, or fails: a command's answer that did not reach
    /// its reader (a full disk, /dev/full; a write that failed earlier in the run counts too) is exit 1 with the
    /// reason. A reader that went away (`| head`) ends it with status 1 and no line, as SIGPIPE would have
    /// ended it quietly.
    static func requireAnswerWritten() {
        switch segue_flush_standard_output() {
        case 0: return
        case EPIPE: exit(ExitStatus.failure)
        case let code: Main.fail("cannot write standard output: \(ErrnoReason.text(code))", status: ExitStatus.failure)
        }
    }

    /// `text` safe to print on a terminal: control characters (a file name can hold any) as `\x1B`, and a run
    /// of more than 32 digits (a 400-digit number given as a value) cut to its first 16 with its length.
    static func printable(_ text: String) -> String {
        var out = ""
        var digits = ""
        func flush() {
            out += digits.count > 32 ? "\(digits.prefix(16))...(\(digits.count) digits)" : digits
            digits = ""
        }
        for scalar in text.unicodeScalars {
            if ("0"..."9").contains(scalar) {
                digits.unicodeScalars.append(scalar)
                continue
            }
            flush()
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                out += String(format: "\\x%02X", scalar.value)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        flush()
        return out
    }

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

/// SIGINT, SIGTERM and SIGHUP (a closed terminal or ssh session; not when ignored at exec, as under `nohup`)
/// end the command with status 130, at any moment. Before a job has created output, the process exits at once, ending its children's process groups
/// (nothing else to clean up; this covers a wait on a FIFO, a clip's probe and a long shader compile). After,
/// the job is asked to stop after the frame in flight and removes its partial output; if it has not stopped
/// within a second (a frame stuck in the driver), the watchdog removes the temporary files and exits.
/// The watchdog also ends a frame or a shader compile that runs past `--frame-timeout` (exit 1).
enum Signals {
    static let control = JobControl()
    /// Set by the watchdog before it ends the job's children, so that the job's own failure (a child gone)
    /// never prints before the watchdog's line.
    static let timedOut = Atomic<Bool>(false)
    nonisolated(unsafe) private static var watching = false

    /// Installed first thing in `main`, before arguments are parsed.
    static func install() {
        _ = control  // initialised here, never first inside the handler
        // A parent may have started us with these blocked (a spawning thread's mask is inherited).
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        // An ignored SIGHUP stays ignored: `nohup` asks that the job outlive its terminal.
        var hangup = sigaction()
        sigaction(SIGHUP, nil, &hangup)
        let hangupIgnored = unsafeBitCast(hangup.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        for sig in [SIGINT, SIGTERM, SIGHUP] where !(sig == SIGHUP && hangupIgnored) {
            signal(sig) { _ in
                Signals.control.cancel()
                // While a child is being spawned its group is not yet known: the spawner ends it instead.
                if !Signals.control.hasOutput && !Signals.control.isSpawning {
                    Signals.control.endChildren()
                    _exit(ExitStatus.interrupted)
                }
            }
        }
    }

    /// Starts the watchdog (once): past `frameTimeout` seconds without progress in timed work (a frame, a
    /// shader compile, a clip's probe or a wait for a clip's frame), or a second after a signal, it removes the
    /// job's temporary files, ends its children's process groups and ends the process.
    static func watch(frameTimeout: Double) {
        guard !watching else { return }
        watching = true
        let limit = UInt64(frameTimeout * 1e9)
        let thread = Thread {
            var cancelledAt: UInt64?
            while true {
                usleep(50_000)
                let now = DispatchTime.now().uptimeNanoseconds
                if control.isCancelled {
                    let since = cancelledAt ?? now
                    cancelledAt = since
                    if now - since > 1_000_000_000 {
                        control.removeTemporaries()
                        Console.write("segue: error: interrupted\n")
                        _exit(ExitStatus.interrupted)
                    }
                } else if control.isTimed, case let last = control.lastProgress, now > last, now - last > limit {
                    // `lastProgress` read once: the job moves it on concurrently, and a second read could be
                    // later than `now` (an overflow trap killed a job mid-sequence this way). The activity is
                    // read before the children are ended: the job moves on once a child it waits for is gone.
                    let activity = control.activity
                    timedOut.store(true, ordering: .releasing)
                    Console.write("segue: error: \(activity) took longer than \(frameTimeout.compact) s (--frame-timeout): stopped\n")
                    control.removeTemporaries()
                    _exit(ExitStatus.failure)
                }
            }
        }
        thread.name = "segue-watchdog"
        thread.start()
    }
}
