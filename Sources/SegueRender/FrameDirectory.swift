import Foundation
import SegueCore
import SegueImageIO

/// A directory of `frame_%05d.png` files. A file under its final name is complete (it was renamed into place),
/// so `--resume` skips it; temporary files (`.frame_00012.png.tmp-<pid>`) left by a killed run are removed
/// before rendering, but only those of frames this shard renders, so shards sharing the directory never touch
/// each other's files.
struct FrameDirectory {
    let path: String

    /// Creates the directory if needed.
    init(creating path: String) throws {
        self.path = path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw JobError.failure("cannot create the output directory '\(path)': \((error as NSError).localizedFailureReason ?? error.localizedDescription)")
        }
    }

    /// `frame_00012.png` for frame 12.
    static func fileName(_ index: Int) -> String { String(format: "frame_%05d.png", index) }

    /// The frame index of `frame_00012.png` or of its temporary `.frame_00012.png.tmp-123`.
    static func index(of name: String, temporary: Bool) -> Int? {
        var s = Substring(name)
        if temporary {
            guard s.hasPrefix(".frame_"), let r = s.range(of: ".png.tmp-") else { return nil }
            s = s[s.index(after: s.startIndex)..<r.lowerBound]
        } else {
            guard s.hasSuffix(".png") else { return nil }
            s = s.dropLast(4)
        }
        guard s.hasPrefix("frame_") else { return nil }
        let digits = s.dropFirst("frame_".count)
        guard digits.count >= 5, digits.allSatisfy(\.isASCII), let k = Int(digits) else { return nil }
        return k
    }

    private func names() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] }

    /// Removes the temporary files of the frames `owned` says are this job's.
    func removeTemporaryFiles(owned: (Int) -> Bool) {
        for name in names() {
            if let k = Self.index(of: name, temporary: true), owned(k) {
                unlink((path as NSString).appendingPathComponent(name))
            }
        }
    }

    /// The frames already complete.
    func completeFrames() -> Set<Int> {
        Set(names().compactMap { Self.index(of: $0, temporary: false) })
    }
}

/// Temporary files (`.<name>.tmp-<pid>`) that a killed run left beside a stream or video file: removed before a
/// new one is written, unless the process that owns one is still running.
enum StaleTemporaries {
    static func remove(besides path: String) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let prefix = FileWriter.temporaryPrefix(for: url.lastPathComponent)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)) else { continue }
            if pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH {
                unlink((directory as NSString).appendingPathComponent(name))
            }
        }
    }
}
