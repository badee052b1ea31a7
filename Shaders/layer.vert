#version 300 es
// Segue's layer program, vertex stage: draws one draw item's pixel bounds as a quad (a 4-vertex triangle
// strip with no vertex buffer; the corner comes from gl_VertexID).
//
// Pixel (x, y), y down, maps to NDC *without* a flip, so FBO row 0 holds the frame's top row and
// glReadPixels returns rows top to bottom, the order Pixmap stores them in. gl_FragCoord.xy in the
// fragment stage is then the pixel centre (x + 0.5, y + 0.5) of DrawItem's per-pixel function.

precision highp float;

// The item's bounds in whole pixels: x0, y0, x1, y1 (half-open).
uniform vec4 uBounds;
// The frame's size in pixels.
uniform vec2 uFrameSize;

void main() {
    // Strip order: (x0, y0), (x1, y0), (x0, y1), (x1, y1).
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 pixel = mix(uBounds.xy, uBounds.zw, corner);
    gl_Position = vec4(pixel / uFrameSize * 2.0 - 1.0, 0.0, 1.0);
}
