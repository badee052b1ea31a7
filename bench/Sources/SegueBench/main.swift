import Foundation
import SegueCore
import SegueCPU
import SegueGLES
import SegueImageIO
import SegueSamples

// segue-bench: times each effect over a sequence of frames at several resolutions on each backend.
// The scene is 1280x720 points at scales 1, 1.5, 3 and 6 (1280x720 ... 7680x4320 pixels), so every
// resolution shows the same picture.

struct Options {
    var effects: [Effect] = [.fade, .door, .circleSpread, .pageFlip, .hero]
    var scales: [Double] = [1, 1.5, 3, 6]
    var frames = 12
    var threads: [Int] = [ProcessInfo.processInfo.activeProcessorCount, 1]
    var gles = true

    init(_ args: [String]) {
        var i = 0
        while i < args.count {
            let value = i + 1 < args.count ? args[i + 1] : ""
            switch args[i] {
            case "--effects": effects = value.split(separator: ",").compactMap { Effect(rawValue: String($0)) }
            case "--scales": scales = value.split(separator: ",").compactMap { Double($0) }
            case "--frames": frames = Int(value) ?? frames
            case "--threads": threads = value.split(separator: ",").compactMap { Int($0) }
            case "--gles": gles = value != "0"
            default: FileHandle.standardError.write(Data("segue-bench: unknown argument \(args[i])\n".utf8)); exit(2)
            }
            i += 2
        }
    }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
let frame = Size(1280, 720)

func transition(_ effect: Effect) -> Transition {
    var o = EffectOptions()
    switch effect {
    case .pageFlip: o.perspective = 1700
    case .hero:
        o.fromRect = Rect(80, 120, 160, 160); o.toRect = Rect(0, 0, 1280, 400); o.fromRadius = 36
    case .circleSpread, .circleZoom: o.center = Point(400, 300)
    case .sheet: o.height = 400
    default: break
    }
    return Transition(effect, options: o)
}

func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }

let glesRenderer: GLESRenderer? = options.gles ? try? GLESRenderer() : nil
if let glesRenderer { print("gles: \(glesRenderer.details)") }
for scale in options.scales {
    let snapshots = [SampleScreens.home(width: frame.width, height: frame.height, scale: scale),
                     SampleScreens.detail(width: frame.width, height: frame.height, scale: scale)]
    let info = snapshots.map(SnapshotInfo.init)
    let pixels = Double(snapshots[0].width * snapshots[0].height)
    // A plain copy of one frame: the memory-bandwidth floor.
    var copyTimes: [Double] = []
    var target = snapshots[0]
    for _ in 0..<5 {
        let start = DispatchTime.now().uptimeNanoseconds
        target.pixels.withUnsafeMutableBufferPointer { dst in
            snapshots[1].pixels.withUnsafeBufferPointer { src in dst.baseAddress!.update(from: src.baseAddress!, count: src.count) }
        }
        copyTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    print(String(format: "%dx%d copy %.2f ms", snapshots[0].width, snapshots[0].height, median(copyTimes)))
    for effect in options.effects {
        let t = transition(effect)
        let lists = (0..<options.frames).map { k in
            DrawList(scene: t.scene(at: Double(k) / Double(options.frames - 1), frame: frame), scale: scale, snapshots: info)
        }
        for threads in options.threads {
            let cpu = CPUCompositor(threads: threads)
            try cpu.load(snapshots: snapshots)
            var out = Pixmap(width: 0, height: 0)
            try cpu.draw(lists[0], into: &out)
            var times: [Double] = []
            for list in lists {
                let start = DispatchTime.now().uptimeNanoseconds
                try cpu.draw(list, into: &out)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            let ms = median(times)
            print(String(format: "%dx%d %@ cpu/%d: %.2f ms/frame (%.0f Mpx/s, %.2fx copy)", snapshots[0].width,
                         snapshots[0].height, effect.rawValue, threads, ms, pixels / ms / 1e3, ms / median(copyTimes)))
        }
        if options.gles, let gles = glesRenderer {
            gles.resetStats()
            try gles.load(snapshots: snapshots)
            let upload = gles.stats.uploadSeconds * 1e3
            var out = Pixmap(width: 0, height: 0)
            try gles.draw(lists[0], into: &out)
            gles.resetStats()
            var times: [Double] = []
            for list in lists {
                let start = DispatchTime.now().uptimeNanoseconds
                try gles.draw(list, into: &out)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            let stats = gles.stats
            let start = DispatchTime.now().uptimeNanoseconds
            try gles.drawFrames(count: lists.count, list: { lists[$0] }, deliver: { _, _ in })
            let pipelined = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 / Double(lists.count)
            print(String(format: "%dx%d %@ gles: %.2f ms/frame (draw %.2f + readback %.2f; upload %.1f ms once), pipelined %.2f ms/frame",
                         snapshots[0].width, snapshots[0].height, effect.rawValue, median(times),
                         stats.drawPerFrame * 1e3, stats.readbackPerFrame * 1e3, upload, pipelined))
        }
    }
}
