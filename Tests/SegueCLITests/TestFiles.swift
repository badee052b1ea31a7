import Foundation

/// Writes `text` to `name` in `dir` and returns its path.
func write(_ text: String, _ name: String, in dir: URL) throws -> String {
    let url = dir.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
}

/// Every file in `dir` by name, with its bytes: what a job left behind, to compare runs byte for byte (less
/// `.segue`, the lock and manifest, which record each run's own history).
func files(_ dir: URL) throws -> [String: Data] {
    var out: [String: Data] = [:]
    for name in try frameDirectoryNames(atPath: dir.path) {
        out[name] = try Data(contentsOf: dir.appendingPathComponent(name))
    }
    return out
}

/// What a job left in an output directory, less `.segue` (its lock and manifest).
func frameDirectoryNames(atPath path: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).filter { $0 != ".segue" }
}
