#version 300 es
// Segue's layer program, fragment stage (the raster path): one draw item's quad, each pixel coloured by
// DrawItem's per-pixel function, which lives in draw-item.glsl (shared with the compute path, composite.comp).
// Output is premultiplied and blended with glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA): src + dst * (1 - src.a).
//
// Variants: llvmpipe (and many GPUs) run both sides of a branch, so the renderer compiles one program per
// combination of these switches, each a #define LayerVariant.swift inserts after the #version line (as Weston
// does), with the mask kinds' names and the limits of DrawItemRecord.glslDefinitions; ShaderSourcesTests
// passes every variant, as the renderer builds it, through glslangValidator.
//   SOURCE       0: a colour, 1: a snapshot
//   MASK         a mask kind: MASK_NONE, MASK_CIRCLE, ...
//   OVERLAY      1: a gradient overlay
//   PERSPECTIVE  0: the map is affine (Q == 1 everywhere, gradients constant)
//   BLIT         1: a blit (DrawItem.blit), whatever the other switches say

precision highp float;
precision highp int;
precision highp sampler2D;

uniform sampler2D uSnapshot;

// The bilinear sample of the snapshot (draw-item.glsl's sampleSnapshot calls it): one level, GL_LINEAR both
// ways, so the level the derivatives pick changes nothing (compute has no derivatives and names level 0; here
// plain `texture` keeps llvmpipe on its faster path, 3-5% on perspective variants).
vec4 snapshotAt(vec2 normalized) {
    return texture(uSnapshot, normalized);
}

// A pixel behind the eye is discarded, not blended with 0.
#define BEHIND_THE_EYE discard
#include "draw-item.glsl"

// The item: DrawItemRecord, set field by field from the core's record (LayerProgram.set).
uniform DrawItemRecord uItem;

out vec4 fragColor;

void main() {
#if BLIT
    // A blit (DrawItem.blit): the quad is the blit's whole-pixel rectangle, one texel per pixel at a
    // whole-texel offset, so the general function reduces to this: no edge, no mask, no filtering.
    fragColor = texelFetch(uSnapshot, ivec2(gl_FragCoord.xy) + uItem.blit.yz, 0) * uItem.gradientsOpacity.z;
#else
    // Blending does src + dst * (1 - src.a); a pixel behind the eye is discarded (BEHIND_THE_EYE), which leaves
    // it as it was.
    fragColor = drawItemColor(uItem, gl_FragCoord.xy, SOURCE, MASK, OVERLAY != 0, PERSPECTIVE != 0);
#endif
}
