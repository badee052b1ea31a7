// A straight soft edge sweeps across the screen along a direction, uncovering the next screen.
// Written for Segue (gl-transitions interface, GLSL ES 3.00 style).

// The way the edge travels, in uv (y up): (1, -1) goes from the top-left corner to the bottom-right.
uniform vec2 direction; // = vec2(1.0, -1.0)
// Width of the soft edge, as a fraction of the sweep.
uniform float smoothness; // = 0.1

vec4 transition(vec2 uv) {
    vec2 n = length(direction) > 0.0 ? normalize(direction) : vec2(1.0, 0.0);
    // Where the pixel lies along the sweep: 0 at the first corner reached, 1 at the last.
    float along = dot(uv - 0.5, n) / (abs(n.x) + abs(n.y)) + 0.5;
    float soft = max(smoothness, 1e-4);
    float edge = progress * (1.0 + soft);
    // 0 ahead of the edge (still `from`), 1 behind it; exactly 0 everywhere at progress 0 and 1 at progress 1.
    float m = 1.0 - smoothstep(edge - soft, edge, along);
    return mix(getFromColor(uv), getToColor(uv), m);
}
