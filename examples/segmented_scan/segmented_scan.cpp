// segmented_scan: inclusive segmented sum with head flags (a head starts a
// new segment), across work-group boundaries, built on work-group collective
// functions; verified against a host loop.
//
// seg_scan: every work-item owns v consecutive elements of its work-group's
// tile. work_group_scan_exclusive_add of the chunk sums gives the plain
// prefix sum at each chunk start; work_group_scan_exclusive_max of "my
// index if my chunk has a head, else -1" gives the last chunk before mine
// that starts a segment. The difference of the two plain prefixes is the
// running segment sum entering my chunk. Each work-group also writes its
// tail value, whether it has a head, and where its first head is.
//
// Across work-groups: the (tail, has-head) pairs of the groups are
// themselves a segmented scan problem, so seg_scan runs again on them as one
// work-group; then fixup adds group g-1's result to the elements of group g
// before its first head.
//
// Usage: segmented_scan [N [V]] [--platform NAME]
// V: elements per work-item (default 64; a tile is 64 work-items x V).
// CLCPU_EXAMPLE_PLATFORM=NAME also chooses the platform; it is the first
// whose name or vendor contains NAME, ignoring case (default "clcpu";
// "pocl" picks the Portable Computing Language).
#define CL_TARGET_OPENCL_VERSION 300
#include "ExampleSetup.h"

#include <CL/cl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static const char *Source = R"CLC(
// head_prefix: local_size uints.
__kernel void seg_scan(__global const uint *val, __global const uchar *head,
                       __global uint *out, uint n, uint v,
                       __global uint *tail, __global uchar *has_head,
                       __global uint *first_head, __local uint *head_prefix) {
  size_t lid = get_local_id(0), L = get_local_size(0), g = get_group_id(0);
  size_t base = (g * L + lid) * v;
  // My chunk: plain sum, and the plain sum before its last head.
  uint sum = 0, before_last = 0, first = UINT_MAX;
  int last = -1;
  for (uint k = 0; k < v; ++k)
    if (base + k < n) {
      if (head[base + k]) {
        last = (int)k;
        before_last = sum;
        first = min(first, (uint)(base + k));
      }
      sum += val[base + k];
    }
  uint plain = work_group_scan_exclusive_add(sum);
  head_prefix[lid] = plain + before_last;
  int m = work_group_scan_exclusive_max(last >= 0 ? (int)lid : -1);
  barrier(CLK_LOCAL_MEM_FENCE);
  // Segment sum entering my chunk (from the group start if no head yet).
  uint run = m >= 0 ? plain - head_prefix[m] : plain;
  for (uint k = 0; k < v; ++k)
    if (base + k < n) {
      uint x = val[base + k];
      run = head[base + k] ? x : run + x;
      out[base + k] = run;
    }
  uint group_first = work_group_reduce_min(first);
  int group_last = work_group_reduce_max(last >= 0 ? (int)lid : -1);
  if (lid == L - 1)
    tail[g] = run; // past n, elements are 0 without heads: run is unchanged
  if (lid == 0) {
    has_head[g] = group_last >= 0;
    first_head[g] = group_first;
  }
}

// Adds the inclusive result of the groups before g to group g's elements
// before its first head.
__kernel void fixup(__global uint *out, __global const uint *group_scan,
                    __global const uint *first_head, uint n, uint tile) {
  size_t i = get_global_id(0);
  size_t g = i / tile;
  if (i < n && g > 0 && i < first_head[g])
    out[i] += group_scan[g - 1];
}
)CLC";

// ---- The example ------------------------------------------------------------

