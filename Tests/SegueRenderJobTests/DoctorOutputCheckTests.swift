@testable import SegueDoctor
import Testing

/// Doctor's check of what jobs use on one GLES path holds only where the renderer counted every frame as that
/// path's own: a path that handed its frames to another is named with what drew them.
struct DoctorOutputCheckTests {
    @Test func aPathWhoseFramesAnotherDrewDoesNotHold() {
        let fell = Doctor.OutputCheck(path: "compute", sizes: ["640x360", "647x367"], frames: 12,
                                      drawnBy: ["raster": 12, "fallback (over 1024 items)": 12], wrong: 0)
        #expect(!fell.drawnByThePath)
        #expect(fell.line == "compute: RGBA from the read-back ring, 4:2:0 and 4:4:4 planes at 640x360 and 647x367: 12 frames, "
                + "12 drawn by fallback (over 1024 items), 12 drawn by raster", "\(fell.line)")
        let some = Doctor.OutputCheck(path: "compute", sizes: ["640x360"], frames: 12, drawnBy: ["compute": 11, "raster": 1], wrong: 1)
        #expect(!some.drawnByThePath && some.line.hasSuffix("11 drawn by compute, 1 drawn by raster, 1 wrong"), "\(some.line)")
        let none = Doctor.OutputCheck(path: "compute-staged", sizes: ["640x360"], frames: 12, drawnBy: [:], wrong: 0)
        #expect(!none.drawnByThePath && none.line.hasSuffix("none counted as drawn by any path"))
        let drew = Doctor.OutputCheck(path: "compute", sizes: ["640x360"], frames: 12, drawnBy: ["compute": 12], wrong: 0)
        #expect(drew.drawnByThePath)
    }
}
