// Loops that write out a running value (compiler/passes/ScanLoopVectorize.cpp
// runs them a vector of iterations at a time). OpenCL 3.0 API 5.10: each
// work-item must compute exactly what its scalar loop would. The kernels
// cover exclusive and inclusive running sums of int and long, acc - x,
// max, xor, a float sum under -cl-fast-relaxed-math, the running value
// used after the loop, a loop whose output overlaps its input (in place,
// and shifted by a run-time distance: run-time overlap checks), and trip
// counts below, at and above the vector widths, a constant block of 4 per
// work-item, on the work-item loop and between barriers, on both paths. Each
// loop is guarded by a bound (as in the scan bench), which keeps the work-item
// loop itself scalar.

#include "SchedulerCommon.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

const char *Source = R"(
// The scan bench's second half: k consecutive elements per work-item,
// guarded by n, the exclusive prefix written out, the total kept.
kernel void excl_int(global const int *restrict in, global int *restrict out,
                     global int *restrict sums, int n, int k) {
  int base = get_global_id(0) * k;
  int pre = get_global_id(0);
  for (int j = 0; j < k; ++j)
    if (base + j < n) {
      int v = in[base + j];
      out[base + j] = pre;
      pre += v;
    }
  sums[get_global_id(0)] = pre;
}
// Inclusive, 64-bit, no restrict (run-time overlap checks), a second store.
kernel void incl_long(global const long *in, global long *out,
                      global long *twice, int n, int k) {
  int base = get_global_id(0) * k;
  long acc = 5;
  for (int j = 0; j < k; ++j)
    if (base + j < n) {
      long v = in[base + j];
      acc += v;
      out[base + j] = acc;
      twice[base + j] = v * 2 + j;
    }
}
// acc - x, max and xor running values in one loop.
kernel void sub_max_xor(global const int *restrict in,
                        global int *restrict dif, global int *restrict mx,
                        global uint *restrict xr, int n, int k) {
  int base = get_global_id(0) * k;
  int d = 1000, m = -2147483647 - 1;
  uint x = 0x9e3779b9u;
  for (int j = 0; j < k; ++j)
    if (base + j < n) {
      int v = in[base + j];
      d -= v;
      m = max(m, v);
      x ^= (uint)v;
      dif[base + j] = d;
      mx[base + j] = m;
      xr[base + j] = x;
    }
}
// In place: each element replaced by the sum of the ones before it.
kernel void in_place(global int *data, int n, int k) {
  int base = get_global_id(0) * k;
  int pre = 0;
  for (int j = 0; j < k; ++j)
    if (base + j < n) {
      int v = data[base + j];
      data[base + j] = pre;
      pre += v;
    }
}
// Output `shift` elements after the input in the same buffer: for
// 0 < shift < k a work-item reads what it wrote earlier in the loop. The
// sums feed back into the input and grow past INT_MAX: unsigned, wrapping.
kernel void shifted(global uint *data, int shift, int n, int k) {
  global uint *out = data + shift;
  int base = get_global_id(0) * (2 * k);
  uint pre = 1;
  for (int j = 0; j < k; ++j)
    if (base + j < n) {
      uint v = data[base + j];
      out[base + j] = pre;
      pre += v;
    }
}
// Floats: vectorized only with reassociation allowed.
kernel void excl_float(global const float *restrict in,
                       global float *restrict out, int n, int k) {
  int base = get_global_id(0) * k;
  float pre = 0.5f;
  for (int j = 0; j < k; ++j)
    if (base + j < n) {
      float v = in[base + j];
      out[base + j] = pre;
      pre += v;
    }
}
// A constant block per work-item (compiler/passes/BlockedStores.cpp keeps its
// work-item loop scalar once the inner loop is unrolled).
kernel void const_blocks(global const int *restrict in,
                         global int *restrict out) {
  int b = get_global_id(0) * 4, pre = 0;
  for (int j = 0; j < 4; ++j) {
    int v = in[b + j];
    out[b + j] = pre;
    pre += v;
  }
}
// Between barriers: the group's offset from local memory first.
kernel void regions(global const int *restrict in, global int *restrict out,
                    local int *t, int n, int k) {
  int lid = get_local_id(0), base = get_global_id(0) * k;
  int s = 0;
  for (int j = 0; j < k; ++j)
    if (base + j < n)
      s += in[base + j];
  t[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  int pre = lid > 0 ? t[lid - 1] : 0;
  for (int j = 0; j < k; ++j)
    if (base + j < n) {
      int v = in[base + j];
      out[base + j] = pre;
      pre += v;
    }
}
)";

} // namespace

