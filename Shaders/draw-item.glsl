// DrawItem's per-pixel function (Sources/SegueCore/DrawList/DrawItem.swift), written once for the GPU: included by the
// raster path's layer.frag and the compute path's composite.comp (ShaderSources.expand replaces the line
// `#include "draw-item.glsl"` with this file, after the definitions of DrawItemRecord.glslDefinitions). The CPU compositor's
// LayerShader.swift computes the same thing; read them side by side.
//
// The includer defines `vec4 snapshotAt(vec2 normalized)` before including this file: the bilinear sample of
// the item's snapshot at a normalised texture coordinate (GL_LINEAR, clamped to the edge, level 0).
// The switches are arguments so that each includer decides which are constant: layer.frag passes its #defines
// (each variant compiles to only what it needs), composite.comp passes each item's values.

// Which kinds of item the program draws, as constant expressions, so that a specialised program keeps only
// those: layer.frag leaves them all on (its switches are constants already); composite.comp compiles one
// program per set of kinds a frame uses (ComputeCompositor.Kinds).
#ifndef HAS_MASK
#define HAS_MASK(k) true
#endif
#ifndef HAS_PERSPECTIVE
#define HAS_PERSPECTIVE true
#endif
#ifndef HAS_OVERLAY
#define HAS_OVERLAY true
#endif
#ifndef HAS_SNAPSHOT
#define HAS_SNAPSHOT true
#endif

// One draw item's values: DrawItemRecord (Sources/SegueCore/DrawList/DrawItemRecord.swift), field for field and
// word for word (a test holds the two to each other). layer.frag takes it as the uniform uItem, composite.comp as
// the elements of its item buffer. The mask kinds (MASK_CIRCLE, ...), MASK_KINDS, MAX_ITEMS and MAX_SAMPLES are
// #defines the renderer inserts after the #version line (DrawItemRecord.glslDefinitions).
struct DrawItemRecord {
    ivec4 bounds;              // the pixels it may touch, x0, y0, x1, y1 (half-open); a blit's rectangle
    ivec4 solid;               // the whole pixels it overwrites (DrawItem.solidPixels), or empty
    ivec4 kind;                // source (0 a colour, 1 from, 2 to), mask kind, overlay, perspective
    ivec4 blit;                // 1 for a blit, its texel offset dx, dy; its sample's index (compute)
    vec4 row0;                 // pixelToLocal's rows (a, b, c), (d, e, f), (g, h, i)
    vec4 row1;
    vec4 row2;
    vec4 edges;                // the layer's local rectangle: u0, v0, u1, v1
    vec4 gradientsOpacity;     // 1 / |grad u|, 1 / |grad v| (affine maps), opacity
    vec4 color;                // premultiplied, when the source is a colour
    vec4 texelMap;             // texel coordinate of local (0, 0), texels per local point
    vec4 texelClamp;           // lowest and highest texel index
    vec4 inverseTextureSize;   // xy
    vec4 mask;                 // centre, then as MaskKind says
    vec4 maskShape;            // as MaskKind says
    vec4 blur;                 // a blurred rounded rect's peak and shorter side
    vec4 gradient;             // the overlay: g = clamp(dot(vec3(u, v, 1), gradient.xyz), 0, 1)
    vec4 overlayStart;         // premultiplied ends
    vec4 overlayEnd;
};

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
vec4 sampleSnapshot(DrawItemRecord item, vec2 local) {
    vec2 f = clamp(item.texelMap.xy + local * item.texelMap.zw - 0.5, item.texelClamp.xy, item.texelClamp.zw);
    return snapshotAt((f + 0.5) * item.inverseTextureSize.xy);
}

