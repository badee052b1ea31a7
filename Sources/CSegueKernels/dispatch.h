#ifndef SEGUE_DISPATCH_H
#define SEGUE_DISPATCH_H

// The run-time choice between a kernel's two bodies: `NAME_avx2`, compiled for AVX2 (x86-64 only), where the
// caller says the CPU has it (`segue_has_avx2`), else `NAME_body`, compiled for the baseline.

#if defined(__x86_64__)
#define SEGUE_AVX2 __attribute__((target("avx2")))
#define SEGUE_DISPATCH(avx2, name, ...) ((avx2) ? name##_avx2(__VA_ARGS__) : name##_body(__VA_ARGS__))
#else
#define SEGUE_DISPATCH(avx2, name, ...) ((void)(avx2), name##_body(__VA_ARGS__))
#endif

#endif
