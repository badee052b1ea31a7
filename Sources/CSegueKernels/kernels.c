#include "CSegueKernels.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#include <string.h>
#include <wchar.h>

bool segue_has_avx2(void) {
    unsigned a, b, c, d;
    bool yes = false;
    // OSXSAVE and AVX (leaf 1, ECX bits 27 and 28), the OS saving the YMM state (XCR0 bits 1 and 2), then
    // AVX2 (leaf 7, EBX bit 5).
    if (__get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 27)) && (c & (1u << 28))) {
        unsigned lo, hi;
        __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        if ((lo & 6) == 6 && __get_cpuid_count(7, 0, &a, &b, &c, &d)) yes = (b & (1u << 5)) != 0;
    }
    return yes;
}

bool segue_has_avx512(void) {
    unsigned a, b, c, d;
    // AVX2 as above, the OS saving the opmask and ZMM state too (XCR0 bits 5, 6 and 7), then AVX-512 F and BW
    // (leaf 7, EBX bits 16 and 30).
    if (!segue_has_avx2()) return false;
    unsigned lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 0xE6) != 0xE6 || !__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
    return (b & (1u << 16)) && (b & (1u << 30));
}

/// x f / 255 in 16-bit lanes, rounded: t = x f + 128, (t + (t >> 8)) >> 8 (x, f at most 255).
__attribute__((target("avx2"))) static inline __m256i mul_div_255(__m256i x, __m256i f) {
    __m256i t = _mm256_add_epi16(_mm256_mullo_epi16(x, f), _mm256_set1_epi16(128));
    return _mm256_srli_epi16(_mm256_add_epi16(t, _mm256_srli_epi16(t, 8)), 8);
}

/// Pixel j's position along one axis, for the eight pixels of a block from `position` on: whole texels in
/// `whole`, the fraction's 32 bits in `fraction` (the j steps split the same way beforehand, a carry out of
/// the fractions adding one texel). Exact: what adding j steps in 64 bits gives.
typedef struct { __m256i whole, fraction; } Positions;

__attribute__((target("avx2"))) static inline Positions positions(int64_t position, __m256i jWhole, __m256i jFraction) {
    const __m256i sign = _mm256_set1_epi32((int)0x80000000);
    __m256i f0 = _mm256_set1_epi32((int)(uint32_t)position);
    __m256i f = _mm256_add_epi32(f0, jFraction);
    __m256i carry = _mm256_cmpgt_epi32(_mm256_xor_si256(f0, sign), _mm256_xor_si256(f, sign));
    Positions p = { _mm256_sub_epi32(_mm256_add_epi32(_mm256_set1_epi32((int)(position >> 32)), jWhole), carry), f };
    return p;
}

/// `PixelMath.weight` of eight fractions, in both 16-bit lanes of each pixel: the top eight bits rounded by
/// the ninth, 0...256.
__attribute__((target("avx2"))) static inline __m256i weights(__m256i fraction) {
    __m256i w = _mm256_add_epi32(_mm256_srli_epi32(fraction, 24), _mm256_and_si256(_mm256_srli_epi32(fraction, 23), _mm256_set1_epi32(1)));
    return _mm256_or_si256(w, _mm256_slli_epi32(w, 16));
}

/// `PixelMath.lerp` of the pixel pairs of two `BITS`-bit vectors, each with its weight in both 16-bit lanes
/// of `wq`: `lerp8` (AVX2, eight pixels) and `lerp16` (AVX-512, sixteen) are this one body at two widths.
#define SEGUE_LERP(name, BITS, isa)                                                                               \
    __attribute__((target(isa))) static inline __m##BITS##i name(__m##BITS##i p, __m##BITS##i q, __m##BITS##i wq) { \
        const __m##BITS##i low = _mm##BITS##_set1_epi16(0x00FF), half = _mm##BITS##_set1_epi16(128);            \
        __m##BITS##i wp = _mm##BITS##_sub_epi16(_mm##BITS##_set1_epi16(256), wq);                                \
        __m##BITS##i even = _mm##BITS##_add_epi16(                                                                \
            _mm##BITS##_add_epi16(_mm##BITS##_mullo_epi16(_mm##BITS##_and_si##BITS(p, low), wp),                  \
                                  _mm##BITS##_mullo_epi16(_mm##BITS##_and_si##BITS(q, low), wq)), half);          \
        __m##BITS##i odd = _mm##BITS##_add_epi16(                                                                 \
            _mm##BITS##_add_epi16(_mm##BITS##_mullo_epi16(_mm##BITS##_srli_epi16(p, 8), wp),                      \
                                  _mm##BITS##_mullo_epi16(_mm##BITS##_srli_epi16(q, 8), wq)), half);              \
        /* even >> 8 is each even channel; odd's high byte is each odd channel in place. */                      \
        return _mm##BITS##_or_si##BITS(_mm##BITS##_srli_epi16(even, 8), _mm##BITS##_andnot_si##BITS(low, odd));  \
    }
SEGUE_LERP(lerp8, 256, "avx2")
SEGUE_LERP(lerp16, 512, "avx512f,avx512bw")

