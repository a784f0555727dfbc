//===- builtins/math.cl - OpenCL C 3.0 6.15.2 math functions --------------===//
//
// Most transcendental functions call SLEEF (libsleef, linked into the
// driver): its 1.0-ulp (u10) or better scalar functions here, and, once a
// work-item loop is vectorized, its SIMD variants for the host's ISA
// (compiler/LinkBuiltins.cpp names them to the vectorizers). SLEEF keeps
// the C99 special cases (7.5: +-0, +-inf, NaN, denormals).
// The others use the C library's double-precision functions (glibc libm,
// resolved by the JIT from the driver's process): a float result is the
// double result rounded once, well within the spec's ULP bounds (7.4).

#include "Builtins.h"

#define LIBM1(F) double libm_##F(double) __asm__(#F);
#define LIBM2(F) double libm_##F(double, double) __asm__(#F);
LIBM1(acos) LIBM1(acosh) LIBM1(asin) LIBM1(asinh) LIBM1(atan) LIBM1(atanh)
LIBM1(cbrt) LIBM1(cos) LIBM1(cosh) LIBM1(erf) LIBM1(erfc) LIBM1(exp)
LIBM1(exp2) LIBM1(exp10) LIBM1(expm1) LIBM1(log) LIBM1(log2) LIBM1(log10)
LIBM1(log1p) LIBM1(sin) LIBM1(sinh) LIBM1(tan) LIBM1(tanh) LIBM1(tgamma)
LIBM1(logb)
LIBM2(atan2) LIBM2(pow) LIBM2(hypot) LIBM2(fmod) LIBM2(remainder)
LIBM2(nextafter)
float libm_fmodf(float, float) __asm__("fmodf");
float libm_remainderf(float, float) __asm__("remainderf");
float libm_nextafterf(float, float) __asm__("nextafterf");
float libm_logbf(float) __asm__("logbf");
double libm_lgamma_r(double, __private int *) __asm__("lgamma_r");
double libm_frexp(double, __private int *) __asm__("frexp");
float libm_frexpf(float, __private int *) __asm__("frexpf");
double libm_modf(double, __private double *) __asm__("modf");
float libm_modff(float, __private float *) __asm__("modff");

// F(x) for float and double from SLEEF's Sleef_<F>f_<ACC> and
// Sleef_<F>_<ACC> (ACC: u10 is 1.0 ulp, u05 0.5 ulp, u15 1.5 ulp).
#define SLEEF_DECL1(F, ACC)                                                    \
  float Sleef_##F##f_##ACC(float) __attribute__((const));                      \
  double Sleef_##F##_##ACC(double) __attribute__((const));
#define SLEEF_DECL2(F, ACC)                                                    \
  float Sleef_##F##f_##ACC(float, float) __attribute__((const));               \
  double Sleef_##F##_##ACC(double, double) __attribute__((const));
