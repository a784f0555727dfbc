// matmul: tiled single-precision matrix multiply C = A * B (row-major,
// M x K times K x N) with __local tiles and barriers; verified against a host
// sgemm (double accumulation, error bound K * FLT_EPSILON * sum|a*b|) and
// reported in GFLOP/s.
//
// A work-group computes one TS x TS tile of C as TS x (TS / WPT) work-items,
// each owning WPT rows of one column. Per step along K, the group copies a
// TS x TS tile of A and of B to local memory, waits at a barrier, multiplies
// them out of local memory and waits again before the next copy. TS and WPT
// are compile-time constants; the program is rebuilt with a smaller TS if
// the kernel's CL_KERNEL_WORK_GROUP_SIZE cannot hold TS * TS / WPT
// work-items.
//
// Usage: matmul [N | M N K] [--platform NAME]
// CLCPU_EXAMPLE_PLATFORM=NAME also chooses the platform; it is the first
// whose name or vendor contains NAME, ignoring case (default "clcpu";
// "pocl" picks the Portable Computing Language).
#define CL_TARGET_OPENCL_VERSION 300
#include "ExampleSetup.h"

#include <CL/cl.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static const char *Source = R"CLC(
#define RTS (TS / WPT) // work-items per tile column

__kernel void sgemm(uint M, uint N, uint K, __global const float *A,
                    __global const float *B, __global float *C) {
  __local float As[TS][TS];
  __local float Bs[TS][TS];
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint row0 = get_group_id(1) * TS, col = get_group_id(0) * TS + lx;
  float acc[WPT];
  for (uint w = 0; w < WPT; ++w)
    acc[w] = 0.0f;
  for (uint t = 0; t < K; t += TS) {
    for (uint w = 0; w < WPT; ++w) {
      uint r = ly + w * RTS;
      uint ar = row0 + r, ac = t + lx;
      As[r][lx] = ar < M && ac < K ? A[ar * K + ac] : 0.0f;
      uint br = t + r;
      Bs[r][lx] = br < K && col < N ? B[br * N + col] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < TS; ++k) {
      float b = Bs[k][lx];
      for (uint w = 0; w < WPT; ++w)
        acc[w] += As[ly + w * RTS][k] * b;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (uint w = 0; w < WPT; ++w) {
    uint r = row0 + ly + w * RTS;
    if (r < M && col < N)
      C[r * N + col] = acc[w];
  }
}
)CLC";

// ---- The example ------------------------------------------------------------

int main(int Argc, char **Argv) {
  std::string Want;
  std::vector<std::string> Args = parseArgs(Argc, Argv, Want);
  size_t M = 1024, N = 1024, K = 1024;
  if (Args.size() == 1)
    M = N = K = std::strtoull(Args[0].c_str(), nullptr, 10);
  else if (Args.size() >= 3) {
    M = std::strtoull(Args[0].c_str(), nullptr, 10);
    N = std::strtoull(Args[1].c_str(), nullptr, 10);
    K = std::strtoull(Args[2].c_str(), nullptr, 10);
  }
  if (!M || !N || !K || M > 16384 || N > 16384 || K > 16384) {
    std::fprintf(stderr, "sizes must be in 1..16384\n");
    return 2;
  }
  Device Dev;
  if (!openDevice(Want, Dev))
    return 2;

  // Largest tile whose work-group the kernel can run.
  cl_program P = nullptr;
  cl_kernel Kn = nullptr;
  size_t TS = 0, WPT = 0;
  for (size_t T : {32, 16, 8, 4}) {
    size_t W = std::min<size_t>(8, T);
    std::string Opts =
        "-DTS=" + std::to_string(T) + " -DWPT=" + std::to_string(W);
    P = buildProgram(Dev, Source, Opts);
    Kn = makeKernel(P, "sgemm");
    size_t Max = 0;
    CHECK(clGetKernelWorkGroupInfo(Kn, Dev.Id, CL_KERNEL_WORK_GROUP_SIZE,
                                   sizeof Max, &Max, nullptr));
    if (T * T / W <= Max) {
      TS = T;
      WPT = W;
      break;
    }
    clReleaseKernel(Kn);
    clReleaseProgram(P);
  }
  if (!TS) {
    std::fprintf(stderr, "kernel work-group size too small\n");
    return 2;
  }

  std::vector<float> A(M * K), B(K * N), C(M * N);
  uint64_t Seed = 42;
  auto Rand = [&] {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<float>((Seed >> 40) % 2001) / 1000.0f - 1.0f;
  };
  for (float &X : A)
    X = Rand();
  for (float &X : B)
    X = Rand();

  cl_mem BA = makeBuffer(Dev, A.size() * 4, A.data());
  cl_mem BB = makeBuffer(Dev, B.size() * 4, B.data());
  cl_mem BC = makeBuffer(Dev, C.size() * 4);
  cl_uint M32 = static_cast<cl_uint>(M), N32 = static_cast<cl_uint>(N),
          K32 = static_cast<cl_uint>(K);
  setArg(Kn, 0, M32);
  setArg(Kn, 1, N32);
  setArg(Kn, 2, K32);
  setArg(Kn, 3, BA);
  setArg(Kn, 4, BB);
  setArg(Kn, 5, BC);
  size_t Local[2] = {TS, TS / WPT};
  size_t Global[2] = {(N + TS - 1) / TS * TS, (M + TS - 1) / TS * (TS / WPT)};
  double Best = 1e30;
  for (int R = 0; R < 3; ++R) { // best of 3
    const float NaN = NAN;
    CHECK(clEnqueueFillBuffer(Dev.Q, BC, &NaN, 4, 0, C.size() * 4, 0, nullptr,
                              nullptr));
    CHECK(clFinish(Dev.Q));
    auto T0 = std::chrono::steady_clock::now();
    CHECK(clEnqueueNDRangeKernel(Dev.Q, Kn, 2, nullptr, Global, Local, 0,
                                 nullptr, nullptr));
    CHECK(clFinish(Dev.Q));
    Best = std::min(Best, seconds(T0));
  }
  CHECK(clEnqueueReadBuffer(Dev.Q, BC, CL_TRUE, 0, C.size() * 4, C.data(), 0,
                            nullptr, nullptr));

  // Host sgemm in double, with the sum of |a*b| for the error bound.
  size_t Bad = 0, First = 0;
  double FirstRef = 0, MaxErr = 0;
  std::vector<double> Acc(N), Abs(N);
  for (size_t I = 0; I < M; ++I) {
    std::fill(Acc.begin(), Acc.end(), 0.0);
    std::fill(Abs.begin(), Abs.end(), 0.0);
    for (size_t Kk = 0; Kk < K; ++Kk) {
      double Aik = A[I * K + Kk];
      const float *Bk = &B[Kk * N];
      for (size_t J = 0; J < N; ++J) {
        double Prod = Aik * Bk[J];
        Acc[J] += Prod;
        Abs[J] += std::fabs(Prod);
      }
    }
    for (size_t J = 0; J < N; ++J) {
      double Err = std::fabs(C[I * N + J] - Acc[J]);
      MaxErr = std::max(MaxErr, Err);
      if (!(Err <= K * FLT_EPSILON * Abs[J] + 1e-6) && !Bad++) {
        First = I * N + J;
        FirstRef = Acc[J];
      }
    }
  }
  std::printf("matmul on %s: %zux%zu = %zux%zu * %zux%zu, tiles %zux%zu, "
              "%zu rows per work-item: %.2f ms, %.2f GFLOP/s, max |error| "
              "%.2e\n",
              Dev.PlatformName.c_str(), M, N, M, K, K, N, TS, TS, WPT,
              Best * 1e3, 2.0 * M * N * K / Best / 1e9, MaxErr);
  if (Bad)
    std::printf("  %zu wrong, first C[%zu][%zu] = %g, expected %g\n", Bad,
                First / N, First % N, C[First], FirstRef);
  std::printf("%s\n", Bad ? "FAILED" : "verified");
  clReleaseMemObject(BA);
  clReleaseMemObject(BB);
  clReleaseMemObject(BC);
  clReleaseKernel(Kn);
  clReleaseProgram(P);
  clReleaseCommandQueue(Dev.Q);
  clReleaseContext(Dev.Ctx);
  return Bad ? 1 : 0;
}
