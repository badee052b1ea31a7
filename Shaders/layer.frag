#version 300 es
// Segue's layer program, fragment stage: DrawItem's per-pixel function (Sources/SegueCore/DrawItem.swift),
// step by step. The CPU compositor's LayerShader.swift computes the same thing; read them side by side.
// Output is premultiplied and blended with glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA): src + dst * (1 - src.a).
//
// Variants: llvmpipe (and many GPUs) run both sides of a branch, so the renderer compiles one program per
// combination of these switches (LayerVariant.swift inserts the #defines after the #version line, as
// Weston does); the defaults below are the most general variant. scripts/check-shaders.sh validates each.
#ifndef SOURCE
#define SOURCE 1       // 0: a colour, 1: a snapshot
#endif
#ifndef MASK
#define MASK 2         // 0: none, 1: circle, 2: rounded rect, 3: sector, 4: blurred rect, 5: blurred rounded rect,
                       // 6: continuous rounded rect
#endif
#ifndef OVERLAY
#define OVERLAY 1      // 1: a gradient overlay
#endif
#ifndef PERSPECTIVE
#define PERSPECTIVE 1  // 0: the map is affine (Q == 1 everywhere, gradients constant)
#endif
#ifndef BLIT
#define BLIT 0         // 1: a blit (DrawItem.blit), whatever the other switches say
#endif

precision highp float;
precision highp int;
precision highp sampler2D;

// [U, V, Q] = [x, y, 1] * pixelToLocal (row-vector convention); uploaded untransposed from
// Matrix3.rowMajor, so columns here are its rows and uPixelToLocal * vec3(x, y, 1) gives [U, V, Q].
uniform mat3 uPixelToLocal;
// The layer's size in local points (w, h).
uniform vec2 uSize;

// For affine maps: 1 / |grad u| and 1 / |grad v| in pixels, constant over the item.
uniform vec2 uInverseGradients;

// Premultiplied colour, when SOURCE == 0.
uniform vec4 uColor;
// The snapshot and how local points map onto its texels (DrawItem.TexelMap).
uniform sampler2D uSnapshot;
uniform vec2 uTexelOrigin;
uniform vec2 uTexelScale;
uniform vec2 uClampMin;
uniform vec2 uClampMax;
// 1 / the snapshot's size in texels.
uniform vec2 uInverseTextureSize;

// Circle (MASK 1): uMask = centre x, centre y, radius, 0; rounded rect (MASK 2): uMask = x, y, w, h and
// uMaskRadius = corner radius; sector (MASK 3): uMask = centre x, centre y, then the first ray's unit
// direction, and uMaskEnd = the last ray's unit direction, then 1 when the sector spans more than a half
// turn, else 0 (Mask.sectorRays); all in local points.
uniform vec4 uMask;
uniform float uMaskRadius;
uniform vec3 uMaskEnd;
// Continuous rounded rect (MASK 6): uMask = x, y, w, h, uMaskRadius = the corners' reach (the radius times
// Mask.continuousReach), uMaskEnd.x = the corners' superellipse exponent (Mask.continuousExponent).
// Blurred rect and rounded rect (MASK 4, 5; Mask.BlurShape): uMask = centre x, centre y, half width, half
// height; uMaskRadius = the corner radius (MASK 5); uMaskEnd = 1 / (sigma sqrt 2), the corners' exponent and
// its inverse; uBlur = the peak and the shorter side.
uniform vec2 uBlur;

// Gradient overlay (OVERLAY 1): g = clamp(dot(vec3(u, v, 1), uGradient), 0, 1), premultiplied ends.
uniform vec3 uGradient;
uniform vec4 uOverlayStart;
uniform vec4 uOverlayEnd;

uniform float uOpacity;

// For a blit: pixel (x, y) shows texel (x, y) + uBlitOffset.
uniform ivec2 uBlitOffset;

out vec4 fragColor;

// Mask.erf: Abramowitz and Stegun 7.1.27, exactly +-1 from |x| >= 3 on (LayerShader.BlurredShape.erf).
float erfApprox(float x) {
    float a = min(abs(x), 3.0);
    float t = 1.0 + (0.278393 + (0.230389 + (0.000972 + 0.078108 * a) * a) * a) * a;
    t *= t;
    t *= t;
    float e = a >= 3.0 ? 1.0 : 1.0 - 1.0 / t;
    return x < 0.0 ? -e : e;
}

