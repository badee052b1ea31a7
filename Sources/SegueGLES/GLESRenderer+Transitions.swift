import CEGL
import SegueCore

/// A custom transition compiled for one `GLESRenderer`, with the value of each of its parameters: made once
/// per job by `GLESRenderer.prepare`, then drawn at any progress by that renderer's `draw` and `drawFrames`.
public final class PreparedTransition: PreparedShader, @unchecked Sendable {
    public let transition: ShaderTransition
    /// Every parameter's value: the defaults, with what was given to `prepare` over them.
    public let values: [String: ShaderValue]
    let program: TransitionProgram
    /// The textures of the `sampler2D` parameters' images, in `program.samplers`' order.
    let images: [GLuint]
    let owner: ObjectIdentifier

    init(transition: ShaderTransition, values: [String: ShaderValue], program: TransitionProgram, images: [GLuint],
         owner: ObjectIdentifier) {
        self.transition = transition
        self.values = values
        self.program = program
        self.images = images
        self.owner = owner
    }
}

extension GLESRenderer {
    /// Compiles `transition` on this renderer (once per text: later calls reuse the program) with `values`
    /// over its defaults (from `ShaderTransition.values(assigning:)`). Throws `GLError.transitionCompile`,
    /// whose lines read `FILE:LINE: error: ...` with the file's own line numbers, and `SegueError.invalidOption`
    /// for a value of a parameter the file does not declare, or of another type, or a `sampler2D` with no image.
    /// The images of `sampler2D` parameters are uploaded here, once per renderer and image.
    public func prepare(_ transition: ShaderTransition, values: [String: ShaderValue] = [:]) throws -> PreparedTransition {
        var all = transition.defaults
        for (name, value) in values {
            guard let parameter = transition.parameter(named: name) else {
                throw SegueError.invalidOption(name, of: transition.name, value: "\(value)", "\(transition.name) declares no parameter '\(name)'")
            }
            guard parameter.type == value.type else {
                throw SegueError.invalidOption(name, of: transition.name, value: "\(value)", "\(name) is declared \(parameter.type.rawValue), not \(value.type.rawValue)")
            }
            all[name] = value
        }
        try transition.checkImages(all)
        let (program, images) = try thread.sync {
            let program = try pipeline.transitionProgram(transition)
            let images = try program.samplers.map { try pipeline.imageTexture(all[$0.name]!.image!, name: $0.name) }
            return (program, images)
        }
        return PreparedTransition(transition: transition, values: all, program: program, images: images,
                                  owner: ObjectIdentifier(self))
    }

    /// Draws `transition` at `progress` (after the timing curve: 0 is `from`, 1 is `to`) into a `width` x `height`
    /// frame, `target` (resized if it differs), over the opaque `background`. It samples the snapshots loaded
    /// by `load(snapshots:)`: `[from, to]`, stretched to the frame.
    public func draw(_ transition: PreparedTransition, progress: Double, width: Int, height: Int,
                     background: Color = .black, into target: inout Pixmap) throws {
        try draw(.shader(transition, progress: progress, width: width, height: height, background: background), into: &target)
    }

    /// Draws one frame per value of `progress`, in order, and hands each to `deliver` as soon as its pixels are
    /// ready; frame k + 1 is drawn while frame k is read back, as `drawFrames(count:list:deliver:)` does.
    public func drawFrames(_ transition: PreparedTransition, progress: [Double], width: Int, height: Int,
                           background: Color = .black, deliver: (Int, Pixmap) throws -> Void) throws {
        try check(transition)
        try drawFrames(count: progress.count, frame: { .shader(transition, progress: progress[$0], width: width, height: height,
                                                               background: background) },
                       buffer: { nil }, deliver: deliver)
    }

    private func check(_ transition: PreparedTransition) throws {
        _ = try own(transition)
    }

    /// `prepared` as this renderer's own compiled transition.
    func own(_ prepared: any PreparedShader) throws -> PreparedTransition {
        guard let transition = prepared as? PreparedTransition, transition.owner == ObjectIdentifier(self) else {
            throw GLError.invalidInput("\(prepared.transition.name) was prepared by another renderer")
        }
        return transition
    }

    /// The background a transition's colour is laid over: opaque, or (0, 0, 0, 0) when transparent, where
    /// the shader's colour stays as it returns it.
    static func opaque(_ color: Color) -> UInt32 { color.backgroundPixel }
}
