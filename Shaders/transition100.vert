#version 100
// transition.vert for GLSL ES 1.00 files (a program's stages must share one version): one quad over the
// whole frame, whose corners come from a 4-vertex attribute array, as 1.00 has no gl_VertexID.

attribute vec2 segue_corner;

void main() {
    gl_Position = vec4(segue_corner * 2.0 - 1.0, 0.0, 1.0);
}
