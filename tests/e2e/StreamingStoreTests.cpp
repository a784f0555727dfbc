// Streaming kernels over buffers larger than the last-level cache write
// their outputs with non-temporal stores
// (compiler/passes/NonTemporalStores.cpp): the results must be the same as with
// ordinary stores, at aligned and misaligned addresses (global offsets of 0, 1
// and 16 work-items over the same large local sizes) and when the output is
// read again right after the launch.

#include "SchedulerCommon.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace {

/// The largest cache of CPU 0 in bytes (sysfs), 8 MiB if unknown.
size_t lastLevelCache() {
  size_t Best = 0;
  for (int I = 0; I < 8; ++I) {
    std::ifstream In("/sys/devices/system/cpu/cpu0/cache/index" +
                     std::to_string(I) + "/size");
    size_t S = 0;
    std::string Unit;
    if (!(In >> S))
      continue;
    In >> Unit;
    S <<= Unit == "K" ? 10 : Unit == "M" ? 20 : 0;
    Best = std::max(Best, S);
  }
  return Best ? Best : size_t(8) << 20;
}

const char *Source = R"(
kernel void copy(global const float *restrict a, global float *restrict b) {
  size_t i = get_global_id(0);
  b[i] = a[i];
}
kernel void vadd(global const float *a, global const float *b,
                 global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)";

} // namespace

TEST_CASE("5.10: streaming kernels over buffers larger than the cache give "
          "exact results (non-temporal stores)",
          "[kernel][streaming]") {
  sched::Env E;
  // Twice the last-level cache (the stores turn non-temporal from its size
  // on), at most 128 MiB per buffer on machines with huge caches; G work-
  // items (a multiple of 2^16: the driver picks large groups) from each
  // offset.
  size_t G = std::min(2 * lastLevelCache(), size_t(128) << 20) / 4;
  G = std::max<size_t>(G >> 16, 1) << 16;
  size_t N = G + 16;
  std::vector<float> A(N), B(N);
  for (size_t I = 0; I < N; ++I) {
    A[I] = float(I % 4093);
    B[I] = float((I * 7) % 1021);
  }
  cl_mem BA = E.buffer(A), BB = E.buffer(B);
  cl_mem BC = E.buffer(std::vector<float>(N, -1.0f));
  cl_program P = E.build(Source);
  cl_int Err = -1;
  cl_kernel Copy = clCreateKernel(P, "copy", &Err);
  REQUIRE(Err == CL_SUCCESS);
  E.Kernels.push_back(Copy);
  cl_kernel VAdd = clCreateKernel(P, "vadd", &Err);
  REQUIRE(Err == CL_SUCCESS);
  E.Kernels.push_back(VAdd);

  for (size_t Offset : {size_t(0), size_t(1), size_t(16)}) {
    INFO("global offset " << Offset);
    // c = a + b, then b = c (reads the output of the launch before).
    E.arg(VAdd, 0, BA);
    E.arg(VAdd, 1, BB);
    E.arg(VAdd, 2, BC);
    REQUIRE(clEnqueueNDRangeKernel(E.Q, VAdd, 1, &Offset, &G, nullptr, 0,
                                   nullptr, nullptr) == CL_SUCCESS);
    E.arg(Copy, 0, BC);
    E.arg(Copy, 1, BB);
    REQUIRE(clEnqueueNDRangeKernel(E.Q, Copy, 1, &Offset, &G, nullptr, 0,
                                   nullptr, nullptr) == CL_SUCCESS);
    std::vector<float> C = E.read<float>(BC, N), Got = E.read<float>(BB, N);
    // Outside [Offset, Offset + G) nothing runs: b keeps its old values.
    size_t Bad = N;
    for (size_t I = 0; I < N && Bad == N; ++I)
      if (I < Offset || I >= Offset + G
              ? Got[I] != B[I]
              : C[I] != A[I] + B[I] || Got[I] != A[I] + B[I])
        Bad = I;
    INFO("first wrong element " << Bad << " of " << N);
    CHECK(Bad == N);
    B = Got;
  }
}

namespace {
// Each group takes the next chunk from a counter, writes it (out, write-only:
// streaming stores once out is larger than the cache), publishes it with a
// fence and a flag, then waits for the chunk before its own and checks it
// through src, the same buffer under another argument. Chunks are taken in
// increasing order, so the group waited for has started and publishes
// without waiting itself: no deadlock in any order of groups.
const char *Chain = R"(
#define WG 256
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void chain(global const int *restrict in, global int *out,
           global const int *src, volatile global int *counter,
           volatile global int *flags, global int *wrong, int k) {
  local int chunk_l;
  int lid = get_local_id(0);
  if (lid == 0)
    chunk_l = atomic_inc(counter);
  barrier(CLK_LOCAL_MEM_FENCE);
  int c = chunk_l;
  int base = c * WG * k;
  for (int j = 0; j < k; ++j)
    out[base + j * WG + lid] = in[base + j * WG + lid] * 3 + 1;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (lid == 0) {
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_xchg(&flags[c], 1);
    if (c > 0) {
      while (atomic_or(&flags[c - 1], 0) == 0)
        ;
      read_mem_fence(CLK_GLOBAL_MEM_FENCE);
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (c > 0) {
    int prev = base - WG * k, bad = 0;
    for (int j = 0; j < k; ++j)
      bad += src[prev + j * WG + lid] != in[prev + j * WG + lid] * 3 + 1;
    if (bad)
      atomic_add(wrong, bad);
  }
}
)";
} // namespace

TEST_CASE(
    "6.15.12.9, 5.10: a work-group that publishes with a fence and a flag "
    "after streaming stores makes them visible to the group that "
    "acquires the flag",
    "[kernel][streaming]") {
  sched::Env E;
  const int WG = 256, K = 16;
  // At least twice the last-level cache, at most 128 MiB, whole chunks.
  size_t N = std::min(2 * lastLevelCache(), size_t(128) << 20) / 4;
  int Chunks = int(std::max<size_t>(N / (WG * K), 2));
  N = size_t(Chunks) * WG * K;
  std::vector<int> In(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = int(I % 100003);
  cl_mem BIn = E.buffer(In), BOut = E.buffer(std::vector<int>(N, -1));
  cl_mem BCounter = E.buffer(std::vector<int>(1, 0));
  cl_mem BFlags = E.buffer(std::vector<int>(Chunks, 0));
  cl_mem BWrong = E.buffer(std::vector<int>(1, 0));
  cl_program P = E.build(Chain);
  E.launch(P, "chain", size_t(Chunks) * WG, WG, BIn, BOut, BOut, BCounter,
           BFlags, BWrong, K);
  CHECK(E.read<int>(BWrong, 1)[0] == 0);
  std::vector<int> Out = E.read<int>(BOut, N);
  size_t Bad = N;
  for (size_t I = 0; I < N && Bad == N; ++I)
    if (Out[I] != In[I] * 3 + 1)
      Bad = I;
  INFO("first wrong element " << Bad << " of " << N);
  CHECK(Bad == N);
}
