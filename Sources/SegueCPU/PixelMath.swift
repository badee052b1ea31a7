#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif
import CSegueKernels

/// Packed arithmetic on premultiplied RGBA8 pixels, two 8-bit channels at a time in one 32-bit word
/// (`0x00BB00RR` and `0x00AA00GG`), with no per-channel loop.
enum PixelMath {
    static let lowLanes: UInt32 = 0x00FF_00FF

    /// The row kernels take their AVX2 twins (`CSegueKernels`, the same bytes eight pixels a step) where the
    /// CPU has AVX2.
    static let hasAVX2 = segue_has_avx2()
    /// The bilinear's two passes (`lerpRows`, `lerpColumnsVector`) and the perspective kernel
    /// (`bilinearPerspective`) take AVX-512 twins, sixteen pixels a step, where the CPU has AVX-512 F and BW as
    /// well: door's halves and hero's zoom at 1080p and 4K measured 20% faster a frame than with AVX2 alone,
    /// on this project's AMD Zen 5.
    static let hasAVX512 = segue_has_avx512()

    /// `lanes * k / 255`, rounded, for each of two 8-bit channels held as `0x00XX00YY`, `k` in `0...255`.
    @inline(__always)
    static func mulDiv255(lanes: UInt32, _ k: UInt32) -> UInt32 {
        var t = lanes &* k &+ 0x0080_0080
        t = (t &+ ((t >> 8) & lowLanes)) >> 8
        return t & lowLanes
    }

    /// Every channel of `p` times `k / 255`, rounded.
    @inline(__always)
    static func scale(_ p: UInt32, _ k: UInt32) -> UInt32 {
        mulDiv255(lanes: p & lowLanes, k) | mulDiv255(lanes: (p >> 8) & lowLanes, k) << 8
    }

    /// `src + dst * (1 - src.alpha)`: premultiplied source-over.
    @inline(__always)
    static func over(_ src: UInt32, _ dst: UInt32) -> UInt32 {
        let inverseAlpha = 255 &- (src >> 24)
        if inverseAlpha == 0 { return src }
        return src &+ scale(dst, inverseAlpha)
    }

    /// `p + (q - p) * w / 256` for `w` in `0...256`, rounded, channel by channel.
    @inline(__always)
    static func lerp(_ p: UInt32, _ q: UInt32, _ w: UInt32) -> UInt32 {
        let iw = 256 &- w
        let rb = ((p & lowLanes) &* iw &+ (q & lowLanes) &* w &+ 0x0080_0080) >> 8
        let ag = ((p >> 8) & lowLanes) &* iw &+ ((q >> 8) & lowLanes) &* w &+ 0x0080_0080
        return (rb & lowLanes) | (ag & 0xFF00_FF00)
    }

