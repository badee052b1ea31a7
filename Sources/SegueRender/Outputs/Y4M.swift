import CSegueKernels
import SegueCore

/// YUV4MPEG2 framing, 4:4:4 (`C444`) or 4:2:0 (`C420jpeg`: each chroma sample the mean of a 2x2 block),
/// which `ffmpeg -i -` reads: full-range BT.601 (JPEG) YCbCr for `--format y4m`, and the encoding of the video
/// for the frames Segue streams into ffmpeg (`YCbCrEncoding.video`). Y4M says the range (`XCOLORRANGE`) but
/// not the matrix: the video's tags say that.
public struct Y4M: Sendable {
    /// How the chroma planes are sampled.
    public enum Chroma: String, Sendable {
        /// Every pixel its own Cb and Cr (`C444`).
        case c444 = "444"
        /// One Cb and Cr for each 2x2 block, their mean (`C420jpeg`).
        case c420 = "420"
    }

    /// The stream's size, as its header says.
    let width: Int
    let height: Int
    /// The frames' size: the stream's, or one pixel less on a side that `evenSize` made even (the frames' last
    /// column or row is repeated into the stream's, so a codec's 4:2:0 pad shows the edge, not black).
    let frameWidth: Int
    let frameHeight: Int
    let fps: Double
    let chroma: Chroma
    var encoding: YCbCrEncoding = .jpeg

    /// A stream of `width` x `height` frames; `evenSize` makes the stream's sides even, each frame's edge repeated.
    package init(width: Int, height: Int, fps: Double, chroma: Chroma, encoding: YCbCrEncoding = .jpeg, evenSize: Bool = false) {
        self.frameWidth = width
        self.frameHeight = height
        self.width = evenSize ? width + width % 2 : width
        self.height = evenSize ? height + height % 2 : height
        self.fps = fps
        self.chroma = chroma
        self.encoding = encoding
    }

    /// Whether the stream is larger than its frames (an odd side made even).
    var padded: Bool { width != frameWidth || height != frameHeight }

    /// The frame rate as ffmpeg takes it: `30/1`, `29970/1000`.
    var rate: String { Self.rate(fps) }

    /// `fps` as ffmpeg takes a frame rate, for Y4M's header and for a raw stream's `-r`.
    static func rate(_ fps: Double) -> String {
        fps == fps.rounded() ? "\(Int(fps))/1" : "\(Int((fps * 1000).rounded()))/1000"
    }

    var header: [UInt8] {
        let rate = String(self.rate.map { $0 == "/" ? ":" : $0 })
        let tag = chroma == .c444 ? "C444" : "C420jpeg"
        let range = encoding.range == .full ? "FULL" : "LIMITED"
        // Y4M has no colour tag: an X comment says a Display P3 stream's space (sRGB, as before, says nothing).
        let space = encoding.colourSpace == .srgb ? "" : " XSEGUE_COLOUR_SPACE=DISPLAY-P3"
        return Array("YUV4MPEG2 W\(width) H\(height) F\(rate) Ip A1:1 \(tag) XCOLORRANGE=\(range)\(space)\n".utf8)
    }

    /// Whether the planes' C kernel takes its AVX2 body.
    static let avx2 = segue_has_avx2()

    /// One `FRAME` with its planes, from a premultiplied frame (the background makes every frame opaque): the
    /// planes by the C kernel (`segue_ycbcr_planes`), byte for byte `referenceFrame`'s. 241 circle-spread
    /// frames at 1920x1080 to /dev/null, 2 cores: 4:4:4 1.92 s with the Swift loops (15 ms of CPU a frame)
    /// -> 0.38 s with the kernel, 4:2:0 0.88 -> 0.33 s.
    package func frame(_ given: Pixmap, avx2: Bool = Self.avx2) -> [UInt8] {
        let pixmap = given.width == width && given.height == height ? given : given.edgeExtended(width: width, height: height)
        let (blank, n, cw, ch) = blankFrame()
        var out = blank
        precondition(pixmap.width == width && pixmap.height == height, "a \(pixmap.width)x\(pixmap.height) frame in a \(width)x\(height) stream")
        guard n > 0 else { return out }
        var weights = encoding.weights
        out.withUnsafeMutableBufferPointer { buffer in
            let y = buffer.baseAddress! + 6, u = y + n, v = u + cw * ch
            pixmap.pixels.withUnsafeBufferPointer { px in
                segue_ycbcr_planes(px.baseAddress!, width, height, chroma == .c420, &weights, y, u, v, avx2)
            }
        }
        return out
    }

