import CEGL
import Foundation

/// Reference counts of initialised EGL displays, process-wide.
///
/// `eglGetPlatformDisplayEXT` hands out the same `EGLDisplay` for the same platform and native display (every
/// surfaceless renderer shares one), and `eglInitialize`/`eglTerminate` do not count: terminating a display
/// would pull it from under every other renderer in the process. So displays are initialised on first use
/// and terminated when their last user lets go, under one lock.
enum EGLDisplayRegistry {
    private final class Table: @unchecked Sendable {
        let lock = NSLock()
        var counts: [UnsafeMutableRawPointer: Int] = [:]
    }

    private static let table = Table()

    /// Initialises `display` if no one holds it yet; returns its EGL version.
    static func retain(_ display: EGLDisplay) throws -> (major: Int32, minor: Int32) {
        table.lock.lock()
        defer { table.lock.unlock() }
        var major: EGLint = 0, minor: EGLint = 0
        // eglInitialize on an initialised display only reports the version.
        guard eglInitialize(display, &major, &minor) != EGLBoolean(EGL_FALSE) else {
            throw EGLError.last("eglInitialize")
        }
        table.counts[display, default: 0] += 1
        return (major, minor)
    }

    /// Lets go of `display`, terminating it when this was the last user.
    static func release(_ display: EGLDisplay) {
        table.lock.lock()
        defer { table.lock.unlock() }
        let count = (table.counts[display] ?? 1) - 1
        if count > 0 {
            table.counts[display] = count
        } else {
            table.counts[display] = nil
            eglTerminate(display)
        }
    }
}