    /// The bilinear blend of the 2x2 texels at `top[0], top[1], bottom[0], bottom[1]` with weights `wx, wy`
    /// in `0...256`, rounded as `lerp` rounds: rows first, both columns at once in eight 16-bit lanes.
    @inline(__always)
    static func bilinear(_ top: UnsafePointer<UInt32>, _ bottom: UnsafePointer<UInt32>, _ wx: UInt32, _ wy: UInt32) -> UInt32 {
        let upper = SIMD8<UInt16>(truncatingIfNeeded: UnsafeRawPointer(top).loadUnaligned(as: SIMD8<UInt8>.self))
        let lower = SIMD8<UInt16>(truncatingIfNeeded: UnsafeRawPointer(bottom).loadUnaligned(as: SIMD8<UInt8>.self))
        let half = SIMD8<UInt16>(repeating: 128)
        let column = (upper &* UInt16(truncatingIfNeeded: 256 &- wy) &+ lower &* UInt16(truncatingIfNeeded: wy) &+ half) &>> 8
        let left = column.lowHalf, right = column.highHalf
        let pixel = (left &* UInt16(truncatingIfNeeded: 256 &- wx) &+ right &* UInt16(truncatingIfNeeded: wx)
                     &+ SIMD4<UInt16>(repeating: 128)) &>> 8
        return unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: pixel), to: UInt32.self)
    }

    /// `target = over(scale(source, k), target)` over `count` pixels of an opaque source: with source alpha
    /// 255 that is `source * k / 255 + target * (255 - k) / 255`, the same rounding as the scalar pair, four
    /// pixels at a time, their even and odd channels apart in 16-bit lanes (see `EvenOdd`).
    static func blendOpaqueRow(_ target: UnsafeMutablePointer<UInt32>, _ source: UnsafePointer<UInt32>, count: Int, k: UInt32) {
        let done = hasAVX2 ? segue_blend_opaque_row_avx2(target, source, count, k) : 0
        blendOpaqueRowSSE(target + done, source + done, count: count &- done, k: k)
    }

    /// `blendOpaqueRow` four pixels at a time (SSE2, every x86-64), and the AVX2 kernel's tail.
    static func blendOpaqueRowSSE(_ target: UnsafeMutablePointer<UInt32>, _ source: UnsafePointer<UInt32>, count: Int, k: UInt32) {
        let kk = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: k))
        let ik = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: 255 &- k))
        // n < count before each step: n + 4 cannot overflow.
        var n = 0
        while n &+ 4 <= count {
            let s = EvenOdd(source + n), d = EvenOdd(target + n)
            EvenOdd(even: mulDiv255(s.even, kk) &+ mulDiv255(d.even, ik),
                    odd: mulDiv255(s.odd, kk) &+ mulDiv255(d.odd, ik)).store(to: target + n)
            n &+= 4
        }
        while n < count {
            target[n] = over(scale(source[n], k), target[n])
            n &+= 1
        }
    }

    /// `target = lerp(p, q, w)` over `count` pixels with one weight `w` in `0...256`, rounded as `lerp` rounds,
    /// four pixels at a time. `target` may be `p` or `q`.
    static func lerpRows(_ target: UnsafeMutablePointer<UInt32>, _ p: UnsafePointer<UInt32>, _ q: UnsafePointer<UInt32>,
                         count: Int, w: UInt32) {
        var done = hasAVX512 ? segue_lerp_rows_avx512(target, p, q, count, w) : 0
        if hasAVX2 { done &+= segue_lerp_rows_avx2(target + done, p + done, q + done, count &- done, w) }
        lerpRowsSSE(target + done, p + done, q + done, count: count &- done, w: w)
    }

    /// The vector horizontal pass of a bilinear row: pixels from `target` on, at the unclamped 32.32 column
    /// positions `fx + n step`, sixteen at a time while the AVX-512 kernel may (`segue_lerp_columns_avx512`),
    /// then eight at a time while the AVX2 one may (both for steps under two columns), then eight at a time
    /// with each pair loaded apart (`segue_lerp_column_pairs_avx2`, any step); returns how many it drew, a
    /// multiple of eight (none without AVX2).
    static func lerpColumnsVector(_ target: UnsafeMutablePointer<UInt32>, _ columns: UnsafePointer<UInt32>, readable: Int,
                                  fx: Int64, step: Int64, count: Int) -> Int {
        guard hasAVX2 else { return 0 }
        // Each kernel draws only pixels whose columns are readable (under 2^31): fx + done step, their next
        // position, stays inside Int64.
        var done = hasAVX512 ? segue_lerp_columns_avx512(target, columns, readable, fx, step, count) : 0
        done &+= segue_lerp_columns_avx2(target + done, columns, readable, fx &+ Int64(done) &* step, step, count &- done)
        return done &+ segue_lerp_column_pairs_avx2(target + done, columns, readable, fx &+ Int64(done) &* step, step, count &- done)
    }

    /// The AVX2 bilinear sampling of a stepped row (`segue_bilinear_stepped_avx2`): pixels from `target` on,
    /// at the unclamped 32.32 texel positions `(fx + n stepX, fy + n stepY)`, eight at a time; returns how many
    /// it drew (none without AVX2).
    static func bilinearSteppedAVX2(_ target: UnsafeMutablePointer<UInt32>, _ texels: UnsafePointer<UInt32>, width: Int, height: Int,
                                    fx: Int64, fy: Int64, stepX: Int64, stepY: Int64, count: Int) -> Int {
        hasAVX2 ? segue_bilinear_stepped_avx2(target, texels, width, height, fx, fy, stepX, stepY, count) : 0
    }

    /// The perspective kernel over `count` pixels of a row from `x0` on (`segue_bilinear_perspective_avx2`,
    /// shaded where `shade` is given): sixteen pixels a step while the AVX-512 one may (`avx512`, where the CPU
    /// has it), then eight with AVX2; returns how many it drew, a multiple of eight (none without AVX2).
    static func bilinearPerspective(_ target: UnsafeMutablePointer<UInt32>, _ texels: UnsafePointer<UInt32>?, width: Int, height: Int,
                                    row: UnsafePointer<SeguePerspectiveRow>, shade: UnsafePointer<SegueShadeRow>?,
                                    x0: Int, count: Int, ahead: Int, avx512: Bool = hasAVX512) -> Int {
        guard hasAVX2 else { return 0 }
        let done = avx512 && hasAVX512
            ? segue_bilinear_perspective_avx512(target, texels, width, height, row, shade, x0, count, ahead) : 0
        return done &+ segue_bilinear_perspective_avx2(target + done, texels, width, height, row, shade, x0 &+ done, count &- done, ahead)
    }

    /// `lerpRows` four pixels at a time (SSE2, every x86-64), and the AVX2 kernel's tail.
    static func lerpRowsSSE(_ target: UnsafeMutablePointer<UInt32>, _ p: UnsafePointer<UInt32>, _ q: UnsafePointer<UInt32>,
                            count: Int, w: UInt32) {
        let wq = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: w))
        let wp = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: 256 &- w))
        let half = SIMD8<UInt16>(repeating: 128)
        // n < count before each step: n + 4 cannot overflow.
        var n = 0
        while n &+ 4 <= count {
            let a = EvenOdd(p + n), b = EvenOdd(q + n)
            EvenOdd(even: (a.even &* wp &+ b.even &* wq &+ half) &>> 8,
                    odd: (a.odd &* wp &+ b.odd &* wq &+ half) &>> 8).store(to: target + n)
            n &+= 4
        }
        while n < count {
            target[n] = lerp(p[n], q[n], w)
            n &+= 1
        }
    }
}

