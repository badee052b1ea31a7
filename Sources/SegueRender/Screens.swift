import Foundation
import SegueCore
import SegueImageIO
import SegueSamples

/// The screens of a job, read and resampled to the job's pixel size once, before anything renders.
enum Screens {
    /// The pixel size the sample screens are drawn at when nothing else sets it: 375x667 points.
    static func defaultSize(scale: Double) -> (width: Int, height: Int) {
        (Int((SampleScreens.defaultSize.width * scale).rounded()), Int((SampleScreens.defaultSize.height * scale).rounded()))
    }

    /// An image file (PNG or JPEG), or `sample:home` / `sample:detail` drawn at `size` pixels (the default size
    /// when nil) at `scale` pixels per point.
    static func image(_ source: String, size: (width: Int, height: Int)?, scale: Double, maxPixels: Int) throws -> Pixmap {
        if source.hasPrefix("sample:") {
            let (w, h) = size ?? defaultSize(scale: scale)
            let points = (width: Double(w) / scale, height: Double(h) / scale)
            switch source.dropFirst("sample:".count) {
            case "home": return SampleScreens.home(width: points.width, height: points.height, scale: scale)
            case "detail": return SampleScreens.detail(width: points.width, height: points.height, scale: scale)
            default: throw JobError.usage("unknown sample '\(source)' (use sample:home or sample:detail)")
            }
        }
        return try ImageDecoder.decode(contentsOf: source, maxPixels: maxPixels)
    }

    /// Reads every screen: those in `order` first (the first one read sets the pixel size unless `size` does),
    /// then the rest. Each is resampled to that size where it differs (area-averaged when shrinking,
    /// Catmull-Rom when enlarging). A screen that cannot be read is a problem at `$.screens.NAME`.
    static func load(_ sources: [String: String], order: [String], size: (width: Int, height: Int)?, scale: Double,
                     maxPixels: Int, resolve: (String) -> String) -> (images: [String: Pixmap], size: (width: Int, height: Int)?,
                                                                       problems: [(name: String, error: JobError)]) {
        var images: [String: Pixmap] = [:]
        var size = size
        var problems: [(String, JobError)] = []
        let names = order + sources.keys.sorted().filter { !order.contains($0) }
        for name in names {
            guard let source = sources[name], images[name] == nil else { continue }
            do {
                let image = try Self.image(resolve(source), size: size, scale: scale, maxPixels: maxPixels)
                let (w, h) = size ?? (image.width, image.height)
                size = (w, h)
                images[name] = image.width == w && image.height == h ? image : Resampler.resample(image, width: w, height: h)
            } catch {
                problems.append((name, JobError(classifying: error) ?? .failure("\(error)")))
            }
        }
        return (images, size, problems)
    }
}