/// The texel at `index` and its right neighbour, as one 64-bit value.
static inline long long pair(const uint32_t *texels, uint32_t index) {
    long long value;
    memcpy(&value, texels + index, sizeof value);
    return value;
}

/// The texel pairs at the four indices of `indices` (unsigned, so that they widen without a sign extension),
/// from `base`, as four 64-bit lanes; the indices taken out of the register, not through memory (a 32-bit
/// load of a wider store waits for it on AMD Zen 2).
__attribute__((target("avx2"))) static inline __m256i pairs4(const uint32_t *base, __m128i indices) {
    return _mm256_setr_epi64x(pair(base, (uint32_t)_mm_extract_epi32(indices, 0)), pair(base, (uint32_t)_mm_extract_epi32(indices, 1)),
                              pair(base, (uint32_t)_mm_extract_epi32(indices, 2)), pair(base, (uint32_t)_mm_extract_epi32(indices, 3)));
}

/// The steps of pixels 0...7 split into whole texels and fraction bits.
__attribute__((target("avx2"))) static inline void split_steps(int64_t step, __m256i *whole, __m256i *fraction) {
    int32_t w[8], f[8];
    for (int j = 0; j < 8; j++) {
        int64_t offset = step * j;
        w[j] = (int32_t)(offset >> 32);
        f[j] = (int32_t)(uint32_t)offset;
    }
    *whole = _mm256_loadu_si256((const __m256i *)w);
    *fraction = _mm256_loadu_si256((const __m256i *)f);
}

/// Eight texel positions along one axis (floats, clamped, at least 0) as whole texels and `PixelMath.weight`
/// of the fraction, in both 16-bit lanes: floor(f 256 + 0.5), worked out as (floor(f 512) + 1) / 2, exact
/// where adding 0.5 in single precision could round up.
__attribute__((target("avx2"))) static inline void split_positions(__m256 position, __m256i *whole, __m256i *weight) {
    *whole = _mm256_cvttps_epi32(position);
    __m256 fraction = _mm256_sub_ps(position, _mm256_cvtepi32_ps(*whole));
    __m256i halves = _mm256_cvttps_epi32(_mm256_mul_ps(fraction, _mm256_set1_ps(512)));
    __m256i w = _mm256_srli_epi32(_mm256_add_epi32(halves, _mm256_set1_epi32(1)), 1);
    *weight = _mm256_or_si256(w, _mm256_slli_epi32(w, 16));
}

/// The index of each pixel's top-left texel, `y width + x`, from whole texels `(x, y)`.
__attribute__((target("avx2"))) static inline __m256i texel_indices(long width, __m256i x, __m256i y) {
    return _mm256_add_epi32(_mm256_mullo_epi32(y, _mm256_set1_epi32((int)width)), x);
}

/// Eight pixels, each `lerp8` of its (left, right) pair by its weight in `w` (pixel order): pixels 0-3's
/// pairs in `a`, 4-7's in `b`. The left and right columns are taken apart, pixels 0 1 4 5 | 2 3 6 7, and
/// put back in order after.
__attribute__((target("avx2"))) static inline __m256i lerp_pairs8(__m256i a, __m256i b, __m256i w) {
    __m256i left = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(2, 0, 2, 0)));
    __m256i right = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(3, 1, 3, 1)));
    __m256i pixels = lerp8(left, right, _mm256_permutevar8x32_epi32(w, _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7)));
    return _mm256_permute4x64_epi64(pixels, _MM_SHUFFLE(3, 1, 2, 0));
}

/// Eight bilinear samples at top-left texels `top` (as `texel_indices` gives them) with weights `wx`, `wy`
/// (as `positions` and `weights` give them): the texel pairs loaded one by one (gathers measured slower:
/// AVX2's on AMD Zen 2, AVX-512's on Zen 5 at 4K), rows first, then columns, as `BilinearQuad` rounds.
__attribute__((target("avx2"))) static inline __m256i bilinear8(const uint32_t *texels, long width,
                                                                __m256i top, __m256i wx, __m256i wy) {
    // Each pixel's bottom-left texel is a row further on, from `below` (on the last row that is the copy of
    // it the texture keeps past its end, as `bilinear` reads the last row twice).
    const uint32_t *below = texels + width;
    __m128i low = _mm256_castsi256_si128(top), high = _mm256_extracti128_si256(top, 1);
    __m256i top0 = pairs4(texels, low), top1 = pairs4(texels, high), bottom0 = pairs4(below, low), bottom1 = pairs4(below, high);
    // Rows first, both columns at once (each pixel's weight for its left and right texel), then columns.
    __m256i column0 = lerp8(top0, bottom0, _mm256_permutevar8x32_epi32(wy, _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3)));
    __m256i column1 = lerp8(top1, bottom1, _mm256_permutevar8x32_epi32(wy, _mm256_setr_epi32(4, 4, 5, 5, 6, 6, 7, 7)));
    return lerp_pairs8(column0, column1, wx);
}

