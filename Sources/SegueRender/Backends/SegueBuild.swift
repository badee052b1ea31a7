import Foundation

/// This build of segue: its version, and an identity that tells one build of it from another, for what is
/// cached per build (`Calibration`).
public enum SegueBuild {
    /// The version, as `segue --version` prints it.
    public static let version = "0.1.0"

    /// `0.1.0; 24323920 bytes, modified 1764378480`: the version and the running executable's size and
    /// modification time (a rebuilt segue is another build, even at the same version); the version alone where
    /// the executable cannot be read.
    public static let identity: String = {
        var status = stat()
        guard stat("/proc/self/exe", &status) == 0 else { return version }
        return "\(version); \(status.st_size) bytes, modified \(status.st_mtim.tv_sec)"
    }()
}
