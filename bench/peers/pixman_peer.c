/*
 * pixman_peer: the same draw lists drawn by pixman, the CPU compositor of X, Weston and cairo, for Segue's
 * benchmark. Each quad is one pixman_image_composite32 of its snapshot sub-rectangle with its projective
 * transform and bilinear filtering, OVER the frame, with a solid mask for opacity and a radial-gradient
 * mask for circles; the frame is cut into bands of rows drawn on as many threads as Segue uses.
 * Left out (so pixman does less work than Segue): rounded-rectangle and sector masks, gradient overlays and
 * analytic edge antialiasing (pixman's edges come from bilinear filtering against transparent texels).
 *
 * Usage: pixman_peer LISTS FROM.rgba TO.rgba TEXW TEXH THREADS REPEATS
 * LISTS is the draw lists as segue-bench writes them; prints one JSON object with ms per frame.
 * PIXMAN_PEER_DUMP=FILE also writes the middle frame as raw RGBA, to check the peer draws the same picture.
 */
#include <pixman.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>

typedef struct {
    int snapshot;                      /* 0 from, 1 to, -1 colour */
    double m[9];                       /* pixel -> local, row-vector [x y 1] * m */
    double ox, oy, sx, sy;             /* texel = origin + local * scale */
    double minx, miny, maxx, maxy;     /* the sub-rectangle in texels */
    double opacity;
    int mask;                          /* 0 none, 1 circle, 2 rounded rect, 3 sector, 4 blurred (2-4 ignored) */
    double cx, cy, r;                  /* circle in pixels */
    int x0, y0, x1, y1;                /* pixel bounds */
    unsigned color;                    /* premultiplied RGBA8 for colour items */
} item_t;

typedef struct { int width, height, count; unsigned background; item_t *items; } frame_t;

static uint32_t *textures[2];
static int tex_w, tex_h;
static frame_t *frames;
static int frame_count;
static uint32_t *target;

typedef struct { int frame, y0, y1; } band_t;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static pixman_color_t to_color(unsigned p) {
    pixman_color_t c = { (uint16_t)((p & 0xff) * 257), (uint16_t)(((p >> 8) & 0xff) * 257),
                         (uint16_t)(((p >> 16) & 0xff) * 257), (uint16_t)(((p >> 24) & 0xff) * 257) };
    return c;
}

