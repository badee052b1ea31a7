import Foundation

/// Issue 45's targets for a machine with a GPU, read from the bench's reports (`segue-bench --targets A.json
/// B.json ... [--link-gbps N]`): one line each, met or missed, with the figure, for scripts/gpu-check.sh's
/// summary. A target whose figures are not in the reports says so (`no figure`), never met.
enum GPUTargets {
    /// The lines for `reports`; `linkGBps` is the PCIe link's rate (device to host) where it was read.
    static func lines(_ reports: [Report], linkGBps: Double?) -> [String] {
        let results = reports.flatMap(\.results)
        let jobs = reports.flatMap { $0.jobs ?? [] }
        let cores = results.filter { $0.backend == "cpu" }.map(\.threads).max() ?? 1
        func get(_ effect: String, _ w: Int, _ h: Int, _ backend: String, _ stage: String) -> Double? {
            results.first { $0.effect == effect && $0.width == w && $0.height == h && $0.backend == backend && $0.stage == stage }?.msPerFrame
        }
        var out: [String] = []
        func target(_ name: String, _ figure: String?, _ met: Bool?) {
            out.append("- \(met == true ? "met" : met == false ? "MISSED" : "no figure"): \(name)" + (figure.map { ": \($0)" } ?? ""))
        }
        let compute = ["gles-compute", "gles-compute-staged"]
        let gles = ["gles"] + compute
        let effects = Array(Set(results.filter { $0.backend == "cpu" || gles.contains($0.backend) }.map(\.effect))).sorted()
        let sizes = [(3840, 2160), (7680, 4320)]
        func best(_ e: String, _ w: Int, _ h: Int, _ backends: [String], _ stage: String) -> (ms: Double, backend: String)? {
            backends.compactMap { b in get(e, w, h, b, stage).map { ($0, b) } }.min { $0.0 < $1.0 }
        }
        // The kernel: the dispatch alone on the GPU's clock (compute-staged's writes stay in device memory).
        for e in effects {
            let kernel = get(e, 3840, 2160, "gles-compute-staged", "gpu draw")
            target("compute kernel \(e) at 3840x2160 <= 0.15 ms (GPU clock)", kernel.map { String(format: "%.3f ms", $0) }, kernel.map { $0 <= 0.15 })
        }
        // 4:2:0 across the bus: compute-staged's copy on the GPU's clock, against the link.
        let planeBytes = 3840.0 * 2160 * 1.5
        for e in effects {
            guard let copy = get(e, 3840, 2160, "gles-compute-staged", "gpu transfer yuv420") else { continue }
            let rate = planeBytes / (copy / 1000) / 1e9
            let floor = max(35, (linkGBps ?? 0) / 1.3)
            target("4:2:0 read-back \(e) at 3840x2160 within 1.3x of the link (>= \(String(format: "%.1f", floor)) GB/s)",
                   String(format: "%.1f GB/s (link %@)", rate, linkGBps.map { String(format: "%.1f GB/s", $0) } ?? "not read"), rate >= floor)
        }
        for e in effects {
            let rgba = best(e, 3840, 2160, compute, "draw+readback rgba"), yuv = best(e, 3840, 2160, compute, "draw+readback yuv420")
            let ratio = rgba.flatMap { r in yuv.map { r.ms / $0.ms } }
            target("4:2:0 frames/s >= 2.5x RGBA's, \(e) at 3840x2160 (best compute path)", ratio.map { String(format: "%.2fx", $0) }, ratio.map { $0 >= 2.5 })
        }
        // Against the CPU compositor on all cores (its draw alone: the C kernel's conversion to planes is not
        // counted, which favours the CPU).
        for (w, h) in sizes {
            // The link's floor for an RGBA frame: its bytes at the link's rate (PCIe Gen5 x16's 63 GB/s if unread).
            let floor = Double(w * h * 4) / ((linkGBps ?? 63) * 1e9) * 1000
            for e in effects {
                guard let cpu = get(e, w, h, "cpu", "draw") else { continue }
                let yuv = best(e, w, h, gles, "draw+readback yuv420")
                target("planes: GLES draw+readback faster than the CPU on \(cores) cores, \(e) \(w)x\(h)",
                       yuv.map { String(format: "%.3f ms (%@) against %.3f ms", $0.ms, $0.backend, cpu) }, yuv.map { $0.ms < cpu })
                if cpu > floor {
                    let rgba = best(e, w, h, gles, "draw+readback rgba")
                    target("RGBA: GLES draw+readback faster than the CPU, \(e) \(w)x\(h) (CPU \(String(format: "%.3f", cpu)) ms > the link's floor \(String(format: "%.3f", floor)) ms)",
                           rgba.map { String(format: "%.3f ms (%@)", $0.ms, $0.backend) }, rgba.map { $0.ms < cpu })
                }
            }
        }
        // Whole jobs.
        for output in Set(jobs.map(\.output)).sorted() {
            let of = jobs.filter { $0.output == output }
            guard let cpu = of.first(where: { $0.backend == "cpu" }), let cpuFPS = cpu.framesPerSecond else { continue }
            let gpu = of.filter { $0.backend != "cpu" && $0.framesPerSecond != nil }.max { $0.framesPerSecond! < $1.framesPerSecond! }
            if output.lowercased().contains("y4m") {
                let ratio = gpu.map { $0.framesPerSecond! / cpuFPS }
                target("whole job \(output): GLES >= 2x the CPU backend's frames/s", ratio.map { String(format: "%.2fx (%@)", $0, gpu!.backend) }, ratio.map { $0 >= 2 })
            } else if output.lowercased().contains("mp4") {
                let met = gpu.map { $0.framesPerSecond! >= cpuFPS && ($0.cpuSeconds ?? .infinity) < (cpu.cpuSeconds ?? 0) }
                target("whole job \(output): GLES at least the CPU's frames/s with fewer CPU seconds",
                       gpu.map { String(format: "%.1f fps, %.1f CPU s (%@) against %.1f fps, %.1f CPU s", $0.framesPerSecond!, $0.cpuSeconds ?? .nan, $0.backend, cpuFPS, cpu.cpuSeconds ?? .nan) }, met)
            }
        }
        return out
    }

    /// `segue-bench --targets FILE... [--link-gbps N]`: prints the lines.
    static func main(_ arguments: [String]) throws {
        var files: [String] = [], link: Double?
        var k = 0
        while k < arguments.count {
            if arguments[k] == "--link-gbps", k + 1 < arguments.count {
                link = Double(arguments[k + 1])
                k += 2
                continue
            }
            files.append(arguments[k])
            k += 1
        }
        let reports = files.compactMap { path -> Report? in
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("segue-bench: --targets: no report at \(path)\n".utf8))
                return nil
            }
            return try? JSONDecoder().decode(Report.self, from: data)
        }
        print(lines(reports, linkGBps: link).joined(separator: "\n"))
    }
}