extension PixelMath {
    /// `Int64(x)` (truncation toward zero) without Swift's range check, for a finite `x` well inside
    /// `Int64`'s range: the caller says why it is. On x86-64 the one instruction the checked conversion
    /// ends in, `cvttss2si`.
    @inline(__always)
    static func truncate(_ x: Float) -> Int64 {
        #if arch(x86_64)
        return _mm_cvttss_si64(_mm_set_ss(x))
        #else
        return Int64(x)
        #endif
    }

    /// `Int64(x)` (truncation toward zero) without Swift's range check, for a finite `x` well inside
    /// `Int64`'s range (the caller says why): `cvttsd2si` on x86-64.
    @inline(__always)
    static func truncate(_ x: Double) -> Int64 {
        #if arch(x86_64)
        return _mm_cvttsd_si64(_mm_set_sd(x))
        #else
        return Int64(x)
        #endif
    }

    /// `Int(x)` for a column or row position, held to -1e9...1e9 first (a NaN to -1e9): far wider than any
    /// frame, and always in range.
    @inline(__always)
    static func clampedIndex(_ x: Double) -> Int {
        Int(truncatingIfNeeded: truncate(min(max(-1e9, x), 1e9)))
    }

    /// `clampedIndex(x.rounded(.down))`, with no call into the C library (a frame's rows ask it several times
    /// each): the bounds are whole, so holding first and rounding after gives the same.
    @inline(__always)
    static func floorIndex(_ x: Double) -> Int {
        let held = min(max(-1e9, x), 1e9), t = truncate(held)
        return Int(truncatingIfNeeded: Double(t) > held ? t &- 1 : t)
    }

    /// `clampedIndex(x.rounded(.up))`, as `floorIndex`.
    @inline(__always)
    static func ceilIndex(_ x: Double) -> Int {
        let held = min(max(-1e9, x), 1e9), t = truncate(held)
        return Int(truncatingIfNeeded: Double(t) < held ? t &+ 1 : t)
    }

    /// `UInt32(x)` without Swift's range check, for a finite `x` in `0..<2^32` (the caller says why): the
    /// same 64-bit truncating conversion the checked one compiles to, then its low 32 bits.
    @inline(__always)
    static func truncateToUInt32(_ x: Float) -> UInt32 {
        UInt32(truncatingIfNeeded: truncate(x))
    }

