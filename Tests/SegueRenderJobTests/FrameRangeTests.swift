import Foundation
import SegueCore
import SegueRender
import SegueTestSupport
import Testing

/// `RenderJob.frameRange` (a preview of part of a timeline) and `SegueError.problems` (a file's problems at
/// their JSON paths): what a preview server asks of a job.
@Suite struct FrameRangeTests {
    final class Collector: FrameSink, @unchecked Sendable {
        private let lock = NSLock()
        private var frames: [(index: Int, bytes: [UInt8])] = []
        var written: [(index: Int, bytes: [UInt8])] { lock.withLock { frames } }
        func write(frame index: Int, bytes: [UInt8]) throws { lock.withLock { frames.append((index, bytes)) } }
    }

    static let story = """
        {"fps": 10, "size": [60, 100], "screens": {"a": "sample:home", "b": "sample:detail"},
         "timeline": [{"hold": "a", "duration": 0.3}, {"transition": "door", "from": "a", "to": "b", "duration": 0.5}]}
        """

    /// Frames 4..<6 of a storyboard are, byte for byte, frames 4 and 5 of the whole job's directory, and a sink
    /// hears them as frames 4 and 5.
    @Test func aRangeDrawsThoseFramesOfTheWholeTimeline() throws {
        let dir = try temporaryDirectory("range")
        defer { try? FileManager.default.removeItem(at: dir) }
        var whole = RenderJob(storyboardJSON: Self.story, output: .frames(directory: dir.path))
        whole.backend = .cpu
        let summary = try whole.run()
        #expect(summary.rendered == 9)
        let collector = Collector()
        var part = RenderJob(storyboardJSON: Self.story, output: .sink(collector, format: .png))
        part.backend = .cpu
        part.frameRange = 4..<6
        try part.run()
        #expect(collector.written.map(\.index) == [4, 5])
        for (index, bytes) in collector.written {
            let file = dir.appendingPathComponent(String(format: "frame_%05d.png", index))
            #expect(bytes == [UInt8](try Data(contentsOf: file)))
        }
    }

    /// A range outside the timeline is refused before anything is written, naming the job's frame count.
    @Test(arguments: [9..<10, 3..<3, -1..<2, 0..<12])
    func aRangeOutsideTheTimelineIsRefused(_ range: Range<Int>) throws {
        var job = RenderJob(storyboardJSON: Self.story, output: .sink(Collector(), format: .png))
        job.backend = .cpu
        job.frameRange = range
        let error = #expect(throws: SegueError.self) { try job.run() }
        #expect(error?.kind == .invalidOption(effect: nil, option: "frameRange", value: "\(range.lowerBound)..<\(range.upperBound)"))
        #expect(error?.message.contains("not within the job's 9 frames") == true)
    }

    /// A storyboard's problems and an effect file's come as `problems`, each at its JSON path, beside `lines`.
    @Test func problemsComeAtTheirJSONPaths() throws {
        var story = RenderJob(storyboardJSON: #"{"fps": 10, "screens": {"a": "sample:home"}, "timeline": [{"hold": "a", "duration": -1}]}"#,
                              output: .sink(Collector(), format: .png))
        story.backend = .cpu
        let error = #expect(throws: SegueError.self) { try story.run() }
        #expect(error?.problems.map(\.path) == ["$.timeline[0].duration"])
        #expect(error?.lines == error?.problems.map(\.description))

        let dir = try temporaryDirectory("problems")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("bad.json").path
        try Data(#"{"name": "bad", "summary": "s", "source": "t", "duration": 0.3, "layers": [{"content": "sideways"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: file))
        let effect = #expect(throws: SegueError.self) { try EffectFiles.load(file) }
        #expect(effect?.problems.isEmpty == false)
        #expect(effect?.problems.allSatisfy { $0.path.hasPrefix("$") } == true)
        #expect(effect?.lines == effect?.problems.map { "\(file): \($0)" })
        #expect(SegueError.failed("x").problems.isEmpty)
    }
}
