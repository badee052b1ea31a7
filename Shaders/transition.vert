#version 300 es
// Segue's custom-transition program, vertex stage: one quad over the whole frame (a 4-vertex triangle strip
// with no vertex buffer; the corner comes from gl_VertexID). The fragment stage is transition.frag followed
// by the transition file. Motion blur's two passes (shutter-sum.frag, shutter-mean.frag) use it too.

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
