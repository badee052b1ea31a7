#include "CSegueKernels.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

// PNG's row work (issue 13: the encoder's own share of a frame on disk): each function has a plain body,
// compiled once for the baseline and once more for AVX2 where the compiler can use it (the same C, so the same
// bytes either way); `segue_has_avx2` picks at run time. Each is the twin of a Swift function in PNGEncoder.swift
// (`Rows.rgb`, `Filters.apply`, `Filters.pickSampled`), which the tests hold it to byte for byte.

#include "dispatch.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

static inline __attribute__((always_inline)) void rgb_body(const uint32_t *src, long width, uint8_t *out) {
    for (long x = 0; x < width; x++) {
        uint32_t p = src[x];
        out[3 * x] = (uint8_t)p;
        out[3 * x + 1] = (uint8_t)(p >> 8);
        out[3 * x + 2] = (uint8_t)(p >> 16);
    }
}

/// A premultiplied pixel as straight-alpha bytes R, G, B, A (`Pixmap.unpremultiply`): each channel
/// `min(255, (c 255 + a / 2) / a)`, opaque and clear pixels as they are.
static inline __attribute__((always_inline)) uint32_t straight(uint32_t p) {
    uint32_t a = p >> 24;
    if (a == 255 || a == 0) return a == 0 ? 0 : p;
    uint32_t r = ((p & 0xFF) * 255 + a / 2) / a, g = ((p >> 8 & 0xFF) * 255 + a / 2) / a, b = ((p >> 16 & 0xFF) * 255 + a / 2) / a;
    r = r < 255 ? r : 255; g = g < 255 ? g : 255; b = b < 255 ? b : 255;
    return r | g << 8 | b << 16 | a << 24;
}

static inline __attribute__((always_inline)) void straight_body(const uint32_t *src, long count, uint32_t *out) {
    for (long i = 0; i < count; i++) out[i] = straight(src[i]);
}

static inline __attribute__((always_inline)) uint8_t paeth(uint8_t a, uint8_t b, uint8_t c) {
    int pa = abs((int)b - (int)c), pb = abs((int)a - (int)c), pc = abs((int)a + (int)b - 2 * (int)c);
    // Selects, not branches: which one wins is no more predictable than the picture.
    int bc = pb <= pc ? b : c;
    return (uint8_t)(((pa <= pb) & (pa <= pc)) ? a : bc);
}

static inline __attribute__((always_inline)) void filter_body(int type, const uint8_t *cur, const uint8_t *prev,
                                                              uint8_t *out, long n, long bpp) {
    long first = bpp < n ? bpp : n;
    switch (type) {
    case 0:
        for (long i = 0; i < n; i++) out[i] = cur[i];
        break;
    case 1:
        for (long i = 0; i < first; i++) out[i] = cur[i];
        for (long i = bpp; i < n; i++) out[i] = (uint8_t)(cur[i] - cur[i - bpp]);
        break;
    case 2:
        for (long i = 0; i < n; i++) out[i] = (uint8_t)(cur[i] - prev[i]);
        break;
    case 3:
        for (long i = 0; i < first; i++) out[i] = (uint8_t)(cur[i] - (prev[i] >> 1));
        for (long i = bpp; i < n; i++) out[i] = (uint8_t)(cur[i] - (uint8_t)(((unsigned)cur[i - bpp] + prev[i]) >> 1));
        break;
    default:
        for (long i = 0; i < first; i++) out[i] = (uint8_t)(cur[i] - prev[i]);  // Paeth with a = c = 0 picks b
        for (long i = bpp; i < n; i++) out[i] = (uint8_t)(cur[i] - paeth(cur[i - bpp], prev[i], prev[i - bpp]));
        break;
    }
}

/// A filtered byte's distance from zero, read as signed (`Filters.cost`), without a branch.
static inline __attribute__((always_inline)) long cost(uint8_t v) { return labs((long)(int8_t)v); }

/// The filter of least cost (`Filters.pickFull`'s order on ties), Sub or None on the first row.
static inline __attribute__((always_inline)) int least_cost(const long sums[5], bool firstRow) {
    if (firstRow) return sums[1] <= sums[0] ? 1 : 0;
    int best = 0;
    long least = sums[0];
    for (int f = 1; f < 5; f++) {
        if (sums[f] < least) { best = f; least = sums[f]; }
    }
    return best;
}

