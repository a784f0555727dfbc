// End-to-end: cl_khr_integer_dot_product 2.0.0 through the ICD loader: the
// device queries (OpenCL API 4.2) and the OpenCL C functions dot,
// dot_acc_sat and their 4x8-bit packed forms (OpenCL C, Integer
// Functions), against host references with exact saturation.

#include "SchedulerCommon.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using sched::Env;

/// Byte K of W, zero- (U) or sign-extended.
int64_t byteOf(uint32_t W, unsigned K, bool Signed) {
  uint8_t B = uint8_t(W >> (8 * K));
  return Signed ? int64_t(int8_t(B)) : int64_t(B);
}

/// The exact dot product of the packed words (no 32-bit arithmetic).
int64_t dotRef(uint32_t A, uint32_t B, bool ASigned, bool BSigned) {
  int64_t S = 0;
  for (unsigned K = 0; K < 4; ++K)
    S += byteOf(A, K, ASigned) * byteOf(B, K, BSigned);
  return S;
}

/// add_sat(product, acc) in the result's type: int, or uint when unsigned.
int64_t accSatRef(int64_t Dot, int64_t Acc, bool Unsigned) {
  int64_t Lo = Unsigned ? 0 : INT32_MIN;
  int64_t Hi = Unsigned ? int64_t(UINT32_MAX) : INT32_MAX;
  return std::clamp<int64_t>(Dot + Acc, Lo, Hi);
}

/// The signedness of a and b in the function order of Source: uu, ss, us,
/// su (the result is uint for uu, int otherwise).
constexpr bool ASigned[4] = {false, true, false, true};
constexpr bool BSigned[4] = {false, true, true, false};
const char *const Combos[4] = {"uu", "ss", "us", "su"};

/// Every form, one output array slice per function: out[F * n + i] with
/// F = 0-3 dot_4x8packed_*, 4-7 dot_acc_sat_4x8packed_*, 8-11 dot of
/// uchar4 / char4, 12-15 dot_acc_sat of them, each in the order uu, ss, us,
/// su. The char4 forms read the same words through uchar4 / char4 pointers.
/// acc[G * n + i] is the accumulator of combination G. Stores are
/// consecutive across work-items, so the work-item loop runs vectorized.
const char *Source = R"(
#if !defined(cl_khr_integer_dot_product) ||                                   \
    !defined(__opencl_c_integer_dot_product_input_4x8bit) ||                  \
    !defined(__opencl_c_integer_dot_product_input_4x8bit_packed)
#error "cl_khr_integer_dot_product or its feature macros are not defined"
#endif
kernel void dots(global const uint *a, global const uint *b,
                 global const uchar4 *ua, global const char4 *sa,
                 global const uchar4 *ub, global const char4 *sb,
                 global const uint *acc, global uint *out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  uint x = a[i], y = b[i];
  uint uacc = acc[i];
  int sacc0 = (int)acc[n + i], sacc1 = (int)acc[2 * n + i],
      sacc2 = (int)acc[3 * n + i];
  out[i] = dot_4x8packed_uu_uint(x, y);
  out[n + i] = (uint)dot_4x8packed_ss_int(x, y);
  out[2 * n + i] = (uint)dot_4x8packed_us_int(x, y);
  out[3 * n + i] = (uint)dot_4x8packed_su_int(x, y);
  out[4 * n + i] = dot_acc_sat_4x8packed_uu_uint(x, y, uacc);
  out[5 * n + i] = (uint)dot_acc_sat_4x8packed_ss_int(x, y, sacc0);
  out[6 * n + i] = (uint)dot_acc_sat_4x8packed_us_int(x, y, sacc1);
  out[7 * n + i] = (uint)dot_acc_sat_4x8packed_su_int(x, y, sacc2);
  out[8 * n + i] = dot(ua[i], ub[i]);
  out[9 * n + i] = (uint)dot(sa[i], sb[i]);
  out[10 * n + i] = (uint)dot(ua[i], sb[i]);
  out[11 * n + i] = (uint)dot(sa[i], ub[i]);
  out[12 * n + i] = dot_acc_sat(ua[i], ub[i], uacc);
  out[13 * n + i] = (uint)dot_acc_sat(sa[i], sb[i], sacc0);
  out[14 * n + i] = (uint)dot_acc_sat(ua[i], sb[i], sacc1);
  out[15 * n + i] = (uint)dot_acc_sat(sa[i], ub[i], sacc2);
}
)";

