// End-to-end: half precision (cl_khr_fp16, OpenCL C 3.0 __opencl_c_fp16)
// through the ICD loader: the queries, half arithmetic, conversions with
// each rounding mode, math, common, geometric and relational builtins,
// vloadn/vstoren and half kernel arguments, each against a host reference
// that rounds exactly (every half value, enumerated).

#include "SchedulerCommon.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using sched::Env;

namespace {
/// The value of half bits \p H.
double halfValue(uint16_t H) {
  int Sign = H >> 15, Exp = (H >> 10) & 0x1f, Man = H & 0x3ff;
  double V;
  if (Exp == 0x1f)
    V = Man ? std::numeric_limits<double>::quiet_NaN()
            : std::numeric_limits<double>::infinity();
  else if (Exp == 0)
    V = std::ldexp(double(Man), -24);
  else
    V = std::ldexp(double(Man | 0x400), Exp - 25);
  return Sign ? -V : V;
}

enum class Round { Nearest, Zero, Up, Down };

/// \p V rounded to half in mode \p R, as bits: between the two nearest
/// finite halves (found among all of them), or past the largest.
uint16_t toHalf(double V, Round R = Round::Nearest) {
  if (std::isnan(V))
    return 0x7e00;
  bool Neg = std::signbit(V);
  double A = std::fabs(V);
  if (std::isinf(A)) // exact in every mode
    return uint16_t((Neg ? 0x8000 : 0) | 0x7c00);
  // Magnitudes of the non-negative finite halves, in order: bits 0..0x7bff.
  uint16_t Lo = 0, Hi = 0x7bff;
  if (A > 65504.0) {
    bool ToInf = R == Round::Nearest ? A >= 65520.0
                 : R == Round::Zero  ? false
                 : R == Round::Up    ? !Neg
                                     : Neg;
    return uint16_t((Neg ? 0x8000 : 0) | (ToInf ? 0x7c00 : 0x7bff));
  }
  while (Hi - Lo > 1) { // largest Lo with value <= A
    uint16_t Mid = uint16_t((Lo + Hi) / 2);
    (halfValue(Mid) <= A ? Lo : Hi) = Mid;
  }
  if (halfValue(Hi) <= A)
    Lo = Hi;
  uint16_t Mag = Lo;
  if (halfValue(Lo) != A) {
    uint16_t Up = uint16_t(Lo + 1); // 0x7c00 (inf) only past 65504
    switch (R) {
    case Round::Nearest: {
      double DLo = A - halfValue(Lo), DUp = halfValue(Up) - A;
      Mag = DLo < DUp ? Lo : DUp < DLo ? Up : (Lo & 1) ? Up : Lo;
      break;
    }
    case Round::Zero:
      break;
    case Round::Up:
      Mag = Neg ? Lo : Up;
      break;
    case Round::Down:
      Mag = Neg ? Up : Lo;
      break;
    }
  }
  return uint16_t((Neg ? 0x8000 : 0) | Mag);
}

/// Every half bit pattern, NaNs included.
std::vector<uint16_t> allHalves() {
  std::vector<uint16_t> V(65536);
  for (size_t I = 0; I < V.size(); ++I)
    V[I] = uint16_t(I);
  return V;
}

bool sameHalf(uint16_t A, uint16_t B) {
  bool NanA = (A & 0x7fff) > 0x7c00, NanB = (B & 0x7fff) > 0x7c00;
  return NanA || NanB ? NanA && NanB : A == B;
}

/// ULPs of half between \p Got and the exact \p Want (at Want's binade).
double halfUlps(uint16_t Got, double Want) {
  double G = halfValue(Got);
  if (std::isnan(Want) || std::isnan(G))
    return std::isnan(Want) && std::isnan(G) ? 0 : 1e9;
  if (std::isinf(Want) || std::isinf(G))
    return G == Want ? 0 : 1e9;
  int E = Want == 0 ? -14 : std::max(std::ilogb(Want), -14);
  return std::fabs(G - Want) / std::ldexp(1.0, E - 10);
}

/// \p Got is \p Want rounded to half, or within \p Ulps of it.
bool near(uint16_t Got, double Want, double Ulps) {
  return sameHalf(Got, toHalf(Want)) || halfUlps(Got, Want) <= Ulps;
}
} // namespace

