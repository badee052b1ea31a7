import Foundation

/// This program started again as a child process (the GLES figures are taken in one), whichever binary it is: the
/// `segue-bench` executable, or `segue` started under the name `segue-bench` (a link, as `make dist` ships it).
enum ThisProgram {
    /// Runs the running executable again with `arguments`, standard streams and environment shared, and waits
    /// for it. Returns its exit status, or the number of the signal that ended it.
    ///
    /// The executable is `/proc/self/exe`, so the child is this very binary wherever it was started from (a
    /// name found on PATH, a relative path, a link); its argv[0] is `segue-bench` (the name this process was
    /// started under where that ends in it), so that `segue` runs the benchmark again rather than its own
    /// command line. `Process` cannot set an argv[0] apart from the path it runs.
    static func run(_ arguments: [String]) throws -> Int32 {
        let executable = FileManager.default.fileExists(atPath: "/proc/self/exe")
            ? "/proc/self/exe" : (Bundle.main.executablePath ?? CommandLine.arguments[0])
        let name = CommandLine.arguments.first ?? Bench.commandName
        let argv0 = Bench.isCommandName(name) ? name : Bench.commandName
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        let argv = ([argv0] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }

        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, nil, nil, argv, envp)
        guard spawned == 0 else {
            throw BenchError("could not start \(executable) again: posix_spawn: \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw BenchError("waitpid for the child process: \(String(cString: strerror(errno)))") }
        }
        let signal = status & 0x7F  // WTERMSIG; 0 when it exited (WIFEXITED)
        return signal == 0 ? (status >> 8) & 0xFF : signal
    }
}
