// saxpy: y = a*x + y on the first device of a platform chosen by name,
// verified against the host. Usage: saxpy [N] [platform name]
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static const char *Source = R"CLC(
__kernel void saxpy(float a, __global const float *x, __global float *y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
)CLC";

#define CHECK(Call)                                                            \
  do {                                                                         \
    cl_int E_ = (Call);                                                        \
    if (E_ != CL_SUCCESS) {                                                    \
      std::fprintf(stderr, "%s failed: %d\n", #Call, E_);                      \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(int Argc, char **Argv) {
  size_t N = Argc > 1 ? std::strtoull(Argv[1], nullptr, 10) : (16u << 20);
  std::string Want = Argc > 2 ? Argv[2] : "clcpu";
  cl_uint NP = 0;
  CHECK(clGetPlatformIDs(0, nullptr, &NP));
  std::vector<cl_platform_id> Ps(NP);
  CHECK(clGetPlatformIDs(NP, Ps.data(), nullptr));
  cl_platform_id P = nullptr;
  for (cl_platform_id C : Ps) {
    char Name[256] = {};
    clGetPlatformInfo(C, CL_PLATFORM_NAME, sizeof Name, Name, nullptr);
    if (Want == Name)
      P = C;
  }
  if (!P) {
    std::fprintf(stderr, "no platform named %s\n", Want.c_str());
    return 1;
  }
  cl_device_id D;
  CHECK(clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 1, &D, nullptr));
  cl_int Err;
  cl_context Ctx = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err);
  CHECK(Err);
  cl_command_queue Q =
      clCreateCommandQueueWithProperties(Ctx, D, nullptr, &Err);
  CHECK(Err);
  cl_program Prog = clCreateProgramWithSource(Ctx, 1, &Source, nullptr, &Err);
  CHECK(Err);
  if (clBuildProgram(Prog, 1, &D, "", nullptr, nullptr) != CL_SUCCESS) {
    char Log[4096] = {};
    clGetProgramBuildInfo(Prog, D, CL_PROGRAM_BUILD_LOG, sizeof Log, Log,
                          nullptr);
    std::fprintf(stderr, "build failed:\n%s\n", Log);
    return 1;
  }
  cl_kernel K = clCreateKernel(Prog, "saxpy", &Err);
  CHECK(Err);

  std::vector<float> X(N), Y(N), Ref(N);
  const float A = 2.5f;
  for (size_t I = 0; I < N; ++I) {
    X[I] = static_cast<float>(I % 1000) * 0.25f;
    Y[I] = static_cast<float>((I * 7) % 1000) - 500.0f;
    Ref[I] = A * X[I] + Y[I];
  }
  cl_mem BX = clCreateBuffer(Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             N * sizeof(float), X.data(), &Err);
  CHECK(Err);
  cl_mem BY = clCreateBuffer(Ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             N * sizeof(float), Y.data(), &Err);
  CHECK(Err);
  CHECK(clSetKernelArg(K, 0, sizeof A, &A));
  CHECK(clSetKernelArg(K, 1, sizeof BX, &BX));
  CHECK(clSetKernelArg(K, 2, sizeof BY, &BY));
  auto T0 = std::chrono::steady_clock::now();
  CHECK(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &N, nullptr, 0, nullptr,
                               nullptr));
  CHECK(clFinish(Q));
  double Sec =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
          .count();
  CHECK(clEnqueueReadBuffer(Q, BY, CL_TRUE, 0, N * sizeof(float), Y.data(), 0,
                            nullptr, nullptr));
  size_t Bad = 0;
  for (size_t I = 0; I < N; ++I)
    if (std::fabs(Y[I] - Ref[I]) > 1e-5f * std::fabs(Ref[I]) + 1e-6f)
      ++Bad;
  std::printf("saxpy on %s: N=%zu, %s, %.2f ms, %.1f GB/s\n", Want.c_str(), N,
              Bad ? "FAIL" : "verified", Sec * 1e3, 12.0 * N / Sec / 1e9);
  clReleaseMemObject(BX);
  clReleaseMemObject(BY);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
  clReleaseCommandQueue(Q);
  clReleaseContext(Ctx);
  return Bad ? 1 : 0;
}
