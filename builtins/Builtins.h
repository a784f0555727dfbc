//===- builtins/Builtins.h - helpers shared by the builtin library --------===//
//
// Every builtin is defined with __attribute__((overloadable)), so Clang gives
// it the Itanium-mangled name programs reference (_Z3sinf, _Z3sinDv4_f, ...).
// Vector variants are generated from the scalar ones by the VEC_* macros:
// each loops over the elements (the work-item loop vectorizes later).

#ifndef CLCPU_BUILTINS_BUILTINS_H
#define CLCPU_BUILTINS_BUILTINS_H

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define OVL __attribute__((overloadable))
#define CONST __attribute__((overloadable, const))

// R##n F(T##n a) from R F(T a), and so on for more arguments; S marks a
// scalar argument shared by every element.
#define VEC_1N(R, F, T, n)                                                     \
  CONST R##n F(T##n a) {                                                       \
    R##n r;                                                                    \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = F(a[i]);                                                          \
    return r;                                                                  \
  }
#define VEC_2N(R, F, T, U, n)                                                  \
  CONST R##n F(T##n a, U##n b) {                                               \
    R##n r;                                                                    \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = F(a[i], b[i]);                                                    \
    return r;                                                                  \
  }
#define VEC_2SN(R, F, T, U, n)                                                 \
  CONST R##n F(T##n a, U b) {                                                  \
    R##n r;                                                                    \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = F(a[i], b);                                                       \
    return r;                                                                  \
  }
#define VEC_S2N(R, F, T, U, n)                                                 \
  CONST R##n F(T a, U##n b) {                                                  \
    R##n r;                                                                    \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = F(a, b[i]);                                                       \
    return r;                                                                  \
  }
#define VEC_3N(R, F, T, U, V, n)                                               \
  CONST R##n F(T##n a, U##n b, V##n c) {                                       \
    R##n r;                                                                    \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = F(a[i], b[i], c[i]);                                              \
    return r;                                                                  \
  }
#define VEC_3SSN(R, F, T, n)                                                   \
  CONST R##n F(T##n a, T b, T c) {                                             \
    R##n r;                                                                    \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = F(a[i], b, c);                                                    \
    return r;                                                                  \
  }
#define VEC_SS3N(R, F, T, n)                                                   \
  CONST R##n F(T a, T b, T##n c) {                                             \
    R##n r;                                                                    \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = F(a, b, c[i]);                                                    \
    return r;                                                                  \
  }
#define VEC_33SN(R, F, T, n)                                                   \
  CONST R##n F(T##n a, T##n b, T c) {                                          \
    R##n r;                                                                    \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = F(a[i], b[i], c);                                                 \
    return r;                                                                  \
  }
// U marks a uint argument shared by every element (the offset and count of
// cl_khr_extended_bit_ops).
#define VEC_33UUN(R, F, T, n)                                                  \
  CONST R##n F(T##n a, T##n b, uint c, uint d) {                               \
    R##n r;                                                                    \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = F(a[i], b[i], c, d);                                              \
    return r;                                                                  \
  }
#define VEC_3UUN(R, F, T, n)                                                   \
  CONST R##n F(T##n a, uint b, uint c) {                                       \
    R##n r;                                                                    \
    for (int i = 0; i < n; ++i)                                                \
      r[i] = F(a[i], b, c);                                                    \
    return r;                                                                  \
  }

#define FOR_N(M, ...)                                                          \
  M(__VA_ARGS__, 2)                                                            \
  M(__VA_ARGS__, 3) M(__VA_ARGS__, 4) M(__VA_ARGS__, 8) M(__VA_ARGS__, 16)
#define VEC_1(R, F, T) FOR_N(VEC_1N, R, F, T)
#define VEC_2(R, F, T, U) FOR_N(VEC_2N, R, F, T, U)
#define VEC_2S(R, F, T, U) FOR_N(VEC_2SN, R, F, T, U)
#define VEC_S2(R, F, T, U) FOR_N(VEC_S2N, R, F, T, U)
#define VEC_3(R, F, T, U, V) FOR_N(VEC_3N, R, F, T, U, V)
#define VEC_3SS(R, F, T) FOR_N(VEC_3SSN, R, F, T)
#define VEC_SS3(R, F, T) FOR_N(VEC_SS3N, R, F, T)
#define VEC_33S(R, F, T) FOR_N(VEC_33SN, R, F, T)
#define VEC_33UU(R, F, T) FOR_N(VEC_33UUN, R, F, T)
#define VEC_3UU(R, F, T) FOR_N(VEC_3UUN, R, F, T)

// The named address spaces a pointer argument may have (plus generic).
#define FOR_AS(M, ...)                                                         \
  M(__global, __VA_ARGS__)                                                     \
  M(__local, __VA_ARGS__) M(__private, __VA_ARGS__) M(__generic, __VA_ARGS__)

#endif
