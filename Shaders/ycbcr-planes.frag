#version 300 es
// A finished frame's YCbCr planes (YCbCrPlanesPass.swift), the GPU's twin of the C kernel ycbcr_rows.c: the same
// integer weights (uniforms), the same integer sums, shifts and clamps, so the same bytes. The planes are one
// run of bytes as Y4M stores them (Y, then Cb, then Cr, rows with no padding), packed four bytes a texel into
// an RGBA8 target uPackedWidth texels wide, row after row: read back as plain RGBA, the pixel pack buffer holds
// the planes in order. The vertex stage is transition.vert (one quad over the target).
precision highp float;
precision highp int;
precision highp sampler2D;

// The frame drawn, premultiplied RGBA8, row 0 its top row.
uniform sampler2D uFrame;
uniform ivec2 uFrameSize;
uniform ivec2 uChromaSize;
// log2 of a chroma block's side: 1 for 4:2:0, 0 for 4:4:4.
uniform int uChromaShift;
uniform int uPackedWidth;
// The weights in units of 1/65536 (segue_ycbcr_weights): yr, yg, yb and Y's offset; ur, ug, ub; vr, vg, vb.
uniform ivec4 uLuma;
uniform ivec3 uCb;
uniform ivec3 uCr;
out vec4 fragColor;

// A pixel's R, G, B as whole levels 0...255.
ivec3 levels(ivec2 pixel) {
    return ivec3(texelFetch(uFrame, pixel, 0).rgb * 255.0 + 0.5);
}

// ((w . rgb + 32768) >> 16) + offset, clamped to a byte; >> of a signed int extends the sign: a floor, as C's.
int weighted(ivec3 w, ivec3 rgb, int offset) {
    return clamp(((w.x * rgb.r + w.y * rgb.g + w.z * rgb.b + 32768) >> 16) + offset, 0, 255);
}

// The mean of a chroma block's pixels, rounded down (its sums are never negative); a block cut by the frame's
// right or bottom edge averages the pixels it has.
ivec3 blockMean(ivec2 block) {
    ivec2 origin = block << uChromaShift;
    if (uChromaShift == 0) return levels(origin);
    if (origin.x + 1 < uFrameSize.x && origin.y + 1 < uFrameSize.y) {
        return (levels(origin) + levels(origin + ivec2(1, 0)) + levels(origin + ivec2(0, 1)) + levels(origin + ivec2(1, 1))) >> 2;
    }
    ivec3 sum = ivec3(0);
    int count = 0;
    for (int dy = 0; dy < 2; dy++) {
        for (int dx = 0; dx < 2; dx++) {
            ivec2 pixel = origin + ivec2(dx, dy);
            if (pixel.x < uFrameSize.x && pixel.y < uFrameSize.y) {
                sum += levels(pixel);
                count++;
            }
        }
    }
    return sum / count;
}

// Byte i of the planes; 0 past their end (the last texel row's padding).
int planeByte(int i) {
    int lumaCount = uFrameSize.x * uFrameSize.y;
    if (i < lumaCount) {
        return weighted(uLuma.xyz, levels(ivec2(i % uFrameSize.x, i / uFrameSize.x)), uLuma.w);
    }
    i -= lumaCount;
    int chromaCount = uChromaSize.x * uChromaSize.y;
    bool isCr = i >= chromaCount;
    if (isCr) i -= chromaCount;
    if (i >= chromaCount) return 0;
    ivec3 mean = blockMean(ivec2(i % uChromaSize.x, i / uChromaSize.x));
    return weighted(isCr ? uCr : uCb, mean, 128);
}

// Bytes first...first + 3 of the planes: where all four lie in one row of one plane (nearly every texel), its
// position worked out once; else byte by byte.
ivec4 planeBytes(int first) {
    int lumaCount = uFrameSize.x * uFrameSize.y;
    int chromaCount = uChromaSize.x * uChromaSize.y;
    if (first + 3 < lumaCount) {
        ivec2 p = ivec2(first % uFrameSize.x, first / uFrameSize.x);
        if (p.x + 3 < uFrameSize.x) {
            return ivec4(weighted(uLuma.xyz, levels(p), uLuma.w), weighted(uLuma.xyz, levels(p + ivec2(1, 0)), uLuma.w),
                         weighted(uLuma.xyz, levels(p + ivec2(2, 0)), uLuma.w), weighted(uLuma.xyz, levels(p + ivec2(3, 0)), uLuma.w));
        }
    } else if (first >= lumaCount) {
        int i = first - lumaCount;
        bool isCr = i >= chromaCount;
        if (isCr) i -= chromaCount;
        ivec2 b = ivec2(i % uChromaSize.x, i / uChromaSize.x);
        if (i + 3 < chromaCount && b.x + 3 < uChromaSize.x) {
            ivec3 w = isCr ? uCr : uCb;
            return ivec4(weighted(w, blockMean(b), 128), weighted(w, blockMean(b + ivec2(1, 0)), 128),
                         weighted(w, blockMean(b + ivec2(2, 0)), 128), weighted(w, blockMean(b + ivec2(3, 0)), 128));
        }
    }
    return ivec4(planeByte(first), planeByte(first + 1), planeByte(first + 2), planeByte(first + 3));
}

void main() {
    ivec2 texel = ivec2(gl_FragCoord.xy);
    vec4 bytes = vec4(planeBytes(4 * (texel.y * uPackedWidth + texel.x)));
    // A quarter level up: the byte stored is the same whether the conversion to 8 bits rounds or truncates.
    fragColor = (bytes + 0.25) / 255.0;
}
