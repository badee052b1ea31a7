import Foundation

/// What the figures were measured on.
struct Machine: Codable {
    var host: String
    var cpu: String
    var cores: Int
    var memoryGiB: Double
    var os: String
    var swift: String
    var gl: String?
    var glVendor: String?
    var glRenderer: String?
    var glVersion: String?
    var eglPlatform: String?
    var ffmpeg: String?
    var pixman: String?
    /// The headless browser of the Chromium peer, as it names itself (`Chrome/156.0...`).
    var chromium: String?

    static func describe() -> Machine {
        func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        let cpu = read("/proc/cpuinfo").split(separator: "\n")
            .first { $0.hasPrefix("model name") }?.split(separator: ":", maxSplits: 1).last
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        let kib = read("/proc/meminfo").split(separator: "\n").first { $0.hasPrefix("MemTotal") }?
            .split(separator: " ").compactMap { Double($0) }.first ?? 0
        let os = read("/etc/os-release").split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }?
            .dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) ?? "unknown"
        return Machine(host: ProcessInfo.processInfo.hostName, cpu: cpu, cores: ProcessInfo.processInfo.activeProcessorCount,
                       memoryGiB: (kib / 1_048_576 * 10).rounded() / 10, os: os,
                       swift: ProcessInfo.processInfo.environment["SEGUE_SWIFT_VERSION"] ?? "unknown")
    }
}

/// The first line a command prints, or nil when it cannot run.
func firstLine(of command: [String]) -> String? {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = command
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    guard (try? p.run()) != nil else { return nil }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init)
}
