// End-to-end: the on-disk kernel cache through the ICD loader (OpenCL 3.0
// API spec, 5.8.3 "Building Program Executables"). Hidden from the plain e2e
// run: ctest runs "[.cache]" with CLCPU_CACHE_DIR set to a fresh directory
// and "[.cache-off]" with CLCPU_CACHE=0 as well.

#include "Common.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {
std::vector<fs::path> entries(const std::string &Dir) {
  std::vector<fs::path> Out;
  std::error_code EC;
  for (const auto &E : fs::directory_iterator(Dir, EC))
    Out.push_back(E.path());
  return Out;
}

/// A source no earlier run has cached: the current time in a comment.
std::string uniqueSource() {
  auto Now = std::chrono::system_clock::now().time_since_epoch().count();
  return "// run " + std::to_string(Now) +
         "\nkernel void add(global int *p, int v) {\n"
         "  p[get_global_id(0)] += v;\n}\n";
}

struct Built {
  cl_program P = nullptr;
  cl_int Err = -1;
  std::string Log;
};

Built build(cl_context C, cl_device_id D, const std::string &Src) {
  Built B;
  const char *S = Src.c_str();
  B.P = clCreateProgramWithSource(C, 1, &S, nullptr, &B.Err);
  REQUIRE(B.Err == CL_SUCCESS);
  B.Err = clBuildProgram(B.P, 0, nullptr, "-DUNUSED", nullptr, nullptr);
  size_t N = 0;
  clGetProgramBuildInfo(B.P, D, CL_PROGRAM_BUILD_LOG, 0, nullptr, &N);
  B.Log.assign(N, '\0');
  clGetProgramBuildInfo(B.P, D, CL_PROGRAM_BUILD_LOG, N, B.Log.data(), nullptr);
  return B;
}

/// Runs "add" with v = 5 over {0..7}.
std::vector<int> run(cl_context C, cl_device_id D, cl_program P) {
  cl_int Err = -1;
  cl_kernel K = clCreateKernel(P, "add", &Err);
  REQUIRE(Err == CL_SUCCESS);
  std::vector<int> V = {0, 1, 2, 3, 4, 5, 6, 7};
  cl_mem M =
      clCreateBuffer(C, CL_MEM_COPY_HOST_PTR, V.size() * 4, V.data(), nullptr);
  int Five = 5;
  clSetKernelArg(K, 0, sizeof M, &M);
  clSetKernelArg(K, 1, sizeof Five, &Five);
  cl_command_queue Q = clCreateCommandQueue(C, D, 0, nullptr);
  size_t G = V.size();
  REQUIRE(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &G, nullptr, 0, nullptr,
                                 nullptr) == CL_SUCCESS);
  clEnqueueReadBuffer(Q, M, CL_TRUE, 0, V.size() * 4, V.data(), 0, nullptr,
                      nullptr);
  clReleaseCommandQueue(Q);
  clReleaseMemObject(M);
  clReleaseKernel(K);
  return V;
}

struct Ctx {
  cl_device_id D = clcpuDevice();
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, nullptr);
  ~Ctx() { clReleaseContext(C); }
};
} // namespace

TEST_CASE("5.8.3: builds are cached under CLCPU_CACHE_DIR; a corrupt entry "
          "is rebuilt",
          "[.cache]") {
  const char *Dir = std::getenv("CLCPU_CACHE_DIR");
  REQUIRE(Dir);
  Ctx X;
  std::string Src = uniqueSource();
  size_t Before = entries(Dir).size();
  Built A = build(X.C, X.D, Src);
  REQUIRE(A.Err == CL_SUCCESS);
  std::vector<fs::path> After = entries(Dir);
  REQUIRE(After.size() == Before + 1);
  const std::vector<int> Expected = {5, 6, 7, 8, 9, 10, 11, 12};
  CHECK(run(X.C, X.D, A.P) == Expected);

  // A second program with the same source and options: served from the
  // cache (no new entry), same results.
  Built B = build(X.C, X.D, Src);
  REQUIRE(B.Err == CL_SUCCESS);
  CHECK(entries(Dir).size() == After.size());
  CHECK(B.Log.find("cache") == std::string::npos);
  CHECK(run(X.C, X.D, B.P) == Expected);

  // Damage every entry: detected (the log says so), rebuilt, still right.
  for (const fs::path &E : entries(Dir)) {
    std::fstream F(E, std::ios::in | std::ios::out | std::ios::binary);
    F.seekp(64);
    F.put('\x5a');
    F.put('\xa5');
  }
  Built C = build(X.C, X.D, Src);
  REQUIRE(C.Err == CL_SUCCESS);
  CHECK(C.Log.find("corrupt") != std::string::npos);
  CHECK(run(X.C, X.D, C.P) == Expected);
  // The rebuilt entry is good again.
  Built D = build(X.C, X.D, Src);
  REQUIRE(D.Err == CL_SUCCESS);
  CHECK(D.Log.find("cache") == std::string::npos);
  for (cl_program P : {A.P, B.P, C.P, D.P})
    clReleaseProgram(P);
  // Leave the directory as small as it was.
  std::error_code EC;
  for (const fs::path &E : entries(Dir))
    fs::remove(E, EC);
}

TEST_CASE("5.8.3: CLCPU_CACHE=0 turns the kernel cache off", "[.cache-off]") {
  const char *Dir = std::getenv("CLCPU_CACHE_DIR");
  REQUIRE(Dir);
  Ctx X;
  size_t Before = entries(Dir).size();
  Built A = build(X.C, X.D, uniqueSource());
  REQUIRE(A.Err == CL_SUCCESS);
  CHECK(run(X.C, X.D, A.P) == std::vector<int>({5, 6, 7, 8, 9, 10, 11, 12}));
  CHECK(entries(Dir).size() == Before);
  clReleaseProgram(A.P);
}
