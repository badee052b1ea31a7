import Foundation
import SegueCore
import SegueImageIO
import SegueSamples

/// The screens of a job, read and resampled to the job's pixel size once, before anything renders (clips are
/// probed then, and decoded frame by frame as the job draws).
enum Screens {
    /// The pixel size the sample screens are drawn at when nothing else sets it: 375x667 points.
    static func defaultSize(scale: Double) -> (width: Int, height: Int) {
        (Int((SampleScreens.defaultSize.width * scale).rounded()), Int((SampleScreens.defaultSize.height * scale).rounded()))
    }

    /// An image file (PNG, JPEG or HEIC), or `sample:home` / `sample:detail` drawn at `size` pixels (the default size
    /// when nil) at `scale` pixels per point.
    static func image(_ source: String, size: (width: Int, height: Int)?, scale: Double, maxPixels: Int,
                      space: ColourSpace = .srgb) throws -> Pixmap {
        if source.hasPrefix("sample:") {
            let (w, h) = size ?? defaultSize(scale: scale)
            try ensureRoom(source, width: w, height: h, bytesPerPixel: 8)  // drawn, then converted into the space
            let points = (width: Double(w) / scale, height: Double(h) / scale)
            switch source.dropFirst("sample:".count) {
            case "home": return space.converting(sRGB: SampleScreens.home(width: points.width, height: points.height, scale: scale))
            case "detail": return space.converting(sRGB: SampleScreens.detail(width: points.width, height: points.height, scale: scale))
            default: throw SegueError.invalidOption("screen", value: source, "unknown sample '\(source)' (use sample:home or sample:detail)")
            }
        }
        return try ImageInput.decode(contentsOf: source, maxPixels: maxPixels, into: space)
    }

    /// Refuses a `width` x `height` screen that cannot fit in the memory left, at `bytesPerPixel` while it is
    /// made, before it is made. The job's own budget is checked once its size is known, which for a job sized
    /// by its first screen is after that screen is read: a 12000x12000 PNG with `sample:detail` as the second
    /// screen under `ulimit -v 800000` ended the process in a failed allocation of the sample's 576 MB.
    static func ensureRoom(_ name: String, width: Int, height: Int, bytesPerPixel: Int,
                           available: Int? = MemoryBudget.available()) throws(SegueError) {
        guard let available else { return }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        let (needed, over) = pixels.multipliedReportingOverflow(by: bytesPerPixel)
        guard overflow || over || needed > available else { return }
        throw SegueError(.resourceLimit(name: "memory"), "'\(name)' at \(width)x\(height) pixels needs about \(MemoryBudget.mebibytes(overflow || over ? .max : needed)), and \(MemoryBudget.mebibytes(max(0, available))) is left")
    }

    /// `image` at `width` x `height` pixels, resampled when it is another size (refused first when the new one
    /// cannot fit).
    static func resampled(_ image: Pixmap, _ name: String, width: Int, height: Int) throws(SegueError) -> Pixmap {
        if image.width == width && image.height == height { return image }
        try ensureRoom(name, width: width, height: height, bytesPerPixel: 4)
        return Resampler.resample(image, width: width, height: height)
    }

    /// How a screen names an image a program holds in memory (`RenderJob.images`): `memory:NAME`.
    static let memoryPrefix = "memory:"

    /// The image `memory:NAME` names in `images`, held to what a file is: at least one pixel, at most
    /// `maxPixels`, and premultiplied RGBA8 (no colour channel above its alpha).
    static func memoryImage(_ source: String, in images: [String: Pixmap], maxPixels: Int) throws -> Pixmap {
        let name = String(source.dropFirst(memoryPrefix.count))
        guard let image = images[name] else {
            let known = images.keys.sorted().map { "\(memoryPrefix)\($0)" }
            throw SegueError(.inputUnreadable(path: source), "'\(source)' names no image of the job's (\(known.isEmpty ? "it has none" : known.joined(separator: ", ")))")
        }
        guard image.width > 0, image.height > 0 else {
            throw ImageIOError.invalidSize(path: source, width: image.width, height: image.height)
        }
        let (pixels, overflow) = image.width.multipliedReportingOverflow(by: image.height)
        if overflow || pixels > maxPixels {
            throw ImageIOError.tooManyPixels(path: source, width: image.width, height: image.height, limit: maxPixels)
        }
        if let k = image.pixels.firstIndex(where: { p in
            let a = p >> 24
            return p & 0xFF > a || (p >> 8) & 0xFF > a || (p >> 16) & 0xFF > a
        }) {
            throw SegueError(.invalidInput(path: source), "'\(source)' is not premultiplied RGBA8: pixel (\(k % image.width), \(k / image.width)) has a colour channel above its alpha")
        }
        return image
    }

