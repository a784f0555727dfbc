// compact: stream compaction, keeping the elements of an int array that
// satisfy a predicate (here x % 3 == 0), in order, verified against
// std::copy_if.
//
// It is the single-pass decoupled look-back scan of examples/scan applied to
// the predicate: each work-group takes the next tile index from an atomic
// counter, counts the kept elements of its tile, scans those counts across
// its work-items (work_group_scan_exclusive_add when the device has
// work-group collective functions, a scan in local memory otherwise),
// publishes the tile's count, looks back over the earlier tiles for its
// output offset, and writes its kept elements there. The last tile writes
// the total.
//
// Usage: compact [N [V]] [--platform NAME]
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
#include <iterator>
#include <string>
#include <vector>

static const char *Source = R"CLC(
#define KEEP(x) ((x) % 3 == 0)

// Exclusive scan of one value per work-item over the work-group; *total is
// the work-group's sum. buf: 2 * local_size uints (unused with HAVE_WG).
uint block_exclusive_scan(uint x, __local uint *buf, uint *total) {
#ifdef HAVE_WG
  *total = work_group_reduce_add(x);
  return work_group_scan_exclusive_add(x);
#else
  size_t lid = get_local_id(0), L = get_local_size(0);
  __local uint *src = buf, *dst = buf + L;
  src[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t d = 1; d < L; d <<= 1) {
    uint y = src[lid];
    if (lid >= d)
      y += src[lid - d];
    dst[lid] = y;
    barrier(CLK_LOCAL_MEM_FENCE);
    __local uint *t = src;
    src = dst;
    dst = t;
  }
  uint incl = src[lid];
  *total = src[L - 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  return incl - x;
#endif
}

#define FLAG_NONE 0u      // nothing published yet
#define FLAG_AGGREGATE 1u // aggs[t] holds the tile's own count
#define FLAG_PREFIX 2u    // prefs[t] holds the count of tiles 0..t

// buf: 2 * local_size + 1 uints.
__kernel void compact(__global const int *in, __global int *out,
                      __global uint *count, uint n, uint v, uint tiles,
                      __global uint *flags, __global uint *aggs,
                      __global uint *prefs, __global uint *counter,
                      __local uint *buf) {
  size_t lid = get_local_id(0), L = get_local_size(0);
  __local uint *shared = buf + 2 * L;
  if (lid == 0)
    *shared = atomic_inc(counter);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint t = *shared;
  size_t base = ((size_t)t * L + lid) * v;
  uint c = 0;
  for (uint k = 0; k < v; ++k)
    c += base + k < n && KEEP(in[base + k]);
  uint total;
  uint off = block_exclusive_scan(c, buf, &total);
  if (lid == 0) {
    uint prefix = 0;
    if (t != 0) {
      atomic_xchg(&aggs[t], total);
      mem_fence(CLK_GLOBAL_MEM_FENCE);
      atomic_xchg(&flags[t], FLAG_AGGREGATE);
      for (uint j = t - 1;;) {
        uint f = atomic_add(&flags[j], 0);
        if (f == FLAG_NONE)
          continue; // tile j's work-group is running: wait for it
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        if (f == FLAG_PREFIX) {
          prefix += atomic_add(&prefs[j], 0);
          break;
        }
        prefix += atomic_add(&aggs[j], 0);
        --j;
      }
    }
    atomic_xchg(&prefs[t], prefix + total);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_xchg(&flags[t], FLAG_PREFIX);
    if (t == tiles - 1)
      *count = prefix + total;
    *shared = prefix;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  off += *shared;
  for (uint k = 0; k < v; ++k)
    if (base + k < n && KEEP(in[base + k]))
      out[off++] = in[base + k];
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
  bool HaveWG = !Dev.CollectiveStd.empty();
  std::printf("compact on %s (tile scan: %s)\n", Dev.PlatformName.c_str(),
              HaveWG ? "work_group_scan_exclusive_add"
                     : "local memory, no work-group collective functions");
  cl_program P = buildProgram(
      Dev, Source, HaveWG ? Dev.CollectiveStd + " -DHAVE_WG" : std::string());
  cl_kernel K = makeKernel(P, "compact");

  // Pseudo-random ints of both signs.
  std::vector<int32_t> In(N), Out(N);
  uint64_t Seed = 0x9e3779b97f4a7c15ull;
  for (size_t I = 0; I < N; ++I) {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    In[I] = static_cast<int32_t>(Seed >> 32);
  }
  std::vector<int32_t> Ref;
  Ref.reserve(N);
  std::copy_if(In.begin(), In.end(), std::back_inserter(Ref),
               [](int32_t X) { return X % 3 == 0; });

  const cl_uint V = static_cast<cl_uint>(PerItem);
  size_t L = localSize(K, Dev, 64);
  cl_uint Tile = static_cast<cl_uint>(L * V);
  cl_uint Tiles = static_cast<cl_uint>((N + Tile - 1) / Tile);
  cl_uint N32 = static_cast<cl_uint>(N);
  cl_mem BIn = makeBuffer(Dev, N * 4, In.data());
  cl_mem BOut = makeBuffer(Dev, N * 4);
  cl_mem BCount = makeBuffer(Dev, 4);
  cl_mem BFlags = makeBuffer(Dev, Tiles * 4);
  cl_mem BAggs = makeBuffer(Dev, Tiles * 4);
  cl_mem BPrefs = makeBuffer(Dev, Tiles * 4);
  cl_mem BCounter = makeBuffer(Dev, 4);
  setArg(K, 0, BIn);
  setArg(K, 1, BOut);
  setArg(K, 2, BCount);
  setArg(K, 3, N32);
  setArg(K, 4, V);
  setArg(K, 5, Tiles);
  setArg(K, 6, BFlags);
  setArg(K, 7, BAggs);
  setArg(K, 8, BPrefs);
  setArg(K, 9, BCounter);
  CHECK(clSetKernelArg(K, 10, (2 * L + 1) * 4, nullptr));

  const cl_uint Zero = 0, Junk = 0xdeadbeefu;
  double Best = 1e30;
  for (int R = 0; R < 3; ++R) { // best of 3
    CHECK(clEnqueueFillBuffer(Dev.Q, BOut, &Junk, 4, 0, N * 4, 0, nullptr,
                              nullptr));
    CHECK(clEnqueueFillBuffer(Dev.Q, BCount, &Junk, 4, 0, 4, 0, nullptr,
                              nullptr));
    CHECK(clEnqueueFillBuffer(Dev.Q, BFlags, &Zero, 4, 0, Tiles * 4, 0, nullptr,
                              nullptr));
    CHECK(clEnqueueFillBuffer(Dev.Q, BCounter, &Zero, 4, 0, 4, 0, nullptr,
                              nullptr));
    CHECK(clFinish(Dev.Q));
    auto T0 = std::chrono::steady_clock::now();
    size_t G = Tiles * L;
    CHECK(clEnqueueNDRangeKernel(Dev.Q, K, 1, nullptr, &G, &L, 0, nullptr,
                                 nullptr));
    CHECK(clFinish(Dev.Q));
    Best = std::min(Best, seconds(T0));
  }
  cl_uint Count = 0;
  CHECK(clEnqueueReadBuffer(Dev.Q, BCount, CL_TRUE, 0, 4, &Count, 0, nullptr,
                            nullptr));
  bool Ok = Count == Ref.size();
  if (Ok) {
    CHECK(clEnqueueReadBuffer(Dev.Q, BOut, CL_TRUE, 0, Count * 4, Out.data(), 0,
                              nullptr, nullptr));
    Ok = std::equal(Ref.begin(), Ref.end(), Out.begin());
  }
  std::printf("kept %u of %zu ints (x %% 3 == 0; std::copy_if kept %zu), "
              "%u tiles of %u: %.2f ms, %.2f GB/s\n",
              Count, N, Ref.size(), Tiles, Tile, Best * 1e3,
              4.0 * (N + Ref.size()) / Best / 1e9);
  std::printf("%s\n", Ok ? "verified" : "FAILED");
  clReleaseMemObject(BIn);
  clReleaseMemObject(BOut);
  clReleaseMemObject(BCount);
  clReleaseMemObject(BFlags);
  clReleaseMemObject(BAggs);
  clReleaseMemObject(BPrefs);
  clReleaseMemObject(BCounter);
  clReleaseKernel(K);
  clReleaseProgram(P);
  clReleaseCommandQueue(Dev.Q);
  clReleaseContext(Dev.Ctx);
  return Ok ? 0 : 1;
}
