// End-to-end: OpenCL C builtin functions (OpenCL C 3.0 spec, 6.15), run
// through the ICD loader and compared with host references on random
// inputs; math within the ULP bounds of 7.4.

#include "Common.h"
#include "SchedulerCommon.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using Env = sched::Env;

template <typename T> std::vector<T> randomInts(size_t N, unsigned Seed) {
  std::mt19937_64 G(Seed);
  const T Edge[] = {0,
                    1,
                    T(-1),
                    std::numeric_limits<T>::min(),
                    std::numeric_limits<T>::max(),
                    T(std::numeric_limits<T>::max() / 2),
                    T(std::numeric_limits<T>::min() / 2 + 1)};
  std::vector<T> V(N);
  for (T &X : V) {
    uint64_t R = G();
    if (R % 8 == 0)
      X = Edge[(R >> 8) % std::size(Edge)];
    else if (R % 8 == 1)
      X = T(int64_t(R >> 32) % 64 - 32); // small values
    else
      X = T(R >> 3);
  }
  return V;
}

// ---------------------------------------------------------------------------
// 6.15.4 Integer functions

const char *IntegerSource = R"(
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define V(n) CAT(T, n)
#define N_OUT 16
#define BODY(x, y, z, lo, hi)                                                 \
  R(0, AS(abs(x))) R(1, AS(abs_diff(x, y))) R(2, add_sat(x, y))               \
  R(3, sub_sat(x, y)) R(4, hadd(x, y)) R(5, rhadd(x, y))                      \
  R(6, clamp(x, lo, hi)) R(7, clz(x)) R(8, ctz(x)) R(9, mad_hi(x, y, z))      \
  R(10, mad_sat(x, y, z)) R(11, max(x, y)) R(12, min(x, y))                   \
  R(13, mul_hi(x, y)) R(14, rotate(x, y)) R(15, popcount(x))

kernel void scalar(global const T *a, global const T *b, global const T *c,
                   global T *o) {
  size_t i = get_global_id(0);
  T x = a[i], y = b[i], z = c[i];
  T lo = min(y, z), hi = max(y, z);
#define R(k, e) o[i * N_OUT + k] = e;
#define AS(e) CAT(as_, T)(e)
  BODY(x, y, z, lo, hi)
#undef R
#undef AS
}

#define VKERNEL(W)                                                            \
  kernel void vector##W(global const T *a, global const T *b,                 \
                        global const T *c, global T *o) {                     \
    size_t i = get_global_id(0);                                              \
    V(W) x = vload##W(i, a), y = vload##W(i, b), z = vload##W(i, c);          \
    V(W) lo = min(y, z), hi = max(y, z);                                      \
    BODY(x, y, z, lo, hi)                                                     \
  }
#define R(k, e)                                                               \
  {                                                                           \
    V(W) v = e;                                                               \
    for (int j = 0; j < W; ++j)                                               \
      o[(W * i + j) * N_OUT + k] = v[j];                                      \
  }
#define AS(e) CAT(as_, V(W))(e)
#undef W
#define W 2
VKERNEL(2)
#undef W
#define W 3
VKERNEL(3)
#undef W
#define W 4
VKERNEL(4)
#undef W
#define W 8
VKERNEL(8)
#undef W
#define W 16
VKERNEL(16)
)";

template <typename T> std::array<T, 16> intReference(T X, T Y, T Z) {
  using U = std::make_unsigned_t<T>;
  constexpr int Bits = sizeof(T) * 8;
  constexpr bool Signed = std::is_signed_v<T>;
  using W = std::conditional_t<Signed, __int128, unsigned __int128>;
  auto Sat = [](__int128 V) -> T {
    if (V < (__int128)std::numeric_limits<T>::min())
      return std::numeric_limits<T>::min();
    if (V > (__int128)std::numeric_limits<T>::max())
      return std::numeric_limits<T>::max();
    return T(V);
  };
  auto Clz = [](U V) -> T {
    int N = 0;
    for (int B = Bits - 1; B >= 0 && !((V >> B) & 1); --B)
      ++N;
    return T(N);
  };
  auto Ctz = [](U V) -> T {
    int N = 0;
    for (int B = 0; B < Bits && !((V >> B) & 1); ++B)
      ++N;
    return T(N);
  };
  T MulHi = T((W(X) * W(Y)) >> Bits);
  T MadSat;
  if (Signed) {
    MadSat = Sat(__int128(X) * __int128(Y) + __int128(Z));
  } else {
    unsigned __int128 P = (unsigned __int128)(U)X * (U)Y + (U)Z;
    MadSat =
        P > (unsigned __int128)std::numeric_limits<U>::max() ? T(~U(0)) : T(P);
  }
  T Lo = std::min(Y, Z), Hi = std::max(Y, Z);
  unsigned S = unsigned(U(Y) % Bits);
  uint64_t UX = U(X);
  uint64_t Mask = Bits == 64 ? ~0ULL : ((1ULL << Bits) - 1);
  T Rot = T(U(((UX << S) | (S ? UX >> (Bits - S) : 0)) & Mask));
  __int128 SX = X, SY = Y;
  return {T(U(X < 0 ? -SX : SX)),
          T(U(X > Y ? SX - SY : SY - SX)),
          Sat(SX + SY),
          Sat(SX - SY),
          T((SX + SY) >> 1),
          T((SX + SY + 1) >> 1),
          std::min(std::max(X, Lo), Hi),
          Clz(U(X)),
          Ctz(U(X)),
          T(U(U(MulHi) + U(Z))),
          MadSat,
          std::max(X, Y),
          std::min(X, Y),
          MulHi,
          Rot,
          T(__builtin_popcountll(U(X)))};
}

const char *FnNames[16] = {"abs",  "abs_diff", "add_sat", "sub_sat",
                           "hadd", "rhadd",    "clamp",   "clz",
                           "ctz",  "mad_hi",   "mad_sat", "max",
                           "min",  "mul_hi",   "rotate",  "popcount"};

template <typename T> void checkIntegerType(Env &E, const char *Name) {
  INFO("type " << Name);
  constexpr size_t N = 16 * 64;
  auto A = randomInts<T>(N, 1), B = randomInts<T>(N, 2),
       C = randomInts<T>(N, 3);
  cl_program P =
      E.build(IntegerSource, std::string("-cl-std=CL3.0 -DT=") + Name);
  cl_mem MA = E.buffer(A), MB = E.buffer(B), MC = E.buffer(C);
  for (auto [Kernel, Items] : {std::pair<const char *, size_t>{"scalar", N},
                               {"vector2", N / 2},
                               {"vector3", N / 3},
                               {"vector4", N / 4},
                               {"vector8", N / 8},
                               {"vector16", N / 16}}) {
    INFO("kernel " << Kernel);
    cl_mem MO = E.buffer(std::vector<T>(N * 16, 0));
    E.run(P, Kernel, {MA, MB, MC, MO}, Items);
    auto Got = E.read<T>(MO, N * 16);
    size_t Checked = Items * (N / Items);
    int Bad = 0;
    for (size_t I = 0; I < Checked && Bad < 5; ++I) {
      auto Want = intReference<T>(A[I], B[I], C[I]);
      for (int F = 0; F < 16; ++F)
        if (Got[I * 16 + F] != Want[F]) {
          ++Bad;
          FAIL_CHECK(FnNames[F] << "(" << +A[I] << ", " << +B[I] << ", "
                                << +C[I] << ") = " << +Got[I * 16 + F]
                                << ", expected " << +Want[F]);
        }
    }
    CHECK(Bad == 0);
  }
}

} // namespace

TEST_CASE("6.15.4: integer functions match a host reference for every "
          "integer type and vector width",
          "[builtins]") {
  Env E;
  checkIntegerType<int8_t>(E, "char");
  checkIntegerType<uint8_t>(E, "uchar");
  checkIntegerType<int16_t>(E, "short");
  checkIntegerType<uint16_t>(E, "ushort");
  checkIntegerType<int32_t>(E, "int");
  checkIntegerType<uint32_t>(E, "uint");
  checkIntegerType<int64_t>(E, "long");
  checkIntegerType<uint64_t>(E, "ulong");
}

// ---------------------------------------------------------------------------
// 6.15.2 Math functions (float), 7.4 ULP bounds

