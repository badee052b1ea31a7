#version 310 es
// Segue's compute compositor (ComputeCompositor.swift): one dispatch draws a frame's whole draw list, or the
// mean of motion blur's samples, and writes it once. Each workgroup owns a tile of pixels; its invocations
// first bin the items (which reach the tile, and for each sample the topmost item that covers the tile whole
// and opaque, beneath which nothing shows), then each invocation walks its pixels' items back to front,
// evaluates DrawItem's per-pixel function (draw-item.glsl, the one the raster path's layer.frag runs) and
// blends in registers, rounding to 8 bits after every item as an RGBA8 framebuffer does: no overdraw, no
// ROPs, no second pass.
//
// OUTPUT (a #define inserted after the #version line, as LayerVariant does for layer.frag):
//   0: premultiplied RGBA8 words into the output buffer (row 0 first), an invocation a pixel;
//   1: the same pixels into the rgba8 image uImage (for a later pass: the planes of an odd size);
//   2: YCbCr 4:2:0 planes (Y, Cb, Cr, as Y4M stores them) into the output buffer, an invocation 8x2 pixels
//      (whole words of each plane: needs a width a multiple of 8 and an even height);
//   3: YCbCr 4:4:4 planes, an invocation 4x1 pixels (needs a width a multiple of 4).
// The planes take the C kernel's integer arithmetic (segue_ycbcr_planes, ycbcr-planes.frag): the same bytes.
#ifndef OUTPUT
#define OUTPUT 0
#endif
// The kinds of item the frame has (inserted with OUTPUT; the defaults draw any frame): MASKS has bit k for mask
// kind k (MASK_CIRCLE, ...: DrawItemRecord.glslDefinitions, inserted with them); PERSPECTIVE, OVERLAY,
// SNAPSHOT and BLIT are 1 where some item needs them. A program keeps only what its frame's items use.
#ifndef MASKS
#define MASKS (((1 << MASK_KINDS) - 1) & ~(1 << MASK_NONE))
#endif
#ifndef PERSPECTIVE
#define PERSPECTIVE 1
#endif
#ifndef OVERLAY
#define OVERLAY 1
#endif
#ifndef SNAPSHOT
#define SNAPSHOT 1
#endif
#ifndef BLIT
#define BLIT 1
#endif
#define HAS_MASK(k) (((MASKS >> (k)) & 1) != 0)
#define HAS_PERSPECTIVE (PERSPECTIVE != 0)
#define HAS_OVERLAY (OVERLAY != 0)
#define HAS_SNAPSHOT (SNAPSHOT != 0)

// A workgroup is a row of 32 invocations (a warp on NVIDIA) by 4 (WORKGROUP_X, WORKGROUP_Y: inserted from
// ComputeCompositor.workgroup): 32 neighbouring invocations store neighbouring words, so a warp writes whole
// 128-byte lines of the output (of each plane), which matters where the output is host memory across the bus.
#ifndef WORKGROUP_X
#define WORKGROUP_X 32
#endif
#ifndef WORKGROUP_Y
#define WORKGROUP_Y 4
#endif
layout(local_size_x = WORKGROUP_X, local_size_y = WORKGROUP_Y) in;

precision highp float;
precision highp int;
precision highp sampler2D;
precision highp image2D;

uniform sampler2D uFrom;
uniform sampler2D uTo;

// Which snapshot draw-item.glsl samples: 1 from, 2 to.
int gSnapshot;
vec4 snapshotAt(vec2 normalized) {
    return gSnapshot == 1 ? textureLod(uFrom, normalized, 0.0) : textureLod(uTo, normalized, 0.0);
}

#include "draw-item.glsl"

// The draw items (DrawItemRecord, draw-item.glsl), a copy of the core's records (ComputeCompositor.upload).
layout(std430, binding = 0) readonly buffer Items { DrawItemRecord items[]; };
// Each sample (one draw list): its first item, its item count, its background (premultiplied RGBA8 bits).
layout(std430, binding = 1) readonly buffer Samples { ivec4 samples[]; };
#if OUTPUT == 0 || OUTPUT == 2 || OUTPUT == 3
layout(std430, binding = 2) writeonly buffer Output { uint words[]; };
#if OUTPUT == 2
// The same buffer as pairs of words (bound to both points): an invocation's two luma words of a row in one
// 8-byte store, so a warp's luma store is 256 contiguous bytes.
layout(std430, binding = 3) writeonly buffer OutputPairs { uvec2 pairs[]; };
#endif
#else
layout(rgba8, binding = 0) writeonly uniform highp image2D uImage;
#endif