TEST_CASE("cl_khr_fp16: the extension, __opencl_c_fp16, the half FP config "
          "and vector widths",
          "[half]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  std::string Ext = deviceString(D, CL_DEVICE_EXTENSIONS);
  CHECK((" " + Ext + " ").find(" cl_khr_fp16 ") != std::string::npos);
  auto Cfg = deviceInfo<cl_device_fp_config>(D, CL_DEVICE_HALF_FP_CONFIG);
  // "The minimum ... is CL_FP_ROUND_TO_ZERO or CL_FP_ROUND_TO_NEAREST, and
  // CL_FP_INF_NAN."
  CHECK((Cfg & CL_FP_ROUND_TO_NEAREST));
  CHECK((Cfg & CL_FP_INF_NAN));
  CHECK(deviceInfo<cl_uint>(D, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF) > 0);
  CHECK(deviceInfo<cl_uint>(D, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF) > 0);
  CHECK(featureVersion(D, "__opencl_c_fp16") != 0);
  CHECK(extensionVersion(D, "cl_khr_fp16") == CL_MAKE_VERSION(1, 0, 0));
  Env E;
  // Clang, like the extension's specification, wants the pragma before
  // half is used as a value.
  CHECK(E.build(R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#if !defined(cl_khr_fp16) || !defined(__opencl_c_fp16) || !defined(HALF_MAX)
#error "cl_khr_fp16 macros missing"
#endif
kernel void k(global half *p) { p[0] = HALF_MAX; }
)CLC",
                "-cl-std=CL3.0"));
  // OpenCL C 1.2 programs enable it with the pragma.
  CHECK(E.build(R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void k(global half *p) { p[0] = p[1] * (half)2; }
)CLC",
                "-cl-std=CL1.2"));
}

TEST_CASE("cl_khr_fp16: +, -, *, / and sqrt of every half against a "
          "neighbour are correctly rounded, vectorized",
          "[half]") {
  Env E;
  cl_program P = E.build(R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void arith(global const half *a, global const half *b, global half *s,
                  global half *d, global half *m, global half *q,
                  global half *r) {
  size_t i = get_global_id(0);
  half x = a[i], y = b[i];
  s[i] = x + y;
  d[i] = x - y;
  m[i] = x * y;
  q[i] = x / y;
  r[i] = sqrt(x);
}
)CLC",
                         "-cl-std=CL3.0");
  std::vector<uint16_t> A = allHalves(), B(A.size());
  for (size_t I = 0; I < A.size(); ++I) // a different half of another scale
    B[I] = uint16_t((I * 40503u + 0x3c00) & 0xffff);
  size_t N = A.size();
  cl_mem BA = E.buffer(A), BB = E.buffer(B);
  std::vector<cl_mem> Out;
  for (int K = 0; K < 5; ++K)
    Out.push_back(E.buffer(std::vector<uint16_t>(N)));
  E.launch(P, "arith", N, 256, BA, BB, Out[0], Out[1], Out[2], Out[3], Out[4]);
  const char *Names[] = {"+", "-", "*", "/", "sqrt"};
  for (int K = 0; K < 5; ++K) {
    std::vector<uint16_t> Got = E.read<uint16_t>(Out[K], N);
    size_t Bad = 0;
    for (size_t I = 0; I < N; ++I) {
      double X = halfValue(A[I]), Y = halfValue(B[I]);
      double W = K == 0   ? X + Y // exact in double
                 : K == 1 ? X - Y
                 : K == 2 ? X * Y
                 : K == 3 ? X / Y // rounded once in double: see below
                          : std::sqrt(X);
      // double's 53 bits are more than twice half's 11 plus 2: its
      // correctly rounded quotient and root round to half correctly too.
      if (!sameHalf(Got[I], toHalf(W)) && Bad++ < 5)
        UNSCOPED_INFO(Names[K] << ": " << X << ", " << Y << " -> "
                               << halfValue(Got[I]) << ", expected "
                               << halfValue(toHalf(W)));
    }
    INFO(Names[K]);
    CHECK(Bad == 0);
  }
}

