//===- builtins/integer.cl - OpenCL C 3.0 6.15.4 integer functions --------===//

#include "Builtins.h"

// M(T, UT, MIN, MAX, BITS, SIGNED)
#define FOR_INT(M)                                                             \
  M(char, uchar, CHAR_MIN, CHAR_MAX, 8, 1)                                     \
  M(uchar, uchar, 0, UCHAR_MAX, 8, 0)                                          \
  M(short, ushort, SHRT_MIN, SHRT_MAX, 16, 1)                                  \
  M(ushort, ushort, 0, USHRT_MAX, 16, 0)                                       \
  M(int, uint, INT_MIN, INT_MAX, 32, 1)                                        \
  M(uint, uint, 0, UINT_MAX, 32, 0)                                            \
  M(long, ulong, LONG_MIN, LONG_MAX, 64, 1)                                    \
  M(ulong, ulong, 0, ULONG_MAX, 64, 0)

static ulong mulhi_u64(ulong a, ulong b) {
  ulong al = a & 0xffffffffUL, ah = a >> 32, bl = b & 0xffffffffUL,
        bh = b >> 32;
  ulong p0 = al * bl, p1 = al * bh, p2 = ah * bl, p3 = ah * bh;
  ulong mid = (p0 >> 32) + (p1 & 0xffffffffUL) + (p2 & 0xffffffffUL);
  return p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
}
static long mulhi_s64(long a, long b) {
  ulong h = mulhi_u64((ulong)a, (ulong)b);
  if (a < 0)
    h -= (ulong)b;
  if (b < 0)
    h -= (ulong)a;
  return (long)h;
}

#define INT_FUNCS(T, UT, MIN, MAX, BITS, SIGNED)                               \
  CONST UT abs(T x) { return SIGNED && x < 0 ? (UT)((UT)0 - (UT)x) : (UT)x; }  \
  CONST UT abs_diff(T x, T y) {                                                \
    return x > y ? (UT)((UT)x - (UT)y) : (UT)((UT)y - (UT)x);                  \
  }                                                                            \
  CONST T add_sat(T x, T y) {                                                  \
    T r;                                                                       \
    if (__builtin_add_overflow(x, y, &r))                                      \
      r = SIGNED && x < 0 ? (T)MIN : (T)MAX;                                   \
    return r;                                                                  \
  }                                                                            \
  CONST T sub_sat(T x, T y) {                                                  \
    T r;                                                                       \
    if (__builtin_sub_overflow(x, y, &r))                                      \
      r = SIGNED ? (x < 0 ? (T)MIN : (T)MAX) : (T)0;                           \
    return r;                                                                  \
  }                                                                            \
  CONST T hadd(T x, T y) { return (T)((x >> 1) + (y >> 1) + (x & y & 1)); }    \
  CONST T rhadd(T x, T y) {                                                    \
    return (T)((x >> 1) + (y >> 1) + ((x | y) & 1));                           \
  }                                                                            \
  CONST T max(T x, T y) { return x < y ? y : x; }                              \
  CONST T min(T x, T y) { return y < x ? y : x; }                              \
  CONST T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }              \
  CONST T clz(T x) { return (T)__builtin_clzg((UT)x, BITS); }                  \
  CONST T ctz(T x) { return (T)__builtin_ctzg((UT)x, BITS); }                  \
  CONST T popcount(T x) { return (T)__builtin_popcountg((UT)x); }              \
  CONST T rotate(T v, T i) {                                                   \
    UT s = (UT)i & (BITS - 1), u = (UT)v;                                      \
    return (T)(UT)((UT)(u << s) | (UT)(u >> ((BITS - s) & (BITS - 1))));       \
  }                                                                            \
  CONST T mul_hi(T x, T y) {                                                   \
    if (BITS == 64)                                                            \
      return SIGNED ? (T)mulhi_s64((long)x, (long)y)                           \
                    : (T)mulhi_u64((ulong)x, (ulong)y);                        \
    return SIGNED ? (T)(((long)x * (long)y) >> BITS)                           \
                  : (T)(((ulong)x * (ulong)y) >> BITS);                        \
  }                                                                            \
  CONST T mad_hi(T a, T b, T c) { return (T)(mul_hi(a, b) + c); }              \
  VEC_1(UT, abs, T)                                                            \
  VEC_2(UT, abs_diff, T, T)                                                    \
  VEC_2(T, add_sat, T, T)                                                      \
  VEC_2(T, sub_sat, T, T)                                                      \
  VEC_2(T, hadd, T, T)                                                         \
  VEC_2(T, rhadd, T, T)                                                        \
  VEC_2(T, max, T, T)                                                          \
  VEC_2(T, min, T, T)                                                          \
  VEC_2S(T, max, T, T)                                                         \
  VEC_2S(T, min, T, T)                                                         \
  VEC_3(T, clamp, T, T, T)                                                     \
  VEC_3SS(T, clamp, T)                                                         \
  VEC_1(T, clz, T)                                                             \
  VEC_1(T, ctz, T)                                                             \
  VEC_1(T, popcount, T)                                                        \
  VEC_2(T, rotate, T, T)                                                       \
  VEC_2(T, mul_hi, T, T)                                                       \
  VEC_3(T, mad_hi, T, T, T)
