#version 300 es
// Motion blur on the GPU, pass 1 of 2 (ShutterAccumulator.swift): adds one shutter sample, the RGBA8 frame just
// drawn, to the sum in a 32-bit float framebuffer, with glBlendFunc(GL_ONE, GL_ONE). Each channel is added as
// its whole level, 0...255, so the sum is exact (a float holds every integer up to 2^24), as the CPU's
// FrameAccumulator sums at 32 bits. The vertex stage is transition.vert (one quad over the frame).
precision highp float;
precision highp int;
precision highp sampler2D;

uniform sampler2D uSample;
out vec4 fragColor;

void main() {
    fragColor = floor(texelFetch(uSample, ivec2(gl_FragCoord.xy), 0) * 255.0 + 0.5);
}
