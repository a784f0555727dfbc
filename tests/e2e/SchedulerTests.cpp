// End-to-end: how clcpu runs an NDRange (OpenCL 3.0 API spec, 5.10
// "Executing Kernels"; OpenCL C 6.15.1 work-item functions): work-groups in
// parallel on the device's threads, non-uniform work-groups, local memory
// per work-group and its limit, and forward progress of work-groups that
// wait for earlier ones (decoupled look-back scan).

#include "SchedulerCommon.h"

#include <cstring>
#include <random>

using sched::Env;

namespace {

const char *Ids = R"(
kernel void ids(global uint *hits, global uint *groups, global uint *gid) {
  size_t g = get_global_id(0);
  hits[g] += 1;
  gid[g] = (uint)g;
  if (get_local_id(0) == 0)
    groups[get_group_id(0)] += 1;
}
)";

const char *Shape = R"(
kernel void shape(global uint *out) {
  size_t g = get_global_linear_id();
  out[g * 8 + 0] = get_global_id(0);
  out[g * 8 + 1] = get_global_id(1);
  out[g * 8 + 2] = get_local_id(0);
  out[g * 8 + 3] = get_local_id(1);
  out[g * 8 + 4] = get_local_size(0);
  out[g * 8 + 5] = get_local_size(1);
  out[g * 8 + 6] = get_enqueued_local_size(0);
  out[g * 8 + 7] = get_group_id(0) + 100 * get_group_id(1);
}
)";

} // namespace

TEST_CASE("5.10: every work-group runs exactly once for many group counts",
          "[scheduler]") {
  Env E;
  cl_kernel K = E.kernel(Ids, "ids");
  for (size_t Groups : {1, 2, 3, 7, 16, 63, 64, 65, 1000, 5000}) {
    for (size_t Local : {1, 4, 32}) {
      INFO(Groups << " groups of " << Local);
      size_t N = Groups * Local;
      cl_mem Hits = E.buffer(std::vector<cl_uint>(N, 0));
      cl_mem Grp = E.buffer(std::vector<cl_uint>(Groups, 0));
      cl_mem Gid = E.buffer(std::vector<cl_uint>(N, 0));
      E.arg(K, 0, Hits);
      E.arg(K, 1, Grp);
      E.arg(K, 2, Gid);
      REQUIRE(E.run(K, 1, &N, &Local) == CL_SUCCESS);
      std::vector<cl_uint> H = E.read<cl_uint>(Hits, N);
      std::vector<cl_uint> G = E.read<cl_uint>(Grp, Groups);
      std::vector<cl_uint> I = E.read<cl_uint>(Gid, N);
      size_t Bad = 0;
      for (size_t J = 0; J < N; ++J)
        Bad += H[J] != 1 || I[J] != J;
      for (cl_uint X : G)
        Bad += X != 1;
      CHECK(Bad == 0);
    }
  }
}

TEST_CASE("5.10: non-uniform work-groups (OpenCL C 3.0)", "[scheduler]") {
  Env E;
  REQUIRE(deviceInfo<cl_bool>(E.D, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT) ==
          CL_TRUE);
  cl_kernel K = E.kernel(Shape, "shape", "-cl-std=CL3.0");
  size_t G[2] = {37, 11}, L[2] = {8, 3};
  size_t N = G[0] * G[1];
  cl_mem Out = E.buffer(std::vector<cl_uint>(N * 8, 0xffffffff));
  E.arg(K, 0, Out);
  REQUIRE(E.run(K, 2, G, L) == CL_SUCCESS);
  std::vector<cl_uint> R = E.read<cl_uint>(Out, N * 8);
  size_t Bad = 0;
  for (size_t Y = 0; Y < G[1]; ++Y)
    for (size_t X = 0; X < G[0]; ++X) {
      const cl_uint *P = &R[(Y * G[0] + X) * 8];
      size_t Gx = X / L[0], Gy = Y / L[1];
      size_t Sx = std::min(L[0], G[0] - Gx * L[0]);
      size_t Sy = std::min(L[1], G[1] - Gy * L[1]);
      Bad += P[0] != X || P[1] != Y || P[2] != X % L[0] || P[3] != Y % L[1] ||
             P[4] != Sx || P[5] != Sy || P[6] != L[0] || P[7] != Gx + 100 * Gy;
    }
  CHECK(Bad == 0);

  // The last group is smaller on the fiber path too.
  const char *Sum = R"(
kernel void gsum(global const int *in, global int *out, local int *s) {
  size_t l = get_local_id(0);
  s[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    int t = 0;
    for (size_t i = 0; i < get_local_size(0); ++i)
      t += s[i];
    out[get_group_id(0)] = t;
  }
}
)";
  cl_kernel S = E.kernel(Sum, "gsum", "-cl-std=CL3.0");
  size_t G1 = 1000, L1 = 64;
  std::vector<int> In(G1);
  for (size_t I = 0; I < G1; ++I)
    In[I] = static_cast<int>(I * 7 % 13) - 6;
  cl_mem A = E.buffer(In), B = E.buffer(std::vector<int>(16, 0));
  E.arg(S, 0, A);
  E.arg(S, 1, B);
  E.localArg(S, 2, L1 * sizeof(int));
  REQUIRE(E.run(S, 1, &G1, &L1) == CL_SUCCESS);
  std::vector<int> Got = E.read<int>(B, 16);
  for (size_t Gr = 0; Gr < 16; ++Gr) {
    int T = 0;
    for (size_t I = Gr * L1; I < std::min(G1, (Gr + 1) * L1); ++I)
      T += In[I];
    CHECK(Got[Gr] == T);
  }
}