    /// A screen that is a video clip: its file, and its own pixel size (ffprobe's), checked before anything
    /// renders; its frames are decoded while the job runs (`ClipReader`).
    struct Clip {
        var path: String
        var size: (width: Int, height: Int)
        /// Every frame opaque (its pixel format has no alpha).
        var isOpaque: Bool
        /// Quarter turns counterclockwise that make it upright (its display rotation); `size` is the turned size.
        var quarterTurns = 0
        /// What its stream says about its colour.
        var colour = ClipColour()
    }

    /// Reads every screen (`memory:NAME` from `memory`): those in `order` first (the first one read sets the pixel size unless `size` does),
    /// then the rest. Each still is resampled to that size where it differs (area-averaged when shrinking,
    /// Catmull-Rom when enlarging); a clip (`ClipReader.isClip`) is only probed here (with `control`, unless
    /// `probes` holds its probe by path already), for its size, colour and that ffmpeg opens it, and its declared size is held to `maxPixels` as a still's is, before
    /// anything is allocated at that size. A screen that cannot be read is a problem at `$.screens.NAME`.
    static func load(_ sources: [String: String], order: [String], size: (width: Int, height: Int)?, scale: Double,
                     maxPixels: Int, memory: [String: Pixmap] = [:], control: JobControl? = nil, space: ColourSpace = .srgb,
                     probes: [String: Result<ClipReader.Probe, any Error>] = [:], resolve: (String) -> String) -> (images: [String: Pixmap], clips: [String: Clip],
                                                                       size: (width: Int, height: Int)?,
                                                                       problems: [(name: String, error: SegueError)]) {
        var images: [String: Pixmap] = [:]
        var clips: [String: Clip] = [:]
        var size = size
        var problems: [(String, SegueError)] = []
        let names = order + sources.keys.sorted().filter { !order.contains($0) }
        for name in names {
            guard let source = sources[name], images[name] == nil, clips[name] == nil else { continue }
            do {
                let path = resolve(source)
                if source.hasPrefix(memoryPrefix) {
                    let image = space.converting(sRGB: try memoryImage(source, in: memory, maxPixels: maxPixels))
                    let (w, h) = size ?? (image.width, image.height)
                    size = (w, h)
                    images[name] = try resampled(image, source, width: w, height: h)
                    continue
                }
                if ClipReader.isClip(path) {
                    let probe = try (probes[path] ?? Result { try ClipReader.probe(path, control: control) }).get()
                    let (pixels, overflow) = probe.width.multipliedReportingOverflow(by: probe.height)
                    if overflow || pixels > maxPixels {
                        throw ImageIOError.tooManyPixels(path: path, width: probe.width, height: probe.height, limit: maxPixels)
                    }
                    let clip = Clip(path: path, size: (probe.width, probe.height), isOpaque: probe.isOpaque,
                                    quarterTurns: probe.quarterTurns, colour: probe.colour)
                    if size == nil { size = clip.size }
                    clips[name] = clip
                    continue
                }
                let image = try Self.image(path, size: size, scale: scale, maxPixels: maxPixels, space: space)
                let (w, h) = size ?? (image.width, image.height)
                size = (w, h)
                images[name] = try resampled(image, path, width: w, height: h)
            } catch {
                problems.append((name, SegueError.from(error)))
            }
        }
        return (images, clips, size, problems)
    }
}