static inline __attribute__((always_inline)) int pick_sampled_body(const uint8_t *cur, const uint8_t *prev, long n,
                                                                   long bpp, bool firstRow) {
    long none = 0, sub = 0, up = 0, pae = 0;
    for (long i = bpp; i < n; i += 8 * bpp) {
        long end = i + bpp < n ? i + bpp : n;
        for (long k = i; k < end; k++) {
            uint8_t x = cur[k], a = cur[k - bpp], b = prev[k], c = prev[k - bpp];
            none += cost(x);
            sub += cost((uint8_t)(x - a));
            up += cost((uint8_t)(x - b));
            pae += cost((uint8_t)(x - paeth(a, b, c)));
        }
    }
    long sums[5] = { none, sub, up, LONG_MAX, pae };  // Average is not among the sampled
    return least_cost(sums, firstRow);
}

/// The costs of None, Sub, Up, Average and Paeth (`sums[0...4]`) added up over the first pixel of a row,
/// which has nothing to its left (a = c = 0).
static inline __attribute__((always_inline)) void first_pixel_costs(const uint8_t *cur, const uint8_t *prev, long n,
                                                                    long bpp, long sums[5]) {
    long first = bpp < n ? bpp : n;
    for (long k = 0; k < first; k++) {
        uint8_t x = cur[k], b = prev[k];
        sums[0] += cost(x); sums[1] += cost(x); sums[2] += cost((uint8_t)(x - b));
        sums[3] += cost((uint8_t)(x - (b >> 1))); sums[4] += cost((uint8_t)(x - b));
    }
}

/// The same costs over bytes `from ..< n` of a row (`from` at least `bpp`).
static inline __attribute__((always_inline)) void full_costs(const uint8_t *cur, const uint8_t *prev, long from, long n,
                                                             long bpp, long sums[5]) {
    for (long k = from; k < n; k++) {
        uint8_t x = cur[k], a = cur[k - bpp], b = prev[k], c = prev[k - bpp];
        sums[0] += cost(x);
        sums[1] += cost((uint8_t)(x - a));
        sums[2] += cost((uint8_t)(x - b));
        sums[3] += cost((uint8_t)(x - (uint8_t)(((unsigned)a + b) >> 1)));
        sums[4] += cost((uint8_t)(x - paeth(a, b, c)));
    }
}

static inline __attribute__((always_inline)) int pick_full_body(const uint8_t *cur, const uint8_t *prev, long n,
                                                                long bpp, bool firstRow) {
    long sums[5] = { 0 };
    first_pixel_costs(cur, prev, n, bpp, sums);
    full_costs(cur, prev, bpp, n, bpp, sums);
    return least_cost(sums, firstRow);
}

#if defined(__x86_64__)
/// Four pixels a step: a byte shuffle keeps R, G, B of each and packs them into 12 bytes (stored as 16, the
/// last 4 overwritten by the next step), while 16 bytes fit in what is left of the row.
SEGUE_AVX2 static void rgb_avx2(const uint32_t *src, long width, uint8_t *out) {
    const __m128i pack = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    long x = 0;
    for (; x + 6 <= width; x += 4) {
        __m128i p = _mm_loadu_si128((const __m128i *)(src + x));
        _mm_storeu_si128((__m128i *)(out + 3 * x), _mm_shuffle_epi8(p, pack));
    }
    rgb_body(src + x, width - x, out + 3 * x);
}

/// Eight pixels a step where all eight are opaque (copied) or all clear (zeroed), the way frames mostly are;
/// a mixed step goes pixel by pixel.
SEGUE_AVX2 static void straight_avx2(const uint32_t *src, long count, uint32_t *out) {
    const __m256i alpha = _mm256_set1_epi32((int)0xFF000000);
    long i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i p = _mm256_loadu_si256((const __m256i *)(src + i));
        __m256i a = _mm256_and_si256(p, alpha);
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(a, alpha)) == -1) {
            _mm256_storeu_si256((__m256i *)(out + i), p);
        } else if (_mm256_testz_si256(p, alpha)) {
            _mm256_storeu_si256((__m256i *)(out + i), _mm256_setzero_si256());
        } else {
            straight_body(src + i, 8, out + i);
        }
    }
    straight_body(src + i, count - i, out + i);
}

