// End-to-end: cl_ext_float_atomics through the ICD loader: the capability
// queries and feature list, and atomic_fetch_add/sub/min/max on atomic_float,
// atomic_double and atomic_half in global, local and generic memory, under
// contention from every worker.

#include "SchedulerCommon.h"
#include "runtime/ExtensionEnums.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using sched::Env;

namespace {
constexpr cl_device_fp_atomic_capabilities_ext AllFloatCaps =
    CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT |
    CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT |
    CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT |
    CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT |
    CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT;

/// Half bits of \p V, which the callers keep exactly representable.
uint16_t floatToHalf(float V) {
  _Float16 H = static_cast<_Float16>(V);
  uint16_t Bits;
  std::memcpy(&Bits, &H, sizeof Bits);
  return Bits;
}

float halfToFloat(uint16_t Bits) {
  _Float16 H;
  std::memcpy(&H, &Bits, sizeof H);
  return static_cast<float>(H);
}

/// Work-items that run on every worker: many groups of 64.
constexpr size_t Items = size_t(1) << 20;
constexpr size_t Group = 64;
} // namespace

TEST_CASE("cl_ext_float_atomics: the extension, its capability queries and "
          "its OpenCL C features",
          "[atomics][float_atomics]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  CHECK(extensionVersion(D, "cl_ext_float_atomics") ==
        CL_MAKE_VERSION(1, 0, 0));
  CHECK(deviceString(D, CL_DEVICE_EXTENSIONS).find("cl_ext_float_atomics") !=
        std::string::npos);
  cl_device_fp_atomic_capabilities_ext Caps = 0;
  size_t Size = 0;
  REQUIRE(clGetDeviceInfo(D, CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT,
                          sizeof Caps, &Caps, &Size) == CL_SUCCESS);
  CHECK(Size == sizeof Caps);
  CHECK(Caps == AllFloatCaps);
  REQUIRE(clGetDeviceInfo(D, CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT,
                          sizeof Caps, &Caps, nullptr) == CL_SUCCESS);
  CHECK(Caps == AllFloatCaps);
  // The device has cl_khr_fp16, so half atomics too.
  REQUIRE(clGetDeviceInfo(D, CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT,
                          sizeof Caps, &Caps, nullptr) == CL_SUCCESS);
  CHECK(Caps == AllFloatCaps);
  // "OpenCL C compilers that define the feature macros
  // __opencl_c_ext_fp64_global_atomic_add ... must also define the feature
  // macro __opencl_c_fp64" (and the fp16 ones __opencl_c_fp16): every add
  // and min/max feature of the three types, and half's load/store.
  CHECK(featureVersion(D, "__opencl_c_fp64") != 0);
  CHECK(featureVersion(D, "__opencl_c_fp16") != 0);
  for (const char *T : {"fp16", "fp32", "fp64"})
    for (const char *Space : {"global", "local"})
      for (const char *Op : {"add", "min_max", "load_store"}) {
        std::string F =
            std::string("__opencl_c_ext_") + T + "_" + Space + "_atomic_" + Op;
        INFO(F);
        // Load and store of float and double are OpenCL C 2.0's, no
        // feature of the extension.
        bool Want = std::string(Op) != "load_store" || std::string(T) == "fp16";
        CHECK((featureVersion(D, F) != 0) == Want);
      }

  // The macros a program sees are the same list.
  Env E;
  cl_program P = E.build(R"CLC(
#if !defined(cl_ext_float_atomics) || \
    !defined(__opencl_c_ext_fp32_global_atomic_add) || \
    !defined(__opencl_c_ext_fp32_local_atomic_min_max) || \
    !defined(__opencl_c_ext_fp64_global_atomic_min_max) || \
    !defined(__opencl_c_ext_fp64_local_atomic_add)
#error "cl_ext_float_atomics macros missing"
#endif
#if !defined(cl_khr_fp16) || \
    !defined(__opencl_c_ext_fp16_global_atomic_load_store) || \
    !defined(__opencl_c_ext_fp16_local_atomic_add) || \
    !defined(__opencl_c_ext_fp16_global_atomic_min_max)
#error "half atomics macros missing"
#endif
kernel void k() {}
)CLC",
                         "-cl-std=CL3.0");
  CHECK(P);
}

