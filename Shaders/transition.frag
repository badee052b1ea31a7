#version 300 es
// Segue's preamble for custom transitions written to the gl-transitions interface in GLSL ES 3.00 (a file
// in GLSL ES 1.00, WebGL 1's dialect, follows transition100.frag instead). The renderer compiles this text,
// then `#line 1`, then the transition file (its #version and precision lines blanked, its globals'
// initialisers taken out), then `segue_initGlobals`, which assigns those initialisers, as one fragment
// shader, so the driver's messages carry the file's own line numbers. The file defines
// `vec4 transition(vec2 uv)`; this preamble gives it `progress`, `ratio`, `getFromColor` and `getToColor`.

precision highp float;
precision highp int;

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

out vec4 segue_fragColor;

// GLSL ES 1.00-style files run unchanged: texture2D is texture.
#define texture2D texture

// The interface's uv has its origin at the bottom left, y up; the snapshots' first row is the top of the
// screen, at texture coordinate t = 0. So t = 1 - uv.y, and uv (0, 1) is the top-left corner.
vec4 getFromColor(vec2 uv) {
    return texture(segue_from, vec2(uv.x, 1.0 - uv.y));
}

vec4 getToColor(vec2 uv) {
    return texture(segue_to, vec2(uv.x, 1.0 - uv.y));
}

vec4 transition(vec2 uv);
// The file's global variables that start from a uniform (WebGL runs `float r = ratio * 2.0;` at file
// scope, GLSL ES does not): their initialisers, run before `transition`.
void segue_initGlobals();

void main() {
    // FBO row 0 is the frame's top row (see layer.vert), so gl_FragCoord.y grows downwards: uv.y = 1 at the top.
    vec2 uv = vec2(gl_FragCoord.x, segue_frameSize.y - gl_FragCoord.y) / segue_frameSize;
    // The colour is premultiplied, like the snapshots (a mix of two premultiplied colours is one), and is
    // laid over the background.
    segue_initGlobals();
    vec4 color = clamp(transition(uv), 0.0, 1.0);
    color.rgb = min(color.rgb, vec3(color.a));
    segue_fragColor = color + segue_background * (1.0 - color.a);
}