static void draw_band(const frame_t *f, int y0, int y1) {
    int stride = f->width * 4;
    pixman_image_t *dst = pixman_image_create_bits(PIXMAN_a8b8g8r8, f->width, y1 - y0, target + (size_t)y0 * f->width, stride);
    pixman_color_t bg = to_color(f->background);
    pixman_box32_t box = { 0, 0, f->width, y1 - y0 };
    pixman_image_fill_boxes(PIXMAN_OP_SRC, dst, &bg, 1, &box);
    for (int k = 0; k < f->count; k++) {
        const item_t *it = &f->items[k];
        int top = it->y0 > y0 ? it->y0 : y0, bottom = it->y1 < y1 ? it->y1 : y1;
        if (top >= bottom || it->x0 >= it->x1) continue;
        pixman_image_t *src;
        if (it->snapshot < 0) {
            pixman_color_t c = to_color(it->color);
            src = pixman_image_create_solid_fill(&c);
        } else {
            int sx0 = (int)floor(it->minx), sy0 = (int)floor(it->miny);
            int sw = (int)ceil(it->maxx) - sx0, sh = (int)ceil(it->maxy) - sy0;
            src = pixman_image_create_bits(PIXMAN_a8b8g8r8, sw, sh, textures[it->snapshot] + (size_t)sy0 * tex_w + sx0, tex_w * 4);
            /* Column form of pixel -> sub-image texel coordinate: t = origin + scale * local - sub-image origin. */
            const double *m = it->m;
            double t[3][3] = {
                { it->sx * m[0] + (it->ox - sx0) * m[2], it->sx * m[3] + (it->ox - sx0) * m[5], it->sx * m[6] + (it->ox - sx0) * m[8] },
                { it->sy * m[1] + (it->oy - sy0) * m[2], it->sy * m[4] + (it->oy - sy0) * m[5], it->sy * m[7] + (it->oy - sy0) * m[8] },
                { m[2], m[5], m[8] } };
            /* Homogeneous: divide by the bottom-right entry so affine maps stay affine (0, 0, 1), as pixman's
             * fast paths expect; scale down only if an entry would overflow 16.16 fixed point. */
            double k = fabs(t[2][2]) > 1e-12 ? 1.0 / t[2][2] : 1.0, largest = 0;
            for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) if (fabs(t[i][j] * k) > largest) largest = fabs(t[i][j] * k);
            if (largest > 16384) k *= 16384 / largest;
            struct pixman_f_transform ft;
            for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) ft.m[i][j] = t[i][j] * k;
            pixman_transform_t fixed;
            pixman_transform_from_pixman_f_transform(&fixed, &ft);
            pixman_image_set_transform(src, &fixed);
            pixman_image_set_filter(src, PIXMAN_FILTER_BILINEAR, NULL, 0);
            pixman_image_set_repeat(src, PIXMAN_REPEAT_NONE);
        }
        pixman_image_t *mask = NULL;
        if (it->mask == 1) {
            pixman_point_fixed_t c = { pixman_double_to_fixed(it->cx), pixman_double_to_fixed(it->cy) };
            double a = it->opacity;
            pixman_gradient_stop_t stops[3] = {
                { 0, { 0, 0, 0, (uint16_t)(65535 * a) } },
                { pixman_double_to_fixed(it->r > 0.5 ? (it->r - 0.5) / (it->r + 0.5) : 0), { 0, 0, 0, (uint16_t)(65535 * a) } },
                { pixman_double_to_fixed(1), { 0, 0, 0, 0 } } };
            mask = pixman_image_create_radial_gradient(&c, &c, 0, pixman_double_to_fixed(it->r + 0.5), stops, 3);
        } else if (it->opacity < 1) {
            pixman_color_t c = { 0, 0, 0, (uint16_t)(65535 * it->opacity) };
            mask = pixman_image_create_solid_fill(&c);
        }
        pixman_image_composite32(PIXMAN_OP_OVER, src, mask, dst, it->x0, top, it->x0, top, it->x0, top - y0,
                                 it->x1 - it->x0, bottom - top);
        pixman_image_unref(src);
        if (mask) pixman_image_unref(mask);
    }
    pixman_image_unref(dst);
}

static band_t *bands;
static int band_count, next_band;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&lock);
        int b = next_band < band_count ? next_band++ : -1;
        pthread_mutex_unlock(&lock);
        if (b < 0) return NULL;
        draw_band(&frames[bands[b].frame], bands[b].y0, bands[b].y1);
    }
}

static void draw_frame(int index, int threads) {
    const frame_t *f = &frames[index];
    int count = threads == 1 ? 1 : threads * 4;
    if (count > f->height) count = f->height;
    for (int b = 0; b < count; b++) {
        bands[b].frame = index;
        bands[b].y0 = b * f->height / count;
        bands[b].y1 = (b + 1) * f->height / count;
    }
    band_count = count;
    next_band = 0;
    pthread_t ids[64];
    for (int t = 1; t < threads; t++) pthread_create(&ids[t], NULL, worker, NULL);
    worker(NULL);
    for (int t = 1; t < threads; t++) pthread_join(ids[t], NULL);
}

