import Foundation
import SegueCore

/// A child process (ffprobe, a clip's ffmpeg decoder) in a process group of its own, so that ending it ends
/// whatever it started as well: a wrapper script's children, which hold its pipes open after it has gone.
///
/// Spawned with `posix_spawn` and `POSIX_SPAWN_SETPGROUP` (group 0: the child's pid is its group's id), which
/// Foundation's `Process` cannot do. Standard input and output are each `/dev/null` or a pipe; standard error is
/// captured by a reader thread of its own (its last 4 KiB, so a chatty child never blocks on a full pipe). The
/// child starts with the default action for every signal the parent ignores or handles, and no signal blocked.
///
/// The group is ended (`kill(-pgid, SIGKILL)`) by `kill()`, when the child is found to have exited (before it
/// is reaped, so the group's id cannot have been reused), and when the value is released unreaped. A
/// `JobControl` given to `init` records the group until then, so that a signal or the watchdog ends it too.
package final class ChildProcess: @unchecked Sendable {
    package enum Stream {
        /// `/dev/null`.
        case null
        /// A pipe, whose other end is `input` or `output`.
        case pipe
    }

    /// How the child ended.
    package enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)

        /// What a child that printed nothing on standard error usually means by how it ended, for messages.
        var silence: String {
            switch self {
            case .signalled: "it printed nothing, as a process ended from outside (or by the kernel for want of memory) does"
            case .exited(0): "it printed nothing and exited 0, as ffmpeg does when its arguments end the output early"
            case .exited: "it printed nothing on standard error, where it reports what went wrong"
            }
        }
    }

    package let executable: String
    /// The child's pid, which is also its process group's id.
    let pid: pid_t
    /// The write end of the child's standard input (`input: .pipe`); the caller closes it to end the input.
    let input: FileHandle?
    /// The read end of the child's standard output (`output: .pipe`).
    let output: FileHandle?

    private let errors = ErrorTail()
    private let lock = NSLock()
    // Guarded by `lock`:
    private var termination: Termination?
    private var control: JobControl?

    /// Spawns `executable` with `arguments` (without the program's name) in a new process group; throws
    /// `SegueError.failed` naming the executable and the failing call.
    package init(executable: String, arguments: [String], input: Stream = .null, output: Stream = .null,
         control: JobControl? = nil) throws {
        self.executable = executable
        self.control = control
        var pipes: [Int32] = []  // every end, closed here on failure
        func makePipe() throws -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            // (pipe2 with O_CLOEXEC is not imported: close-on-exec is set just after.)
            guard pipe(&fds) == 0 else { throw Self.failure("pipe", executable, errno) }
            pipes += fds
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return (fds[0], fds[1])
        }
        do {
            let stdin = input == .pipe ? try makePipe() : nil
            let stdout = output == .pipe ? try makePipe() : nil
            let stderr = try makePipe()

            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            // dup2 onto 0, 1 and 2 clears close-on-exec there; every pipe end is close-on-exec elsewhere.
            if let stdin { posix_spawn_file_actions_adddup2(&actions, stdin.read, 0) } else {
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            }
            if let stdout { posix_spawn_file_actions_adddup2(&actions, stdout.write, 1) } else {
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            }
            posix_spawn_file_actions_adddup2(&actions, stderr.write, 2)
            // Nothing else is handed down: a descriptor this process holds without close-on-exec (one it
            // inherited) would otherwise stay open in the child's whole group, and whoever waits for its end
            // (a parent watching for segue's exit) would wait for the group too.
            if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }

            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
            posix_spawnattr_setpgroup(&attributes, 0)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXFSZ] { sigaddset(&defaults, signal) }
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)

            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            try control?.beginSpawn()
            let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
            guard status == 0 else {
                control?.endSpawn()
                throw Self.failure("posix_spawn", executable, status)
            }
            self.pid = pid
            control?.register(processGroup: pid)
            control?.endSpawn()
            /// Ends the child's group and reaps the child, before it was ever handed to anyone.
            func killAndReap() {
                Foundation.kill(-pid, SIGKILL)
                var ignored: Int32 = 0
                waitpid(pid, &ignored, 0)
                control?.forget(processGroup: pid)
            }
            if control?.isCancelled == true {
                // A signal came while the child was being spawned, before its group was known: the handler
                // left the child to us (`JobControl.isSpawning`).
                killAndReap()
                throw SegueError.interrupted
            }

            // The child's ends are closed here, so each pipe ends when the child's group has let it go.
            for fd in [stdin?.read, stdout?.write, stderr.write].compactMap({ $0 }) { close(fd) }
            pipes = []
            self.input = stdin.map { FileHandle(fileDescriptor: $0.write, closeOnDealloc: true) }
            self.output = stdout.map { FileHandle(fileDescriptor: $0.read, closeOnDealloc: true) }
            let errorEnd = FileHandle(fileDescriptor: stderr.read, closeOnDealloc: true)
            do {
                try errors.start(reading: errorEnd, name: "segue \(PathName.last(executable)) stderr")
            } catch {
                killAndReap()
                throw error
            }
        } catch {
            pipes.forEach { close($0) }
            throw error
        }
    }

    deinit {
        if wait(until: .now()) == nil {
            kill()
            _ = wait()
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later; not imported into Swift).
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? =
        dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self) }

    private static func failure(_ call: String, _ executable: String, _ code: Int32) -> SegueError {
        SegueError.failed("cannot start \(PathName.last(executable)): \(call): \(String(cString: strerror(code)))")
    }

    /// Records the child's process group with `control` (for a child started before the job's control was at
    /// hand, as an encoder's stream is), so that a signal or the watchdog ends it; nothing once it has been
    /// waited for.
    func register(with control: JobControl) {
        lock.withLock {
            guard termination == nil, self.control == nil else { return }
            self.control = control
            control.register(processGroup: pid)
        }
    }

    /// Ends the child's whole process group (SIGKILL), unless the child has been waited for.
    package func kill() {
        lock.withLock {
            if termination == nil { _ = Foundation.kill(-pid, SIGKILL) }
        }
    }

    /// How the child ended, waiting for it until `deadline` (for ever when nil); nil if it is still running
    /// then. Once it has exited, what is left of its group is ended and the child is reaped.
    @discardableResult
    package func wait(until deadline: DispatchTime? = nil) -> Termination? {
        while true {
            if let done = lock.withLock({ termination }) { return done }
            var info = siginfo_t()
            let flags = WEXITED | WNOWAIT | (deadline == nil ? 0 : WNOHANG)
            let r = waitid(P_PID, id_t(pid), &info, flags)
            if r != 0 && errno == EINTR { continue }
            if r == 0 && info._sifields._sigchld.si_pid == pid { return reap() }
            if r != 0 { return reap() }  // ECHILD: reaped elsewhere; nothing to wait for
            guard let deadline, DispatchTime.now() < deadline else { return nil }
            usleep(2_000)
        }
    }

    /// The child has exited (a zombie, its group's id still held): ends the rest of its group, then reaps it.
    private func reap() -> Termination {
        lock.withLock {
            if let termination { return termination }
            _ = Foundation.kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let ended: Termination = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
            termination = ended
            control?.forget(processGroup: pid)
            return ended
        }
    }

    /// Standard output until its end (every process in the group has closed it), or nil when `deadline`
    /// passes first. For a child whose output is small (ffprobe's JSON); needs `output: .pipe`.
    package func readOutput(until deadline: DispatchTime) -> Data? {
        guard let output else { return Data() }
        let fd = output.fileDescriptor
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let left = deadline.uptimeNanoseconds > DispatchTime.now().uptimeNanoseconds
                ? Int32(clamping: (deadline.uptimeNanoseconds - DispatchTime.now().uptimeNanoseconds) / 1_000_000 + 1) : 0
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, left)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { return nil }
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return data }
            data.append(contentsOf: buffer[..<n])
        }
    }

    /// The last `count` non-empty lines the child wrote on standard error, waiting until `deadline` for the
    /// stream's end (the group has exited); what has come so far when it passes.
    package func errorLines(_ count: Int = 1, waitingUntil deadline: DispatchTime = .now() + 2) -> [String] {
        errors.lines(count, waitingUntil: deadline)
    }

    /// The last 4 KiB a stream gave, read by a thread of its own.
    private final class ErrorTail: @unchecked Sendable {
        private let condition = NSCondition()
        // Guarded by `condition`:
        private var tail = Data()
        private var ended = false

        func start(reading handle: FileHandle, name: String) throws {
            try JobThread.start(name, stackSize: 1 << 20) { [self] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let n = buffer.withUnsafeMutableBytes { Foundation.read(handle.fileDescriptor, $0.baseAddress!, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { break }
                    condition.withLock {
                        tail.append(contentsOf: buffer[..<n])
                        if tail.count > 4096 { tail = tail.suffix(4096) }
                    }
                }
                condition.withLock {
                    ended = true
                    condition.broadcast()
                }
            }
        }

        func lines(_ count: Int, waitingUntil deadline: DispatchTime) -> [String] {
            condition.withLock {
                let limit = Date(timeIntervalSinceNow: Double(Int64(deadline.uptimeNanoseconds) - Int64(DispatchTime.now().uptimeNanoseconds)) / 1e9)
                while !ended && condition.wait(until: limit) {}
                return String(decoding: tail, as: UTF8.self).split(whereSeparator: \.isNewline)
                    .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.suffix(count).map { $0 }
            }
        }
    }
}