SEGUE_AVX2 static void filter_avx2(int type, const uint8_t *cur, const uint8_t *prev, uint8_t *out, long n, long bpp) {
    filter_body(type, cur, prev, out, n, bpp);
}

/// The sum of the costs of 32 filtered bytes `x - predicted` (each |x - p| read as a signed byte), in 4 lanes.
SEGUE_AVX2 static inline __m256i cost_sum(__m256i x, __m256i predicted) {
    return _mm256_sad_epu8(_mm256_abs_epi8(_mm256_sub_epi8(x, predicted)), _mm256_setzero_si256());
}

/// The sum of a vector's four 64-bit lanes.
SEGUE_AVX2 static inline long lane_sum(__m256i v) {
    __m128i h = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return _mm_cvtsi128_si64(h) + _mm_extract_epi64(h, 1);
}

/// Paeth's predictor for 16 bytes in 16-bit lanes (`paeth` above, the same ties).
SEGUE_AVX2 static inline __m256i paeth16(__m256i a, __m256i b, __m256i c) {
    __m256i pa = _mm256_abs_epi16(_mm256_sub_epi16(b, c)), pb = _mm256_abs_epi16(_mm256_sub_epi16(a, c));
    __m256i pc = _mm256_abs_epi16(_mm256_sub_epi16(_mm256_add_epi16(a, b), _mm256_add_epi16(c, c)));
    __m256i bc = _mm256_blendv_epi8(c, b, _mm256_cmpgt_epi16(_mm256_add_epi16(pc, _mm256_set1_epi16(1)), pb));  // pb <= pc
    __m256i notA = _mm256_or_si256(_mm256_cmpgt_epi16(pa, pb), _mm256_cmpgt_epi16(pa, pc));
    return _mm256_blendv_epi8(a, bc, notA);
}

/// The sampled search 32 bytes a step: the bytes of the sampled pixels (x, its left neighbour a, the byte
/// above b and above-left c) are first copied side by side, a few dozen pixels at a time, then costed whole.
/// The sums are those of `pick_sampled_body` (the same bytes, added in another order); padding bytes are 0,
/// which cost nothing under any filter.
SEGUE_AVX2 static inline __attribute__((always_inline)) int pick_sampled_avx2_bpp(const uint8_t *cur, const uint8_t *prev,
                                                                                  long n, const long bpp, bool firstRow) {
    enum { chunk = 256 };  // bytes of each of x, a, b, c a pass (64 pixels of 4 bytes)
    uint8_t xs[chunk], as[chunk], bs[chunk], cs[chunk];
    __m256i none = _mm256_setzero_si256(), sub = none, up = none, pae = none;
    const __m256i zero = _mm256_setzero_si256();
    long i = bpp;
    while (i < n) {
        long m = 0;
        // Whole pixels only: a sample cut short by the row's end (never, for whole pixels) is left to the body.
        for (; i + bpp <= n && m + bpp <= chunk; i += 8 * bpp, m += bpp) {
            memcpy(xs + m, cur + i, bpp);
            memcpy(as + m, cur + i - bpp, bpp);
            memcpy(bs + m, prev + i, bpp);
            memcpy(cs + m, prev + i - bpp, bpp);
        }
        if (m == 0) break;
        long padded = (m + 31) & ~31L;
        memset(xs + m, 0, padded - m); memset(as + m, 0, padded - m);
        memset(bs + m, 0, padded - m); memset(cs + m, 0, padded - m);
        for (long k = 0; k < padded; k += 32) {
            __m256i x = _mm256_loadu_si256((const __m256i *)(xs + k)), a = _mm256_loadu_si256((const __m256i *)(as + k));
            __m256i b = _mm256_loadu_si256((const __m256i *)(bs + k)), c = _mm256_loadu_si256((const __m256i *)(cs + k));
            none = _mm256_add_epi64(none, cost_sum(x, zero));
            sub = _mm256_add_epi64(sub, cost_sum(x, a));
            up = _mm256_add_epi64(up, cost_sum(x, b));
            __m256i lo = paeth16(_mm256_unpacklo_epi8(a, zero), _mm256_unpacklo_epi8(b, zero), _mm256_unpacklo_epi8(c, zero));
            __m256i hi = paeth16(_mm256_unpackhi_epi8(a, zero), _mm256_unpackhi_epi8(b, zero), _mm256_unpackhi_epi8(c, zero));
            pae = _mm256_add_epi64(pae, cost_sum(x, _mm256_packus_epi16(lo, hi)));
        }
    }
    if (i < n) return pick_sampled_body(cur, prev, n, bpp, firstRow);  // not reached for rows of whole pixels
    long sums[5] = { lane_sum(none), lane_sum(sub), lane_sum(up), LONG_MAX, lane_sum(pae) };
    return least_cost(sums, firstRow);
}