TEST_CASE("cl_ext_float_atomics: atomic_fetch_add on a global float from "
          "every worker returns each intermediate sum exactly once",
          "[atomics][float_atomics]") {
  // Adding 1.0f to 0 up to 2^20 times is exact, so the old values the
  // work-items get back must be 0, 1, ..., Items - 1, each once: a lost or
  // torn update would repeat one and leave another out.
  Env E;
  cl_program P = E.build(R"CLC(
kernel void add(volatile global atomic_float *Sum, global float *Old) {
  Old[get_global_id(0)] = atomic_fetch_add(Sum, 1.0f);
}
)CLC",
                         "-cl-std=CL3.0");
  cl_mem Sum = E.buffer(std::vector<float>{0.0f});
  cl_mem Old = E.buffer(std::vector<float>(Items, -1.0f));
  E.launch(P, "add", Items, Group, Sum, Old);
  CHECK(E.read<float>(Sum, 1)[0] == float(Items));
  std::vector<float> O = E.read<float>(Old, Items);
  std::vector<char> Seen(Items, 0);
  size_t Bad = 0;
  for (float V : O) {
    if (V < 0 || V >= float(Items) || V != std::floor(V) || Seen[size_t(V)]++)
      ++Bad;
  }
  CHECK(Bad == 0);
}

TEST_CASE("cl_ext_float_atomics: add and sub, float and double, global "
          "memory, _explicit forms, totals exact under contention",
          "[atomics][float_atomics]") {
  // Sixteen bins, each hit Items / 16 times: float adds of 0.5 and double
  // adds of 0.25 are exact at these magnitudes, so the totals must be too.
  Env E;
  cl_program P = E.build(R"CLC(
kernel void bins(volatile global atomic_float *F, volatile global atomic_double *D,
                 volatile global atomic_float *FSub) {
  size_t i = get_global_id(0);
  uint b = (uint)(i * 2654435761u) >> 28;
  atomic_fetch_add_explicit(&F[b], 0.5f, memory_order_relaxed,
                            memory_scope_device);
  atomic_fetch_add_explicit(&D[b], 0.25, memory_order_relaxed);
  atomic_fetch_sub(&FSub[b], 2.0f);
  atomic_fetch_sub_explicit(&D[16 + b], 0.75, memory_order_seq_cst,
                            memory_scope_all_svm_devices);
}
)CLC",
                         "-cl-std=CL3.0");
  cl_mem F = E.buffer(std::vector<float>(16, 0.0f));
  cl_mem D = E.buffer(std::vector<double>(32, 1.0));
  cl_mem FSub = E.buffer(std::vector<float>(16, 0.0f));
  E.launch(P, "bins", Items, Group, F, D, FSub);
  std::vector<size_t> Hits(16, 0);
  for (size_t I = 0; I < Items; ++I)
    ++Hits[uint32_t(uint32_t(I) * 2654435761u) >> 28];
  std::vector<float> Fs = E.read<float>(F, 16), Subs = E.read<float>(FSub, 16);
  std::vector<double> Ds = E.read<double>(D, 32);
  for (size_t B = 0; B < 16; ++B) {
    INFO("bin " << B << ", " << Hits[B] << " hits");
    CHECK(Fs[B] == 0.5f * float(Hits[B]));
    CHECK(Subs[B] == -2.0f * float(Hits[B]));
    CHECK(Ds[B] == 1.0 + 0.25 * double(Hits[B]));
    CHECK(Ds[16 + B] == 1.0 - 0.75 * double(Hits[B]));
  }
}

