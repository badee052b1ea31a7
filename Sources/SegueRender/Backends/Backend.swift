import Foundation
import SegueCore
import SegueCPU
import SegueGLES

/// Which renderer draws a job.
public enum BackendChoice: String, CaseIterable, Sendable {
    /// What `Calibration` measured fastest here for the job's frame size and output (RGBA or YCbCr planes): the
    /// CPU compositor, or GLES on one of its paths; the CPU compositor when no EGL context can be made or GLES
    /// cannot be timed (`makeRenderer`).
    case auto
    /// The CPU compositor, on all cores (or `RenderJob.threads`).
    case cpu
    /// GLES on the path measured fastest here for the job's output (`Calibration`), the raster path where
    /// nothing is measured.
    case gles
    /// GLES, each draw item a quad through the raster units (`layer.frag`).
    case glesRaster = "gles-raster"
    /// GLES, each frame one compute dispatch (`composite.comp`, OpenGL ES 3.1): on the compute path a cached
    /// calibration found faster for the job's output (`compute`, or where the context has it
    /// `compute-staged`), else `compute`.
    case glesCompute = "gles-compute"

    /// The frames a GLES renderer holds in its read-back buffers at once (`GLESRenderer.readbackBuffers`), for a
    /// job's memory estimate.
    static var glesReadbackBuffers: Int { GLESRenderer.readbackBuffers }

    /// Whether this choice draws with GLES only.
    public var isGLES: Bool { self == .gles || self == .glesRaster || self == .glesCompute }

    /// Whether this choice forces a compute path (`gles-compute`): a job tells of frames that path could not draw.
    var forcesCompute: Bool { forcedPath?.isCompute == true }

    /// The GLES path a forced choice draws by where nothing is measured.
    var forcedPath: GLESPath? {
        switch self {
        case .glesRaster: return .raster
        case .glesCompute: return .compute
        default: return nil
        }
    }

    /// Whether this choice may draw by the GLES path named `path`: `gles-raster` only by `raster`,
    /// `gles-compute` by any compute path (`compute`, and `compute-staged`: the dispatch writing device memory,
    /// copied into the read-back ring), `gles` and `auto` by any.
    func draws(by path: String) -> Bool {
        switch self {
        case .glesRaster: return path == GLESPath.raster.rawValue
        case .glesCompute: return GLESPath(rawValue: path)?.isCompute == true
        case .cpu: return false
        case .auto, .gles: return true
        }
    }

    /// The renderer for this choice. `auto` takes what `Calibration` measured fastest on this machine for a
    /// `frameSize` frame (1920x1080 when nil) read back as YCbCr `planes` or as RGBA: the CPU compositor, or
    /// GLES on one of its paths (planes converted on the GPU or by the C kernel), measured the first time and
    /// cached (not when the machine was busy: `Calibration.busyMachine`, said in one `note`); the CPU compositor
    /// when no context can be made (then with one `note` saying why).
    /// `gles` takes the GLES path (and, for planes, where they are converted) that a cached calibration found
    /// fastest for this output (the raster path when none is cached); `gles-raster` forces the raster path,
    /// and `gles-compute` a compute path: the one a cached calibration found faster for this output, else
    /// `compute`. A GLES choice, or a forced `platform`, with no usable EGL is a failure. A job that plays
    /// custom shaders (`needsShaders`, naming them) needs GLES: `cpu` is then `.unsupported(backend: "cpu")`.
    public func makeRenderer(on target: GLESTarget? = nil, threads: Int? = nil, needsShaders: SegueError.Message? = nil,
                             frameSize: (width: Int, height: Int)? = nil, planes: Bool = false,
                             calibrationFile: URL? = Calibration.cacheFile(),
                             note: (String) -> Void = { _ in }) throws -> any Renderer {
        try makeRenderer(on: target, threads: threads, needsShaders: needsShaders, frameSize: frameSize, planes: planes,
                         calibrationFile: calibrationFile, busy: { Calibration.busyMachine() }, note: note)
    }

