#version 100
// Segue's preamble for custom transitions written to the gl-transitions interface in GLSL ES 1.00, the
// dialect of WebGL 1 and of the public gl-transitions collection (`texture2D`, a function of the file's own
// named `texture`). It is transition.frag's twin, and the renderer wraps the file the same way: this text,
// then `#line 1`, then the file, then `segue_initGlobals`.

#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
precision highp int;
#else
precision mediump float;
precision mediump int;
#endif

// Progress after the timing curve: 0 shows the `from` screen, 1 the `to` screen.
uniform float progress;
// The frame's width / height.
uniform float ratio;

// The two snapshots, premultiplied RGBA8, top row first; bilinear, clamped to the edge.
uniform sampler2D segue_from;
uniform sampler2D segue_to;
// The frame's size in pixels.
uniform vec2 segue_frameSize;
// The background, premultiplied: it shows where the transition's colour is not opaque.
uniform vec4 segue_background;

// The interface's uv has its origin at the bottom left, y up; the snapshots' first row is the top of the
// screen, at texture coordinate t = 0. So t = 1 - uv.y, and uv (0, 1) is the top-left corner.
vec4 getFromColor(vec2 uv) {
    return texture2D(segue_from, vec2(uv.x, 1.0 - uv.y));
}

vec4 getToColor(vec2 uv) {
    return texture2D(segue_to, vec2(uv.x, 1.0 - uv.y));
}

vec4 transition(vec2 uv);
// The initialisers of the file's global variables, run before `transition` (see transition.frag).
void segue_initGlobals();

void main() {
    // FBO row 0 is the frame's top row (see layer.vert), so gl_FragCoord.y grows downwards: uv.y = 1 at the top.
    vec2 uv = vec2(gl_FragCoord.x, segue_frameSize.y - gl_FragCoord.y) / segue_frameSize;
    segue_initGlobals();
    // The colour is premultiplied, like the snapshots, and is laid over the background.
    vec4 color = clamp(transition(uv), 0.0, 1.0);
    color.rgb = min(color.rgb, vec3(color.a));
    gl_FragColor = color + segue_background * (1.0 - color.a);
}
