import Foundation
import Segue

/// Jobs started from the page's Render button: one at a time, each writing a new video or directory of frames
/// inside the directory studio was started in (a name, never a path; an existing one is never replaced), its
/// progress sent to the page as events.
actor Renders {
    struct Running {
        var id: Int
        var output: String
        var control: JobControl
        var task: Task<Void, Never>
    }

    let directory: String
    private var running: Running?
    private var next = 1

    init(directory: String) { self.directory = directory }

    /// A name for a render's output: one path component of at most 200 bytes, no leading dot, no control
    /// characters; a video by its extension, else a directory of frames.
    static func checkName(_ name: String) throws(SegueError) -> String {
        let bad = name.isEmpty || name.utf8.count > 200 || name.hasPrefix(".") || name.contains("/")
            || name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f }
        guard !bad else {
            throw SegueError.invalidOption("output", value: name, "an output is a plain name (a video such as clip.mp4, or a directory for frames), without '/', a leading '.' or control characters")
        }
        return name
    }

    /// Starts the job `make` gives (its outputs are set here, as `RenderJob.OutputPlan` says a path is: one PNG
    /// for a job of one frame, a video by its extension, else a directory of frames); the render's id. Refused
    /// while another runs.
    func start(_ make: () async throws(SegueError) -> RenderJob, name: String,
               events: Events) async throws(SegueError) -> Int {
        if running != nil { throw SegueError(.outputInUse(path: running!.output, byRunningJob: true), "a render is running ('\(running!.output)'): wait for it, or cancel it") }
        let name = try Self.checkName(name)
        let path = PathName.join(directory, name)
        // lstat: a link named so (even one to nowhere) is something there, never written through.
        var info = stat()
        guard lstat(path, &info) != 0 else {
            throw SegueError(.outputInUse(path: name, byRunningJob: false), "'\(name)' exists in the studio's directory: pick another name (studio replaces nothing)")
        }
        // The output is a plain name in the directory: the page's renders write nothing outside it. (A
        // storyboard's job also reads within it: `Previews.job` gives it the root.)
        var job = try await make()
        job.outputs = try RenderJob.OutputPlan(path: path, oneFrame: job.progress?.count == 1).outputs()
        let id = next
        next += 1
        let control = JobControl()
        let finalJob = job
        let observer = RenderJob.Observer(progress: { done, total in
            // At most about 20 events a second reach the page.
            if done == total || done % max(1, total / 100) == 0 {
                events.send(.init(type: "render", render: id, done: done, total: total, output: name))
            }
        })
        events.send(.init(type: "render", render: id, done: 0, total: nil, output: name))
        let task = Task {
            do {
                let summary = try await finalJob.run(control: control, observer: observer)
                events.send(.init(type: "rendered", render: id, done: summary.rendered, total: summary.rendered,
                                  message: "\(summary.rendered) frames, \(summary.width)x\(summary.height), on \(summary.renderer)", output: name))
            } catch {
                events.send(.init(type: "failed", render: id, message: "\(error)", output: name))
            }
            self.ended(id)
        }
        running = Running(id: id, output: name, control: control, task: task)
        return id
    }

    private func ended(_ id: Int) {
        if running?.id == id { running = nil }
    }

    /// Cancels the running render and returns once it has ended (its partial output removed, its ffmpeg gone).
    func cancel() async {
        guard let render = running else { return }
        render.control.cancel()
        await render.task.value
    }

    func cancelAll() async { await cancel() }

    /// Returns once the running render (if any) has ended.
    func wait() async {
        await running?.task.value
    }
}