TEST_CASE("cl_ext_float_atomics: atomic_fetch_min/max on global float and "
          "double: the extremes, NaN operands and a NaN start ignored",
          "[atomics][float_atomics]") {
  // "min(x, qNaN) = min(qNaN, x) = x": the slots start as NaN, some
  // operands are NaN, and the result is the extreme of the other values.
  Env E;
  cl_program P = E.build(R"CLC(
kernel void ext(global const float *X, volatile global atomic_float *F,
                volatile global atomic_double *D) {
  size_t i = get_global_id(0);
  float x = X[i];
  atomic_fetch_min(&F[0], x);
  atomic_fetch_max_explicit(&F[1], x, memory_order_relaxed);
  atomic_fetch_min_explicit(&D[0], (double)x * 3.0, memory_order_acq_rel,
                            memory_scope_device);
  atomic_fetch_max(&D[1], (double)x * 3.0);
}
)CLC",
                         "-cl-std=CL3.0");
  std::vector<float> X(Items);
  uint32_t S = 12345;
  float Lo = std::numeric_limits<float>::infinity(), Hi = -Lo;
  for (size_t I = 0; I < Items; ++I) {
    S = S * 1664525u + 1013904223u;
    if (I % 1000 == 7) {
      X[I] = std::numeric_limits<float>::quiet_NaN();
      continue;
    }
    X[I] = (float(S >> 8) - float(1 << 23)) * 0x1p-10f;
    Lo = std::min(Lo, X[I]);
    Hi = std::max(Hi, X[I]);
  }
  float NaN = std::numeric_limits<float>::quiet_NaN();
  cl_mem BX = E.buffer(X);
  cl_mem F = E.buffer(std::vector<float>{NaN, NaN});
  cl_mem D = E.buffer(std::vector<double>{double(NaN), double(NaN)});
  E.launch(P, "ext", Items, Group, BX, F, D);
  std::vector<float> Fs = E.read<float>(F, 2);
  std::vector<double> Ds = E.read<double>(D, 2);
  CHECK(Fs[0] == Lo);
  CHECK(Fs[1] == Hi);
  CHECK(Ds[0] == double(Lo) * 3.0);
  CHECK(Ds[1] == double(Hi) * 3.0);

  // Only NaNs: min(qNaN, qNaN) = qNaN.
  std::vector<float> AllNaN(256, NaN);
  cl_mem BN = E.buffer(AllNaN);
  cl_mem FN = E.buffer(std::vector<float>{NaN, NaN});
  cl_mem DN = E.buffer(std::vector<double>{double(NaN), double(NaN)});
  E.launch(P, "ext", 256, Group, BN, FN, DN);
  Fs = E.read<float>(FN, 2);
  Ds = E.read<double>(DN, 2);
  CHECK(std::isnan(Fs[0]));
  CHECK(std::isnan(Fs[1]));
  CHECK(std::isnan(Ds[0]));
  CHECK(std::isnan(Ds[1]));
}

