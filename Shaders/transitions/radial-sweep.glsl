// A hand sweeps round a point like a clock's, uncovering the next screen behind it.
// Written for Segue (gl-transitions interface, GLSL ES 3.00 style).

// The point it turns about, in uv (origin bottom-left).
uniform vec2 center; // = vec2(0.5, 0.5)
// Turn clockwise (true) or counter-clockwise (false), starting at twelve o'clock.
uniform bool clockwise; // = true
// Width of the soft edge, as a fraction of a turn.
uniform float smoothness; // = 0.02

const float TAU = 6.28318530718;

vec4 transition(vec2 uv) {
    vec2 d = uv - center;
    d.x *= ratio;
    // The angle from twelve o'clock, clockwise, as a fraction of a turn in [0, 1).
    float a = length(d) > 0.0 ? fract(atan(d.x, d.y) / TAU) : 0.0;
    if (!clockwise) a = 1.0 - a;
    float soft = max(smoothness, 1e-4);
    float edge = progress * (1.0 + soft);
    float m = 1.0 - smoothstep(edge - soft, edge, a);
    return mix(getFromColor(uv), getToColor(uv), m);
}
