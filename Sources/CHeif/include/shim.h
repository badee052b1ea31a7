#ifndef SEGUE_CHEIF_SHIM_H
#define SEGUE_CHEIF_SHIM_H

/* libheif (HEIC input), opened with dlopen by segue_heif_load() rather than linked: Debian's libheif1 brings
 * libde265, libx265, libaom and libdav1d (24.8 MB stripped, 5.5 MB gzipped; x265 and aom are encoders a decoder
 * never uses), which the self-contained archive (make dist) would otherwise ship and keep up to date. A program
 * that reads no HEIC starts without it; one that does says to install libheif1.
 *
 * heif.h gives the types and constants (its prototypes are declared, never called: nothing links libheif). Each
 * function Segue calls is a `static inline` wrapper, segue_heif_NAME for heif_NAME, through one table. To call
 * another: add it to SEGUE_HEIF_ENTRIES and add its wrapper below (the prototype from heif.h). */

#include <stddef.h>
#include <stdint.h>
#include <libheif/heif.h>

/* The soname opened (Debian: libheif1). */
#define SEGUE_HEIF_SONAME "libheif.so.1"

/* Every entry point: X(name, return type, parameters). */
#define SEGUE_HEIF_ENTRIES(X) \
    X(heif_init, struct heif_error, (struct heif_init_params *)) \
    X(heif_context_alloc, struct heif_context *, (void)) \
    X(heif_context_free, void, (struct heif_context *)) \
    X(heif_context_set_maximum_image_size_limit, void, (struct heif_context *, int)) \
    X(heif_context_read_from_memory_without_copy, struct heif_error, (struct heif_context *, const void *, size_t, const struct heif_reading_options *)) \
    X(heif_context_get_primary_image_handle, struct heif_error, (struct heif_context *, struct heif_image_handle **)) \
    X(heif_image_handle_release, void, (const struct heif_image_handle *)) \
    X(heif_image_handle_get_width, int, (const struct heif_image_handle *)) \
    X(heif_image_handle_get_height, int, (const struct heif_image_handle *)) \
    X(heif_image_handle_get_luma_bits_per_pixel, int, (const struct heif_image_handle *)) \
    X(heif_image_handle_get_raw_color_profile_size, size_t, (const struct heif_image_handle *)) \
    X(heif_image_handle_get_raw_color_profile, struct heif_error, (const struct heif_image_handle *, void *)) \
    X(heif_image_handle_get_nclx_color_profile, struct heif_error, (const struct heif_image_handle *, struct heif_color_profile_nclx **)) \
    X(heif_nclx_color_profile_free, void, (struct heif_color_profile_nclx *)) \
    X(heif_decode_image, struct heif_error, (const struct heif_image_handle *, struct heif_image **, enum heif_colorspace, enum heif_chroma, const struct heif_decoding_options *)) \
    X(heif_image_get_width, int, (const struct heif_image *, enum heif_channel)) \
    X(heif_image_get_height, int, (const struct heif_image *, enum heif_channel)) \
    X(heif_image_get_plane_readonly, const uint8_t *, (const struct heif_image *, enum heif_channel, int *)) \
    X(heif_image_release, void, (const struct heif_image *))

#define SEGUE_HEIF_FIELD(name, ret, params) ret (*name) params;
struct segue_heif_entries { SEGUE_HEIF_ENTRIES(SEGUE_HEIF_FIELD) };
#undef SEGUE_HEIF_FIELD

/* Filled by segue_heif_load(); every pointer is set once it has returned 0, and none is before. */
extern struct segue_heif_entries segue_heif;

/* Opens libheif once (later calls return the first answer): 0 when every entry is found, else 1 with `error`
 * holding one line (the soname, the loader's words, the package to install). Thread-safe. */
int segue_heif_load(char *error, size_t size);

static inline struct heif_context *segue_heif_context_alloc(void) { return segue_heif.heif_context_alloc(); }
static inline void segue_heif_context_free(struct heif_context *ctx) { segue_heif.heif_context_free(ctx); }
static inline void segue_heif_context_set_maximum_image_size_limit(struct heif_context *ctx, int maximum_width) {
    segue_heif.heif_context_set_maximum_image_size_limit(ctx, maximum_width);
}
static inline struct heif_error segue_heif_context_read_from_memory_without_copy(struct heif_context *ctx, const void *mem, size_t size) {
    return segue_heif.heif_context_read_from_memory_without_copy(ctx, mem, size, NULL);
}
static inline struct heif_error segue_heif_context_get_primary_image_handle(struct heif_context *ctx, struct heif_image_handle **handle) {
    return segue_heif.heif_context_get_primary_image_handle(ctx, handle);
}
static inline void segue_heif_image_handle_release(const struct heif_image_handle *handle) { segue_heif.heif_image_handle_release(handle); }
static inline int segue_heif_image_handle_get_width(const struct heif_image_handle *handle) { return segue_heif.heif_image_handle_get_width(handle); }
static inline int segue_heif_image_handle_get_height(const struct heif_image_handle *handle) { return segue_heif.heif_image_handle_get_height(handle); }
static inline int segue_heif_image_handle_get_luma_bits_per_pixel(const struct heif_image_handle *handle) {
    return segue_heif.heif_image_handle_get_luma_bits_per_pixel(handle);
}
static inline size_t segue_heif_image_handle_get_raw_color_profile_size(const struct heif_image_handle *handle) {
    return segue_heif.heif_image_handle_get_raw_color_profile_size(handle);
}
static inline struct heif_error segue_heif_image_handle_get_raw_color_profile(const struct heif_image_handle *handle, void *out) {
    return segue_heif.heif_image_handle_get_raw_color_profile(handle, out);
}
static inline struct heif_error segue_heif_image_handle_get_nclx_color_profile(const struct heif_image_handle *handle, struct heif_color_profile_nclx **out) {
    return segue_heif.heif_image_handle_get_nclx_color_profile(handle, out);
}
static inline void segue_heif_nclx_color_profile_free(struct heif_color_profile_nclx *nclx) { segue_heif.heif_nclx_color_profile_free(nclx); }
/* Decodes into interleaved RGB(A): 8 bits a sample (heif_chroma_interleaved_RGBA), or 16-bit words holding the
 * image's own bit depth, little-endian (heif_chroma_interleaved_RRGGBBAA_LE); rotations and mirrors applied. */
static inline struct heif_error segue_heif_decode_image(const struct heif_image_handle *handle, struct heif_image **out, enum heif_chroma chroma) {
    return segue_heif.heif_decode_image(handle, out, heif_colorspace_RGB, chroma, NULL);
}
static inline int segue_heif_image_get_width(const struct heif_image *image) { return segue_heif.heif_image_get_width(image, heif_channel_interleaved); }
static inline int segue_heif_image_get_height(const struct heif_image *image) { return segue_heif.heif_image_get_height(image, heif_channel_interleaved); }
static inline const uint8_t *segue_heif_image_get_plane_readonly(const struct heif_image *image, int *stride) {
    return segue_heif.heif_image_get_plane_readonly(image, heif_channel_interleaved, stride);
}
static inline void segue_heif_image_release(const struct heif_image *image) { segue_heif.heif_image_release(image); }

/* The constants Swift needs by value. */
static const enum heif_chroma SEGUE_HEIF_RGBA8 = heif_chroma_interleaved_RGBA;
static const enum heif_chroma SEGUE_HEIF_RGBA16_LE = heif_chroma_interleaved_RRGGBBAA_LE;

#endif
