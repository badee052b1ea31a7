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
}
