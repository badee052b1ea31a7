#include "CSegueKernels.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

bool segue_has_avx2(void) {
    unsigned a, b, c, d;
    bool yes = false;
    // OSXSAVE and AVX (leaf 1, ECX bits 27 and 28), the OS saving the YMM state (XCR0 bits 1 and 2), then
    // AVX2 (leaf 7, EBX bit 5).
    if (__get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 27)) && (c & (1u << 28))) {
        unsigned lo, hi;
        __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        if ((lo & 6) == 6 && __get_cpuid_count(7, 0, &a, &b, &c, &d)) yes = (b & (1u << 5)) != 0;
    }
    return yes;
}

/// x f / 255 in 16-bit lanes, rounded: t = x f + 128, (t + (t >> 8)) >> 8 (x, f at most 255).
__attribute__((target("avx2"))) static inline __m256i mul_div_255(__m256i x, __m256i f) {
    __m256i t = _mm256_add_epi16(_mm256_mullo_epi16(x, f), _mm256_set1_epi16(128));
    return _mm256_srli_epi16(_mm256_add_epi16(t, _mm256_srli_epi16(t, 8)), 8);
}

__attribute__((target("avx2")))
long segue_blend_opaque_row_avx2(uint32_t *target, const uint32_t *source, long count, uint32_t k) {
    const __m256i kk = _mm256_set1_epi16((short)k), ik = _mm256_set1_epi16((short)(255 - k));
    const __m256i low = _mm256_set1_epi16(0x00FF);
    long n = 0;
    for (; n + 8 <= count; n += 8) {
        // Each pixel's even channels (red, blue) and odd ones (green, alpha) apart in 16-bit lanes.
        __m256i s = _mm256_loadu_si256((const __m256i *)(source + n)), d = _mm256_loadu_si256((const __m256i *)(target + n));
        __m256i even = _mm256_add_epi16(mul_div_255(_mm256_and_si256(s, low), kk), mul_div_255(_mm256_and_si256(d, low), ik));
        __m256i odd = _mm256_add_epi16(mul_div_255(_mm256_srli_epi16(s, 8), kk), mul_div_255(_mm256_srli_epi16(d, 8), ik));
        _mm256_storeu_si256((__m256i *)(target + n), _mm256_or_si256(even, _mm256_slli_epi16(odd, 8)));
    }
    return n;
}

__attribute__((target("avx2")))
long segue_lerp_rows_avx2(uint32_t *target, const uint32_t *p, const uint32_t *q, long count, uint32_t w) {
    const __m256i wq = _mm256_set1_epi16((short)w), wp = _mm256_set1_epi16((short)(256 - w));
    const __m256i low = _mm256_set1_epi16(0x00FF), half = _mm256_set1_epi16(128);
    long n = 0;
    for (; n + 8 <= count; n += 8) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(p + n)), b = _mm256_loadu_si256((const __m256i *)(q + n));
        __m256i even = _mm256_add_epi16(_mm256_add_epi16(_mm256_mullo_epi16(_mm256_and_si256(a, low), wp),
                                                         _mm256_mullo_epi16(_mm256_and_si256(b, low), wq)), half);
        __m256i odd = _mm256_add_epi16(_mm256_add_epi16(_mm256_mullo_epi16(_mm256_srli_epi16(a, 8), wp),
                                                        _mm256_mullo_epi16(_mm256_srli_epi16(b, 8), wq)), half);
        // even >> 8 is each even channel; odd's high byte is each odd channel in place.
        _mm256_storeu_si256((__m256i *)(target + n),
                            _mm256_or_si256(_mm256_srli_epi16(even, 8), _mm256_andnot_si256(low, odd)));
    }
    return n;
}

#else

bool segue_has_avx2(void) { return false; }

long segue_blend_opaque_row_avx2(uint32_t *target, const uint32_t *source, long count, uint32_t k) {
    (void)target; (void)source; (void)count; (void)k;
    return 0;
}

long segue_lerp_rows_avx2(uint32_t *target, const uint32_t *p, const uint32_t *q, long count, uint32_t w) {
    (void)target; (void)p; (void)q; (void)count; (void)w;
    return 0;
}

#endif