/// The search over all five filters and the whole row, 32 bytes a step (the first pixel, which has nothing to
/// its left, and the last few bytes as `pick_full_body` does them). Average rounds down: the rounded-up
/// `avg_epu8` less the carry bit `(a ^ b) & 1`.
SEGUE_AVX2 static int pick_full_avx2(const uint8_t *cur, const uint8_t *prev, long n, long bpp, bool firstRow) {
    long sums[5] = { 0 };
    first_pixel_costs(cur, prev, n, bpp, sums);
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi8(1);
    __m256i v[5] = { zero, zero, zero, zero, zero };
    long k = bpp;
    for (; k + 32 <= n; k += 32) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(cur + k)), a = _mm256_loadu_si256((const __m256i *)(cur + k - bpp));
        __m256i b = _mm256_loadu_si256((const __m256i *)(prev + k)), c = _mm256_loadu_si256((const __m256i *)(prev + k - bpp));
        v[0] = _mm256_add_epi64(v[0], cost_sum(x, zero));
        v[1] = _mm256_add_epi64(v[1], cost_sum(x, a));
        v[2] = _mm256_add_epi64(v[2], cost_sum(x, b));
        __m256i mean = _mm256_sub_epi8(_mm256_avg_epu8(a, b), _mm256_and_si256(_mm256_xor_si256(a, b), one));
        v[3] = _mm256_add_epi64(v[3], cost_sum(x, mean));
        __m256i lo = paeth16(_mm256_unpacklo_epi8(a, zero), _mm256_unpacklo_epi8(b, zero), _mm256_unpacklo_epi8(c, zero));
        __m256i hi = paeth16(_mm256_unpackhi_epi8(a, zero), _mm256_unpackhi_epi8(b, zero), _mm256_unpackhi_epi8(c, zero));
        v[4] = _mm256_add_epi64(v[4], cost_sum(x, _mm256_packus_epi16(lo, hi)));
    }
    for (int f = 0; f < 5; f++) sums[f] += lane_sum(v[f]);
    full_costs(cur, prev, k, n, bpp, sums);
    return least_cost(sums, firstRow);
}

SEGUE_AVX2 static int pick_sampled_avx2(const uint8_t *cur, const uint8_t *prev, long n, long bpp, bool firstRow) {
    // A constant bpp in each: the copies of a pixel's bytes are then a load and a store, not calls.
    if (bpp == 3) return pick_sampled_avx2_bpp(cur, prev, n, 3, firstRow);
    if (bpp == 4) return pick_sampled_avx2_bpp(cur, prev, n, 4, firstRow);
    return pick_sampled_body(cur, prev, n, bpp, firstRow);
}
#endif

void segue_png_rgb(const uint32_t *src, long width, uint8_t *out, bool avx2) {
    SEGUE_DISPATCH(avx2, rgb, src, width, out);
}

void segue_png_filter(int type, const uint8_t *cur, const uint8_t *prev, uint8_t *out, long n, long bpp, bool avx2) {
    SEGUE_DISPATCH(avx2, filter, type, cur, prev, out, n, bpp);
}

int segue_png_pick_sampled(const uint8_t *cur, const uint8_t *prev, long n, long bpp, bool firstRow, bool avx2) {
    return SEGUE_DISPATCH(avx2, pick_sampled, cur, prev, n, bpp, firstRow);
}

int segue_png_pick_full(const uint8_t *cur, const uint8_t *prev, long n, long bpp, bool firstRow, bool avx2) {
    return SEGUE_DISPATCH(avx2, pick_full, cur, prev, n, bpp, firstRow);
}

void segue_straight_rgba(const uint32_t *src, long count, uint32_t *out, bool avx2) {
    SEGUE_DISPATCH(avx2, straight, src, count, out);
}
