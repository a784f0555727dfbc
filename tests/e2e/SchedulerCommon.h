#ifndef CLCPU_TESTS_E2E_SCHEDULERCOMMON_H
#define CLCPU_TESTS_E2E_SCHEDULERCOMMON_H

// Shared by the end-to-end tests: a context and queue on clcpu, program
// building with the log in the failure message, buffers in and out, and
// kernel launches.

#include "Common.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace sched {

struct Env {
  cl_device_id D = clcpuDevice();
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, nullptr);
  cl_command_queue Q = clCreateCommandQueue(C, D, 0, nullptr);
  std::vector<cl_mem> Mems;
  std::vector<cl_kernel> Kernels;
  std::vector<cl_program> Programs;
  ~Env() {
    clFinish(Q);
    for (cl_mem M : Mems)
      clReleaseMemObject(M);
    for (cl_kernel K : Kernels)
      clReleaseKernel(K);
    for (cl_program P : Programs)
      clReleaseProgram(P);
    clReleaseCommandQueue(Q);
    clReleaseContext(C);
  }
  /// Builds \p Src; on failure returns nullptr and the log in \p Log.
  cl_program tryBuild(const std::string &Src, const char *Options,
                      std::string &Log) {
    const char *S = Src.c_str();
    cl_int Err = -1;
    cl_program P = clCreateProgramWithSource(C, 1, &S, nullptr, &Err);
    REQUIRE(Err == CL_SUCCESS);
    Programs.push_back(P);
    if (clBuildProgram(P, 1, &D, Options, nullptr, nullptr) != CL_SUCCESS) {
      size_t N = 0;
      clGetProgramBuildInfo(P, D, CL_PROGRAM_BUILD_LOG, 0, nullptr, &N);
      Log.assign(N, '\0');
      clGetProgramBuildInfo(P, D, CL_PROGRAM_BUILD_LOG, N, Log.data(), nullptr);
      return nullptr;
    }
    return P;
  }
  /// Builds \p Src; a failure fails the test with the build log.
  cl_program build(const std::string &Src, const std::string &Options = "") {
    std::string Log;
    cl_program P = tryBuild(Src, Options.c_str(), Log);
    if (!P)
      FAIL("build failed (" << Options << "): " << Log);
    return P;
  }
  cl_kernel kernel(const std::string &Src, const char *Name,
                   const char *Options = nullptr) {
    std::string Log;
    cl_program P = tryBuild(Src, Options, Log);
    if (!P)
      FAIL("build failed: " << Log);
    cl_int Err = -1;
    cl_kernel K = clCreateKernel(P, Name, &Err);
    REQUIRE(Err == CL_SUCCESS);
    Kernels.push_back(K);
    return K;
  }
  template <typename T> cl_mem buffer(const std::vector<T> &Data) {
    cl_int Err = -1;
    cl_mem M = clCreateBuffer(C, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              Data.size() * sizeof(T),
                              const_cast<T *>(Data.data()), &Err);
    REQUIRE(Err == CL_SUCCESS);
    Mems.push_back(M);
    return M;
  }
  template <typename T> std::vector<T> read(cl_mem M, size_t N) {
    std::vector<T> Out(N);
    REQUIRE(clEnqueueReadBuffer(Q, M, CL_TRUE, 0, N * sizeof(T), Out.data(), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    return Out;
  }
  template <typename T> void arg(cl_kernel K, cl_uint I, const T &V) {
    REQUIRE(clSetKernelArg(K, I, sizeof V, &V) == CL_SUCCESS);
  }
  void localArg(cl_kernel K, cl_uint I, size_t Bytes) {
    REQUIRE(clSetKernelArg(K, I, Bytes, nullptr) == CL_SUCCESS);
  }
  /// A `__local` argument of \p Bytes for launch().
  struct LocalBytes {
    size_t Bytes;
  };
  void arg(cl_kernel K, cl_uint I, const LocalBytes &L) {
    localArg(K, I, L.Bytes);
  }
  /// Runs kernel \p Name of \p P over \p Global work-items in groups of
  /// \p Local with \p Args (buffers, scalars, LocalBytes) in order.
  template <typename... A>
  void launch(cl_program P, const char *Name, size_t Global, size_t Local,
              const A &...Args) {
    cl_int Err = -1;
    cl_kernel K = clCreateKernel(P, Name, &Err);
    REQUIRE(Err == CL_SUCCESS);
    Kernels.push_back(K);
    cl_uint I = 0;
    (arg(K, I++, Args), ...);
    REQUIRE(run(K, 1, &Global, &Local) == CL_SUCCESS);
  }
  /// Runs kernel \p Name of \p P over \p Global work-items (local size
  /// \p Local, 0: the driver's choice) with buffer arguments \p Args.
  void run(cl_program P, const std::string &Name, std::vector<cl_mem> Args,
           size_t Global, size_t Local = 0) {
    cl_int Err = -1;
    cl_kernel K = clCreateKernel(P, Name.c_str(), &Err);
    REQUIRE(Err == CL_SUCCESS);
    Kernels.push_back(K);
    for (cl_uint I = 0; I < Args.size(); ++I)
      REQUIRE(clSetKernelArg(K, I, sizeof(cl_mem), &Args[I]) == CL_SUCCESS);
    REQUIRE(run(K, 1, &Global, Local ? &Local : nullptr) == CL_SUCCESS);
  }
  cl_int run(cl_kernel K, cl_uint Dims, const size_t *G, const size_t *L) {
    cl_int Err =
        clEnqueueNDRangeKernel(Q, K, Dims, nullptr, G, L, 0, nullptr, nullptr);
    if (Err == CL_SUCCESS)
      Err = clFinish(Q);
    return Err;
  }
};

/// Checks \p Got element by element against \p Want, reporting the first
/// four mismatches of \p What with their indices.
template <typename T>
void expectEqual(const std::vector<T> &Got, const std::vector<T> &Want,
                 const char *What) {
  REQUIRE(Got.size() == Want.size());
  size_t Bad = 0;
  for (size_t I = 0; I < Want.size(); ++I)
    if (!(Got[I] == Want[I]) && Bad++ < 4)
      FAIL_CHECK(What << "[" << I << "] = " << Got[I] << ", want " << Want[I]);
  CHECK(Bad == 0);
}

/// Runs \p K over one work-item with stdout redirected to a file and returns
/// what was printed (kernel printf).
inline std::string runCapturingStdout(Env &E, cl_kernel K) {
  char Path[] = "/tmp/clcpu-printf-XXXXXX";
  int Fd = mkstemp(Path);
  REQUIRE(Fd >= 0);
  std::fflush(stdout);
  int Saved = dup(1);
  REQUIRE(Saved >= 0);
  dup2(Fd, 1);
  size_t G = 1;
  cl_int Err = E.run(K, 1, &G, nullptr);
  std::fflush(stdout);
  dup2(Saved, 1);
  close(Saved);
  close(Fd);
  REQUIRE(Err == CL_SUCCESS);
  std::ifstream In(Path);
  std::stringstream SS;
  SS << In.rdbuf();
  unlink(Path);
  return SS.str();
}

} // namespace sched

#endif
