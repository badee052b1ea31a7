// The screen breaks into ever larger blocks, swaps to the next screen at the coarsest, and sharpens again.
// Written for Segue (gl-transitions interface, GLSL ES 3.00 style).

// Blocks across and down at the middle of the transition.
uniform ivec2 cells; // = ivec2(24, 16)

vec4 transition(vec2 uv) {
    // 0 at both ends, 1 in the middle.
    float k = 2.0 * min(progress, 1.0 - progress);
    vec2 p = uv;
    if (k > 0.0) {
        vec2 n = vec2(max(cells, ivec2(1))) / k;
        p = (floor(uv * n) + 0.5) / n;
    }
    return progress < 0.5 ? getFromColor(p) : getToColor(p);
}
