// Loops whose body is guarded by a bound that only goes from true to false
// (compiler/passes/GuardedLoopBound.cpp stops them at the first false guard).
// OpenCL 3.0 API 5.10: each work-item must compute exactly what it would
// with every guard evaluated. The kernels cover <, <=, >, unsigned and
// 64-bit guards, guards false from the first iteration, loops whose values
// are used after the loop, and a guard that is not monotonic (left alone),
// for data sizes that end inside a work-item's range, at its edge and
// beyond every range, on the work-item loop and the barrier-region path.

#include "SchedulerCommon.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

const char *Source = R"(
// k consecutive elements per work-item, guarded by n: the scan bench's
// shape (sum, then a running prefix written out).
kernel void chunk_prefix(global const int *in, global int *out,
                         global int *sums, int n, int k) {
  int base = get_global_id(0) * k;
  int s = 0;
  for (int j = 0; j < k; ++j)
    if (base + j < n)
      s += in[base + j];
  int pre = 0;
  for (int j = 0; j < k; ++j)
    if (base + j < n) {
      out[base + j] = pre;
      pre += in[base + j];
    }
  sums[get_global_id(0)] = s * 2 + pre;
}
// <= and the bound on the left: `last >= base + j`.
kernel void chunk_le(global const long *in, global long *out, int last,
                     int k) {
  int base = get_global_id(0) * k;
  long m = -1;
  for (int j = 0; j < k; ++j)
    if (last >= base + j)
      m = max(m, in[base + j]);
  out[get_global_id(0)] = m;
}
// Unsigned, starting mid-range, the then-branch on the false edge.
kernel void chunk_unsigned(global const uint *in, global uint *out, uint n,
                           uint k) {
  uint base = get_global_id(0) * k + 3u;
  uint x = 7u;
  for (uint j = 0; j < k; ++j) {
    if (base + j >= n)
      continue;
    x = x * 31u + in[base + j];
  }
  out[get_global_id(0)] = x;
}
// A guard that turns true later (j >= skip): not a prefix, kept as is.
kernel void chunk_suffix(global const int *in, global int *out, int skip,
                         int k) {
  int base = get_global_id(0) * k;
  int s = 0;
  for (int j = 0; j < k; ++j)
    if (j >= skip)
      s += in[base + j];
  out[get_global_id(0)] = s;
}
// The barrier-region path: the same loops between two barriers.
kernel void chunk_regions(global const int *in, global int *out, local int *t,
                          int n, int k) {
  int lid = get_local_id(0);
  int base = get_global_id(0) * k;
  int s = 0;
  for (int j = 0; j < k; ++j)
    if (base + j < n)
      s += in[base + j];
  t[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  int pre = lid > 0 ? t[lid - 1] : 0;
  for (int j = 0; j < k; ++j)
    if (base + j < n) {
      out[base + j] = pre;
      pre += in[base + j];
    }
}
)";

} // namespace

using sched::expectEqual;

TEST_CASE("5.10 (compiler/passes/GuardedLoopBound.cpp): loops guarded by a "
          "monotonic bound compute what every guard evaluated would",
          "[compiler][guarded]") {
  for (bool Fibers : {false, true}) {
    INFO((Fibers ? "forced fibers" : "default path"));
    sched::Env E;
    cl_program P = E.build(Source, Fibers ? "-cl-std=CL2.0 -clcpu-force-fibers"
                                          : "-cl-std=CL2.0");
    const size_t G = 64, L = 16;
    for (int K : {1, 3, 8, 13}) {
      const int Cap = int(G) * K + 8;
      std::vector<int> In(Cap);
      for (int I = 0; I < Cap; ++I)
        In[I] = (I * 37) % 101 - 50;
      cl_mem BIn = E.buffer(In);
      // Ends before the first range, inside one, at an edge, past all.
      for (int N : {0, 1, K * 5 + K / 2, K * 17, int(G) * K, Cap}) {
        INFO("k " << K << " n " << N);
        std::vector<int> Out0(Cap, -7);
        cl_mem BOut = E.buffer(Out0), BSums = E.buffer(std::vector<int>(G));
        E.launch(P, "chunk_prefix", G, L, BIn, BOut, BSums, N, K);
        std::vector<int> Want = Out0, WantSums(G);
        for (int W = 0; W < int(G); ++W) {
          int S = 0, Pre = 0;
          for (int J = 0; J < K; ++J)
            if (W * K + J < N) {
              S += In[W * K + J];
              Want[W * K + J] = Pre;
              Pre += In[W * K + J];
            }
          WantSums[W] = S * 2 + Pre;
        }
        expectEqual(E.read<int>(BOut, Cap), Want, "out");
        expectEqual(E.read<int>(BSums, G), WantSums, "sums");

        std::vector<int64_t> In64(Cap);
        for (int I = 0; I < Cap; ++I)
          In64[I] = int64_t(In[I]) * 1000000007LL;
        cl_mem B64 = E.buffer(In64), BMax = E.buffer(std::vector<int64_t>(G));
        int Last = N - 1;
        E.launch(P, "chunk_le", G, L, B64, BMax, Last, K);
        std::vector<int64_t> WantMax(G);
        for (int W = 0; W < int(G); ++W) {
          int64_t M = -1;
          for (int J = 0; J < K; ++J)
            if (Last >= W * K + J)
              M = std::max(M, In64[W * K + J]);
          WantMax[W] = M;
        }
        expectEqual(E.read<int64_t>(BMax, G), WantMax, "max");

        std::vector<uint32_t> InU(Cap);
        for (int I = 0; I < Cap; ++I)
          InU[I] = uint32_t(In[I]) * 2654435761u;
        cl_mem BU = E.buffer(InU), BX = E.buffer(std::vector<uint32_t>(G));
        E.launch(P, "chunk_unsigned", G, L, BU, BX, uint32_t(N), uint32_t(K));
        std::vector<uint32_t> WantX(G);
        for (uint32_t W = 0; W < G; ++W) {
          uint32_t X = 7u, Base = W * uint32_t(K) + 3u;
          for (uint32_t J = 0; J < uint32_t(K); ++J)
            if (Base + J < uint32_t(N))
              X = X * 31u + InU[Base + J];
          WantX[W] = X;
        }
        expectEqual(E.read<uint32_t>(BX, G), WantX, "unsigned");

        int Skip = N % (K + 1);
        cl_mem BSuf = E.buffer(std::vector<int>(G));
        E.launch(P, "chunk_suffix", G, L, BIn, BSuf, Skip, K);
        std::vector<int> WantSuf(G);
        for (int W = 0; W < int(G); ++W) {
          int S = 0;
          for (int J = Skip; J < K; ++J)
            S += In[W * K + J];
          WantSuf[W] = S;
        }
        expectEqual(E.read<int>(BSuf, G), WantSuf, "suffix");

        cl_mem BReg = E.buffer(Out0);
        E.launch(P, "chunk_regions", G, L, BIn, BReg,
                 sched::Env::LocalBytes{L * sizeof(int)}, N, K);
        std::vector<int> WantReg = Out0;
        for (int W = 0; W < int(G); ++W) {
          int Lid = W % int(L), Pre = 0;
          if (Lid > 0)
            for (int J = 0; J < K; ++J)
              if ((W - 1) * K + J < N)
                Pre += In[(W - 1) * K + J];
          for (int J = 0; J < K; ++J)
            if (W * K + J < N) {
              WantReg[W * K + J] = Pre;
              Pre += In[W * K + J];
            }
        }
        expectEqual(E.read<int>(BReg, Cap), WantReg, "regions");
      }
    }
  }
}
