#include "CSegueKernels.h"

#include <math.h>
#include <string.h>

// The matrix/shaper colour conversion (issue 46: a Display P3 screen into sRGB, or sRGB into Display P3, when
// an image is read): straight RGBA8 in, straight RGBA8 out, alpha copied. Little CMS 2 stays the authority:
// `MatrixShaper.swift` asks it for the source's curves, the matrix between the two profiles' linear lights and
// the target's encoding, and `segue_matrix_shaper_init` only lays them out as fixed point. Integers only, so the
// plain body and the AVX2 body give the same bytes, and so does every machine.

#include "dispatch.h"

enum {
    FRACTION = SEGUE_COLOUR_FRACTION_BITS,
    STEPS = 1 << SEGUE_COLOUR_ENCODE_BITS,
    /// Linear light 1.0 in the units of the sums: an encoding step holds 2^FRACTION of them.
    ONE = 1 << (SEGUE_COLOUR_ENCODE_BITS + SEGUE_COLOUR_FRACTION_BITS),
};

bool segue_matrix_shaper_init(segue_matrix_shaper *t, const double *linear, const double *matrix, const uint8_t *encode) {
    // Each sum must stay inside int32_t for any pixel: with linear light in 0...1, a row's magnitudes (the sum of
    // their absolute values) under 3.99 keep it under 3.99 * 2^29 plus the rounding, below 2^31.
    for (int row = 0; row < 3; row++) {
        double magnitude = 0;
        for (int k = 0; k < 3; k++) {
            double m = matrix[3 * row + k];
            if (!isfinite(m)) return false;
            magnitude += fabs(m);
        }
        if (magnitude >= 3.99) return false;
    }
    for (int channel = 0; channel < 3; channel++) {
        for (int level = 0; level < 256; level++) {
            double v = linear[256 * channel + level];
            if (!isfinite(v)) return false;
            // Held to 0...1, as lcms2's 16-bit pipeline holds a curve's output.
            v = v < 0 ? 0 : v > 1 ? 1 : v;
            for (int row = 0; row < 3; row++) {
                // Rounded to the nearest unit; the half step that rounds the sum to the nearest encoding
                // step rides on the red column.
                double half = channel == 0 ? ONE / STEPS / 2.0 : 0;
                t->columns[channel][level][row] = (int32_t)lrint(matrix[3 * row + channel] * v * ONE + half);
            }
            t->columns[channel][level][3] = 0;
        }
    }
    memcpy(t->encode, encode, STEPS + 1);
    memset(t->encode + STEPS + 1, encode[STEPS], sizeof t->encode - (STEPS + 1));
    return true;
}

/// A channel's sum held to 0 ... ONE (out of the target's gamut: below 0 or over 1) by masks, not branches
/// (which way a pixel goes is no more predictable than the picture), then its encoding step's level.
static inline __attribute__((always_inline)) uint32_t encoded(const uint8_t *encode, int32_t sum) {
    sum &= ~(sum >> 31);                   // max(sum, 0)
    int32_t over = sum - ONE;
    sum = ONE + (over & (over >> 31));     // min(sum, ONE)
    return encode[sum >> FRACTION];
}

static inline __attribute__((always_inline)) void matrix_shaper_body(const segue_matrix_shaper *t, const uint32_t *src,
                                                                      uint32_t *dst, long count) {
    const int32_t (*red)[4] = t->columns[0], (*green)[4] = t->columns[1], (*blue)[4] = t->columns[2];
    const uint8_t *encode = t->encode;
    for (long i = 0; i < count; i++) {
        uint32_t p = src[i];
        const int32_t *r = red[p & 0xFF], *g = green[p >> 8 & 0xFF], *b = blue[p >> 16 & 0xFF];
        uint32_t x = encoded(encode, r[0] + g[0] + b[0]);
        uint32_t y = encoded(encode, r[1] + g[1] + b[1]);
        uint32_t z = encoded(encode, r[2] + g[2] + b[2]);
        dst[i] = x | y << 8 | z << 16 | (p & 0xFF000000u);
    }
}

static void matrix_shaper_plain(const segue_matrix_shaper *t, const uint32_t *src, uint32_t *dst, long count) {
    matrix_shaper_body(t, src, dst, count);
}

#if defined(__x86_64__)
#include <immintrin.h>

/// One pixel with its three sums as one vector: the three columns' rows added lane by lane, held by
/// `vpmaxsd`/`vpminsd`, shifted to steps, looked up. The same integers as `matrix_shaper_body`.
static inline __attribute__((always_inline, target("avx2"))) uint32_t pixel_avx2(const segue_matrix_shaper *t, uint32_t p,
                                                                                  __m128i top) {
    __m128i s = _mm_add_epi32(_mm_add_epi32(_mm_loadu_si128((const __m128i *)t->columns[0][p & 0xFF]),
                                            _mm_loadu_si128((const __m128i *)t->columns[1][p >> 8 & 0xFF])),
                              _mm_loadu_si128((const __m128i *)t->columns[2][p >> 16 & 0xFF]));
    s = _mm_srli_epi32(_mm_min_epi32(_mm_max_epi32(s, _mm_setzero_si128()), top), FRACTION);
    const uint8_t *encode = t->encode;
    return (uint32_t)encode[_mm_cvtsi128_si32(s)] | (uint32_t)encode[_mm_extract_epi32(s, 1)] << 8
         | (uint32_t)encode[_mm_extract_epi32(s, 2)] << 16 | (p & 0xFF000000u);
}

SEGUE_AVX2 static void matrix_shaper_avx2(const segue_matrix_shaper *t, const uint32_t *src, uint32_t *dst, long count) {
    const __m128i top = _mm_set1_epi32(ONE);
    long i = 0;
    // Two pixels a step: both read before either is stored (`dst` may be `src`), two chains in flight.
    for (; i + 2 <= count; i += 2) {
        uint32_t p = src[i], q = src[i + 1];
        uint32_t a = pixel_avx2(t, p, top), b = pixel_avx2(t, q, top);
        dst[i] = a;
        dst[i + 1] = b;
    }
    if (i < count) dst[i] = pixel_avx2(t, src[i], top);
}
#endif

void segue_matrix_shaper_rows(const segue_matrix_shaper *tables, const uint32_t *src, uint32_t *dst, long count, bool avx2) {
#if defined(__x86_64__)
    if (avx2) { matrix_shaper_avx2(tables, src, dst, count); return; }
#endif
    (void)avx2;
    matrix_shaper_plain(tables, src, dst, count);
}