TEST_CASE("cl_khr_fp16: convert_half with each rounding mode from float, "
          "double, int and long; convert_int/short_sat with each mode from "
          "half",
          "[half]") {
  Env E;
  cl_program P = E.build(R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void to_half(global const float *f, global const double *d,
                    global const int *n, global const long *l,
                    global half *o) {
  size_t i = get_global_id(0), k = 16 * i;
  o[k + 0] = convert_half(f[i]);
  o[k + 1] = convert_half_rte(f[i]);
  o[k + 2] = convert_half_rtz(f[i]);
  o[k + 3] = convert_half_rtp(f[i]);
  o[k + 4] = convert_half_rtn(f[i]);
  o[k + 5] = convert_half_rte(d[i]);
  o[k + 6] = convert_half_rtz(d[i]);
  o[k + 7] = convert_half_rtp(d[i]);
  o[k + 8] = convert_half_rtn(d[i]);
  o[k + 9] = convert_half_rte(n[i]);
  o[k + 10] = convert_half_rtz(n[i]);
  o[k + 11] = convert_half_rtp(n[i]);
  o[k + 12] = convert_half_rtn(n[i]);
  o[k + 13] = convert_half_rtz(l[i]);
  o[k + 14] = convert_half_rtp(l[i]);
  o[k + 15] = (half)f[i];
}
kernel void from_half(global const half *h, global int *o) {
  size_t i = get_global_id(0), k = 8 * i;
  half x = h[i];
  o[k + 0] = convert_int(x);
  o[k + 1] = convert_int_rte(x);
  o[k + 2] = convert_int_rtp(x);
  o[k + 3] = convert_int_rtn(x);
  o[k + 4] = convert_short_sat_rte(x);
  o[k + 5] = convert_uchar_sat(x);
  o[k + 6] = convert_char_sat_rtn(x);
  o[k + 7] = as_short(x);
}
)CLC",
                         "-cl-std=CL3.0");
  // Floats around every half: the halves themselves, midpoints, and a
  // little either side; doubles nearer still; integers around 2^11..2^16.
  std::vector<float> F;
  std::vector<double> D;
  std::vector<int32_t> Ni;
  std::vector<int64_t> L;
  uint32_t S = 99;
  for (uint32_t H = 0; H < 0x7c00; H += 7) {
    double V = halfValue(uint16_t(H)), Next = halfValue(uint16_t(H + 1));
    double Mid = (V + Next) / 2;
    for (double X : {V, Mid, std::nextafter(Mid, 0.0), std::nextafter(Mid, 1e9),
                     Next * 1.0000001}) {
      for (double Sgn : {1.0, -1.0}) {
        F.push_back(float(X * Sgn));
        D.push_back(X * Sgn);
        S = S * 1664525u + 1013904223u;
        Ni.push_back(int32_t(S >> 14) - (1 << 17));
        L.push_back(int64_t(S) * (S & 1 ? 1 : -1) * 3);
      }
    }
  }
  F.push_back(1e10f);
  D.push_back(-1e300);
  Ni.push_back(65519);
  L.push_back(65521);
  F.push_back(std::numeric_limits<float>::quiet_NaN());
  D.push_back(std::numeric_limits<double>::infinity());
  Ni.push_back(-65536);
  L.push_back(std::numeric_limits<int64_t>::min());
  size_t N = F.size();
  cl_mem BF = E.buffer(F), BD = E.buffer(D), BN = E.buffer(Ni),
         BL = E.buffer(L), BO = E.buffer(std::vector<uint16_t>(16 * N));
  E.launch(P, "to_half", N, 1, BF, BD, BN, BL, BO);
  std::vector<uint16_t> O = E.read<uint16_t>(BO, 16 * N);
  const Round Modes[] = {Round::Nearest, Round::Nearest, Round::Zero, Round::Up,
                         Round::Down};
  size_t Bad = 0;
  auto Check = [&](size_t I, int K, double V, Round R, const char *What) {
    uint16_t Want = toHalf(V, R);
    if (!sameHalf(O[16 * I + K], Want) && Bad++ < 8)
      UNSCOPED_INFO(What << " mode " << int(R) << " of " << V << ": got "
                         << halfValue(O[16 * I + K]) << ", expected "
                         << halfValue(Want));
  };
  for (size_t I = 0; I < N; ++I) {
    for (int K = 0; K < 5; ++K)
      Check(I, K, F[I], Modes[K], "float");
    for (int K = 0; K < 4; ++K)
      Check(I, 5 + K, D[I], Modes[1 + K], "double");
    for (int K = 0; K < 4; ++K)
      Check(I, 9 + K, Ni[I], Modes[1 + K], "int");
    Check(I, 13, double(L[I]), Round::Zero, "long");
    Check(I, 14, double(L[I]), Round::Up, "long");
    Check(I, 15, F[I], Round::Nearest, "(half)");
  }
  CHECK(Bad == 0);

  std::vector<uint16_t> H = allHalves();
  cl_mem BH = E.buffer(H), BI = E.buffer(std::vector<int32_t>(8 * H.size()));
  E.launch(P, "from_half", H.size(), 256, BH, BI);
  std::vector<int32_t> I32 = E.read<int32_t>(BI, 8 * H.size());
  Bad = 0;
  auto Sat = [](double V, double Lo, double Hi) {
    return std::isnan(V) ? 0 : V < Lo ? Lo : V > Hi ? Hi : V;
  };
  for (size_t I = 0; I < H.size(); ++I) {
    double V = halfValue(H[I]);
    const int32_t *G = &I32[8 * I];
    bool Finite = std::isfinite(V); // out of range: undefined without _sat
    bool Ok = (!Finite || (G[0] == int32_t(std::trunc(V)) &&
                           G[1] == int32_t(std::nearbyint(V)) &&
                           G[2] == int32_t(std::ceil(V)) &&
                           G[3] == int32_t(std::floor(V)))) &&
              G[4] == int32_t(Sat(std::nearbyint(V), -32768, 32767)) &&
              G[5] == int32_t(Sat(std::trunc(V), 0, 255)) &&
              G[6] == int32_t(Sat(std::floor(V), -128, 127)) &&
              G[7] == int16_t(H[I]);
    if (!Ok && Bad++ < 5)
      UNSCOPED_INFO("half " << V << " (0x" << std::hex << H[I] << std::dec
                            << "): " << G[0] << " " << G[1] << " " << G[2]
                            << " " << G[3] << " " << G[4] << " " << G[5] << " "
                            << G[6]);
  }
  CHECK(Bad == 0);
}

