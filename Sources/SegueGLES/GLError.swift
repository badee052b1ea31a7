import SegueCore
import CEGL

/// A failure of the GLES renderer once it has a context. Each case prints as one line naming the failing
/// call, shader or limit: `glTexImage2D: GL_OUT_OF_MEMORY`, `layer.frag: compile failed: ...`.
public enum GLError: Error, Equatable, CustomStringConvertible {
    /// A GL call left an error; `code` is what `glGetError` returned.
    case call(String, code: UInt32)
    /// A shader did not compile; `file` is its name in `Shaders/`, `log` the driver's info log.
    case shaderCompile(file: String, log: String)
    /// A custom transition did not compile: `file` as the user named it, `messages` the driver's, one per
    /// line, each `FILE:LINE: error: ...` with the file's own line numbers.
    case transitionCompile(file: String, messages: [String])
    /// The program did not link.
    case programLink(files: [String], log: String)
    /// A size over one of the context's limits: `what` (`frame 20000x100`), the limit's GL name and value.
    case limitExceeded(what: String, limit: String, value: Int)
    /// The offscreen framebuffer is not complete; `status` is `glCheckFramebufferStatus`'s answer.
    case framebufferIncomplete(status: UInt32)
    /// A draw list or snapshot the renderer cannot draw (a snapshot that was never loaded).
    case invalidInput(String)

    public var description: String {
        switch self {
        case let .call(call, code):
            return "\(call): \(GLError.name(of: code))"
        case let .shaderCompile(file, log):
            return "\(file): compile failed: \(log.trimmingSpaces)"
        case let .transitionCompile(file, messages):
            return messages.isEmpty ? "\(file): compile failed" : messages.joined(separator: "\n")
        case let .programLink(files, log):
            return "linking \(files.joined(separator: " + ")) failed: \(log.trimmingSpaces)"
        case let .limitExceeded(what, limit, value):
            return "\(what) is over \(limit) (\(value) on this device)"
        case let .framebufferIncomplete(status):
            return "glCheckFramebufferStatus: framebuffer incomplete (0x\(String(status, radix: 16, uppercase: true)))"
        case let .invalidInput(message):
            return message
        }
    }

    /// Throws the first error GL holds after `call`, clearing the rest.
    static func check(_ call: @autoclosure () -> String) throws {
        let code = glGetError()
        guard code != GLenum(GL_NO_ERROR) else { return }
        while glGetError() != GLenum(GL_NO_ERROR) {}
        throw GLError.call(call(), code: code)
    }

    /// The name of a GL error code (`GL_INVALID_OPERATION`), or its hex value when it is not one.
    public static func name(of code: UInt32) -> String {
        switch Int32(bitPattern: code) {
        case GL_NO_ERROR: return "GL_NO_ERROR"
        case GL_INVALID_ENUM: return "GL_INVALID_ENUM"
        case GL_INVALID_VALUE: return "GL_INVALID_VALUE"
        case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION"
        case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION"
        case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY"
        default: return "GL error 0x" + String(code, radix: 16, uppercase: true)
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace || c == "\0" { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace || c == "\0" { s = s.dropLast() }
        return String(s)
    }
}

extension GLError: SegueErrorConvertible {
    /// A GPU failure naming the GL call, a shader the compiler rejected, or a limit of the context.
    public var segueError: SegueError {
        let kind: SegueError.Kind
        switch self {
        case let .call(call, _): kind = .gpu(call: call)
        case let .shaderCompile(file, _), let .transitionCompile(file, _): kind = .invalidShader(path: file)
        case .programLink: kind = .gpu(call: "glLinkProgram")
        case let .limitExceeded(what, _, _): kind = .resourceLimit(name: what)
        case .framebufferIncomplete: kind = .gpu(call: "glCheckFramebufferStatus")
        case .invalidInput: kind = .failed
        }
        return SegueError(kind, description)
    }
}
