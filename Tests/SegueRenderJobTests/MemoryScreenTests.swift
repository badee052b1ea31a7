import Foundation
import SegueCore
import SegueImageIO
import SegueRender
import SegueTestSupport
import SegueSamples
import Testing

/// Screens a program holds in memory (`RenderJob.images`, named `memory:NAME`).
@Suite struct MemoryScreenTests {
    static let home = SampleScreens.home(width: 120, height: 200, scale: 1)
    static let detail = SampleScreens.detail(width: 120, height: 200, scale: 1)

    /// A job from two pixmaps writes the files, byte for byte, that the same job from PNG files of them writes.
    @Test func aJobFromPixmapsEqualsTheJobFromTheirFiles() throws {
        let dir = try temporaryDirectory("async")
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = [("home.png", Self.home), ("detail.png", Self.detail)].map { name, image in
            (dir.appendingPathComponent(name).path, image)
        }
        for (path, image) in files {
            try Data(PNGEncoder.encode(image)).write(to: URL(fileURLWithPath: path))
            #expect(try ImageDecoder.decode(contentsOf: path) == image, "\(path) does not read back as it was written")
        }
        let door = Transition(.door, duration: 0.2)
        var fromMemory = RenderJob(door, from: Self.home, to: Self.detail, fps: 30,
                                   output: .frames(directory: dir.appendingPathComponent("memory").path))
        fromMemory.backend = .cpu
        var fromFiles = RenderJob(door, from: files[0].0, to: files[1].0, fps: 30,
                                  output: .frames(directory: dir.appendingPathComponent("files").path))
        fromFiles.backend = .cpu
        let a = try fromMemory.run(control: nil)
        let b = try fromFiles.run(control: nil)
        #expect(a.rendered == b.rendered && a.rendered > 1 && a.width == 120 && a.height == 200)
        for k in 0..<a.rendered {
            let name = String(format: "frame_%05d.png", k)
            let m = try Data(contentsOf: dir.appendingPathComponent("memory/\(name)"))
            let f = try Data(contentsOf: dir.appendingPathComponent("files/\(name)"))
            #expect(m == f, "\(name) differs")
        }
    }

    /// A storyboard names images in memory as `memory:NAME`; they are resampled to the job's size as files are.
    @Test func aStoryboardNamesImagesInMemory() throws {
        var job = RenderJob(storyboard: Storyboard(fps: 10, size: (60, 100),
                                                   screens: ["a": "memory:home", "b": "sample:detail"],
                                                   timeline: [.hold(screen: "a", duration: 0.1)]),
                            output: .frames(directory: "unused"))
        job.backend = .cpu
        job.images = ["home": Self.home]
        let frames = try job.frames()
        #expect(!frames.isEmpty && frames.allSatisfy { $0.width == 60 && $0.height == 100 })
    }

    /// An image in memory is held to what a file is: a name the job has, `maxPixels`, premultiplied RGBA8.
    @Test func anImageInMemoryIsCheckedAsAFileIs() throws {
        var job = RenderJob(Transition(.fade), from: Self.home, to: Self.detail, output: .frames(directory: "unused"))
        job.backend = .cpu
        job.progress = [0.5]

        var missing = job
        missing.images["to"] = nil
        #expect { try missing.frames() } throws: { error in
            (error as? SegueError)?.kind == .inputUnreadable(path: "memory:to") && "\(error)".contains("'memory:to' names no image")
        }

        var large = job
        large.maxPixels = 120 * 200 - 1
        #expect { try large.frames() } throws: { error in
            (error as? SegueError)?.kind == .resourceLimit(name: "maxPixels") && "\(error)".contains("memory:from")
        }

        var straight = job
        straight.images["from"] = Pixmap(width: 2, height: 2, fill: 0x80FF_FFFF)  // white at half alpha, not premultiplied
        #expect { try straight.frames() } throws: { error in
            (error as? SegueError)?.kind == .invalidInput(path: "memory:from") && "\(error)".contains("not premultiplied")
        }
    }
}
