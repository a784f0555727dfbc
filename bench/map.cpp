// Cost of a blocking clEnqueueMapBuffer + clEnqueueUnmapMemObject pair on
// clcpu, for a 4 KiB and a 64 MiB buffer (whole-buffer maps). clcpu maps
// zero copy, so both sizes should cost the same; a copying implementation
// would scale with the size. Also reports a 64 MiB clEnqueueReadBuffer for
// scale (that one must copy).
//
// Usage: clcpu_bench_map [rounds] [platform]   (defaults: 200, "clcpu")
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {
cl_platform_id findPlatform(const std::string &Name) {
  cl_uint N = 0;
  clGetPlatformIDs(0, nullptr, &N);
  std::vector<cl_platform_id> Ps(N);
  if (N)
    clGetPlatformIDs(N, Ps.data(), nullptr);
  for (cl_platform_id P : Ps) {
    char Buf[256] = {};
    clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof Buf, Buf, nullptr);
    if (Name == Buf)
      return P;
  }
  return nullptr;
}

double nowNs() {
  return std::chrono::duration<double, std::nano>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}
} // namespace

int main(int Argc, char **Argv) {
  int Rounds = Argc > 1 ? std::atoi(Argv[1]) : 200;
  std::string Name = Argc > 2 ? Argv[2] : "clcpu";
  cl_platform_id P = findPlatform(Name);
  if (!P) {
    std::fprintf(stderr, "platform \"%s\" not found\n", Name.c_str());
    return 1;
  }
  cl_device_id D = nullptr;
  cl_int Err = clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 1, &D, nullptr);
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err);
  cl_command_queue Q = clCreateCommandQueueWithProperties(C, D, nullptr, &Err);
  if (Err != CL_SUCCESS) {
    std::fprintf(stderr, "setup failed: %d\n", Err);
    return 1;
  }
  const size_t Sizes[] = {4096, size_t(64) << 20};
  std::printf("%-10s %14s %14s\n", "size", "map+unmap ns", "read ns");
  for (size_t Size : Sizes) {
    cl_mem M = clCreateBuffer(C, CL_MEM_READ_WRITE, Size, nullptr, &Err);
    if (Err != CL_SUCCESS) {
      std::fprintf(stderr, "clCreateBuffer(%zu) failed: %d\n", Size, Err);
      return 1;
    }
    std::vector<char> Host(Size);
    // Touch every page once so neither measurement pays first-touch faults.
    clEnqueueWriteBuffer(Q, M, CL_TRUE, 0, Size, Host.data(), 0, nullptr,
                         nullptr);
    std::vector<double> Map, Read;
    for (int R = 0; R < Rounds; ++R) {
      double T0 = nowNs();
      void *Ptr = clEnqueueMapBuffer(Q, M, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                     0, Size, 0, nullptr, nullptr, &Err);
      if (Err != CL_SUCCESS) {
        std::fprintf(stderr, "map failed: %d\n", Err);
        return 1;
      }
      clEnqueueUnmapMemObject(Q, M, Ptr, 0, nullptr, nullptr);
      clFinish(Q);
      double T1 = nowNs();
      Map.push_back(T1 - T0);
      if (R < 20) { // copies are slow at 64 MiB; a few suffice
        double T2 = nowNs();
        clEnqueueReadBuffer(Q, M, CL_TRUE, 0, Size, Host.data(), 0, nullptr,
                            nullptr);
        Read.push_back(nowNs() - T2);
      }
    }
    std::printf("%-10zu %14.0f %14.0f\n", Size, median(Map), median(Read));
    clReleaseMemObject(M);
  }
  clReleaseCommandQueue(Q);
  clReleaseContext(C);
  return 0;
}
