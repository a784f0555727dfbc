// Build options whose effect shows in results (OpenCL 3.0 API 5.8.6), run
// through the loader. The code-shape effects of the math options are
// checked on the IR in tests/unit/CompilerTests.cpp.

#include "SchedulerCommon.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

TEST_CASE("5.8.6.3: -cl-fp32-correctly-rounded-divide-sqrt: float x / y and "
          "sqrt(x) are correctly rounded",
          "[options]") {
  sched::Env E;
  // The option is only valid on devices that report the capability.
  auto Config =
      deviceInfo<cl_device_fp_config>(E.D, CL_DEVICE_SINGLE_FP_CONFIG);
  REQUIRE((Config & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0);
  cl_kernel K = E.kernel(R"(
    kernel void k(global const float *x, global const float *y,
                  global float *q, global float *r) {
      size_t i = get_global_id(0);
      q[i] = x[i] / y[i];
      r[i] = sqrt(x[i]);
    })",
                         "k", "-cl-fp32-correctly-rounded-divide-sqrt");
  const size_t N = 1 << 16;
  std::mt19937 Rng(7);
  std::vector<float> X(N), Y(N);
  for (size_t I = 0; I < N; ++I) {
    // Random bit patterns: all exponents, denormals included; no NaN/inf.
    uint32_t A, B;
    do
      A = Rng() & 0x7fffffffu;
    while ((A >> 23) == 0xff);
    do
      B = Rng();
    while (((B >> 23) & 0xff) == 0xff || (B & 0x7fffffffu) == 0);
    std::memcpy(&X[I], &A, 4);
    std::memcpy(&Y[I], &B, 4);
  }
  cl_mem MX = E.buffer(X), MY = E.buffer(Y),
         MQ = E.buffer(std::vector<float>(N)),
         MR = E.buffer(std::vector<float>(N));
  E.arg(K, 0, MX);
  E.arg(K, 1, MY);
  E.arg(K, 2, MQ);
  E.arg(K, 3, MR);
  REQUIRE(E.run(K, 1, &N, nullptr) == CL_SUCCESS);
  std::vector<float> Q = E.read<float>(MQ, N), R = E.read<float>(MR, N);
  size_t Bad = 0;
  for (size_t I = 0; I < N; ++I) {
    // The host's IEEE float operations round correctly.
    float WantQ = X[I] / Y[I], WantR = std::sqrt(X[I]);
    if ((std::memcmp(&Q[I], &WantQ, 4) || std::memcmp(&R[I], &WantR, 4)) &&
        Bad++ < 5)
      FAIL_CHECK("x=" << X[I] << " y=" << Y[I] << ": " << Q[I] << " vs "
                      << WantQ << ", " << R[I] << " vs " << WantR);
  }
  CHECK(Bad == 0);
}

TEST_CASE("5.8.6.1: -D name=value and -I dir reach the preprocessor",
          "[options]") {
  sched::Env E;
  std::string Log;
  // -I names a directory the front end can read; the header is on disk.
  std::string Dir = std::string(CLCPU_TEST_TMPDIR) + "/include-option";
  std::string Cmd = "mkdir -p '" + Dir + "'";
  REQUIRE(std::system(Cmd.c_str()) == 0);
  {
    FILE *H = std::fopen((Dir + "/scale.h").c_str(), "w");
    REQUIRE(H);
    std::fputs("#define SCALE 3\n", H);
    std::fclose(H);
  }
  std::string Opts = "-D OFFSET=40 -I " + Dir;
  cl_kernel K = E.kernel(R"(
    #include "scale.h"
    kernel void k(global int *p) { p[get_global_id(0)] = SCALE * (int)get_global_id(0) + OFFSET; })",
                         "k", Opts.c_str());
  cl_mem M = E.buffer(std::vector<int>(8));
  E.arg(K, 0, M);
  size_t G = 8;
  REQUIRE(E.run(K, 1, &G, nullptr) == CL_SUCCESS);
  std::vector<int> R = E.read<int>(M, 8);
  for (int I = 0; I < 8; ++I)
    CHECK(R[I] == 3 * I + 40);
}
