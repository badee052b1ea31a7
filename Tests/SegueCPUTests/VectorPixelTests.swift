@testable import SegueCore
@testable import SegueCPU
import CSegueKernels
import SegueSamples
import SegueTestSupport
import Testing

/// The four-at-once forms of the per-pixel arithmetic (`scale`, `over`, the gradient overlay) and the AVX2
/// row kernels give what the scalar forms give, bit for bit, on random premultiplied pixels and positions.
@Suite struct VectorPixelTests {
    /// The sample screens on a phone-sized frame at scale 2 (750x1334 pixels), and their textures.
    static func phoneScreens() -> (frame: Size, snapshots: [Pixmap], textures: [Texture]) {
        let frame = Size(375, 667)
        let snapshots = [SampleScreens.home(width: frame.width, height: frame.height, scale: 2),
                         SampleScreens.detail(width: frame.width, height: frame.height, scale: 2)]
        return (frame, snapshots, snapshots.map(Texture.init))
    }

    @Test func scaleAndOverMatchOneAtATime() {
        var random = SeededRandom()
        var differing = 0
        for _ in 0..<50_000 {
            let source = random.pixels(), target = random.pixels()
            let k = SIMD4<UInt32>(UInt32(random.next() % 256), UInt32(random.next() % 256), UInt32(random.next() % 256), 255)
            let scaled = PixelMath.scale(source, k), over = PixelMath.over(source, target)
            for j in 0..<4 where scaled[j] != PixelMath.scale(source[j], k[j]) || over[j] != PixelMath.over(source[j], target[j]) {
                differing += 1
            }
        }
        #expect(differing == 0, "\(differing) of 200000 pixels differ")
    }

    /// Page-flip's turning halves, each given random gradients and colours in place of its shadow.
    @Test func overlayMatchesOneAtATime() throws {
        let frame = Size(375, 667)
        let snapshots = [SampleScreens.home(width: frame.width, height: frame.height, scale: 1),
                         SampleScreens.detail(width: frame.width, height: frame.height, scale: 1)]
        let textures = snapshots.map(Texture.init)
        let list = DrawList(scene: Transition(.pageFlip).scene(at: 0.3, frame: frame, scale: 1), scale: 1,
                            snapshots: snapshots.map(SnapshotInfo.init))
        let items = list.items.filter { $0.overlay != nil }
        try #require(!items.isEmpty)
        var random = SeededRandom()
        var differing = 0, compared = 0
        for var item in items {
            for _ in 0..<200 {
                let opacity = random.unit()
                func color() -> (Double, Double, Double, Double) {
                    let a = random.unit() * opacity
                    return (random.unit() * a, random.unit() * a, random.unit() * a, a)
                }
                item.overlay = DrawItem.Overlay(gradient: ((random.unit() - 0.5) / 50, (random.unit() - 0.5) / 50, random.unit() * 2 - 0.5),
                                                start: color(), end: color())
                let shader = LayerShader(item, textures: textures)
                for _ in 0..<100 {
                    let u = SIMD4<Float>((0..<4).map { _ in Float(random.unit() * 500 - 60) })
                    let v = SIMD4<Float>((0..<4).map { _ in Float(random.unit() * 800 - 60) })
                    let content = random.pixels()
                    let four = shader.overlay(content, u, v)
                    for j in 0..<4 where four[j] != shader.overlay(content[j], u[j], v[j]) { differing += 1 }
                    compared += 4
                }
            }
        }
        #expect(differing == 0, "\(differing) of \(compared) overlaid pixels differ")
    }

