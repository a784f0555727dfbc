// Gathers and scatters whose lanes are adjacent, or all one address, only
// at run time (compiler/passes/RuntimeConsecutiveGathers.cpp takes a vector
// load, a broadcast or a vector store then, the gather or scatter otherwise).
// OpenCL 3.0 API 5.10: every work-item must read and write exactly what it
// would alone, whichever branch a vector of work-items took. Each kernel
// mixes vectors that take the fast branch with vectors that do not (the
// wrap of `% n`, the clamp of `min`, chunk borders, divergent lanes), for
// int, long and double elements, local sizes that do and do not fill a
// vector, on the work-item loop and barrier-region paths.

#include "SchedulerCommon.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

const char *Source = R"(
// Adjacent except where (i + s) wraps at n.
kernel void wrap_gather(global const int *in, global int *out, int s, int n) {
  int i = get_global_id(0);
  out[i] = in[(i + s) % n] * 3 + 1;
}
// Adjacent except at the clamp.
kernel void clamp_gather(global const long *in, global long *out, int n) {
  int i = get_global_id(0);
  out[i] = in[min(i + 1, n - 1)] - in[max(i - 1, 0)];
}
// One address per chunk of work-items, several chunks per vector when the
// chunk is small.
kernel void chunk_gather(global const double *in, global double *out,
                         int chunk) {
  int i = get_global_id(0);
  out[i] = in[i / chunk] + (double)i;
}
// Through an index array: adjacent, repeated or scattered as the host chose.
kernel void indexed(global const int *idx, global const float *in,
                    global float *out) {
  int i = get_global_id(0);
  out[i] = in[idx[i]] * 2.0f;
}
// Scatter: adjacent except at the wrap.
kernel void wrap_scatter(global const int *in, global int *out, int s, int n) {
  int i = get_global_id(0);
  out[(i + s) % n] = in[i] + 5;
}
// Masked: only some lanes read, through an index that wraps.
kernel void masked_gather(global const int *in, global int *out, int n) {
  int i = get_global_id(0);
  int v = -1;
  if (i % 5 != 2)
    v = in[(i + 3) % n];
  out[i] = v;
}
// Constant moduli, where lane 0 alone decides (the scalar test): srem by a
// power of two with dividends of both signs, urem by 100, a mask, and srem
// by 16 (two wraps in a vector of 16 lanes would need M < N).
kernel void const_modulus(global const int *in, global int *out, int s) {
  int i = get_global_id(0);
  global const int *mid = in + 64;
  uint u = (uint)i;
  out[i] = mid[(i + s) % 64] + 3 * in[(u + 7u) % 100u] +
           5 * in[(i + s) & 127] + 7 * mid[(i + s) % 16];
}
// The barrier-region path: a neighbour in local memory, wrapping at the
// group's end (the bench's barrier_stress shape).
kernel void neighbour(global const int *in, global int *out, local int *s,
                      int iters) {
  int lid = get_local_id(0), n = get_local_size(0);
  int v = in[get_global_id(0)];
  for (int k = 0; k < iters; ++k) {
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = s[(lid + 1) % n] + k;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = v;
}
)";

} // namespace

using sched::expectEqual;

