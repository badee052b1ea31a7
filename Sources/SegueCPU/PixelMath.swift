/// Packed arithmetic on premultiplied RGBA8 pixels, two 8-bit channels at a time in one 32-bit word
/// (`0x00BB00RR` and `0x00AA00GG`), with no per-channel loop.
enum PixelMath {
    static let lowLanes: UInt32 = 0x00FF_00FF

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
        let column = (upper &* UInt16(256 - wy) &+ lower &* UInt16(wy) &+ half) &>> 8
        let left = column.lowHalf, right = column.highHalf
        let pixel = (left &* UInt16(256 - wx) &+ right &* UInt16(wx) &+ SIMD4<UInt16>(repeating: 128)) &>> 8
        return unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: pixel), to: UInt32.self)
    }

    /// `target = over(scale(source, k), target)` over `count` pixels of an opaque source: with source alpha
    /// 255 that is `source * k / 255 + target * (255 - k) / 255`, the same rounding as the scalar pair, four
    /// pixels at a time in 16-bit lanes.
    static func blendOpaqueRow(_ target: UnsafeMutablePointer<UInt32>, _ source: UnsafePointer<UInt32>, count: Int, k: UInt32) {
        let kk = SIMD16<UInt16>(repeating: UInt16(k)), ik = SIMD16<UInt16>(repeating: UInt16(255 - k))
        let half = SIMD16<UInt16>(repeating: 128)
        @inline(__always) func mulDiv255(_ x: SIMD16<UInt16>, _ f: SIMD16<UInt16>) -> SIMD16<UInt16> {
            let t = x &* f &+ half
            return (t &+ (t &>> 8)) &>> 8
        }
        var n = 0
        while n + 4 <= count {
            let s = SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(source + n).loadUnaligned(as: SIMD16<UInt8>.self))
            let d = SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(target + n).loadUnaligned(as: SIMD16<UInt8>.self))
            let out = SIMD16<UInt8>(truncatingIfNeeded: mulDiv255(s, kk) &+ mulDiv255(d, ik))
            UnsafeMutableRawPointer(target + n).storeBytes(of: out, as: SIMD16<UInt8>.self)
            n += 4
        }
        while n < count {
            target[n] = over(scale(source[n], k), target[n])
            n += 1
        }
    }
}
