import SegueCore
@testable import SegueImageIO
import SegueSamples
import Testing

/// Segue's own PNG writer (row filters chosen here, libdeflate, chunks and CRCs written here) at every level, on
/// real frames: the sample screens, a frame half way between them, and a translucent one (colour type 6).
@Suite struct PNGEncoderLevelTests {
    static let home = SampleScreens.home(width: 375, height: 667, scale: 2)
    static let detail = SampleScreens.detail(width: 375, height: 667, scale: 2)

    /// The two screens mixed half and half, then a band made translucent (so the image is not opaque).
    static func frames() -> [(String, Pixmap)] {
        var mixed = home
        for i in mixed.pixels.indices {
            let a = home.pixels[i], b = detail.pixels[i]
            mixed.pixels[i] = (a >> 1 & 0x7F7F_7F7F) &+ (b >> 1 & 0x7F7F_7F7F) | 0xFF00_0000
        }
        var translucent = detail
        for y in 100..<400 {
            let alpha = UInt32(y % 256)
            for x in 0..<translucent.width {
                let p = translucent.pixels[y * translucent.width + x]
                translucent.pixels[y * translucent.width + x] = Pixmap.premultiply(
                    r: p & 0xFF, g: p >> 8 & 0xFF, b: p >> 16 & 0xFF, a: alpha)
            }
        }
        return [("home", home), ("mixed", mixed), ("translucent", translucent)]
    }

    @Test(arguments: Array(0...9))
    func everyLevelRoundTripsOnRealFrames(level: Int) throws {
        var sizes: [String] = []
        for (name, frame) in Self.frames() {
            let png = try PNGEncoder.encode(frame, compressionLevel: level)
            #expect(png[25] == (frame.isOpaque ? 2 : 6))
            let decoded = try ImageDecoder.decodePNG(data: png, name: "\(name).png")
            #expect(decoded == frame, "level \(level), \(name)")
            sizes.append("\(name) \(png.count) bytes")
        }
        print("PNG level \(level) at 750x1334: \(sizes.joined(separator: ", "))")
    }

    @Test func aReusedWorkspaceGivesTheSameBytes() throws {
        // One workspace through frames of two sizes, both colour types and levels in turn (its buffers grow,
        // shrink in use, and its compressor changes level): every file as a fresh encode writes it.
        let workspace = PNGEncoder.Workspace()
        let small = SampleScreens.home(width: 120, height: 90, scale: 1)
        let frames = Self.frames().map(\.1) + [small] + Self.frames().map(\.1).reversed()
        for (n, frame) in frames.enumerated() {
            for level in [2, 6, 2, 0] {
                let reused = try PNGEncoder.encode(frame, compressionLevel: level, knownOpaque: frame.isOpaque && n % 2 == 0,
                                                   workspace: workspace)
                let fresh = try PNGEncoder.encode(frame, compressionLevel: level)
                #expect(reused == fresh, "frame \(n) at level \(level)")
            }
        }
    }

    @Test func higherLevelsAreNotLarger() throws {
        // Level 0 is stored; from 2 up, each level at least as small as level 2 on the same frame.
        for (name, frame) in Self.frames() {
            let stored = try PNGEncoder.encode(frame, compressionLevel: 0).count
            let two = try PNGEncoder.encode(frame, compressionLevel: 2).count
            let nine = try PNGEncoder.encode(frame, compressionLevel: 9).count
            #expect(stored >= frame.width * frame.height * 3, "\(name): level 0 stores the samples")
            #expect(two < stored / 10, "\(name): level 2 compresses")
            #expect(nine <= two, "\(name): level 9 \(nine) bytes, level 2 \(two)")
        }
    }

    @Test func oddSizesRoundTrip() throws {
        // One-pixel rows and columns (Sub and Paeth have no left neighbour; the first row has none above).
        for (w, h) in [(1, 1), (1, 9), (9, 1), (3, 2)] {
            var p = Pixmap(width: w, height: h)
            for i in p.pixels.indices { p.pixels[i] = Pixmap.pack(r: UInt32(i * 37 % 256), g: UInt32(i * 91 % 256), b: 7, a: 255) }
            for level in [0, 1, 2, 3, 9] {
                #expect(try ImageDecoder.decodePNG(data: PNGEncoder.encode(p, compressionLevel: level), name: "odd.png") == p)
            }
        }
    }

    /// The C row kernels against their Swift twins on whole frames, at the levels that use them (the sampled
    /// search at 2 and 3, the conversion and the filters at all), on the frames above and on a 1920x1080 one.
    @Test(arguments: [1, 2, 3, 6])
    func rowKernelsWriteTheSameBytes(level: Int) throws {
        let wide = SampleScreens.home(width: 960, height: 540, scale: 2)
        for (name, frame) in Self.frames() + [("home 1920x1080", wide)] {
            let kernels = try PNGEncoder.encode(frame, compressionLevel: level, knownOpaque: false, workspace: nil, rowKernels: true)
            let swift = try PNGEncoder.encode(frame, compressionLevel: level, knownOpaque: false, workspace: nil, rowKernels: false)
            let first = (0..<min(kernels.count, swift.count)).first { kernels[$0] != swift[$0] } ?? min(kernels.count, swift.count)
            #expect(kernels.count == swift.count && first == kernels.count,
                    "level \(level), \(name): \(kernels.count) against \(swift.count) bytes, first differing at byte \(first)")
        }
    }
}
