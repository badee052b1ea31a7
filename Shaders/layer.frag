#version 300 es
// Segue's layer program, fragment stage (the raster path): one draw item's quad, each pixel coloured by
// DrawItem's per-pixel function, which lives in draw-item.glsl (shared with the compute path, composite.comp).
// Output is premultiplied and blended with glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA): src + dst * (1 - src.a).
//
// Variants: llvmpipe (and many GPUs) run both sides of a branch, so the renderer compiles one program per
// combination of these switches (LayerVariant.swift inserts the #defines after the #version line, as
// Weston does); the defaults below are the most general variant. scripts/check-shaders.sh validates each.
#ifndef SOURCE
#define SOURCE 1       // 0: a colour, 1: a snapshot
#endif
#ifndef MASK
#define MASK 2         // 0: none, 1: circle, 2: rounded rect, 3: sector, 4: blurred rect, 5: blurred rounded rect,
                       // 6: continuous rounded rect
#endif
#ifndef OVERLAY
#define OVERLAY 1      // 1: a gradient overlay
#endif
#ifndef PERSPECTIVE
#define PERSPECTIVE 1  // 0: the map is affine (Q == 1 everywhere, gradients constant)
#endif
#ifndef BLIT
#define BLIT 0         // 1: a blit (DrawItem.blit), whatever the other switches say
#endif

precision highp float;
precision highp int;
precision highp sampler2D;

// [U, V, Q] = [x, y, 1] * pixelToLocal (row-vector convention); uploaded untransposed from
// Matrix3.rowMajor, so columns here are its rows and uPixelToLocal * vec3(x, y, 1) gives [U, V, Q].
uniform mat3 uPixelToLocal;
// The layer's size in local points (w, h).
uniform vec2 uSize;

// For affine maps: 1 / |grad u| and 1 / |grad v| in pixels, constant over the item.
uniform vec2 uInverseGradients;

// Premultiplied colour, when SOURCE == 0.
uniform vec4 uColor;
// The snapshot and how local points map onto its texels (DrawItem.TexelMap).
uniform sampler2D uSnapshot;
uniform vec2 uTexelOrigin;
uniform vec2 uTexelScale;
uniform vec2 uClampMin;
uniform vec2 uClampMax;
// 1 / the snapshot's size in texels.
uniform vec2 uInverseTextureSize;

// Circle (MASK 1): uMask = centre x, centre y, radius, 0; rounded rect (MASK 2): uMask = x, y, w, h and
// uMaskRadius = corner radius; sector (MASK 3): uMask = centre x, centre y, then the first ray's unit
// direction, and uMaskEnd = the last ray's unit direction, then 1 when the sector spans more than a half
// turn, else 0 (Mask.sectorRays); all in local points.
uniform vec4 uMask;
uniform float uMaskRadius;
uniform vec3 uMaskEnd;
// Continuous rounded rect (MASK 6): uMask = x, y, w, h, uMaskRadius = the corners' reach (the radius times
// Mask.continuousReach), uMaskEnd.x = the corners' superellipse exponent (Mask.continuousExponent).
// Blurred rect and rounded rect (MASK 4, 5; Mask.BlurShape): uMask = centre x, centre y, half width, half
// height; uMaskRadius = the corner radius (MASK 5); uMaskEnd = 1 / (sigma sqrt 2), the corners' exponent and
// its inverse; uBlur = the peak and the shorter side.
uniform vec2 uBlur;

// Gradient overlay (OVERLAY 1): g = clamp(dot(vec3(u, v, 1), uGradient), 0, 1), premultiplied ends.
uniform vec3 uGradient;
uniform vec4 uOverlayStart;
uniform vec4 uOverlayEnd;

uniform float uOpacity;

// For a blit: pixel (x, y) shows texel (x, y) + uBlitOffset.
uniform ivec2 uBlitOffset;

out vec4 fragColor;

// The bilinear sample of the snapshot (draw-item.glsl's sampleSnapshot calls it): one level, GL_LINEAR both
// ways, so the level the derivatives pick changes nothing (compute has no derivatives and names level 0; here
// plain `texture` keeps llvmpipe on its faster path, 3-5% on perspective variants).
vec4 snapshotAt(vec2 normalized) {
    return texture(uSnapshot, normalized);
}

// A pixel behind the eye is discarded, not blended with 0.
#define BEHIND_THE_EYE discard
#include "draw-item.glsl"

void main() {
#if BLIT
    // A blit (DrawItem.blit): the quad is the blit's whole-pixel rectangle, one texel per pixel at a
    // whole-texel offset, so the general function reduces to this: no edge, no mask, no filtering.
    fragColor = texelFetch(uSnapshot, ivec2(gl_FragCoord.xy) + uBlitOffset, 0) * uOpacity;
#else
    DrawItemValues item = DrawItemValues(uPixelToLocal, uSize, uInverseGradients, uColor, uTexelOrigin, uTexelScale,
                                         uClampMin, uClampMax, uInverseTextureSize, uMask, uMaskRadius, uMaskEnd,
                                         uBlur, uGradient, uOverlayStart, uOverlayEnd, uOpacity);
    // Blending does src + dst * (1 - src.a); a pixel behind the eye gets 0, which leaves it as it was.
    fragColor = drawItemColor(item, gl_FragCoord.xy, SOURCE, MASK, OVERLAY != 0, PERSPECTIVE != 0);
#endif
}