namespace {

/// |Got - Want| in ulps of float at \p Want; 0 for matching specials.
double ulpError(float Got, long double Want) {
  if (std::isnan(Want))
    return std::isnan(Got) ? 0 : 1e30;
  if (std::isinf(Want)) {
    if (Got == Want)
      return 0;
    // A finite reference just beyond FLT_MAX may round to infinity.
    return 1e30;
  }
  if (std::isnan(Got))
    return 1e30;
  if (std::isinf(Got)) {
    // Overflow: the exact result rounds to infinity beyond FLT_MAX.
    if (std::fabs(Want) >= (long double)FLT_MAX && (Got > 0) == (Want > 0))
      return 0;
    return 1e30;
  }
  long double A = std::fabs(Want);
  int Exp = A < (long double)FLT_MIN ? -126 : std::ilogb(A);
  long double Ulp = std::ldexp(1.0L, Exp - 23);
  return double(std::fabs((long double)Got - Want) / Ulp);
}

struct MathCase {
  const char *Name;
  const char *Expr; // in x and y (floatN)
  long double (*Ref)(long double, long double);
  double Ulp;
  float Lo, Hi;   // x range
  float YLo, YHi; // y range
};

constexpr long double PiL = 3.141592653589793238462643383279502884L;

// sinpi/cospi/tanpi references: exact reduction first, so that the
// long double product with pi stays accurate near the zeros and poles.
long double sinpiRef(long double X) {
  long double R = fmodl(X, 2); // exact, (-2, 2)
  if (R > 1)
    R -= 2;
  if (R < -1)
    R += 2;
  if (fabsl(R) > 0.5L)
    R = copysignl(1, R) - R;
  return sinl(PiL * R);
}
long double cospiRef(long double X) {
  long double R = fabsl(fmodl(X, 2));
  if (R > 1)
    R = 2 - R;
  return sinl(PiL * (0.5L - R));
}
long double tanpiRef(long double X) {
  long double R = X - rintl(X);
  if (fabsl(R) > 0.25L)
    return copysignl(1, R) / tanl(PiL * (0.5L - fabsl(R)));
  return tanl(PiL * R);
}

const MathCase MathCases[] = {
    {"acos", "acos(x)", [](long double x, long double) { return acosl(x); }, 4, -1, 1, 0, 1},
    {"acosh", "acosh(x)", [](long double x, long double) { return acoshl(x); }, 4, 1, 1e4f, 0, 1},
    {"acospi", "acospi(x)", [](long double x, long double) { return acosl(x) / PiL; }, 5, -1, 1, 0, 1},
    {"asin", "asin(x)", [](long double x, long double) { return asinl(x); }, 4, -1, 1, 0, 1},
    {"asinh", "asinh(x)", [](long double x, long double) { return asinhl(x); }, 4, -1e4f, 1e4f, 0, 1},
    {"asinpi", "asinpi(x)", [](long double x, long double) { return asinl(x) / PiL; }, 5, -1, 1, 0, 1},
    {"atan", "atan(x)", [](long double x, long double) { return atanl(x); }, 5, -1e4f, 1e4f, 0, 1},
    {"atan2", "atan2(x, y)", [](long double x, long double y) { return atan2l(x, y); }, 6, -100, 100, -100, 100},
    {"atanh", "atanh(x)", [](long double x, long double) { return atanhl(x); }, 5, -0.999f, 0.999f, 0, 1},
    {"atanpi", "atanpi(x)", [](long double x, long double) { return atanl(x) / PiL; }, 5, -1e4f, 1e4f, 0, 1},
    {"atan2pi", "atan2pi(x, y)", [](long double x, long double y) { return atan2l(x, y) / PiL; }, 6, -100, 100, -100, 100},
    {"cbrt", "cbrt(x)", [](long double x, long double) { return cbrtl(x); }, 2, -1e6f, 1e6f, 0, 1},
    {"ceil", "ceil(x)", [](long double x, long double) { return ceill(x); }, 0, -1e3f, 1e3f, 0, 1},
    {"copysign", "copysign(x, y)", [](long double x, long double y) { return copysignl(x, y); }, 0, -1e3f, 1e3f, -1, 1},
    {"cos", "cos(x)", [](long double x, long double) { return cosl(x); }, 4, -1e4f, 1e4f, 0, 1},
    {"cosh", "cosh(x)", [](long double x, long double) { return coshl(x); }, 4, -80, 80, 0, 1},
    {"cospi", "cospi(x)", [](long double x, long double) { return cospiRef(x); }, 4, -100, 100, 0, 1},
    {"erfc", "erfc(x)", [](long double x, long double) { return erfcl(x); }, 16, -5, 9, 0, 1},
    {"erf", "erf(x)", [](long double x, long double) { return erfl(x); }, 16, -5, 5, 0, 1},
    {"exp", "exp(x)", [](long double x, long double) { return expl(x); }, 3, -80, 80, 0, 1},
    {"exp2", "exp2(x)", [](long double x, long double) { return exp2l(x); }, 3, -120, 120, 0, 1},
    {"exp10", "exp10(x)", [](long double x, long double) { return powl(10, x); }, 3, -35, 35, 0, 1},
    {"expm1", "expm1(x)", [](long double x, long double) { return expm1l(x); }, 3, -20, 20, 0, 1},
    {"fabs", "fabs(x)", [](long double x, long double) { return fabsl(x); }, 0, -1e3f, 1e3f, 0, 1},
    {"fdim", "fdim(x, y)", [](long double x, long double y) { return fdiml(x, y); }, 0, -100, 100, -100, 100},
    {"floor", "floor(x)", [](long double x, long double) { return floorl(x); }, 0, -1e3f, 1e3f, 0, 1},
    {"fmax", "fmax(x, y)", [](long double x, long double y) { return fmaxl(x, y); }, 0, -100, 100, -100, 100},
    {"fmin", "fmin(x, y)", [](long double x, long double y) { return fminl(x, y); }, 0, -100, 100, -100, 100},
    {"fmod", "fmod(x, y)", [](long double x, long double y) { return fmodl(x, y); }, 0, -1e4f, 1e4f, -100, 100},
    {"hypot", "hypot(x, y)", [](long double x, long double y) { return hypotl(x, y); }, 4, -1e30f, 1e30f, -1e30f, 1e30f},
    {"log", "log(x)", [](long double x, long double) { return logl(x); }, 3, 1e-30f, 1e30f, 0, 1},
    {"log2", "log2(x)", [](long double x, long double) { return log2l(x); }, 3, 1e-30f, 1e30f, 0, 1},
    {"log10", "log10(x)", [](long double x, long double) { return log10l(x); }, 3, 1e-30f, 1e30f, 0, 1},
    {"log1p", "log1p(x)", [](long double x, long double) { return log1pl(x); }, 2, -0.9f, 1e4f, 0, 1},
    {"logb", "logb(x)", [](long double x, long double) { return logbl(x); }, 0, -1e30f, 1e30f, 0, 1},
    {"maxmag", "maxmag(x, y)", [](long double x, long double y) { return fabsl(x) > fabsl(y) ? x : fabsl(y) > fabsl(x) ? y : fmaxl(x, y); }, 0, -100, 100, -100, 100},
    {"minmag", "minmag(x, y)", [](long double x, long double y) { return fabsl(x) < fabsl(y) ? x : fabsl(y) < fabsl(x) ? y : fminl(x, y); }, 0, -100, 100, -100, 100},
    {"nextafter", "nextafter(x, y)", [](long double x, long double y) { return (long double)nextafterf(float(x), float(y)); }, 0, -100, 100, -100, 100},
    {"pow", "pow(x, y)", [](long double x, long double y) { return powl(x, y); }, 16, 0, 100, -15, 15},
    {"powr", "powr(x, y)", [](long double x, long double y) { return powl(x, y); }, 16, 1e-3f, 100, -15, 15},
    {"remainder", "remainder(x, y)", [](long double x, long double y) { return remainderl(x, y); }, 0, -1e4f, 1e4f, -100, 100},
    {"rint", "rint(x)", [](long double x, long double) { return rintl(x); }, 0, -1e3f, 1e3f, 0, 1},
    {"round", "round(x)", [](long double x, long double) { return roundl(x); }, 0, -1e3f, 1e3f, 0, 1},
    {"rsqrt", "rsqrt(x)", [](long double x, long double) { return 1 / sqrtl(x); }, 2, 1e-30f, 1e30f, 0, 1},
    {"sin", "sin(x)", [](long double x, long double) { return sinl(x); }, 4, -1e4f, 1e4f, 0, 1},
    {"sinh", "sinh(x)", [](long double x, long double) { return sinhl(x); }, 4, -80, 80, 0, 1},
    {"sinpi", "sinpi(x)", [](long double x, long double) { return sinpiRef(x); }, 4, -100, 100, 0, 1},
    {"sqrt", "sqrt(x)", [](long double x, long double) { return sqrtl(x); }, 3, 0, 1e30f, 0, 1},
    {"tan", "tan(x)", [](long double x, long double) { return tanl(x); }, 5, -1e4f, 1e4f, 0, 1},
    {"tanh", "tanh(x)", [](long double x, long double) { return tanhl(x); }, 5, -20, 20, 0, 1},
    {"tanpi", "tanpi(x)", [](long double x, long double) { return tanpiRef(x); }, 6, -100, 100, 0, 1},
    {"tgamma", "tgamma(x)", [](long double x, long double) { return tgammal(x); }, 16, 0.01f, 30, 0, 1},
    {"trunc", "trunc(x)", [](long double x, long double) { return truncl(x); }, 0, -1e3f, 1e3f, 0, 1},
    {"lgamma", "lgamma(x)", [](long double x, long double) { return lgammal(x); }, 16, 0.01f, 1e4f, 0, 1},
    {"fma", "fma(x, y, x)", [](long double x, long double y) { return (long double)std::fma(float(x), float(y), float(x)); }, 0, -100, 100, -100, 100},
    {"ldexp", "ldexp(x, CI(y))", [](long double x, long double y) { return ldexpl(x, int(y)); }, 0, -100, 100, -60, 60},
    {"pown", "pown(x, CI(y))", [](long double x, long double y) { return powl(x, (long double)int(y)); }, 16, -10, 10, -30, 30},
    {"rootn", "rootn(x, CI(y))", [](long double x, long double y) { int n = int(y); if (n == 0) return (long double)NAN; return x < 0 && (n & 1) ? -powl(-x, 1.0L / n) : powl(x, 1.0L / n); }, 16, 0, 1e6f, -9, 9},
    {"half_exp", "half_exp(x)", [](long double x, long double) { return expl(x); }, 8192, -80, 80, 0, 1},
    {"half_sin", "half_sin(x)", [](long double x, long double) { return sinl(x); }, 8192, -1000, 1000, 0, 1},
    {"half_divide", "half_divide(x, y)", [](long double x, long double y) { return x / y; }, 8192, -100, 100, 1, 100},
    {"native_log", "native_log(x)", [](long double x, long double) { return logl(x); }, 8192, 1e-30f, 1e30f, 0, 1},
    {"native_recip", "native_recip(x)", [](long double x, long double) { return 1 / x; }, 8192, 1, 1e6f, 0, 1},
    {"native_sqrt", "native_sqrt(x)", [](long double x, long double) { return sqrtl(x); }, 8192, 0, 1e30f, 0, 1},
};

/// Random floats in [Lo, Hi], log-uniform in magnitude when the range spans
/// orders of magnitude.
std::vector<float> randomRange(size_t N, float Lo, float Hi, unsigned Seed) {
  std::mt19937 G(Seed);
  std::vector<float> V(N);
  std::uniform_real_distribution<double> U(Lo, Hi), Uni(0, 1);
  bool Log = Hi > 0 && Lo >= 0 && Hi / std::max(Lo, 1e-30f) > 1e6;
  bool SymLog = Lo < 0 && Hi > 1e5f && -Lo == Hi;
  for (float &F : V) {
    if (Log)
      F = float(
          std::exp(std::log(std::max(Lo, 1e-30f)) +
                   Uni(G) * (std::log(Hi) - std::log(std::max(Lo, 1e-30f)))));
    else if (SymLog)
      F = float(
          (Uni(G) < 0.5 ? -1 : 1) *
          std::exp(std::log(1e-6) + Uni(G) * (std::log(Hi) - std::log(1e-6))));
    else
      F = float(U(G));
  }
  return V;
}

} // namespace

