import Foundation
import SegueCore
@testable import SegueRender
import SegueTestSupport
import Synchronization
import Testing

/// A program's own sink (`RenderJob.Output.sink`) and its uploaded images (`ImageInput`): what a server uses.
@Suite struct FrameSinkTests {
    /// Collects what a job hands it.
    final class Collector: FrameSink, @unchecked Sendable {
        private let lock = NSLock()
        private var frames: [(index: Int, bytes: [UInt8])] = []
        private var ended = ""
        private var begun: [String] = []
        var written: [(index: Int, bytes: [UInt8])] { lock.withLock { frames } }
        var end: String { lock.withLock { ended } }
        var begins: [String] { lock.withLock { begun } }
        func begin(width: Int, height: Int, colourSpace: ColourSpace) { lock.withLock { begun.append("\(width)x\(height) \(colourSpace.name)") } }
        func write(frame index: Int, bytes: [UInt8]) throws { lock.withLock { frames.append((index, bytes)) } }
        func finish() throws { lock.withLock { ended = "finished" } }
        func abandon() { lock.withLock { ended = "abandoned" } }
    }

    static func job(_ output: RenderJob.Output, progress: [Double]? = nil) -> RenderJob {
        var job = RenderJob(Transition(.door, duration: 0.2), from: "sample:home", to: "sample:detail", fps: 30,
                            scale: 0.25, output: output)
        job.backend = .cpu
        job.progress = progress
        return job
    }

    /// A PNG sink's one frame is byte for byte the PNG file an image output of the same job writes.
    @Test func aPNGSinkGetsTheBytesOfTheImageFile() throws {
        let dir = try temporaryDirectory("sink")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("half.png").path
        try Self.job(.image(file), progress: [0.5]).run()
        let collector = Collector()
        try Self.job(.sink(collector, format: .png), progress: [0.5]).run()
        #expect(collector.written.map(\.index) == [0])
        #expect(collector.written.first?.bytes == [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(collector.end == "finished")
    }

    /// A Y4M sink's frames, one after another, are the stream file's bytes (its header before frame 0's).
    @Test func aY4MSinkGetsTheBytesOfTheStream() throws {
        let dir = try temporaryDirectory("sink")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("all.y4m").path
        try Self.job(.stream(file, format: .y4m)).run()
        let collector = Collector()
        try Self.job(.sink(collector, format: .y4m)).run()
        #expect(collector.written.map(\.index) == Array(0..<7))
        #expect(collector.written.flatMap(\.bytes) == [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))))
    }

    /// A raw RGBA sink is told the frames' size and space once, before the first frame, and each frame is that
    /// many pixels of 4 bytes (what a page needs to draw them into a canvas).
    @Test func aSinkIsToldTheFramesSizeAndSpaceFirst() throws {
        let collector = Collector()
        var job = Self.job(.sink(collector, format: .rgba))
        job.frameRange = 2..<4
        try job.run()
        #expect(collector.begins == ["94x167 sRGB"])
        #expect(collector.written.map(\.index) == [2, 3])
        #expect(collector.written.allSatisfy { $0.bytes.count == 94 * 167 * 4 })
    }

    /// A sink that fails ends the job with its error, and is told to abandon.
    @Test func aFailingSinkEndsTheJob() throws {
        final class Failing: FrameSink, @unchecked Sendable {
            let abandoned = Atomic<Bool>(false)
            func write(frame index: Int, bytes: [UInt8]) throws { throw SegueError(.outputClosed, "the client went away") }
            func abandon() { abandoned.store(true, ordering: .relaxed) }
        }
        let sink = Failing()
        #expect(throws: SegueError(.outputClosed, "the client went away")) { try Self.job(.sink(sink, format: .rgba)).run() }
        let abandoned = sink.abandoned.load(ordering: .relaxed)
        #expect(abandoned)
    }

    /// Sinks are equal as the same object; a Y4M sink cannot carry a transparent background.
    @Test func sinksCompareByIdentityAndAreChecked() throws {
        let a = Collector(), b = Collector()
        #expect(RenderJob.Output.sink(a, format: .png) == .sink(a, format: .png))
        #expect(RenderJob.Output.sink(a, format: .png) != .sink(b, format: .png))
        #expect(RenderJob.Output.sink(a, format: .png) != .sink(a, format: .rgba))
        var job = Self.job(.sink(a, format: .y4m))
        job.storyboard.background = .clear
        #expect { try job.run() } throws: { ($0 as? SegueError)?.kind == .invalidOption(effect: nil, option: "output", value: "sink") }
        #expect(a.written.isEmpty)
    }

