import Foundation
import SegueCore
import SegueImageIO

/// Issue 46's colour figure: a 4K Display P3 screen converted into sRGB as the decoders convert it when it is
/// read, by the matrix/shaper fast path and by Little CMS 2's own transform (the path before it), side by side
/// in one run on the same pixels, on all cores and on one thread (the rate a core gives, from which a machine
/// of more cores is predicted); and an sRGB screen into sRGB, which is not converted at all. The input is the
/// PNG bench's photo-like picture, read as Display P3 values.
enum ColourBench {
    struct Figure {
        var conversion: String
        var path: String
        var threads: Int
        var ms: (Double, Double, Double)
        /// The load average over the last minute when the figure was taken.
        var load: Double
        /// On one thread: the thread's own CPU time per screen (median), which other processes' load on the
        /// machine does not add to as it adds to the wall-clock figure.
        var cpuMs: Double? = nil
    }

    static let size = (width: 3840, height: 2160)

    static func loadAverage() -> Double {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").first.flatMap { Double($0) } ?? -1
    }

    /// The calling thread's CPU time in seconds.
    static func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    static func measure(runs: Int, cores: Int) throws -> [Figure] {
        let input = PNGBench.photo(width: size.width, height: size.height).pixels
        var output = input
        var figures: [Figure] = []
        for method in [PixelConversion.Method.automatic, .littleCMS] {
            guard let conversion = PixelConversion(from: .displayP3, into: .srgb, method: method) else {
                throw BenchError("no \(method.rawValue) conversion from Display P3 into sRGB")
            }
            for threads in cores > 1 ? [cores, 1] : [1] {
                // Each pass converts a fresh copy's pixels: the copy is timed apart and taken off.
                let copy = time(runs: runs, frames: 1) { output.withUnsafeMutableBufferPointer { o in input.withUnsafeBufferPointer { o.baseAddress!.update(from: $0.baseAddress!, count: $0.count) } } }
                let load = loadAverage()
                let t = time(runs: runs, frames: 1) {
                    output.withUnsafeMutableBufferPointer { o in
                        input.withUnsafeBufferPointer { o.baseAddress!.update(from: $0.baseAddress!, count: $0.count) }
                        conversion.apply(o, threads: threads)
                    }
                }
                var figure = Figure(conversion: "display-p3 into srgb", path: conversion.path, threads: threads,
                                    ms: (max(0, t.0 - copy.0), max(0, t.1 - copy.0), max(0, t.2 - copy.0)), load: load)
                if threads == 1 {
                    figure.cpuMs = median((0..<runs).map { _ in
                        output.withUnsafeMutableBufferPointer { o in
                            input.withUnsafeBufferPointer { o.baseAddress!.update(from: $0.baseAddress!, count: $0.count) }
                            let start = threadCPUSeconds()
                            conversion.apply(o, threads: 1)
                            return (threadCPUSeconds() - start) * 1000
                        }
                    })
                }
                figures.append(figure)
            }
        }
        // sRGB into sRGB: what a decoder does for it (the cached answer that there is nothing to convert).
        let load = loadAverage()
        var path = ""
        let t = time(runs: runs, frames: 1) {
            output.withUnsafeMutableBufferPointer { o in
                let conversion = PixelConversion(from: .srgb, into: .srgb)
                path = conversion?.path ?? "none"
                conversion?.apply(o)
            }
        }
        figures.append(Figure(conversion: "srgb into srgb", path: path, threads: cores, ms: t, load: load))
        return figures
    }
}
