//===- builtins/half.cl - cl_khr_fp16 math, common and geometric functions ===//
//
// The half forms of OpenCL C 3.0 6.15.2 (math), 6.15.5 (common) and 6.15.7
// (geometric): each computes in float and rounds the result to half once.
// Every half is exactly a float, and float's 24-bit significand is more
// than twice half's 11 plus 2, so a correctly rounded float +, -, *, / or
// sqrt rounded again to half is the correctly rounded half result; the
// float math functions' errors (a few float ulps) shrink to a fraction of a
// half ulp, well within section 7.4's half bounds. The float functions
// vectorize (SLEEF), and the conversions are single instructions with F16C.
// fma, whose half result must be correctly rounded, is exact: the product
// of two halves is exact in double, and the sum is rounded to odd there
// before it is rounded to half (no double rounding).
//
// Relational functions, select, bitselect, vloadn/vstoren, shuffles and
// async copies of half are in relational.cl, vload.cl and misc.cl with the
// other types; conversions in the generated convert.cl.

#include "Builtins.h"

#define VEC_H1(F) VEC_1(half, F, half)
#define VEC_H2(F) VEC_2(half, F, half, half)

// R F(half) from F(float).
#define H1(F)                                                                  \
  CONST half F(half x) { return (half)F((float)x); }                           \
  VEC_H1(F)
#define H2(F)                                                                  \
  CONST half F(half x, half y) { return (half)F((float)x, (float)y); }         \
  VEC_H2(F)

H1(acos)
H1(acosh)
H1(acospi)
H1(asin)
H1(asinh)
H1(asinpi)
H1(atan)
H1(atanh)
H1(atanpi)
H1(cbrt)
H1(ceil)
H1(cos)
H1(cosh)
H1(cospi)
H1(erf)
H1(erfc)
H1(exp)
H1(exp2)
H1(exp10)
H1(expm1)
H1(fabs)
H1(floor)
H1(lgamma)
H1(log)
H1(log2)
H1(log10)
H1(log1p)
H1(logb)
H1(rint)
H1(round)
H1(rsqrt)
H1(sin)
H1(sinh)
H1(sinpi)
H1(sqrt)
H1(tan)
H1(tanh)
H1(tanpi)
H1(tgamma)
H1(trunc)

H2(atan2)
H2(atan2pi)
H2(copysign)
H2(fdim)
H2(fmax)
H2(fmin)
H2(fmod)
H2(hypot)
H2(maxmag)
H2(minmag)
H2(pow)
H2(powr)
H2(remainder)
VEC_2S(half, fmax, half, half)
VEC_2S(half, fmin, half, half)

// nextafter steps in half's own representation.
CONST half nextafter(half x, half y) {
  if (x != x || y != y)
    return x + y;
  if (x == y)
    return y;
  ushort u = as_ushort(x);
  if ((u & 0x7fff) == 0) // +-0: the smallest subnormal towards y
    return as_half((ushort)((as_ushort(y) & 0x8000) | 1));
  // Away from zero when x and y - x have the same sign.
  u = (x < y) == (x > (half)0) ? u + 1 : u - 1;
  return as_half(u);
}
VEC_H2(nextafter)

// mad: any precision the implementation likes; fma's exact result is one.
// fma: x * y is exact in double (22 significant bits); the sum is rounded
// to odd (truncated, its last bit set when inexact), which keeps the bit
// that rounding to half needs.
CONST half fma(half a, half b, half c) {
  double p = (double)a * (double)b, cc = (double)c;
  double s = p + cc;
  if (s != s || __builtin_fabs(s) == INFINITY)
    return (half)s;
  // s + e == p + c exactly (TwoSum).
  double bv = s - p;
  double e = (p - (s - bv)) + (cc - bv);
  ulong u = as_ulong(s);
  if (e != 0.0 && (u & 1) == 0)
    u = (e > 0) == (s > 0) ? u + 1 : u - 1; // towards the exact sum
  return (half)as_double(u);
}
CONST half mad(half a, half b, half c) { return fma(a, b, c); }
VEC_3(half, fma, half, half, half)
VEC_3(half, mad, half, half, half)

CONST half ldexp(half x, int n) { return (half)ldexp((float)x, n); }
VEC_2(half, ldexp, half, int)
VEC_2S(half, ldexp, half, int)
CONST half pown(half x, int n) { return (half)pown((float)x, n); }
VEC_2(half, pown, half, int)
CONST half rootn(half x, int n) { return (half)rootn((float)x, n); }
VEC_2(half, rootn, half, int)
CONST int ilogb(half x) { return ilogb((float)x); }
VEC_1(int, ilogb, half)
// A quiet NaN with the low 9 bits of the code (the quiet bit is bit 9).
CONST half nan(ushort c) { return as_half((ushort)(0x7e00 | (c & 0x1ff))); }
VEC_1(half, nan, ushort)

// fract, frexp, modf, lgamma_r, sincos and remquo of half: math.cl, with
// the float and double ones.

// Common functions (6.15.5).
CONST half max(half x, half y) { return x < y ? y : x; }
CONST half min(half x, half y) { return y < x ? y : x; }
CONST half clamp(half x, half lo, half hi) { return min(max(x, lo), hi); }
H1(degrees)
H1(radians)
CONST half mix(half x, half y, half a) {
  return (half)mix((float)x, (float)y, (float)a);
}
CONST half step(half edge, half x) { return x < edge ? (half)0 : (half)1; }
CONST half smoothstep(half e0, half e1, half x) {
  return (half)smoothstep((float)e0, (float)e1, (float)x);
}
CONST half sign(half x) { return (half)sign((float)x); }
VEC_2(half, max, half, half)
VEC_2S(half, max, half, half)
VEC_2(half, min, half, half)
VEC_2S(half, min, half, half)
VEC_3(half, clamp, half, half, half)
VEC_3SS(half, clamp, half)
VEC_3(half, mix, half, half, half)
VEC_33S(half, mix, half)
VEC_2(half, step, half, half)
VEC_S2(half, step, half, half)
VEC_3(half, smoothstep, half, half, half)
VEC_SS3(half, smoothstep, half)
VEC_H1(sign)

// Geometric functions (6.15.7), in float: no overflow of the squares.
#define HGEOM(n, FV)                                                           \
  CONST half dot(half##n a, half##n b) {                                       \
    return (half)dot(FV(a), FV(b));                                            \
  }                                                                            \
  CONST half length(half##n x) { return (half)length(FV(x)); }                 \
  CONST half distance(half##n a, half##n b) {                                  \
    return (half)distance(FV(a), FV(b));                                       \
  }                                                                            \
  CONST half##n normalize(half##n x) {                                         \
    return HV##n(normalize(FV(x)));                                            \
  }
#define HV(x) ((half)(x))
#define HV2(x) convert_half2(x)
#define HV3(x) convert_half3(x)
#define HV4(x) convert_half4(x)
#define FV1(x) ((float)(x))
HGEOM(, FV1)
HGEOM(2, convert_float2)
HGEOM(3, convert_float3)
HGEOM(4, convert_float4)
CONST half3 cross(half3 a, half3 b) {
  return convert_half3(cross(convert_float3(a), convert_float3(b)));
}
CONST half4 cross(half4 a, half4 b) {
  return convert_half4(cross(convert_float4(a), convert_float4(b)));
}