TEST_CASE("cl_ext_float_atomics: local float and double add/min/max and "
          "through generic pointers, per work-group",
          "[atomics][float_atomics]") {
  // Each group of 256 accumulates into __local atomics, with the work done
  // by a helper taking generic pointers for half of the items; item 0
  // writes the group's results. Group g's items add 0.5 * (g + 1) each (an
  // exact sum), and min/max see the item ids shifted by the group.
  Env E;
  cl_program P = E.build(R"CLC(
void acc(volatile atomic_float *s, volatile atomic_double *lo,
         volatile atomic_double *hi, float v, double x) {
  atomic_fetch_add_explicit(s, v, memory_order_relaxed,
                            memory_scope_work_group);
  atomic_fetch_min(lo, x);
  atomic_fetch_max(hi, x);
}
kernel void grp(global float *Sum, global double *Lo, global double *Hi,
                volatile global atomic_float *GSum) {
  local atomic_float s;
  local atomic_double lo, hi;
  local atomic_float gmin;
  size_t l = get_local_id(0), g = get_group_id(0);
  if (l == 0) {
    atomic_init(&s, 0.0f);
    atomic_init(&lo, INFINITY);
    atomic_init(&hi, -INFINITY);
    atomic_init(&gmin, INFINITY);
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  float v = 0.5f * (float)(g + 1);
  double x = (double)l - (double)g * 0.5;
  if (l & 1) {
    acc(&s, &lo, &hi, v, x);
  } else {
    atomic_fetch_add(&s, v);
    atomic_fetch_min_explicit(&lo, x, memory_order_relaxed,
                              memory_scope_work_group);
    atomic_fetch_max_explicit(&hi, x, memory_order_relaxed);
  }
  atomic_fetch_min(&gmin, (float)(255 - l));
  // Generic pointer to global memory too.
  volatile atomic_float *gp = GSum;
  atomic_fetch_sub(gp, 1.0f);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    Sum[g] = atomic_load(&s) + atomic_load(&gmin);
    Lo[g] = atomic_load(&lo);
    Hi[g] = atomic_load(&hi);
  }
}
)CLC",
                         "-cl-std=CL3.0");
  const size_t Groups = 512, L = 256;
  cl_mem Sum = E.buffer(std::vector<float>(Groups, -1));
  cl_mem Lo = E.buffer(std::vector<double>(Groups, -1));
  cl_mem Hi = E.buffer(std::vector<double>(Groups, -1));
  cl_mem GSum = E.buffer(std::vector<float>{0.0f});
  E.launch(P, "grp", Groups * L, L, Sum, Lo, Hi, GSum);
  std::vector<float> S = E.read<float>(Sum, Groups);
  std::vector<double> Los = E.read<double>(Lo, Groups),
                      His = E.read<double>(Hi, Groups);
  size_t Bad = 0;
  for (size_t G = 0; G < Groups; ++G) {
    // gmin ends at 0 (item 255).
    float WantSum = 0.5f * float(G + 1) * float(L);
    double WantLo = -double(G) * 0.5, WantHi = double(L - 1) - double(G) * 0.5;
    if (S[G] != WantSum || Los[G] != WantLo || His[G] != WantHi) {
      if (Bad++ < 4)
        UNSCOPED_INFO("group " << G << ": sum " << S[G] << " (" << WantSum
                               << "), lo " << Los[G] << " (" << WantLo
                               << "), hi " << His[G] << " (" << WantHi << ")");
    }
  }
  CHECK(Bad == 0);
  CHECK(E.read<float>(GSum, 1)[0] == -float(Groups * L));
}

