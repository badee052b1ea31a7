import Foundation
import SegueCore

/// The tools a user would pick instead, doing the same work: pixman drawing the same draw lists, ffmpeg's
/// `xfade` on the same frames from raw input, and a plain copy of one frame.
enum Peers {
    /// Copying one frame of `pixels` pixels: the memory-bandwidth floor. The copies cycle through frames
    /// that together are larger than the last-level cache, so each one goes to memory as a rendered frame does.
    static func copy(pixels: Int, runs: Int) -> (Double, Double, Double) {
        let frameBytes = pixels * 4
        let pairs = max(2, (512 << 20) / max(1, 2 * frameBytes))
        let sources = (0..<pairs).map { _ in [UInt32](repeating: 0x8040_2010, count: pixels) }
        var targets = (0..<pairs).map { _ in [UInt32](repeating: 0, count: pixels) }
        let frames = max(pairs, 8)
        return time(runs: runs, frames: frames) {
            for k in 0..<frames {
                targets[k % pairs].withUnsafeMutableBufferPointer { dst in
                    sources[k % pairs].withUnsafeBufferPointer { src in dst.baseAddress!.update(from: src.baseAddress!, count: src.count) }
                }
            }
        }
    }

    /// Writes the draw lists as the pixman peer reads them (bench/peers/pixman_peer.c).
    static func exportLists(_ lists: [DrawList], to path: String) throws {
        var text = "frames \(lists.count)\n"
        for list in lists {
            text += "frame \(list.width) \(list.height) \(list.background) \(list.items.count)\n"
            for item in list.items {
                let m = item.pixelToLocal
                var fields: [String] = []
                switch item.source {
                case let .snapshot(id, map):
                    fields.append("\(id.rawValue)")
                    fields += [m.a, m.b, m.c, m.d, m.e, m.f, m.g, m.h, m.i].map { "\($0)" }
                    fields += [map.origin.x, map.origin.y, map.scale.x, map.scale.y,
                               map.clampMin.x, map.clampMin.y, map.clampMax.x + 1, map.clampMax.y + 1].map { "\($0)" }
                case .color:
                    fields.append("-1")
                    fields += [m.a, m.b, m.c, m.d, m.e, m.f, m.g, m.h, m.i].map { "\($0)" }
                    fields += Array(repeating: "0", count: 8)
                }
                fields.append("\(item.opacity)")
                switch item.mask {
                case let .circle(center, radius)?:
                    // The circle in pixels (the bench's masked layers are affine and uniformly scaled).
                    let (x, y, w) = item.localToPixel.apply(center.x, center.y)
                    let (ex, ey, ew) = item.localToPixel.apply(center.x + radius, center.y)
                    fields += ["1", "\(x / w)", "\(y / w)", "\(((ex / ew - x / w) * (ex / ew - x / w) + (ey / ew - y / w) * (ey / ew - y / w)).squareRoot())"]
                case .roundedRect?, .continuousRect?:
                    fields += ["2", "0", "0", "0"]
                case .sector?:
                    fields += ["3", "0", "0", "0"]
                case .blurred?:
                    // The pixman peer has no blur: it draws the shadow's box unmasked.
                    fields += ["4", "0", "0", "0"]
                case nil:
                    fields += ["0", "0", "0", "0"]
                }
                fields += ["\(item.bounds.x0)", "\(item.bounds.y0)", "\(item.bounds.x1)", "\(item.bounds.y1)"]
                if case let .color(r, g, b, a) = item.source {
                    func byte(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255).rounded()) }
                    fields.append("\(Pixmap.pack(r: byte(r), g: byte(g), b: byte(b), a: byte(a)))")
                } else {
                    fields.append("0")
                }
                text += "item " + fields.joined(separator: " ") + "\n"
            }
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func writeRaw(_ pixmap: Pixmap, to path: String) throws {
        try pixmap.pixels.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: path)) }
    }

    struct PeerResult: Decodable { var msPerFrame: Double; var msMin: Double; var msMax: Double }

    /// Runs the pixman peer on the exported lists; nil when it is not built.
    static func pixman(peer: String, lists: String, from: String, to: String, width: Int, height: Int,
                       threads: Int, runs: Int) throws -> PeerResult? {
        guard FileManager.default.isExecutableFile(atPath: peer) else { return nil }
        let output = try run(peer, [lists, from, to, "\(width)", "\(height)", "\(threads)", "\(runs)"])
        return try JSONDecoder().decode(PeerResult.self, from: Data(output.utf8))
    }

    /// ffmpeg `xfade=transition=NAME` over `frames` frames of two raw planar-RGB inputs (xfade's native
    /// format, converted once beforehand). Per-frame time is the difference between runs of 2N and N frames,
    /// so process start and set-up cancel out. Nil when ffmpeg is missing.
    static func xfade(_ transition: String, from: String, to: String, width: Int, height: Int, frames: Int,
                      runs: Int) throws -> (Double, Double, Double)? {
        guard firstLine(of: ["ffmpeg", "-version"]) != nil else { return nil }
        func seconds(_ count: Int) throws -> Double {
            let input = ["-f", "rawvideo", "-pix_fmt", "gbrp", "-s", "\(width)x\(height)", "-framerate", "60", "-stream_loop", "-1", "-i"]
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try run("/usr/bin/env", ["ffmpeg", "-v", "error", "-nostdin"] + input + [from] + input + [to] + [
                "-filter_complex", "[0][1]xfade=transition=\(transition):duration=\(Double(2 * frames + 2) / 60):offset=0",
                "-frames:v", "\(count)", "-f", "null", "-"])
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        var perFrame: [Double] = []
        for _ in 0..<max(1, runs) {
            let short = try seconds(frames), long = try seconds(2 * frames)
            perFrame.append(max(0, long - short) * 1000 / Double(frames))
        }
        perFrame.sort()
        return (perFrame[perFrame.count / 2], perFrame.first!, perFrame.last!)
    }

    /// Converts straight RGBA raw frames to planar RGB (gbrp) with ffmpeg.
    static func toPlanarRGB(_ rgba: String, _ gbrp: String, width: Int, height: Int) throws {
        _ = try run("/usr/bin/env", ["ffmpeg", "-v", "error", "-nostdin", "-y", "-f", "rawvideo", "-pix_fmt", "rgba",
                                     "-s", "\(width)x\(height)", "-i", rgba, "-f", "rawvideo", "-pix_fmt", "gbrp", gbrp])
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw BenchError("\(executable) \(arguments.first ?? "") failed: \(String(decoding: errors, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