namespace {
/// |Got - Want| in ulps of double at \p Want.
double ulpError(double Got, long double Want) {
  if (std::isnan(Want))
    return std::isnan(Got) ? 0 : 1e30;
  if (std::isinf(Want))
    return Got == Want ? 0 : 1e30;
  if (std::isnan(Got))
    return 1e30;
  if (std::isinf(Got))
    return std::fabs(Want) >= (long double)DBL_MAX && (Got > 0) == (Want > 0)
               ? 0
               : 1e30;
  long double A = std::fabs(Want);
  int Exp = A < (long double)DBL_MIN ? -1022 : std::ilogb(A);
  long double Ulp = std::ldexp(1.0L, Exp - 52);
  return double(std::fabs((long double)Got - Want) / Ulp);
}

/// Every MathCase (for double: those defined for double) on scalars and
/// 4-vectors of \p T.
template <typename T> void checkMath(const char *Type) {
  Env E;
  const bool Double = std::is_same_v<T, double>;
  auto Applies = [&](const MathCase &M) {
    std::string N = M.Name;
    return !Double || (N.rfind("half_", 0) != 0 && N.rfind("native_", 0) != 0 &&
                       N != "nextafter" && N != "fma");
  };
  std::string Src =
      Double ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "";
  std::string Ty = Type, Ty4 = Ty + "4";
  int Idx = 0;
  for (const MathCase &M : MathCases) {
    std::string I = std::to_string(Idx++);
    if (!Applies(M))
      continue;
    Src += "#undef CI\n#define CI convert_int\nkernel void s" + I +
           "(global const " + Ty + " *a, global const " + Ty + " *b, global " +
           Ty + " *o) { size_t i = get_global_id(0); " + Ty +
           " x = a[i], y = b[i]; o[i] = " + M.Expr + "; }\n";
    Src += "#undef CI\n#define CI convert_int4\nkernel void v" + I +
           "(global const " + Ty + " *a, global const " + Ty + " *b, global " +
           Ty + " *o) { size_t i = get_global_id(0); " + Ty4 +
           " x = vload4(i, a), y = vload4(i, b); vstore4(" + M.Expr +
           ", i, o); }\n";
  }
  cl_program P = E.build(Src);
  constexpr size_t N = 4096;
  Idx = 0;
  for (const MathCase &M : MathCases) {
    INFO(Type << " function " << M.Name);
    std::string I = std::to_string(Idx++);
    if (!Applies(M))
      continue;
    auto XF = randomRange(N, M.Lo, M.Hi, 10 + Idx);
    auto YF = randomRange(N, M.YLo, M.YHi, 1000 + Idx);
    std::vector<T> X(XF.begin(), XF.end()), Y(YF.begin(), YF.end());
    if (Double) { // use the extra precision, staying inside the range
      std::mt19937 G(Idx);
      std::uniform_real_distribution<double> U(-1e-9, 1e-9);
      for (size_t J = 0; J < N; ++J) {
        T V = X[J] * (1 + U(G));
        if (V >= M.Lo && V <= M.Hi && std::rint(X[J]) != X[J])
          X[J] = V;
      }
    }
    cl_mem MX = E.buffer(X), MY = E.buffer(Y);
    for (const char *Kind : {"s", "v"}) {
      cl_mem MO = E.buffer(std::vector<T>(N, 0));
      E.run(P, (Kind + I).c_str(), {MX, MY, MO}, *Kind == 's' ? N : N / 4);
      auto Got = E.read<T>(MO, N);
      double Worst = 0;
      size_t WorstAt = 0;
      for (size_t J = 0; J < N; ++J) {
        double Err = ulpError(Got[J], M.Ref(X[J], Y[J]));
        if (Err > Worst) {
          Worst = Err;
          WorstAt = J;
        }
      }
      INFO(Kind << ": worst " << Worst << " ulp at x=" << X[WorstAt]
                << " y=" << Y[WorstAt] << " got " << Got[WorstAt] << " want "
                << (double)M.Ref(X[WorstAt], Y[WorstAt]));
      // 0 ulp means correctly rounded: within half an ulp of the exact value.
      CHECK(Worst <= std::max(M.Ulp, 0.5));
    }
  }
}
} // namespace

TEST_CASE("6.15.2: float math functions are within the 7.4 ULP bounds "
          "(scalar and vector)",
          "[builtins]") {
  checkMath<float>("float");
}

TEST_CASE("6.15.2: double math functions are within the 7.4 ULP bounds "
          "(scalar and vector)",
          "[builtins]") {
  checkMath<double>("double");
}

// ---------------------------------------------------------------------------
// 6.15.5 common, 6.15.6 relational, 6.15.7 geometric functions

namespace {
std::vector<float> floatsWithSpecials(size_t N, unsigned Seed) {
  auto V = randomRange(N, -10, 10, Seed);
  const float Sp[] = {0.0f,   -0.0f,   INFINITY, -INFINITY, NAN,
                      1e-40f, -1e-40f, FLT_MAX,  1.0f,      -1.0f};
  std::mt19937 G(Seed);
  for (size_t I = 0; I < N; I += 7)
    V[I] = Sp[G() % std::size(Sp)];
  return V;
}
bool sameFloat(float A, float B, float Tol) {
  if (std::isnan(A) || std::isnan(B))
    return std::isnan(A) && std::isnan(B);
  if (A == B)
    return std::signbit(A) == std::signbit(B) || Tol > 0;
  return std::fabs(A - B) <= Tol * std::max(1.0f, std::fabs(B));
}
} // namespace