    /// The row kernels, AVX-512 and AVX2 (where this CPU has them) and SSE2, against the scalar functions pixel
    /// by pixel, on 4K rows and on lengths around the kernels' steps (the AVX-512 and AVX2 kernels leave the
    /// last `count % 16` or `count % 8` pixels to the SSE2 loop, which leaves its last `count % 4` to the
    /// scalar one). AVX-512 has only the lerp; its blend is AVX2's.
    @Test func rowKernelsMatchThePixelFunctions() {
        var random = SeededRandom()
        let kernels = (PixelMath.hasAVX512 ? ["avx512"] : []) + (PixelMath.hasAVX2 ? ["avx2"] : []) + ["sse2"]
        var differing: [String: Int] = [:]
        for count in [1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 3840, 3843] {
            for _ in 0..<8 {
                let source = (0..<count).map { _ in random.pixel() | 0xFF00_0000 }
                let before = (0..<count).map { _ in random.pixel() }, other = (0..<count).map { _ in random.pixel() }
                let k = UInt32(random.next() % 256), w = UInt32(random.next() % 257)
                for kernel in kernels {
                    // The AVX2 kernels' part, then the SSE2 loop for the rest, as `blendOpaqueRow` does.
                    var blended = before, lerped = before
                    blended.withUnsafeMutableBufferPointer { target in
                        source.withUnsafeBufferPointer { source in
                            let done = kernel != "sse2" ? segue_blend_opaque_row_avx2(target.baseAddress!, source.baseAddress!, count, k) : 0
                            PixelMath.blendOpaqueRowSSE(target.baseAddress! + done, source.baseAddress! + done, count: count - done, k: k)
                        }
                    }
                    // In place: the target is the first row, as the separable bilinear's vertical pass allows.
                    lerped.withUnsafeMutableBufferPointer { target in
                        other.withUnsafeBufferPointer { q in
                            let p = UnsafePointer(target.baseAddress!)
                            let done = kernel == "avx512" ? segue_lerp_rows_avx512(target.baseAddress!, p, q.baseAddress!, count, w)
                                : kernel == "avx2" ? segue_lerp_rows_avx2(target.baseAddress!, p, q.baseAddress!, count, w) : 0
                            PixelMath.lerpRowsSSE(target.baseAddress! + done, p + done, q.baseAddress! + done, count: count - done, w: w)
                        }
                    }
                    for n in 0..<count where blended[n] != PixelMath.over(PixelMath.scale(source[n], k), before[n])
                        || lerped[n] != PixelMath.lerp(before[n], other[n], w) {
                        differing[kernel, default: 0] += 1
                    }
                }
            }
        }
        #expect(differing.isEmpty, "pixels differing from the scalar functions, by kernel: \(differing)")
    }

