// Integer division and remainder by values that are the same for every
// work-item (compiler/passes/InvariantDivision.cpp turns them into
// multiply-high sequences), and work-item loops declared free of dependences
// between work-items (compiler/passes/ParallelWorkItemLoops.cpp). OpenCL C 6.3:
// `/` and
// `%` truncate toward zero, the sign of `%` follows the dividend; x / 0 and
// INT_MIN / -1 are unspecified but must not trap. Every result is checked
// against the host for local sizes that do and do not fill a vector, on
// the plain work-item loop, the outer-loop (kernel with a loop) and the
// barrier-region paths.

#include "SchedulerCommon.h"

#include <catch2/catch.hpp>

#include <climits>
#include <cstdint>
#include <vector>

namespace {

const char *Source = R"(
kernel void divide(global const int *a, global int *q, global int *r,
                   global uint *uq, global uint *ur, int d, uint ud) {
  int i = get_global_id(0);
  q[i] = a[i] / d;
  r[i] = a[i] % d;
  uq[i] = (uint)a[i] / ud;
  ur[i] = (uint)a[i] % ud;
}
// The same inside a loop of the kernel (the x-loop is an outer loop).
kernel void divide_loop(global const int *a, global int *q, global int *r,
                        global uint *uq, global uint *ur, int d, uint ud) {
  int i = get_global_id(0);
  // Unsigned sums and dividends: wrap-around is defined, as on the host.
  uint sq = 0, sr = 0, su = 0, sv = 0;
  for (int k = 0; k < 3; ++k) {
    int x = (int)((uint)a[i] + (uint)k);
    sq += (uint)(x / d);
    sr += (uint)(x % d);
    su += (uint)x / ud;
    sv += (uint)x % ud;
  }
  q[i] = (int)sq;
  r[i] = (int)sr;
  uq[i] = su;
  ur[i] = sv;
}
// Across a barrier (the barrier-region path).
kernel void divide_barrier(global const int *a, global int *q, global int *r,
                           global uint *uq, global uint *ur, int d, uint ud) {
  int i = get_global_id(0);
  int x = a[i];
  q[i] = x / d;
  barrier(CLK_GLOBAL_MEM_FENCE);
  r[i] = x % d;
  uq[i] = (uint)x / ud;
  barrier(CLK_GLOBAL_MEM_FENCE);
  ur[i] = (uint)x % ud;
}
// Three-pass scan's last pass: a gather through offsets[i / chunk].
kernel void add_offsets(global int *out, global const int *offsets,
                        int chunk, int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] += offsets[i / chunk];
}
// In place: c and a may be the same buffer.
kernel void vadd(global const int *a, global const int *b, global int *c) {
  int i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)";

struct Want {
  std::vector<int> Q, R;
  std::vector<uint32_t> UQ, UR;
};

/// What each kernel computes; \p Skip marks the unspecified signed results.
Want reference(const std::vector<int> &A, int D, uint32_t UD, int Iters,
               std::vector<bool> &Skip) {
  Want W;
  Skip.assign(A.size(), false);
  for (size_t I = 0; I < A.size(); ++I) {
    uint32_t SQ = 0, SR = 0, SU = 0, SV = 0;
    for (int K = 0; K < Iters; ++K) {
      int X = int(uint32_t(A[I]) + uint32_t(K));
      if (X == INT_MIN && D == -1)
        Skip[I] = true;
      else {
        SQ += uint32_t(X / D);
        SR += uint32_t(X % D);
      }
      SU += uint32_t(X) / UD;
      SV += uint32_t(X) % UD;
    }
    W.Q.push_back(int(SQ));
    W.R.push_back(int(SR));
    W.UQ.push_back(SU);
    W.UR.push_back(SV);
  }
  return W;
}

} // namespace