TEST_CASE("6.15.5-6.15.7: common, relational and geometric functions match "
          "a host reference",
          "[builtins]") {
  Env E;
  const char *Src = R"(
kernel void scalar(global const float *a, global const float *b,
                   global const float *c, global float *o, global int *r) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i], z = c[i];
  global float *f = o + i * 10;
  f[0] = clamp(x, fmin(y, z), fmax(y, z));
  f[1] = degrees(x);
  f[2] = radians(x);
  f[3] = mix(x, y, fabs(z) * 0.0625f);
  f[4] = step(y, x);
  f[5] = smoothstep(fmin(y, z) - 1.0f, fmax(y, z) + 1.0f, x);
  f[6] = sign(x);
  f[7] = max(x, y);
  f[8] = min(x, y);
  f[9] = bitselect(x, y, z);
  global int *k = r + i * 12;
  k[0] = isequal(x, y); k[1] = isnotequal(x, y); k[2] = isgreater(x, y);
  k[3] = isgreaterequal(x, y); k[4] = isless(x, y); k[5] = islessequal(x, y);
  k[6] = isnan(x); k[7] = isinf(x); k[8] = isfinite(x); k[9] = isnormal(x);
  k[10] = signbit(x); k[11] = isunordered(x, y);
}
kernel void vec(global const float *a, global const float *b,
                global const float *c, global float *o, global int *r) {
  size_t i = get_global_id(0);
  float4 x = vload4(i, a), y = vload4(i, b), z = vload4(i, c);
  vstore4(clamp(x, fmin(y, z), fmax(y, z)), i, o);
  int4 lt = isless(x, y);
  vstore4(lt, i, r);
  vstore4(select(x, y, lt), i, o + 4 * get_global_size(0));
  r[4 * get_global_size(0) + 2 * i] = any(lt);
  r[4 * get_global_size(0) + 2 * i + 1] = all(lt);
  // geometric on finite data
  float4 p = fmin(fmax(x, -10.0f), 10.0f), q = fmin(fmax(y, -10.0f), 10.0f);
  p = isnan(p) ? 1.0f : p; q = isnan(q) ? 2.0f : q;
  global float *g = o + 8 * get_global_size(0) + 10 * i;
  g[0] = dot(p, q);
  g[1] = length(p);
  g[2] = distance(p, q);
  float4 n = normalize(p);
  g[3] = n.x; g[4] = n.y; g[5] = n.z; g[6] = n.w;
  float3 cr = cross(p.xyz, q.xyz);
  g[7] = cr.x; g[8] = cr.y; g[9] = cr.z;
}
)";
  cl_program P = E.build(Src);
  constexpr size_t N = 1024;
  auto A = floatsWithSpecials(N, 1), B = floatsWithSpecials(N, 2),
       C = floatsWithSpecials(N, 3);
  cl_mem MA = E.buffer(A), MB = E.buffer(B), MC = E.buffer(C);
  cl_mem MO = E.buffer(std::vector<float>(N * 10)),
         MR = E.buffer(std::vector<int>(N * 12));
  E.run(P, "scalar", {MA, MB, MC, MO, MR}, N);
  auto F = E.read<float>(MO, N * 10);
  auto K = E.read<int>(MR, N * 12);
  int Bad = 0;
  for (size_t I = 0; I < N && Bad < 10; ++I) {
    float X = A[I], Y = B[I], Z = C[I];
    float Lo = std::fmin(Y, Z), Hi = std::fmax(Y, Z);
    float T = std::fabs(Z) * 0.0625f;
    float E0 = Lo - 1, E1 = Hi + 1;
    float S = std::fmin(std::fmax((X - E0) / (E1 - E0), 0.0f), 1.0f);
    uint32_t UX, UY, UZ;
    std::memcpy(&UX, &X, 4);
    std::memcpy(&UY, &Y, 4);
    std::memcpy(&UZ, &Z, 4);
    uint32_t UB = (UX & ~UZ) | (UY & UZ);
    float BS;
    std::memcpy(&BS, &UB, 4);
    struct {
      float Want;
      float Tol;
      bool Check;
    } Fs[10] = {
        // max/min/clamp may return either zero for (+0, -0).
        {std::fmin(std::fmax(X, Lo), Hi), 1e-30f, !std::isnan(X) && Lo <= Hi},
        {float(X * (180.0 / 3.14159265358979323846)), 3e-7f, true},
        {float(X * (3.14159265358979323846 / 180.0)), 3e-7f, true},
        {X + (Y - X) * T, 1e-5f,
         std::isfinite(X) && std::isfinite(Y) && T <= 1},
        {X < Y ? 0.0f : 1.0f, 0, !std::isnan(X) && !std::isnan(Y)},
        {S * S * (3 - 2 * S), 1e-5f,
         std::isfinite(X) && std::isfinite(E0) && std::isfinite(E1) &&
             std::isfinite(E1 - E0)},
        {X > 0           ? 1.0f
         : X < 0         ? -1.0f
         : std::isnan(X) ? 0.0f
                         : X,
         0, true},
        {std::fmax(X, Y), 1e-30f, !std::isnan(X) && !std::isnan(Y)},
        {std::fmin(X, Y), 1e-30f, !std::isnan(X) && !std::isnan(Y)},
        {BS, 0, true},
    };
    for (int J = 0; J < 10; ++J)
      if (Fs[J].Check && !sameFloat(F[I * 10 + J], Fs[J].Want, Fs[J].Tol)) {
        ++Bad;
        FAIL_CHECK("common #" << J << " x=" << X << " y=" << Y << " z=" << Z
                              << " got " << F[I * 10 + J] << " want "
                              << Fs[J].Want);
      }
    int Want[12] = {
        X == Y,           X != Y,          X > Y,
        X >= Y,           X < Y,           X <= Y,
        std::isnan(X),    std::isinf(X),   std::isfinite(X),
        std::isnormal(X), std::signbit(X), std::isnan(X) || std::isnan(Y)};
    for (int J = 0; J < 12; ++J)
      if (K[I * 12 + J] != Want[J]) {
        ++Bad;
        FAIL_CHECK("relational #" << J << " x=" << X << " y=" << Y << " got "
                                  << K[I * 12 + J]);
      }
  }
  CHECK(Bad == 0);

  cl_mem VO = E.buffer(std::vector<float>(N * 8 + N / 4 * 10)),
         VR = E.buffer(std::vector<int>(N * 4 + N / 2));
  E.run(P, "vec", {MA, MB, MC, VO, VR}, N / 4);
  auto VF = E.read<float>(VO, N * 8 + N / 4 * 10);
  auto VK = E.read<int>(VR, N + N / 2);
  Bad = 0;
  for (size_t I = 0; I < N && Bad < 10; ++I) {
    float X = A[I], Y = B[I], Z = C[I];
    float Lo = std::fmin(Y, Z), Hi = std::fmax(Y, Z);
    if (!std::isnan(X) && Lo <= Hi && VF[I] != std::fmin(std::fmax(X, Lo), Hi))
      ++Bad;
    int Lt = X < Y ? -1 : 0;
    Bad += VK[I] != Lt;
    Bad += !sameFloat(VF[N + I], Lt ? Y : X, 0);
  }
  for (size_t I = 0; I < N / 4; ++I) {
    bool Any = false, All = true;
    double Dot = 0, Len = 0, Dist = 0;
    float Pp[4], Qq[4];
    for (int J = 0; J < 4; ++J) {
      bool L = A[4 * I + J] < B[4 * I + J];
      Any |= L;
      All &= L;
      auto Fix = [](float V, float Nan) {
        float R = std::fmin(std::fmax(V, -10.0f), 10.0f); // NaN -> -10
        return std::isnan(R) ? Nan : R;
      };
      Pp[J] = Fix(A[4 * I + J], 1.0f);
      Qq[J] = Fix(B[4 * I + J], 2.0f);
      Dot += double(Pp[J]) * Qq[J];
      Len += double(Pp[J]) * Pp[J];
      Dist += (double(Pp[J]) - Qq[J]) * (double(Pp[J]) - Qq[J]);
    }
    Bad += VK[N + 2 * I] != int(Any);
    Bad += VK[N + 2 * I + 1] != int(All);
    const float *G = &VF[2 * N + 10 * I];
    auto Near = [](float Got, double Want, double Tol) {
      return std::fabs(Got - Want) <= Tol * std::max(1.0, std::fabs(Want));
    };
    if (!Near(G[0], Dot, 1e-5) || !Near(G[1], std::sqrt(Len), 1e-6) ||
        !Near(G[2], std::sqrt(Dist), 1e-5)) {
      ++Bad;
      FAIL_CHECK("dot/length/distance "
                 << G[0] << " " << G[1] << " " << G[2] << " want " << Dot << " "
                 << std::sqrt(Len) << " " << std::sqrt(Dist));
    }
    for (int J = 0; J < 4; ++J)
      if (Len > 0 && !Near(G[3 + J], Pp[J] / std::sqrt(Len), 1e-6))
        ++Bad;
    double Cr[3] = {double(Pp[1]) * Qq[2] - double(Pp[2]) * Qq[1],
                    double(Pp[2]) * Qq[0] - double(Pp[0]) * Qq[2],
                    double(Pp[0]) * Qq[1] - double(Pp[1]) * Qq[0]};
    for (int J = 0; J < 3; ++J)
      if (std::fabs(G[7 + J] - Cr[J]) > 1e-4)
        ++Bad;
  }
  CHECK(Bad == 0);
}

