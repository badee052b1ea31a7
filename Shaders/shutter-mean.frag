#version 300 es
// Motion blur on the GPU, pass 2 of 2 (ShutterAccumulator.swift): the mean of uCount samples from their sum,
// rounded once as FrameAccumulator rounds, floor((sum + floor(n / 2)) / n), into the RGBA8 render target with
// no blending. The 0.5 added keeps the floor off a whole number, whatever the last bit of the division: the
// quotient is then at least 0.5 / n from one. The vertex stage is transition.vert (one quad over the frame).
precision highp float;
precision highp int;
precision highp sampler2D;

uniform sampler2D uSum;
uniform float uCount;
out vec4 fragColor;

void main() {
    vec4 sum = texelFetch(uSum, ivec2(gl_FragCoord.xy), 0);
    fragColor = floor((sum + floor(uCount * 0.5) + 0.5) / uCount) / 255.0;
}