TEST_CASE("6.3 (compiler/passes/InvariantDivision.cpp): / and % by a kernel "
          "argument match the host for every sign and magnitude",
          "[compiler][division]") {
  sched::Env E;
  cl_program P = E.build(Source);
  std::vector<int> A = {
      0,           1,         -1,         2,       -2,        7,
      -7,          100,       -100,       255,     256,       257,
      65535,       65536,     -65536,     INT_MAX, INT_MIN,   INT_MAX - 1,
      INT_MIN + 1, 123456789, -987654321, 1 << 30, -(1 << 30)};
  // A dense run of consecutive values and a spread over the whole range.
  for (int I = -300; I < 300; ++I)
    A.push_back(I);
  uint32_t X = 12345;
  while (A.size() < 1024) {
    X = X * 1664525u + 1013904223u;
    A.push_back(int(X));
  }
  const size_t N = A.size();
  cl_mem BA = E.buffer(A);
  std::vector<int> Zero(N, 0);
  cl_mem BQ = E.buffer(Zero), BR = E.buffer(Zero), BUQ = E.buffer(Zero),
         BUR = E.buffer(Zero);
  struct Kernel {
    const char *Name;
    int Iters;
  };
  for (Kernel Kn : {Kernel{"divide", 1}, Kernel{"divide_loop", 3},
                    Kernel{"divide_barrier", 1}}) {
    cl_int Err = -1;
    cl_kernel K = clCreateKernel(P, Kn.Name, &Err);
    REQUIRE(Err == CL_SUCCESS);
    E.Kernels.push_back(K);
    const cl_mem Args[] = {BA, BQ, BR, BUQ, BUR};
    for (cl_uint I = 0; I < 5; ++I)
      E.arg(K, I, Args[I]);
    for (int D : {1, -1, 2, -2, 3, 7, -7, 10, 255, 256, 1000, -1000, 65537,
                  INT_MAX, INT_MIN, 0x40000001, -0x40000001, 0}) {
      // D = 0 is unspecified: only that it does not trap (nor hang).
      uint32_t UD = uint32_t(D) * 2654435761u | (D == 0 ? 0 : 1);
      if (D == 0)
        UD = 0;
      E.arg(K, 5, D);
      E.arg(K, 6, UD);
      for (size_t L :
           {size_t(1), size_t(7), size_t(16), size_t(64), size_t(0)}) {
        INFO(Kn.Name << " d=" << D << " ud=" << UD << " local size " << L);
        size_t G = L > 1 ? N / L * L : N;
        REQUIRE(E.run(K, 1, &G, L ? &L : nullptr) == CL_SUCCESS);
        if (D == 0)
          continue;
        std::vector<bool> Skip;
        Want W = reference(A, D, UD, Kn.Iters, Skip);
        std::vector<int> Q = E.read<int>(BQ, N), R = E.read<int>(BR, N);
        std::vector<uint32_t> UQ = E.read<uint32_t>(BUQ, N),
                              UR = E.read<uint32_t>(BUR, N);
        size_t Bad = 0;
        for (size_t I = 0; I < G; ++I) {
          bool Ok = UQ[I] == W.UQ[I] && UR[I] == W.UR[I] &&
                    (Skip[I] || (Q[I] == W.Q[I] && R[I] == W.R[I]));
          if (!Ok && Bad++ < 4)
            FAIL_CHECK("a=" << A[I] << ": q " << Q[I] << " want " << W.Q[I]
                            << ", r " << R[I] << " want " << W.R[I] << ", uq "
                            << UQ[I] << " want " << W.UQ[I] << ", ur " << UR[I]
                            << " want " << W.UR[I]);
        }
        CHECK(Bad == 0);
      }
    }
  }
}

TEST_CASE("5.10 (compiler/passes/ParallelWorkItemLoops.cpp): gathers through "
          "arguments without restrict and in-place kernels stay exact",
          "[compiler][division]") {
  sched::Env E;
  cl_program P = E.build(Source);
  const int N = 5000;
  for (int Chunk : {1, 3, 64, 256, 4999}) {
    INFO("chunk " << Chunk);
    std::vector<int> Out(N), Off(N / Chunk + 1);
    for (int I = 0; I < N; ++I)
      Out[I] = I * 3 - 7;
    for (size_t I = 0; I < Off.size(); ++I)
      Off[I] = int(I * I) - 11;
    cl_mem BOut = E.buffer(Out), BOff = E.buffer(Off);
    cl_int Err = -1;
    cl_kernel K = clCreateKernel(P, "add_offsets", &Err);
    REQUIRE(Err == CL_SUCCESS);
    E.Kernels.push_back(K);
    E.arg(K, 0, BOut);
    E.arg(K, 1, BOff);
    E.arg(K, 2, Chunk);
    E.arg(K, 3, N);
    size_t G = 5120, L = 64;
    REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
    std::vector<int> Got = E.read<int>(BOut, N);
    size_t Bad = 0;
    for (int I = 0; I < N; ++I)
      if (Got[I] != Out[I] + Off[I / Chunk] && Bad++ < 4)
        FAIL_CHECK("out[" << I << "] = " << Got[I] << ", want "
                          << Out[I] + Off[I / Chunk]);
    CHECK(Bad == 0);
  }
  // c is a: each work-item reads and writes only its own element.
  std::vector<int> A(4096), B(4096);
  for (int I = 0; I < 4096; ++I) {
    A[I] = I;
    B[I] = 5 * I + 1;
  }
  cl_mem BA = E.buffer(A), BB = E.buffer(B);
  E.run(P, "vadd", {BA, BB, BA}, 4096, 64);
  std::vector<int> Got = E.read<int>(BA, 4096);
  size_t Bad = 0;
  for (int I = 0; I < 4096; ++I)
    if (Got[I] != 6 * I + 1 && Bad++ < 4)
      FAIL_CHECK("c[" << I << "] = " << Got[I] << ", want " << 6 * I + 1);
  CHECK(Bad == 0);
}
