import Foundation
import SegueCore
import SegueCPU
import SegueGLES
import SegueImageIO
@testable import SegueRender
import SegueTestSupport
import Testing

private let edgeTools = ["ffmpeg", "ffprobe"].allSatisfy { name in
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
}

/// The edges of a video at the sizes phones have, odd and even: the door's frames written as `.mp4`, `.webm`
/// and `.mov`, decoded as a player decodes them (by their tags), against the PNG frames of the same job. Every
/// column and every row, the first and last included, is within `lineLevels` of the PNG's, and every frame's
/// PSNR within `psnrSlack` of what ffmpeg gets encoding the same PNG frames with the same codec arguments and
/// tags (its usual recipe for an odd size at 4:2:0: a black pad). H.264 at 4:2:0 cannot carry an odd side, so
/// its pad stays: it must repeat the frame's edge, which a player that shows the pad then shows.
@Suite(.enabled(if: edgeTools, "ffmpeg and ffprobe are not on PATH: the video edge tests decode videos"))
struct VideoEdgeTests {

    /// The mean difference, in levels of a channel, of any one column or row of a decoded frame from the PNG's
    /// (over the frames and the three channels). Measured with the edge repeated: at most 9.6, on rows of small
    /// text (x264 at crf 18, VP9 at crf 30), and under 0.9 on the first and last column and row; with the black
    /// pad before, the last column was 121 levels off (.mp4, .webm) and 12 (.mov: its chroma mixed with the
    /// black pad column).
    static let lineLevels = 12.0
    /// The same for the first and last column and row, which show what a pad next to them did.
    static let edgeLevels = 3.0
    /// A frame may be this many dB further from the PNG than ffmpeg's own encoding of the PNGs.
    static let psnrSlack = 2.0

    static let sizes = [(375, 667), (377, 669), (376, 668), (563, 1218)]
    static let containers = ["mp4", "webm", "mov"]

    static func ffmpeg() -> String {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/ffmpeg" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }!
    }

    @Test(arguments: containers, sizes)
    func everyLineOfTheCPUsVideo(_ ext: String, _ size: (Int, Int)) throws {
        try check(ext, width: size.0, height: size.1, gles: false)
    }

    /// An iPhone's full screen in pixels, once (the largest frames, the slowest case).
    @Test func everyLineOfAFullPhoneScreen() throws {
        try check("mp4", width: 1125, height: 2436, gles: false)
    }

    /// The planes converted on the GPU (llvmpipe here, where jobs otherwise convert on the CPU), for the
    /// containers whose frames go in as planes.
    @Test(arguments: ["mp4", "webm"], [(375, 667), (377, 669)])
    func everyLineOfTheGPUPlanesVideo(_ ext: String, _ size: (Int, Int)) throws {
        try check(ext, width: size.0, height: size.1, gles: true)
    }

