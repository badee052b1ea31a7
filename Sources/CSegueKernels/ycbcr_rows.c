#include "CSegueKernels.h"

#include <stddef.h>

// YCbCr planes for Y4M (issue 13: every frame of a video goes through these), by the integer weights of a
// `segue_ycbcr_weights` (a matrix, BT.601 or BT.709, at full or limited range: `YCbCrEncoding` in Y4M.swift
// works them out), the twins of `Y4M.referenceFrame` byte for byte: the same weights and the same rounding.
// Each has a plain body, compiled once for the baseline and once for AVX2 (the compiler vectorises the
// loops); `avx2` picks at run time.

#include "dispatch.h"

static inline __attribute__((always_inline)) uint8_t clamp_byte(int32_t v) {
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

// The weights as locals of each body, so that the compiler keeps them in registers.
#define WEIGHTS const segue_ycbcr_weights w = *weights
#define luma(r, g, b) clamp_byte(((w.yr * (r) + w.yg * (g) + w.yb * (b) + 32768) >> 16) + w.yOffset)
#define cb(r, g, b) clamp_byte(((w.ur * (r) + w.ug * (g) + w.ub * (b) + 32768) >> 16) + 128)
#define cr(r, g, b) clamp_byte(((w.vr * (r) + w.vg * (g) + w.vb * (b) + 32768) >> 16) + 128)

/// Y, and Cb and Cr of each pixel (4:4:4) when `u` is not null, for `n` pixels.
static inline __attribute__((always_inline)) void planes444_body(const segue_ycbcr_weights *weights, const uint32_t *px,
                                                                 long n, uint8_t *y, uint8_t *u, uint8_t *v) {
    WEIGHTS;
    for (long i = 0; i < n; i++) {
        uint32_t p = px[i];
        int32_t r = (int32_t)(p & 0xFF), g = (int32_t)(p >> 8 & 0xFF), b = (int32_t)(p >> 16 & 0xFF);
        y[i] = luma(r, g, b);
    }
    if (!u) return;
    for (long i = 0; i < n; i++) {
        uint32_t p = px[i];
        int32_t r = (int32_t)(p & 0xFF), g = (int32_t)(p >> 8 & 0xFF), b = (int32_t)(p >> 16 & 0xFF);
        u[i] = cb(r, g, b);
        v[i] = cr(r, g, b);
    }
}

/// Cb and Cr of one chroma row of 4:2:0 (`cw` samples, chroma row `cy`): each the mean of its 2x2 block of
/// pixels, rounded down, fewer pixels where the block passes the frame's right or bottom edge.
static inline __attribute__((always_inline)) void chroma420_row_body(const segue_ycbcr_weights *weights, const uint32_t *px,
                                                                     long width, long height, long cy, long cw,
                                                                     uint8_t *u, uint8_t *v) {
    WEIGHTS;
    const uint32_t *top = px + 2 * cy * width;
    const uint32_t *bottom = 2 * cy + 1 < height ? top + width : NULL;
    long whole = width / 2;  // blocks with two columns
    if (bottom) {
        for (long cx = 0; cx < whole; cx++) {
            uint32_t p = top[2 * cx], q = top[2 * cx + 1], s = bottom[2 * cx], t = bottom[2 * cx + 1];
            int32_t r = ((int32_t)(p & 0xFF) + (int32_t)(q & 0xFF) + (int32_t)(s & 0xFF) + (int32_t)(t & 0xFF)) >> 2;
            int32_t g = ((int32_t)(p >> 8 & 0xFF) + (int32_t)(q >> 8 & 0xFF) + (int32_t)(s >> 8 & 0xFF) + (int32_t)(t >> 8 & 0xFF)) >> 2;
            int32_t b = ((int32_t)(p >> 16 & 0xFF) + (int32_t)(q >> 16 & 0xFF) + (int32_t)(s >> 16 & 0xFF) + (int32_t)(t >> 16 & 0xFF)) >> 2;
            u[cx] = cb(r, g, b);
            v[cx] = cr(r, g, b);
        }
    }
    for (long cx = bottom ? whole : 0; cx < cw; cx++) {
        int32_t r = 0, g = 0, b = 0, count = 0;
        for (long dy = 0; dy < 2 && 2 * cy + dy < height; dy++) {
            for (long dx = 0; dx < 2 && 2 * cx + dx < width; dx++) {
                uint32_t p = px[(2 * cy + dy) * width + 2 * cx + dx];
                r += (int32_t)(p & 0xFF); g += (int32_t)(p >> 8 & 0xFF); b += (int32_t)(p >> 16 & 0xFF);
                count++;
            }
        }
        r /= count; g /= count; b /= count;
        u[cx] = cb(r, g, b);
        v[cx] = cr(r, g, b);
    }
}

static inline __attribute__((always_inline)) void planes420_body(const segue_ycbcr_weights *weights, const uint32_t *px,
                                                                 long width, long height, uint8_t *y, uint8_t *u,
                                                                 uint8_t *v) {
    planes444_body(weights, px, width * height, y, NULL, NULL);
    long cw = (width + 1) / 2, ch = (height + 1) / 2;
    for (long cy = 0; cy < ch; cy++) chroma420_row_body(weights, px, width, height, cy, cw, u + cy * cw, v + cy * cw);
}

#if defined(__x86_64__)
SEGUE_AVX2 static void planes444_avx2(const segue_ycbcr_weights *weights, const uint32_t *px, long n, uint8_t *y,
                                       uint8_t *u, uint8_t *v) {
    planes444_body(weights, px, n, y, u, v);
}

SEGUE_AVX2 static void planes420_avx2(const segue_ycbcr_weights *weights, const uint32_t *px, long width, long height,
                                       uint8_t *y, uint8_t *u, uint8_t *v) {
    planes420_body(weights, px, width, height, y, u, v);
}
#endif

void segue_ycbcr_planes(const uint32_t *pixels, long width, long height, bool chroma420,
                        const segue_ycbcr_weights *weights, uint8_t *y, uint8_t *u, uint8_t *v, bool avx2) {
    if (chroma420) SEGUE_DISPATCH(avx2, planes420, weights, pixels, width, height, y, u, v);
    else SEGUE_DISPATCH(avx2, planes444, weights, pixels, width * height, y, u, v);
}