constexpr size_t Items = 4096;

/// Words whose bytes are the edge values of both readings (0, 1, 0x7f,
/// 0x80, 0x81, 0xfe, 0xff: 127 and -128 signed, 255 unsigned) in every
/// position, whole words of one edge byte (the largest products: 4 x 255 x
/// -128 and 4 x -128 x -128), and random words.
std::vector<uint32_t> words(unsigned Seed) {
  const uint8_t Edge[] = {0, 1, 0x7f, 0x80, 0x81, 0xfe, 0xff};
  std::mt19937 G(Seed);
  std::vector<uint32_t> W(Items);
  for (size_t I = 0; I < Items; ++I) {
    uint32_t X = G();
    if (I % 4 == 1)
      X = Edge[G() % 7] * 0x01010101u;
    else if (I % 4 == 2)
      for (unsigned K = 0; K < 4; ++K)
        X = (X & ~(0xffu << 8 * K)) | uint32_t(Edge[G() % 7]) << 8 * K;
    W[I] = X;
  }
  return W;
}

/// Accumulators around the saturation boundaries of each item's dot
/// product: the largest and smallest acc for which the sum still fits, one
/// past them, the type's limits, and random values.
std::vector<uint32_t> accumulators(const std::vector<uint32_t> &A,
                                   const std::vector<uint32_t> &B) {
  std::mt19937 G(7);
  std::vector<uint32_t> Acc(4 * Items);
  for (unsigned C = 0; C < 4; ++C)
    for (size_t I = 0; I < Items; ++I) {
      int64_t D = dotRef(A[I], B[I], ASigned[C], BSigned[C]);
      int64_t Lo = C == 0 ? 0 : INT32_MIN, Hi = C == 0 ? UINT32_MAX : INT32_MAX;
      int64_t Cands[] = {Hi - D, Hi - D + 1, Hi - D - 1,
                         Lo - D, Lo - D - 1, Lo - D + 1,
                         Hi,     Lo,         int64_t(G() % 2001) - 1000};
      int64_t V = Cands[(I / 3) % std::size(Cands)];
      if (I % 3 == 0 || V < Lo || V > Hi)
        V = C == 0 ? int64_t(G()) : int64_t(int32_t(G()));
      Acc[C * Items + I] = uint32_t(V);
    }
  return Acc;
}

void checkDots(const char *Options) {
  INFO("options '" << Options << "'");
  Env E;
  const std::vector<uint32_t> A = words(1), B = words(2);
  const std::vector<uint32_t> Acc = accumulators(A, B);
  cl_program P = E.build(Source, Options);
  cl_mem MA = E.buffer(A), MB = E.buffer(B), MAcc = E.buffer(Acc);
  cl_mem Out = E.buffer(std::vector<uint32_t>(16 * Items));
  E.run(P, "dots", {MA, MB, MA, MA, MB, MB, MAcc, Out}, Items);
  std::vector<uint32_t> Got = E.read<uint32_t>(Out, 16 * Items);
  static const char *const Forms[4] = {
      "dot_4x8packed_", "dot_acc_sat_4x8packed_", "dot", "dot_acc_sat"};
  int Bad = 0;
  for (unsigned F = 0; F < 16; ++F) {
    unsigned C = F % 4;
    bool Sat = F / 4 % 2;
    for (size_t I = 0; I < Items && Bad < 8; ++I) {
      int64_t D = dotRef(A[I], B[I], ASigned[C], BSigned[C]);
      int64_t AccV =
          C == 0 ? int64_t(Acc[I]) : int64_t(int32_t(Acc[C * Items + I]));
      uint32_t Want = uint32_t(Sat ? accSatRef(D, AccV, C == 0) : D);
      if (Got[F * Items + I] != Want) {
        ++Bad;
        FAIL_CHECK(Forms[F / 4]
                   << " " << Combos[C] << "(0x" << std::hex << A[I] << ", 0x"
                   << B[I] << std::dec
                   << (Sat ? ", acc " + std::to_string(AccV) : "") << ") = "
                   << int64_t(C == 0 ? Got[F * Items + I]
                                     : int32_t(Got[F * Items + I]))
                   << ", want " << int64_t(C == 0 ? Want : int32_t(Want)));
      }
    }
  }
  CHECK(Bad == 0);
}

