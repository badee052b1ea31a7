import Foundation
import SegueCore
@testable import SegueRender
import SegueTestSupport
import Testing

/// What an output path means, decided by `RenderJob.OutputPlan` alone: each form a path takes, a storyboard's
/// `"output"` object, and each conflict as a `SegueError` a program can switch on, naming no command-line flag.
@Suite struct OutputPlanTests {
    typealias Plan = RenderJob.OutputPlan

    /// The error `body` throws (nil when it throws none).
    static func error(_ body: () throws -> Void) -> SegueError? {
        do { try body(); return nil } catch let error as SegueError { return error } catch { return nil }
    }

    static func output(_ value: String, option: String = "output") -> SegueError.Kind {
        .invalidOption(effect: nil, option: option, value: value)
    }

    /// The containers the storyboard reader and the output rules know (`VideoContainer`) are the ones the
    /// encoder has settings for.
    @Test func everyVideoContainerHasTheEncodersSettings() {
        #expect(Set(FFmpegStream.defaults.keys) == Set(VideoContainer.allCases.map(\.rawValue)))
        #expect(Set(FFmpegStream.alphaDefaults.keys).isSubset(of: Set(VideoContainer.allCases.map(\.rawValue))))
        #expect(VideoContainer.listed == ".mp4, .webm, .mov or .gif")
    }

    @Test func aDirectoryOfFrames() throws {
        #expect(try Plan(path: "frames").outputs() == [.frames(directory: "frames")])
        // A trailing '/' is a directory whatever its extension, and whether or not the job is one frame.
        #expect(try Plan(path: "frames.mp4/").outputs() == [.frames(directory: "frames.mp4/")])
        #expect(try Plan(path: "-/").outputs() == [.frames(directory: "-/")])
    }