#define SLEEF_1(F, ACC)                                                        \
  SLEEF_DECL1(F, ACC)                                                          \
  CONST float F(float x) { return Sleef_##F##f_##ACC(x); }                     \
  CONST double F(double x) { return Sleef_##F##_##ACC(x); }                    \
  VEC_FD1(F)
#define SLEEF_2(F, ACC)                                                        \
  SLEEF_DECL2(F, ACC)                                                          \
  CONST float F(float x, float y) { return Sleef_##F##f_##ACC(x, y); }         \
  CONST double F(double x, double y) { return Sleef_##F##_##ACC(x, y); }       \
  VEC_FD2(F)

// F(x) for float and double (and their vectors) from a double expression.
#define VEC_FD1(F)                                                             \
  VEC_1(float, F, float)                                                       \
  VEC_1(double, F, double)
#define VEC_FD2(F)                                                             \
  VEC_2(float, F, float, float)                                                \
  VEC_2(double, F, double, double)
#define VIA_DOUBLE1(F, EXPR)                                                   \
  static double F##_d(double x) { return EXPR; }                               \
  CONST float F(float x) { return (float)F##_d(x); }                           \
  CONST double F(double x) { return F##_d(x); }                                \
  VEC_FD1(F)
#define VIA_DOUBLE2(F, EXPR)                                                   \
  static double F##_d(double x, double y) { return EXPR; }                     \
  CONST float F(float x, float y) { return (float)F##_d(x, y); }               \
  CONST double F(double x, double y) { return F##_d(x, y); }                   \
  VEC_FD2(F)
#define LIBM_1(F) VIA_DOUBLE1(F, libm_##F(x))
#define LIBM_2(F) VIA_DOUBLE2(F, libm_##F(x, y))

SLEEF_1(acos, u10)
SLEEF_1(asin, u10)
SLEEF_1(atan, u10)
SLEEF_1(atanh, u10)
SLEEF_DECL1(cbrt, u10)
CONST float cbrt(float x) { return Sleef_cbrtf_u10(x); }
CONST double cbrt(double x) { return Sleef_cbrt_u10(x); }
VEC_FD1(cbrt)
SLEEF_1(cos, u10)
SLEEF_1(erf, u10)
SLEEF_1(erfc, u15)
SLEEF_1(exp2, u10)
SLEEF_1(exp10, u10)
SLEEF_1(expm1, u10)
SLEEF_1(log, u10)
SLEEF_1(log2, u10)
SLEEF_1(log10, u10)
SLEEF_1(sin, u10)
SLEEF_1(tan, u10)
SLEEF_1(tanh, u10)
SLEEF_2(atan2, u10)
SLEEF_2(hypot, u05)

// Where SLEEF falls short, the same SLEEF functions on transformed
// arguments (selects, no branches: the loops still vectorize):
// - its float sinh, cosh, asinh, acosh, log1p and tgamma overflow early
//   or lose accuracy on subnormal results: the double functions, rounded
//   once, are exact enough for every float argument;
// - its double exp, pow, sinh and cosh already return infinity for results
//   above 1.79769e308 (DBL_MAX is 1.7976931348623157e308), and its asinh,
//   acosh (|x| > 1.3e154) and log1p (x > 1e307) overflow internally;
// - its tgamma gives +0 where the result underflows for x < 0.
SLEEF_DECL1(sinh, u10)
SLEEF_DECL1(cosh, u10)
SLEEF_DECL1(asinh, u10)
SLEEF_DECL1(acosh, u10)
SLEEF_DECL1(log1p, u10)
SLEEF_DECL1(tgamma, u10)
SLEEF_DECL1(exp, u10)
SLEEF_DECL2(pow, u10)

// Below -170 Gamma's result is subnormal or zero, where SLEEF loses
// accuracy: Gamma(x) = Gamma(x + 16) / (x (x + 1) ... (x + 15)), each x + i
// exact. A zero result for x < 0 has the sign of Gamma: negative where
// floor(x) is odd.
static double tgamma_d(double x) {
  int low = x < -170.0;
  double r = Sleef_tgamma_u10(low ? x + 16.0 : x), f = __builtin_floor(x);
  double p = 1.0;
  for (int i = 0; i < 16; ++i)
    p *= x + (double)i;
  r = low ? r / p : r;
  double neg = __builtin_floor(f * 0.5) != f * 0.5 ? -0.0 : 0.0;
  return r == 0.0 && x < 0.0 ? neg : r;
}
CONST float sinh(float x) { return (float)Sleef_sinh_u10(x); }
CONST float cosh(float x) { return (float)Sleef_cosh_u10(x); }
CONST float asinh(float x) { return (float)Sleef_asinh_u10(x); }
CONST float acosh(float x) { return (float)Sleef_acosh_u10(x); }
CONST float log1p(float x) { return (float)Sleef_log1p_u10(x); }
CONST float tgamma(float x) { return (float)tgamma_d(x); }
CONST float exp(float x) { return Sleef_expf_u10(x); }
CONST float pow(float x, float y) { return Sleef_powf_u10(x, y); }
CONST double tgamma(double x) { return tgamma_d(x); }
// a * b for factors with an error of an ulp or so: where the product
// overflows by no more than that error, the largest double (within a few
// ulps of the exact result) rather than infinity.
static double square_top(double a, double b) {
  double r = a * b;
  return __builtin_fabs(r) == INFINITY &&
                 __builtin_fabs(a) * 0x1p-512 * __builtin_fabs(b) <
                     0x1.0000000000002p+512
             ? __builtin_copysign(DBL_MAX, r)
             : r;
}
// sinh x = 2 sinh(x/2) cosh(x/2) = 2 sinh(x/2)^2 (to double precision) for
// |x| > 700; likewise cosh.
CONST double sinh(double x) {
  int big = __builtin_fabs(x) > 700.0;
  double s = Sleef_sinh_u10(big ? x * 0.5 : x);
  return big ? __builtin_copysign(square_top(s * 2.0, s), x) : s;
}
CONST double cosh(double x) {
  int big = __builtin_fabs(x) > 700.0;
  double c = Sleef_cosh_u10(big ? x * 0.5 : x);
  return big ? square_top(c * 2.0, c) : c;
}
// For |x| > 2^500, asinh x = log 2|x| = asinh(x 2^-k) + k log 2 (to double
// precision while |x| 2^-k > 2^30), with k = 400 or 700.
CONST double asinh(double x) {
  double a = __builtin_fabs(x);
  int big = a > 0x1p500, huge = a > 0x1p800;
  double r = Sleef_asinh_u10(big ? x * (huge ? 0x1p-700 : 0x1p-400) : x);
  double k = huge ? 485.20302639196171659206248502072 // 700 log 2
                  : 277.25887222397812376689284858327; // 400 log 2
  return big ? r + __builtin_copysign(k, x) : r;
}
CONST double acosh(double x) {
  int big = x > 0x1p500, huge = x > 0x1p800;
  double r = Sleef_acosh_u10(big ? x * (huge ? 0x1p-700 : 0x1p-400) : x);
  return big ? r + (huge ? 485.20302639196171659206248502072
                         : 277.25887222397812376689284858327)
             : r;
}
// log1p x = log x = log1p(x 2^-500) + 500 log 2 for x > 2^1000.
CONST double log1p(double x) {
  int big = x > 0x1p1000;
  double r = Sleef_log1p_u10(big ? x * 0x1p-500 : x);
  return big ? r + 346.57359027997265470861606072909 : r;
}
// exp x = e exp(x - 1) (x - 1 is exact) for x > 709; e = M_E + 1.44e-16
// with one rounding.
CONST double exp(double x) {
  int big = x > 709.0;
  double r = Sleef_exp_u10(big ? x - 1.0 : x);
  double e = __builtin_fma(r, M_E, r * 0x1.4d57ee2b1013ap-53);
  // exp x <= DBL_MAX up to x = 0x1.62e42fefa39efp+9.
  e = e == INFINITY && x <= 0x1.62e42fefa39efp+9 ? DBL_MAX : e;
  return big ? e : r;
}
// pow(x, y) = pow(|x|, y/2)^2 (with the sign of x for odd integers y)
// where |y| log2 |x| may exceed 1000, so that SLEEF never sees a result
// near the limits of double.
CONST double pow(double x, double y) {
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  long e = (long)(as_ulong(ax) >> 52) - 1023; // binade; -1023 for subnormals
  double mag = (double)(e < 0 ? -e : e) + 1.0;
  int split = ax != 0.0 && ax < INFINITY && ay < INFINITY && ay * mag > 1000.0;
  double hy = y * 0.5;
  double h = Sleef_pow_u10(split ? ax : x, split ? hy : y);
  if (!split)
    return h;
  double r = square_top(h, h);
  int yint = __builtin_rint(y) == y, yodd = yint && __builtin_rint(hy) != hy;
  r = x < 0.0 && !yint ? NAN : r;
  return x < 0.0 && yodd ? -r : r;
}
VEC_FD1(sinh)
VEC_FD1(cosh)
VEC_FD1(asinh)
VEC_FD1(acosh)
VEC_FD1(log1p)
VEC_FD1(tgamma)
VEC_FD1(exp)
VEC_FD2(pow)
VIA_DOUBLE1(acospi, Sleef_acos_u10(x) * M_1_PI)
VIA_DOUBLE1(asinpi, Sleef_asin_u10(x) * M_1_PI)
VIA_DOUBLE1(atanpi, Sleef_atan_u10(x) * M_1_PI)
VIA_DOUBLE2(atan2pi, Sleef_atan2_u10(x, y) * M_1_PI)
// rsqrt (2 ulp): float in float arithmetic, so that it stays one vector
// register wide. sqrt and 1/s round correctly; one Newton step on 1/s with
// an FMA residual leaves only sqrt's half ulp and the last rounding. 0, inf,
// NaN and negative x take 1/s as it is (±inf, 0, NaN).
CONST float rsqrt(float x) {
  float s = __builtin_sqrtf(x);
  float r = 1.0f / s;
  float e = __builtin_fmaf(-s, r, 1.0f);
  float c = __builtin_fmaf(r, e, r);
  return __builtin_isfinite(r) && r != 0.0f ? c : r;
}
CONST double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
VEC_FD1(rsqrt)
VIA_DOUBLE1(lgamma, ({
              int s;
              libm_lgamma_r(x, &s);
            }))

// sinpi/cospi/tanpi: exact reduction to [-1, 1], then the symmetric
// half so that integers and half-integers give exact zeros.
static double sinpi_d(double x) {
  double r = x - 2.0 * __builtin_rint(x * 0.5); // [-1, 1], exact
  if (__builtin_fabs(r) > 0.5)
    r = __builtin_copysign(1.0, r) - r;
  double s = libm_sin(M_PI * r);
  return s == 0.0 ? __builtin_copysign(0.0, x) : s;
}
static double cospi_d(double x) {
  double r = __builtin_fabs(x - 2.0 * __builtin_rint(x * 0.5)); // [0, 1]
  double t = 0.5 - r;                                            // exact
  return t == 0.0 ? 0.0 : libm_sin(M_PI * t);
}
static double tanpi_d(double x) {
  double n = __builtin_rint(x), r = x - n; // [-0.5, 0.5], exact
  int odd = libm_fmod(n, 2.0) != 0.0;
  if (r == 0.0)
    return __builtin_copysign(0.0, odd ? -x : x);
  if (__builtin_fabs(r) == 0.5) {
    // n + r = m + 0.5 with m = n - 1 if r < 0.
    int modd = r < 0 ? !odd : odd;
    return modd ? -INFINITY : INFINITY;
  }
  // Near the poles, tan(pi r) = cot(pi (1/2 - |r|)) with an exact argument.
  if (__builtin_fabs(r) > 0.25)
    return __builtin_copysign(1.0, r) /
           libm_tan(M_PI * (0.5 - __builtin_fabs(r)));
  return libm_tan(M_PI * r);
}
CONST float sinpi(float x) { return (float)sinpi_d(x); }
CONST double sinpi(double x) { return sinpi_d(x); }
CONST float cospi(float x) { return (float)cospi_d(x); }
CONST double cospi(double x) { return cospi_d(x); }
CONST float tanpi(float x) { return (float)tanpi_d(x); }
CONST double tanpi(double x) { return tanpi_d(x); }
VEC_FD1(sinpi)
VEC_FD1(cospi)
VEC_FD1(tanpi)

// Exact operations: LLVM intrinsics or the same-precision C function.
#define EXACT(T, SUF)                                                          \
  CONST T ceil(T x) { return __builtin_ceil##SUF(x); }                         \
  CONST T floor(T x) { return __builtin_floor##SUF(x); }                       \
  CONST T trunc(T x) { return __builtin_trunc##SUF(x); }                       \
  CONST T round(T x) { return __builtin_round##SUF(x); }                       \
  CONST T rint(T x) { return __builtin_rint##SUF(x); }                         \
  CONST T fabs(T x) { return __builtin_fabs##SUF(x); }                         \
  CONST T sqrt(T x) { return __builtin_sqrt##SUF(x); }                         \
  CONST T copysign(T x, T y) { return __builtin_copysign##SUF(x, y); }         \
  CONST T fmax(T x, T y) { return __builtin_fmax##SUF(x, y); }                 \
  CONST T fmin(T x, T y) { return __builtin_fmin##SUF(x, y); }                 \
  CONST T fdim(T x, T y) {                                                     \
    return x != x || y != y ? (T)NAN : x > y ? x - y : (T)0;                   \
  }                                                                            \
  CONST T fma(T a, T b, T c) { return __builtin_fma##SUF(a, b, c); }           \
  CONST T mad(T a, T b, T c) { return __builtin_fma##SUF(a, b, c); }           \
  CONST T maxmag(T x, T y) {                                                   \
    T ax = __builtin_fabs##SUF(x), ay = __builtin_fabs##SUF(y);                \
    return ax > ay ? x : ay > ax ? y : __builtin_fmax##SUF(x, y);              \
  }                                                                            \
  CONST T minmag(T x, T y) {                                                   \
    T ax = __builtin_fabs##SUF(x), ay = __builtin_fabs##SUF(y);                \
    return ax < ay ? x : ay < ax ? y : __builtin_fmin##SUF(x, y);              \
  }                                                                            \
  CONST T ldexp(T x, int n) { return __builtin_ldexp##SUF(x, n); }             \
  CONST int ilogb(T x) {                                                       \
    if (x != x)                                                                \
      return FP_ILOGBNAN;                                                      \
    if (x == (T)0)                                                             \
      return FP_ILOGB0;                                                        \
    if (__builtin_fabs##SUF(x) == (T)INFINITY)                                 \
      return INT_MAX;                                                          \
    return (int)logb(x);                                                       \
  }                                                                            \
  CONST T pown(T x, int n) { return (T)pow((double)x, (double)n); }             \
  CONST T powr(T x, T y) {                                                     \
    if (x < (T)0 || x != x || y != y)                                          \
      return (T)NAN;                                                           \
    if (x == (T)0 && y == (T)0)                                                \
      return (T)NAN;                                                           \
    if (x == (T)INFINITY && y == (T)0)                                         \
      return (T)NAN;                                                           \
    if (x == (T)1 && __builtin_fabs##SUF(y) == (T)INFINITY)                    \
      return (T)NAN;                                                           \
    return pow(__builtin_fabs##SUF(x), y); /* powr(-0, y) is powr(+0, y) */    \
  }                                                                            \
  CONST T rootn(T x, int n) {                                                  \
    if (n == 0)                                                                \
      return (T)NAN;                                                           \
    if (x < (T)0 && !(n & 1))                                                  \
      return (T)NAN;                                                           \
    /* rootn(+-0, n): +-0 (odd n > 0), +0 (even n > 0), +-inf (odd n < 0),  \
       +inf (even n < 0). */                                                   \
    if (x == (T)0) {                                                           \
      T z = n & 1 ? x : (T)0;                                                  \
      return n > 0 ? z : __builtin_copysign##SUF((T)INFINITY, z);              \
    }                                                                          \
    if (n == 1)                                                                \
      return x;                                                                \
    if (n == 2)                                                                \
      return __builtin_sqrt##SUF(x);                                           \
    if (n == 3)                                                                \
      return (T)libm_cbrt(x);                                                  \
    if (n == -1)                                                               \
      return (T)(1.0 / (double)x);                                             \
    return (T)rootn_d(x, n);                                                   \
  }                                                                            \
  VEC_1(T, ceil, T)                                                            \
  VEC_1(T, floor, T)                                                           \
  VEC_1(T, trunc, T)                                                           \
  VEC_1(T, round, T)                                                           \
  VEC_1(T, rint, T)                                                            \
  VEC_1(T, fabs, T)                                                            \
  VEC_1(T, sqrt, T)                                                            \
  VEC_2(T, copysign, T, T)                                                     \
  VEC_2(T, fmax, T, T)                                                         \
  VEC_2S(T, fmax, T, T)                                                        \
  VEC_2(T, fmin, T, T)                                                         \
  VEC_2S(T, fmin, T, T)                                                        \
  VEC_2(T, fdim, T, T)                                                         \
  VEC_3(T, fma, T, T, T)                                                       \
  VEC_3(T, mad, T, T, T)                                                       \
  VEC_2(T, maxmag, T, T)                                                       \
  VEC_2(T, minmag, T, T)                                                       \
  VEC_2(T, ldexp, T, int)                                                      \
  VEC_2S(T, ldexp, T, int)                                                     \
  VEC_1(int, ilogb, T)                                                         \
  VEC_2(T, pown, T, int)                                                       \
  VEC_2(T, powr, T, T)                                                         \
  VEC_2(T, rootn, T, int)                                                      \
  VEC_1(T, logb, T)                                                            \
  VEC_2(T, fmod, T, T)                                                         \
  VEC_2(T, remainder, T, T)                                                    \
  VEC_2(T, nextafter, T, T)

// rootn for finite nonzero x and |n| > 2: pow(|x|, 1/n) alone is off by
// |ln x / n| times the rounding error of 1/n (115 ulp for a double near 1e300
// and n = 3). With |x| = m 2^(qk + r), k = |n|, 0 <= r < k, m in [0.5, 1):
// x^(1/n) = 2^(+-q) (m 2^r)^(1/n), where |ln(m 2^r) / n| < ln 2. Beyond
// k = 1000, |ln x / n| < 0.75 already.
static double rootn_d(double x, int n) {
  double ax = __builtin_fabs(x), in = 1.0 / (double)n;
  long k = n < 0 ? -(long)n : (long)n;
  if (k > 1000 || ax == INFINITY)
    return __builtin_copysign(libm_pow(ax, in), x);
  int e;
  double m = libm_frexp(ax, &e);
  long q = e >= 0 ? e / k : -((-(long)e + k - 1) / k);
  double y = __builtin_ldexp(m, (int)(e - q * k));
  double p = libm_pow(y, in);
  return __builtin_copysign(__builtin_ldexp(p, (int)(n < 0 ? -q : q)), x);
}
CONST float logb(float x) { return libm_logbf(x); }
CONST double logb(double x) { return libm_logb(x); }
CONST float fmod(float x, float y) { return libm_fmodf(x, y); }
CONST double fmod(double x, double y) { return libm_fmod(x, y); }
CONST float remainder(float x, float y) { return libm_remainderf(x, y); }
CONST double remainder(double x, double y) { return libm_remainder(x, y); }
CONST float nextafter(float x, float y) { return libm_nextafterf(x, y); }
CONST double nextafter(double x, double y) { return libm_nextafter(x, y); }
EXACT(float, f)
EXACT(double, )

CONST float nan(uint c) { return as_float(0x7fc00000u | (c & 0x3fffff)); }
CONST double nan(ulong c) {
  return as_double(0x7ff8000000000000UL | (c & 0x7ffffffffffffUL));
}
VEC_1(float, nan, uint)
VEC_1(double, nan, ulong)

// Functions with a pointer result: a private-pointer core, then one overload
// per address space; vectors call the scalar core element by element.
static OVL float fract_c(float x, __private float *ip) {
  float f = __builtin_floorf(x);
  *ip = f;
  if (x != x)
    return x;
  if (__builtin_fabsf(x) == INFINITY)
    return __builtin_copysignf(0.0f, x);
  return __builtin_fminf(x - f, 0x1.fffffep-1f);
}
static OVL double fract_c(double x, __private double *ip) {
  double f = __builtin_floor(x);
  *ip = f;
  if (x != x)
    return x;
  if (__builtin_fabs(x) == INFINITY)
    return __builtin_copysign(0.0, x);
  return __builtin_fmin(x - f, 0x1.fffffffffffffp-1);
}
static OVL float frexp_c(float x, __private int *e) { return libm_frexpf(x, e); }
static OVL double frexp_c(double x, __private int *e) { return libm_frexp(x, e); }
static OVL float modf_c(float x, __private float *i) { return libm_modff(x, i); }
static OVL double modf_c(double x, __private double *i) { return libm_modf(x, i); }
static OVL float lgamma_r_c(float x, __private int *s) {
  return (float)libm_lgamma_r(x, s);
}
static OVL double lgamma_r_c(double x, __private int *s) {
  return libm_lgamma_r(x, s);
}
static OVL float sincos_c(float x, __private float *c) {
  *c = cos(x);
  return sin(x);
}
static OVL double sincos_c(double x, __private double *c) {
  *c = cos(x);
  return sin(x);
}
// remquo: the remainder is exact; the quotient's low 7 bits come from
// |x| reduced modulo 128 |y| (exact), where the quotient is < 128.
static double remquo_d(double x, double y, __private int *q) {
  double r = libm_remainder(x, y);
  if (x != x || y != y || y == 0.0 || __builtin_fabs(x) == INFINITY) {
    *q = 0;
    return r;
  }
  double ay = __builtin_fabs(y);
  double xr = libm_fmod(__builtin_fabs(x), 128.0 * ay);
  double rr = libm_remainder(xr, ay);
  int n = (int)__builtin_rint((xr - rr) / ay) & 127;
  *q = ((x < 0) != (y < 0)) ? -n : n;
  return r;
}
static OVL float remquo_c(float x, float y, __private int *q) {
  // The remainder of two floats is exact in double.
  return (float)remquo_d(x, y, q);
}
static OVL double remquo_c(double x, double y, __private int *q) {
  return remquo_d(x, y, q);
}

// Half: the float core on a private float, rounded once. fract's float
// result below 1 may round up to 1 in half: the largest half below 1
// instead (the spec's fmin(x - floor(x), 0x1.ffcp-1h)).
static OVL half fract_c(half x, __private half *ip) {
  float i, r = fract_c((float)x, &i);
  *ip = (half)i;
  return r != r ? (half)r : (half)__builtin_fminf(r, 0x1.ffcp-1f);
}
static OVL half frexp_c(half x, __private int *e) {
  return (half)frexp_c((float)x, e);
}
static OVL half modf_c(half x, __private half *ip) {
  float i;
  half r = (half)modf_c((float)x, &i);
  *ip = (half)i;
  return r;
}
static OVL half lgamma_r_c(half x, __private int *s) {
  return (half)lgamma_r_c((float)x, s);
}
static OVL half sincos_c(half x, __private half *c) {
  float t;
  half r = (half)sincos_c((float)x, &t);
  *c = (half)t;
  return r;
}
static OVL half remquo_c(half x, half y, __private int *q) {
  return (half)remquo_c((float)x, (float)y, q);
}

#define PTR1_N(AS, F, T, P, n)                                                 \
  OVL T##n F(T##n x, AS P##n *out) {                                           \
    T##n r;                                                                    \
    P##n o;                                                                    \
    for (int i = 0; i < n; ++i) {                                              \
      P t;                                                                     \
      r[i] = F##_c(x[i], &t);                                                  \
      o[i] = t;                                                                \
    }                                                                          \
    *out = o;                                                                  \
    return r;                                                                  \
  }
#define PTR1(AS, F, T, P)                                                      \
  OVL T F(T x, AS P *out) {                                                    \
    P t;                                                                       \
    T r = F##_c(x, &t);                                                        \
    *out = t;                                                                  \
    return r;                                                                  \
  }                                                                            \
  FOR_N(PTR1_N, AS, F, T, P)
#define REMQUO_N(AS, T, n)                                                     \
  OVL T##n remquo(T##n x, T##n y, AS int##n *out) {                            \
    T##n r;                                                                    \
    int##n o;                                                                  \
    for (int i = 0; i < n; ++i) {                                              \
      int t;                                                                   \
      r[i] = remquo_c(x[i], y[i], &t);                                         \
      o[i] = t;                                                                \
    }                                                                          \
    *out = o;                                                                  \
    return r;                                                                  \
  }
#define PTR_FUNCS(AS, T)                                                       \
  PTR1(AS, fract, T, T)                                                        \
  PTR1(AS, frexp, T, int)                                                      \
  PTR1(AS, modf, T, T)                                                         \
  PTR1(AS, lgamma_r, T, int)                                                   \
  PTR1(AS, sincos, T, T)                                                       \
  OVL T remquo(T x, T y, AS int *out) {                                        \
    int t;                                                                     \
    T r = remquo_c(x, y, &t);                                                  \
    *out = t;                                                                  \
    return r;                                                                  \
  }                                                                            \
  FOR_N(REMQUO_N, AS, T)
FOR_AS(PTR_FUNCS, float)
FOR_AS(PTR_FUNCS, double)
FOR_AS(PTR_FUNCS, half)

// half_* and native_*: the full-precision functions satisfy both (8192 ulp
// for half_, implementation-defined for native_); SLEEF's 3.5-ulp (u35)
// functions, where it has them, are faster and still well within.
float Sleef_sinf_u35(float) __attribute__((const));
float Sleef_cosf_u35(float) __attribute__((const));
float Sleef_tanf_u35(float) __attribute__((const));
float Sleef_logf_u35(float) __attribute__((const));
float Sleef_log2f_u35(float) __attribute__((const));
float Sleef_exp2f_u35(float) __attribute__((const));
float Sleef_exp10f_u35(float) __attribute__((const));
#define FAST1(P, F, IMPL)                                                      \
  CONST float P##F(float x) { return IMPL(x); }                                \
  VEC_1(float, P##F, float)
#define FAST2(P, F, IMPL)                                                      \
  CONST float P##F(float x, float y) { return IMPL(x, y); }                    \
  VEC_2(float, P##F, float, float)
#define FAST_ALL(P)                                                            \
  FAST1(P, cos, Sleef_cosf_u35)                                                \
  FAST1(P, exp, exp)                                                           \
  FAST1(P, exp2, Sleef_exp2f_u35)                                              \
  FAST1(P, exp10, Sleef_exp10f_u35)                                            \
  FAST1(P, log, Sleef_logf_u35)                                                \
  FAST1(P, log2, Sleef_log2f_u35)                                              \
  FAST1(P, log10, log10)                                                       \
  FAST1(P, rsqrt, rsqrt)                                                       \
  FAST1(P, sin, Sleef_sinf_u35)                                                \
  FAST1(P, sqrt, sqrt)                                                         \
  FAST1(P, tan, Sleef_tanf_u35)                                                \
  FAST1(P, recip, 1.0f /)                                                      \
  FAST2(P, divide, divide_)                                                    \
  FAST2(P, powr, powr)
static float divide_(float x, float y) { return x / y; }
FAST_ALL(half_)
FAST_ALL(native_)
