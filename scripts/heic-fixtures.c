/* Writes the HEIC test fixtures (Tests/SegueImageIOTests/Fixtures/heic/) with libheif's own encoder (x265):
 * 24x16 pixels of six flat 8x8 patches, stored as Display P3 values (pure red and green of a P3 page as Chromium
 * stores them, a skin tone, a sky blue, a mid grey, a dark brown), so that 4:2:0 chroma lands on whole patches.
 *
 *   p3-icc.heic         8 bits, a Display P3 ICC profile (lcms2's, from the P3 primaries and the sRGB curve) in a
 *                       'prof' colr box, as iPhones write
 *   p3-nclx.heic        8 bits, an nclx colr box (primaries 12, transfer 13, matrix 6, full range), no profile
 *   p3-nclx-10bit.heic  the same in 10 bits (the samples times 1023/255)
 *
 * heif-enc (libheif 1.15) cannot write the nclx box: it leaves it out for macOS's sake, an encoding option it does
 * not expose. Built and run by scripts/make-heic-fixtures.sh. */
#include <libheif/heif.h>
#include <lcms2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char patches[6][3] = {
    {234, 51, 35}, {117, 251, 76}, {226, 180, 150}, {110, 170, 230}, {128, 128, 128}, {60, 40, 30}};
enum { W = 24, H = 16 };

static void check(struct heif_error e, const char *what) {
    if (e.code != heif_error_Ok) { fprintf(stderr, "%s: %s\n", what, e.message); exit(1); }
}

static struct heif_image *image(int bits) {
    struct heif_image *img;
    enum heif_chroma chroma = bits > 8 ? heif_chroma_interleaved_RRGGBB_LE : heif_chroma_interleaved_RGB;
    check(heif_image_create(W, H, heif_colorspace_RGB, chroma, &img), "heif_image_create");
    check(heif_image_add_plane(img, heif_channel_interleaved, W, H, bits), "heif_image_add_plane");
    int stride;
    uint8_t *p = heif_image_get_plane(img, heif_channel_interleaved, &stride);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int c = 0; c < 3; c++) {
                unsigned v = patches[(y / 8) * 3 + x / 8][c];
                if (bits > 8) {
                    unsigned w = (v * 1023 + 127) / 255;
                    p[y * stride + 6 * x + 2 * c] = w & 0xFF;
                    p[y * stride + 6 * x + 2 * c + 1] = w >> 8;
                } else {
                    p[y * stride + 3 * x + c] = v;
                }
            }
    return img;
}

static void write(struct heif_image *img, int nclx, const char *path) {
    struct heif_context *ctx = heif_context_alloc();
    struct heif_encoder *enc;
    check(heif_context_get_encoder_for_format(ctx, heif_compression_HEVC, &enc), "encoder");
    check(heif_encoder_set_lossy_quality(enc, 90), "quality");
    struct heif_encoding_options *options = heif_encoding_options_alloc();
    struct heif_color_profile_nclx *profile = NULL;
    if (nclx) {
        profile = heif_nclx_color_profile_alloc();
        profile->color_primaries = heif_color_primaries_SMPTE_EG_432_1;
        profile->transfer_characteristics = heif_transfer_characteristic_IEC_61966_2_1;
        profile->matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_601_6;
        profile->full_range_flag = 1;
        options->output_nclx_profile = profile;
        check(heif_image_set_nclx_color_profile(img, profile), "nclx");
        options->macOS_compatibility_workaround_no_nclx_profile = 0;
    }
    check(heif_context_encode_image(ctx, img, enc, options, NULL), "encode");
    check(heif_context_write_to_file(ctx, path), path);
    heif_encoding_options_free(options);
    if (profile) heif_nclx_color_profile_free(profile);
    heif_encoder_release(enc);
    heif_context_free(ctx);
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: heic-fixtures DIR\n"); return 2; }
    char path[4096];
    heif_init(NULL);

    cmsCIExyY white = {0.3127, 0.3290, 1};
    cmsCIExyYTRIPLE p3 = {{0.680, 0.320, 1}, {0.265, 0.690, 1}, {0.150, 0.060, 1}};
    double srgb[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    cmsToneCurve *curve = cmsBuildParametricToneCurve(NULL, 4, srgb);
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = cmsCreateRGBProfile(&white, &p3, curves);
    cmsUInt32Number size = 0;
    cmsSaveProfileToMem(profile, NULL, &size);
    void *icc = malloc(size);
    cmsSaveProfileToMem(profile, icc, &size);

    struct heif_image *img = image(8);
    check(heif_image_set_raw_color_profile(img, "prof", icc, size), "profile");
    snprintf(path, sizeof path, "%s/p3-icc.heic", argv[1]);
    write(img, 0, path);
    heif_image_release(img);

    img = image(8);
    snprintf(path, sizeof path, "%s/p3-nclx.heic", argv[1]);
    write(img, 1, path);
    heif_image_release(img);

    img = image(10);
    snprintf(path, sizeof path, "%s/p3-nclx-10bit.heic", argv[1]);
    write(img, 1, path);
    heif_image_release(img);
    return 0;
}