using sched::expectEqual;

TEST_CASE(
    "5.10 (compiler/passes/ScanLoopVectorize.cpp): loops that write out a "
    "running value compute what the scalar loop would",
    "[compiler][scanloop]") {
  for (bool Fibers : {false, true}) {
    INFO((Fibers ? "forced fibers" : "default path"));
    sched::Env E;
    std::string Opt =
        Fibers ? "-cl-std=CL2.0 -clcpu-force-fibers" : "-cl-std=CL2.0";
    cl_program P = E.build(Source, Opt);
    cl_program Fast = E.build(Source, Opt + " -cl-fast-relaxed-math");
    const size_t G = 32, L = 8;
    // Below, at and around 4, 8 and 16 lanes, and several full vectors.
    for (int K : {0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 40}) {
      const int Cap = int(G) * 2 * K + 8;
      std::vector<int> In(Cap);
      for (int I = 0; I < Cap; ++I)
        In[I] = (I * 37) % 101 - 50;
      cl_mem BIn = E.buffer(In);
      INFO("k " << K);

      for (int N : {int(G) * K, int(G) * K / 3 + 1}) {
        INFO("n " << N);
        std::vector<int> Out0(Cap, -7);
        cl_mem BOut = E.buffer(Out0), BSums = E.buffer(std::vector<int>(G));
        E.launch(P, "excl_int", G, L, BIn, BOut, BSums, N, K);
        std::vector<int> Want = Out0, WantSums(G);
        for (int W = 0; W < int(G); ++W) {
          int Pre = W;
          for (int J = 0; J < K; ++J)
            if (W * K + J < N) {
              Want[W * K + J] = Pre;
              Pre += In[W * K + J];
            }
          WantSums[W] = Pre;
        }
        expectEqual(E.read<int>(BOut, Cap), Want, "excl_int out");
        expectEqual(E.read<int>(BSums, G), WantSums, "excl_int sums");
      }

      std::vector<int64_t> In64(Cap);
      for (int I = 0; I < Cap; ++I)
        In64[I] = int64_t(In[I]) * 1000000007LL;
      std::vector<int64_t> Zero64(Cap);
      cl_mem B64 = E.buffer(In64), BIncl = E.buffer(Zero64),
             BTwice = E.buffer(Zero64);
      E.launch(P, "incl_long", G, L, B64, BIncl, BTwice, Cap, K);
      std::vector<int64_t> WantIncl = Zero64, WantTwice = Zero64;
      for (int W = 0; W < int(G); ++W) {
        int64_t Acc = 5;
        for (int J = 0; J < K; ++J) {
          Acc += In64[W * K + J];
          WantIncl[W * K + J] = Acc;
          WantTwice[W * K + J] = In64[W * K + J] * 2 + J;
        }
      }
      expectEqual(E.read<int64_t>(BIncl, Cap), WantIncl, "incl_long");
      expectEqual(E.read<int64_t>(BTwice, Cap), WantTwice, "incl_long twice");

      std::vector<int> Zero(Cap);
      cl_mem BDif = E.buffer(Zero), BMax = E.buffer(Zero);
      cl_mem BXor = E.buffer(std::vector<uint32_t>(Cap));
      E.launch(P, "sub_max_xor", G, L, BIn, BDif, BMax, BXor, Cap, K);
      std::vector<int> WantDif = Zero, WantMax = Zero;
      std::vector<uint32_t> WantXor(Cap);
      for (int W = 0; W < int(G); ++W) {
        int D = 1000, M = INT32_MIN;
        uint32_t X = 0x9e3779b9u;
        for (int J = 0; J < K; ++J) {
          int V = In[W * K + J];
          D -= V;
          M = std::max(M, V);
          X ^= uint32_t(V);
          WantDif[W * K + J] = D;
          WantMax[W * K + J] = M;
          WantXor[W * K + J] = X;
        }
      }
      expectEqual(E.read<int>(BDif, Cap), WantDif, "acc - x");
      expectEqual(E.read<int>(BMax, Cap), WantMax, "max");
      expectEqual(E.read<uint32_t>(BXor, Cap), WantXor, "xor");

      cl_mem BPlace = E.buffer(In);
      E.launch(P, "in_place", G, L, BPlace, Cap, K);
      std::vector<int> WantPlace = In;
      for (int W = 0; W < int(G); ++W)
        for (int J = 0, Pre = 0; J < K; ++J) {
          int V = WantPlace[W * K + J];
          WantPlace[W * K + J] = Pre;
          Pre += V;
        }
      expectEqual(E.read<int>(BPlace, Cap), WantPlace, "in place");

      // Each work-item's window [2kW, 2kW + k + shift) is its own while
      // shift <= k. A larger shift would write into the next work-item's
      // input: a race between work-items (with k = 3, shift 5 can give wrong
      // results when the two work-items' groups run at once).
      for (int Shift : {0, 1, 5, K}) {
        if (Shift > K)
          continue;
        INFO("shift " << Shift);
        cl_mem BData = E.buffer(In);
        E.launch(P, "shifted", G, L, BData, Shift, Cap, K);
        std::vector<uint32_t> WantData(In.begin(), In.end());
        for (int W = 0; W < int(G); ++W) {
          uint32_t Pre = 1;
          for (int J = 0; J < K; ++J) {
            uint32_t V = WantData[W * 2 * K + J];
            WantData[W * 2 * K + J + Shift] = Pre;
            Pre += V;
          }
        }
        expectEqual(E.read<uint32_t>(BData, Cap), WantData, "shifted");
      }

      // Integer-valued floats: every order of the additions is exact.
      std::vector<float> InF(Cap);
      for (int I = 0; I < Cap; ++I)
        InF[I] = float(In[I]);
      for (cl_program Pr : {P, Fast}) {
        cl_mem BF = E.buffer(InF),
               BFOut = E.buffer(std::vector<float>(Cap, -1.0f));
        E.launch(Pr, "excl_float", G, L, BF, BFOut, Cap, K);
        std::vector<float> WantF(Cap, -1.0f);
        for (int W = 0; W < int(G); ++W) {
          float Pre = 0.5f;
          for (int J = 0; J < K; ++J) {
            WantF[W * K + J] = Pre;
            Pre += InF[W * K + J];
          }
        }
        expectEqual(E.read<float>(BFOut, Cap), WantF, "excl_float");
      }

      if (K == 8) { // once: its block size is fixed
        cl_mem BConst = E.buffer(std::vector<int>(Cap, -7));
        E.launch(P, "const_blocks", G, L, BIn, BConst);
        std::vector<int> WantConst(Cap, -7);
        for (int W = 0; W < int(G); ++W)
          for (int J = 0, Pre = 0; J < 4; ++J) {
            WantConst[W * 4 + J] = Pre;
            Pre += In[W * 4 + J];
          }
        expectEqual(E.read<int>(BConst, Cap), WantConst, "const_blocks");
      }

      cl_mem BReg = E.buffer(std::vector<int>(Cap, -7));
      E.launch(P, "regions", G, L, BIn, BReg,
               sched::Env::LocalBytes{L * sizeof(int)}, Cap, K);
      std::vector<int> WantReg(Cap, -7);
      for (int W = 0; W < int(G); ++W) {
        int Lid = W % int(L), Pre = 0;
        if (Lid > 0)
          for (int J = 0; J < K; ++J)
            Pre += In[(W - 1) * K + J];
        for (int J = 0; J < K; ++J) {
          WantReg[W * K + J] = Pre;
          Pre += In[W * K + J];
        }
      }
      expectEqual(E.read<int>(BReg, Cap), WantReg, "regions");
    }
  }
}