uniform ivec2 uFrameSize;
uniform int uSampleCount;
// The planes' weights (segue_ycbcr_weights), in units of 1/65536: yr, yg, yb, Y's offset; ur, ug, ub; vr, vg, vb.
uniform ivec4 uLuma;
uniform ivec3 uCb;
uniform ivec3 uCr;


#if OUTPUT == 2
const ivec2 pixelsPerInvocation = ivec2(8, 2);
#elif OUTPUT == 3
const ivec2 pixelsPerInvocation = ivec2(4, 1);
#else
const ivec2 pixelsPerInvocation = ivec2(1, 1);
#endif

// Limits.maxItemsPerDispatch and maxMotionBlurSamples: a frame with more is drawn by the raster path.
// Bit i: item i reaches this workgroup's tile.
shared uint tileItems[MAX_ITEMS / 32];
// For each sample, the first item worth drawing in this tile.
shared int tileFirst[MAX_SAMPLES];

// The colour item i lays over the pixel whose centre is `centre`.
vec4 itemColor(int i, vec2 centre) {
    DrawItemRecord it = items[i];
    if (BLIT != 0 && it.blit.x != 0) {
        // A blit (DrawItem.blit): one texel per pixel at a whole-texel offset, as layer.frag's BLIT variant.
        ivec2 texel = ivec2(centre) + it.blit.yz;
        return (it.kind.x == 1 ? texelFetch(uFrom, texel, 0) : texelFetch(uTo, texel, 0)) * it.gradientsOpacity.z;
    }
    gSnapshot = it.kind.x;
    return drawItemColor(it, centre, it.kind.x == 0 ? 0 : 1, it.kind.y, it.kind.z != 0, it.kind.w != 0);
}

// Bins the items against this workgroup's tile (every invocation takes part; call before any returns).
void binItems(ivec4 tile) {
    int lane = int(gl_LocalInvocationIndex);
    int lanes = int(gl_WorkGroupSize.x * gl_WorkGroupSize.y);
    for (int w = lane; w < MAX_ITEMS / 32; w += lanes) tileItems[w] = 0u;
    for (int s = lane; s < uSampleCount; s += lanes) tileFirst[s] = samples[s].x;
    memoryBarrierShared();
    barrier();
    ivec4 last = samples[uSampleCount - 1];
    int total = last.x + last.y;
    for (int i = lane; i < total; i += lanes) {
        ivec4 b = items[i].bounds;
        if (b.x < tile.z && tile.x < b.z && b.y < tile.w && tile.y < b.w) {
            atomicOr(tileItems[i >> 5], 1u << uint(i & 31));
            ivec4 solid = items[i].solid;
            if (solid.x <= tile.x && solid.y <= tile.y && solid.z >= tile.z && solid.w >= tile.w) {
                atomicMax(tileFirst[items[i].blit.w], i);
            }
        }
    }
    memoryBarrierShared();
    barrier();
}

// Pixel p's levels (0...255 each): its sample drawn item by item over the background, rounded to 8 bits after
// each as the raster path's framebuffer is; for motion blur the mean of the samples' levels, rounded once as
// FrameAccumulator rounds, floor((sum + floor(n / 2)) / n).
uvec4 pixelLevels(ivec2 p) {
    vec2 centre = vec2(p) + 0.5;
    uvec4 sum = uvec4(0u);
    for (int s = 0; s < uSampleCount; s++) {
        ivec4 frameSample = samples[s];
        uint bg = uint(frameSample.z);
        vec4 dst = vec4(uvec4(bg, bg >> 8, bg >> 16, bg >> 24) & 255u) / 255.0;
        int end = frameSample.x + frameSample.y;
        // The tile's items from the first worth drawing, in order, by their set bits (findLSB), not by index.
        for (int i = tileFirst[s]; i < end; i++) {
            uint word = tileItems[i >> 5] & (0xFFFFFFFFu << uint(i & 31));
            if (word == 0u) {
                i |= 31;  // the rest of this word is empty; the loop's i++ moves to the next word
                continue;
            }
            i = (i & ~31) + findLSB(word);
            if (i >= end) break;
            ivec4 b = items[i].bounds;
            if (p.x < b.x || p.y < b.y || p.x >= b.z || p.y >= b.w) continue;
            vec4 src = itemColor(i, centre);
            dst = floor(clamp(src + dst * (1.0 - src.a), 0.0, 1.0) * 255.0 + 0.5) / 255.0;
        }
        sum += uvec4(dst * 255.0 + 0.5);
    }
    uint n = uint(uSampleCount);
    return (sum + n / 2u) / n;
}