// ---------------------------------------------------------------------------
// 6.15.9 vloadn/vstoren, 6.15.10 vload_half/vstore_half, 6.15.11 shuffle

TEST_CASE("6.15.9: vloadn and vstoren in global, constant, local and "
          "private memory",
          "[builtins]") {
  Env E;
  const char *Src = R"(
kernel void vl(global const float *a, constant float *c, global float *o) {
  size_t i = get_global_id(0);
  local float lb[16];
  private float pb[16];
  vstore16(vload16(i, a), 0, lb);
  vstore16(vload16(0, lb), 0, pb);
  global float *r = o + 32 * i;
  vstore8(vload8(1, pb), 0, r);
  vstore4(vload4(1, pb), 2, r);
  vstore3(vload3(1, pb), 4, r);
  vstore2(vload2(7, pb), 8, r);
  vstore4(vload4(i, c), 5, r);
  vstore3(vload3(i, c), 8, r);
}
kernel void vi(global const int *a, global long *o) {
  size_t i = get_global_id(0);
  int3 x = vload3(i, a);
  vstore3(convert_long3(x), i, o);
}
)";
  cl_program P = E.build(Src);
  constexpr size_t N = 64;
  auto A = randomRange(N * 16, -100, 100, 5);
  cl_mem MA = E.buffer(A), MO = E.buffer(std::vector<float>(N * 32, -1));
  E.run(P, "vl", {MA, MA, MO}, N, 1);
  auto O = E.read<float>(MO, N * 32);
  int Bad = 0;
  for (size_t I = 0; I < N; ++I) {
    const float *R = &O[32 * I], *S = &A[16 * I];
    for (int J = 0; J < 8; ++J)
      Bad += R[J] != S[8 + J];
    for (int J = 0; J < 4; ++J)
      Bad += R[8 + J] != S[4 + J];
    for (int J = 0; J < 3; ++J)
      Bad += R[12 + J] != S[3 + J];
    for (int J = 0; J < 2; ++J)
      Bad += R[16 + J] != S[14 + J];
    for (int J = 0; J < 4; ++J)
      Bad += R[20 + J] != A[4 * I + J];
    for (int J = 0; J < 3; ++J)
      Bad += R[24 + J] != A[3 * I + J];
  }
  CHECK(Bad == 0);
  auto Ints = randomInts<int32_t>(N * 3, 9);
  cl_mem MI = E.buffer(Ints), ML = E.buffer(std::vector<int64_t>(N * 3));
  E.run(P, "vi", {MI, ML}, N);
  auto L = E.read<int64_t>(ML, N * 3);
  Bad = 0;
  for (size_t I = 0; I < N * 3; ++I)
    Bad += L[I] != Ints[I];
  CHECK(Bad == 0);
}

namespace {
uint16_t halfBits(_Float16 H) {
  uint16_t B;
  std::memcpy(&B, &H, 2);
  return B;
}
float halfToFloat(uint16_t B) {
  _Float16 H;
  std::memcpy(&H, &B, 2);
  return float(H);
}
/// float -> half bits with rounding \p Mode (0 rte, 1 rtz, 2 rtp, 3 rtn):
/// round to nearest, then step one half ulp if that went the wrong way.
uint16_t toHalf(float X, int Mode) {
  uint16_t B = halfBits(_Float16(X));
  if (std::isnan(X) || Mode == 0)
    return B;
  float Back = halfToFloat(B);
  if (Back == X)
    return B;
  auto Up = [](uint16_t V) -> uint16_t { // toward +inf
    if (V == 0x8000)
      return 1;
    return (V & 0x8000) ? V - 1 : V + 1;
  };
  auto Down = [](uint16_t V) -> uint16_t { // toward -inf
    if (V == 0)
      return 0x8001;
    return (V & 0x8000) ? V + 1 : V - 1;
  };
  bool TooBig = Back > X; // includes overflow to +inf
  if (Mode == 1)
    return (X > 0) == TooBig ? (TooBig ? Down(B) : Up(B)) : B;
  if (Mode == 2)
    return TooBig ? B : Up(B);
  return TooBig ? Down(B) : B;
}
} // namespace

TEST_CASE("6.15.10: vstore_half with every rounding mode and vload_half "
          "round-trip",
          "[builtins]") {
  Env E;
  const char *Src = R"(
kernel void st(global const float *a, global half *o) {
  size_t i = get_global_id(0);
  float x = a[i];
  vstore_half(x, 5 * i, o);
  vstore_half_rte(x, 5 * i + 1, o);
  vstore_half_rtz(x, 5 * i + 2, o);
  vstore_half_rtp(x, 5 * i + 3, o);
  vstore_half_rtn(x, 5 * i + 4, o);
}
kernel void st4(global const float *a, global half *o) {
  size_t i = get_global_id(0);
  vstore_half4_rtz(vload4(i, a), i, o);
}
kernel void ld(global const half *h, global float *o) {
  size_t i = get_global_id(0);
  o[i] = vload_half(i, h);
}
kernel void ld4(global const half *h, global float *o) {
  size_t i = get_global_id(0);
  vstore4(vload_half4(i, h), i, o);
}
)";
  cl_program P = E.build(Src);
  constexpr size_t N = 4096;
  std::vector<float> A(N);
  std::mt19937 G(3);
  std::uniform_real_distribution<double> U(-30, 17);
  for (size_t I = 0; I < N; ++I) {
    double Mag = std::exp2(U(G));
    A[I] = float((G() & 1) ? -Mag : Mag);
  }
  const float Specials[] = {0.0f,   -0.0f,    INFINITY, -INFINITY, NAN,
                            65504,  65520,    -65520,   65519.99f, 1e-8f,
                            -1e-8f, 2.98e-8f, 1e-40f,   -1e-40f,   6.1e-5f};
  std::copy(std::begin(Specials), std::end(Specials), A.begin());
  cl_mem MA = E.buffer(A), MH = E.buffer(std::vector<uint16_t>(N * 5));
  E.run(P, "st", {MA, MH}, N);
  auto H = E.read<uint16_t>(MH, N * 5);
  int Bad = 0;
  for (size_t I = 0; I < N && Bad < 10; ++I)
    for (int M = 0; M < 5; ++M) {
      uint16_t Want = toHalf(A[I], M == 0 ? 0 : M - 1);
      uint16_t Got = H[I * 5 + M];
      bool Ok = std::isnan(A[I]) ? (Got & 0x7c00) == 0x7c00 && (Got & 0x3ff)
                                 : Got == Want;
      if (!Ok) {
        ++Bad;
        FAIL_CHECK("vstore_half mode " << M << " x=" << A[I] << " got 0x"
                                       << std::hex << Got << " want 0x" << Want
                                       << std::dec);
      }
    }
  CHECK(Bad == 0);

  cl_mem MH4 = E.buffer(std::vector<uint16_t>(N));
  E.run(P, "st4", {MA, MH4}, N / 4);
  auto H4 = E.read<uint16_t>(MH4, N);
  Bad = 0;
  for (size_t I = 0; I < N; ++I)
    if (!std::isnan(A[I]))
      Bad += H4[I] != toHalf(A[I], 1);
  CHECK(Bad == 0);

  // Every half bit pattern loads exactly.
  std::vector<uint16_t> All(65536);
  for (size_t I = 0; I < All.size(); ++I)
    All[I] = uint16_t(I);
  cl_mem MAll = E.buffer(All), MF = E.buffer(std::vector<float>(65536)),
         MF4 = E.buffer(std::vector<float>(65536));
  E.run(P, "ld", {MAll, MF}, 65536);
  E.run(P, "ld4", {MAll, MF4}, 65536 / 4);
  auto F = E.read<float>(MF, 65536), F4 = E.read<float>(MF4, 65536);
  Bad = 0;
  for (size_t I = 0; I < 65536; ++I) {
    float Want = halfToFloat(uint16_t(I));
    for (float Got : {F[I], F4[I]}) {
      bool Ok = std::isnan(Want)
                    ? std::isnan(Got)
                    : Got == Want && std::signbit(Got) == std::signbit(Want);
      Bad += !Ok;
    }
  }
  CHECK(Bad == 0);
}

