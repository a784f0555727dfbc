// scan: prefix sums with OpenCL work-group functions and across a whole
// buffer, verified against the host.
//
//   1. The example from the OpenCL C spec: work_group_scan_inclusive_add and
//      work_group_scan_exclusive_add over [3 1 7 0 4 1 6 3] in one
//      work-group of 8.
//   2. An exclusive scan of N uints (default 16M), two ways:
//      - three passes: each work-group scans its tile with
//        work_group_scan_exclusive_add and writes the tile total; one
//        work-group scans the totals; every element gets its tile's offset
//        added back;
//      - one pass with decoupled look-back (OpenCL 1.2 atomics only): each
//        work-group takes the next tile index from an atomic counter,
//        publishes its tile aggregate, then walks back over the tiles before
//        it until it finds an inclusive prefix. Tile indices are handed out
//        in the order work-groups start, so a tile only ever waits for tiles
//        whose work-groups are already running: no deadlock whatever order
//        the device dispatches work-groups in.
//
// Usage: scan [N [V]] [--platform NAME]
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
#ifdef HAVE_WG
// The spec's example: one work-group, one element per work-item.
__kernel void seed_scan(__global const int *in, __global int *inc,
                        __global int *exc) {
  size_t i = get_global_id(0);
  inc[i] = work_group_scan_inclusive_add(in[i]);
  exc[i] = work_group_scan_exclusive_add(in[i]);
}

// Three-pass scan, pass 1. A tile is local_size * v elements; each work-item
// owns v consecutive ones, sums them, and the work-group scan of those sums
// is where the work-item's elements start inside the tile.
__kernel void tile_scan(__global const uint *in, __global uint *out,
                        __global uint *sums, uint n, uint v) {
  size_t lid = get_local_id(0), L = get_local_size(0);
  size_t base = (get_group_id(0) * L + lid) * v;
  uint s = 0;
  for (uint k = 0; k < v; ++k)
    s += base + k < n ? in[base + k] : 0;
  uint off = work_group_scan_exclusive_add(s);
  for (uint k = 0; k < v; ++k)
    if (base + k < n) {
      out[base + k] = off;
      off += in[base + k];
    }
  if (lid == L - 1)
    sums[get_group_id(0)] = off;
}

// Pass 2: one work-group scans the g tile totals in place, L at a time.
__kernel void scan_sums(__global uint *sums, uint g) {
  size_t lid = get_local_id(0), L = get_local_size(0);
  uint carry = 0;
  for (uint b = 0; b < g; b += L) {
    uint i = b + lid;
    uint x = i < g ? sums[i] : 0;
    uint e = work_group_scan_exclusive_add(x);
    if (i < g)
      sums[i] = carry + e;
    carry += work_group_reduce_add(x);
  }
}

// Pass 3: add each tile's offset.
__kernel void add_offsets(__global uint *out, __global const uint *sums,
                          uint n, uint tile) {
  size_t i = get_global_id(0);
  if (i < n)
    out[i] += sums[i / tile];
}
#endif

// Exclusive scan of one value per work-item in local memory (Hillis-Steele,
// double-buffered; buf holds 2 * local_size uints). Sets *total to the sum
// over the work-group. Every work-item must call it.
uint local_exclusive_scan(uint x, __local uint *buf, uint *total) {
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
}

#define FLAG_NONE 0u      // nothing published yet
#define FLAG_AGGREGATE 1u // aggs[t] holds the tile's own sum
#define FLAG_PREFIX 2u    // prefs[t] holds the sum of tiles 0..t

// Single-pass scan with decoupled look-back. buf: 2 * local_size + 1 uints.
__kernel void scan_lookback(__global const uint *in, __global uint *out,
                            uint n, uint v, __global uint *flags,
                            __global uint *aggs, __global uint *prefs,
                            __global uint *counter, __local uint *buf) {
  size_t lid = get_local_id(0), L = get_local_size(0);
  __local uint *shared = buf + 2 * L;
  if (lid == 0)
    *shared = atomic_inc(counter);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint t = *shared;
  size_t base = ((size_t)t * L + lid) * v;
  uint s = 0;
  for (uint k = 0; k < v; ++k)
    s += base + k < n ? in[base + k] : 0;
  uint total;
  uint off = local_exclusive_scan(s, buf, &total);
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
    *shared = prefix;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  off += *shared;
  for (uint k = 0; k < v; ++k)
    if (base + k < n) {
      out[base + k] = off;
      off += in[base + k];
    }
}
)CLC";

// ---- The example ------------------------------------------------------------

