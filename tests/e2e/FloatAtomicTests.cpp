// End-to-end: cl_ext_float_atomics through the ICD loader: the capability
// queries and feature list, and atomic_fetch_add/sub/min/max on atomic_float
// and atomic_double in global, local and generic memory, under contention
// from every worker.

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
  // No cl_khr_fp16, so no half atomics.
  REQUIRE(clGetDeviceInfo(D, CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT,
                          sizeof Caps, &Caps, nullptr) == CL_SUCCESS);
  CHECK(Caps == 0);
  // "OpenCL C compilers that define the feature macros
  // __opencl_c_ext_fp64_global_atomic_add ... must also define the feature
  // macro __opencl_c_fp64": every add and min/max feature of both types.
  CHECK(featureVersion(D, "__opencl_c_fp64") != 0);
  for (const char *T : {"fp32", "fp64"})
    for (const char *Space : {"global", "local"})
      for (const char *Op : {"add", "min_max"}) {
        std::string F =
            std::string("__opencl_c_ext_") + T + "_" + Space + "_atomic_" + Op;
        INFO(F);
        CHECK(featureVersion(D, F) != 0);
      }
  CHECK(featureVersion(D, "__opencl_c_ext_fp16_global_atomic_add") == 0);

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
#if defined(__opencl_c_ext_fp16_global_atomic_add)
#error "half atomics without cl_khr_fp16"
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
