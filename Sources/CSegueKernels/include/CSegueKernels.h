#ifndef CSEGUE_KERNELS_H
#define CSEGUE_KERNELS_H

#include <stdbool.h>
#include <stdint.h>

// The CPU compositor's row kernels in AVX2 (and the bilinear's two passes in AVX-512 too), chosen at run time
// (segue_has_avx2, segue_has_avx512), so that one binary runs on every x86-64 (and elsewhere, where neither is
// ever true). C because Swift cannot enable AVX2 for one function; each computes exactly what its Swift twin
// in PixelMath computes, eight (or sixteen) pixels at a time instead of four. Each does the whole multiples
// of its step and returns how many pixels it did; the caller does the rest.

/// Whether this CPU and the operating system run AVX2 (CPUID and XGETBV; `PixelMath.hasAVX2` keeps the answer).
bool segue_has_avx2(void);

/// Whether this CPU and the operating system run AVX-512 F and BW as well as AVX2 (`PixelMath.hasAVX512`).
bool segue_has_avx512(void);

/// `count` pixels from `target` on set to `value`: the C library's `wmemset` (wchar_t is 32 bits on Linux and
/// macOS), which takes the widest stores the CPU has (the background a frame is cleared to).
void segue_fill_row(uint32_t *target, uint32_t value, long count);

/// `PixelMath.blendOpaqueRow`: target = source k / 255 + target (255 - k) / 255, channel by channel, each
/// product rounded as `PixelMath.mulDiv255` rounds; `source` opaque, `k` in 0...255.
long segue_blend_opaque_row_avx2(uint32_t *target, const uint32_t *source, long count, uint32_t k);

/// `PixelMath.lerpRows`: target = (p (256 - w) + q w + 128) >> 8, channel by channel, `w` in 0...256;
/// `target` may be `p` or `q`.
long segue_lerp_rows_avx2(uint32_t *target, const uint32_t *p, const uint32_t *q, long count, uint32_t w);

/// The horizontal pass of a row's bilinear filter (`LayerShader.drawColumns`, opaque pixels stored): pixel n
/// is `PixelMath.lerp(columns[i], columns[i + 1], w)` at the 32.32 texel position `fx + n step`, `i` its whole
/// part and `w` its `PixelMath.weight`. Unclamped: every position of the run must lie within the columns the
/// caller means; the kernel reads sixteen columns from each block's first, stopping before a block would
/// read past `readable` columns. Does nothing unless `fx >= 0` and `0 <= step < 2` texels (2^33).
long segue_lerp_columns_avx2(uint32_t *target, const uint32_t *columns, long readable, int64_t fx, int64_t step, long count);

/// `segue_lerp_columns_avx2` at any step (a layer shrunk to under half its width: spin and flips turning
/// edge-on), eight pixels a step, each pixel's pair loaded apart; stops before a block whose last pair would
/// read past `readable` columns. Does nothing unless `fx >= 0`, `0 <= step < 2^24` texels and `readable`
/// under 2^31.
long segue_lerp_column_pairs_avx2(uint32_t *target, const uint32_t *columns, long readable, int64_t fx, int64_t step, long count);

/// `segue_lerp_rows_avx2` and `segue_lerp_columns_avx2` sixteen pixels a step, where the CPU has AVX-512 (F and
/// BW): whole multiples of sixteen. The column kernel reads 32 columns from each block's first.
long segue_lerp_rows_avx512(uint32_t *target, const uint32_t *p, const uint32_t *q, long count, uint32_t w);
long segue_lerp_columns_avx512(uint32_t *target, const uint32_t *columns, long readable, int64_t fx, int64_t step, long count);