/// What CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_* return.
cl_device_integer_dot_product_acceleration_properties_khr
accelerationProperties(cl_device_id D, cl_device_info Q) {
  cl_device_integer_dot_product_acceleration_properties_khr P{};
  size_t Size = 0;
  REQUIRE(clGetDeviceInfo(D, Q, sizeof P, &P, &Size) == CL_SUCCESS);
  CHECK(Size == sizeof P);
  return P;
}

} // namespace

TEST_CASE("cl_khr_integer_dot_product 2.0.0 (OpenCL API 4.2, device "
          "queries): both input capabilities and their OpenCL C features; "
          "acceleration reported only for mixed signedness on a CPU with "
          "VNNI",
          "[device][integer_dot_product]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  CHECK(extensionVersion(D, "cl_khr_integer_dot_product") ==
        CL_MAKE_VERSION(2, 0, 0));
  // "CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR is always set";
  // "CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR must be set in version
  // 2.x of the extension".
  CHECK(deviceInfo<cl_device_integer_dot_product_capabilities_khr>(
            D, CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR) ==
        (CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR |
         CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR));
  // "OpenCL 3 devices must report the following feature macros via
  // CL_DEVICE_OPENCL_C_FEATURES when the corresponding bit is set"; with
  // the extension's version, as they come with it.
  CHECK(featureVersion(D, "__opencl_c_integer_dot_product_input_4x8bit") ==
        CL_MAKE_VERSION(2, 0, 0));
  CHECK(
      featureVersion(D, "__opencl_c_integer_dot_product_input_4x8bit_packed") ==
      CL_MAKE_VERSION(2, 0, 0));
  // vpdpbusd / vpdpbusds: unsigned-by-signed bytes, plain and with signed
  // saturation; nothing else is one instruction on x86.
  const cl_bool Vnni =
      cpuFlag("avx512_vnni") || cpuFlag("avx_vnni") ? CL_TRUE : CL_FALSE;
  for (
      cl_device_info Q :
      {cl_device_info(
           CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR),
       cl_device_info(
           CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR)}) {
    INFO("query 0x" << std::hex << Q);
    auto P = accelerationProperties(D, Q);
    CHECK(P.signed_accelerated == CL_FALSE);
    CHECK(P.unsigned_accelerated == CL_FALSE);
    CHECK(P.mixed_signedness_accelerated == Vnni);
    CHECK(P.accumulating_saturating_signed_accelerated == CL_FALSE);
    CHECK(P.accumulating_saturating_unsigned_accelerated == CL_FALSE);
    CHECK(P.accumulating_saturating_mixed_signedness_accelerated == Vnni);
  }
}

TEST_CASE("cl_khr_integer_dot_product (OpenCL C, Integer Functions): dot, "
          "dot_acc_sat and the 4x8-bit packed forms, every signedness, "
          "exact at the saturation boundaries, vectorized across "
          "work-items and not",
          "[builtins][integer_dot_product]") {
  // OpenCL C 1.2 (the default, as the CTS builds) and 3.0 see the same
  // functions; -cl-opt-disable runs them scalar, one work-item at a time.
  checkDots("");
  checkDots("-cl-std=CL3.0");
  checkDots("-cl-opt-disable");
}

