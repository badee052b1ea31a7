import Foundation
import SegueCore
import SegueCPU
import SegueGLES
import SegueSamples

// segue-soak: renders N frames (10,000 by default) at 1920x1080 on each backend in one process, cycling
// through every effect (10 frames each, new snapshots loaded for each, as each transition of a job does), and checks
// that resident memory after the first 100 frames grows less than 5% and that GL object counts stay flat.
// Usage: segue-soak [--frames N] [--backend cpu|gles|all]. Exit 1 when a check fails.

var frames = 10_000
var backends = ["cpu", "gles"]
var args = CommandLine.arguments.dropFirst()
while let arg = args.popFirst() {
    switch arg {
    case "--frames": frames = Int(args.popFirst() ?? "") ?? frames
    case "--backend":
        let b = args.popFirst() ?? "all"
        backends = b == "all" ? backends : [b]
    default:
        FileHandle.standardError.write(Data("usage: segue-soak [--frames N] [--backend cpu|gles|all]\n".utf8))
        exit(2)
    }
}
let batch = 10  // frames per transition: every effect has been drawn by frame 90, before the first sample
precondition(frames >= 200, "--frames must be at least 200")

/// Resident set size in bytes (/proc/self/statm, second field).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
}

func transition(_ effect: Effect) -> Transition {
    var o = EffectOptions()
    switch effect {
    case .hero: o.set("from-rect", Rect(40, 60, 120, 120)); o.set("to-rect", Rect(0, 0, 960, 300)); o.set("from-radius", 24)
    case .circleSpread, .circleZoom: o.set("center", Point(300, 200))
    case .sheet: o.set("height", 300)
    default: break
    }
    return Transition(effect, options: o)
}

let scale = 2.0
let frame = Size(960, 540)  // points: 1920x1080 pixels
let home = SampleScreens.home(width: frame.width, height: frame.height, scale: scale)
let detail = SampleScreens.detail(width: frame.width, height: frame.height, scale: scale)
let info = [SnapshotInfo(home), SnapshotInfo(detail)]
var failed = false
var lines: [String] = []

for name in backends {
    let renderer: Renderer
    do {
        renderer = name == "cpu" ? CPUCompositor() : try GLESRenderer()
    } catch {
        print("\(name): cannot start: \(error)")
        failed = true
        continue
    }
    let holdsObjects = renderer.liveObjects > 0
    var rssAfterFirst = 0, objectsAfterFirst = 0, peak = 0, objectsPeak = 0
    var checksum: UInt64 = 0
    let start = Date()
    var done = 0
    var cycle = 0
    while done < frames {
        let effect = EffectCatalog.builtIn[cycle % EffectCatalog.builtIn.count]
        let t = transition(effect)
        let count = min(batch, frames - done)
        do {
            // Fresh pixmaps each cycle, as a job loads its screens for each transition.
            try renderer.load(snapshots: cycle % 2 == 0 ? [home, detail] : [detail, home])
            try renderer.drawFrames(count: count, list: { k in
                DrawList(scene: t.scene(at: Double(k) / Double(count - 1), frame: frame, scale: scale), scale: scale, snapshots: info)
            }, deliver: { _, pixmap in
                checksum &+= UInt64(pixmap.pixels[pixmap.pixels.count / 2])
            })
        } catch {
            print("\(name): frame \(done): \(error)")
            failed = true
            break
        }
        done += count
        cycle += 1
        let rss = residentBytes()
        let objects = renderer.liveObjects
        if done == 100 { rssAfterFirst = rss; objectsAfterFirst = objects }
        peak = max(peak, rss)
        objectsPeak = max(objectsPeak, objects)
        if done % 1000 == 0 {
            FileHandle.standardError.write(Data("\(name): \(done) frames, RSS \(rss >> 20) MiB, GL objects \(objects)\n".utf8))
        }
    }
    let seconds = Date().timeIntervalSince(start)
    let rssEnd = residentBytes(), objectsEnd = renderer.liveObjects
    peak = max(peak, rssEnd)
    let growth = rssAfterFirst > 0 ? Double(rssEnd - rssAfterFirst) / Double(rssAfterFirst) * 100 : 0
    let ok = done == frames && growth < 5 && objectsEnd <= objectsAfterFirst && objectsPeak <= objectsAfterFirst
    if !ok { failed = true }
    let line = String(
        format: "%@: %d frames at 1920x1080 in %.0f s (%.1f ms/frame); RSS after frame 100 %.1f MiB, at the end %.1f MiB (%+.2f%%), peak %.1f MiB%@ — %@",
        name, done, seconds, seconds * 1000 / Double(max(done, 1)), Double(rssAfterFirst) / 1048576, Double(rssEnd) / 1048576,
        growth, Double(peak) / 1048576,
        holdsObjects ? "; GL objects after frame 100 \(objectsAfterFirst), peak \(objectsPeak), at the end \(objectsEnd)" : "",
        ok ? "ok" : "FAILED")
    print(line)
    lines.append(line)
    _ = checksum
}
exit(failed ? 1 : 0)