TEST_CASE("5.10 (compiler/passes/RuntimeConsecutiveGathers.cpp): gathers and "
          "scatters adjacent only at run time read and write what each "
          "work-item would alone",
          "[compiler][gather]") {
  sched::Env E;
  cl_program P = E.build(Source);
  const int N = 4096;
  std::vector<int> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = I * 7 - 300;
  for (size_t L : {size_t(1), size_t(7), size_t(16), size_t(64), size_t(256)}) {
    INFO("local size " << L);
    size_t G = N; // every local size here divides 4096 but 7
    if (N % L)
      G = N / L * L;
    int Count = int(G);
    cl_mem BIn = E.buffer(In);

    for (int S : {0, 1, 5, 17, Count - 1}) {
      INFO("wrap_gather s = " << S);
      cl_mem BOut = E.buffer(std::vector<int>(Count, 0));
      E.launch(P, "wrap_gather", G, L, BIn, BOut, S, Count);
      std::vector<int> Want(Count);
      for (int I = 0; I < Count; ++I)
        Want[I] = In[(I + S) % Count] * 3 + 1;
      expectEqual(E.read<int>(BOut, Count), Want, "out");

      cl_mem BScat = E.buffer(std::vector<int>(Count, 0));
      E.launch(P, "wrap_scatter", G, L, BIn, BScat, S, Count);
      std::vector<int> WantS(Count);
      for (int I = 0; I < Count; ++I)
        WantS[(I + S) % Count] = In[I] + 5;
      expectEqual(E.read<int>(BScat, Count), WantS, "scattered");
    }

    for (int S : {0, 5, -40, -3000, 2147483647 - 4100}) {
      INFO("const_modulus s = " << S);
      cl_mem BOut = E.buffer(std::vector<int>(Count, 0));
      E.launch(P, "const_modulus", G, L, BIn, BOut, S);
      std::vector<int> Want(Count);
      for (int I = 0; I < Count; ++I)
        Want[I] = In[64 + (I + S) % 64] + 3 * In[(uint32_t(I) + 7u) % 100u] +
                  5 * In[(I + S) & 127] + 7 * In[64 + (I + S) % 16];
      expectEqual(E.read<int>(BOut, Count), Want, "const_modulus");
    }

    {
      std::vector<int64_t> In64(Count);
      for (int I = 0; I < Count; ++I)
        In64[I] = int64_t(I) * I * 1000003 - 17;
      cl_mem B64 = E.buffer(In64), BOut = E.buffer(std::vector<int64_t>(Count));
      E.launch(P, "clamp_gather", G, L, B64, BOut, Count);
      std::vector<int64_t> Want(Count);
      for (int I = 0; I < Count; ++I)
        Want[I] = In64[std::min(I + 1, Count - 1)] - In64[std::max(I - 1, 0)];
      expectEqual(E.read<int64_t>(BOut, Count), Want, "clamped");
    }

    for (int Chunk : {1, 3, 16, 100, Count}) {
      INFO("chunk " << Chunk);
      std::vector<double> D(Count / Chunk + 1);
      for (size_t I = 0; I < D.size(); ++I)
        D[I] = 0.5 * double(I) - 3.0;
      cl_mem BD = E.buffer(D), BOut = E.buffer(std::vector<double>(Count));
      E.launch(P, "chunk_gather", G, L, BD, BOut, Chunk);
      std::vector<double> Want(Count);
      for (int I = 0; I < Count; ++I)
        Want[I] = D[I / Chunk] + double(I);
      expectEqual(E.read<double>(BOut, Count), Want, "chunked");
    }

    {
      // Runs of adjacent indices, runs of one index, reversed and random.
      std::vector<int> Idx(Count);
      uint32_t R = 12345;
      for (int I = 0; I < Count; ++I) {
        R = R * 1664525u + 1013904223u;
        switch ((I / 48) % 4) {
        case 0:
          Idx[I] = I;
          break;
        case 1:
          Idx[I] = (I / 48) * 48;
          break;
        case 2:
          Idx[I] = Count - 1 - I;
          break;
        default:
          Idx[I] = int(R % uint32_t(Count));
          break;
        }
      }
      std::vector<float> F(Count);
      for (int I = 0; I < Count; ++I)
        F[I] = float(I) * 0.25f - 7.0f;
      cl_mem BIdx = E.buffer(Idx), BF = E.buffer(F),
             BOut = E.buffer(std::vector<float>(Count));
      E.run(P, "indexed", {BIdx, BF, BOut}, G, L);
      std::vector<float> Want(Count);
      for (int I = 0; I < Count; ++I)
        Want[I] = F[Idx[I]] * 2.0f;
      expectEqual(E.read<float>(BOut, Count), Want, "indexed");
    }

    {
      cl_mem BOut = E.buffer(std::vector<int>(Count, 0));
      E.launch(P, "masked_gather", G, L, BIn, BOut, Count);
      std::vector<int> Want(Count);
      for (int I = 0; I < Count; ++I)
        Want[I] = I % 5 != 2 ? In[(I + 3) % Count] : -1;
      expectEqual(E.read<int>(BOut, Count), Want, "masked");
    }

    {
      const int Iters = 5;
      cl_mem BOut = E.buffer(std::vector<int>(Count, 0));
      E.launch(P, "neighbour", G, L, BIn, BOut,
               sched::Env::LocalBytes{L * sizeof(int)}, Iters);
      std::vector<int> Want(In.begin(), In.begin() + Count);
      for (size_t Gr = 0; Gr < G / L; ++Gr)
        for (int It = 0; It < Iters; ++It) {
          std::vector<int> S(Want.begin() + Gr * L,
                             Want.begin() + (Gr + 1) * L);
          for (size_t I = 0; I < L; ++I)
            Want[Gr * L + I] = S[(I + 1) % L] + It;
        }
      expectEqual(E.read<int>(BOut, Count), Want, "neighbour");
    }
  }
}