TEST_CASE("5.10: uniform work-group programs reject a non-multiple global size",
          "[scheduler]") {
  Env E;
  size_t G = 37, L = 8;
  for (const char *Opt :
       {"", "-cl-std=CL1.2", "-cl-std=CL3.0 -cl-uniform-work-group-size"}) {
    INFO(Opt);
    cl_kernel K = E.kernel(Ids, "ids", Opt);
    cl_mem Out = E.buffer(std::vector<cl_uint>(G));
    for (cl_uint I = 0; I < 3; ++I)
      E.arg(K, I, Out);
    CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &G, &L, 0, nullptr,
                                 nullptr) == CL_INVALID_WORK_GROUP_SIZE);
  }
}

TEST_CASE("5.10: local memory: tiled reduction with __local arguments and "
          "variables",
          "[scheduler]") {
  Env E;
  const char *Src = R"(
kernel void reduce(global const int *in, global int *out, local int *a,
                   local int *b, global uint *misaligned) {
  local int total;
  local int flags[3];
  size_t l = get_local_id(0), n = get_local_size(0);
  if (((size_t)a % 128) || ((size_t)b % 128) || ((size_t)&total % 16))
    atomic_inc(misaligned);
  a[l] = in[get_global_id(0)];
  b[l] = (int)l * 2;
  if (l == 0) {
    total = 0;
    flags[0] = 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = n / 2; s > 0; s /= 2) {
    if (l < s)
      a[l] += a[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (b[l] != (int)l * 2)
    a[0] = -999999; // the two __local arguments overlap
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0)
    out[get_group_id(0)] = a[0] + flags[0] - 1;
}
)";
  std::string Log;
  cl_program P = E.tryBuild(Src, nullptr, Log);
  bool HaveAtomicInc = P != nullptr;
  if (!HaveAtomicInc) {
    // Without atomic_inc (builtin library), check alignment some other way.
    WARN("atomic_inc unavailable, alignment not checked: " << Log);
    std::string S = Src;
    S.replace(S.find("atomic_inc(misaligned)"), 22, "misaligned[0] = 1");
    P = E.tryBuild(S, nullptr, Log);
    REQUIRE(P);
  }
  cl_int Err = -1;
  cl_kernel K = clCreateKernel(P, "reduce", &Err);
  REQUIRE(Err == CL_SUCCESS);
  E.Kernels.push_back(K);
  for (size_t Ls : {1, 16, 64, 256}) {
    for (size_t Groups : {1, 5, 300}) {
      INFO(Groups << " groups of " << Ls);
      size_t N = Ls * Groups;
      std::vector<int> In(N);
      std::mt19937 R(static_cast<unsigned>(N));
      for (int &X : In)
        X = static_cast<int>(R() % 2001) - 1000;
      cl_mem A = E.buffer(In), B = E.buffer(std::vector<int>(Groups, 0));
      cl_mem M = E.buffer(std::vector<cl_uint>(1, 0));
      E.arg(K, 0, A);
      E.arg(K, 1, B);
      E.localArg(K, 2, Ls * sizeof(int));
      E.localArg(K, 3, Ls * sizeof(int));
      E.arg(K, 4, M);
      REQUIRE(E.run(K, 1, &N, &Ls) == CL_SUCCESS);
      std::vector<int> Got = E.read<int>(B, Groups);
      for (size_t G = 0; G < Groups; ++G) {
        int T = 0;
        for (size_t I = 0; I < Ls; ++I)
          T += In[G * Ls + I];
        CHECK(Got[G] == T);
      }
      CHECK(E.read<cl_uint>(M, 1)[0] == 0);
    }
  }
}