__attribute__((target("avx2")))
long segue_blend_opaque_row_avx2(uint32_t *target, const uint32_t *source, long count, uint32_t k) {
    const __m256i kk = _mm256_set1_epi16((short)k), ik = _mm256_set1_epi16((short)(255 - k));
    const __m256i low = _mm256_set1_epi16(0x00FF);
    long n = 0;
    for (; n + 8 <= count; n += 8) {
        // Each pixel's even channels (red, blue) and odd ones (green, alpha) apart in 16-bit lanes.
        __m256i s = _mm256_loadu_si256((const __m256i *)(source + n)), d = _mm256_loadu_si256((const __m256i *)(target + n));
        __m256i even = _mm256_add_epi16(mul_div_255(_mm256_and_si256(s, low), kk), mul_div_255(_mm256_and_si256(d, low), ik));
        __m256i odd = _mm256_add_epi16(mul_div_255(_mm256_srli_epi16(s, 8), kk), mul_div_255(_mm256_srli_epi16(d, 8), ik));
        _mm256_storeu_si256((__m256i *)(target + n), _mm256_or_si256(even, _mm256_slli_epi16(odd, 8)));
    }
    return n;
}

__attribute__((target("avx2")))
long segue_lerp_rows_avx2(uint32_t *target, const uint32_t *p, const uint32_t *q, long count, uint32_t w) {
    const __m256i wq = _mm256_set1_epi16((short)w);
    long n = 0;
    for (; n + 8 <= count; n += 8) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(p + n)), b = _mm256_loadu_si256((const __m256i *)(q + n));
        _mm256_storeu_si256((__m256i *)(target + n), lerp8(a, b, wq));
    }
    return n;
}

__attribute__((target("avx2")))
long segue_lerp_columns_avx2(uint32_t *target, const uint32_t *columns, long readable, int64_t fx, int64_t step, long count) {
    if (fx < 0 || step < 0 || step >= ((int64_t)1 << 33)) return 0;
    __m256i jWhole, jFraction;
    split_steps(step, &jWhole, &jFraction);
    const __m256i seven = _mm256_set1_epi32(7), one = _mm256_set1_epi32(1);
    long n = 0;
    for (; n + 8 <= count; n += 8, fx += step * 8) {
        long base = (long)(fx >> 32);
        // A block reads sixteen columns from its first; a step under two keeps every pixel's pair among them.
        if (base + 16 > readable) break;
        // Each pixel's column counted from the block's first: the positions of its fraction alone.
        Positions x = positions((int64_t)(uint32_t)fx, jWhole, jFraction);
        __m256i lo = _mm256_loadu_si256((const __m256i *)(columns + base)), hi = _mm256_loadu_si256((const __m256i *)(columns + base + 8));
        __m256i next = _mm256_add_epi32(x.whole, one);
        __m256i p = _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(lo, x.whole), _mm256_permutevar8x32_epi32(hi, x.whole),
                                       _mm256_cmpgt_epi32(x.whole, seven));
        __m256i q = _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(lo, next), _mm256_permutevar8x32_epi32(hi, next),
                                       _mm256_cmpgt_epi32(next, seven));
        _mm256_storeu_si256((__m256i *)(target + n), lerp8(p, q, weights(x.fraction)));
    }
    return n;
}

// Layers shrunk to under half their width (spin without perspective, turning edge-on) took a Swift loop,
// four pixels a step, before this kernel: spin at 3840x2160, 2 threads, 2.23-2.32 -> 1.62-1.89 ms a frame
// (`segue render` to a raw stream, by difference).
__attribute__((target("avx2")))
long segue_lerp_column_pairs_avx2(uint32_t *target, const uint32_t *columns, long readable, int64_t fx, int64_t step, long count) {
    if (fx < 0 || step < 0 || step >= ((int64_t)1 << 56) || readable >= ((long)1 << 31)) return 0;
    __m256i jWhole, jFraction;
    split_steps(step, &jWhole, &jFraction);
    long n = 0;
    for (; n + 8 <= count; n += 8, fx += step * 8) {
        // The positions grow along the run: the block's last pixel's pair is its farthest read (unsigned: fx
        // under 2^63 and 7 steps under 2^59 cannot wrap).
        if ((long)(((uint64_t)fx + (uint64_t)step * 7) >> 32) + 2 > readable) break;
        Positions x = positions(fx, jWhole, jFraction);
        __m256i a = pairs4(columns, _mm256_castsi256_si128(x.whole)), b = pairs4(columns, _mm256_extracti128_si256(x.whole, 1));
        _mm256_storeu_si256((__m256i *)(target + n), lerp_pairs8(a, b, weights(x.fraction)));
    }
    return n;
}

__attribute__((target("avx512f,avx512bw")))
long segue_lerp_rows_avx512(uint32_t *target, const uint32_t *p, const uint32_t *q, long count, uint32_t w) {
    const __m512i wq = _mm512_set1_epi16((short)w);
    long n = 0;
    for (; n + 16 <= count; n += 16) {
        __m512i a = _mm512_loadu_si512(p + n), b = _mm512_loadu_si512(q + n);
        _mm512_storeu_si512(target + n, lerp16(a, b, wq));
    }
    return n;
}