namespace {

const char *StructSource = R"(
// A float4 per work-item through an index: the four component gathers read
// adjacent structs when idx is the identity (one wide load), others when
// it is not; the float4 store at i is four component scatters of adjacent
// structs (one wide store), the store at idx[i] is not.
kernel void float4_indexed(global const int *idx, global const float4 *in,
                           global float4 *out, global float4 *scat) {
  int i = get_global_id(0);
  float4 v = in[idx[i]];
  out[i] = v * 2.0f + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  scat[idx[i]] = v.wzyx;
}
// Two-field structs of 8-byte elements, under a condition that leaves
// some lanes out (the masked forms).
kernel void long2_masked(global const int *idx, global const long2 *in,
                         global long2 *out) {
  int i = get_global_id(0);
  if (i % 3 != 1)
    out[i] = in[idx[i]] + (long2)(i, -i);
}
// Lanes whose index is negative do nothing: their struct addresses, 4 GiB
// and more before the buffers, must be neither read nor written when the
// other lanes' structs are read and written one lane at a time.
kernel void float4_guarded(global const int *idx, global const float4 *in,
                           global float4 *out) {
  int j = idx[get_global_id(0)];
  if (j >= 0)
    out[j] = in[j].yxwz + 1.0f;
}
)";

} // namespace

TEST_CASE("5.10 (compiler/passes/InterleavedAccesses.cpp): struct fields "
          "gathered and scattered per lane, adjacent at run time or not, "
          "masked or not, read and write what each work-item would alone",
          "[compiler][gather]") {
  sched::Env E;
  cl_program P = E.build(StructSource);
  const int N = 1000; // not a multiple of a vector: a partial last vector
  std::vector<float> In(4 * N);
  for (int I = 0; I < 4 * N; ++I)
    In[I] = float(I % 977) * 0.5f - 100.0f;
  std::vector<int64_t> In64(2 * N);
  for (int I = 0; I < 2 * N; ++I)
    In64[I] = int64_t(I) * 1000003 - 5;
  std::vector<int> Identity(N), Reversed(N), Pairs(N);
  for (int I = 0; I < N; ++I) {
    Identity[I] = I;
    Reversed[I] = N - 1 - I;
    Pairs[I] = I ^ 1; // adjacent structs in swapped pairs: not lane order
  }
  for (size_t L : {size_t(1), size_t(8), size_t(40), size_t(200)})
    for (const std::vector<int> *Idx : {&Identity, &Reversed, &Pairs}) {
      INFO("local size " << L << ", index "
                         << (Idx == &Identity   ? "identity"
                             : Idx == &Reversed ? "reversed"
                                                : "pairs"));
      cl_mem BIdx = E.buffer(*Idx), BIn = E.buffer(In);
      cl_mem BOut = E.buffer(std::vector<float>(4 * N, 0.0f));
      cl_mem BScat = E.buffer(std::vector<float>(4 * N, 0.0f));
      E.launch(P, "float4_indexed", size_t(N), L, BIdx, BIn, BOut, BScat);
      std::vector<float> Want(4 * N), WantS(4 * N);
      for (int I = 0; I < N; ++I)
        for (int C = 0; C < 4; ++C) {
          Want[4 * I + C] = In[4 * (*Idx)[I] + C] * 2.0f + float(C + 1);
          WantS[4 * (*Idx)[I] + C] = In[4 * (*Idx)[I] + 3 - C];
        }
      expectEqual(E.read<float>(BOut, 4 * N), Want, "out");
      expectEqual(E.read<float>(BScat, 4 * N), WantS, "scattered");

      cl_mem BIn64 = E.buffer(In64);
      std::vector<int64_t> Init(2 * N, 7);
      cl_mem BOut64 = E.buffer(Init);
      E.launch(P, "long2_masked", size_t(N), L, BIdx, BIn64, BOut64);
      std::vector<int64_t> Want64 = Init;
      for (int I = 0; I < N; ++I)
        if (I % 3 != 1) {
          Want64[2 * I] = In64[2 * (*Idx)[I]] + I;
          Want64[2 * I + 1] = In64[2 * (*Idx)[I] + 1] - I;
        }
      expectEqual(E.read<int64_t>(BOut64, 2 * N), Want64, "masked");
    }
  // Structs not adjacent, some lanes off with wild addresses.
  std::vector<int> Guarded(N);
  for (int I = 0; I < N; ++I)
    Guarded[I] = I % 3 == 1 ? -(1 << 28) - I : N - 1 - I;
  for (size_t L : {size_t(1), size_t(8), size_t(200)}) {
    INFO("guarded, local size " << L);
    cl_mem BIdx = E.buffer(Guarded), BIn = E.buffer(In);
    cl_mem BOut = E.buffer(std::vector<float>(4 * N, -1.0f));
    E.launch(P, "float4_guarded", size_t(N), L, BIdx, BIn, BOut);
    std::vector<float> Want(4 * N, -1.0f);
    for (int J : Guarded)
      if (J >= 0)
        for (int C = 0; C < 4; ++C)
          Want[4 * J + C] = In[4 * J + (C ^ 1)] + 1.0f;
    expectEqual(E.read<float>(BOut, 4 * N), Want, "guarded");
  }
}
