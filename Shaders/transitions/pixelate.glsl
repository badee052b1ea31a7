// The screen breaks into ever larger blocks, swaps to the next screen at the coarsest, and sharpens again.
// Written for Segue (gl-transitions interface, GLSL ES 3.00 style).

// Blocks across and down at the middle of the transition.
uniform ivec2 cells; // = ivec2(24, 16)

vec4 transition(vec2 uv) {
    // 0 at both ends, 1 in the middle.
    float k = 2.0 * min(progress, 1.0 - progress);
    // The grid stays finite even where k = 0: drivers that run both sides of a branch (llvmpipe) would
    // otherwise carry infinities into the texture derivatives, and the ends would no longer be exact.
    vec2 n = vec2(max(cells, ivec2(1))) / max(k, 1e-6);
    vec2 p = k > 0.0 ? (floor(uv * n) + 0.5) / n : uv;
    return progress < 0.5 ? getFromColor(p) : getToColor(p);
}