__attribute__((target("avx512f,avx512bw")))
long segue_lerp_columns_avx512(uint32_t *target, const uint32_t *columns, long readable, int64_t fx, int64_t step, long count) {
    if (fx < 0 || step < 0 || step >= ((int64_t)1 << 33)) return 0;
    int32_t w[16], f[16];
    for (int j = 0; j < 16; j++) {
        int64_t offset = step * j;
        w[j] = (int32_t)(offset >> 32);
        f[j] = (int32_t)(uint32_t)offset;
    }
    const __m512i jWhole = _mm512_loadu_si512(w), jFraction = _mm512_loadu_si512(f), one = _mm512_set1_epi32(1);
    long n = 0;
    for (; n + 16 <= count; n += 16, fx += step * 16) {
        long base = (long)(fx >> 32);
        // A block reads 32 columns from its first; a step under two keeps every pixel's pair among them.
        if (base + 32 > readable) break;
        // Each pixel's column counted from the block's first, a carry out of its fraction adding one.
        __m512i f0 = _mm512_set1_epi32((int)(uint32_t)fx), fraction = _mm512_add_epi32(f0, jFraction);
        __m512i whole = _mm512_mask_add_epi32(jWhole, _mm512_cmplt_epu32_mask(fraction, f0), jWhole, one);
        __m512i lo = _mm512_loadu_si512(columns + base), hi = _mm512_loadu_si512(columns + base + 16);
        __m512i p = _mm512_permutex2var_epi32(lo, whole, hi), q = _mm512_permutex2var_epi32(lo, _mm512_add_epi32(whole, one), hi);
        // `weights`: the top eight bits of the fraction rounded by the ninth, in both 16-bit lanes.
        __m512i wt = _mm512_add_epi32(_mm512_srli_epi32(fraction, 24), _mm512_and_si512(_mm512_srli_epi32(fraction, 23), one));
        _mm512_storeu_si512(target + n, lerp16(p, q, _mm512_or_si512(wt, _mm512_slli_epi32(wt, 16))));
    }
    return n;
}

__attribute__((target("avx2")))
long segue_bilinear_stepped_avx2(uint32_t *target, const uint32_t *texels, long width, long height,
                                 int64_t fx, int64_t fy, int64_t stepX, int64_t stepY, long count) {
    if (count < 8 || width <= 0 || height <= 0 || width * height >= ((long)1 << 31) - width) return 0;
    __m256i jWholeX, jFractionX, jWholeY, jFractionY;
    split_steps(stepX, &jWholeX, &jFractionX);
    split_steps(stepY, &jWholeY, &jFractionY);
    long n = 0;
    for (; n + 8 <= count; n += 8, fx += stepX * 8, fy += stepY * 8) {
        Positions x = positions(fx, jWholeX, jFractionX), y = positions(fy, jWholeY, jFractionY);
        __m256i wx = weights(x.fraction), wy = weights(y.fraction);
        _mm256_storeu_si256((__m256i *)(target + n), bilinear8(texels, width, texel_indices(width, x.whole, y.whole), wx, wy));
    }
    return n;
}

/// The local points `(u, v)` at the centres of pixels `x ... x + 7` of a row whose local point at pixel
/// centre X is `((rowU + X a) / Q, (rowV + X b) / Q)`, `Q = rowQ + X c`: `LayerShader`'s arithmetic lane by
/// lane in the same order (no fused multiply-adds: these functions enable AVX2 alone). Columns below 2^22
/// are exact in floats.
__attribute__((target("avx2"))) static inline void local_points(float rowU, float rowV, float rowQ, float a, float b, float c,
                                                                 long x, __m256 *u, __m256 *v) {
    __m256 px = _mm256_add_ps(_mm256_add_ps(_mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_ps((float)x)), _mm256_set1_ps(0.5f));
    __m256 q = _mm256_div_ps(_mm256_set1_ps(1), _mm256_add_ps(_mm256_set1_ps(rowQ), _mm256_mul_ps(px, _mm256_set1_ps(c))));
    *u = _mm256_mul_ps(_mm256_add_ps(_mm256_set1_ps(rowU), _mm256_mul_ps(px, _mm256_set1_ps(a))), q);
    *v = _mm256_mul_ps(_mm256_add_ps(_mm256_set1_ps(rowV), _mm256_mul_ps(px, _mm256_set1_ps(b))), q);
}

/// The shadow's alpha (0...255 in each 32-bit lane) at local points `(u, v)`: `LayerShader.overlay`'s
/// arithmetic lane by lane in the same order.
__attribute__((target("avx2"))) static inline __m256i shade_alpha(const SegueShadeRow *row, __m256 u, __m256 v) {
    __m256 position = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(u, _mm256_set1_ps(row->gradientU)), _mm256_mul_ps(v, _mm256_set1_ps(row->gradientV))),
                                    _mm256_set1_ps(row->gradientC));
    // min(max(0, t), 1), 0 for a NaN t: maxps gives its second operand where either is NaN.
    __m256 t = _mm256_min_ps(_mm256_max_ps(position, _mm256_setzero_ps()), _mm256_set1_ps(1));
    // In 0.5...255.5: truncation rounds it down.
    return _mm256_cvttps_epi32(_mm256_add_ps(_mm256_add_ps(_mm256_set1_ps(row->alphaStart), _mm256_mul_ps(_mm256_set1_ps(row->alphaDelta), t)),
                                             _mm256_set1_ps(0.5f)));
}

