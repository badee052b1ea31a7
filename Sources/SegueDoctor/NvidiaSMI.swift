import Foundation
import SegueCore
import SegueRender

/// What `nvidia-smi` says of each NVIDIA GPU's power state, clocks and link: the P-state (P0 is full speed,
/// P8 idle), the SM and memory clocks now and the SM clock's maximum, the PCIe generation now and at most,
/// the link width and how busy the GPU is. Run as a child with a time limit (a driver that hangs cannot hold
/// the doctor), in a process group a signal or the job's watchdog ends.
public struct NvidiaSMI: Sendable, Codable, Equatable {
    /// One GPU's line, as `nvidia-smi` prints each field (`P0`, `1980 MHz`, `[N/A]`).
    public struct Reading: Sendable, Codable, Equatable, CustomStringConvertible {
        public var pstate: String
        public var smClock: String
        public var memoryClock: String
        public var maxSMClock: String
        public var linkGeneration: String
        public var maxLinkGeneration: String
        public var linkWidth: String
        public var utilization: String

        /// `P0, SM 1980 MHz of 1980 MHz, memory 2619 MHz, PCIe Gen5 of Gen5 x16, 45 % busy`.
        public var description: String {
            "\(pstate), SM \(smClock) of \(maxSMClock), memory \(memoryClock), PCIe Gen\(linkGeneration) of Gen\(maxLinkGeneration) x\(linkWidth), \(utilization) busy"
        }
    }

    /// The fields asked for, in the order `Reading` holds them.
    public static let query = "pstate,clocks.sm,clocks.mem,clocks.max.sm,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,utilization.gpu"
    /// nvidia-smi's options (its own words, not Segue's), each given to it as a long option `name=value`.
    public static let options = [(name: "query-gpu", value: query), (name: "format", value: "csv,noheader")]
    public static var arguments: [String] { options.map { "--\($0.name)=\($0.value)" } }

    /// One reading a GPU.
    public var readings: [Reading]

    /// Parses `nvidia-smi --query-gpu=... --format=csv,noheader`: one line a GPU, the fields separated by `, `.
    /// Nil when a non-empty line has another number of fields (not the output asked for).
    public static func parse(_ text: String) -> NvidiaSMI? {
        var readings: [Reading] = []
        for line in text.split(whereSeparator: \.isNewline) where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard f.count == 8 else { return nil }
            readings.append(Reading(pstate: f[0], smClock: f[1], memoryClock: f[2], maxSMClock: f[3], linkGeneration: f[4],
                                    maxLinkGeneration: f[5], linkWidth: f[6], utilization: f[7]))
        }
        return readings.isEmpty ? nil : NvidiaSMI(readings: readings)
    }

    /// `nvidia-smi` on `path` (a PATH's list of directories), or nil.
    public static func find(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        (path ?? "").split(separator: ":").map { "\($0)/nvidia-smi" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `nvidia-smi` started, its answer read by `finish`: started before a transfer and finished after it, its
    /// readings are taken while the GPU is busy.
    public final class Query: @unchecked Sendable {
        private let child: ChildProcess
        private let started = DispatchTime.now()
        public let timeout: Double

        /// Starts `executable` (nvidia-smi) with the query; throws one line where it cannot start.
        public init(executable: String, timeout: Double = 10, control: JobControl? = nil) throws {
            self.timeout = timeout
            child = try ChildProcess(executable: executable, arguments: NvidiaSMI.arguments, output: .pipe, control: control)
        }

        /// Whether it has exited (so its readings are in).
        public var isDone: Bool { child.wait(until: .now()) != nil }

        /// The readings, or one line saying why there are none (it ran past its time limit and was ended, it
        /// failed, or it printed something else). Waits until the time limit, counted from its start.
        public func finish() -> Result<NvidiaSMI, SegueError> {
            let deadline = started + timeout
            let name = PathName.last(child.executable)
            guard let output = child.readOutput(until: deadline) else {
                child.kill()
                child.wait()
                return .failure(.failed("\(name) gave no answer within \(timeout.compact) s: ended"))
            }
            guard let ended = child.wait(until: deadline) else {
                child.kill()
                child.wait()
                return .failure(.failed("\(name) did not exit within \(timeout.compact) s: ended"))
            }
            let text = String(decoding: output, as: UTF8.self)
            guard ended == .exited(0) else {
                let why = child.errorLines(1).first ?? text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
                let how = if case let .exited(status) = ended { "exit status \(status)" } else { "a signal" }
                return .failure(.failed("\(name) failed (\(how))" + (why.isEmpty ? "" : ": \(why)")))
            }
            guard let parsed = NvidiaSMI.parse(text) else {
                let first = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "nothing"
                return .failure(.failed("\(name) printed \(first.isEmpty ? "nothing" : "'\(first.prefix(120))'"), not the fields asked for"))
            }
            return .success(parsed)
        }
    }

    /// Runs it once and waits: `nvidia-smi not present` where there is none on PATH.
    public static func read(path: String? = ProcessInfo.processInfo.environment["PATH"], timeout: Double = 10,
                            control: JobControl? = nil) -> Result<NvidiaSMI, SegueError> {
        guard let executable = find(path: path) else { return .failure(.failed(notPresent)) }
        do {
            return try Query(executable: executable, timeout: timeout, control: control).finish()
        } catch {
            return .failure(SegueError.from(error))
        }
    }

    public static let notPresent = "nvidia-smi not present (not on PATH)"

    /// A problem as a report's line: `nvidia-smi: ...`, unless it names nvidia-smi itself.
    static func line(_ problem: String) -> String {
        problem.hasPrefix("nvidia-smi") ? problem : "nvidia-smi: \(problem)"
    }
}