// ((w . rgb + 32768) >> 16) + offset, clamped to a byte; >> of a signed int extends the sign: a floor, as C's.
uint weighted(ivec3 w, ivec3 rgb, int offset) {
    return uint(clamp(((w.x * rgb.r + w.y * rgb.g + w.z * rgb.b + 32768) >> 16) + offset, 0, 255));
}

void main() {
    ivec2 tileSize = ivec2(gl_WorkGroupSize.xy) * pixelsPerInvocation;
    ivec2 tileOrigin = ivec2(gl_WorkGroupID.xy) * tileSize;
    binItems(ivec4(tileOrigin, min(tileOrigin + tileSize, uFrameSize)));
    ivec2 origin = ivec2(gl_GlobalInvocationID.xy) * pixelsPerInvocation;
    if (origin.x >= uFrameSize.x || origin.y >= uFrameSize.y) return;
#if OUTPUT == 0
    uvec4 c = pixelLevels(origin);
    words[origin.y * uFrameSize.x + origin.x] = c.r | (c.g << 8) | (c.b << 16) | (c.a << 24);
#elif OUTPUT == 1
    imageStore(uImage, origin, vec4(pixelLevels(origin)) / 255.0);
#elif OUTPUT == 2
    // 8x2 pixels: two words of Y in each row (one pair), and four 2x2 blocks, one word each of Cb and Cr.
    int lumaWords = uFrameSize.x * uFrameSize.y / 4;
    int chromaWords = lumaWords / 4;
    ivec3 blocks[4] = ivec3[4](ivec3(0), ivec3(0), ivec3(0), ivec3(0));
    for (int row = 0; row < 2; row++) {
        uint luma[2] = uint[2](0u, 0u);
        for (int column = 0; column < 8; column++) {
            ivec3 rgb = ivec3(pixelLevels(origin + ivec2(column, row)).rgb);
            luma[column >> 2] |= weighted(uLuma.xyz, rgb, uLuma.w) << uint(8 * (column & 3));
            blocks[column >> 1] += rgb;
        }
        pairs[((origin.y + row) * uFrameSize.x + origin.x) / 8] = uvec2(luma[0], luma[1]);
    }
    uint cb = 0u, cr = 0u;
    for (int k = 0; k < 4; k++) {
        ivec3 mean = blocks[k] >> 2;
        cb |= weighted(uCb, mean, 128) << uint(8 * k);
        cr |= weighted(uCr, mean, 128) << uint(8 * k);
    }
    int chromaAt = ((origin.y / 2) * (uFrameSize.x / 2) + origin.x / 2) / 4;
    words[lumaWords + chromaAt] = cb;
    words[lumaWords + chromaWords + chromaAt] = cr;
#elif OUTPUT == 3
    // 4x1 pixels: one word of each plane.
    int planeWords = uFrameSize.x * uFrameSize.y / 4;
    uint y = 0u, cb = 0u, cr = 0u;
    for (int column = 0; column < 4; column++) {
        ivec3 rgb = ivec3(pixelLevels(origin + ivec2(column, 0)).rgb);
        uint shift = uint(8 * column);
        y |= weighted(uLuma.xyz, rgb, uLuma.w) << shift;
        cb |= weighted(uCb, rgb, 128) << shift;
        cr |= weighted(uCr, rgb, 128) << shift;
    }
    int at = (origin.y * uFrameSize.x + origin.x) / 4;
    words[at] = y;
    words[planeWords + at] = cb;
    words[2 * planeWords + at] = cr;
#endif
}