/// Black at `alpha` over eight pixels, as `PixelMath.over`: `alpha << 24 + pixel (255 - alpha) / 255` channel
/// by channel.
__attribute__((target("avx2"))) static inline __m256i shade_pixels(__m256i p, __m256i alpha) {
    const __m256i low = _mm256_set1_epi16(0x00FF);
    __m256i inverse = _mm256_sub_epi32(_mm256_set1_epi32(255), alpha);
    inverse = _mm256_or_si256(inverse, _mm256_slli_epi32(inverse, 16));
    __m256i even = mul_div_255(_mm256_and_si256(p, low), inverse), odd = mul_div_255(_mm256_srli_epi16(p, 8), inverse);
    return _mm256_add_epi32(_mm256_slli_epi32(alpha, 24), _mm256_or_si256(even, _mm256_slli_epi16(odd, 8)));
}

/// Fetches into the cache the texel pair at index `index` and the pair below it (on the last row, the copy of
/// it past the texture's end, as `bilinear8` reads it).
static inline void fetch_texels(const uint32_t *texels, long width, uint32_t index) {
    const uint32_t *top = texels + index;
    _mm_prefetch((const char *)top, _MM_HINT_T0);
    _mm_prefetch((const char *)(top + width), _MM_HINT_T0);
}

/// The top-left texel indices and the weights of the eight pixels of one block, worked out ahead of their
/// sampling: the indices once, for both the fetch ahead and the sampling, each serving the pair below it too.
/// Against whole texels x and y kept apart, the row below's indices worked out again and the fetch
/// multiplying its own, on 1 thread at 3840x2160 (AMD Zen 5), binaries alternating: page-flip 9.8-10.4 ->
/// 8.5-9.1 ms a frame, hinge 9.8-10.3 -> 8.3-9.1.
typedef struct { __m256i top, wx, wy; } BlockPositions;

/// Blocks whose positions are worked out, and their texels' cache lines fetched, before the first of them is
/// sampled. A 4K texture is read from memory every frame, along slanted lines the hardware does not fetch
/// ahead on its own. Measured on 2 threads at 3840x2160 (AMD Zen 5), against fetching nothing ahead:
/// page-flip 6.4-6.6 -> 5.2-5.7 ms a frame, spin 7.2-7.7 -> 5.7-6.3, hinge 7.9-8.7 -> 5.1-5.6; 8 blocks
/// measured a little slower than 16.
enum { leadBlocks = 16 };

/// `segue_bilinear_perspective_avx2`, compiled apart with and without a shade.
__attribute__((target("avx2"), always_inline))
static inline long perspective_row(uint32_t *target, const uint32_t *texels, long width, long height,
                                   const SeguePerspectiveRow *row, const SegueShadeRow *shade, long x0, long count, long ahead) {
    if (count < 8 || width <= 0 || height <= 0 || width * height >= ((long)1 << 31) - width) return 0;
    if (!(row->lowX >= 0 && row->lowY >= 0 && row->highX < (float)width && row->highY < (float)height)) return 0;
    const __m256 originX = _mm256_set1_ps(row->originX), originY = _mm256_set1_ps(row->originY);
    const __m256 scaleX = _mm256_set1_ps(row->scaleX), scaleY = _mm256_set1_ps(row->scaleY);
    const __m256 lowX = _mm256_set1_ps(row->lowX), lowY = _mm256_set1_ps(row->lowY);
    const __m256 highX = _mm256_set1_ps(row->highX), highY = _mm256_set1_ps(row->highY);
    const __m256 half = _mm256_set1_ps(0.5f);
    // Blocks drawn, and worked out: past those drawn, up to leadBlocks more of the row's pixels `ahead`.
    const long blocks = count / 8, computed = blocks + (ahead < 8 ? 0 : ahead / 8 < leadBlocks ? ahead / 8 : leadBlocks);
    BlockPositions ring[leadBlocks];
    __m256i alphas[leadBlocks];  // the shadow's, when shaded
    for (long k = 0; k < blocks + leadBlocks; k++) {
        // Block k - leadBlocks sampled, then block k worked out in its place (and its texels fetched).
        if (k >= leadBlocks && k - leadBlocks < blocks) {
            const BlockPositions *p = &ring[k % leadBlocks];
            __m256i pixels = bilinear8(texels, width, p->top, p->wx, p->wy);
            _mm256_storeu_si256((__m256i *)(target + (k - leadBlocks) * 8), shade ? shade_pixels(pixels, alphas[k % leadBlocks]) : pixels);
        }
        if (k < computed) {
            // The arithmetic of `LayerShader.sample` at the pixel centres, lane by lane in the same order.
            __m256 u, v;
            local_points(row->rowU, row->rowV, row->rowQ, row->a, row->b, row->c, x0 + k * 8, &u, &v);
            // min(max(low, t), high), `low` for a NaN t: maxps gives its second operand where either is NaN.
            __m256 fx = _mm256_min_ps(_mm256_max_ps(_mm256_sub_ps(_mm256_add_ps(originX, _mm256_mul_ps(u, scaleX)), half), lowX), highX);
            __m256 fy = _mm256_min_ps(_mm256_max_ps(_mm256_sub_ps(_mm256_add_ps(originY, _mm256_mul_ps(v, scaleY)), half), lowY), highY);
            BlockPositions *p = &ring[k % leadBlocks];
            __m256i x, y;
            split_positions(fx, &x, &p->wx);
            split_positions(fy, &y, &p->wy);
            p->top = texel_indices(width, x, y);
            if (shade) alphas[k % leadBlocks] = shade_alpha(shade, u, v);
            // The texels of the first, a middle and the last pixel: a block's pairs lie on one to three cache
            // lines a row. With the middle one, page-flip and hinge measured 3-7% faster at 4K than with the
            // ends alone.
            fetch_texels(texels, width, (uint32_t)_mm256_extract_epi32(p->top, 0));
            fetch_texels(texels, width, (uint32_t)_mm256_extract_epi32(p->top, 4));
            fetch_texels(texels, width, (uint32_t)_mm256_extract_epi32(p->top, 7));
        }
    }
    return blocks * 8;
}