TEST_CASE("6.15.11: shuffle and shuffle2 select elements by mask",
          "[builtins]") {
  Env E;
  const char *Src = R"(
kernel void sh(global const float *a, global const uint *m, global float *o,
               global const int *b, global int *p) {
  size_t i = get_global_id(0);
  vstore4(shuffle(vload4(i, a), vload4(i, m)), i, o);
  vstore8(shuffle(vload16(i, a), vload8(i, m)), i, o + 4 * get_global_size(0));
  int8 x = vload8(2 * i, b), y = vload8(2 * i + 1, b);
  vstore16(shuffle2(x, y, vload16(i, m)), i, p);
}
)";
  cl_program P = E.build(Src);
  constexpr size_t N = 64;
  auto A = randomRange(N * 16, -10, 10, 4);
  auto M = randomInts<uint32_t>(N * 16, 7);
  auto B = randomInts<int32_t>(N * 16, 8);
  cl_mem MA = E.buffer(A), MM = E.buffer(M), MB = E.buffer(B),
         MO = E.buffer(std::vector<float>(N * 12)),
         MP = E.buffer(std::vector<int32_t>(N * 16));
  E.run(P, "sh", {MA, MM, MO, MB, MP}, N);
  auto O = E.read<float>(MO, N * 12);
  auto Pv = E.read<int32_t>(MP, N * 16);
  int Bad = 0;
  for (size_t I = 0; I < N; ++I) {
    for (int J = 0; J < 4; ++J)
      Bad += O[4 * I + J] != A[4 * I + (M[4 * I + J] % 4)];
    for (int J = 0; J < 8; ++J)
      Bad += O[4 * N + 8 * I + J] != A[16 * I + (M[8 * I + J] % 16)];
    for (int J = 0; J < 16; ++J)
      Bad += Pv[16 * I + J] != B[16 * I + (M[16 * I + J] % 16)];
  }
  CHECK(Bad == 0);
}

// ---------------------------------------------------------------------------
// 6.4.3 Explicit conversions

#include <cfenv>

namespace {
/// \p X converted to float with the host FPU in rounding mode \p Mode.
template <typename S> float hostToFloat(S X, int Mode) {
  static const int Modes[] = {FE_TONEAREST, FE_TONEAREST, FE_TOWARDZERO,
                              FE_UPWARD, FE_DOWNWARD};
  int Old = std::fegetround();
  std::fesetround(Modes[Mode]);
  volatile S V = X;
  volatile float F = float(V);
  std::fesetround(Old);
  return F;
}
/// float -> integer type T, saturated, with rounding \p Mode (0 default =
/// rtz, 1 rte, 2 rtz, 3 rtp, 4 rtn).
template <typename T> T hostToIntSat(double X, int Mode) {
  if (std::isnan(X))
    return 0;
  double R = Mode == 1   ? std::nearbyint(X)
             : Mode == 3 ? std::ceil(X)
             : Mode == 4 ? std::floor(X)
                         : std::trunc(X);
  if (R <= (double)std::numeric_limits<T>::min())
    return std::numeric_limits<T>::min();
  if (R >= std::ldexp(1.0, std::numeric_limits<T>::digits))
    return std::numeric_limits<T>::max();
  return T(R);
}
} // namespace

TEST_CASE("6.4.3: convert_ with saturation and every rounding mode",
          "[builtins]") {
  Env E;
  const char *Src = R"(
#define CONV_F2I(T, i, x, o)                                                  \
  o[0] = convert_##T##_sat(x); o[1] = convert_##T##_sat_rte(x);               \
  o[2] = convert_##T##_sat_rtz(x); o[3] = convert_##T##_sat_rtp(x);           \
  o[4] = convert_##T##_sat_rtn(x);
kernel void f2i(global const float *a, global int *oi, global uchar *ou,
                global short *os, global long *ol, global ulong *oul) {
  size_t i = get_global_id(0);
  float x = a[i];
  CONV_F2I(int, i, x, (oi + 5 * i))
  CONV_F2I(uchar, i, x, (ou + 5 * i))
  CONV_F2I(short, i, x, (os + 5 * i))
  CONV_F2I(long, i, x, (ol + 5 * i))
  CONV_F2I(ulong, i, x, (oul + 5 * i))
}
kernel void f2i4(global const float *a, global int *oi) {
  size_t i = get_global_id(0);
  float4 x = vload4(i, a);
  vstore4(convert_int4_sat_rte(x), i, oi);
}
#define CONV_I2F(x, o)                                                        \
  o[0] = convert_float(x); o[1] = convert_float_rte(x);                       \
  o[2] = convert_float_rtz(x); o[3] = convert_float_rtp(x);                   \
  o[4] = convert_float_rtn(x);
kernel void i2f(global const int *a, global const uint *b,
                global const long *c, global const ulong *d,
                global const double *e, global float *o) {
  size_t i = get_global_id(0);
  global float *r = o + 25 * i;
  CONV_I2F(a[i], r)
  CONV_I2F(b[i], (r + 5))
  CONV_I2F(c[i], (r + 10))
  CONV_I2F(d[i], (r + 15))
  CONV_I2F(e[i], (r + 20))
}
kernel void i2i(global const int *a, global const long *b, global char *o,
                global ushort *p, global uint *q) {
  size_t i = get_global_id(0);
  o[2 * i] = convert_char_sat(a[i]);
  o[2 * i + 1] = convert_char(a[i]);
  p[i] = convert_ushort_sat(b[i]);
  q[i] = convert_uint_sat(b[i]);
}
)";
  cl_program P = E.build(Src);
  constexpr size_t N = 2048;
  std::vector<float> A = randomRange(N, -3e9f, 3e9f, 21);
  std::mt19937 G(5);
  for (size_t I = 0; I < N; I += 3) // values near integers and halves
    A[I] = float(int(G() % 2001) - 1000) * 0.25f;
  const float Sp[] = {
      NAN,           INFINITY,      -INFINITY,      0.5f,    -0.5f,  1.5f,
      2.5f,          -2.5f,         255.5f,         256.0f,  -1e30f, 1e30f,
      2147483520.0f, 2147483648.0f, -2147483648.0f, 9.3e18f, 1.9e19f};
  std::copy(std::begin(Sp), std::end(Sp), A.begin());
  cl_mem MA = E.buffer(A);
  cl_mem OI = E.buffer(std::vector<int32_t>(5 * N)),
         OU = E.buffer(std::vector<uint8_t>(5 * N)),
         OS = E.buffer(std::vector<int16_t>(5 * N)),
         OL = E.buffer(std::vector<int64_t>(5 * N)),
         OUL = E.buffer(std::vector<uint64_t>(5 * N));
  E.run(P, "f2i", {MA, OI, OU, OS, OL, OUL}, N);
  auto RI = E.read<int32_t>(OI, 5 * N);
  auto RU = E.read<uint8_t>(OU, 5 * N);
  auto RS = E.read<int16_t>(OS, 5 * N);
  auto RL = E.read<int64_t>(OL, 5 * N);
  auto RUL = E.read<uint64_t>(OUL, 5 * N);
  int Bad = 0;
  for (size_t I = 0; I < N && Bad < 10; ++I)
    for (int M = 0; M < 5; ++M) {
      bool Ok = RI[5 * I + M] == hostToIntSat<int32_t>(A[I], M) &&
                RU[5 * I + M] == hostToIntSat<uint8_t>(A[I], M) &&
                RS[5 * I + M] == hostToIntSat<int16_t>(A[I], M) &&
                RL[5 * I + M] == hostToIntSat<int64_t>(A[I], M) &&
                RUL[5 * I + M] == hostToIntSat<uint64_t>(A[I], M);
      if (!Ok) {
        ++Bad;
        FAIL_CHECK("float->int mode "
                   << M << " x=" << A[I] << " int " << RI[5 * I + M]
                   << " uchar " << +RU[5 * I + M] << " long " << RL[5 * I + M]
                   << " ulong " << RUL[5 * I + M]);
      }
    }
  CHECK(Bad == 0);
  cl_mem OI4 = E.buffer(std::vector<int32_t>(N));
  E.run(P, "f2i4", {MA, OI4}, N / 4);
  auto RI4 = E.read<int32_t>(OI4, N);
  Bad = 0;
  for (size_t I = 0; I < N; ++I)
    Bad += RI4[I] != hostToIntSat<int32_t>(A[I], 1);
  CHECK(Bad == 0);

  auto Ia = randomInts<int32_t>(N, 31);
  auto Ib = randomInts<uint32_t>(N, 32);
  auto Ic = randomInts<int64_t>(N, 33);
  auto Id = randomInts<uint64_t>(N, 34);
  std::vector<double> De(N);
  std::uniform_real_distribution<double> UD(-1e40, 1e40);
  for (size_t I = 0; I < N; ++I)
    De[I] = I % 2 ? UD(G) : UD(G) * 1e-70;
  De[0] = 3.4028235677973366e38; // just above FLT_MAX
  De[1] = -3.4028235677973366e38;
  De[2] = 1e-50;
  cl_mem MIa = E.buffer(Ia), MIb = E.buffer(Ib), MIc = E.buffer(Ic),
         MId = E.buffer(Id), MDe = E.buffer(De),
         MO = E.buffer(std::vector<float>(25 * N));
  E.run(P, "i2f", {MIa, MIb, MIc, MId, MDe, MO}, N);
  auto RF = E.read<float>(MO, 25 * N);
  Bad = 0;
  for (size_t I = 0; I < N && Bad < 10; ++I)
    for (int M = 0; M < 5; ++M) {
      float Want[5] = {hostToFloat(Ia[I], M), hostToFloat(Ib[I], M),
                       hostToFloat(Ic[I], M), hostToFloat(Id[I], M),
                       hostToFloat(De[I], M)};
      for (int S = 0; S < 5; ++S)
        if (RF[25 * I + 5 * S + M] != Want[S]) {
          ++Bad;
          FAIL_CHECK("to float: source #" << S << " mode " << M << " item " << I
                                          << " got " << RF[25 * I + 5 * S + M]
                                          << " want " << Want[S]);
        }
    }
  CHECK(Bad == 0);

  cl_mem O8 = E.buffer(std::vector<int8_t>(2 * N)),
         O16 = E.buffer(std::vector<uint16_t>(N)),
         O32 = E.buffer(std::vector<uint32_t>(N));
  E.run(P, "i2i", {MIa, MIc, O8, O16, O32}, N);
  auto R8 = E.read<int8_t>(O8, 2 * N);
  auto R16 = E.read<uint16_t>(O16, N);
  auto R32 = E.read<uint32_t>(O32, N);
  Bad = 0;
  for (size_t I = 0; I < N; ++I) {
    Bad += R8[2 * I] != std::clamp<int32_t>(Ia[I], -128, 127);
    Bad += R8[2 * I + 1] != int8_t(Ia[I]);
    Bad += R16[I] != std::clamp<int64_t>(Ic[I], 0, 65535);
    Bad += R32[I] != std::clamp<int64_t>(Ic[I], 0, 4294967295LL);
  }
  CHECK(Bad == 0);
}