TEST_CASE("cl_khr_fp16: math builtins within the half ULP bounds (7.4), fma "
          "correctly rounded, on every half",
          "[half]") {
  Env E;
  cl_program P = E.build(R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void math(global const half *a, global const half *b,
                 global const half *c, global half *o) {
  size_t i = get_global_id(0), k = 10 * i;
  half x = a[i], y = b[i];
  o[k + 0] = sin(x);
  o[k + 1] = exp(x);
  o[k + 2] = log(x);
  o[k + 3] = pow(x, y);
  o[k + 4] = fma(x, y, c[i]);
  o[k + 5] = rsqrt(x);
  o[k + 6] = atan2(x, y);
  o[k + 7] = fmod(x, y);
  o[k + 8] = nextafter(x, y);
  int e;
  o[k + 9] = ldexp(frexp(x, &e), e);
}
)CLC",
                         "-cl-std=CL3.0");
  std::vector<uint16_t> A = allHalves(), B(A.size()), C(A.size());
  for (size_t I = 0; I < A.size(); ++I) {
    B[I] = uint16_t((I * 40503u + 0x3c00) & 0xffff);
    C[I] = uint16_t((I * 9973u + 0x1234) & 0xffff);
  }
  size_t N = A.size();
  cl_mem BA = E.buffer(A), BB = E.buffer(B), BC = E.buffer(C),
         BO = E.buffer(std::vector<uint16_t>(10 * N));
  E.launch(P, "math", N, 256, BA, BB, BC, BO);
  std::vector<uint16_t> O = E.read<uint16_t>(BO, 10 * N);
  // Section 7.4, half: sin 2 ulp, exp 3, log 3, pow 4, fma correctly
  // rounded, rsqrt 1, atan2 2, fmod 0, nextafter 0, frexp/ldexp 0.
  const double Bound[] = {2, 3, 3, 4, 0, 1, 2, 0, 0, 0};
  const char *Names[] = {"sin",   "exp",   "log",  "pow",       "fma",
                         "rsqrt", "atan2", "fmod", "nextafter", "frexp+ldexp"};
  for (int K = 0; K < 10; ++K) {
    size_t Bad = 0;
    for (size_t I = 0; I < N; ++I) {
      double X = halfValue(A[I]), Y = halfValue(B[I]), Z = halfValue(C[I]);
      double W;
      switch (K) {
      case 0:
        W = std::sin(X);
        break;
      case 1:
        W = std::exp(X);
        break;
      case 2:
        W = std::log(X);
        break;
      case 3:
        W = std::pow(X, Y);
        break;
      case 4:
        W = std::fma(X, Y, Z);
        break;
      case 5:
        W = 1 / std::sqrt(X);
        break;
      case 6:
        W = std::atan2(X, Y);
        break;
      case 7:
        W = std::fmod(X, Y);
        break;
      case 8:
        W = halfValue(0);
        break; // checked below
      default:
        W = X;
        break;
      }
      uint16_t G = O[10 * I + K];
      bool Ok;
      if (K == 4) // the exact result rounded once (fma's double is exact
                  // enough only through toHalf's search on the exact sum)
        Ok = sameHalf(G, toHalf(W));
      else if (K == 8) {
        // The next half after x towards y.
        uint16_t Want;
        if (std::isnan(X) || std::isnan(Y))
          Want = 0x7e00;
        else if (X == Y)
          Want = B[I];
        else if (X == 0)
          Want = uint16_t((Y < 0 ? 0x8000 : 0) | 1);
        else
          Want = uint16_t((X < Y) == (X > 0) ? A[I] + 1 : A[I] - 1);
        Ok = sameHalf(G, Want);
      } else
        Ok = near(G, W, Bound[K]) ||
             // a subnormal result may also flush or not within the bound
             (std::fabs(W) < 0x1p-14 &&
              std::fabs(halfValue(G) - W) <= Bound[K] * 0x1p-24 + 0x1p-24);
      if (!Ok && Bad++ < 5)
        UNSCOPED_INFO(Names[K] << "(" << X << ", " << Y << ", " << Z
                               << ") = " << halfValue(G) << ", expected " << W);
    }
    INFO(Names[K]);
    CHECK(Bad == 0);
  }
}