    /// The horizontal pass of the separable bilinear, each kernel this CPU has (AVX-512's sixteen pixels a
    /// block, AVX2's eight, the pair kernel's eight at any step) and all chained as drawing chains them
    /// (`lerpColumnsVector`), against `lerp` at each pixel's own position and weight: random columns, start
    /// positions (fractions near a carry and near a weight's rounding among them), steps from a fraction of a
    /// column to just under two (to 40 for the pair kernel and the chain), run lengths around the blocks. Each
    /// must stop before reading past `readable` and draw whole blocks only; the chain, every whole block.
    /// Skipped on a CPU without AVX2; the AVX-512 case only where the CPU has AVX-512.
    @Test(.enabled(if: PixelMath.hasAVX2, "this CPU has no AVX2"),
          arguments: VectorKernels.wide + ["pairs", "chained"])
    func columnKernelMatchesThePixelFunction(_ kernel: String) throws {
        // Pixels a block, and columns a block reads from its first (the pair kernel: each pixel its pair).
        let (block, reads) = kernel == "avx512" ? (16, 32) : kernel == "pairs" ? (8, 2) : (8, 16)
        // The pair kernel, and the chain that ends in it, take any step: up to 40 columns a pixel.
        let longest: Int64 = kernel == "pairs" || kernel == "chained" ? 40 : 2
        var random = SeededRandom()
        let one: Int64 = 1 << 32
        var differing = 0, drawn = 0
        let fractions: [Int64] = [0, 1, 0x7F_FFFF, 0x80_0000, 0xFF7F_FFFF, 0xFF80_0000, one - 1]
        for trial in 0..<2_000 {
            let count = [1, 7, 8, 9, 16, 17, 31, 33, 63, 64, 65, 1000][trial % 12]
            let step: Int64 = trial % 3 == 0 ? 2 * one - 1 - Int64(random.next() % 1000)
                : 1 + Int64(random.next() % UInt64(longest * one - 1))
            let startColumn = Int64(random.next() % 20)
            let fraction = trial % 2 == 0 ? fractions[Int(random.next() % UInt64(fractions.count))] : Int64(random.next() % UInt64(one))
            let fx = startColumn * one + fraction
            let first = Int(fx >> 32), last = Int((fx + Int64(count - 1) * step) >> 32)
            // Every fourth run's columns end before its last pixel's pair: the kernels must stop short.
            let readable = trial % 4 == 1 ? first + 2 + Int(random.next() % UInt64(last - first + 1)) : last + 2 + Int(random.next() % 40)
            let columns = (0..<readable).map { _ in random.pixel() }
            var row = [UInt32](repeating: 0, count: count)
            let done = row.withUnsafeMutableBufferPointer { row in
                columns.withUnsafeBufferPointer { columns in
                    switch kernel {
                    case "avx512": segue_lerp_columns_avx512(row.baseAddress!, columns.baseAddress!, readable, fx, step, count)
                    case "avx2": segue_lerp_columns_avx2(row.baseAddress!, columns.baseAddress!, readable, fx, step, count)
                    case "pairs": segue_lerp_column_pairs_avx2(row.baseAddress!, columns.baseAddress!, readable, fx, step, count)
                    default: PixelMath.lerpColumnsVector(row.baseAddress!, columns.baseAddress!, readable: readable, fx: fx, step: step, count: count)
                    }
                }
            }
            #expect(done % block == 0 && done <= count)
            if kernel == "chained", trial % 4 != 1 { #expect(done == count / 8 * 8) }
            for n in 0..<done {
                let position = fx + Int64(n) * step
                let i = Int(position >> 32)
                guard i + 1 < readable else { differing += 1; continue }  // drawn from past the columns
                if row[n] != PixelMath.lerp(columns[i], columns[i + 1], PixelMath.weight(position)) { differing += 1 }
            }
            // The last block drawn read `reads` columns from its first (its last pixel's, for pairs): all of them
            // readable.
            let lastRead = kernel == "pairs" ? done - 1 : done - block
            if done > 0, kernel != "chained" { #expect(Int((fx + Int64(lastRead) * step) >> 32) + reads <= readable) }
            drawn += done
        }
        #expect(differing == 0, "\(differing) of \(drawn) pixels differ")
        #expect(drawn > 50_000, "the kernel drew only \(drawn) pixels")
    }

    /// The AVX2 stepped bilinear (rotated rows, perspective sub-spans) against `bilinear` at each pixel's own
    /// position, bit for bit: random textures, starts and steps of either sign up to three texels a pixel
    /// along both axes, runs that keep inside the texture (its last row and column among them).
    @Test(.enabled(if: PixelMath.hasAVX2, "this CPU has no AVX2"))
    func steppedKernelMatchesThePixelFunction() throws {
        var random = SeededRandom()
        let one: Int64 = 1 << 32
        let width = 97, height = 61
        // In a `Texture`, padded as the kernel needs.
        let texture = Texture(Pixmap(width: width, height: height, pixels: (0..<(width * height)).map { _ in random.pixel() }))
        let texels = UnsafePointer(texture.base)
        var differing = 0, drawn = 0
        for trial in 0..<3_000 {
            let count = [8, 9, 16, 17, 40][trial % 5]
            func axis(_ size: Int, pinned: Bool) -> (start: Int64, step: Int64) {
                let high = Int64(size - 1) * one
                if pinned { return (high, 0) }
                let step = Int64(random.next() % UInt64(6 * one)) - 3 * one
                let span = abs(step) * Int64(count - 1)
                guard span <= high else { return (Int64(random.next() % UInt64(high + 1)), 0) }
                let start = Int64(random.next() % UInt64(high - span + 1)) + (step < 0 ? span : 0)
                return (start, step)
            }
            // Every sixth run on the texture's last column, every sixth on its last row.
            let x = axis(width, pinned: trial % 6 == 0), y = axis(height, pinned: trial % 6 == 3)
            var row = [UInt32](repeating: 0, count: count)
            let done = row.withUnsafeMutableBufferPointer { row in
                PixelMath.bilinearSteppedAVX2(row.baseAddress!, texels, width: width, height: height,
                                              fx: x.start, fy: y.start, stepX: x.step, stepY: y.step, count: count)
            }
            #expect(done == count / 8 * 8)
            for n in 0..<done {
                let expected = LayerShader.bilinear(texels, width, height, x.start + Int64(n) * x.step, y.start + Int64(n) * y.step)
                if row[n] != expected { differing += 1 }
            }
            drawn += done
        }
        #expect(differing == 0, "\(differing) of \(drawn) pixels differ")
        #expect(drawn > 20_000, "the kernel drew only \(drawn) pixels")
    }

    /// The row the AVX2 kernels read below the last is a copy of the last, when the texture is made and when
    /// a clip's next frame replaces its texels.
    @Test func texturePadsWithItsLastRow() {
        var random = SeededRandom()
        let width = 13, height = 5
        func pixmap() -> Pixmap { Pixmap(width: width, height: height, pixels: (0..<(width * height)).map { _ in random.pixel() }) }
        func padding(_ texture: Texture) -> [UInt32] {
            Array(UnsafeBufferPointer(start: texture.base + width * height, count: width))
        }
        let first = pixmap(), texture = Texture(first)
        #expect(padding(texture) == Array(first.pixels.suffix(width)))
        let next = pixmap()
        texture.replace(with: next)
        #expect(padding(texture) == Array(next.pixels.suffix(width)))
    }

    /// The perspective rows of the AVX2 kernel, and of the AVX-512 one chained to it, against the per-pixel
    /// division in Swift (`drawPerspectivePixels`, lane by lane the general function's arithmetic), bit for
    /// bit: every interior row of the perspective layers of page-flip (with its shadow), spin (translucent
    /// while it turns away) and hinge, drawn over a random background, at several progress values.
    @Test(.enabled(if: PixelMath.hasAVX2, "this CPU has no AVX2"), arguments: VectorKernels.wide)
    func perspectiveKernelMatchesThePixelFunction(_ kernel: String) throws {
        let (frame, snapshots, textures) = Self.phoneScreens()
        var random = SeededRandom()
        var differing = 0, compared = 0
        for effect in [Effect.pageFlip, .spin, .hinge] {
            var options = EffectOptions()
            options.set("perspective", 500)
            for t in [0.1, 0.3, 0.45, 0.7, 0.95] {
                let list = DrawList(scene: Transition(effect, options: options).scene(at: t, frame: frame, scale: 2), scale: 2,
                                    snapshots: snapshots.map(SnapshotInfo.init))
                for item in list.items where !item.isAffine {
                    let shader = LayerShader(item, textures: textures)
                    for y in max(0, shader.bounds.y0)..<min(list.height, shader.bounds.y1) {
                        let (x0, x1) = shader.span(row: y)
                        let (i0, i1) = shader.interior(row: y, from: x0, to: x1)
                        guard i1 - i0 >= 8 else { continue }
                        let background = (0..<list.width).map { _ in random.pixel() }
                        var fast = background, reference = background
                        fast.withUnsafeMutableBufferPointer { shader.drawPerspectivePixelsVector(row: $0.baseAddress!, y: y, from: i0, to: i1,
                                                                                                 avx512: kernel == "avx512") }
                        reference.withUnsafeMutableBufferPointer { shader.drawPerspectivePixels(row: $0.baseAddress!, y: y, from: i0, to: i1) }
                        for x in i0..<i1 where fast[x] != reference[x] { differing += 1 }
                        compared += i1 - i0
                    }
                }
            }
        }
        #expect(differing == 0, "\(differing) of \(compared) pixels differ")
        #expect(compared > 100_000, "only \(compared) interior pixels compared")
    }

    /// page-flip's shadow drawn by the AVX2 kernels, with or without the AVX-512 perspective kernel (shaded as
    /// sampled on a turning half at full opacity, else shaded over the sampled interior), against the overlay
    /// drawn pixel by pixel, bit for bit: flat (the first frame) and turning halves, shadows of random
    /// strength, at full opacity and translucent. (The reference samples a perspective interior with the
    /// CPU's widest perspective kernel, which `perspectiveKernelMatchesThePixelFunction` holds to the pixel
    /// function; this test holds the shading.)
    @Test(.enabled(if: PixelMath.hasAVX2, "this CPU has no AVX2"), arguments: VectorKernels.wide)
    func shadeKernelMatchesTheOverlay(_ kernel: String) throws {
        let (frame, snapshots, textures) = Self.phoneScreens()
        var random = SeededRandom()
        var differing = 0, compared = 0, flat = 0
        for t in [0, 0.2, 0.45, 0.6, 0.9] {
            let list = DrawList(scene: Transition(.pageFlip).scene(at: t, frame: frame, scale: 2), scale: 2,
                                snapshots: snapshots.map(SnapshotInfo.init))
            for var item in list.items where item.overlay != nil {
                let start = random.unit(), end = random.unit()
                item.overlay?.start = (0, 0, 0, start)
                item.overlay?.end = (0, 0, 0, end)
                item.opacity = random.next() % 2 == 0 ? 1 : random.unit()
                let shader = LayerShader(item, textures: textures)
                try #require(shader.shadesSampled)
                let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: LayerShader.scratchCount(textures: textures))
                defer { scratch.deallocate() }
                for y in max(0, shader.bounds.y0)..<min(list.height, shader.bounds.y1) {
                    let (x0, x1) = shader.span(row: y)
                    let (i0, i1) = shader.interior(row: y, from: x0, to: x1)
                    guard i0 < i1 else { continue }
                    let background = (0..<list.width).map { _ in random.pixel() }
                    var fast = background, reference = background
                    fast.withUnsafeMutableBufferPointer {
                        shader.drawShadedInterior(row: $0.baseAddress!, y: y, from: i0, to: i1, scratch: scratch, avx512: kernel == "avx512")
                    }
                    reference.withUnsafeMutableBufferPointer {
                        shader.drawInterior(row: $0.baseAddress!, y: y, from: i0, to: i1, scratch: scratch)
                    }
                    for x in i0..<i1 where fast[x] != reference[x] { differing += 1 }
                    compared += i1 - i0
                    if item.isAffine { flat += i1 - i0 }
                }
            }
        }
        #expect(differing == 0, "\(differing) of \(compared) pixels differ")
        #expect(compared > 100_000 && flat > 50_000, "only \(compared) interior pixels compared, \(flat) of them flat")
    }
}

/// The wide kernels this CPU has, for tests parameterised by kernel: a kernel the CPU lacks is not a case (a
/// test of AVX2 ones is skipped as a whole where there is no AVX2, rather than failing).
enum VectorKernels {
    static let wide = (PixelMath.hasAVX512 ? ["avx512"] : []) + ["avx2"]
}

extension SeededRandom {
    /// Four premultiplied pixels, for the four-at-once forms.
    mutating func pixels() -> SIMD4<UInt32> { SIMD4(pixel(), pixel(), pixel(), pixel()) }
}