__attribute__((target("avx2")))
long segue_bilinear_perspective_avx2(uint32_t *target, const uint32_t *texels, long width, long height,
                                     const SeguePerspectiveRow *row, const SegueShadeRow *shade, long x0, long count, long ahead) {
    return shade ? perspective_row(target, texels, width, height, row, shade, x0, count, ahead)
                 : perspective_row(target, texels, width, height, row, NULL, x0, count, ahead);
}

// The AVX-512 perspective row: the AVX2 one's arithmetic at sixteen pixels a block, lane by lane in the same
// order (the texel pairs still loaded one by one), so the same bytes. The positions, weights and lerps take
// half the instructions a pixel. Against the AVX2 kernel alone, --draw-only at 3840x2160 on 2 threads (AMD
// Zen 5), binaries alternating: page-flip 4.34-4.57 -> 3.49-3.71 ms a frame, spin 5.03-5.33 -> 4.35-4.58,
// hinge 4.19-4.37 -> 3.32-3.45.
#define AVX512 __attribute__((target("avx512f,avx512bw")))

/// `mul_div_255` of 32 16-bit lanes.
AVX512 static inline __m512i mul_div_255_16(__m512i x, __m512i f) {
    __m512i t = _mm512_add_epi16(_mm512_mullo_epi16(x, f), _mm512_set1_epi16(128));
    return _mm512_srli_epi16(_mm512_add_epi16(t, _mm512_srli_epi16(t, 8)), 8);
}

/// `local_points` of pixels `x ... x + 15`.
AVX512 static inline void local_points16(const SeguePerspectiveRow *row, long x, __m512 *u, __m512 *v) {
    const __m512 iota = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m512 px = _mm512_add_ps(_mm512_add_ps(iota, _mm512_set1_ps((float)x)), _mm512_set1_ps(0.5f));
    __m512 q = _mm512_div_ps(_mm512_set1_ps(1), _mm512_add_ps(_mm512_set1_ps(row->rowQ), _mm512_mul_ps(px, _mm512_set1_ps(row->c))));
    *u = _mm512_mul_ps(_mm512_add_ps(_mm512_set1_ps(row->rowU), _mm512_mul_ps(px, _mm512_set1_ps(row->a))), q);
    *v = _mm512_mul_ps(_mm512_add_ps(_mm512_set1_ps(row->rowV), _mm512_mul_ps(px, _mm512_set1_ps(row->b))), q);
}

/// `split_positions` of sixteen positions along one axis: the texel position `origin + local scale - 0.5`
/// held to `low...high`, as whole texels and `PixelMath.weight` of the fraction in both 16-bit lanes.
AVX512 static inline void split_positions16(__m512 local, float origin, float scale, float low, float high,
                                            __m512i *whole, __m512i *weight) {
    // min(max(low, t), high), `low` for a NaN t: maxps gives its second operand where either is NaN.
    __m512 position = _mm512_min_ps(_mm512_max_ps(_mm512_sub_ps(_mm512_add_ps(_mm512_set1_ps(origin), _mm512_mul_ps(local, _mm512_set1_ps(scale))),
                                                                _mm512_set1_ps(0.5f)), _mm512_set1_ps(low)), _mm512_set1_ps(high));
    *whole = _mm512_cvttps_epi32(position);
    __m512 fraction = _mm512_sub_ps(position, _mm512_cvtepi32_ps(*whole));
    __m512i halves = _mm512_cvttps_epi32(_mm512_mul_ps(fraction, _mm512_set1_ps(512)));
    __m512i w = _mm512_srli_epi32(_mm512_add_epi32(halves, _mm512_set1_epi32(1)), 1);
    *weight = _mm512_or_si512(w, _mm512_slli_epi32(w, 16));
}