TEST_CASE("cl_ext_float_atomics with cl_khr_fp16: atomic_half add/sub, "
          "min/max, load/store/exchange in global, local and generic "
          "memory, totals exact under contention",
          "[atomics][float_atomics][half]") {
  // Half has 11 significant bits: sums of 0.25 stay exact up to 512, so
  // the 16 global bins get at most 2048 adds each (256 groups of 128), and
  // local sums 128 x 0.5 = 64. The returned old values of the first bin's
  // adds are each intermediate sum exactly once.
  Env E;
  cl_program P = E.build(R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
void sub_generic(volatile atomic_half *p, half v) { atomic_fetch_sub(p, v); }
void store_generic(volatile atomic_half *p, half v) {
  atomic_store_explicit(p, v, memory_order_relaxed);
}
kernel void hh(volatile global atomic_half *Bins, volatile global atomic_half *Ext,
               global half *Old, global half *Grp, global const half *X) {
  local atomic_half s, lo, hi, x;
  size_t i = get_global_id(0), l = get_local_id(0), g = get_group_id(0);
  if (l == 0) {
    atomic_store(&s, 0.0h);
    atomic_store_explicit(&lo, INFINITY, memory_order_relaxed);
    atomic_store_explicit(&hi, -INFINITY, memory_order_relaxed,
                          memory_scope_work_group);
    atomic_store(&x, 0.0h);
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  uint b = (uint)(i & 15);
  half o = atomic_fetch_add_explicit(&Bins[b], 0.25h, memory_order_relaxed,
                                     memory_scope_device);
  if (b == 0)
    Old[i >> 4] = o;
  sub_generic(&Bins[16 + b], 0.5h);
  if (i == 0) {
    atomic_store(&Bins[32], 3.0h);
    store_generic(&Bins[33], 5.0h);
    atomic_store_explicit(&Bins[34], -7.0h, memory_order_relaxed,
                          memory_scope_device);
  }
  half v = X[i];
  atomic_fetch_min(&Ext[0], v);
  atomic_fetch_max_explicit(&Ext[1], v, memory_order_relaxed);
  atomic_fetch_add(&s, 0.5h);
  atomic_fetch_min_explicit(&lo, (half)l - (half)g, memory_order_relaxed,
                            memory_scope_work_group);
  atomic_fetch_max(&hi, (half)l);
  half prev = atomic_exchange(&x, (half)1.0h);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    Grp[4 * g] = atomic_load(&s);
    Grp[4 * g + 1] = atomic_load_explicit(&lo, memory_order_relaxed);
    Grp[4 * g + 2] = atomic_load_explicit(&hi, memory_order_relaxed,
                                          memory_scope_work_group);
    Grp[4 * g + 3] = atomic_exchange_explicit(&x, 2.0h, memory_order_relaxed);
  }
}
)CLC",
                         "-cl-std=CL3.0");
  const size_t Groups = 256, L = 128, N = Groups * L;
  const uint16_t Zero = 0x0000, NaN = 0x7e00;
  // Half values of the extremes' input: multiples of 1/8 in [-64, 64),
  // with NaNs that min and max must ignore.
  std::vector<uint16_t> X(N);
  float Lo = 1e9f, Hi = -1e9f;
  uint32_t S = 777;
  for (size_t I = 0; I < N; ++I) {
    S = S * 1664525u + 1013904223u;
    if (I % 97 == 3) {
      X[I] = NaN;
      continue;
    }
    float V = float(int(S >> 22) - 512) * 0.125f;
    X[I] = floatToHalf(V);
    Lo = std::min(Lo, V);
    Hi = std::max(Hi, V);
  }
  cl_mem Bins = E.buffer(std::vector<uint16_t>(35, Zero));
  cl_mem Ext = E.buffer(std::vector<uint16_t>{NaN, NaN});
  cl_mem Old = E.buffer(std::vector<uint16_t>(N / 16, 0xffff));
  cl_mem Grp = E.buffer(std::vector<uint16_t>(4 * Groups, 0xffff));
  cl_mem BX = E.buffer(X);
  E.launch(P, "hh", N, L, Bins, Ext, Old, Grp, BX);
  std::vector<uint16_t> B = E.read<uint16_t>(Bins, 35);
  CHECK(halfToFloat(B[32]) == 3.0f);
  CHECK(halfToFloat(B[33]) == 5.0f);
  CHECK(halfToFloat(B[34]) == -7.0f);
  for (size_t I = 0; I < 16; ++I) {
    INFO("bin " << I);
    CHECK(halfToFloat(B[I]) == 0.25f * float(N / 16));
    CHECK(halfToFloat(B[16 + I]) == -0.5f * float(N / 16));
  }
  std::vector<uint16_t> Ex = E.read<uint16_t>(Ext, 2);
  CHECK(halfToFloat(Ex[0]) == Lo);
  CHECK(halfToFloat(Ex[1]) == Hi);
  std::vector<uint16_t> O = E.read<uint16_t>(Old, N / 16);
  std::vector<float> Of;
  for (uint16_t H : O)
    Of.push_back(halfToFloat(H));
  std::sort(Of.begin(), Of.end());
  size_t Bad = 0;
  for (size_t I = 0; I < Of.size(); ++I)
    Bad += Of[I] != 0.25f * float(I);
  CHECK(Bad == 0);
  std::vector<uint16_t> G = E.read<uint16_t>(Grp, 4 * Groups);
  Bad = 0;
  for (size_t I = 0; I < Groups; ++I) {
    bool Ok = halfToFloat(G[4 * I]) == 0.5f * float(L) &&
              halfToFloat(G[4 * I + 1]) == -float(I) &&
              halfToFloat(G[4 * I + 2]) == float(L - 1) &&
              halfToFloat(G[4 * I + 3]) == 1.0f;
    if (!Ok && Bad++ < 4)
      UNSCOPED_INFO("group " << I << ": " << halfToFloat(G[4 * I]) << " "
                             << halfToFloat(G[4 * I + 1]) << " "
                             << halfToFloat(G[4 * I + 2]) << " "
                             << halfToFloat(G[4 * I + 3]));
  }
  CHECK(Bad == 0);
}