/// `BilinearQuad` eight pixels a step (rotated affine rows, perspective sub-spans): pixel n is the bilinear
/// sample of the `width` x `height` texture at the 32.32 texel position `(fx + n stepX, fy + n stepY)`.
/// Unclamped: every position must lie in the texture. The texels must be followed by a copy of the last
/// row and one texel more (as `Texture` keeps them): the row below the last, and the last texel's right
/// neighbour. Does nothing for textures of 2^31 texels or more.
long segue_bilinear_stepped_avx2(uint32_t *target, const uint32_t *texels, long width, long height,
                                 int64_t fx, int64_t fy, int64_t stepX, int64_t stepY, long count);

/// One row of a perspective item, in the terms of `LayerShader.sample`: the local point at pixel centre X
/// is `((rowU + X a) / Q, (rowV + X b) / Q)` with `Q = rowQ + X c`; its texel position `origin + local scale
/// - 0.5`, held to `low...high` (a sub-rectangle of the texture, at least 0).
typedef struct {
    float rowU, rowV, rowQ, a, b, c;
    float originX, originY, scaleX, scaleY;
    float lowX, lowY, highX, highY;
} SeguePerspectiveRow;

/// A black overlay (a shadow) along one row of an item, in the terms of `LayerShader.overlay`: the local point
/// at pixel centre X is `((rowU + X a) q, (rowV + X b) q)` with `q = 1 / (rowQ + X c)` (1 for an affine item:
/// `rowQ` 1 and `c` 0); its gradient position `t = u gradientU + v gradientV + gradientC` held to 0...1; the
/// overlay's alpha `alphaStart + alphaDelta t + 0.5` rounded down (both times 255, in 0...255).
typedef struct {
    float rowU, rowV, rowQ, a, b, c;
    float gradientU, gradientV, gradientC, alphaStart, alphaDelta;
} SegueShadeRow;

/// `LayerShader.sample` at the centres of pixels `x0 ..< x0 + count` of a perspective row, one division a
/// pixel as the general per-pixel function divides, bit for bit, eight pixels a step. Interior pixels only
/// (Q > 0). The texels padded as for `segue_bilinear_stepped_avx2`. Does nothing for textures of 2^31 texels
/// or more, or a clamp outside the texture. The texels of up to `ahead` pixels past those drawn (the rest of
/// the row's interior) are fetched ahead of a next call.
/// With a `shade` (whose row terms are `row`'s), the samples are shaded as `segue_shade_avx2` shades them.
long segue_bilinear_perspective_avx2(uint32_t *target, const uint32_t *texels, long width, long height,
                                     const SeguePerspectiveRow *row, const SegueShadeRow *shade,
                                     long x0, long count, long ahead);

/// `segue_bilinear_perspective_avx2` sixteen pixels a step, where the CPU has AVX-512 F and BW: the same
/// bytes; draws the multiple of sixteen `count` holds (the rest is left to the AVX2 kernel).
long segue_bilinear_perspective_avx512(uint32_t *target, const uint32_t *texels, long width, long height,
                                       const SeguePerspectiveRow *row, const SegueShadeRow *shade,
                                       long x0, long count, long ahead);

/// The shadow drawn over pixels `x0 ..< x0 + count` of `row`, stored from `pixels` on, in place (each pixel
/// `alpha << 24 + pixel (255 - alpha) / 255` channel by channel, as `PixelMath.over`), eight pixels a step;
/// returns how many (the tail is the caller's).
long segue_shade_avx2(uint32_t *pixels, const SegueShadeRow *row, long x0, long count);

// PNG rows (png_rows.c), for the encoder: the twins of `Rows.rgb`, `Filters.apply`, `Filters.pickSampled` and
// `Filters.pickFull`
// in PNGEncoder.swift, byte for byte; `avx2` (true only where `segue_has_avx2` is) picks a body compiled for it.

/// R, G, B of each of `width` opaque premultiplied pixels, 3 bytes a pixel.
void segue_png_rgb(const uint32_t *src, long width, uint8_t *out, bool avx2);