TEST_CASE("cl_khr_fp16: common, geometric and relational builtins on half "
          "vectors; half kernel arguments; vload4/vstore4 of half",
          "[half]") {
  Env E;
  cl_program P = E.build(R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void vec(global const half *in, half s, global half *out,
                global short *rel, global half *geo) {
  size_t i = get_global_id(0);
  half4 v = vload4(i, in);
  half4 w = v * s;
  vstore4(clamp(w, (half)-1.0h, (half)1.0h), i, out);
  short4 r = isgreater(v, w) | (isnan(v) & (short4)2) | (signbit(v) & (short4)4);
  vstore4(r, i, rel);
  vstore4(select(v, w, isless(v, (half4)0)), i, out + 4 * get_global_size(0));
  geo[2 * i] = dot(v.xyz, w.xyz);
  geo[2 * i + 1] = length(v);
}
)CLC",
                         "-cl-std=CL3.0");
  size_t N = 4096;
  std::vector<uint16_t> In(4 * N);
  uint32_t S = 5;
  for (uint16_t &H : In) {
    S = S * 1664525u + 1013904223u;
    H = uint16_t(S >> 16);
    if ((H & 0x7c00) == 0x7c00 && (H & 0x3ff) == 0)
      H ^= 0x0400; // no infinities: keeps the references simple
  }
  In[5] = 0x7e00; // a NaN
  cl_mem BIn = E.buffer(In), BOut = E.buffer(std::vector<uint16_t>(8 * N)),
         BRel = E.buffer(std::vector<int16_t>(4 * N)),
         BGeo = E.buffer(std::vector<uint16_t>(2 * N));
  cl_kernel K = clCreateKernel(P, "vec", nullptr);
  REQUIRE(K);
  E.Kernels.push_back(K);
  uint16_t Half2 = 0xc000; // -2.0 as a half kernel argument
  E.arg(K, 0, BIn);
  REQUIRE(clSetKernelArg(K, 1, sizeof(uint16_t), &Half2) == CL_SUCCESS);
  E.arg(K, 2, BOut);
  E.arg(K, 3, BRel);
  E.arg(K, 4, BGeo);
  size_t G = N, L = 64;
  REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
  std::vector<uint16_t> Out = E.read<uint16_t>(BOut, 8 * N),
                        Geo = E.read<uint16_t>(BGeo, 2 * N);
  std::vector<int16_t> Rel = E.read<int16_t>(BRel, 4 * N);
  size_t Bad = 0;
  for (size_t I = 0; I < 4 * N; ++I) {
    double V = halfValue(In[I]);
    uint16_t WBits = toHalf(V * -2.0);
    double W = halfValue(WBits);
    uint16_t Clamped =
        std::isnan(W) ? Out[I] : toHalf(std::clamp(W, -1.0, 1.0));
    int16_t WantRel = int16_t((V > W ? -1 : 0) | (std::isnan(V) ? 2 : 0) |
                              (std::signbit(V) ? 4 : 0));
    uint16_t Sel = V < 0 ? WBits : In[I];
    if ((!sameHalf(Out[I], Clamped) || Rel[I] != WantRel ||
         !sameHalf(Out[4 * N + I], Sel)) &&
        Bad++ < 5)
      UNSCOPED_INFO("element " << I << ": " << V);
  }
  for (size_t I = 0; I < N; ++I) {
    double X[4], Dot = 0, Len = 0;
    for (int J = 0; J < 4; ++J)
      X[J] = halfValue(In[4 * I + J]);
    for (int J = 0; J < 3; ++J)
      Dot += X[J] * halfValue(toHalf(X[J] * -2.0));
    for (int J = 0; J < 4; ++J)
      Len += X[J] * X[J];
    Len = std::sqrt(Len);
    // dot: float accumulation, then one rounding; length 0.25 + 1 ulp in
    // float (well below a half ulp); NaNs propagate.
    if ((!near(Geo[2 * I], Dot, 1) || !near(Geo[2 * I + 1], Len, 1)) &&
        Bad++ < 10)
      UNSCOPED_INFO("vector " << I << ": dot " << halfValue(Geo[2 * I]) << " ("
                              << Dot << "), length "
                              << halfValue(Geo[2 * I + 1]) << " (" << Len
                              << ")");
  }
  CHECK(Bad == 0);
}