    /// Uploaded bytes whose PNG header claims 20000x20000 pixels are refused from the header, before decoding.
    @Test func anUploadOverThePixelLimitIsRefusedFromItsHeader() throws {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        png += Array("IHDR".utf8)
        func big(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        png += big(20000) + big(20000) + [8, 6, 0, 0, 0]
        png += big(crc32(Array(png[12...])))
        #expect {
            _ = try ImageInput.decode(png, name: "upload.png")
        } throws: { error in
            let e = error as? SegueError
            return e?.kind == .resourceLimit(name: "maxPixels")
                && e?.message == "'upload.png' is 20000x20000 pixels, over the limit of \(Limits.maxPixels) pixels (maxPixels)"
        }
        #expect(throws: SegueError.self) { _ = try ImageInput.decode(Array("not an image".utf8), name: "note.txt") }
    }

    /// An image within the pixel limit but over the memory left is refused from its header, with both figures;
    /// one that fits decodes, and unknown memory (nil) leaves the pixel limit alone.
    @Test func anUploadOverTheMemoryLeftIsRefusedFromItsHeader() throws {
        let dir = try temporaryDirectory("sink")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("half.png").path
        try Self.job(.image(file), progress: [0.5]).run()  // 94x167: 15698 pixels, 125584 bytes to decode
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        #expect {
            _ = try ImageInput.decode(png, name: "half.png", maxPixels: Limits.maxPixels, available: 100_000)
        } throws: { error in
            let e = error as? SegueError
            return e?.kind == .resourceLimit(name: "memory")
                && e?.message.hasPrefix("'half.png' is 94x167 pixels: decoding it needs about ") == true
                && e?.message.hasSuffix(" is left") == true
        }
        #expect(try ImageInput.decode(png, name: "half.png", maxPixels: Limits.maxPixels, available: 200_000).width == 94)
        #expect(try ImageInput.decode(png, name: "half.png", maxPixels: Limits.maxPixels, available: nil).width == 94)
        // The pixel limit, when it is the lower, is still what is said.
        #expect { _ = try ImageInput.decode(png, name: "half.png", maxPixels: 100, available: 100_000) }
            throws: { ($0 as? SegueError)?.kind == .resourceLimit(name: "maxPixels") }
        // A screen's file is held to the same figure, and a sample or a resampled screen to its own size.
        #expect { _ = try ImageInput.decode(contentsOf: file, maxPixels: Limits.maxPixels, into: .srgb, available: 100_000) }
            throws: { ($0 as? SegueError)?.kind == .resourceLimit(name: "memory") }
        #expect(try ImageInput.decode(contentsOf: file, maxPixels: Limits.maxPixels, into: .srgb, available: 200_000).width == 94)
        #expect { try Screens.ensureRoom("sample:detail", width: 1000, height: 1000, bytesPerPixel: 8, available: 4_000_000) } throws: {
            ($0 as? SegueError)?.message == "'sample:detail' at 1000x1000 pixels needs about 8 MiB, and 4 MiB is left"
        }
        try Screens.ensureRoom("sample:detail", width: 1000, height: 1000, bytesPerPixel: 8, available: 8_000_000)
        #expect { try Screens.ensureRoom("x", width: Int.max, height: 2, bytesPerPixel: 4, available: 1 << 40) }
            throws: { ($0 as? SegueError)?.kind == .resourceLimit(name: "memory") }
    }

    /// A HEIC's decoding is counted at libheif's 20 bytes a pixel (its planes and 16-bit image beside the
    /// RGBA8), not a PNG's 8: a 10-bit HEIC that fits at 8 bytes a pixel but not at 20 is refused from its boxes.
    @Test func aHEICIsCountedAtWhatLibheifHolds() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SegueImageIOTests/Fixtures/heic/p3-nclx-10bit.heic")
        let heic = [UInt8](try Data(contentsOf: url))
        #expect(ImageInput.decodingBytesPerPixel(of: heic) == 20)
        guard let decoded = try? ImageInput.decode(heic, name: "deep.heic", maxPixels: Limits.maxPixels, available: nil) else {
            return  // no libheif here: MissingHeifLibraryTests says what a user sees
        }
        let pixels = decoded.width * decoded.height
        #expect {
            _ = try ImageInput.decode(heic, name: "deep.heic", maxPixels: Limits.maxPixels, available: pixels * 12)
        } throws: { ($0 as? SegueError)?.kind == .resourceLimit(name: "memory") }
        #expect(try ImageInput.decode(heic, name: "deep.heic", maxPixels: Limits.maxPixels, available: pixels * 20).width == decoded.width)
    }

    /// Bytes decode as the file of the same bytes does.
    @Test func uploadedBytesDecodeAsTheirFile() throws {
        let dir = try temporaryDirectory("sink")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("half.png").path
        try Self.job(.image(file), progress: [0.5]).run()
        let image = try ImageInput.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: file))), name: "half.png")
        #expect(image.width == 94 && image.height == 167)
    }
}

/// PNG's CRC-32 of a chunk's type and data.
private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes {
        c ^= UInt32(b)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
    return c ^ 0xFFFF_FFFF
}