/// `shade_alpha` of sixteen local points.
AVX512 static inline __m512i shade_alpha16(const SegueShadeRow *row, __m512 u, __m512 v) {
    __m512 position = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(u, _mm512_set1_ps(row->gradientU)), _mm512_mul_ps(v, _mm512_set1_ps(row->gradientV))),
                                    _mm512_set1_ps(row->gradientC));
    __m512 t = _mm512_min_ps(_mm512_max_ps(position, _mm512_setzero_ps()), _mm512_set1_ps(1));
    return _mm512_cvttps_epi32(_mm512_add_ps(_mm512_add_ps(_mm512_set1_ps(row->alphaStart), _mm512_mul_ps(_mm512_set1_ps(row->alphaDelta), t)),
                                             _mm512_set1_ps(0.5f)));
}

/// `shade_pixels` of sixteen pixels.
AVX512 static inline __m512i shade_pixels16(__m512i p, __m512i alpha) {
    const __m512i low = _mm512_set1_epi16(0x00FF);
    __m512i inverse = _mm512_sub_epi32(_mm512_set1_epi32(255), alpha);
    inverse = _mm512_or_si512(inverse, _mm512_slli_epi32(inverse, 16));
    __m512i even = mul_div_255_16(_mm512_and_si512(p, low), inverse), odd = mul_div_255_16(_mm512_srli_epi16(p, 8), inverse);
    return _mm512_add_epi32(_mm512_slli_epi32(alpha, 24), _mm512_or_si512(even, _mm512_slli_epi16(odd, 8)));
}

/// `bilinear8` of sixteen pixels: each pixel's texel pair and the pair below, rows first, then columns.
AVX512 static inline __m512i bilinear16(const uint32_t *texels, long width, __m512i top, __m512i wx, __m512i wy) {
    const uint32_t *below = texels + width;
    __m128i quarter[4] = {_mm512_extracti32x4_epi32(top, 0), _mm512_extracti32x4_epi32(top, 1),
                          _mm512_extracti32x4_epi32(top, 2), _mm512_extracti32x4_epi32(top, 3)};
#define JOIN(a, b) _mm512_inserti64x4(_mm512_castsi256_si512(a), b, 1)
    __m512i top0 = JOIN(pairs4(texels, quarter[0]), pairs4(texels, quarter[1])), top1 = JOIN(pairs4(texels, quarter[2]), pairs4(texels, quarter[3]));
    __m512i bottom0 = JOIN(pairs4(below, quarter[0]), pairs4(below, quarter[1])), bottom1 = JOIN(pairs4(below, quarter[2]), pairs4(below, quarter[3]));
#undef JOIN
    // Rows first (pixels 0-7, then 8-15, each pixel's weight for both its texels), then the left and right
    // columns taken apart into pixel order.
    __m512i column0 = lerp16(top0, bottom0, _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7), wy));
    __m512i column1 = lerp16(top1, bottom1, _mm512_permutexvar_epi32(_mm512_setr_epi32(8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15), wy));
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    __m512i left = _mm512_permutex2var_epi32(column0, even, column1);
    __m512i right = _mm512_permutex2var_epi32(column0, _mm512_add_epi32(even, _mm512_set1_epi32(1)), column1);
    return lerp16(left, right, wx);
}

/// The top-left texel indices, weights and (when shaded) shadow alphas of one block of sixteen pixels.
typedef struct { __m512i top, wx, wy, alpha; } BlockPositions16;

/// `perspective_row` sixteen pixels a block, as many blocks as `count` holds; the same fetch ahead, as far
/// in pixels.
__attribute__((target("avx512f,avx512bw"), always_inline))
static inline long perspective_row16(uint32_t *target, const uint32_t *texels, long width, long height,
                                     const SeguePerspectiveRow *row, const SegueShadeRow *shade, long x0, long count, long ahead) {
    enum { lead = leadBlocks / 2 };
    if (count < 16 || width <= 0 || height <= 0 || width * height >= ((long)1 << 31) - width) return 0;
    if (!(row->lowX >= 0 && row->lowY >= 0 && row->highX < (float)width && row->highY < (float)height)) return 0;
    const long blocks = count / 16, computed = blocks + (ahead < 16 ? 0 : ahead / 16 < lead ? ahead / 16 : lead);
    BlockPositions16 ring[lead];
    for (long k = 0; k < blocks + lead; k++) {
        // Block k - lead sampled, then block k worked out in its place (and its texels fetched).
        if (k >= lead && k - lead < blocks) {
            const BlockPositions16 *p = &ring[k % lead];
            __m512i pixels = bilinear16(texels, width, p->top, p->wx, p->wy);
            _mm512_storeu_si512(target + (k - lead) * 16, shade ? shade_pixels16(pixels, p->alpha) : pixels);
        }
        if (k < computed) {
            __m512 u, v;
            local_points16(row, x0 + k * 16, &u, &v);
            BlockPositions16 *p = &ring[k % lead];
            __m512i x, y;
            split_positions16(u, row->originX, row->scaleX, row->lowX, row->highX, &x, &p->wx);
            split_positions16(v, row->originY, row->scaleY, row->lowY, row->highY, &y, &p->wy);
            p->top = _mm512_add_epi32(_mm512_mullo_epi32(y, _mm512_set1_epi32((int)width)), x);
            if (shade) p->alpha = shade_alpha16(shade, u, v);
            // The texels of the first, a middle and the last pixel of each half, as `perspective_row` fetches.
            __m256i low = _mm512_castsi512_si256(p->top), high = _mm512_extracti64x4_epi64(p->top, 1);
            fetch_texels(texels, width, (uint32_t)_mm256_extract_epi32(low, 0));
            fetch_texels(texels, width, (uint32_t)_mm256_extract_epi32(low, 4));
            fetch_texels(texels, width, (uint32_t)_mm256_extract_epi32(low, 7));
            fetch_texels(texels, width, (uint32_t)_mm256_extract_epi32(high, 0));
            fetch_texels(texels, width, (uint32_t)_mm256_extract_epi32(high, 4));
            fetch_texels(texels, width, (uint32_t)_mm256_extract_epi32(high, 7));
        }
    }
    return blocks * 16;
}