// ---------------------------------------------------------------------------
// 6.15.12.9 atomic_* (and cl_khr_int64_base_atomics atom_*)

TEST_CASE("6.15.12.9: 32-bit atomic_* and 64-bit atom_* on global memory "
          "are atomic across work-groups",
          "[builtins]") {
  Env E;
  const char *Src = R"(
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void at(global int *c, global uint *u, global long *l,
               global float *f) {
  int i = (int)get_global_id(0);
  atomic_inc(&c[0]);
  atomic_add(&c[1], i);
  atomic_sub(&c[2], i);
  atomic_dec(&c[3]);
  atomic_max(&c[4], (i * 7919) % 10007 - 5000);
  atomic_min(&c[5], (i * 7919) % 10007 - 5000);
  atomic_or(&u[0], 1u << (i % 32));
  atomic_and(&u[1], ~(1u << (i % 31)));
  atomic_xor(&u[2], (uint)i);
  atomic_max(&u[3], (uint)i * 3u);
  atomic_min(&u[4], (uint)i + 17u);
  // cmpxchg loop: a lock-free add of 2.
  int old = c[6], prev;
  while ((prev = atomic_cmpxchg(&c[6], old, old + 2)) != old)
    old = prev;
  atom_add(&l[0], (long)i << 20);
  atom_inc(&l[1]);
  atom_add(&c[7], 1);
  atom_xor(&u[5], 1u << (i % 32));
  atom_max(&l[2], (long)i * 100000000000L);
  atom_xor(&l[3], (long)i << 33);
  atomic_xchg(&f[i], 2.0f * i);
}
)";
  cl_program P = E.build(Src);
  constexpr int N = 20480;
  cl_mem C = E.buffer(
             std::vector<int32_t>{0, 0, 0, 0, INT32_MIN, INT32_MAX, 0, 0}),
         U = E.buffer(
             std::vector<uint32_t>{0, 0xffffffffu, 0, 0, 0xffffffffu, 0}),
         L = E.buffer(std::vector<int64_t>{0, 0, INT64_MIN, 0}),
         F = E.buffer(std::vector<float>(N));
  E.run(P, "at", {C, U, L, F}, N, 64);
  auto RC = E.read<int32_t>(C, 8);
  auto RU = E.read<uint32_t>(U, 6);
  auto RL = E.read<int64_t>(L, 4);
  auto RF = E.read<float>(F, N);
  int64_t Sum = int64_t(N) * (N - 1) / 2;
  int Max = INT32_MIN, Min = INT32_MAX;
  uint32_t Xor = 0;
  int64_t LXor = 0;
  for (int I = 0; I < N; ++I) {
    Max = std::max(Max, (I * 7919) % 10007 - 5000);
    Min = std::min(Min, (I * 7919) % 10007 - 5000);
    Xor ^= uint32_t(I);
    LXor ^= int64_t(I) << 33;
  }
  CHECK(RC[0] == N);
  CHECK(RC[1] == int32_t(Sum));
  CHECK(RC[2] == int32_t(-Sum));
  CHECK(RC[3] == -N);
  CHECK(RC[4] == Max);
  CHECK(RC[5] == Min);
  CHECK(RC[6] == 2 * N);
  CHECK(RU[0] == 0xffffffffu);
  CHECK(RU[1] == 0x80000000u);
  CHECK(RU[2] == Xor);
  CHECK(RU[3] == uint32_t(N - 1) * 3u);
  CHECK(RU[4] == 17u);
  CHECK(RC[7] == N);
  CHECK(RU[5] == 0u); // N is a multiple of 64: every bit flipped evenly
  CHECK(RL[0] == Sum << 20);
  CHECK(RL[1] == N);
  CHECK(RL[2] == int64_t(N - 1) * 100000000000LL);
  CHECK(RL[3] == LXor);
  int Bad = 0;
  for (int I = 0; I < N; ++I)
    Bad += RF[I] != 2.0f * I;
  CHECK(Bad == 0);
}

TEST_CASE("6.15.12.9: atomic_* on local memory within a work-group",
          "[builtins]") {
  Env E;
  const char *Src = R"(
kernel void la(global int *o) {
  local int cnt, sum, mx;
  local uint mask;
  if (get_local_id(0) == 0) {
    cnt = 0; sum = 0; mask = 0; mx = -1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int i = (int)get_local_id(0);
  atomic_inc(&cnt);
  atomic_add(&sum, i);
  atomic_or(&mask, 1u << (i % 32));
  atom_inc(&cnt);
  atomic_max(&mx, i);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i == 0) {
    size_t g = get_group_id(0);
    o[4 * g] = cnt; o[4 * g + 1] = sum; o[4 * g + 2] = (int)mask;
    o[4 * g + 3] = mx;
  }
}
)";
  cl_program P = E.build(Src);
  constexpr size_t Groups = 16, Local = 64;
  cl_mem O = E.buffer(std::vector<int32_t>(4 * Groups, -1));
  E.run(P, "la", {O}, Groups * Local, Local);
  auto R = E.read<int32_t>(O, 4 * Groups);
  for (size_t G = 0; G < Groups; ++G) {
    CHECK(R[4 * G] == int(2 * Local));
    CHECK(R[4 * G + 1] == int(Local * (Local - 1) / 2));
    CHECK(R[4 * G + 2] == -1);
    CHECK(R[4 * G + 3] == int(Local - 1));
  }
}

// ---------------------------------------------------------------------------
// 6.15.14 async copies, 6.15.11 fences

TEST_CASE("6.15.14: async_work_group_copy and strided copy through local "
          "memory",
          "[builtins]") {
  Env E;
  const char *Src = R"(
kernel void ac(global const float4 *a, global float4 *o, global int *s) {
  local float4 tile[32];
  size_t g = get_group_id(0), l = get_local_id(0);
  event_t e = async_work_group_copy(tile, a + 32 * g, 32, 0);
  wait_group_events(1, &e);
  tile[l] *= 2.0f;
  mem_fence(CLK_LOCAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(o + 32 * g, tile, 32, 0);
  wait_group_events(1, &e);
  local int col[32];
  e = async_work_group_strided_copy(col, s + g, 32, 4, 0);
  wait_group_events(1, &e);
  prefetch(a, 32);
  barrier(CLK_LOCAL_MEM_FENCE);
  col[l] += 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(s + g, col, 32, 4, 0);
  wait_group_events(1, &e);
}
)";
  cl_program P = E.build(Src);
  constexpr size_t Groups = 4, Local = 32;
  auto A = randomRange(Groups * Local * 4, -10, 10, 77);
  auto S = randomInts<int32_t>(Groups * Local, 78);
  for (int32_t &V : S)
    V /= 2;
  cl_mem MA = E.buffer(A), MO = E.buffer(std::vector<float>(A.size())),
         MS = E.buffer(S);
  E.run(P, "ac", {MA, MO, MS}, Groups * Local, Local);
  auto O = E.read<float>(MO, A.size());
  auto RS = E.read<int32_t>(MS, S.size());
  int Bad = 0;
  for (size_t I = 0; I < A.size(); ++I)
    Bad += O[I] != 2.0f * A[I];
  for (size_t I = 0; I < S.size(); ++I)
    Bad += RS[I] != S[I] + 1;
  CHECK(Bad == 0);
}