    /// The planes of this stream's frames, for a renderer that converts frames itself (`.ycbcrPlanes`): the
    /// same bytes as `frame` gives after its `FRAME` line.
    package var planes: YCbCrPlanes { encoding.planes(subsampled: chroma == .c420) }

    /// What starts every frame of the stream.
    static let frameHeader = Array("FRAME\n".utf8)

    /// One `FRAME` with planes already converted (`planes`' layout, the renderer's) of a `frameWidth` x
    /// `frameHeight` frame. Where the stream is padded, each Y row's last sample and the last Y row are repeated
    /// (at 4:2:0 the chroma planes of an odd side already have the even side's size, their last samples the
    /// edge's own).
    func frame(planes bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(6 + planes.byteCount(width: width, height: height))
        out += Self.frameHeader
        guard padded else {
            out += bytes
            return out
        }
        let w = frameWidth, h = frameHeight
        for y in 0..<height {
            let row = bytes[min(y, h - 1) * w ..< min(y, h - 1) * w + w]
            out += row
            if width > w { out.append(row.last!) }
        }
        let chroma = planes.chromaSize(width: w, height: h), padChroma = planes.chromaSize(width: width, height: height)
        if chroma == padChroma {
            out += bytes[(w * h)...]
        } else {
            // 4:4:4: each chroma plane's edge repeated as Y's is.
            for plane in 0..<2 {
                let base = w * h + plane * w * h
                for y in 0..<height {
                    let row = bytes[base + min(y, h - 1) * w ..< base + min(y, h - 1) * w + w]
                    out += row
                    if width > w { out.append(row.last!) }
                }
            }
        }
        return out
    }

    /// A `FRAME` line and zeroed planes, with the luma's size and the chroma planes' width and height.
    private func blankFrame() -> (out: [UInt8], n: Int, cw: Int, ch: Int) {
        let n = width * height
        let cw = chroma == .c444 ? width : (width + 1) / 2, ch = chroma == .c444 ? height : (height + 1) / 2
        var out = [UInt8](repeating: 0, count: 6 + n + 2 * cw * ch)
        out.replaceSubrange(0..<6, with: Array("FRAME\n".utf8))
        return (out, n, cw, ch)
    }

    /// `frame` written plainly in Swift, pixel by pixel: the function the kernel is tested against.
    func referenceFrame(_ pixmap: Pixmap) -> [UInt8] {
        let (blank, n, cw, ch) = blankFrame()
        var out = blank
        let w = encoding.weights
        out.withUnsafeMutableBufferPointer { buffer in
            let y = buffer.baseAddress! + 6, u = y + n, v = u + cw * ch
            pixmap.pixels.withUnsafeBufferPointer { px in
                // Y at full resolution; Cb and Cr from the mean of each chroma block.
                for i in 0..<n {
                    let p = px[i]
                    let r = Int32(p & 0xFF), g = Int32(p >> 8 & 0xFF), b = Int32(p >> 16 & 0xFF)
                    y[i] = UInt8(clamping: ((w.yr * r + w.yg * g + w.yb * b + 32768) >> 16) + w.yOffset)
                }
                let sx = chroma == .c444 ? 1 : 2, sy = sx
                for cy in 0..<ch {
                    for cx in 0..<cw {
                        var r: Int32 = 0, g: Int32 = 0, b: Int32 = 0, count: Int32 = 0
                        for dy in 0..<sy where cy * sy + dy < height {
                            for dx in 0..<sx where cx * sx + dx < width {
                                let p = px[(cy * sy + dy) * width + cx * sx + dx]
                                r += Int32(p & 0xFF); g += Int32(p >> 8 & 0xFF); b += Int32(p >> 16 & 0xFF)
                                count += 1
                            }
                        }
                        r /= count; g /= count; b /= count
                        u[cy * cw + cx] = UInt8(clamping: ((w.ur * r + w.ug * g + w.ub * b + 32768) >> 16) + 128)
                        v[cy * cw + cx] = UInt8(clamping: ((w.vr * r + w.vg * g + w.vb * b + 32768) >> 16) + 128)
                    }
                }
            }
        }
        return out
    }
}
