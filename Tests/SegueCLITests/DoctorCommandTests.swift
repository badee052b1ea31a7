import Foundation
import Testing

/// `segue doctor` passes where the backends agree, and fails naming the effect, the frame and what is wrong
/// when GLES draws wrong (`SEGUE_GLES_FAULT=perspective` compiles the perspective variants without their
/// divide: the 3D effects go wrong, the flat ones stay right).
@Suite(.serialized) struct DoctorCommandTests {
    /// Runs `segue` with `arguments`; its status and standard output as text.
    func doctor(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: String) {
        let r = try Segue.run(arguments, environment: environment)
        return (r.status, String(decoding: r.stdout, as: UTF8.self) + r.stderr)
    }

    let quick = ["doctor", "--quick", "--egl-platform", "surfaceless", "--quiet", "--seconds", "0.05"]

    @Test func agreeingBackendsPass() throws {
        let r = try doctor(quick)
        #expect(r.status == 0, "\(r.stdout)")
        // The catalogue on each GLES path (raster, compute, compute-staged: 174 frames each at the first size),
        // the shipped shaders and the planes (24), and what jobs use on each path (12 each: RGBA from the ring
        // and 4:2:0 and 4:4:4 planes, 2 frames each at 640x360 and 647x367).
        // On llvmpipe the compute paths draw each effect's middle only (58 frames).
        let paths = r.stdout.contains("paths: raster, compute, compute-staged;") ? 3 : 1
        let others = r.stdout.contains("llvmpipe") ? 58 : 174
        #expect(r.stdout.contains("gles on surfaceless: ok - \(174 + others * (paths - 1) + 24 + 12 * paths) frames agree with the CPU compositor"), "\(r.stdout)")
        // Which path drew each check, as the renderer counted them.
        for path in ["raster", "compute", "compute-staged"].prefix(paths) {
            #expect(r.stdout.contains("\n  catalogue on \(path) at 188x334: \(path) \(path == "raster" ? 174 : others)\n"), "\(r.stdout)")
            #expect(r.stdout.contains("\n  what jobs use on \(path): RGBA from the read-back ring, 4:2:0 and 4:4:4 planes at 640x360 and 647x367: 12 frames, 12 drawn by \(path)\n"), "\(r.stdout)")
        }
        #expect(r.stdout.contains("1920x1080 readback of an empty frame: "), "\(r.stdout)")
        #expect(r.stdout.contains("\nauto: "), "\(r.stdout)")
        // Which backend delivers frames faster here, at the timed size.
        #expect(r.stdout.contains("\nspeed: 1920x1080: cpu "), "\(r.stdout)")
        #expect(r.stdout.contains("doctor: ok ("), "\(r.stdout)")
        // What the machine is: the PCIe link (or that there is no PCI GPU), nvidia-smi (or that it is not
        // there), and the read-back of empty 4K frames, in GB/s; on llvmpipe, no bus.
        #expect(r.stdout.hasPrefix("pcie: no PCI GPU found (") || r.stdout.hasPrefix("pcie at rest: "), "\(r.stdout)")
        #expect(r.stdout.contains("\nnvidia-smi not present (not on PATH)\n") || r.stdout.contains("\nnvidia-smi at rest: "), "\(r.stdout)")
        #expect(r.stdout.contains("\n  readback: 3840x2160 empty frames, "), "\(r.stdout)")
        #expect(r.stdout.contains(" is a software rasterizer, whose frames cross no bus\n"), "\(r.stdout)")
        // Whether GLES reached a GPU, in one line (here: none).
        #expect(r.stdout.contains("\ngpu: none"), "\(r.stdout)")
    }

    /// The first 3D frame that differs is named by effect, direction, progress and size, in the JSON report
    /// as in its verdict line.
    @Test func aDriverThatDrawsWrongFailsNamingTheEffect() throws {
        let r = try Segue.run(quick + ["--json"], environment: ["SEGUE_GLES_FAULT": "perspective"])
        #expect(r.status == 1)
        let json = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        #expect(json?["ok"] as? Bool == false)
        let backends = json?["backends"] as? [[String: Any]] ?? []
        #expect(backends.map { $0["ok"] as? Bool } == [false, true], "\(r.stderr)")
        let report = backends.first?["report"] as? [String: Any]
        #expect((report?["failures"] as? [String])?.first?.hasPrefix("cube forward t=0.5 188x334: ") == true, "\(r.stderr)")
        #expect((backends.first?["verdict"] as? String)?.hasPrefix("gles on surfaceless: FAILED - ") == true)
        #expect(json?["auto"] is String)
        let machine = json?["machine"] as? [String: Any]
        #expect(machine?["gpus"] is [Any], "\(r.stdout)")
        let transfer = report?["transfer"] as? [String: Any]
        #expect(transfer?["width"] as? Int == 3840 && (transfer?["gigabytesPerSecond"] as? Double ?? 0) > 0)
        // No 4:2:0 figure on llvmpipe, where jobs convert on the CPU.
        #expect((report?["timings"] as? [Any])?.count == 4)
        // Where its time went, part by part, each part measured.
        let phases = (report?["phases"] as? [[String: Any]] ?? []).compactMap { p in (p["name"] as? String).map { ($0, p["seconds"] as? Double ?? -1) } }
        #expect(phases.map(\.0).first?.hasPrefix("catalogue on raster at ") == true && phases.map(\.0).suffix(2) == ["timings", "transfer"], "\(phases)")
        #expect(phases.allSatisfy { $0.1 >= 0 }, "\(phases)")
    }

    @Test func aPlatformOrDeviceThatIsNotThereFails() throws {
        let gbm = try doctor(["doctor", "--quick", "--quiet", "--backend", "gles", "--egl-platform", "gbm"])
        #expect(gbm.status == 1, "\(gbm.stdout)")
        #expect(gbm.stdout.contains("gles on gbm: unavailable - "), "\(gbm.stdout)")
        let device = try doctor(["doctor", "--quick", "--quiet", "--backend", "gles", "--egl-platform", "device:7"])
        #expect(device.status == 1)
        #expect(device.stdout.contains("no device 7 (found: device 0, "), "\(device.stdout)")
        let bad = try doctor(["doctor", "--egl-platform", "device:gpu"])
        #expect(bad.status == 2, "\(bad.stdout)")
        // A report that cannot be written is refused before the checks run.
        let nowhere = try doctor(["doctor", "--report", "/nonexistent-segue-dir/r.json"])
        #expect(nowhere.status == 2 && nowhere.stdout.contains("no directory /nonexistent-segue-dir"), "\(nowhere.stdout)")
    }
}