TEST_CASE("cl_khr_integer_dot_product: dot_acc_sat along an inner loop "
          "saturates at every step, with one operand the same for every "
          "work-item (outer-loop vectorization)",
          "[builtins][integer_dot_product]") {
  // acc = dot_acc_sat(A[k][i], x[k], acc) for k < K: a row of A per
  // work-item, the vector x shared. The accumulator starts near the top
  // of its range, saturates, and comes back down: a sum saturated once at
  // the end would differ.
  Env E;
  const char *Src = R"(
kernel void rows(global const uint *A, global const uint *x, global uint *out,
                 int K, int init) {
  size_t i = get_global_id(0), n = get_global_size(0);
  int us = init, su = init, ss = init;
  uint uu = (uint)init * 2u;
  for (int k = 0; k < K; ++k) {
    uint a = A[k * n + i], b = x[k];
    us = dot_acc_sat_4x8packed_us_int(a, b, us);
    su = dot_acc_sat(as_char4(b), as_uchar4(a), su);
    ss = dot_acc_sat_4x8packed_ss_int(a, b, ss);
    uu = dot_acc_sat(as_uchar4(a), as_uchar4(b), uu);
  }
  out[i] = (uint)us;
  out[n + i] = (uint)su;
  out[2 * n + i] = (uint)ss;
  out[3 * n + i] = uu;
}
)";
  constexpr int K = 64;
  constexpr size_t N = 1024;
  std::mt19937 G(3);
  std::vector<uint32_t> A(K * N), X(K);
  for (int Kk = 0; Kk < K; ++Kk) {
    // The first half pushes every sum up (positive bytes everywhere, large
    // ones for some work-items), the second pulls it down.
    bool Up = Kk < K / 2;
    X[Kk] = Up ? 0x7f7f7f7fu : 0x81818181u; // 127 or -127 signed
    for (size_t I = 0; I < N; ++I)
      A[Kk * N + I] = (G() & 0x7f7f7f7fu) | (Up && I % 2 ? 0x7f7f7f7fu : 0);
  }
  const int Init = INT32_MAX - 200000;
  cl_program P = E.build(Src);
  cl_mem MA = E.buffer(A), MX = E.buffer(X);
  cl_mem Out = E.buffer(std::vector<uint32_t>(4 * N));
  cl_int Kv = K, InitV = Init;
  E.launch(P, "rows", N, 64, MA, MX, Out, Kv, InitV);
  std::vector<uint32_t> Got = E.read<uint32_t>(Out, 4 * N);
  int Bad = 0;
  for (size_t I = 0; I < N && Bad < 8; ++I) {
    int64_t Us = Init, Su = Init, Ss = Init, Uu = uint32_t(Init) * 2u;
    for (int Kk = 0; Kk < K; ++Kk) {
      uint32_t Av = A[Kk * N + I], Bv = X[Kk];
      Us = accSatRef(dotRef(Av, Bv, false, true), Us, false);
      Su = accSatRef(dotRef(Bv, Av, true, false), Su, false);
      Ss = accSatRef(dotRef(Av, Bv, true, true), Ss, false);
      Uu = accSatRef(dotRef(Av, Bv, false, false), Uu, true);
    }
    const int64_t Want[4] = {Us, Su, Ss, Uu};
    for (unsigned F = 0; F < 4; ++F) {
      int64_t GotV =
          F == 3 ? int64_t(Got[F * N + I]) : int64_t(int32_t(Got[F * N + I]));
      if (GotV != Want[F]) {
        ++Bad;
        FAIL_CHECK("work-item " << I << ", function " << F << ": " << GotV
                                << ", want " << Want[F]);
      }
    }
  }
  CHECK(Bad == 0);
}