TEST_CASE("cl_ext_float_atomics: relaxed adds whose results are unused "
          "(queued per thread, compiler/passes/DeferFloatAdds.cpp) round "
          "each add, and every add lands",
          "[atomics][float_atomics]") {
  // Each add must be rounded on its own, as if the adds ran one after
  // another: 2^24 + 1 rounds back to 2^24 in float (and 2^53 + 1 to 2^53
  // in double), so bins starting there stay there however many ones are
  // added; summing the ones first would move them. The other bins take
  // exact values (multiples of 1/8, small sums) into 4,096 addresses, more
  // than a thread's queue holds at once, and subtractions.
  Env E;
  cl_program P = E.build(R"CLC(
kernel void big(volatile global atomic_float *F, volatile global atomic_double *D) {
  uint i = (uint)get_global_id(0);
  atomic_fetch_add_explicit(&F[i & 3], 1.0f, memory_order_relaxed);
  atomic_fetch_add_explicit(&D[i & 3], 1.0, memory_order_relaxed,
                            memory_scope_device);
}
kernel void many(global const float *restrict X,
                 volatile global atomic_float *F,
                 volatile global atomic_double *D) {
  uint i = (uint)get_global_id(0);
  uint b = (i * 2654435761u) >> 20;
  float x = X[i];
  atomic_fetch_add_explicit(&F[b], x, memory_order_relaxed);
  atomic_fetch_sub_explicit(&D[b], (double)x, memory_order_relaxed,
                            memory_scope_device);
}
)CLC",
                         "-cl-std=CL3.0");
  cl_mem F = E.buffer(std::vector<float>(4, 16777216.0f));
  cl_mem D = E.buffer(std::vector<double>(4, 9007199254740992.0));
  E.launch(P, "big", Items, Group, F, D);
  for (float V : E.read<float>(F, 4))
    CHECK(V == 16777216.0f);
  for (double V : E.read<double>(D, 4))
    CHECK(V == 9007199254740992.0);

  std::vector<float> X(Items);
  std::vector<double> Want(4096, 0.0);
  for (size_t I = 0; I < Items; ++I) {
    X[I] = float((I * 5) % 8) * 0.125f;
    Want[uint32_t(uint32_t(I) * 2654435761u) >> 20] += X[I];
  }
  cl_mem BX = E.buffer(X);
  cl_mem FB = E.buffer(std::vector<float>(4096, 0.0f));
  cl_mem DB = E.buffer(std::vector<double>(4096, 0.0));
  E.launch(P, "many", Items, Group, BX, FB, DB);
  std::vector<float> Fs = E.read<float>(FB, 4096);
  std::vector<double> Ds = E.read<double>(DB, 4096);
  size_t Bad = 0;
  for (size_t B = 0; B < 4096; ++B)
    if (Fs[B] != float(Want[B]) || Ds[B] != -Want[B])
      if (Bad++ < 4)
        UNSCOPED_INFO("bin " << B << ": " << Fs[B] << ", " << Ds[B] << " (want "
                             << Want[B] << ")");
  CHECK(Bad == 0);
}