    @Test func onePNGForOneFrameUnlessThePathIsADirectory() throws {
        let dir = try temporaryDirectory("output-plan")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try Plan(path: "mid.png", oneFrame: true).outputs() == [.image("mid.png")])
        #expect(try Plan(path: dir.path, oneFrame: true).outputs() == [.frames(directory: dir.path)])
        #expect(try Plan(path: "mid.png").outputs() == [.frames(directory: "mid.png")])
    }

    @Test func aStreamForStandardOutputOrAStreamFormat() throws {
        #expect(try Plan(path: "-").outputs() == [.stream("-", format: .png)])
        #expect(try Plan(path: "out.y4m", format: .y4m, y4mChroma: .c420).outputs()
                == [.stream("out.y4m", format: .y4m, y4mChroma: .c420)])
        #expect(try Plan(path: "-", format: .rgba, oneFrame: true).outputs() == [.stream("-", format: .rgba)])
        // A stream format with nothing named streams to standard output.
        #expect(try Plan(format: .y4m).outputs() == [.stream("-", format: .y4m)])
    }

    @Test(arguments: ["a.mp4", "a.WEBM", "dir/a.mov", "a.gif"])
    func aVideoByItsExtension(_ path: String) throws {
        #expect(Plan.isVideo(path) && RenderJob.isVideoPath(path))
        #expect(try Plan(path: path, oneFrame: true).outputs() == [.video(path)])
        #expect(try Plan(path: path, ffmpegArguments: ["-crf", "23"]).outputs() == [.video(path, ffmpegArguments: ["-crf", "23"])])
    }

    @Test func notVideos() {
        for path in ["-", "a.mp4/", "a.png", "frames", "a.mkv"] { #expect(!Plan.isVideo(path), "\(path)") }
    }

    @Test func aVideoBesideFrames() throws {
        #expect(try Plan(path: "frames", video: "a.mp4").outputs() == [.frames(directory: "frames"), .video("a.mp4")])
        #expect(try Plan(video: "a.webm", ffmpegArguments: []).outputs() == [.video("a.webm", ffmpegArguments: [])])
    }

    @Test func aStoryboardsOutputObject() throws {
        let output = Storyboard.Output(frames: "frames", video: "story.mp4")
        let resolve = { (path: String) in "base/" + path }
        #expect(try Plan(storyboard: output, resolve: resolve).outputs() == [.frames(directory: "base/frames"), .video("base/story.mp4")])
        // A chunk writes its part of the video only; a shard or a resumed job skips the video, and says which.
        #expect(try Plan(storyboard: output, resolve: resolve, chunked: true).outputs() == [.video("base/story.mp4")])
        let partial = Plan(storyboard: output, resolve: resolve, partial: true)
        #expect(try partial.outputs() == [.frames(directory: "base/frames")])
        #expect(partial.skippedVideo == "story.mp4")
        #expect(try Plan(storyboard: output, chunked: true, partial: true).outputs() == [.video("story.mp4")])
        // A stream format streams the frames: beside the storyboard's video, that is refused.
        #expect(try Plan(storyboard: Storyboard.Output(frames: "f"), format: .rgba).outputs() == [.stream("f", format: .rgba)])
        #expect(Self.error { _ = try Plan(storyboard: output, resolve: resolve, format: .rgba).outputs() }?.kind == Self.output("base/frames"))
    }

    @Test func conflictsAreInvalidOptions() {
        let cases: [(Plan, SegueError.Kind)] = [
            (Plan(path: ""), Self.output("")),
            (Plan(), Self.output("")),  // nothing to write
            (Plan(path: "a.mp4", video: "b.mp4"), Self.output("a.mp4")),
            (Plan(path: "a.mp4", format: .y4m), Self.output("a.mp4")),
            (Plan(path: "frames", ffmpegArguments: ["-crf", "23"]), Self.output("-crf 23", option: "ffmpegArguments")),
            (Plan(path: "-", video: "a.mp4"), Self.output("-")),
            (Plan(video: "a.mp4", format: .y4m), Self.output("-")),
            (Plan(path: "frames", video: "a.mkv"), Self.output("a.mkv")),
        ]
        for (plan, kind) in cases {
            let error = Self.error { _ = try plan.outputs() }
            #expect(error?.kind == kind, "\(plan): \(String(describing: error))")
            #expect(error?.isUsageError == true)
            #expect(error.map { $0.message.range(of: "--[a-z]", options: .regularExpression) == nil } == true, "\(String(describing: error))")
        }
        // check() refuses the same conflicts without the file system, and accepts nothing named (a storyboard may name it).
        #expect(Self.error { try Plan(path: "a.mp4", format: .rgba).check() }?.kind == Self.output("a.mp4"))
        #expect(Self.error { try Plan().check() } == nil)
    }

    @Test func theFormOfAnOutputsPath() {
        #expect(Self.error { try Plan.checkForm(of: .image("a/")) }?.kind == Self.output("a/"))
        #expect(Self.error { try Plan.checkForm(of: .video("a.mp4/")) }?.kind == Self.output("a.mp4/"))
        #expect(Self.error { try Plan.checkForm(of: .frames(directory: ".mp4")) }?.kind == Self.output(".mp4"))
        #expect(Self.error { try Plan.checkForm(of: .frames(directory: "dir/.GIF")) }?.kind == Self.output("dir/.GIF"))
        #expect(Self.error { try Plan.checkForm(of: .frames(directory: ".mp4/")) } == nil)
        #expect(Self.error { try Plan.checkForm(of: .stream("-", format: .y4m)) } == nil)
    }

    /// A name with an extension that is neither an image nor a video (`out.avi`) is refused, not made a
    /// directory of frames; the plan says so before anything is written. A trailing '/' is a directory on purpose.
    @Test func aDirectoryIsNotNamedAsAFileOfAnotherType() throws {
        for path in ["out.avi", "dir/clip.MKV", "notes.txt"] {
            #expect(Self.error { _ = try Plan(path: path).outputs() }?.kind == Self.output(path), "\(path)")
        }
        for path in ["out.avi/", "frames", "shots.png", "run-2.5", "take.2024", ".hidden", "a.b.c/"] {
            #expect(Self.error { _ = try Plan(path: path).outputs() } == nil, "\(path)")
        }
        #expect(try Plan(path: "out.avi/").outputs() == [.frames(directory: "out.avi/")])
    }

    /// A directory of frames is created without following a link: one planted at its name after the output was
    /// checked (a render's name in segue studio) is refused, and nothing is written where it points.
    @Test func aDirectoryOfFramesIsNeverCreatedThroughALink() throws {
        let dir = try temporaryDirectory("frames-link")
        let away = try temporaryDirectory("frames-away")
        defer { try? FileManager.default.removeItem(at: dir); try? FileManager.default.removeItem(at: away) }
        let link = dir.appendingPathComponent("frames").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: away.path)
        #expect(throws: SegueError.self) { _ = try FrameDirectory(creating: link) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: away.path).isEmpty)
        // Its parents are made as needed, and a directory already there is used.
        let nested = dir.appendingPathComponent("a/b/frames").path
        _ = try FrameDirectory(creating: nested)
        _ = try FrameDirectory(creating: nested)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: nested, isDirectory: &isDirectory) && isDirectory.boolValue)
    }
}