TEST_CASE("cl_khr_fp16 with __opencl_c_work_group_collective_functions and "
          "cl_khr_subgroup_extended_types: half reductions, scans, "
          "broadcasts and shuffles",
          "[half][collectives]") {
  // Values that are small integers: every sum is exact in half whatever
  // the order of the additions (which the spec leaves open).
  Env E;
  cl_program P = E.build(R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void coll(global const half *in, global half *out) {
  size_t i = get_global_id(0), k = 8 * i;
  half x = in[i];
  out[k + 0] = work_group_reduce_add(x);
  out[k + 1] = work_group_reduce_min(x);
  out[k + 2] = work_group_reduce_max(x);
  out[k + 3] = work_group_scan_inclusive_add(x);
  out[k + 4] = work_group_broadcast(x, 5);
  out[k + 5] = sub_group_reduce_max(x);
  out[k + 6] = sub_group_shuffle(x, 0);
  out[k + 7] = sub_group_broadcast((half4)(x, x + 1, x + 2, x + 3), 1).w;
}
)CLC",
                         "-cl-std=CL3.0");
  const size_t G = 64, Groups = 32, N = G * Groups;
  std::vector<uint16_t> In(N);
  std::vector<double> V(N);
  for (size_t I = 0; I < N; ++I) {
    V[I] = double((I * 7 + I / G) % 4) - 1; // -1 .. 2
    In[I] = toHalf(V[I]);
  }
  cl_mem BIn = E.buffer(In), BOut = E.buffer(std::vector<uint16_t>(8 * N));
  E.launch(P, "coll", N, G, BIn, BOut);
  std::vector<uint16_t> Out = E.read<uint16_t>(BOut, 8 * N);
  size_t Sg = 0;
  {
    cl_kernel K = clCreateKernel(P, "coll", nullptr);
    REQUIRE(K);
    E.Kernels.push_back(K);
    size_t Local = G;
    REQUIRE(clGetKernelSubGroupInfo(
                K, E.D, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof Local,
                &Local, sizeof Sg, &Sg, nullptr) == CL_SUCCESS);
  }
  REQUIRE(Sg > 0);
  size_t Bad = 0;
  for (size_t Gr = 0; Gr < Groups; ++Gr) {
    double Sum = 0, Mn = 1e9, Mx = -1e9, Scan = 0;
    for (size_t L = 0; L < G; ++L) {
      double X = V[Gr * G + L];
      Sum += X, Mn = std::min(Mn, X), Mx = std::max(Mx, X);
    }
    for (size_t L = 0; L < G; ++L) {
      size_t I = Gr * G + L, S0 = Gr * G + L / Sg * Sg;
      Scan += V[I];
      double SgMax = -1e9;
      for (size_t J = S0; J < S0 + Sg && J < (Gr + 1) * G; ++J)
        SgMax = std::max(SgMax, V[J]);
      double Want[8] = {Sum,           Mn,    Mx,    Scan,
                        V[Gr * G + 5], SgMax, V[S0], V[S0 + 1] + 3};
      for (int K = 0; K < 8; ++K)
        if (!sameHalf(Out[8 * I + K], toHalf(Want[K])) && Bad++ < 8)
          UNSCOPED_INFO("item " << I << " result " << K << ": "
                                << halfValue(Out[8 * I + K]) << ", expected "
                                << Want[K]);
    }
  }
  CHECK(Bad == 0);
}
