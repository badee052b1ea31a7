import SegueCore
import CEGL

/// Why the GLES renderer could not get an EGL display or context. Each case prints as one line that names
/// the failing call or platform: `eglInitialize: EGL_NOT_INITIALIZED`.
public enum EGLError: Error, Equatable, CustomStringConvertible {
    /// An EGL call failed; `code` is what `eglGetError` returned.
    case call(String, code: Int32)
    /// A platform that was asked for (or tried) cannot be used, and why.
    case platformUnavailable(EGLPlatform, reason: String)
    /// Every platform was tried and none gave a context; the probes say why each failed.
    case noPlatform([PlatformProbe])
    /// libEGL.so.1 or libGLESv2.so.2 cannot be loaded, or lacks a function; the line names which (and what
    /// to install).
    case libraryUnavailable(String)
    /// Context creation was switched off on purpose (`SEGUE_EGL_FAIL=1`, for fault tests).
    case disabled(String)

    public var description: String {
        switch self {
        case let .call(call, code):
            return "\(call): \(EGLError.name(of: code))"
        case let .platformUnavailable(platform, reason):
            return "EGL platform \(platform.rawValue) is unavailable: \(reason)"
        case let .noPlatform(probes):
            return "no EGL platform gave a GLES 3 context (" + probes.map(\.description).joined(separator: "; ") + ")"
        case let .libraryUnavailable(line):
            return line
        case let .disabled(why):
            return "EGL context creation is disabled: \(why)"
        }
    }

    /// The failure of `call`, with the code `eglGetError` holds now.
    static func last(_ call: String) -> EGLError { .call(call, code: eglGetError()) }

    /// The name of an EGL error code (`EGL_BAD_MATCH`), or its hex value when it is not one.
    public static func name(of code: Int32) -> String {
        switch code {
        case EGL_SUCCESS: return "EGL_SUCCESS"
        case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED"
        case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS"
        case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC"
        case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE"
        case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG"
        case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT"
        case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE"
        case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY"
        case EGL_BAD_MATCH: return "EGL_BAD_MATCH"
        case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP"
        case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW"
        case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER"
        case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE"
        case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST"
        case EGL_BAD_DEVICE_EXT: return "EGL_BAD_DEVICE_EXT"
        default: return "EGL error 0x" + String(UInt32(bitPattern: code), radix: 16, uppercase: true)
        }
    }
}

extension EGLError: SegueErrorConvertible {
    /// A GPU failure naming the EGL call.
    public var segueError: SegueError {
        if case let .call(call, _) = self { return SegueError(.gpu(call: call), description) }
        return SegueError(.gpu(call: "eglGetDisplay"), description)
    }
}