    func check(_ ext: String, width: Int, height: Int, gles: Bool) throws {
        let what = "\(ext) \(width)x\(height)\(gles ? " (GPU planes)" : "")"
        let dir = try temporaryDirectory("edge")
        defer { try? FileManager.default.removeItem(at: dir) }
        let renderer: any Renderer
        if gles {
            let made = try BackendChoice.gles.makeRenderer()
            let planes = try #require(made as? GLESRenderer)
            planes.convertsPlanesOnGPU = true
            #expect(made.capabilities.contains(.ycbcrPlanes))
            renderer = made
        } else {
            renderer = CPUCompositor(threads: 2)
        }
        let fps = 10.0
        let frames = dir.appendingPathComponent("frames").path
        var job = RenderJob(Transition(.door, duration: 0.3), from: "sample:home", to: "sample:detail", fps: fps,
                            size: (width, height), output: .frames(directory: frames))
        try job.run(renderer: renderer)
        let video = dir.appendingPathComponent("door.\(ext)").path
        job.outputs = [.video(video)]
        try job.run(renderer: renderer)
        let count = job.storyboard.schedule.count
        let drawn = try (0..<count).map {
            try ImageDecoder.decode(contentsOf: String(format: "\(frames)/frame_%05d.png", $0), maxPixels: 1 << 30)
        }

        // ffmpeg's own: the PNGs converted by ffmpeg with the video's matrix and range, the same codec arguments
        // and tags; an odd size padded (black) where the codec needs even sides.
        let container = FFmpegStream.defaults[ext]!
        let encoding = YCbCrEncoding.video(width: width, height: height)
        let format = container.codec[container.codec.firstIndex(of: "-pix_fmt")! + 1]
        let pad = container.evenSize ? ["pad=ceil(iw/2)*2:ceil(ih/2)*2"] : []
        let peer = dir.appendingPathComponent("peer.\(ext)").path
        _ = try VideoColourTests.run(Self.ffmpeg(), ["-hide_banner", "-nostdin", "-loglevel", "error", "-y",
                                                     "-framerate", "10", "-i", "\(frames)/frame_%05d.png",
                                                     "-vf", (pad + [encoding.ffmpegScale, "format=\(format)", encoding.ffmpegFrameTags]).joined(separator: ",")]
                                     + container.codec + encoding.ffmpegTags + [peer])

        let ours = try VideoColourTests.decode(video, width: width, height: height)
        let theirs = try VideoColourTests.decode(peer, width: width, height: height)
        try #require(ours.count == count && theirs.count == count, "\(what): \(ours.count) and \(theirs.count) frames decoded of \(count)")

        // Each column's and row's mean difference, over every frame and channel.
        var columns = [Double](repeating: 0, count: width), rows = [Double](repeating: 0, count: height)
        for (a, b) in zip(ours, drawn) {
            a.pixels.withUnsafeBufferPointer { p in
                b.pixels.withUnsafeBufferPointer { q in
                    for y in 0..<height {
                        for x in 0..<width {
                            let u = p[y * width + x], v = q[y * width + x]
                            var d = 0
                            for shift in [0, 8, 16] as [UInt32] { d += abs(Int(u >> shift & 0xFF) - Int(v >> shift & 0xFF)) }
                            columns[x] += Double(d)
                            rows[y] += Double(d)
                        }
                    }
                }
            }
        }
        for x in columns.indices { columns[x] /= Double(3 * height * count) }
        for y in rows.indices { rows[y] /= Double(3 * width * count) }
        let worstColumn = columns.indices.max { columns[$0] < columns[$1] }!
        let worstRow = rows.indices.max { rows[$0] < rows[$1] }!
        if ProcessInfo.processInfo.environment["SEGUE_PRINT_PSNR"] != nil {
            print("\(what): worst column \(worstColumn) \(columns[worstColumn]), last \(columns[width - 1]); worst row \(worstRow) \(rows[worstRow]), last \(rows[height - 1])")
        }
        #expect(columns[worstColumn] <= Self.lineLevels,
                "\(what): column \(worstColumn) of \(width) is \(columns[worstColumn]) levels from the PNG's on average (the last: \(columns[width - 1]))")
        #expect(rows[worstRow] <= Self.lineLevels,
                "\(what): row \(worstRow) of \(height) is \(rows[worstRow]) levels from the PNG's on average (the last: \(rows[height - 1]))")

        for (name, lines) in [("column", columns), ("row", rows)] {
            for i in [0, lines.count - 1] {
                #expect(lines[i] <= Self.edgeLevels, "\(what): \(name) \(i), an edge, is \(lines[i]) levels from the PNG's on average")
            }
        }
        for n in 0..<count {
            let a = VideoColourTests.psnr(ours[n], drawn[n]), b = VideoColourTests.psnr(theirs[n], drawn[n])
            if ProcessInfo.processInfo.environment["SEGUE_PRINT_PSNR"] != nil {
                print("\(what) frame \(n): Segue \(a) dB, ffmpeg \(b) dB")
            }
            #expect(a >= b - Self.psnrSlack, "\(what) frame \(n): Segue's video \(a) dB from the PNG, ffmpeg's own \(b) dB")
        }
    }
}
