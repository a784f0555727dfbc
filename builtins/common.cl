//===- builtins/common.cl - OpenCL C 3.0 6.15.5 common functions ----------===//

#include "Builtins.h"

#define COMMON(T, PI)                                                          \
  CONST T max(T x, T y) { return x < y ? y : x; }                              \
  CONST T min(T x, T y) { return y < x ? y : x; }                              \
  CONST T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }              \
  CONST T degrees(T r) { return r * ((T)180 / PI); }                           \
  CONST T radians(T d) { return d * (PI / (T)180); }                           \
  CONST T mix(T x, T y, T a) { return x + (y - x) * a; }                       \
  CONST T step(T edge, T x) { return x < edge ? (T)0 : (T)1; }                 \
  CONST T smoothstep(T e0, T e1, T x) {                                        \
    T t = clamp((x - e0) / (e1 - e0), (T)0, (T)1);                             \
    return t * t * ((T)3 - (T)2 * t);                                          \
  }                                                                            \
  CONST T sign(T x) {                                                          \
    return x > (T)0 ? (T)1 : x < (T)0 ? (T)-1 : x == (T)0 ? x : (T)0;          \
  }                                                                            \
  VEC_2(T, max, T, T)                                                          \
  VEC_2S(T, max, T, T)                                                         \
  VEC_2(T, min, T, T)                                                          \
  VEC_2S(T, min, T, T)                                                         \
  VEC_3(T, clamp, T, T, T)                                                     \
  VEC_3SS(T, clamp, T)                                                         \
  VEC_1(T, degrees, T)                                                         \
  VEC_1(T, radians, T)                                                         \
  VEC_3(T, mix, T, T, T)                                                       \
  VEC_33S(T, mix, T)                                                           \
  VEC_2(T, step, T, T)                                                         \
  VEC_S2(T, step, T, T)                                                        \
  VEC_3(T, smoothstep, T, T, T)                                                \
  VEC_SS3(T, smoothstep, T)                                                    \
  VEC_1(T, sign, T)
COMMON(float, M_PI_F)
COMMON(double, M_PI)
