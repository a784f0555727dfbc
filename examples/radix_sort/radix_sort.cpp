// radix_sort: least-significant-digit radix sort of 32-bit keys, and of
// key-value pairs, verified against std::sort and std::stable_sort.
//
// Eight passes of 4-bit digits. Each pass:
//   1. histogram: every work-group counts the 16 digits of its tile
//      (local_size * v keys) into hist[digit * tiles + tile];
//   2. scan_hist: one work-group scans hist (exclusive), so
//      hist[digit * tiles + tile] becomes the first output slot of that
//      tile's keys with that digit;
//   3. scatter: every work-group ranks its keys stably (per work-item digit
//      counts in local memory, scanned in digit-major order) and writes each
//      key (and value) to its slot.
// Stability of every pass is what makes LSD radix sort correct, and what
// the key-value check against std::stable_sort tests. The scans use
// work_group_scan_exclusive_add when the device has work-group collective
// functions and a scan in local memory otherwise.
//
// Usage: radix_sort [N [V]] [--platform NAME]
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
#include <utility>
#include <vector>

static const char *Source = R"CLC(
#define RADIX 16

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

// Needs local_size >= RADIX.
__kernel void histogram(__global const uint *keys, uint n, uint v, uint shift,
                        __global uint *hist, uint tiles) {
  __local uint h[RADIX];
  size_t lid = get_local_id(0), L = get_local_size(0), g = get_group_id(0);
  if (lid < RADIX)
    h[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint c[RADIX];
  for (uint d = 0; d < RADIX; ++d)
    c[d] = 0;
  size_t base = (g * L + lid) * v;
  for (uint k = 0; k < v; ++k)
    if (base + k < n)
      ++c[(keys[base + k] >> shift) & (RADIX - 1)];
  for (uint d = 0; d < RADIX; ++d)
    if (c[d])
      atomic_add(&h[d], c[d]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < RADIX)
    hist[lid * tiles + g] = h[lid];
}

// One work-group: exclusive scan of hist[0..m) in place, local_size at a
// time. buf: 2 * local_size uints.
__kernel void scan_hist(__global uint *hist, uint m, __local uint *buf) {
  size_t lid = get_local_id(0), L = get_local_size(0);
  uint carry = 0;
  for (uint b = 0; b < m; b += L) {
    uint i = b + lid;
    uint x = i < m ? hist[i] : 0;
    uint total;
    uint e = block_exclusive_scan(x, buf, &total);
    if (i < m)
      hist[i] = carry + e;
    carry += total;
  }
}

// cnt: RADIX * local_size uints; buf: 2 * local_size uints. has_values
// selects whether vin/vout are moved along with the keys.
__kernel void scatter(__global const uint *kin, __global uint *kout,
                      __global const uint *vin, __global uint *vout,
                      int has_values, uint n, uint v, uint shift,
                      __global const uint *hist, uint tiles,
                      __local uint *cnt, __local uint *buf) {
  size_t lid = get_local_id(0), L = get_local_size(0), g = get_group_id(0);
  size_t base = (g * L + lid) * v;
  uint c[RADIX];
  for (uint d = 0; d < RADIX; ++d)
    c[d] = 0;
  for (uint k = 0; k < v; ++k)
    if (base + k < n)
      ++c[(kin[base + k] >> shift) & (RADIX - 1)];
  // cnt[d * L + i]: keys with digit d in work-item i's part of the tile.
  for (uint d = 0; d < RADIX; ++d)
    cnt[d * L + lid] = c[d];
  barrier(CLK_LOCAL_MEM_FENCE);
  // Exclusive scan of cnt in that (digit-major) order: work-item i owns
  // entries RADIX*i .. RADIX*i + RADIX-1.
  uint s = 0;
  for (uint j = 0; j < RADIX; ++j)
    s += cnt[lid * RADIX + j];
  uint total;
  uint off = block_exclusive_scan(s, buf, &total);
  for (uint j = 0; j < RADIX; ++j) {
    uint x = cnt[lid * RADIX + j];
    cnt[lid * RADIX + j] = off;
    off += x;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Now cnt[d * L + i] - cnt[d * L] is how many keys with digit d come
  // before work-item i's inside the tile.
  uint pos[RADIX];
  for (uint d = 0; d < RADIX; ++d)
    pos[d] = hist[d * tiles + g] + cnt[d * L + lid] - cnt[d * L];
  for (uint k = 0; k < v; ++k)
    if (base + k < n) {
      uint key = kin[base + k];
      uint dst = pos[(key >> shift) & (RADIX - 1)]++;
      kout[dst] = key;
      if (has_values)
        vout[dst] = vin[base + k];
    }
}
)CLC";

// ---- The example ------------------------------------------------------------

struct Sorter {
  const Device &Dev;
  cl_kernel KHist, KScan, KScatter;
  size_t L, LS;
  cl_uint V = 64; // keys per work-item

  Sorter(const Device &Dev, cl_program P) : Dev(Dev) {
    KHist = makeKernel(P, "histogram");
    KScan = makeKernel(P, "scan_hist");
    KScatter = makeKernel(P, "scatter");
    // One work-group size for histogram and scatter (they must agree on the
    // tiles), at least 16 for the histogram's digit slots.
    L = std::min(localSize(KHist, Dev, 64), localSize(KScatter, Dev, 64));
    LS = localSize(KScan, Dev, 256);
  }
  ~Sorter() {
    clReleaseKernel(KHist);
    clReleaseKernel(KScan);
    clReleaseKernel(KScatter);
  }

  // Sorts Keys (and Values, when not empty) in place; returns seconds spent
  // in the eight passes.
  double sort(std::vector<uint32_t> &Keys, std::vector<uint32_t> &Values) {
    size_t N = Keys.size();
    bool HasValues = !Values.empty();
    cl_uint Tile = static_cast<cl_uint>(L * V);
    cl_uint Tiles = static_cast<cl_uint>((N + Tile - 1) / Tile);
    cl_uint M = 16 * Tiles, N32 = static_cast<cl_uint>(N);
    cl_mem K[2] = {makeBuffer(Dev, N * 4, Keys.data()), makeBuffer(Dev, N * 4)};
    cl_mem Val[2] = {
        makeBuffer(Dev, N * 4, HasValues ? Values.data() : nullptr),
        makeBuffer(Dev, N * 4)};
    cl_mem Hist = makeBuffer(Dev, M * 4);
    cl_int HV = HasValues;
    CHECK(clFinish(Dev.Q));
    auto T0 = std::chrono::steady_clock::now();
    for (cl_uint Pass = 0; Pass < 8; ++Pass) {
      cl_uint Shift = 4 * Pass;
      cl_mem KIn = K[Pass % 2], KOut = K[1 - Pass % 2];
      cl_mem VIn = Val[Pass % 2], VOut = Val[1 - Pass % 2];
      setArg(KHist, 0, KIn);
      setArg(KHist, 1, N32);
      setArg(KHist, 2, V);
      setArg(KHist, 3, Shift);
      setArg(KHist, 4, Hist);
      setArg(KHist, 5, Tiles);
      setArg(KScan, 0, Hist);
      setArg(KScan, 1, M);
      CHECK(clSetKernelArg(KScan, 2, 2 * LS * 4, nullptr));
      setArg(KScatter, 0, KIn);
      setArg(KScatter, 1, KOut);
      setArg(KScatter, 2, VIn);
      setArg(KScatter, 3, VOut);
      setArg(KScatter, 4, HV);
      setArg(KScatter, 5, N32);
      setArg(KScatter, 6, V);
      setArg(KScatter, 7, Shift);
      setArg(KScatter, 8, Hist);
      setArg(KScatter, 9, Tiles);
      CHECK(clSetKernelArg(KScatter, 10, 16 * L * 4, nullptr));
      CHECK(clSetKernelArg(KScatter, 11, 2 * L * 4, nullptr));
      size_t G = Tiles * L;
      CHECK(clEnqueueNDRangeKernel(Dev.Q, KHist, 1, nullptr, &G, &L, 0, nullptr,
                                   nullptr));
      CHECK(clEnqueueNDRangeKernel(Dev.Q, KScan, 1, nullptr, &LS, &LS, 0,
                                   nullptr, nullptr));
      CHECK(clEnqueueNDRangeKernel(Dev.Q, KScatter, 1, nullptr, &G, &L, 0,
                                   nullptr, nullptr));
    }
    CHECK(clFinish(Dev.Q));
    double Sec = seconds(T0);
    // After 8 passes the result is back in buffer 0.
    CHECK(clEnqueueReadBuffer(Dev.Q, K[0], CL_TRUE, 0, N * 4, Keys.data(), 0,
                              nullptr, nullptr));
    if (HasValues)
      CHECK(clEnqueueReadBuffer(Dev.Q, Val[0], CL_TRUE, 0, N * 4, Values.data(),
                                0, nullptr, nullptr));
    for (cl_mem B : {K[0], K[1], Val[0], Val[1], Hist})
      clReleaseMemObject(B);
    return Sec;
  }
};

static uint32_t hash(uint64_t X) {
  X = (X ^ (X >> 31)) * 0x7fb5d329728ea185ull;
  X = (X ^ (X >> 27)) * 0x81dadef4bc2dd44dull;
  return static_cast<uint32_t>(X ^ (X >> 33));
}

int main(int Argc, char **Argv) {
  std::string Want;
  std::vector<std::string> Args = parseArgs(Argc, Argv, Want);
  size_t N =
      !Args.empty() ? std::strtoull(Args[0].c_str(), nullptr, 10) : (4u << 20);
  if (N == 0 || N > (1u << 28)) {
    std::fprintf(stderr, "N must be in 1..2^28\n");
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
  std::printf("radix_sort on %s (scans: %s)\n", Dev.PlatformName.c_str(),
              HaveWG ? "work_group_scan_exclusive_add"
                     : "local memory, no work-group collective functions");
  cl_program P = buildProgram(
      Dev, Source, HaveWG ? Dev.CollectiveStd + " -DHAVE_WG" : std::string());
  Sorter S(Dev, P);
  S.V = static_cast<cl_uint>(PerItem);
  if (S.L < 16) { // the histogram kernel has a work-item per digit
    std::printf("kernel work-group size %zu < 16: skipped\n", S.L);
    return 0;
  }
  bool Ok = true;
  { // Warm-up (some implementations compile kernels at first launch).
    std::vector<uint32_t> Keys(3 * S.L * S.V + 1), Values(Keys.size());
    for (size_t I = 0; I < Keys.size(); ++I)
      Keys[I] = hash(I);
    S.sort(Keys, Values);
  }

  // Keys only: full 32-bit pseudo-random keys.
  {
    std::vector<uint32_t> Keys(N), None;
    for (size_t I = 0; I < N; ++I)
      Keys[I] = hash(I);
    std::vector<uint32_t> Ref = Keys;
    std::sort(Ref.begin(), Ref.end());
    double Sec = S.sort(Keys, None);
    bool Good = Keys == Ref;
    std::printf("  %zu keys:  %8.2f ms %7.1f Mkeys/s  %s\n", N, Sec * 1e3,
                N / Sec / 1e6, Good ? "verified (std::sort)" : "FAILED");
    Ok &= Good;
  }

  // Key-value pairs: keys with many duplicates (16 random bits spread over
  // all 32), values = original positions, so only a stable sort matches.
  {
    std::vector<uint32_t> Keys(N), Values(N);
    std::vector<std::pair<uint32_t, uint32_t>> Ref(N);
    for (size_t I = 0; I < N; ++I) {
      Keys[I] = hash(I + N) & 0xf00ff00fu;
      Values[I] = static_cast<uint32_t>(I);
      Ref[I] = {Keys[I], Values[I]};
    }
    std::stable_sort(Ref.begin(), Ref.end(), [](const auto &A, const auto &B) {
      return A.first < B.first;
    });
    double Sec = S.sort(Keys, Values);
    bool Good = true;
    for (size_t I = 0; I < N && Good; ++I)
      Good = Keys[I] == Ref[I].first && Values[I] == Ref[I].second;
    std::printf("  %zu pairs: %8.2f ms %7.1f Mpairs/s %s\n", N, Sec * 1e3,
                N / Sec / 1e6, Good ? "verified (std::stable_sort)" : "FAILED");
    Ok &= Good;
  }

  std::printf("%s\n", Ok ? "verified" : "FAILED");
  clReleaseProgram(P);
  clReleaseCommandQueue(Dev.Q);
  clReleaseContext(Dev.Ctx);
  return Ok ? 0 : 1;
}
