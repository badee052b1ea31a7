#version 300 es
// Segue's layer program, fragment stage: DrawItem's per-pixel function (Sources/SegueCore/DrawItem.swift),
// step by step. The CPU compositor's LayerShader.swift computes the same thing; read them side by side.
// Output is premultiplied and blended with glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA): src + dst * (1 - src.a).

precision highp float;
precision highp int;
precision highp sampler2D;

// [U, V, Q] = [x, y, 1] * pixelToLocal (row-vector convention); uploaded untransposed from
// Matrix3.rowMajor, so columns here are its rows and uPixelToLocal * vec3(x, y, 1) gives [U, V, Q].
uniform mat3 uPixelToLocal;
// The layer's size in local points (w, h).
uniform vec2 uSize;

// 0: colour, 1: snapshot.
uniform int uSourceKind;
// Premultiplied colour, when uSourceKind == 0.
uniform vec4 uColor;
// The snapshot and how local points map onto its texels (DrawItem.TexelMap).
uniform sampler2D uSnapshot;
uniform vec2 uTexelOrigin;
uniform vec2 uTexelScale;
uniform vec2 uClampMin;
uniform vec2 uClampMax;

// 0: none, 1: circle (uMask = centre x, centre y, radius, 0), 2: rounded rect (uMask = x, y, w, h;
// uMaskRadius = corner radius), all in local points.
uniform int uMaskKind;
uniform vec4 uMask;
uniform float uMaskRadius;

// Gradient overlay, when uHasOverlay: g = clamp(dot(vec3(u, v, 1), uGradient), 0, 1), premultiplied ends.
uniform bool uHasOverlay;
uniform vec3 uGradient;
uniform vec4 uOverlayStart;
uniform vec4 uOverlayEnd;

uniform float uOpacity;

out vec4 fragColor;

// Step 5: one texel, 8-bit channels as 0...1.
vec4 texel(int x, int y) {
    return texelFetch(uSnapshot, ivec2(x, y), 0);
}

// Step 5: the bilinear sample at texel index (fx, fy), clamped to the sub-rectangle. Texels floor(f) and
// floor(f) + 1 are blended by the fraction, quantised to 1/256 as the CPU's 8-bit fixed weights are.
vec4 sampleSnapshot(vec2 local) {
    vec2 f = clamp(uTexelOrigin + local * uTexelScale - 0.5, uClampMin, uClampMax);
    vec2 base = floor(f);
    vec2 weight = floor((f - base) * 256.0 + 0.5) / 256.0;
    ivec2 size = textureSize(uSnapshot, 0);
    int x0 = int(base.x), y0 = int(base.y);
    int x1 = min(x0 + 1, size.x - 1), y1 = min(y0 + 1, size.y - 1);
    vec4 top = mix(texel(x0, y0), texel(x1, y0), weight.x);
    vec4 bottom = mix(texel(x0, y1), texel(x1, y1), weight.x);
    return mix(top, bottom, weight.y);
}

void main() {
    // Step 1: the local point, or nothing when the pixel is behind the eye.
    vec3 uvq = uPixelToLocal * vec3(gl_FragCoord.xy, 1.0);
    if (uvq.z <= 0.0) discard;
    vec2 local = uvq.xy / uvq.z;
    float u = local.x, v = local.y;

    // Step 2: pixel gradients of u and v. Columns of uPixelToLocal are pixelToLocal's rows:
    // [0] = (a, b, c), [1] = (d, e, f).
    vec3 rowX = uPixelToLocal[0], rowY = uPixelToLocal[1];
    vec2 gradU = vec2(rowX.x - u * rowX.z, rowY.x - u * rowY.z) / uvq.z;  // (du/dx, du/dy)
    vec2 gradV = vec2(rowX.y - v * rowX.z, rowY.y - v * rowY.z) / uvq.z;  // (dv/dx, dv/dy)

    // Step 3: edge coverage.
    float coverage = clamp(0.5 + min(u, uSize.x - u) / max(length(gradU), 1e-30), 0.0, 1.0)
                   * clamp(0.5 + min(v, uSize.y - v) / max(length(gradV), 1e-30), 0.0, 1.0);

    // Step 4: mask coverage: signed distance s (positive inside) over the pixel length of its local
    // gradient n, |J^T n| = |n.x * gradU + n.y * gradV|.
    if (uMaskKind != 0) {
        float s;
        vec2 n;
        if (uMaskKind == 1) {
            vec2 d = local - uMask.xy;
            float len = length(d);
            s = uMask.z - len;
            n = len > 0.0 ? d / len : vec2(1.0, 0.0);
        } else {
            vec2 halfSize = uMask.zw * 0.5;
            vec2 d = local - (uMask.xy + halfSize);
            vec2 q = abs(d) - (halfSize - uMaskRadius);
            s = -(length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - uMaskRadius);
            if (q.x > 0.0 && q.y > 0.0) {
                n = normalize(q) * vec2(d.x < 0.0 ? -1.0 : 1.0, d.y < 0.0 ? -1.0 : 1.0);
            } else {
                n = q.x > q.y ? vec2(1.0, 0.0) : vec2(0.0, 1.0);
            }
        }
        float pixelLength = length(n.x * gradU + n.y * gradV);
        coverage *= clamp(0.5 + s / max(pixelLength, 1e-30), 0.0, 1.0);
    }

    // Step 5: content.
    vec4 content = uSourceKind == 0 ? uColor : sampleSnapshot(local);

    // Step 6: overlay, source-over onto the content.
    if (uHasOverlay) {
        float g = clamp(dot(vec3(u, v, 1.0), uGradient), 0.0, 1.0);
        vec4 o = mix(uOverlayStart, uOverlayEnd, g);
        content = o + content * (1.0 - o.a);
    }

    // Step 7: the premultiplied source; blending does src + dst * (1 - src.a).
    fragColor = content * (uOpacity * coverage);
}