AVX512
long segue_bilinear_perspective_avx512(uint32_t *target, const uint32_t *texels, long width, long height,
                                       const SeguePerspectiveRow *row, const SegueShadeRow *shade, long x0, long count, long ahead) {
    return shade ? perspective_row16(target, texels, width, height, row, shade, x0, count, ahead)
                 : perspective_row16(target, texels, width, height, row, NULL, x0, count, ahead);
}

#undef AVX512

__attribute__((target("avx2")))
long segue_shade_avx2(uint32_t *pixels, const SegueShadeRow *row, long x0, long count) {
    long n = 0;
    for (; n + 8 <= count; n += 8) {
        __m256 u, v;
        local_points(row->rowU, row->rowV, row->rowQ, row->a, row->b, row->c, x0 + n, &u, &v);
        __m256i p = _mm256_loadu_si256((const __m256i *)(pixels + n));
        _mm256_storeu_si256((__m256i *)(pixels + n), shade_pixels(p, shade_alpha(row, u, v)));
    }
    return n;
}

#else

bool segue_has_avx2(void) { return false; }

bool segue_has_avx512(void) { return false; }

long segue_lerp_rows_avx512(uint32_t *target, const uint32_t *p, const uint32_t *q, long count, uint32_t w) {
    (void)target; (void)p; (void)q; (void)count; (void)w;
    return 0;
}

long segue_lerp_columns_avx512(uint32_t *target, const uint32_t *columns, long readable, int64_t fx, int64_t step, long count) {
    (void)target; (void)columns; (void)readable; (void)fx; (void)step; (void)count;
    return 0;
}

long segue_lerp_column_pairs_avx2(uint32_t *target, const uint32_t *columns, long readable, int64_t fx, int64_t step, long count) {
    (void)target; (void)columns; (void)readable; (void)fx; (void)step; (void)count;
    return 0;
}

long segue_blend_opaque_row_avx2(uint32_t *target, const uint32_t *source, long count, uint32_t k) {
    (void)target; (void)source; (void)count; (void)k;
    return 0;
}

long segue_lerp_rows_avx2(uint32_t *target, const uint32_t *p, const uint32_t *q, long count, uint32_t w) {
    (void)target; (void)p; (void)q; (void)count; (void)w;
    return 0;
}

long segue_lerp_columns_avx2(uint32_t *target, const uint32_t *columns, long readable, int64_t fx, int64_t step, long count) {
    (void)target; (void)columns; (void)readable; (void)fx; (void)step; (void)count;
    return 0;
}

long segue_bilinear_stepped_avx2(uint32_t *target, const uint32_t *texels, long width, long height,
                                 int64_t fx, int64_t fy, int64_t stepX, int64_t stepY, long count) {
    (void)target; (void)texels; (void)width; (void)height; (void)fx; (void)fy; (void)stepX; (void)stepY; (void)count;
    return 0;
}

long segue_bilinear_perspective_avx2(uint32_t *target, const uint32_t *texels, long width, long height,
                                     const SeguePerspectiveRow *row, const SegueShadeRow *shade, long x0, long count, long ahead) {
    (void)shade; (void)target; (void)texels; (void)width; (void)height; (void)row; (void)x0; (void)count; (void)ahead;
    return 0;
}

long segue_bilinear_perspective_avx512(uint32_t *target, const uint32_t *texels, long width, long height,
                                       const SeguePerspectiveRow *row, const SegueShadeRow *shade, long x0, long count, long ahead) {
    (void)shade; (void)target; (void)texels; (void)width; (void)height; (void)row; (void)x0; (void)count; (void)ahead;
    return 0;
}

long segue_shade_avx2(uint32_t *pixels, const SegueShadeRow *row, long x0, long count) {
    (void)pixels; (void)row; (void)x0; (void)count;
    return 0;
}

#endif

_Static_assert(sizeof(wchar_t) == sizeof(uint32_t), "segue_fill_row stores pixels as wchar_t");

void segue_fill_row(uint32_t *target, uint32_t value, long count) {
    if (count > 0) wmemset((wchar_t *)target, (wchar_t)value, (size_t)count);
}