    /// The bilinear weight of a 32.32 fixed-point texel position: its fraction in 8 bits, rounded to nearest
    /// (`0...256`), as `lerp` takes it.
    @inline(__always)
    static func weight(_ position: Int64) -> UInt32 {
        UInt32(truncatingIfNeeded: ((position & 0xFFFF_FFFF) &+ 0x80_0000) >> 24)
    }

    /// `lerp` of four pixel pairs at once, each with its own weight in `0...256`.
    @inline(__always)
    static func lerp(_ p: SIMD4<UInt32>, _ q: SIMD4<UInt32>, _ w: SIMD4<UInt32>) -> SIMD4<UInt32> {
        // Each pixel's weight in both of its 16-bit lanes.
        let wq = unsafeBitCast(w | w &<< 16, to: SIMD8<UInt16>.self)
        let wp = SIMD8<UInt16>(repeating: 256) &- wq
        let half = SIMD8<UInt16>(repeating: 128)
        let a = EvenOdd(p), b = EvenOdd(q)
        return EvenOdd(even: (a.even &* wp &+ b.even &* wq &+ half) &>> 8,
                       odd: (a.odd &* wp &+ b.odd &* wq &+ half) &>> 8).pixels
    }
}

extension PixelMath {
    /// `scale` of four pixels, each by its own `k` in `0...255`: the same rounding, in 16-bit lanes.
    @inline(__always)
    static func scale(_ p: SIMD4<UInt32>, _ k: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let factor = unsafeBitCast(k | k &<< 16, to: SIMD8<UInt16>.self)
        let channels = EvenOdd(p)
        return EvenOdd(even: mulDiv255(channels.even, factor), odd: mulDiv255(channels.odd, factor)).pixels
    }

    /// `mulDiv255` in eight 16-bit lanes, each a channel in `0...255` times its factor in `0...255`:
    /// `t = x f + 128`, `(t + (t >> 8)) >> 8`, as the packed form rounds.
    @inline(__always)
    static func mulDiv255(_ x: SIMD8<UInt16>, _ f: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let t = x &* f &+ SIMD8<UInt16>(repeating: 128)
        return (t &+ (t &>> 8)) &>> 8
    }

    /// `over` of four pixel pairs.
    @inline(__always)
    static func over(_ src: SIMD4<UInt32>, _ dst: SIMD4<UInt32>) -> SIMD4<UInt32> {
        src &+ scale(dst, SIMD4<UInt32>(repeating: 255) &- (src &>> 24))
    }
}

/// Four pixels as two vectors of 16-bit lanes, `even` holding each pixel's channels 0 and 2 (red, blue) and
/// `odd` channels 1 and 3 (green, alpha). Splitting by masks and shifts keeps every step one SSE2
/// instruction; Swift's widening conversion between SIMD types is a call, not an instruction.
struct EvenOdd {
    var even: SIMD8<UInt16>
    var odd: SIMD8<UInt16>

    @inline(__always)
    init(even: SIMD8<UInt16>, odd: SIMD8<UInt16>) {
        self.even = even
        self.odd = odd
    }

    /// The four pixels at `pixels`.
    @inline(__always)
    init(_ pixels: UnsafePointer<UInt32>) {
        let lanes = UnsafeRawPointer(pixels).loadUnaligned(as: SIMD8<UInt16>.self)
        even = lanes & SIMD8(repeating: 0x00FF)
        odd = lanes &>> 8
    }

    /// The four pixels held in a vector.
    @inline(__always)
    init(_ pixels: SIMD4<UInt32>) {
        let lanes = unsafeBitCast(pixels, to: SIMD8<UInt16>.self)
        even = lanes & SIMD8(repeating: 0x00FF)
        odd = lanes &>> 8
    }

    /// The four pixels as a vector; every lane must hold a channel, `0...255`.
    @inline(__always)
    var pixels: SIMD4<UInt32> {
        unsafeBitCast(even | (odd &<< 8), to: SIMD4<UInt32>.self)
    }

    /// Stores the four pixels; every lane must hold a channel, `0...255`.
    @inline(__always)
    func store(to pixels: UnsafeMutablePointer<UInt32>) {
        UnsafeMutableRawPointer(pixels).storeBytes(of: even | (odd &<< 8), as: SIMD8<UInt16>.self)
    }
}
