// Rings of waves run out from a point, bending both screens, and the next screen spreads behind the front.
// Written for Segue (gl-transitions interface, GLSL ES 3.00 style).

// How far the waves push the picture, as a fraction of the height.
uniform float amplitude; // = 0.03
// Waves per unit of distance (radians): higher is more, narrower rings.
uniform float frequency; // = 40.0
// Where the rings start, in uv (origin bottom-left).
uniform vec2 center; // = vec2(0.5, 0.5)

vec4 transition(vec2 uv) {
    vec2 d = uv - center;
    d.x *= ratio;
    float dist = length(d);
    vec2 dir = dist > 0.0 ? d / dist : vec2(0.0);
    // The farthest corner, so the front leaves the screen by progress 1.
    vec2 far = max(center, 1.0 - center);
    float reach = length(vec2(far.x * ratio, far.y));
    float width = 0.15;
    float front = progress * (reach + width);
    // The waves swell and settle: exactly 0 at progress 0 and 1.
    float strength = 4.0 * progress * (1.0 - progress);
    vec2 offset = dir * amplitude * strength * sin((dist - front) * frequency);
    offset.x /= ratio;
    float m = 1.0 - smoothstep(front - width, front, dist);
    return mix(getFromColor(uv + offset), getToColor(uv + offset), m);
}
