import SegueCore
import SegueImageIO

/// Images a program holds as bytes (an upload, a message), decoded by the same decoder as a screen's file:
/// for `RenderJob.images`, which screens name as `memory:NAME`.
public enum ImageInput {
    /// Decodes PNG, JPEG or HEIC `bytes` into premultiplied RGBA8. An image of more than `maxPixels` pixels is refused
    /// from its header, before any pixel is allocated (kind `.resourceLimit(name: "maxPixels")`); bytes that are
    /// empty, of another format or corrupt are `.inputUnreadable(path: name)`. `name` is what messages call the
    /// bytes (an upload's file name). An image that fits `maxPixels` but not the memory this process may still
    /// allocate is refused from its header too (kind `.resourceLimit(name: "memory")`), not by a failed allocation.
    public static func decode(_ bytes: [UInt8], name: String, maxPixels: Int = Limits.maxPixels) throws(SegueError) -> Pixmap {
        try decode(bytes, name: name, maxPixels: maxPixels, available: MemoryBudget.available())
    }

    /// Bytes a pixel of `bytes` may take while it is decoded, by its format (an estimate that errs high): 8 for
    /// PNG and JPEG (its RGBA8, and as much again for the decoder's rows and a 16-bit image's wider samples), 20
    /// for HEIC (libheif's planes and its 16-bit image beside the RGBA8).
    public static func decodingBytesPerPixel(of bytes: [UInt8]) -> Int { ImageDecoder.decodingBytesPerPixel(of: bytes) }

    /// An image file, read and decoded into `space` as `decode` decodes bytes: refused from its header when it
    /// cannot fit in the memory left (a screen of 12000x12000 pixels under `ulimit -v 800000` ended the process
    /// in a failed allocation).
    static func decode(contentsOf path: String, maxPixels: Int, into space: ColourSpace,
                       available: Int? = MemoryBudget.available()) throws(SegueError) -> Pixmap {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path, limit: InputFile.imageLimit(maxPixels: maxPixels))
        } catch {
            throw SegueError.from(error)
        }
        return try decode(bytes, name: path, maxPixels: maxPixels, into: space, available: available)
    }

    /// `decode`, with `available` bytes (nil: unknown) in place of what the machine says.
    static func decode(_ bytes: [UInt8], name: String, maxPixels: Int, into space: ColourSpace = .srgb,
                       available: Int?) throws(SegueError) -> Pixmap {
        let perPixel = decodingBytesPerPixel(of: bytes)
        let room = available.map { max(0, $0) / perPixel } ?? Int.max
        do {
            return try ImageDecoder.decode(data: bytes, name: name, maxPixels: min(maxPixels, room), into: space)
        } catch let ImageIOError.tooManyPixels(_, width, height, _) where room < maxPixels && width * height <= maxPixels {
            let needed = (width * height).multipliedReportingOverflow(by: perPixel)
            throw SegueError(.resourceLimit(name: "memory"), "'\(name)' is \(width)x\(height) pixels: decoding it needs about \(MemoryBudget.mebibytes(needed.overflow ? .max : needed.partialValue)), and \(MemoryBudget.mebibytes(available ?? 0)) is left")
        } catch {
            throw SegueError.from(error)
        }
    }
}