TEST_CASE("cl_ext_float_atomics: OpenCL C 2.0 programs have the functions "
          "(the extension builds on 2.0 atomics); 1.2 programs do not",
          "[atomics][float_atomics]") {
  Env E;
  const std::string Src = R"CLC(
kernel void k(volatile global atomic_float *F, global float *Out) {
  Out[get_global_id(0)] = atomic_fetch_max(F, (float)get_global_id(0));
}
)CLC";
  cl_program P = E.build(Src, "-cl-std=CL2.0");
  cl_mem F = E.buffer(std::vector<float>{-1.0f});
  cl_mem Out = E.buffer(std::vector<float>(1024));
  E.launch(P, "k", 1024, 64, F, Out);
  CHECK(E.read<float>(F, 1)[0] == 1023.0f);
  // OpenCL C 1.2 has no atomic_float type at all.
  std::string Log;
  CHECK(E.tryBuild(Src, "-cl-std=CL1.2", Log) == nullptr);
}

TEST_CASE("Compare-and-swap retry loops (how OpenCL C 1.2 programs add "
          "floats, and C11-style maxima) are exact under contention; they "
          "run on the work-item loop, not on fibers",
          "[atomics][float_atomics]") {
  // compiler/passes/ProgressYields.cpp: such a loop goes round only when
  // another thread changed the value, so it needs no yield. Were it
  // mistaken for a wait, the results would still be right but slow; were a
  // wait mistaken for it, the spin lock below would hang.
  Env E;
  cl_program P = E.build(R"CLC(
kernel void cas_add(volatile global uint *sum, global float *old_out) {
  uint old = *sum, seen;
  while ((seen = atomic_cmpxchg(sum, old, as_uint(as_float(old) + 1.0f))) !=
         old)
    old = seen;
  old_out[get_global_id(0)] = as_float(old);
}
kernel void c11_max(volatile global atomic_int *m, global const int *x) {
  int v = x[get_global_id(0)];
  int old = atomic_load_explicit(m, memory_order_relaxed);
  while (old < v && !atomic_compare_exchange_weak(m, &old, v))
    ;
}
kernel void spin_lock(volatile global int *lock, global int *count) {
  while (atomic_cmpxchg(lock, 0, 1) != 0)
    ;
  *count += 1;
  atomic_xchg(lock, 0);
}
)CLC",
                         "-cl-std=CL3.0");
  const size_t N = size_t(1) << 18;
  cl_mem Sum = E.buffer(std::vector<float>{0.0f});
  cl_mem Old = E.buffer(std::vector<float>(N, -1.0f));
  E.launch(P, "cas_add", N, Group, Sum, Old);
  CHECK(E.read<float>(Sum, 1)[0] == float(N));
  std::vector<float> O = E.read<float>(Old, N);
  std::sort(O.begin(), O.end());
  size_t Bad = 0;
  for (size_t I = 0; I < N; ++I)
    Bad += O[I] != float(I);
  CHECK(Bad == 0);

  std::vector<int> X(N);
  int Max = 0;
  for (size_t I = 0; I < N; ++I) {
    X[I] = int((uint32_t(I) * 2654435761u) >> 2);
    Max = std::max(Max, X[I]);
  }
  cl_mem M = E.buffer(std::vector<int>{0});
  cl_mem BX = E.buffer(X);
  E.launch(P, "c11_max", N, Group, M, BX);
  CHECK(E.read<int>(M, 1)[0] == Max);

  // Work-items of one group take the lock in turn: the waiters must yield.
  cl_mem Lock = E.buffer(std::vector<int>{0});
  cl_mem Count = E.buffer(std::vector<int>{0});
  E.launch(P, "spin_lock", 4096, Group, Lock, Count);
  CHECK(E.read<int>(Count, 1)[0] == 4096);
}