static uint32_t *read_raw(const char *path, size_t count) {
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "pixman_peer: cannot read %s\n", path); exit(1); }
    uint32_t *p = malloc(count * 4);
    if (fread(p, 4, count, f) != count) { fprintf(stderr, "pixman_peer: %s is short\n", path); exit(1); }
    fclose(f);
    return p;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: pixman_peer LISTS FROM.rgba TO.rgba TEXW TEXH THREADS REPEATS\n");
        return 2;
    }
    tex_w = atoi(argv[4]);
    tex_h = atoi(argv[5]);
    int threads = atoi(argv[6]), repeats = atoi(argv[7]);
    if (threads < 1 || threads > 64 || repeats < 1) { fprintf(stderr, "pixman_peer: bad THREADS or REPEATS\n"); return 2; }
    textures[0] = read_raw(argv[2], (size_t)tex_w * tex_h);
    textures[1] = read_raw(argv[3], (size_t)tex_w * tex_h);
    FILE *lists = fopen(argv[1], "r");
    if (!lists) { fprintf(stderr, "pixman_peer: cannot read %s\n", argv[1]); return 1; }
    if (fscanf(lists, "frames %d\n", &frame_count) != 1 || frame_count < 1) { fprintf(stderr, "pixman_peer: bad header\n"); return 1; }
    frames = calloc(frame_count, sizeof(frame_t));
    int max_height = 0, max_width = 0;
    for (int i = 0; i < frame_count; i++) {
        frame_t *f = &frames[i];
        if (fscanf(lists, "frame %d %d %u %d\n", &f->width, &f->height, &f->background, &f->count) != 4) {
            fprintf(stderr, "pixman_peer: bad frame %d\n", i);
            return 1;
        }
        if (f->height > max_height) max_height = f->height;
        if (f->width > max_width) max_width = f->width;
        f->items = calloc(f->count ? f->count : 1, sizeof(item_t));
        for (int k = 0; k < f->count; k++) {
            item_t *it = &f->items[k];
            int n = fscanf(lists, "item %d %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %d %lf %lf %lf %d %d %d %d %u\n",
                           &it->snapshot, &it->m[0], &it->m[1], &it->m[2], &it->m[3], &it->m[4], &it->m[5], &it->m[6],
                           &it->m[7], &it->m[8], &it->ox, &it->oy, &it->sx, &it->sy, &it->minx, &it->miny, &it->maxx,
                           &it->maxy, &it->opacity, &it->mask, &it->cx, &it->cy, &it->r, &it->x0, &it->y0, &it->x1,
                           &it->y1, &it->color);
            if (n != 28) { fprintf(stderr, "pixman_peer: bad item %d of frame %d\n", k, i); return 1; }
        }
    }
    target = malloc((size_t)max_width * max_height * 4);
    bands = calloc(threads * 4 + 1, sizeof(band_t));
    draw_frame(0, threads);  /* warm-up */
    const char *dump = getenv("PIXMAN_PEER_DUMP");  /* writes the middle frame as raw RGBA, to check it */
    if (dump) {
        int middle = frame_count / 2;
        draw_frame(middle, threads);
        FILE *out = fopen(dump, "wb");
        if (out) { fwrite(target, 4, (size_t)frames[middle].width * frames[middle].height, out); fclose(out); }
    }
    double *runs = calloc(repeats, sizeof(double));
    for (int r = 0; r < repeats; r++) {
        /* Each run at least 100 ms, as segue-bench times its own (a few frames of a small effect are over
           in milliseconds, where one thread's wake-up is a large part of the figure). */
        double start = now_ms(), elapsed;
        int passes = 0;
        do {
            for (int i = 0; i < frame_count; i++) draw_frame(i, threads);
            passes++;
            elapsed = now_ms() - start;
        } while (elapsed < 100);
        runs[r] = elapsed / ((double)frame_count * passes);
    }
    qsort(runs, repeats, sizeof(double), compare);
    printf("{\"msPerFrame\": %.4f, \"msMin\": %.4f, \"msMax\": %.4f, \"runs\": %d, \"frames\": %d}\n",
           runs[repeats / 2], runs[0], runs[repeats - 1], repeats, frame_count);
    return 0;
}