TEST_CASE("6.15.12: C11-style atomic_*_explicit functions", "[builtins]") {
  Env E;
  const char *Src = R"(
kernel void c11(global atomic_int *c, global atomic_ulong *l,
                global atomic_float *f, global int *o) {
  int i = (int)get_global_id(0);
  atomic_fetch_add_explicit(&c[0], 1, memory_order_relaxed,
                            memory_scope_work_group);
  atomic_fetch_max_explicit(&c[1], i, memory_order_release,
                            memory_scope_work_group);
  atomic_fetch_add_explicit(&l[0], (ulong)i << 32, memory_order_relaxed,
                            memory_scope_work_group);
  int expected = atomic_load_explicit(&c[2], memory_order_acquire,
                                      memory_scope_work_group);
  while (!atomic_compare_exchange_weak_explicit(
      &c[2], &expected, expected + 3, memory_order_release,
      memory_order_relaxed, memory_scope_work_group))
    ;
  float old = atomic_exchange_explicit(&f[i], 1.5f * i, memory_order_relaxed,
                                       memory_scope_work_group);
  o[i] = (int)old;
}
)";
  cl_program P = E.build(Src, "-cl-std=CL3.0");
  constexpr size_t N = 4096;
  cl_mem C = E.buffer(std::vector<int32_t>{0, -1, 7}),
         L = E.buffer(std::vector<uint64_t>{5}),
         F = E.buffer(std::vector<float>(N, 4.0f)),
         O = E.buffer(std::vector<int32_t>(N));
  E.run(P, "c11", {C, L, F, O}, N, 64);
  auto RC = E.read<int32_t>(C, 3);
  auto RL = E.read<uint64_t>(L, 1);
  auto RF = E.read<float>(F, N);
  auto RO = E.read<int32_t>(O, N);
  CHECK(RC[0] == int(N));
  CHECK(RC[1] == int(N - 1));
  CHECK(RC[2] == int(7 + 3 * N));
  CHECK(RL[0] == 5 + (uint64_t(N) * (N - 1) / 2 << 32));
  int Bad = 0;
  for (size_t I = 0; I < N; ++I)
    Bad += RF[I] != 1.5f * I || RO[I] != 4;
  CHECK(Bad == 0);
}

TEST_CASE("6.15.4: upsample, mul24 and mad24", "[builtins]") {
  Env E;
  const char *Src = R"(
kernel void up(global const char *c, global const uchar *uc,
               global const short *s, global const ushort *us,
               global const int *i, global const uint *ui, global short *o16,
               global ushort *ou16, global int *o32, global uint *ou32,
               global long *o64, global ulong *ou64) {
  size_t g = get_global_id(0);
  o16[g] = upsample(c[g], uc[g]);
  ou16[g] = upsample(uc[g], uc[g + 1]);
  o32[g] = upsample(s[g], us[g]);
  ou32[g] = upsample(us[g], us[g + 1]);
  o64[g] = upsample(i[g], ui[g]);
  ou64[g] = upsample(ui[g], ui[g + 1]);
  int a = i[g] >> 8, b = i[g + 1] >> 8; // 24-bit signed
  uint ua = ui[g] >> 8, ub = ui[g + 1] >> 8;
  int4 v = mad24((int4)(a), (int4)(b), (int4)(i[g]));
  o32[g + 1024] = mul24(a, b);
  o32[g + 2048] = v.w;
  ou32[g + 1024] = mul24(ua, ub);
  ou32[g + 2048] = mad24(ua, ub, ui[g]);
}
)";
  cl_program P = E.build(Src);
  constexpr size_t N = 1024;
  auto C = randomInts<int8_t>(N + 1, 1);
  auto UC = randomInts<uint8_t>(N + 1, 2);
  auto S = randomInts<int16_t>(N + 1, 3);
  auto US = randomInts<uint16_t>(N + 1, 4);
  auto I = randomInts<int32_t>(N + 1, 5);
  auto UI = randomInts<uint32_t>(N + 1, 6);
  cl_mem Args[] = {E.buffer(C),
                   E.buffer(UC),
                   E.buffer(S),
                   E.buffer(US),
                   E.buffer(I),
                   E.buffer(UI),
                   E.buffer(std::vector<int16_t>(N)),
                   E.buffer(std::vector<uint16_t>(N)),
                   E.buffer(std::vector<int32_t>(3 * N)),
                   E.buffer(std::vector<uint32_t>(3 * N)),
                   E.buffer(std::vector<int64_t>(N)),
                   E.buffer(std::vector<uint64_t>(N))};
  E.run(P, "up", std::vector<cl_mem>(std::begin(Args), std::end(Args)), N);
  auto O16 = E.read<int16_t>(Args[6], N);
  auto OU16 = E.read<uint16_t>(Args[7], N);
  auto O32 = E.read<int32_t>(Args[8], 3 * N);
  auto OU32 = E.read<uint32_t>(Args[9], 3 * N);
  auto O64 = E.read<int64_t>(Args[10], N);
  auto OU64 = E.read<uint64_t>(Args[11], N);
  int Bad = 0;
  for (size_t G = 0; G < N; ++G) {
    Bad += O16[G] != int16_t(uint16_t(uint8_t(C[G])) << 8 | UC[G]);
    Bad += OU16[G] != uint16_t(UC[G] << 8 | UC[G + 1]);
    Bad += O32[G] != int32_t(uint32_t(uint16_t(S[G])) << 16 | US[G]);
    Bad += OU32[G] != (uint32_t(US[G]) << 16 | US[G + 1]);
    Bad += O64[G] != int64_t(uint64_t(uint32_t(I[G])) << 32 | UI[G]);
    Bad += OU64[G] != (uint64_t(UI[G]) << 32 | UI[G + 1]);
    int32_t A = I[G] >> 8, B = I[G + 1] >> 8;
    uint32_t UA = UI[G] >> 8, UB = UI[G + 1] >> 8;
    Bad += O32[G + N] != int32_t(uint32_t(A) * uint32_t(B));
    Bad +=
        O32[G + 2 * N] != int32_t(uint32_t(A) * uint32_t(B) + uint32_t(I[G]));
    Bad += OU32[G + N] != UA * UB;
    Bad += OU32[G + 2 * N] != UA * UB + UI[G];
  }
  CHECK(Bad == 0);
}

TEST_CASE("6.15.9 (OpenCL C 3.0 generic address space): to_global, "
          "to_local, to_private and get_fence on both execution paths",
          "[builtins]") {
  sched::Env E;
  const char *Src = R"(
    int cls(generic int *p) {
      return (to_global(p) != 0) + (to_local(p) != 0) * 2 +
             (to_private(p) != 0) * 4 + (int)get_fence(p) * 8;
    }
    #define BODY(SYNC)                                                      \
      local int lv[4];                                                      \
      int pv[2];                                                            \
      size_t i = get_global_id(0);                                          \
      pv[0] = (int)i;                                                       \
      pv[1] = 1;                                                            \
      lv[get_local_id(0) % 4] = 1;                                          \
      SYNC;                                                                 \
      o[4 * i] = cls(o + i);                                                \
      o[4 * i + 1] = cls(&lv[1]);                                           \
      o[4 * i + 2] = cls(&pv[i % 2]);                                       \
      o[4 * i + 3] = cls(la);
    kernel void loop_path(global int *o, local int *la) { BODY((void)0) }
    kernel void fiber_path(global int *o, local int *la) {
      BODY(barrier(CLK_LOCAL_MEM_FENCE))
    })";
  for (const char *Name : {"loop_path", "fiber_path"}) {
    INFO(Name);
    cl_kernel K = E.kernel(Src, Name, "-cl-std=CL3.0");
    const size_t G = 64, L = 16;
    cl_mem M = E.buffer(std::vector<int>(4 * G));
    E.arg(K, 0, M);
    E.localArg(K, 1, 64);
    REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
    std::vector<int> R = E.read<int>(M, 4 * G);
    for (size_t I = 0; I < G; ++I) {
      CHECK(R[4 * I] == 1 + 2 * 8);     // global: CLK_GLOBAL_MEM_FENCE
      CHECK(R[4 * I + 1] == 2 + 1 * 8); // local: CLK_LOCAL_MEM_FENCE
      CHECK(R[4 * I + 2] == 4);         // private: no fence needed
      CHECK(R[4 * I + 3] == 2 + 1 * 8); // a __local argument
    }
  }
  cl_bool Generic = CL_FALSE;
  CHECK(clGetDeviceInfo(E.D, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT,
                        sizeof Generic, &Generic, nullptr) == CL_SUCCESS);
  CHECK(Generic == CL_TRUE);
}