// The premultiplied colour item lays over the pixel whose centre is `pixel` (step 7's src: content * opacity *
// coverage); 0 where nothing of it shows, which leaves what is beneath as it was.
// source: 0 a colour, 1 a snapshot. maskKind: a MaskKind (MASK_NONE, MASK_CIRCLE, ...).
vec4 drawItemColor(DrawItemRecord item, vec2 pixel, int source, int maskKind, bool overlay, bool perspective) {
    // [U, V, Q] = [x, y, 1] * pixelToLocal: the columns of this mat3 are the record's rows.
    mat3 pixelToLocal = mat3(item.row0.xyz, item.row1.xyz, item.row2.xyz);
    vec3 rowX = item.row0.xyz, rowY = item.row1.xyz;
    vec3 uvq = pixelToLocal * vec3(pixel, 1.0);
    vec2 local;
    vec2 gradU, gradV;
    float coverage;
    if (perspective && HAS_PERSPECTIVE) {
        // Step 1: the local point, or nothing when the pixel is behind the eye (a fragment stage that defines
        // BEHIND_THE_EYE as `discard` leaves the pixel unblended, as the raster path always has).
        if (uvq.z <= 0.0) {
#ifdef BEHIND_THE_EYE
            BEHIND_THE_EYE;
#endif
            return vec4(0.0);
        }
        local = uvq.xy / uvq.z;
        // Step 2: pixel gradients of u and v.
        gradU = vec2(rowX.x - local.x * rowX.z, rowY.x - local.x * rowY.z) / uvq.z;  // (du/dx, du/dy)
        gradV = vec2(rowX.y - local.y * rowX.z, rowY.y - local.y * rowY.z) / uvq.z;  // (dv/dx, dv/dy)
        // Step 3: edge coverage.
        coverage = clamp(0.5 + min(local.x - item.edges.x, item.edges.z - local.x) / max(length(gradU), 1e-30), 0.0, 1.0)
                 * clamp(0.5 + min(local.y - item.edges.y, item.edges.w - local.y) / max(length(gradV), 1e-30), 0.0, 1.0);
    } else {
        // Steps 1-3 for an affine map: Q is 1 and the gradients are constant.
        local = uvq.xy;
        gradU = vec2(rowX.x, rowY.x);
        gradV = vec2(rowX.y, rowY.y);
        coverage = clamp(0.5 + min(local.x - item.edges.x, item.edges.z - local.x) * item.gradientsOpacity.x, 0.0, 1.0)
                 * clamp(0.5 + min(local.y - item.edges.y, item.edges.w - local.y) * item.gradientsOpacity.y, 0.0, 1.0);
    }
    float u = local.x, v = local.y;

    // Step 4: mask coverage: signed distance s (positive inside) over the pixel length of its local
    // gradient n, |J^T n| = |n.x * gradU + n.y * gradV|.
    float s = 0.0;
    vec2 n = vec2(1.0, 0.0);
    if (maskKind == MASK_CIRCLE && HAS_MASK(MASK_CIRCLE)) {
        vec2 d = local - item.mask.xy;
        float len = length(d);
        s = item.mask.z - len;
        n = len > 0.0 ? d / len : vec2(1.0, 0.0);
    } else if (maskKind == MASK_ROUNDED_RECT && HAS_MASK(MASK_ROUNDED_RECT)) {
        vec2 d = local - item.mask.xy;
        float r = item.maskShape.x;
        vec2 q = abs(d) - (item.mask.zw - r);
        s = -(length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r);
        if (q.x > 0.0 && q.y > 0.0) {
            n = normalize(q) * vec2(d.x < 0.0 ? -1.0 : 1.0, d.y < 0.0 ? -1.0 : 1.0);
        } else {
            n = q.x > q.y ? vec2(1.0, 0.0) : vec2(0.0, 1.0);
        }
    } else if (maskKind == MASK_SECTOR && HAS_MASK(MASK_SECTOR)) {
        // Inside: past the first ray (c0 = cross(d0, p) >= 0) and short of the last (c1 = cross(p, d1) >= 0),
        // or either above a half turn. The distance to a ray is to its line where p lies ahead of the centre
        // along it, else to the centre; s is the nearer one's, n its direction (LayerShader.sectorDistance).
        vec2 p = local - item.mask.xy;
        vec2 d0 = item.mask.zw, d1 = item.maskShape.yz;
        float c0 = d0.x * p.y - d0.y * p.x;
        float c1 = p.x * d1.y - p.y * d1.x;
        bool inside = item.maskShape.w > 0.5 ? (c0 >= 0.0 || c1 >= 0.0) : (c0 >= 0.0 && c1 >= 0.0);
        float len = length(p);
        vec2 nc = len > 0.0 ? p / len : vec2(1.0, 0.0);
        float dist;
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
        s = inside ? dist : -dist;
    } else if (maskKind == MASK_CONTINUOUS_RECT && HAS_MASK(MASK_CONTINUOUS_RECT)) {
        // A rounded rectangle whose corners are superellipses (LayerShader.continuousDistance).
        vec2 d = local - item.mask.xy;
        float r = item.maskShape.x, exponent = item.maskShape.y;
        vec2 q = abs(d) - (item.mask.zw - r);
        if (q.x > 0.0 && q.y > 0.0) {
            float a = pow(q.x, exponent), b = pow(q.y, exponent);
            float m = pow(a + b, 1.0 / exponent);
            vec2 g = vec2(a / q.x, b / q.y);
            float gl = length(g);
            s = -(m - r) * (a + b) / (m * gl);
            n = g / gl * vec2(d.x < 0.0 ? -1.0 : 1.0, d.y < 0.0 ? -1.0 : 1.0);
        } else {
            s = -(max(q.x, 0.0) + max(q.y, 0.0) + min(max(q.x, q.y), 0.0) - r);
            n = q.x > q.y ? vec2(d.x < 0.0 ? -1.0 : 1.0, 0.0) : vec2(0.0, d.y < 0.0 ? -1.0 : 1.0);
        }
    } else if (maskKind == MASK_BLURRED_RECT && HAS_MASK(MASK_BLURRED_RECT)) {
        // A blurred rectangle: separable, one blurred box per axis.
        vec2 d = local - item.mask.xy;
        float k = item.maskShape.y;
        coverage *= 0.25 * (erfApprox((d.x + item.mask.z) * k) - erfApprox((d.x - item.mask.z) * k))
                         * (erfApprox((d.y + item.mask.w) * k) - erfApprox((d.y - item.mask.w) * k));
    } else if (maskKind == MASK_BLURRED_ROUNDED_RECT && HAS_MASK(MASK_BLURRED_ROUNDED_RECT)) {
        // A blurred rounded rectangle: Levien's superellipse-cornered distance through the blurred box.
        vec2 d = local - item.mask.xy;
        float r = item.maskShape.x, k = item.maskShape.y;
        float x0 = abs(d.x) - (item.mask.z - r), y0 = abs(d.y) - (item.mask.w - r);
        float x1 = max(x0, 0.0), y1 = max(y0, 0.0);
        float p = x1 > 0.0 && y1 > 0.0 ? pow(pow(x1, item.maskShape.z) + pow(y1, item.maskShape.z), item.maskShape.w) : x1 + y1;
        float sd = p + min(max(x0, y0), 0.0) - r;
        coverage *= item.blur.x * (erfApprox((item.blur.y + sd) * k) - erfApprox(sd * k));
    }
    if ((maskKind == MASK_CIRCLE && HAS_MASK(MASK_CIRCLE)) || (maskKind == MASK_ROUNDED_RECT && HAS_MASK(MASK_ROUNDED_RECT))
        || (maskKind == MASK_SECTOR && HAS_MASK(MASK_SECTOR)) || (maskKind == MASK_CONTINUOUS_RECT && HAS_MASK(MASK_CONTINUOUS_RECT))) {
        float pixelLength = length(n.x * gradU + n.y * gradV);
        coverage *= clamp(0.5 + s / max(pixelLength, 1e-30), 0.0, 1.0);
    }

    // Step 5: content.
    vec4 content = source == 1 && HAS_SNAPSHOT ? sampleSnapshot(item, local) : item.color;

    // Step 6: overlay, source-over onto the content.
    if (overlay && HAS_OVERLAY) {
        float g = clamp(dot(vec3(u, v, 1.0), item.gradient.xyz), 0.0, 1.0);
        vec4 o = mix(item.overlayStart, item.overlayEnd, g);
        content = o + content * (1.0 - o.a);
    }

    // Step 7: the premultiplied source, to be laid over what is beneath: src + dst * (1 - src.a).
    return content * (item.gradientsOpacity.z * coverage);
}