static void print(const char *Label, const std::vector<int> &V) {
  std::printf("  %-10s [", Label);
  for (size_t I = 0; I < V.size(); ++I)
    std::printf(I ? " %d" : "%d", V[I]);
  std::printf("]\n");
}

// The spec example; returns false when a result is wrong.
static bool seedExample(const Device &Dev, cl_program P) {
  cl_kernel K = makeKernel(P, "seed_scan");
  std::vector<int> In = {3, 1, 7, 0, 4, 1, 6, 3}, Inc(8), Exc(8), RefInc(8),
                   RefExc(8);
  for (int I = 0, S = 0; I < 8; ++I) {
    RefExc[I] = S;
    S += In[I];
    RefInc[I] = S;
  }
  size_t Max = 0;
  CHECK(clGetKernelWorkGroupInfo(K, Dev.Id, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof Max, &Max, nullptr));
  if (Max < 8) {
    std::printf("seed example: kernel work-group size %zu < 8, skipped\n", Max);
    clReleaseKernel(K);
    return true;
  }
  cl_mem BIn = makeBuffer(Dev, 8 * sizeof(int), In.data());
  cl_mem BInc = makeBuffer(Dev, 8 * sizeof(int));
  cl_mem BExc = makeBuffer(Dev, 8 * sizeof(int));
  setArg(K, 0, BIn);
  setArg(K, 1, BInc);
  setArg(K, 2, BExc);
  size_t G = 8, L = 8;
  CHECK(clEnqueueNDRangeKernel(Dev.Q, K, 1, nullptr, &G, &L, 0, nullptr,
                               nullptr));
  CHECK(clEnqueueReadBuffer(Dev.Q, BInc, CL_TRUE, 0, 8 * sizeof(int),
                            Inc.data(), 0, nullptr, nullptr));
  CHECK(clEnqueueReadBuffer(Dev.Q, BExc, CL_TRUE, 0, 8 * sizeof(int),
                            Exc.data(), 0, nullptr, nullptr));
  bool Ok = Inc == RefInc && Exc == RefExc;
  std::printf("work-group scan of the spec's example (one work-group of 8):\n");
  print("input", In);
  print("inclusive", Inc);
  print("exclusive", Exc);
  std::printf("  %s\n", Ok ? "verified" : "FAILED");
  if (!Ok) {
    print("expected", RefInc);
    print("expected", RefExc);
  }
  clReleaseMemObject(BIn);
  clReleaseMemObject(BInc);
  clReleaseMemObject(BExc);
  clReleaseKernel(K);
  return Ok;
}