FOR_INT(INT_FUNCS)

// mad_sat: the exact a * b + c, saturated.
#define MAD_SAT_NARROW(T, W, MIN, MAX)                                         \
  CONST T mad_sat(T a, T b, T c) {                                             \
    W r = (W)a * (W)b + (W)c;                                                  \
    return (T)(r < (W)MIN ? (W)MIN : r > (W)MAX ? (W)MAX : r);                 \
  }                                                                            \
  VEC_3(T, mad_sat, T, T, T)
MAD_SAT_NARROW(char, int, CHAR_MIN, CHAR_MAX)
MAD_SAT_NARROW(uchar, int, 0, UCHAR_MAX)
MAD_SAT_NARROW(short, int, SHRT_MIN, SHRT_MAX)
MAD_SAT_NARROW(ushort, int, 0, USHRT_MAX)
MAD_SAT_NARROW(int, long, INT_MIN, INT_MAX)
CONST uint mad_sat(uint a, uint b, uint c) {
  ulong r = (ulong)a * b + c; // < 2^64
  return r > UINT_MAX ? UINT_MAX : (uint)r;
}
VEC_3(uint, mad_sat, uint, uint, uint)
CONST ulong mad_sat(ulong a, ulong b, ulong c) {
  if (mulhi_u64(a, b))
    return ULONG_MAX;
  return add_sat(a * b, c);
}
VEC_3(ulong, mad_sat, ulong, ulong, ulong)
CONST long mad_sat(long a, long b, long c) {
  // 128-bit product hi:lo plus sign-extended c.
  long hi = mulhi_s64(a, b);
  ulong lo = (ulong)a * (ulong)b;
  ulong lo2 = lo + (ulong)c;
  hi += (c < 0 ? -1 : 0) + (lo2 < lo ? 1 : 0);
  if (hi == 0 && (long)lo2 >= 0)
    return (long)lo2;
  if (hi == -1 && (long)lo2 < 0)
    return (long)lo2;
  return hi < 0 ? LONG_MIN : LONG_MAX;
}
VEC_3(long, mad_sat, long, long, long)

#define UPSAMPLE(H, L, R, BITS)                                                \
  CONST R upsample(H hi, L lo) { return (R)(((R)hi << BITS) | (R)lo); }        \
  VEC_2(R, upsample, H, L)
UPSAMPLE(char, uchar, short, 8)
UPSAMPLE(uchar, uchar, ushort, 8)
UPSAMPLE(short, ushort, int, 16)
UPSAMPLE(ushort, ushort, uint, 16)
UPSAMPLE(int, uint, long, 32)
UPSAMPLE(uint, uint, ulong, 32)

// 24-bit multiplies: operands outside 24 bits give implementation-defined
// results; this is the full 32-bit product.
#define MUL24(T)                                                               \
  CONST T mul24(T a, T b) { return a * b; }                                    \
  CONST T mad24(T a, T b, T c) { return a * b + c; }                           \
  VEC_2(T, mul24, T, T)                                                        \
  VEC_3(T, mad24, T, T, T)
MUL24(int)
MUL24(uint)
