import SegueCore
import SegueImageIO

/// Images a program holds as bytes (an upload, a message), decoded by the same decoder as a screen's file:
/// for `RenderJob.images`, which screens name as `memory:NAME`.
public enum ImageInput {
    /// Decodes PNG or JPEG `bytes` into premultiplied RGBA8. An image of more than `maxPixels` pixels is refused
    /// from its header, before any pixel is allocated (kind `.resourceLimit(name: "maxPixels")`); bytes that are
    /// empty, of another format or corrupt are `.inputUnreadable(path: name)`. `name` is what messages call the
    /// bytes (an upload's file name).
    public static func decode(_ bytes: [UInt8], name: String, maxPixels: Int = Limits.maxPixels) throws(SegueError) -> Pixmap {
        try SegueError.converting { try ImageDecoder.decode(data: bytes, name: name, maxPixels: maxPixels) }
    }
}