static bool check(const char *What, const std::vector<uint32_t> &Got,
                  const std::vector<uint32_t> &Ref, double Sec) {
  size_t Bad = 0, First = 0;
  for (size_t I = 0; I < Ref.size(); ++I)
    if (Got[I] != Ref[I] && !Bad++)
      First = I;
  double N = static_cast<double>(Ref.size());
  std::printf("  %-28s %8.2f ms %7.2f GB/s  %s", What, Sec * 1e3,
              8.0 * N / Sec / 1e9, Bad ? "FAILED" : "verified");
  if (Bad)
    std::printf(" (%zu wrong, first at %zu: %u, expected %u)", Bad, First,
                Got[First], Ref[First]);
  std::printf("\n");
  return Bad == 0;
}

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
  std::printf("scan on %s\n", Dev.PlatformName.c_str());
  cl_program P = buildProgram(
      Dev, Source, HaveWG ? Dev.CollectiveStd + " -DHAVE_WG" : std::string());
  bool Ok = true;

  if (HaveWG)
    Ok &= seedExample(Dev, P);
  else
    std::printf("device lacks __opencl_c_work_group_collective_functions: "
                "spec example and three-pass scan skipped\n");

  // Input: small values so the host reference is easy to eyeball; uint
  // arithmetic wraps the same way on both sides anyway.
  std::vector<uint32_t> In(N), Ref(N), Out(N);
  uint32_t S = 0;
  for (size_t I = 0; I < N; ++I) {
    In[I] = static_cast<uint32_t>((I * 2654435761u) >> 28);
    Ref[I] = S;
    S += In[I];
  }
  cl_mem BIn = makeBuffer(Dev, N * 4, In.data());
  cl_mem BOut = makeBuffer(Dev, N * 4);
  const cl_uint V = static_cast<cl_uint>(PerItem);
  const cl_uint Zero = 0;
  std::printf("exclusive scan of N=%zu uints:\n", N);

  auto ReadOut = [&] {
    std::fill(Out.begin(), Out.end(), 0xdeadbeefu);
    CHECK(clEnqueueReadBuffer(Dev.Q, BOut, CL_TRUE, 0, N * 4, Out.data(), 0,
                              nullptr, nullptr));
  };
  auto ClearOut = [&] {
    cl_uint Junk = 0xdeadbeefu;
    CHECK(clEnqueueFillBuffer(Dev.Q, BOut, &Junk, 4, 0, N * 4, 0, nullptr,
                              nullptr));
    CHECK(clFinish(Dev.Q));
  };
  const int Runs = 3; // best of

  if (HaveWG) {
    cl_kernel KTile = makeKernel(P, "tile_scan");
    cl_kernel KSums = makeKernel(P, "scan_sums");
    cl_kernel KAdd = makeKernel(P, "add_offsets");
    size_t L = localSize(KTile, Dev, 64);
    size_t LS = localSize(KSums, Dev, 256);
    cl_uint Tile = static_cast<cl_uint>(L * V);
    cl_uint Groups = static_cast<cl_uint>((N + Tile - 1) / Tile);
    cl_mem BSums = makeBuffer(Dev, Groups * 4);
    cl_uint N32 = static_cast<cl_uint>(N);
    setArg(KTile, 0, BIn);
    setArg(KTile, 1, BOut);
    setArg(KTile, 2, BSums);
    setArg(KTile, 3, N32);
    setArg(KTile, 4, V);
    setArg(KSums, 0, BSums);
    setArg(KSums, 1, Groups);
    setArg(KAdd, 0, BOut);
    setArg(KAdd, 1, BSums);
    setArg(KAdd, 2, N32);
    setArg(KAdd, 3, Tile);
    double Best = 1e30;
    for (int R = 0; R < Runs; ++R) {
      ClearOut();
      auto T0 = std::chrono::steady_clock::now();
      size_t G1 = Groups * L;
      CHECK(clEnqueueNDRangeKernel(Dev.Q, KTile, 1, nullptr, &G1, &L, 0,
                                   nullptr, nullptr));
      CHECK(clEnqueueNDRangeKernel(Dev.Q, KSums, 1, nullptr, &LS, &LS, 0,
                                   nullptr, nullptr));
      CHECK(clEnqueueNDRangeKernel(Dev.Q, KAdd, 1, nullptr, &N, nullptr, 0,
                                   nullptr, nullptr));
      CHECK(clFinish(Dev.Q));
      Best = std::min(Best, seconds(T0));
    }
    ReadOut();
    char What[64];
    std::snprintf(What, sizeof What, "three-pass (%u tiles of %u)", Groups,
                  Tile);
    Ok &= check(What, Out, Ref, Best);
    clReleaseMemObject(BSums);
    clReleaseKernel(KTile);
    clReleaseKernel(KSums);
    clReleaseKernel(KAdd);
  }

  {
    cl_kernel K = makeKernel(P, "scan_lookback");
    size_t L = localSize(K, Dev, 64);
    cl_uint Tile = static_cast<cl_uint>(L * V);
    cl_uint Tiles = static_cast<cl_uint>((N + Tile - 1) / Tile);
    cl_mem BFlags = makeBuffer(Dev, Tiles * 4);
    cl_mem BAggs = makeBuffer(Dev, Tiles * 4);
    cl_mem BPrefs = makeBuffer(Dev, Tiles * 4);
    cl_mem BCounter = makeBuffer(Dev, 4);
    cl_uint N32 = static_cast<cl_uint>(N);
    setArg(K, 0, BIn);
    setArg(K, 1, BOut);
    setArg(K, 2, N32);
    setArg(K, 3, V);
    setArg(K, 4, BFlags);
    setArg(K, 5, BAggs);
    setArg(K, 6, BPrefs);
    setArg(K, 7, BCounter);
    CHECK(clSetKernelArg(K, 8, (2 * L + 1) * 4, nullptr));
    double Best = 1e30;
    for (int R = 0; R < Runs; ++R) {
      ClearOut();
      CHECK(clEnqueueFillBuffer(Dev.Q, BFlags, &Zero, 4, 0, Tiles * 4, 0,
                                nullptr, nullptr));
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
    ReadOut();
    char What[64];
    std::snprintf(What, sizeof What, "decoupled look-back (%u tiles)", Tiles);
    Ok &= check(What, Out, Ref, Best);
    clReleaseMemObject(BFlags);
    clReleaseMemObject(BAggs);
    clReleaseMemObject(BPrefs);
    clReleaseMemObject(BCounter);
    clReleaseKernel(K);
  }

  std::printf("%s\n", Ok ? "verified" : "FAILED");
  clReleaseMemObject(BIn);
  clReleaseMemObject(BOut);
  clReleaseProgram(P);
  clReleaseCommandQueue(Dev.Q);
  clReleaseContext(Dev.Ctx);
  return Ok ? 0 : 1;
}
