import CLCMS2
import SegueCore

extension ColourSpace {
    /// An sRGB colour (an effect's, a background) in this space, through Little CMS 2; itself in sRGB. Alpha is
    /// kept; a component that falls outside 0...1 is held there.
    public func converting(sRGB colour: Color) -> Color {
        guard self != .srgb, let transform = ColourSpace.colourTransforms[self] else { return colour }
        var rgb = [colour.red, colour.green, colour.blue]
        var out = [0.0, 0.0, 0.0]
        cmsDoTransform(transform, &rgb, &out, 1)
        func held(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 0 }
        return Color(red: held(out[0]), green: held(out[1]), blue: held(out[2]), alpha: colour.alpha)
    }

    /// A premultiplied sRGB pixmap (a sample screen, a program's image, a clip's frame) in this space: each
    /// pixel's straight colour through the same transform an untagged file's pixels go through, premultiplied
    /// again. Itself in sRGB.
    public func converting(sRGB pixmap: Pixmap) -> Pixmap {
        guard self != .srgb, case let .success(transform?) = ColourConversion.transform(from: .untagged, into: self, layout: .rgba8) else {
            return pixmap
        }
        var pixels = pixmap.pixels
        pixels.withUnsafeMutableBufferPointer { buffer in
            for i in buffer.indices where buffer[i] >> 24 != 255 && buffer[i] >> 24 != 0 {
                let s = Pixmap.unpremultiply(buffer[i])
                buffer[i] = Pixmap.pack(r: UInt32(s.r), g: UInt32(s.g), b: UInt32(s.b), a: UInt32(s.a))
            }
            transform.apply(UnsafeRawPointer(buffer.baseAddress!), buffer.baseAddress!, count: buffer.count)
        }
        ImageDecoder.premultiplyInPlace(&pixels)
        return Pixmap(width: pixmap.width, height: pixmap.height, pixels: pixels)
    }

    /// sRGB into each other space, in double precision (lcms2 leaves it unbounded; `converting` holds it).
    private nonisolated(unsafe) static let colourTransforms: [ColourSpace: cmsHTRANSFORM] = {
        var table: [ColourSpace: cmsHTRANSFORM] = [:]
        for space in ColourSpace.allCases where space != .srgb {
            table[space] = cmsCreateTransform(ColourProfile.srgb.handle, CLCMS2_TYPE_RGB_DBL, ColourProfile.of(space).handle,
                                              CLCMS2_TYPE_RGB_DBL, UInt32(INTENT_RELATIVE_COLORIMETRIC), CLCMS2_FLAGS_NOCACHE)
        }
        return table
    }()
}
