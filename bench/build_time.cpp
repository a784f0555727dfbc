// clBuildProgram time of a small kernel through the ICD loader:
//   cold: a source no build has seen (a fresh comment each round): Clang,
//         the optimizer and the JIT (plus the cache store when it is on);
//   warm: the same source and options again in a new program object: with
//         the kernel cache on (the default) a cache hit that skips Clang and
//         the optimizer; with CLCPU_CACHE=0 a full build again.
// Median of N rounds, milliseconds.
//
// Usage: clcpu_bench_build_time [rounds]   (default 20)
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {
cl_device_id clcpuDevice() {
  cl_uint N = 0;
  clGetPlatformIDs(0, nullptr, &N);
  std::vector<cl_platform_id> Ps(N);
  clGetPlatformIDs(N, Ps.data(), nullptr);
  for (cl_platform_id P : Ps) {
    char Name[64] = {};
    clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof Name, Name, nullptr);
    cl_device_id D = nullptr;
    if (std::string(Name) == "clcpu" &&
        clGetDeviceIDs(P, CL_DEVICE_TYPE_CPU, 1, &D, nullptr) == CL_SUCCESS)
      return D;
  }
  return nullptr;
}

double buildMs(cl_context C, const std::string &Src) {
  const char *S = Src.c_str();
  cl_int Err = CL_SUCCESS;
  cl_program P = clCreateProgramWithSource(C, 1, &S, nullptr, &Err);
  auto T0 = std::chrono::steady_clock::now();
  Err = clBuildProgram(P, 0, nullptr, "-cl-std=CL1.2", nullptr, nullptr);
  auto T1 = std::chrono::steady_clock::now();
  clReleaseProgram(P);
  if (Err != CL_SUCCESS) {
    std::fprintf(stderr, "build failed: %d\n", Err);
    std::exit(1);
  }
  return std::chrono::duration<double, std::milli>(T1 - T0).count();
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}
} // namespace

int main(int Argc, char **Argv) {
  int Rounds = Argc > 1 ? std::atoi(Argv[1]) : 20;
  cl_device_id D = clcpuDevice();
  if (!D || Rounds < 1) {
    std::fprintf(stderr, "no clcpu device (OCL_ICD_VENDORS?)\n");
    return 1;
  }
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, nullptr);
  const char *Body = "kernel void saxpy(global float *y, global const float "
                     "*x, float a) {\n"
                     "  size_t i = get_global_id(0);\n"
                     "  y[i] = a * x[i] + y[i];\n"
                     "}\n";
  buildMs(C, Body); // warms up the compiler itself (first-use costs)
  std::vector<double> Cold, Warm;
  auto Stamp = std::chrono::system_clock::now().time_since_epoch().count();
  for (int I = 0; I < Rounds; ++I) {
    std::string Src = "// bench " + std::to_string(Stamp) + " " +
                      std::to_string(I) + "\n" + Body;
    Cold.push_back(buildMs(C, Src));
    Warm.push_back(buildMs(C, Src));
  }
  const char *Cache = std::getenv("CLCPU_CACHE");
  std::printf("clBuildProgram, small kernel, median of %d (cache %s):\n"
              "  cold (new source):  %8.2f ms\n"
              "  warm (same source): %8.2f ms\n",
              Rounds, Cache && std::string(Cache) == "0" ? "off" : "on",
              median(Cold), median(Warm));
  clReleaseContext(C);
  return 0;
}
