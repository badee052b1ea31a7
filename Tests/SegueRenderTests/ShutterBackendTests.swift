import SegueTestSupport
import SegueCore
import SegueCPU
import SegueGLES
import Testing

extension GLESSuite {
    /// Motion blur on each backend: the shutter's samples summed by the renderer (on GLES on the GPU,
    /// `ShutterAccumulator`) give the bytes `FrameAccumulator` gives summing the same samples read back one by
    /// one, and a clip's frames uploaded (on GLES through a pixel unpack buffer) while earlier frames are still
    /// in flight show each frame's own picture.
    @Suite struct Shutter {
        /// The mean of `samples` as FrameAccumulator makes it from each sample's read-back.
        static func cpuMean(_ renderer: any Renderer, _ samples: [RenderFrame]) throws -> Pixmap {
            var sum = FrameAccumulator()
            sum.reset(width: samples[0].width, height: samples[0].height)
            var read = Pixmap(width: 0, height: 0)
            for sample in samples {
                try renderer.draw(sample, into: &read)
                sum.add(read)
            }
            var mean = Pixmap(width: 0, height: 0)
            sum.average(into: &mean)
            return mean
        }

        @Test(arguments: TestBackend.all, [2, 8, 64])
        func theRenderersSumEqualsTheSumOfReadBacks(_ backend: TestBackend, samples count: Int) throws {
            let snapshots = TestTransitions.snapshots(width: 121, height: 203)
            let renderer = try backend.makeRenderer()
            if let renderer = renderer as? GLESRenderer, renderer.details.contains("llvmpipe") {
                #expect(renderer.sumsShutterOnGPU, "llvmpipe has GL_EXT_color_buffer_float and GL_EXT_float_blend")
            }
            try renderer.load(snapshots: snapshots)
            // Page-flip over a stretch of progress: every pixel of the spine's sweep changes between samples.
            let samples = (0..<count).map { i in
                RenderFrame.layers(TestTransitions.drawList(.pageFlip, .forward, t: 0.3 + 0.2 * Double(i) / Double(count),
                                                            snapshots: snapshots))
            }
            let expected = try Self.cpuMean(renderer, samples)
            var got = Pixmap(width: 0, height: 0)
            try renderer.draw(.average(samples), into: &got)
            let differing = zip(got.pixels, expected.pixels).filter { $0 != $1 }.count
            #expect(got.width == expected.width && got.height == expected.height)
            #expect(differing == 0, "\(backend), \(count) samples: \(differing) pixels differ from the sum of read-backs")
            var first = Pixmap(width: 0, height: 0)
            try renderer.draw(samples[0], into: &first)
            #expect(got != first, "the blur changes the picture")
            try backend.expectDrewOnItsPath(renderer, name: "theRenderersSumEqualsTheSumOfReadBacks")
        }

        @Test(arguments: TestBackend.all)
        func blurredFramesInFlightMatchBlurredFramesOneByOne(_ backend: TestBackend) throws {
            let snapshots = TestTransitions.snapshots(width: 120, height: 200)
            let renderer = try backend.makeRenderer()
            try renderer.load(snapshots: snapshots)
            func frame(_ k: Int) -> RenderFrame {
                .average((0..<4).map { i in
                    .layers(TestTransitions.drawList(.spin, .forward, t: (Double(k) + Double(i) / 4) / 8, snapshots: snapshots))
                })
            }
            var delivered: [Pixmap] = []
            try renderer.drawFrames(count: 8, frame: frame, buffer: { nil }) { _, pixmap in delivered.append(pixmap) }
            #expect(delivered.count == 8)
            for k in 0..<8 {
                var single = Pixmap(width: 0, height: 0)
                try renderer.draw(frame(k), into: &single)
                #expect(delivered[k] == single, "\(backend): blurred frame \(k) differs between drawFrames and draw")
            }
            try backend.expectDrewOnItsPath(renderer, name: "blurredFramesInFlightMatchBlurredFramesOneByOne")
        }

        /// Against the reference within the backend's tolerance (the original GLES check compared at 2 levels:
        /// `glesVsCPU`'s).
        @Test(arguments: TestBackend.all)
        func clipFramesUploadedMidRunShowTheirOwnPicture(_ backend: TestBackend) throws {
            let width = 96, height = 160
            let still = TestTransitions.snapshots(width: width, height: height)
            // Six pictures of the `from` screen, as a clip's frames: the still with a band moved down each frame.
            let pictures = (0..<6).map { j -> Pixmap in
                var p = still[0]
                for y in (j * 20)..<(j * 20 + 12) { for x in 0..<width { p.pixels[y * width + x] = 0xFF00_80FF } }
                return p
            }
            let renderer = try backend.makeRenderer(), cpu = CPUCompositor(threads: 1)
            try renderer.load(snapshots: still)
            func list(_ k: Int) -> DrawList { TestTransitions.drawList(.door, .forward, t: Double(k) / 5, snapshots: still) }
            var delivered: [Pixmap] = []
            try renderer.drawFrames(count: 6, frame: { k in
                // Replaced while frames k - 1 and k - 2 may still be drawing or being read back.
                try renderer.update(snapshot: 0, with: pictures[k])
                return .layers(list(k))
            }, buffer: { nil }) { _, pixmap in delivered.append(pixmap) }
            for k in 0..<6 {
                let expected = try cpu.rendering(list(k), snapshots: [pictures[k], still[1]])
                let comparison = ImageComparison(actual: delivered[k], expected: expected, levels: backend.tolerance.maxLevelDiff)
                #expect(comparison.passes(backend.tolerance), "\(backend): frame \(k): \(comparison), needs \(backend.tolerance)")
            }
            try backend.expectDrewOnItsPath(renderer, name: "clipFramesUploadedMidRunShowTheirOwnPicture")
        }
    }
}
