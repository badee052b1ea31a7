import Foundation

/// What a job will hold at its peak, known before it draws, and what the machine lets it have.
///
/// A job holds its screens (each one frame's bytes), the frames each clip's reader decodes ahead
/// (`ClipReader.framesAhead`), the frames in flight in the pipeline (drawn, waiting to be encoded or written), a
/// buffer per encoder, and, on GLES, the driver's copies: a texture per screen, the framebuffer and the readback
/// ring. Frames in flight are cut down to what fits, and a job that does not
/// fit even with one is refused with what it needs.
struct MemoryBudget {
    /// Bytes of one frame.
    var frameBytes: Int
    var screens: Int
    /// Screens that are video clips (among `screens`), each with frames decoded ahead.
    var clips = 0
    var gles: Bool
    /// Motion blur: a 32-bit-per-channel sum (four frames' bytes) and a sample frame, on the drawing thread.
    var blurred = false

    /// Bytes held at the peak with `inFlight` frames in the pipeline, and 64 MiB for the process itself. Each
    /// encoder holds about two frames' bytes (its rows and its output). Measured peaks (release build, 2 cores,
    /// circle-spread at 7680x4320): CPU 40 MiB per megapixel writing PNG, 23 writing raw RGBA; GLES on
    /// llvmpipe 53 and 39; this estimate is 40 on the CPU and 64 on GLES, so it errs high.
    func peak(inFlight: Int) -> Int {
        let encoders = 2 * ProcessInfo.processInfo.activeProcessorCount
        let driver = gles ? screens + 1 + BackendChoice.glesReadbackBuffers : 0
        let blur = blurred ? 5 : 0
        let ahead = clips * ClipReader.framesAhead
        let (bytes, overflow) = frameBytes.multipliedReportingOverflow(by: screens + ahead + inFlight + encoders + driver + blur)
        return overflow ? Int.max / 2 : bytes + 64 << 20
    }

    /// Threads the job runs at once: the compositor's and the pipeline's (a core each), the stream writer, the
    /// watchdog and an encoder's standard-error reader, and each clip's frame reader and ffmpeg's standard-error
    /// reader.
    var threads: Int { 2 * ProcessInfo.processInfo.activeProcessorCount + 3 + 2 * clips }

    /// Address space each thread reserves beyond what the frames count, little of it ever touched: its stack
    /// (8 MiB under the usual `ulimit -s`). `ulimit -v` counts it. (Each thread's malloc arena would reserve
    /// 64 MiB more: the command line keeps to one arena under an address-space limit, see CSegueStartup. Without
    /// that, a two-clip 1080x1920 job on 2 cores peaked at 585 MiB of address space, about 200 MiB at the check
    /// and 152 MiB of frames and buffers, and under a limit the check accepted a frame's allocation failed.)
    static let addressSpacePerThread = 8 << 20

    /// Frames in flight: up to `wanted`, as many as fit in `available` bytes; nil when not even one does.
    func inFlight(wanted: Int, available: Int?) -> Int? {
        guard let available else { return wanted }
        var n = wanted
        while n > 1 && peak(inFlight: n) > available { n -= 1 }
        return peak(inFlight: n) <= available ? n : nil
    }

    /// Bytes the process may still allocate: the least of the memory the kernel says is available, the room
    /// left under a cgroup limit, and the room left under an address-space limit (`ulimit -v`) once `threads`
    /// threads have reserved theirs (`addressSpacePerThread`); nil when none can be read.
    static func available(threads: Int = 0) -> Int? {
        var limits: [Int] = []
        if let meminfo = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8),
           let kib = field(meminfo, "MemAvailable:") {
            limits.append(kib * 1024)
        }
        if let max = try? String(contentsOfFile: "/sys/fs/cgroup/memory.max", encoding: .utf8),
           let limit = Int(max.trimmingCharacters(in: .whitespacesAndNewlines)),
           let current = (try? String(contentsOfFile: "/sys/fs/cgroup/memory.current", encoding: .utf8))
               .flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            limits.append(limit - current)
        }
        var rl = rlimit()
        if getrlimit(Int32(RLIMIT_AS.rawValue), &rl) == 0, rl.rlim_cur != rlim_t.max,
           let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let vm = field(status, "VmSize:") {
            limits.append(Int(clamping: rl.rlim_cur) - vm * 1024 - threads * addressSpacePerThread)
        }
        return limits.min()
    }

    /// The number after `name` in a `/proc` file's line (in kB).
    private static func field(_ text: String, _ name: String) -> Int? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    static func mebibytes(_ bytes: Int) -> String {
        let whole = max(0, bytes)
        return "\((whole >> 20) + (whole & (1 << 20 - 1) == 0 ? 0 : 1)) MiB"  // up, without overflow at Int.max
    }
}