/// Straight-alpha R, G, B, A bytes (as `uint32_t`s, R in the low byte) of `count` premultiplied pixels,
/// channel by channel as `Pixmap.unpremultiply`: `out` may be `src`.
void segue_straight_rgba(const uint32_t *src, long count, uint32_t *out, bool avx2);

/// PNG filter `type` (0 None ... 4 Paeth) of the `n` bytes of `cur` (the row above `prev`, `bpp` bytes a pixel)
/// into `out`.
void segue_png_filter(int type, const uint8_t *cur, const uint8_t *prev, uint8_t *out, long n, long bpp, bool avx2);

/// None, Sub, Up or Paeth, whichever costs least on every 8th pixel (Sub or None on the first row).
int segue_png_pick_sampled(const uint8_t *cur, const uint8_t *prev, long n, long bpp, bool firstRow, bool avx2);

/// The filter of the five whose costs over the whole row add up least (Sub or None on the first row).
int segue_png_pick_full(const uint8_t *cur, const uint8_t *prev, long n, long bpp, bool firstRow, bool avx2);

/// The integer weights of one YCbCr encoding (a matrix at a range), in units of 1/65536: Y = ((yr R + yg G +
/// yb B + 32768) >> 16) + yOffset, Cb = ((ur R + ug G + ub B + 32768) >> 16) + 128, Cr likewise with v.
typedef struct {
    int32_t yr, yg, yb, yOffset;
    int32_t ur, ug, ub;
    int32_t vr, vg, vb;
} segue_ycbcr_weights;

/// The Y, Cb and Cr planes of a `width` x `height` frame of opaque premultiplied pixels (ycbcr_rows.c) by
/// `weights`, chroma per pixel (4:4:4) or from the mean of each 2x2 block (`chroma420`, planes of
/// `(width + 1) / 2` x `(height + 1) / 2`), as `Y4M.referenceFrame` computes them.
void segue_ycbcr_planes(const uint32_t *pixels, long width, long height, bool chroma420,
                        const segue_ycbcr_weights *weights, uint8_t *y, uint8_t *u, uint8_t *v, bool avx2);

// Colour conversion (colour_rows.c), for the image decoders.

/// Linear light 0...1 is encoded through a table of 2^SEGUE_COLOUR_ENCODE_BITS steps (and its end), and each
/// step holds 2^SEGUE_COLOUR_FRACTION_BITS units of the fixed-point sums.
#define SEGUE_COLOUR_ENCODE_BITS 14
#define SEGUE_COLOUR_FRACTION_BITS 15

/// A conversion between two matrix/shaper RGB profiles, laid out for `segue_matrix_shaper_rows`: for each
/// source channel and level, the channel's linear light times the matrix's column (the target's linear R, G
/// and B it adds, in units of 2^-29, a 4th lane zero), and the target's encoded level at each step of its
/// linear light. 28 KiB, so that it stays in a core's L1 cache.
typedef struct {
    int32_t columns[3][256][4];
    uint8_t encode[(1 << SEGUE_COLOUR_ENCODE_BITS) + 16];
} segue_matrix_shaper;

/// Fills `tables` from the source's linear light at each level (`linear`: 3 x 256, R's first), the 3x3 matrix
/// from the source's linear light into the target's (`matrix`, row-major: target R = row 0 . source RGB), and
/// the target's encoded levels at linear light `i / 2^SEGUE_COLOUR_ENCODE_BITS` (`encode`: 2^14 + 1 bytes).
/// False, and nothing to use, when a value is not finite or a matrix row is too large for the fixed point.
bool segue_matrix_shaper_init(segue_matrix_shaper *tables, const double *linear, const double *matrix, const uint8_t *encode);

/// `count` straight RGBA8 pixels (R in the low byte) through `tables` into `dst` (which may be `src`): each
/// channel's sum held to 0...1 of the target's linear light and rounded to the nearest encoding step; alpha
/// copied.
void segue_matrix_shaper_rows(const segue_matrix_shaper *tables, const uint32_t *src, uint32_t *dst, long count, bool avx2);

#endif