// Step 5: the bilinear sample at texel index (fx, fy), clamped to the sub-rectangle: texels floor(f) and
// floor(f) + 1 blended by the fraction. GL_LINEAR at the normalised coordinate (f + 0.5) / size computes
// exactly that (texel centres at i + 0.5), and GL_CLAMP_TO_EDGE holds floor(f) + 1 to the last texel as the
// CPU does; drivers blend with 8-bit fixed weights, as the CPU does.
vec4 sampleSnapshot(vec2 local) {
    vec2 f = clamp(uTexelOrigin + local * uTexelScale - 0.5, uClampMin, uClampMax);
    return texture(uSnapshot, (f + 0.5) * uInverseTextureSize);
}

void main() {
#if BLIT
    // A blit (DrawItem.blit): the quad is the blit's whole-pixel rectangle, one texel per pixel at a
    // whole-texel offset, so the general function reduces to this: no edge, no mask, no filtering.
    fragColor = texelFetch(uSnapshot, ivec2(gl_FragCoord.xy) + uBlitOffset, 0) * uOpacity;
#else
    // Columns of uPixelToLocal are pixelToLocal's rows: [0] = (a, b, c), [1] = (d, e, f).
    vec3 rowX = uPixelToLocal[0], rowY = uPixelToLocal[1];
    vec3 uvq = uPixelToLocal * vec3(gl_FragCoord.xy, 1.0);
#if PERSPECTIVE
    // Step 1: the local point, or nothing when the pixel is behind the eye.
    if (uvq.z <= 0.0) discard;
    vec2 local = uvq.xy / uvq.z;
    float u = local.x, v = local.y;
    // Step 2: pixel gradients of u and v.
    vec2 gradU = vec2(rowX.x - u * rowX.z, rowY.x - u * rowY.z) / uvq.z;  // (du/dx, du/dy)
    vec2 gradV = vec2(rowX.y - v * rowX.z, rowY.y - v * rowY.z) / uvq.z;  // (dv/dx, dv/dy)
    // Step 3: edge coverage.
    float coverage = clamp(0.5 + min(u, uSize.x - u) / max(length(gradU), 1e-30), 0.0, 1.0)
                   * clamp(0.5 + min(v, uSize.y - v) / max(length(gradV), 1e-30), 0.0, 1.0);
#else
    // Steps 1-3 for an affine map: Q is 1 and the gradients are constant.
    vec2 local = uvq.xy;
    float u = local.x, v = local.y;
    vec2 gradU = vec2(rowX.x, rowY.x), gradV = vec2(rowX.y, rowY.y);
    float coverage = clamp(0.5 + min(u, uSize.x - u) * uInverseGradients.x, 0.0, 1.0)
                   * clamp(0.5 + min(v, uSize.y - v) * uInverseGradients.y, 0.0, 1.0);
#endif

    // Step 4: mask coverage: signed distance s (positive inside) over the pixel length of its local
    // gradient n, |J^T n| = |n.x * gradU + n.y * gradV|.
#if MASK == 1
    vec2 d = local - uMask.xy;
    float len = length(d);
    float s = uMask.z - len;
    vec2 n = len > 0.0 ? d / len : vec2(1.0, 0.0);
#elif MASK == 2
    vec2 halfSize = uMask.zw * 0.5;
    vec2 d = local - (uMask.xy + halfSize);
    vec2 q = abs(d) - (halfSize - uMaskRadius);
    float s = -(length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - uMaskRadius);
    vec2 n;
    if (q.x > 0.0 && q.y > 0.0) {
        n = normalize(q) * vec2(d.x < 0.0 ? -1.0 : 1.0, d.y < 0.0 ? -1.0 : 1.0);
    } else {
        n = q.x > q.y ? vec2(1.0, 0.0) : vec2(0.0, 1.0);
    }
#elif MASK == 3
    // Inside: past the first ray (c0 = cross(d0, p) >= 0) and short of the last (c1 = cross(p, d1) >= 0),
    // or either above a half turn. The distance to a ray is to its line where p lies ahead of the centre
    // along it, else to the centre; s is the nearer one's, n its direction (LayerShader.sectorDistance).
    vec2 p = local - uMask.xy;
    vec2 d0 = uMask.zw, d1 = uMaskEnd.xy;
    float c0 = d0.x * p.y - d0.y * p.x;
    float c1 = p.x * d1.y - p.y * d1.x;
    bool inside = uMaskEnd.z > 0.5 ? (c0 >= 0.0 || c1 >= 0.0) : (c0 >= 0.0 && c1 >= 0.0);
    float len = length(p);
    vec2 nc = len > 0.0 ? p / len : vec2(1.0, 0.0);
    float dist;
    vec2 n;
    if (dot(p, d0) > 0.0) {
        dist = abs(c0);
        n = vec2(-d0.y, d0.x);
    } else {
        dist = len;
        n = nc;
    }
    bool ahead = dot(p, d1) > 0.0;
    float other = ahead ? abs(c1) : len;
    if (other < dist) {
        dist = other;
        n = ahead ? vec2(-d1.y, d1.x) : nc;
    }
    float s = inside ? dist : -dist;
#elif MASK == 6
    // A rounded rectangle whose corners are superellipses (LayerShader.continuousDistance).
    vec2 halfSize = uMask.zw * 0.5;
    vec2 d = local - (uMask.xy + halfSize);
    vec2 q = abs(d) - (halfSize - uMaskRadius);
    float s;
    vec2 n;
    if (q.x > 0.0 && q.y > 0.0) {
        float a = pow(q.x, uMaskEnd.x), b = pow(q.y, uMaskEnd.x);
        float m = pow(a + b, 1.0 / uMaskEnd.x);
        vec2 g = vec2(a / q.x, b / q.y);
        float gl = length(g);
        s = -(m - uMaskRadius) * (a + b) / (m * gl);
        n = g / gl * vec2(d.x < 0.0 ? -1.0 : 1.0, d.y < 0.0 ? -1.0 : 1.0);
    } else {
        s = -(max(q.x, 0.0) + max(q.y, 0.0) + min(max(q.x, q.y), 0.0) - uMaskRadius);
        n = q.x > q.y ? vec2(d.x < 0.0 ? -1.0 : 1.0, 0.0) : vec2(0.0, d.y < 0.0 ? -1.0 : 1.0);
    }
#elif MASK == 4
    // A blurred rectangle: separable, one blurred box per axis.
    vec2 d = local - uMask.xy;
    float k = uMaskEnd.x;
    coverage *= 0.25 * (erfApprox((d.x + uMask.z) * k) - erfApprox((d.x - uMask.z) * k))
                     * (erfApprox((d.y + uMask.w) * k) - erfApprox((d.y - uMask.w) * k));
#elif MASK == 5
    // A blurred rounded rectangle: Levien's superellipse-cornered distance through the blurred box.
    vec2 d = local - uMask.xy;
    float k = uMaskEnd.x, r = uMaskRadius;
    float x0 = abs(d.x) - (uMask.z - r), y0 = abs(d.y) - (uMask.w - r);
    float x1 = max(x0, 0.0), y1 = max(y0, 0.0);
    float p = x1 > 0.0 && y1 > 0.0 ? pow(pow(x1, uMaskEnd.y) + pow(y1, uMaskEnd.y), uMaskEnd.z) : x1 + y1;
    float s = p + min(max(x0, y0), 0.0) - r;
    coverage *= uBlur.x * (erfApprox((uBlur.y + s) * k) - erfApprox(s * k));
#endif
#if MASK == 1 || MASK == 2 || MASK == 3 || MASK == 6
    float pixelLength = length(n.x * gradU + n.y * gradV);
    coverage *= clamp(0.5 + s / max(pixelLength, 1e-30), 0.0, 1.0);
#endif

    // Step 5: content.
#if SOURCE == 1
    vec4 content = sampleSnapshot(local);
#else
    vec4 content = uColor;
#endif

    // Step 6: overlay, source-over onto the content.
#if OVERLAY
    float g = clamp(dot(vec3(u, v, 1.0), uGradient), 0.0, 1.0);
    vec4 o = mix(uOverlayStart, uOverlayEnd, g);
    content = o + content * (1.0 - o.a);
#endif

    // Step 7: the premultiplied source; blending does src + dst * (1 - src.a).
    fragColor = content * (uOpacity * coverage);
#endif
}