int main(int Argc, char **Argv) {
  std::string Want;
  std::vector<std::string> Args = parseArgs(Argc, Argv, Want);
  size_t N =
      !Args.empty() ? std::strtoull(Args[0].c_str(), nullptr, 10) : (16u << 20);
  if (N == 0 || N > (1u << 30)) {
    std::fprintf(stderr, "N must be in 1..2^30\n");
    return 2;
  }
  // Elements per work-item; a tile is 64 work-items x that. On a CPU, fewer
  // work-items doing more each run faster (each barrier switches between all
  // of them); the tests use few, for many tiles.
  unsigned long PerItem =
      Args.size() > 1 ? std::strtoul(Args[1].c_str(), nullptr, 10) : 64;
  if (PerItem == 0 || PerItem > 4096) {
    std::fprintf(stderr, "elements per work-item must be in 1..4096\n");
    return 2;
  }
  Device Dev;
  if (!openDevice(Want, Dev))
    return 2;
  std::printf("segmented_scan on %s\n", Dev.PlatformName.c_str());
  if (Dev.CollectiveStd.empty()) {
    std::printf("device lacks __opencl_c_work_group_collective_functions: "
                "skipped\n");
    clReleaseCommandQueue(Dev.Q);
    clReleaseContext(Dev.Ctx);
    return 0;
  }
  cl_program P = buildProgram(Dev, Source, Dev.CollectiveStd);
  cl_kernel KSeg = makeKernel(P, "seg_scan");
  cl_kernel KFix = makeKernel(P, "fixup");

  // Values 0..15. Heads alternate, every 32K elements, between about one in
  // 6000 (many work-groups, tiles of 4096, have none and segments run across
  // several of them) and one in 8 (several per work-item's chunk).
  std::vector<uint32_t> Val(N), Out(N), Ref(N);
  std::vector<uint8_t> Head(N);
  uint64_t Seed = 12345;
  uint32_t Run = 0;
  size_t Heads = 0;
  for (size_t I = 0; I < N; ++I) {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    Val[I] = static_cast<uint32_t>(Seed >> 60);
    Head[I] = (Seed >> 33) % ((I >> 15) & 1 ? 8 : 6000) == 0;
    Heads += Head[I];
    Run = Head[I] ? Val[I] : Run + Val[I];
    Ref[I] = Run;
  }

  const cl_uint V = static_cast<cl_uint>(PerItem);
  size_t L = localSize(KSeg, Dev, 64);
  cl_uint Tile = static_cast<cl_uint>(L * V);
  cl_uint Groups = static_cast<cl_uint>((N + Tile - 1) / Tile);
  // Pass 2 is one work-group over the Groups summaries.
  cl_uint V2 = static_cast<cl_uint>((Groups + L - 1) / L);
  cl_uint N32 = static_cast<cl_uint>(N);
  cl_mem BVal = makeBuffer(Dev, N * 4, Val.data());
  cl_mem BHead = makeBuffer(Dev, N, Head.data());
  cl_mem BOut = makeBuffer(Dev, N * 4);
  cl_mem BTail = makeBuffer(Dev, Groups * 4);
  cl_mem BHas = makeBuffer(Dev, Groups);
  cl_mem BFirst = makeBuffer(Dev, Groups * 4);
  cl_mem BScan = makeBuffer(Dev, Groups * 4);
  cl_mem BDummy[3] = {makeBuffer(Dev, 4), makeBuffer(Dev, 4),
                      makeBuffer(Dev, 4)};

  double Best = 1e30;
  for (int R = 0; R < 3; ++R) { // best of 3
    const cl_uint Junk = 0xdeadbeefu;
    CHECK(clEnqueueFillBuffer(Dev.Q, BOut, &Junk, 4, 0, N * 4, 0, nullptr,
                              nullptr));
    CHECK(clFinish(Dev.Q));
    auto T0 = std::chrono::steady_clock::now();
    // Pass 1: every tile.
    setArg(KSeg, 0, BVal);
    setArg(KSeg, 1, BHead);
    setArg(KSeg, 2, BOut);
    setArg(KSeg, 3, N32);
    setArg(KSeg, 4, V);
    setArg(KSeg, 5, BTail);
    setArg(KSeg, 6, BHas);
    setArg(KSeg, 7, BFirst);
    CHECK(clSetKernelArg(KSeg, 8, L * 4, nullptr));
    size_t G = Groups * L;
    CHECK(clEnqueueNDRangeKernel(Dev.Q, KSeg, 1, nullptr, &G, &L, 0, nullptr,
                                 nullptr));
    // Pass 2: the group summaries, one work-group.
    setArg(KSeg, 0, BTail);
    setArg(KSeg, 1, BHas);
    setArg(KSeg, 2, BScan);
    setArg(KSeg, 3, Groups);
    setArg(KSeg, 4, V2);
    setArg(KSeg, 5, BDummy[0]);
    setArg(KSeg, 6, BDummy[1]);
    setArg(KSeg, 7, BDummy[2]);
    CHECK(clEnqueueNDRangeKernel(Dev.Q, KSeg, 1, nullptr, &L, &L, 0, nullptr,
                                 nullptr));
    // Pass 3: carry into each group's leading partial segment.
    setArg(KFix, 0, BOut);
    setArg(KFix, 1, BScan);
    setArg(KFix, 2, BFirst);
    setArg(KFix, 3, N32);
    setArg(KFix, 4, Tile);
    CHECK(clEnqueueNDRangeKernel(Dev.Q, KFix, 1, nullptr, &N, nullptr, 0,
                                 nullptr, nullptr));
    CHECK(clFinish(Dev.Q));
    Best = std::min(Best, seconds(T0));
  }
  CHECK(clEnqueueReadBuffer(Dev.Q, BOut, CL_TRUE, 0, N * 4, Out.data(), 0,
                            nullptr, nullptr));
  size_t Bad = 0, First = 0;
  for (size_t I = 0; I < N; ++I)
    if (Out[I] != Ref[I] && !Bad++)
      First = I;
  std::printf("  N=%zu, %zu segments, %u tiles of %u: %.2f ms, %.2f GB/s "
              "(read values and heads, write sums)\n",
              N, Heads + !Head[0], Groups, Tile, Best * 1e3,
              9.0 * N / Best / 1e9);
  if (Bad)
    std::printf("  %zu wrong, first at %zu: %u, expected %u\n", Bad, First,
                Out[First], Ref[First]);
  std::printf("%s\n", Bad ? "FAILED" : "verified");
  for (cl_mem B : {BVal, BHead, BOut, BTail, BHas, BFirst, BScan, BDummy[0],
                   BDummy[1], BDummy[2]})
    clReleaseMemObject(B);
  clReleaseKernel(KSeg);
  clReleaseKernel(KFix);
  clReleaseProgram(P);
  clReleaseCommandQueue(Dev.Q);
  clReleaseContext(Dev.Ctx);
  return Bad ? 1 : 0;
}
