import Foundation

/// Where segue keeps what it measured or compiled for this machine between runs: `$XDG_CACHE_HOME/segue`, else
/// `$HOME/.cache/segue`; nil where neither is an absolute path. (The container image sets `XDG_CACHE_HOME=/cache`.)
public enum UserCache {
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("segue")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home).appendingPathComponent(".cache/segue")
        }
        return nil
    }
}