    /// `makeRenderer`, with the rule that says whether the machine is too busy to cache a calibration
    /// (`Calibration.load`'s `busy`; a test's stand-in).
    func makeRenderer(on target: GLESTarget?, threads: Int?, needsShaders: SegueError.Message?,
                      frameSize: (width: Int, height: Int)?, planes: Bool, calibrationFile: URL?,
                      busy: () -> String?, note: (String) -> Void) throws -> any Renderer {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let platform = target?.egl.platform, device = target?.egl.device
        if let shaders = needsShaders {
            if self == .cpu {
                throw SegueError(.unsupported(backend: "cpu"), "\(message: shaders) needs the GLES backend (\(option: .backend, value: "auto", "auto") or gles): the CPU compositor does not run GLSL")
            }
            do {
                return try on(try GLESRenderer(platform: platform, device: device).tuneForDevice())
            } catch {
                throw SegueError(SegueError.from(error).kind, "\(message: shaders) needs the GLES backend, which is unavailable: \(error)")
            }
        }
        if self == .cpu { return CPUCompositor(threads: threads ?? cores) }
        do {
            let gles = try GLESRenderer(platform: platform, device: device)
            let sizeClass = Calibration.SizeClass(width: frameSize?.width ?? 1920, height: frameSize?.height ?? 1080)
            if self == .auto {
                // `auto` draws with what was measured fastest here for this output (on a software rasterizer
                // such as llvmpipe, which shares the CPU's cores, that is the CPU compositor).
                let decision: Calibration.Decision
                do {
                    decision = try Calibration.load(gles: gles, cores: cores, sizeClass: sizeClass, file: calibrationFile, busy: busy, note: note)
                        .decision(planes: planes, paths: gles.paths)
                } catch {
                    note("auto could not time GLES here (\(error)); using the CPU compositor")
                    return CPUCompositor(threads: threads ?? cores)
                }
                guard decision.backend == .gles, let path = decision.path else { return CPUCompositor(threads: threads ?? cores) }
                let tuned = gles.tuneForDevice()
                try tuned.use(path: path)
                tuned.convertsPlanesOnGPU = decision.planesOnGPU
                return tuned
            }
            // A GLES choice: the path measured fastest for this output among those it may draw by, where a
            // calibration is cached.
            let tuned = gles.tuneForDevice()
            let measured = Calibration.current(in: calibrationFile, gles: gles, cores: cores, sizeClass: sizeClass)?
                .ranked(planes: planes, paths: gles.paths)
                .first { $0.candidate.backend == .gles && draws(by: $0.candidate.path ?? "") }
            if let measured, let path = measured.candidate.path {
                do {
                    try tuned.use(path: path)
                } catch {
                    throw SegueError(.unsupported(backend: rawValue), "the \(rawValue) backend is unavailable: \(error)")
                }
                if self == .gles, planes { tuned.convertsPlanesOnGPU = measured.candidate.planesOnGPU }
                return tuned
            }
            return try on(tuned)
        } catch {
            if isGLES || platform != nil || device != nil {
                throw SegueError(SegueError.from(error).kind, "the GLES backend is unavailable: \(error)")
            }
            note("GLES is unavailable (\(error)); using the CPU compositor")
            return CPUCompositor(threads: threads ?? cores)
        }
    }

    /// `gles` on the path this choice names.
    fileprivate func on(_ gles: GLESRenderer) throws -> GLESRenderer {
        if let path = forcedPath {
            do {
                try gles.use(path)
            } catch {
                throw SegueError(.unsupported(backend: rawValue), "the \(rawValue) backend is unavailable: \(error)")
            }
        }
        return gles
    }

    /// What `auto` draws with here, and why, for `segue info` and doctor: for a 1920x1080 job read back as RGBA
    /// (PNG frames, raw RGBA) and as planes (Y4M, video), from the calibration (measured now when none is
    /// cached for this build, or when `recalibrate`: then measured again and the cached one replaced).
    package static func autoChoice(calibrationFile: URL? = Calibration.cacheFile(), recalibrate: Bool = false) -> String {
        let gles: GLESRenderer
        do {
            gles = try GLESRenderer()
        } catch EGLError.libraryUnavailable(let line) {
            return "cpu (GLES is unavailable: \(line))"
        } catch {
            return "cpu (no EGL platform gave a GLES 3 context)"
        }
        do {
            let cores = ProcessInfo.processInfo.activeProcessorCount
            var notes: [String] = []
            let calibration = try Calibration.load(gles: gles, cores: cores, sizeClass: .fullHD, file: calibrationFile,
                                                   recalibrate: recalibrate, note: { notes.append($0) })
            // The decision in words, here where it is shown.
            func say(_ d: Calibration.Decision) -> String {
                let name = d.backend == .cpu ? "cpu" : "\(d.taken.candidate.name) on \(gles.platform.rawValue)" + (d.planesOnGPU ? ", planes on the GPU" : "")
                let ratio = d.runnerUp.map {
                    let other = $0.candidate.name + ($0.candidate.planesOnGPU ? " (planes on the GPU)" : "")
                    return String(format: ", %.2fx faster than %@", $0.milliseconds / max(d.milliseconds, 1e-9), other)
                } ?? ""
                return "\(name) (\(String(format: "%.2f", d.milliseconds)) ms a frame\(ratio))"
            }
            return "RGBA outputs: \(say(calibration.decision(planes: false, paths: gles.paths))); "
                + "planes outputs: \(say(calibration.decision(planes: true, paths: gles.paths))); "
                + "measured on \(gles.info.renderer) \(calibration.summary)"
                + notes.map { " (\($0))" }.joined()
        } catch {
            return "cpu (GLES could not be timed here: \(error))"
        }
    }
}

extension BackendChoice {
    /// Where a GLES renderer runs: an EGL platform (`gbm`, `device`, `surfaceless`, tried in that order when
    /// none is given) and, optionally, which of its devices. Written `device`, `device:1`,
    /// `gbm:/dev/dri/renderD129`, or a bare DRM node (`/dev/dri/renderD129`, the EGL device on that node).
    public struct GLESTarget: Sendable, Hashable, CustomStringConvertible {
        package let egl: EGLTarget

        package init(_ egl: EGLTarget) { self.egl = egl }

        /// Parses the forms above; nil for anything else.
        public init?(_ text: String) {
            guard let egl = EGLTarget(text) else { return nil }
            self.egl = egl
        }

        /// The target as written: `device:1`.
        public var description: String { egl.description }

        /// The platform's name (`device`).
        public var platform: String { egl.platform.rawValue }

        /// The platforms, in the order a renderer tries them.
        public static var platforms: [String] { EGLPlatform.allCases.map(\.rawValue) }
    }
}

extension Calibration {
    /// The GLES paths a figure may name when the renderer is not at hand (`GLESPath`'s; here, where the job layer
    /// meets the GLES backend).
    public static var knownPaths: [String] { GLESPath.allCases.map(\.rawValue) }
}