TEST_CASE("5.10: CL_OUT_OF_RESOURCES when local memory exceeds "
          "CL_DEVICE_LOCAL_MEM_SIZE",
          "[scheduler]") {
  Env E;
  cl_ulong Max = deviceInfo<cl_ulong>(E.D, CL_DEVICE_LOCAL_MEM_SIZE);
  REQUIRE(Max >= 32 * 1024); // FULL_PROFILE minimum
  const char *Src = R"(
kernel void big(global int *out, local int *a) {
  local int v[1024];
  v[get_local_id(0)] = 1;
  a[get_local_id(0)] = 2;
  out[get_global_id(0)] = v[get_local_id(0)] + a[get_local_id(0)];
}
)";
  cl_kernel K = E.kernel(Src, "big");
  cl_mem Out = E.buffer(std::vector<int>(16, 0));
  E.arg(K, 0, Out);
  size_t G = 16, L = 16;
  E.localArg(K, 1, Max - 4096);
  cl_ulong KernelLocal = 0;
  REQUIRE(clGetKernelWorkGroupInfo(K, E.D, CL_KERNEL_LOCAL_MEM_SIZE,
                                   sizeof KernelLocal, &KernelLocal,
                                   nullptr) == CL_SUCCESS);
  CHECK(KernelLocal == Max);
  CHECK(E.run(K, 1, &G, &L) == CL_SUCCESS);
  CHECK(E.read<int>(Out, 16) == std::vector<int>(16, 3));
  E.localArg(K, 1, Max - 4095);
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &G, &L, 0, nullptr,
                               nullptr) == CL_OUT_OF_RESOURCES);
  E.localArg(K, 1, Max + 1);
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &G, &L, 0, nullptr,
                               nullptr) == CL_OUT_OF_RESOURCES);
}

TEST_CASE("5.10: decoupled look-back scan over 4096 work-groups makes "
          "progress",
          "[scheduler]") {
  Env E;
  // Each group publishes its aggregate, then waits for its predecessors:
  // correct only if a group never waits on one that cannot run.
  const char *Src = R"(
kernel void lookback(global const int *in, global int *out,
                     volatile global int *flags, volatile global int *aggs,
                     volatile global int *incl) {
  local int excl;
  size_t t = get_group_id(0), l = get_local_id(0), n = get_local_size(0);
  int v = in[get_global_id(0)];
  int mine = work_group_scan_inclusive_add(v);
  if (l == n - 1) {
    aggs[t] = mine;
    atomic_xchg(&flags[t], 1);
    int prefix = 0;
    for (long j = (long)t - 1; j >= 0;) {
      int f = atomic_add(&flags[j], 0);
      if (f == 2) {
        prefix += incl[j];
        break;
      }
      if (f == 1) {
        prefix += aggs[j];
        --j;
      }
    }
    incl[t] = prefix + mine;
    atomic_xchg(&flags[t], 2);
    excl = prefix;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = excl + mine;
}
)";
  std::string Log;
  cl_program P = E.tryBuild(Src, "-cl-std=CL3.0", Log);
  INFO(Log);
  if (!P && Log.find("atomic") != std::string::npos) {
    WARN("atomic_add/atomic_xchg not available yet, look-back scan skipped: "
         << Log);
    return;
  }
  REQUIRE(P);
  cl_int Err = -1;
  cl_kernel K = clCreateKernel(P, "lookback", &Err);
  REQUIRE(Err == CL_SUCCESS);
  E.Kernels.push_back(K);
  size_t Groups = 4096, Ls = 16, N = Groups * Ls;
  std::vector<int> In(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = static_cast<int>(I % 7) - 3;
  cl_mem A = E.buffer(In), B = E.buffer(std::vector<int>(N, 0));
  cl_mem F = E.buffer(std::vector<int>(Groups, 0));
  cl_mem Ag = E.buffer(std::vector<int>(Groups, 0));
  cl_mem Inc = E.buffer(std::vector<int>(Groups, 0));
  cl_mem Args[] = {A, B, F, Ag, Inc};
  for (cl_uint I = 0; I < 5; ++I)
    E.arg(K, I, Args[I]);
  REQUIRE(E.run(K, 1, &N, &Ls) == CL_SUCCESS);
  std::vector<int> Got = E.read<int>(B, N);
  int Acc = 0;
  size_t Bad = 0;
  for (size_t I = 0; I < N; ++I) {
    Acc += In[I];
    Bad += Got[I] != Acc;
  }
  CHECK(Bad == 0);
}
