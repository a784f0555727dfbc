// End-to-end: barrier() / work_group_barrier() (OpenCL C 6.13.8 and 6.15.8
// "Synchronization Functions"). The barrier corpus: each shape (named after
// its control flow) runs on both paths, barrier regions (the default,
// compiler/regions/) and fibers (-clcpu-force-fibers), against a
// host reference. Shapes: several barriers, barriers in for/while/do loops
// with break and continue, nested loops, uniform branches, private arrays
// and pointers to private variables across barriers, a barrier in a helper
// function, collectives in loops, loops with a single barrier whose uniform
// values change every iteration (a ping-pong scan), values one work-item
// broadcasts through local memory, loops whose trip counts differ between
// work-items before a barrier, local sizes 1 and the maximum.

#include "SchedulerCommon.h"

#include <algorithm>
#include <random>

using sched::Env;

namespace {

std::vector<int> randomInts(size_t N, unsigned Seed) {
  std::mt19937 G(Seed);
  std::uniform_int_distribution<int> U(-1000, 1000);
  std::vector<int> V(N);
  for (int &X : V)
    X = U(G);
  return V;
}

/// Runs \p Name (in, out, local scratch of ls ints, int n) on \p Global
/// work-items in groups of \p Local and returns out.
std::vector<int> run1D(Env &E, const char *Src, const char *Name,
                       const std::vector<int> &In, size_t Local, int N,
                       const char *Options = nullptr) {
  cl_kernel K = E.kernel(Src, Name, Options);
  cl_mem A = E.buffer(In);
  cl_mem B = E.buffer(std::vector<int>(In.size(), 0));
  E.arg(K, 0, A);
  E.arg(K, 1, B);
  E.localArg(K, 2, Local * sizeof(int));
  E.arg(K, 3, N);
  size_t G = In.size();
  REQUIRE(E.run(K, 1, &G, &Local) == CL_SUCCESS);
  return E.read<int>(B, In.size());
}

const char *Shapes = R"(
kernel void two_barriers(global const int *in, global int *out,
                         local int *s, int n) {
  size_t l = get_local_id(0), ls = get_local_size(0);
  s[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  int t = s[(l + 1) % ls];
  barrier(CLK_LOCAL_MEM_FENCE);
  s[l] = t * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[ls - 1 - l];
}

kernel void barrier_in_for(global const int *in, global int *out,
                           local int *s, int n) {
  size_t l = get_local_id(0), ls = get_local_size(0);
  int acc = 0;
  s[l] = in[get_global_id(0)];
  for (int i = 0; i < n; ++i) {
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += s[(l + i) % ls];
    barrier(CLK_LOCAL_MEM_FENCE);
    s[l] += 1;
  }
  out[get_global_id(0)] = acc;
}

kernel void barrier_in_while_uniform(global const int *in, global int *out,
                                     local int *s, int n) {
  size_t l = get_local_id(0), ls = get_local_size(0);
  int k = 0, v = in[get_global_id(0)];
  while (k < n) {
    s[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = s[(l + ls - 1) % ls] + k;
    barrier(CLK_LOCAL_MEM_FENCE);
    ++k;
  }
  out[get_global_id(0)] = v;
}

kernel void conds_in_for(global const int *in, global int *out,
                         local int *s, int n) {
  size_t l = get_local_id(0), ls = get_local_size(0);
  int v = in[get_global_id(0)];
  for (int i = 0; i < n; ++i) {
    if (v & 1)           // divergent, no barrier inside
      v = v * 3 + 1;
    else
      v = v / 2;
    if (i % 2 == 0) {    // uniform: every work-item takes it
      s[l] = v;
      barrier(CLK_LOCAL_MEM_FENCE);
      v += s[0];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  out[get_global_id(0)] = v;
}

kernel void private_array_across_barrier(global const int *in,
                                         global int *out, local int *s,
                                         int n) {
  size_t l = get_local_id(0), ls = get_local_size(0);
  int p[16];
  for (int i = 0; i < 16; ++i)
    p[i] = in[get_global_id(0)] * (i + 1);
  s[l] = p[l % 16];
  barrier(CLK_LOCAL_MEM_FENCE);
  int sum = s[(l + 1) % ls];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = 0; i < 16; ++i)
    sum += p[i] * (i & 1 ? -1 : 1);
  out[get_global_id(0)] = sum;
}

void exchange(local int *s, size_t l, size_t ls, int *v) {
  s[l] = *v;
  barrier(CLK_LOCAL_MEM_FENCE);
  *v = s[ls - 1 - l];
  barrier(CLK_LOCAL_MEM_FENCE);
}

kernel void barrier_in_helper(global const int *in, global int *out,
                              local int *s, int n) {
  size_t l = get_local_id(0), ls = get_local_size(0);
  int v = in[get_global_id(0)];
  exchange(s, l, ls, &v);
  v += 1;
  exchange(s, l, ls, &v);
  out[get_global_id(0)] = v;
}

kernel void nested_for(global const int *in, global int *out, local int *s,
                       int n) {
  size_t l = get_local_id(0), ls = get_local_size(0);
  int v = in[get_global_id(0)];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 3; ++j) {
      s[l] = v;
      barrier(CLK_LOCAL_MEM_FENCE);
      v = s[(l + j + 1) % ls] - i;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  out[get_global_id(0)] = v;
}

kernel void continue_in_loop(global const int *in, global int *out,
                             local int *s, int n) {
  size_t l = get_local_id(0), ls = get_local_size(0);
  int v = in[get_global_id(0)];
  for (int i = 0; i < 2 * n; ++i) {
    if (i % 3 == 1) // uniform
      continue;
    s[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v += s[(l + 1) % ls];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i == n + 1) // uniform
      break;
  }
  out[get_global_id(0)] = v;
}

kernel void do_while_uniform(global const int *in, global int *out,
                             local int *s, int n) {
  size_t l = get_local_id(0), ls = get_local_size(0);
  int v = in[get_global_id(0)], k = 0;
  do {
    s[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = s[ls - 1 - l] * 2 + k;
    barrier(CLK_LOCAL_MEM_FENCE);
  } while (++k < n);
  out[get_global_id(0)] = v;
}

kernel void if_else_barriers(global const int *in, global int *out,
                             local int *s, int n) {
  size_t l = get_local_id(0), ls = get_local_size(0);
  int v = in[get_global_id(0)];
  s[l] = v;
  if (n > 3) { // uniform
    barrier(CLK_LOCAL_MEM_FENCE);
    v += s[(l + 1) % ls];
  } else {
    barrier(CLK_LOCAL_MEM_FENCE);
    v -= s[(l + 1) % ls];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  s[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[ls - 1 - l] + v;
}

kernel void pointer_to_private(global const int *in, global int *out,
                               local int *s, int n) {
  size_t l = get_local_id(0), ls = get_local_size(0);
  int p[4];
  for (int i = 0; i < 4; ++i)
    p[i] = in[get_global_id(0)] + i;
  int *q = &p[l % 4]; // a private address live across the barrier
  s[l] = *q;
  barrier(CLK_LOCAL_MEM_FENCE);
  *q += s[(l + 1) % ls];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = p[0] + p[1] + p[2] + p[3];
}

kernel void reduce_in_loop(global const int *in, global int *out,
                           local int *s, int n) {
  int v = in[get_global_id(0)];
  for (int i = 0; i < n; ++i)
    v = work_group_reduce_max(v) - (int)get_local_id(0) +
        work_group_scan_exclusive_add(i);
  out[get_global_id(0)] = v;
}

// Loops whose trip counts differ between work-items, before a barrier
// (compiler/LoopSyncPoints.cpp: one region per iteration): a grid-stride
// loop, and a loop starting at the local id (work-items leave it one by
// one). The barrier after them still waits for the last one.
kernel void grid_stride_then_barrier(global const int *in, global int *out,
                                     local int *s, int n) {
  size_t l = get_local_id(0), ls = get_local_size(0);
  int total = (int)get_global_size(0);
  int acc = 0;
  for (int i = get_global_id(0); i < total * n / 3; i += (int)ls + 1)
    acc += in[i % total] * (i & 7);
  s[l] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[(l + 1) % ls] - acc;
}

// Hillis-Steele scan: one barrier per iteration, and the local pointers,
// swapped after it, and the offset are uniform values that a region both
// reads (after the barrier) and saves again (at it).
kernel void ping_pong_in_for(global const int *in, global int *out,
                             local int *s, int n) {
  local int t[256];
  size_t l = get_local_id(0), ls = get_local_size(0);
  local int *src = s, *dst = t;
  src[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t o = 1; o < ls; o <<= 1) {
    int v = src[l];
    if (l >= o)
      v += src[l - o];
    dst[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    local int *tmp = src;
    src = dst;
    dst = tmp;
  }
  out[get_global_id(0)] = src[l] * n;
}

// One barrier per iteration; a uniform step and buffer half change after it.
kernel void uniform_step_single_barrier(global const int *in,
                                        global int *out, local int *s,
                                        int n) {
  local int t[2 * 256];
  size_t l = get_local_id(0), ls = get_local_size(0);
  int v = in[get_global_id(0)], step = 1, p = 0;
  while (step < n * 5) {
    t[p * ls + l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = t[p * ls + (l + step) % ls] - step;
    p ^= 1;
    step = step * 2 + 1;
  }
  out[get_global_id(0)] = v;
}

// Work-item 0 puts a trip count and an offset in local memory; after the
// barrier every work-item reads them (uniform values, and a loop whose
// exit is uniform) and keeps them across later barriers.
kernel void local_broadcast(global const int *in, global int *out,
                            local int *s, int n) {
  local int count, off;
  size_t l = get_local_id(0), ls = get_local_size(0);
  if (l == 0) {
    count = (in[get_global_id(0)] & 3) + n;
    off = in[get_global_id(0)] & 7;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = in[get_global_id(0)];
  for (int i = 0; i < count; ++i) {
    s[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = s[(l + off + i) % ls] + off;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = v * count;
}

kernel void loop_from_local_id(global const int *in, global int *out,
                               local int *s, int n) {
  size_t l = get_local_id(0), ls = get_local_size(0);
  int acc = 0;
  for (int i = (int)l; i < n * 3; ++i)
    acc += in[get_group_id(0) * ls + i % ls] ^ i;
  s[l] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[ls - 1 - l] + acc;
}
)";

/// Host versions of the kernels above, group by group.
std::vector<int> reference(const std::string &Name, const std::vector<int> &In,
                           size_t Ls, int N) {
  std::vector<int> Out(In.size());
  for (size_t G0 = 0; G0 < In.size(); G0 += Ls) {
    const int *I = &In[G0];
    int *O = &Out[G0];
    std::vector<int> S(I, I + Ls), V(I, I + Ls);
    if (Name == "two_barriers") {
      std::vector<int> T(Ls);
      for (size_t L = 0; L < Ls; ++L)
        T[L] = S[(L + 1) % Ls] * 2;
      for (size_t L = 0; L < Ls; ++L)
        O[L] = T[Ls - 1 - L];
    } else if (Name == "barrier_in_for") {
      std::vector<int> Acc(Ls, 0);
      for (int K = 0; K < N; ++K) {
        for (size_t L = 0; L < Ls; ++L)
          Acc[L] += S[(L + K) % Ls];
        for (size_t L = 0; L < Ls; ++L)
          S[L] += 1;
      }
      std::copy(Acc.begin(), Acc.end(), O);
    } else if (Name == "barrier_in_while_uniform") {
      for (int K = 0; K < N; ++K) {
        std::vector<int> Next(Ls);
        for (size_t L = 0; L < Ls; ++L)
          Next[L] = V[(L + Ls - 1) % Ls] + K;
        V = Next;
      }
      std::copy(V.begin(), V.end(), O);
    } else if (Name == "conds_in_for") {
      for (int K = 0; K < N; ++K) {
        for (int &X : V)
          X = (X & 1) ? X * 3 + 1 : X / 2;
        if (K % 2 == 0) {
          int S0 = V[0];
          for (int &X : V)
            X += S0;
        }
      }
      std::copy(V.begin(), V.end(), O);
    } else if (Name == "private_array_across_barrier") {
      for (size_t L = 0; L < Ls; ++L) {
        size_t M = (L + 1) % Ls;
        int Sum = I[M] * static_cast<int>(M % 16 + 1);
        for (int K = 0; K < 16; ++K)
          Sum += I[L] * (K + 1) * (K & 1 ? -1 : 1);
        O[L] = Sum;
      }
    } else if (Name == "barrier_in_helper") {
      for (size_t L = 0; L < Ls; ++L)
        O[L] = I[L] + 1; // reversed twice
    } else if (Name == "nested_for") {
      for (int K = 0; K < N; ++K)
        for (size_t J = 0; J < 3; ++J) {
          std::vector<int> Next(Ls);
          for (size_t L = 0; L < Ls; ++L)
            Next[L] = V[(L + J + 1) % Ls] - K;
          V = Next;
        }
      std::copy(V.begin(), V.end(), O);
    } else if (Name == "continue_in_loop") {
      for (int K = 0; K < 2 * N; ++K) {
        if (K % 3 == 1)
          continue;
        std::vector<int> Next(Ls);
        for (size_t L = 0; L < Ls; ++L)
          Next[L] = V[L] + V[(L + 1) % Ls];
        V = Next;
        if (K == N + 1)
          break;
      }
      std::copy(V.begin(), V.end(), O);
    } else if (Name == "do_while_uniform") {
      int K = 0;
      do {
        std::vector<int> Next(Ls);
        for (size_t L = 0; L < Ls; ++L)
          Next[L] = V[Ls - 1 - L] * 2 + K;
        V = Next;
      } while (++K < N);
      std::copy(V.begin(), V.end(), O);
    } else if (Name == "if_else_barriers") {
      std::vector<int> W(Ls);
      for (size_t L = 0; L < Ls; ++L)
        W[L] = N > 3 ? V[L] + V[(L + 1) % Ls] : V[L] - V[(L + 1) % Ls];
      for (size_t L = 0; L < Ls; ++L)
        O[L] = W[Ls - 1 - L] + W[L];
    } else if (Name == "pointer_to_private") {
      for (size_t L = 0; L < Ls; ++L)
        O[L] =
            4 * I[L] + 6 + I[(L + 1) % Ls] + static_cast<int>((L + 1) % Ls % 4);
    } else if (Name == "grid_stride_then_barrier") {
      int Total = static_cast<int>(In.size());
      std::vector<int> Acc(Ls, 0);
      for (size_t L = 0; L < Ls; ++L)
        for (int X = static_cast<int>(G0 + L); X < Total * N / 3;
             X += static_cast<int>(Ls) + 1)
          Acc[L] += In[X % Total] * (X & 7);
      for (size_t L = 0; L < Ls; ++L)
        O[L] = Acc[(L + 1) % Ls] - Acc[L];
    } else if (Name == "loop_from_local_id") {
      std::vector<int> Acc(Ls, 0);
      for (size_t L = 0; L < Ls; ++L)
        for (int X = static_cast<int>(L); X < N * 3; ++X)
          Acc[L] += I[X % Ls] ^ X;
      for (size_t L = 0; L < Ls; ++L)
        O[L] = Acc[Ls - 1 - L] + Acc[L];
    } else if (Name == "ping_pong_in_for") {
      int Sum = 0;
      for (size_t L = 0; L < Ls; ++L)
        O[L] = (Sum += I[L]) * N;
    } else if (Name == "uniform_step_single_barrier") {
      for (int Step = 1; Step < N * 5; Step = Step * 2 + 1) {
        std::vector<int> Next(Ls);
        for (size_t L = 0; L < Ls; ++L)
          Next[L] = V[(L + Step) % Ls] - Step;
        V = Next;
      }
      std::copy(V.begin(), V.end(), O);
    } else if (Name == "local_broadcast") {
      int Count = (I[0] & 3) + N, Off = I[0] & 7;
      for (int K = 0; K < Count; ++K) {
        std::vector<int> Next(Ls);
        for (size_t L = 0; L < Ls; ++L)
          Next[L] = V[(L + Off + K) % Ls] + Off;
        V = Next;
      }
      for (size_t L = 0; L < Ls; ++L)
        O[L] = V[L] * Count;
    } else if (Name == "reduce_in_loop") {
      for (int K = 0; K < N; ++K) {
        int Max = *std::max_element(V.begin(), V.end());
        for (size_t L = 0; L < Ls; ++L)
          V[L] = Max - static_cast<int>(L) + K * static_cast<int>(L);
      }
      std::copy(V.begin(), V.end(), O);
    }
  }
  return Out;
}

} // namespace

/// The two ways a kernel with barriers runs: barrier regions (default) and
/// fibers.
const char *const Paths[] = {"-cl-std=CL2.0",
                             "-cl-std=CL2.0 -clcpu-force-fibers"};

TEST_CASE("6.13.8: the barrier corpus matches the host on both paths and "
          "several local sizes",
          "[barrier]") {
  Env E;
  for (const char *Path : Paths)
    for (const char *Name :
         {"two_barriers", "barrier_in_for", "barrier_in_while_uniform",
          "conds_in_for", "private_array_across_barrier", "barrier_in_helper",
          "nested_for", "continue_in_loop", "do_while_uniform",
          "if_else_barriers", "pointer_to_private", "reduce_in_loop",
          "grid_stride_then_barrier", "loop_from_local_id", "ping_pong_in_for",
          "uniform_step_single_barrier", "local_broadcast"}) {
      for (size_t Ls : {1, 2, 7, 64, 256}) {
        for (int N : {2, 5}) {
          INFO(Name << " (" << Path << ") local size " << Ls << " n " << N);
          std::vector<int> In = randomInts(Ls * 5, static_cast<unsigned>(Ls));
          CHECK(run1D(E, Shapes, Name, In, Ls, N, Path) ==
                reference(Name, In, Ls, N));
        }
      }
    }
}

TEST_CASE("6.13.8: barrier at the maximum work-group size and size 1",
          "[barrier]") {
  Env E;
  cl_kernel K = E.kernel(Shapes, "two_barriers", Paths[0]);
  size_t Max = 0;
  REQUIRE(clGetKernelWorkGroupInfo(K, E.D, CL_KERNEL_WORK_GROUP_SIZE,
                                   sizeof Max, &Max, nullptr) == CL_SUCCESS);
  // Small private memory: the device's maximum.
  CHECK(Max == deviceInfo<size_t>(E.D, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  for (const char *Path : Paths)
    for (size_t Ls : {size_t(1), Max}) {
      INFO(Path << " local size " << Ls);
      std::vector<int> In = randomInts(Ls * 3, 7);
      CHECK(run1D(E, Shapes, "two_barriers", In, Ls, 0, Path) ==
            reference("two_barriers", In, Ls, 0));
    }
}

TEST_CASE("6.15.8: work_group_barrier and 2D/3D groups (OpenCL C 3.0)",
          "[barrier]") {
  Env E;
  const char *Src = R"(
kernel void rev(global const int *in, global int *out, local int *s) {
  size_t l = get_local_linear_id();
  size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
  size_t g = get_global_linear_id();
  s[l] = in[g];
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = s[n - 1 - l];
}
)";
  cl_kernel K = E.kernel(Src, "rev", "-cl-std=CL3.0");
  size_t G[3] = {8, 6, 4}, L[3] = {4, 3, 2};
  size_t N = G[0] * G[1] * G[2];
  std::vector<int> In = randomInts(N, 3);
  cl_mem A = E.buffer(In), B = E.buffer(std::vector<int>(N));
  E.arg(K, 0, A);
  E.arg(K, 1, B);
  E.localArg(K, 2, 24 * sizeof(int));
  REQUIRE(E.run(K, 3, G, L) == CL_SUCCESS);
  std::vector<int> Out = E.read<int>(B, N);
  // Host: the global linear id's group and local linear id.
  for (size_t Z = 0; Z < G[2]; ++Z)
    for (size_t Y = 0; Y < G[1]; ++Y)
      for (size_t X = 0; X < G[0]; ++X) {
        size_t Gid = (Z * G[1] + Y) * G[0] + X;
        size_t Lx = X % L[0], Ly = Y % L[1], Lz = Z % L[2];
        size_t Lin = (Lz * L[1] + Ly) * L[0] + Lx;
        size_t R = 23 - Lin;
        size_t Rx = R % L[0], Ry = R / L[0] % L[1], Rz = R / L[0] / L[1];
        size_t Src =
            ((Z - Lz + Rz) * G[1] + (Y - Ly + Ry)) * G[0] + (X - Lx + Rx);
        CHECK(Out[Gid] == In[Src]);
      }
}

TEST_CASE("6.13.8: a large private array across a barrier gets a larger "
          "fiber stack",
          "[barrier]") {
  Env E;
  // 96 KiB of private memory per work-item, read at data-dependent indices
  // after the barrier: more than the default 64 KiB fiber stack, so the
  // stack must be sized from the kernel's frame.
  const char *Src = R"(
kernel void bigpriv(global const int *in, global int *out, local int *s,
                    int n) {
  int p[24576];
  size_t l = get_local_id(0), ls = get_local_size(0), g = get_global_id(0);
  for (int i = 0; i < 24576; ++i)
    p[i] = in[(g + i) % get_global_size(0)] + i;
  s[l] = p[l];
  barrier(CLK_LOCAL_MEM_FENCE);
  int sum = s[(l + 1) % ls];
  for (int i = 0; i < n; ++i)
    sum += p[(sum & 0x7fff) % 24576];
  out[g] = sum;
}
)";
  size_t Ls = 16;
  std::vector<int> In = randomInts(Ls * 2, 11);
  int N = 50;
  cl_kernel K = E.kernel(Src, "bigpriv");
  cl_ulong Private = 0;
  REQUIRE(clGetKernelWorkGroupInfo(K, E.D, CL_KERNEL_PRIVATE_MEM_SIZE,
                                   sizeof Private, &Private,
                                   nullptr) == CL_SUCCESS);
  CHECK(Private >= 24576 * sizeof(int));
  size_t MaxGroup = 0;
  REQUIRE(clGetKernelWorkGroupInfo(K, E.D, CL_KERNEL_WORK_GROUP_SIZE,
                                   sizeof MaxGroup, &MaxGroup,
                                   nullptr) == CL_SUCCESS);
  // Each work-item's fiber stack holds its frame: fewer fit in a group.
  CHECK(MaxGroup * Private <= (size_t(256) << 20));
  CHECK(MaxGroup >= Ls);
  std::vector<int> Got = run1D(E, Src, "bigpriv", In, Ls, N);
  size_t Total = In.size();
  for (size_t G = 0; G < Total; ++G) {
    auto P = [&](size_t Item, size_t I) {
      return In[(Item + I) % Total] + static_cast<int>(I);
    };
    size_t L = G % Ls, M = G - L + (L + 1) % Ls;
    int Sum = P(M, M % Ls);
    for (int I = 0; I < N; ++I)
      Sum += P(G, static_cast<size_t>((Sum & 0x7fff) % 24576));
    CHECK(Got[G] == Sum);
  }
}

TEST_CASE("6.13.8 / 5.9.3 (reqd_work_group_size): dimensions the attribute "
          "sets to 1 are folded into the group's loops; the results match "
          "the host on both paths, with a smaller last group in x",
          "[barrier]") {
  Env E;
  // Each work-item writes its value plus the local sizes of y and z, and
  // after the barrier reads the one at the mirrored local linear id.
  const char *Src = R"(
kernel __attribute__((reqd_work_group_size(RX, RY, RZ)))
void reqd_rev(global const int *in, global int *out) {
  local int s[RX * RY * RZ];
  size_t l = get_local_linear_id();
  size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
  size_t g = get_global_linear_id();
  s[l] = in[g] + (int)(get_local_size(1) * 100 + get_local_size(2) * 10000);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = s[n - 1 - l];
}
)";
  struct Case {
    size_t R[3];  // reqd_work_group_size
    cl_uint Dims; // of the launch
    size_t G[3];
  };
  // x not a multiple of the group's x (non-uniform, OpenCL 2.0), y and z
  // groups of 1, a 2D group with z of 1, and the launch's own dimensions
  // fewer than three.
  const Case Cases[] = {{{64, 1, 1}, 1, {64 * 3 + 10, 1, 1}},
                        {{8, 1, 1}, 2, {20, 3, 1}},
                        {{8, 1, 1}, 3, {16, 2, 3}},
                        {{4, 4, 1}, 3, {10, 8, 3}},
                        {{1, 1, 1}, 2, {5, 4, 1}}};
  for (const char *Path : Paths)
    for (const Case &C : Cases) {
      std::string Options =
          std::string(Path) + " -DRX=" + std::to_string(C.R[0]) +
          " -DRY=" + std::to_string(C.R[1]) + " -DRZ=" + std::to_string(C.R[2]);
      INFO(Options << " global " << C.G[0] << "x" << C.G[1] << "x" << C.G[2]);
      cl_kernel K = E.kernel(Src, "reqd_rev", Options.c_str());
      size_t N = C.G[0] * C.G[1] * C.G[2];
      std::vector<int> In = randomInts(N, 13);
      cl_mem A = E.buffer(In), B = E.buffer(std::vector<int>(N));
      E.arg(K, 0, A);
      E.arg(K, 1, B);
      REQUIRE(E.run(K, C.Dims, C.G, C.R) == CL_SUCCESS);
      std::vector<int> Out = E.read<int>(B, N);
      std::vector<int> Want(N);
      for (size_t Z = 0; Z < C.G[2]; ++Z)
        for (size_t Y = 0; Y < C.G[1]; ++Y)
          for (size_t X = 0; X < C.G[0]; ++X) {
            size_t Id[3] = {X, Y, Z}, Base[3], Ls[3], Lid[3];
            for (int D = 0; D < 3; ++D) {
              Base[D] = Id[D] / C.R[D] * C.R[D];
              Ls[D] = std::min(C.R[D], C.G[D] - Base[D]);
              Lid[D] = Id[D] - Base[D];
            }
            size_t Lin = (Lid[2] * Ls[1] + Lid[1]) * Ls[0] + Lid[0];
            size_t M = Ls[0] * Ls[1] * Ls[2] - 1 - Lin;
            size_t Mx = M % Ls[0], My = M / Ls[0] % Ls[1],
                   Mz = M / Ls[0] / Ls[1];
            size_t From = ((Base[2] + Mz) * C.G[1] + Base[1] + My) * C.G[0] +
                          Base[0] + Mx;
            Want[(Z * C.G[1] + Y) * C.G[0] + X] =
                In[From] + static_cast<int>(Ls[1] * 100 + Ls[2] * 10000);
          }
      CHECK(Out == Want);
    }
}

TEST_CASE("6.13.8 (CLBlast Xgemm's shape): a volatile private id, private "
          "accumulators across barriers and a hand-unrolled inner loop give "
          "the host's sums on both paths",
          "[barrier]") {
  // The shape of CLBlast's Xgemm as tuned for this device: a required
  // work-group size narrower in x than a vector register, `volatile int
  // tid` (passes/OrdinaryPrivateVolatiles.cpp), accumulators in a private
  // array kept across the barriers, and an inner loop stepping by STEP
  // with STEP steps inside (passes/CountedInnerLoops.cpp gives it the
  // counter the vectorizer's outer-loop path needs, its latch leaving on
  // true: LLVM 19 emits a widened inner latch exit-first, so one staying on
  // true would run its body once). The cases cover steps 1 to 8, x extents
  // below and at a register's width, several tiles along k, several groups.
  Env E;
  const char *Src = R"(
kernel __attribute__((reqd_work_group_size(RX, RY, 1)))
void tile_acc(global const float *a, global const float *b, global float *out,
              int k_size) {
  local float la[RX * 32];
  local float lb[RY * 32];
  volatile int tid = get_local_id(1) * RX + get_local_id(0);
  float acc[2] = {0.0f, 0.0f};
  int x = tid % RX, y = tid / RX;
  for (int k0 = 0; k0 < k_size; k0 += 32) {
    for (int i = y; i < 32; i += RY)
      la[i * RX + x] = a[(k0 + i) * RX + x];
    for (int i = x; i < 32; i += RX)
      lb[i * RY + y] = b[(k0 + i) * RY + y] + (float)get_group_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 32; k += STEP)
      for (int u = 0; u < STEP; ++u) {
        float av = la[(k + u) * RX + x], bv = lb[(k + u) * RY + y];
        acc[0] = fma(av, bv, acc[0]);
        acc[1] = fma(av, 2.0f * bv, acc[1]);
      }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  size_t o = (get_group_id(0) * RX * RY + tid) * 2;
  out[o] = acc[0];
  out[o + 1] = acc[1];
}
)";
  struct Case {
    size_t RX, RY;
    int Step, K, Groups;
  };
  const Case Cases[] = {{8, 16, 2, 64, 3},  {16, 4, 2, 64, 2},
                        {8, 16, 1, 32, 1},  {4, 8, 4, 96, 2},
                        {16, 16, 2, 32, 1}, {8, 8, 8, 64, 2},
                        {2, 32, 2, 32, 3}};
  std::mt19937 G(21);
  std::uniform_int_distribution<int> U(-4, 4);
  for (const char *Path : Paths)
    for (const Case &C : Cases) {
      std::string Options =
          std::string(Path) + " -DRX=" + std::to_string(C.RX) +
          " -DRY=" + std::to_string(C.RY) + " -DSTEP=" + std::to_string(C.Step);
      INFO(Options << " k " << C.K << " groups " << C.Groups);
      cl_kernel K = E.kernel(Src, "tile_acc", Options.c_str());
      // Small integers: every product and sum is exact in float.
      std::vector<float> A(size_t(C.K) * C.RX), B(size_t(C.K) * C.RY);
      for (float &V : A)
        V = static_cast<float>(U(G));
      for (float &V : B)
        V = static_cast<float>(U(G));
      size_t N = C.RX * C.RY * size_t(C.Groups) * 2;
      cl_mem MA = E.buffer(A), MB = E.buffer(B),
             MO = E.buffer(std::vector<float>(N));
      cl_int KSize = C.K;
      E.arg(K, 0, MA);
      E.arg(K, 1, MB);
      E.arg(K, 2, MO);
      REQUIRE(clSetKernelArg(K, 3, sizeof KSize, &KSize) == CL_SUCCESS);
      size_t Global[2] = {C.RX * C.Groups, C.RY}, Local[2] = {C.RX, C.RY};
      REQUIRE(E.run(K, 2, Global, Local) == CL_SUCCESS);
      std::vector<float> Out = E.read<float>(MO, N), Want(N);
      for (int Grp = 0; Grp < C.Groups; ++Grp)
        for (size_t Y = 0; Y < C.RY; ++Y)
          for (size_t X = 0; X < C.RX; ++X) {
            float S = 0;
            for (int Kk = 0; Kk < C.K; ++Kk)
              S += A[Kk * C.RX + X] * (B[Kk * C.RY + Y] + float(Grp));
            size_t O = (Grp * C.RX * C.RY + Y * C.RX + X) * 2;
            Want[O] = S;
            Want[O + 1] = 2 * S;
          }
      CHECK(Out == Want);
    }
}

TEST_CASE("6.13.8 (pyopencl's scan shapes): an index over a loop's uniform "
          "base kept across barriers, and a transposition through local "
          "memory at signed [o % K][o / K], give the host's scans on both "
          "paths",
          "[barrier]") {
  // The two halves of pyopencl's GenericScanKernel (lev1 and final_update)
  // at its CPU work-group size. final_update walks each interval a group
  // at a time: `i = base + lid` before the first barrier, out[i] after it
  // (regions/Liveness.cpp computes i again from the base). unit_scan reads
  // a unit into local memory transposed, at [o % K][o / K] in signed ints
  // with o = k * WG + lid, scans each column and writes it back. At WG 16
  // each region's x-loop is one vector of ints (xLoopLanes in
  // WorkGroupFunction.cpp).
  Env E;
  const char *Src = R"(
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void final_update(global int *out, int n, int interval_size,
                  global const int *interval_results,
                  global const int *partial) {
  local int ldata[WG];
  int begin = interval_size * (int)get_group_id(0);
  int end = min(begin + interval_size, n);
  int carry = get_group_id(0) != 0 ? interval_results[get_group_id(0) - 1] : 0;
  int prev_item = carry;
  for (int base = begin; base < end; base += WG) {
    int i = base + (int)get_local_id(0);
    if (i < end)
      ldata[get_local_id(0)] = carry + partial[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) != 0)
      prev_item = ldata[get_local_id(0) - 1];
    if (i < end)
      out[i] = prev_item;
    if (get_local_id(0) == 0)
      prev_item = ldata[WG - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void unit_scan(global const int *in, global int *out) {
  local int ld[K][WG + 1];
  int lid = get_local_id(0);
  int unit = (int)get_group_id(0) * K * WG;
  for (int k = 0; k < K; k++) {
    int o = k * WG + lid;
    ld[o % K][o / K] = in[unit + o];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int sum = 0;
  for (int k = 0; k < K; k++) {
    sum += ld[k][lid];
    ld[k][lid] = sum;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < K; k++) {
    int o = k * WG + lid;
    out[unit + o] = ld[o % K][o / K];
  }
}
)";
  struct Case {
    int WG, K, N, Interval;
  };
  // Intervals that end inside a group's step and at one; a last interval
  // shorter than the others.
  const Case Cases[] = {{16, 256, 16 * 256 * 3, 1000},
                        {16, 64, 16 * 64 * 2, 16 * 8},
                        {8, 32, 8 * 32 * 5, 77}};
  for (const char *Path : Paths)
    for (const Case &C : Cases) {
      std::string Options = std::string(Path) +
                            " -DWG=" + std::to_string(C.WG) +
                            " -DK=" + std::to_string(C.K);
      INFO(Options << " n " << C.N << " interval " << C.Interval);
      size_t N = size_t(C.N);
      std::vector<int> In = randomInts(N, 17);

      // final_update: partial holds the inclusive scan within each
      // interval, interval_results the inclusive scan of the intervals'
      // totals; out is the exclusive scan of the whole input.
      size_t Intervals = (N + C.Interval - 1) / C.Interval;
      std::vector<int> Partial(N), Results(Intervals), Want(N);
      int Total = 0;
      for (size_t I = 0; I < N; ++I) {
        Want[I] = Total;
        Total += In[I];
        Partial[I] = (I % C.Interval ? Partial[I - 1] : 0) + In[I];
        if (I % C.Interval == size_t(C.Interval) - 1 || I == N - 1)
          Results[I / C.Interval] = Total;
      }
      cl_kernel F = E.kernel(Src, "final_update", Options.c_str());
      cl_mem Out = E.buffer(std::vector<int>(N, -1)), R = E.buffer(Results),
             P = E.buffer(Partial);
      cl_int Ni = C.N, Ii = C.Interval;
      E.arg(F, 0, Out);
      REQUIRE(clSetKernelArg(F, 1, sizeof Ni, &Ni) == CL_SUCCESS);
      REQUIRE(clSetKernelArg(F, 2, sizeof Ii, &Ii) == CL_SUCCESS);
      E.arg(F, 3, R);
      E.arg(F, 4, P);
      size_t Global = Intervals * C.WG, Local = C.WG;
      REQUIRE(E.run(F, 1, &Global, &Local) == CL_SUCCESS);
      CHECK(E.read<int>(Out, N) == Want);

      // unit_scan: the inclusive scan within each run of K consecutive
      // elements.
      cl_kernel U = E.kernel(Src, "unit_scan", Options.c_str());
      cl_mem A = E.buffer(In), B = E.buffer(std::vector<int>(N));
      E.arg(U, 0, A);
      E.arg(U, 1, B);
      size_t UGlobal = N / C.K, ULocal = C.WG;
      REQUIRE(E.run(U, 1, &UGlobal, &ULocal) == CL_SUCCESS);
      std::vector<int> WantUnits(N);
      for (size_t I = 0; I < N; ++I)
        WantUnits[I] = (I % C.K ? WantUnits[I - 1] : 0) + In[I];
      CHECK(E.read<int>(B, N) == WantUnits);
    }
}

TEST_CASE("6.13.8 (look-behind, pyopencl's scan_final_update and radix "
          "sort): groups of 16 and of 12 whose first work-item carries the "
          "last value on, with and without reqd_work_group_size, give the "
          "host's values on both paths",
          "[barrier]") {
  // compiler/WorkItemLoops.cpp: with reqd_work_group_size(16) the x-loop is
  // one vector of 16 ints, and loop peeling no longer takes work-item 0 off
  // it (the 15 left ran scalar); with 12 (pyopencl's radix sort) the loop
  // of 8 lanes folds its remainder of 4 into a masked iteration. Every
  // work-item writes its left neighbour's value; work-item 0 the last value
  // of the step before (the group's own start value first). Intervals of
  // 83 leave a partial step.
  Env E;
  const char *Src = R"(
#ifdef REQD
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
#else
kernel
#endif
void look_behind(global int *out, global const int *partial, int interval,
                 int n) {
  local int ld[WG];
  int begin = interval * (int)get_group_id(0);
  int end = min(begin + interval, n);
  int prev = -1 - (int)get_group_id(0);
  for (int base = begin; base < end; base += WG) {
    int i = base + (int)get_local_id(0);
    if (i < end)
      ld[get_local_id(0)] = partial[i] * 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) != 0)
      prev = ld[get_local_id(0) - 1];
    if (i < end)
      out[i] = prev;
    if (get_local_id(0) == 0)
      prev = ld[WG - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
)";
  const int Interval = 83, Groups = 9, N = Interval * Groups - 7;
  std::vector<int> Partial(N);
  for (int I = 0; I < N; ++I)
    Partial[I] = (I * 37) % 101 - 50;
  std::vector<int> Want(N);
  for (int I = 0; I < N; ++I)
    Want[I] = I % Interval ? 2 * Partial[I - 1] : -1 - I / Interval;
  for (const char *Path : Paths)
    for (size_t Wg : {16, 12})
      for (bool Reqd : {true, false}) {
        std::string Options = std::string(Path) +
                              " -DWG=" + std::to_string(Wg) +
                              (Reqd ? " -DREQD" : "");
        INFO(Options);
        cl_kernel K = E.kernel(Src, "look_behind", Options.c_str());
        cl_mem Out = E.buffer(std::vector<int>(N, 12345));
        cl_mem In = E.buffer(Partial);
        cl_int Iv = Interval, Nv = N;
        E.arg(K, 0, Out);
        E.arg(K, 1, In);
        REQUIRE(clSetKernelArg(K, 2, sizeof Iv, &Iv) == CL_SUCCESS);
        REQUIRE(clSetKernelArg(K, 3, sizeof Nv, &Nv) == CL_SUCCESS);
        size_t Global = Wg * Groups, Local = Wg;
        REQUIRE(E.run(K, 1, &Global, &Local) == CL_SUCCESS);
        CHECK(E.read<int>(Out, N) == Want);
      }
}

TEST_CASE("6.13.8 (transposing through local memory, pyopencl's "
          "scan_lev1): `ldata[o % 256][o / 256]` with int offsets over "
          "groups of 16, with and without reqd_work_group_size, gives the "
          "host's values on both paths",
          "[barrier]") {
  // compiler/WorkGroupFunction.cpp (loadLocalSize): a required size of 16
  // bounds the local ids, so the int division and remainder by 256 become
  // a shift and a mask and the loops vectorize. Each group moves its units
  // of 4096 ints through a 256 x 17 tile: out[k * 16 + lid] of a unit is
  // in[lid * 256 + k].
  Env E;
  const char *Src = R"(
#ifdef REQD
kernel __attribute__((reqd_work_group_size(16, 1, 1)))
#else
kernel
#endif
void transpose(global const int *in, global int *out, int units) {
  local int ldata[256][17];
  int lid = (int)(long)get_local_id(0);
  for (int u = 0; u < units; ++u) {
    int base = ((int)get_group_id(0) * units + u) * 4096;
    for (int k = 0; k < 256; ++k) {
      int o = k * 16 + lid;
      ldata[o % 256][o / 256] = in[base + o];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 256; ++k)
      out[base + k * 16 + lid] = ldata[k][lid];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
)";
  const int Units = 3, Groups = 5, N = Units * Groups * 4096;
  std::vector<int> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = I * 7 - 1000;
  std::vector<int> Want(N);
  for (int Base = 0; Base < N; Base += 4096)
    for (int K = 0; K < 256; ++K)
      for (int L = 0; L < 16; ++L)
        Want[Base + K * 16 + L] = In[Base + L * 256 + K];
  for (const char *Path : Paths)
    for (bool Reqd : {true, false}) {
      std::string Options = std::string(Path) + (Reqd ? " -DREQD" : "");
      INFO(Options);
      cl_kernel K = E.kernel(Src, "transpose", Options.c_str());
      cl_mem Out = E.buffer(std::vector<int>(N, 12345));
      cl_mem InB = E.buffer(In);
      cl_int U = Units;
      E.arg(K, 0, InB);
      E.arg(K, 1, Out);
      REQUIRE(clSetKernelArg(K, 2, sizeof U, &U) == CL_SUCCESS);
      size_t Global = 16 * Groups, Local = 16;
      REQUIRE(E.run(K, 1, &Global, &Local) == CL_SUCCESS);
      CHECK(E.read<int>(Out, N) == Want);
    }
}

TEST_CASE("6.13.8 (ring exchange): `s[(lid + 1) % WG]` with int, uint and "
          "size_t ids, with and without reqd_work_group_size, a smaller "
          "last group included, gives the host's values on both paths",
          "[barrier]") {
  // compiler/passes/LocalIdModulo.cpp: the remainder of the local id
  // wraps inside every group; with an unsigned id it is gathered through
  // rather than a loop versioned on its not wrapping (a signed one keeps
  // its signed remainder, gathered through as well). Each round passes every
  // value to the previous work-item of the ring of WG slots; in a smaller last
  // group (OpenCL 2.0 non-uniform groups) the slots no work-item writes keep
  // -7.
  Env E;
  const char *Src = R"(
#ifdef REQD
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
#else
kernel
#endif
void ring(global int *out, int iters) {
  local int s[WG];
  ID lid = get_local_id(0);
  ID n = get_local_size(0);
  for (ID j = lid; j < WG; j += n)
    s[j] = -7;
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = get_global_id(0) * 3;
  for (int k = 0; k < iters; ++k) {
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = s[(lid + 1) % WG] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = v;
}
)";
  struct Case {
    const char *Id;
    size_t Local, Global;
    bool Reqd;
  };
  // Groups of 256 (the remainder's whole period in one group), of 64 and
  // of 16; a last group smaller than the others where the global size is
  // not a multiple of the local size.
  const Case Cases[] = {
      {"size_t", 256, 256 * 3, false},    {"uint", 256, 256 * 2, true},
      {"int", 256, 256 * 2, true},        {"uint", 64, 64 * 4 + 24, true},
      {"int", 64, 64 * 4 + 24, true},     {"size_t", 16, 16 * 5, true},
      {"uint", 128, 128 * 2 + 100, false}};
  const int Iters = 5;
  for (const char *Path : Paths)
    for (const Case &C : Cases) {
      std::string Options = std::string(Path) + " -DID=" + C.Id +
                            " -DWG=" + std::to_string(C.Local) +
                            (C.Reqd ? " -DREQD" : "");
      INFO(Options << " global " << C.Global);
      cl_kernel K = E.kernel(Src, "ring", Options.c_str());
      cl_mem Out = E.buffer(std::vector<int>(C.Global, -1));
      cl_int It = Iters;
      E.arg(K, 0, Out);
      REQUIRE(clSetKernelArg(K, 1, sizeof It, &It) == CL_SUCCESS);
      size_t Global = C.Global, Local = C.Local;
      REQUIRE(E.run(K, 1, &Global, &Local) == CL_SUCCESS);
      std::vector<int> Want(C.Global);
      for (size_t Base = 0; Base < C.Global; Base += C.Local) {
        size_t N = std::min(C.Local, C.Global - Base);
        std::vector<int> S(C.Local, -7), V(N);
        for (size_t L = 0; L < N; ++L)
          V[L] = static_cast<int>((Base + L) * 3);
        for (int R = 0; R < Iters; ++R) {
          for (size_t L = 0; L < N; ++L)
            S[L] = V[L];
          for (size_t L = 0; L < N; ++L)
            V[L] = S[(L + 1) % C.Local] + 1;
        }
        for (size_t L = 0; L < N; ++L)
          Want[Base + L] = V[L];
      }
      CHECK(E.read<int>(Out, C.Global) == Want);
    }
}
