// The next screen shows through in grains of noise that appear at random until none of the first is left.
// Written for Segue (gl-transitions interface, GLSL ES 1.00 style, as WebGL runs it).
#ifdef GL_ES
precision mediump float;
#endif

// Picks another pattern of grains.
uniform float seed; // = 0.0
// Grains down the height of the screen.
uniform float grains; // = 90.0
// How gradually each grain fades in, as a fraction of the transition.
uniform float softness; // = 0.2

float noise(vec2 cell) {
    return fract(sin(dot(cell + seed, vec2(12.9898, 78.233))) * 43758.5453);
}

vec4 transition(vec2 uv) {
    vec2 cell = floor(vec2(uv.x * ratio, uv.y) * grains);
    float n = noise(cell);
    float soft = max(softness, 1e-4);
    // Each grain turns between progress n * (1 - soft) ... and n * (1 - soft) + soft: all at 0 are `from`, all at 1 `to`.
    float m = clamp((progress - n * (1.0 - soft)) / soft, 0.0, 1.0);
    return mix(getFromColor(uv), getToColor(uv), m);
}
