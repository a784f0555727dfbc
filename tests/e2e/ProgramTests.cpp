// End-to-end: program objects through the ICD loader (OpenCL 3.0 API spec,
// 5.8 "Program Objects").

#include "Common.h"

#include <catch2/catch.hpp>

#include <regex>
#include <string>
#include <vector>

namespace {
struct Ctx {
  cl_device_id D = clcpuDevice();
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, nullptr);
  ~Ctx() { clReleaseContext(C); }
};

cl_program source(cl_context C, const char *Src) {
  cl_int Err = -1;
  cl_program P = clCreateProgramWithSource(C, 1, &Src, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  return P;
}

std::string buildLog(cl_program P, cl_device_id D) {
  size_t N = 0;
  clGetProgramBuildInfo(P, D, CL_PROGRAM_BUILD_LOG, 0, nullptr, &N);
  std::string S(N, '\0');
  clGetProgramBuildInfo(P, D, CL_PROGRAM_BUILD_LOG, N, S.data(), nullptr);
  return S;
}

void CL_CALLBACK onBuilt(cl_program, void *User) {
  ++*static_cast<int *>(User);
}

const char *TwoKernels = R"(
kernel void first(global int *p) { p[get_global_id(0)] = 1; }
kernel void second(global int *p, int v) { p[get_global_id(0)] = v; }
)";
} // namespace

TEST_CASE("5.8.1: clCreateProgramWithSource keeps the source", "[program]") {
  Ctx X;
  const char *Parts[] = {"kernel void a(global int *p) ", "{ p[0] = 1; }xyz"};
  size_t Lens[] = {0, 13};
  cl_int Err = -1;
  cl_program P = clCreateProgramWithSource(X.C, 2, Parts, Lens, &Err);
  REQUIRE(Err == CL_SUCCESS);
  size_t N = 0;
  CHECK(clGetProgramInfo(P, CL_PROGRAM_SOURCE, 0, nullptr, &N) == CL_SUCCESS);
  std::string S(N, '\0');
  CHECK(clGetProgramInfo(P, CL_PROGRAM_SOURCE, N, S.data(), nullptr) ==
        CL_SUCCESS);
  CHECK(S == std::string("kernel void a(global int *p) { p[0] = 1; }") + '\0');
  cl_context Got = nullptr;
  clGetProgramInfo(P, CL_PROGRAM_CONTEXT, sizeof Got, &Got, nullptr);
  CHECK(Got == X.C);
  cl_uint ND = 0;
  clGetProgramInfo(P, CL_PROGRAM_NUM_DEVICES, sizeof ND, &ND, nullptr);
  CHECK(ND == 1);
  cl_device_id Dev = nullptr;
  clGetProgramInfo(P, CL_PROGRAM_DEVICES, sizeof Dev, &Dev, nullptr);
  CHECK(Dev == X.D);
  // Before a build there are no kernels to count.
  size_t NK = 0;
  CHECK(clGetProgramInfo(P, CL_PROGRAM_NUM_KERNELS, sizeof NK, &NK, nullptr) ==
        CL_INVALID_PROGRAM_EXECUTABLE);
  cl_build_status St = 0;
  clGetProgramBuildInfo(P, X.D, CL_PROGRAM_BUILD_STATUS, sizeof St, &St,
                        nullptr);
  CHECK(St == CL_BUILD_NONE);
  CHECK(clRetainProgram(P) == CL_SUCCESS);
  cl_uint Refs = 0;
  clGetProgramInfo(P, CL_PROGRAM_REFERENCE_COUNT, sizeof Refs, &Refs, nullptr);
  CHECK(Refs == 2);
  CHECK(clReleaseProgram(P) == CL_SUCCESS);
  CHECK(clReleaseProgram(P) == CL_SUCCESS);
  CHECK(clReleaseProgram(nullptr) == CL_INVALID_PROGRAM);

  CHECK(clCreateProgramWithSource(X.C, 0, Parts, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  const char *Null[] = {nullptr};
  CHECK(clCreateProgramWithSource(X.C, 1, Null, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clCreateProgramWithSource(nullptr, 1, Parts, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_CONTEXT);
}

TEST_CASE("5.8.3: clBuildProgram builds and reports kernels", "[program]") {
  Ctx X;
  cl_program P = source(X.C, TwoKernels);
  int Calls = 0;
  CHECK(clBuildProgram(P, 1, &X.D, "-cl-std=CL1.2", onBuilt, &Calls) ==
        CL_SUCCESS);
  CHECK(Calls == 1);
  cl_build_status St = 0;
  clGetProgramBuildInfo(P, X.D, CL_PROGRAM_BUILD_STATUS, sizeof St, &St,
                        nullptr);
  CHECK(St == CL_BUILD_SUCCESS);
  char Opts[64] = {};
  clGetProgramBuildInfo(P, X.D, CL_PROGRAM_BUILD_OPTIONS, sizeof Opts, Opts,
                        nullptr);
  CHECK(std::string(Opts) == "-cl-std=CL1.2");
  cl_program_binary_type BT = 0;
  clGetProgramBuildInfo(P, X.D, CL_PROGRAM_BINARY_TYPE, sizeof BT, &BT,
                        nullptr);
  CHECK(BT == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  size_t GV = 1;
  CHECK(clGetProgramBuildInfo(P, X.D,
                              CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                              sizeof GV, &GV, nullptr) == CL_SUCCESS);
  CHECK(GV == 0);
  size_t NK = 0;
  CHECK(clGetProgramInfo(P, CL_PROGRAM_NUM_KERNELS, sizeof NK, &NK, nullptr) ==
        CL_SUCCESS);
  CHECK(NK == 2);
  char Names[64] = {};
  clGetProgramInfo(P, CL_PROGRAM_KERNEL_NAMES, sizeof Names, Names, nullptr);
  CHECK(std::string(Names) == "first;second");

  // Rebuilding is allowed until a kernel is attached.
  CHECK(clBuildProgram(P, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  cl_kernel K = clCreateKernel(P, "first", nullptr);
  REQUIRE(K);
  CHECK(clBuildProgram(P, 0, nullptr, nullptr, nullptr, nullptr) ==
        CL_INVALID_OPERATION);
  clReleaseKernel(K);
  CHECK(clBuildProgram(P, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);

  CHECK(clBuildProgram(P, 1, nullptr, nullptr, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clBuildProgram(P, 0, &X.D, nullptr, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clBuildProgram(P, 0, nullptr, nullptr, nullptr, &Calls) ==
        CL_INVALID_VALUE);
  cl_device_id Bad = reinterpret_cast<cl_device_id>(X.C);
  CHECK(clBuildProgram(P, 1, &Bad, nullptr, nullptr, nullptr) ==
        CL_INVALID_DEVICE);
  CHECK(clBuildProgram(nullptr, 0, nullptr, nullptr, nullptr, nullptr) ==
        CL_INVALID_PROGRAM);
  clReleaseProgram(P);
}

TEST_CASE("5.8.3: a build error fails with a log naming line and column",
          "[program]") {
  Ctx X;
  cl_program P = source(X.C, "kernel void k(global int *p) {\n"
                             "  p[0] = 1;\n"
                             "  p[1] = undeclared_name;\n"
                             "}\n");
  int Calls = 0;
  CHECK(clBuildProgram(P, 1, &X.D, nullptr, onBuilt, &Calls) ==
        CL_BUILD_PROGRAM_FAILURE);
  CHECK(Calls == 1);
  std::string Log = buildLog(P, X.D);
  INFO(Log);
  CHECK(std::regex_search(Log, std::regex(":3:[0-9]+: error")));
  CHECK(Log.find("undeclared_name") != std::string::npos);
  cl_build_status St = 0;
  clGetProgramBuildInfo(P, X.D, CL_PROGRAM_BUILD_STATUS, sizeof St, &St,
                        nullptr);
  CHECK(St == CL_BUILD_ERROR);
  cl_int Err = 0;
  CHECK(clCreateKernel(P, "k", &Err) == nullptr);
  CHECK(Err == CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(P);
}

TEST_CASE("5.8.6: unknown build options are rejected", "[program]") {
  Ctx X;
  cl_program P = source(X.C, TwoKernels);
  CHECK(clBuildProgram(P, 0, nullptr, "-cl-not-an-option", nullptr, nullptr) ==
        CL_INVALID_BUILD_OPTIONS);
  CHECK(clBuildProgram(P, 0, nullptr, "-cl-std=CL7.0", nullptr, nullptr) ==
        CL_INVALID_BUILD_OPTIONS);
  for (const char *Std : {"CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0"}) {
    std::string O = std::string("-cl-std=") + Std;
    INFO(O);
    CHECK(clBuildProgram(P, 0, nullptr, O.c_str(), nullptr, nullptr) ==
          CL_SUCCESS);
  }
  clReleaseProgram(P);
}

TEST_CASE("5.8.3: barrier() is rejected at build time for now", "[program]") {
  Ctx X;
  cl_program P = source(X.C, "kernel void k(local int *l, global int *p) {\n"
                             "  l[get_local_id(0)] = 1;\n"
                             "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                             "  p[get_global_id(0)] = l[0];\n"
                             "}\n");
  CHECK(clBuildProgram(P, 0, nullptr, nullptr, nullptr, nullptr) ==
        CL_BUILD_PROGRAM_FAILURE);
  CHECK(buildLog(P, X.D).find("barrier") != std::string::npos);
  clReleaseProgram(P);
}

TEST_CASE("5.8: no binaries are claimed", "[program]") {
  Ctx X;
  cl_program P = source(X.C, TwoKernels);
  REQUIRE(clBuildProgram(P, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  size_t Size = 1;
  CHECK(clGetProgramInfo(P, CL_PROGRAM_BINARY_SIZES, sizeof Size, &Size,
                         nullptr) == CL_SUCCESS);
  CHECK(Size == 0);
  unsigned char *Bin = nullptr;
  size_t Ret = 0;
  CHECK(clGetProgramInfo(P, CL_PROGRAM_BINARIES, sizeof Bin, &Bin, &Ret) ==
        CL_SUCCESS);
  CHECK(Ret == sizeof Bin);
  CHECK(clGetProgramInfo(P, CL_PROGRAM_BINARIES, 1, &Bin, nullptr) ==
        CL_INVALID_VALUE);
  clReleaseProgram(P);
}

TEST_CASE("5.8.4: clCompileProgram and clLinkProgram, with headers and a "
          "library",
          "[program]") {
  Ctx X;
  cl_program Header = source(X.C, "#define FACTOR 3\nfloat twice(float);\n");
  cl_program Helper = source(X.C, "#include \"util.h\"\n"
                                  "float twice(float v) { return 2 * v; }\n");
  cl_program Main = source(X.C, "#include \"util.h\"\n"
                                "kernel void k(global float *p) {\n"
                                "  size_t i = get_global_id(0);\n"
                                "  p[i] = twice(p[i]) * FACTOR;\n"
                                "}\n");
  const char *Names[] = {"util.h"};
  int Calls = 0;
  CHECK(clCompileProgram(Helper, 1, &X.D, nullptr, 1, &Header, Names, onBuilt,
                         &Calls) == CL_SUCCESS);
  CHECK(clCompileProgram(Main, 0, nullptr, "-cl-std=CL1.2", 1, &Header, Names,
                         nullptr, nullptr) == CL_SUCCESS);
  CHECK(Calls == 1);
  cl_program_binary_type BT = 0;
  clGetProgramBuildInfo(Main, X.D, CL_PROGRAM_BINARY_TYPE, sizeof BT, &BT,
                        nullptr);
  CHECK(BT == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);

  // Helper as a library, then library + object into an executable.
  cl_int Err = -1;
  cl_program Lib = clLinkProgram(X.C, 0, nullptr, "-create-library", 1, &Helper,
                                 nullptr, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  clGetProgramBuildInfo(Lib, X.D, CL_PROGRAM_BINARY_TYPE, sizeof BT, &BT,
                        nullptr);
  CHECK(BT == CL_PROGRAM_BINARY_TYPE_LIBRARY);
  cl_program In[] = {Main, Lib};
  cl_program Exe =
      clLinkProgram(X.C, 1, &X.D, nullptr, 2, In, onBuilt, &Calls, &Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(Calls == 2);
  clGetProgramBuildInfo(Exe, X.D, CL_PROGRAM_BINARY_TYPE, sizeof BT, &BT,
                        nullptr);
  CHECK(BT == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  cl_kernel K = clCreateKernel(Exe, "k", &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_command_queue Q = clCreateCommandQueue(X.C, X.D, 0, nullptr);
  std::vector<float> V = {1, 2, 3, 4, -5, 6, 7, 8};
  cl_mem M = clCreateBuffer(X.C, CL_MEM_COPY_HOST_PTR, V.size() * 4, V.data(),
                            nullptr);
  clSetKernelArg(K, 0, sizeof M, &M);
  size_t G = V.size();
  REQUIRE(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &G, nullptr, 0, nullptr,
                                 nullptr) == CL_SUCCESS);
  std::vector<float> Got(V.size());
  clEnqueueReadBuffer(Q, M, CL_TRUE, 0, Got.size() * 4, Got.data(), 0, nullptr,
                      nullptr);
  for (size_t I = 0; I < V.size(); ++I)
    CHECK(Got[I] == V[I] * 6);
  clReleaseMemObject(M);
  clReleaseCommandQueue(Q);
  clReleaseKernel(K);

  // Errors.
  CHECK(clCompileProgram(Main, 0, nullptr, "-bogus", 0, nullptr, nullptr,
                         nullptr, nullptr) == CL_INVALID_COMPILER_OPTIONS);
  CHECK(clCompileProgram(Main, 0, nullptr, nullptr, 1, nullptr, Names, nullptr,
                         nullptr) == CL_INVALID_VALUE);
  CHECK(clCompileProgram(Main, 0, nullptr, nullptr, 0, &Header, nullptr,
                         nullptr, nullptr) == CL_INVALID_VALUE);
  // Without the header the source does not compile.
  CHECK(clCompileProgram(Main, 0, nullptr, nullptr, 0, nullptr, nullptr,
                         nullptr, nullptr) == CL_COMPILE_PROGRAM_FAILURE);
  CHECK(buildLog(Main, X.D).find("util.h") != std::string::npos);
  // Main holds no compiled object now.
  CHECK(clLinkProgram(X.C, 0, nullptr, nullptr, 1, &Main, nullptr, nullptr,
                      &Err) == nullptr);
  CHECK(Err == CL_INVALID_OPERATION);
  CHECK(clLinkProgram(X.C, 0, nullptr, "-bogus", 1, &Helper, nullptr, nullptr,
                      &Err) == nullptr);
  CHECK(Err == CL_INVALID_LINKER_OPTIONS);
  CHECK(clLinkProgram(X.C, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr,
                      &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clLinkProgram(nullptr, 0, nullptr, nullptr, 1, &Helper, nullptr,
                      nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_CONTEXT);
  // A kernel calling a function no input defines fails to link, and the
  // program returned carries the log.
  cl_program Lonely = source(X.C, "float twice(float);\n"
                                  "kernel void k(global float *p) "
                                  "{ p[0] = twice(p[0]); }\n");
  REQUIRE(clCompileProgram(Lonely, 0, nullptr, nullptr, 0, nullptr, nullptr,
                           nullptr, nullptr) == CL_SUCCESS);
  cl_program Bad = clLinkProgram(X.C, 0, nullptr, nullptr, 1, &Lonely, nullptr,
                                 nullptr, &Err);
  CHECK(Err == CL_LINK_PROGRAM_FAILURE);
  REQUIRE(Bad);
  CHECK(buildLog(Bad, X.D).find("twice") != std::string::npos);
  cl_build_status St = 0;
  clGetProgramBuildInfo(Bad, X.D, CL_PROGRAM_BUILD_STATUS, sizeof St, &St,
                        nullptr);
  CHECK(St == CL_BUILD_ERROR);
  // Linked programs have no source to build.
  CHECK(clBuildProgram(Exe, 0, nullptr, nullptr, nullptr, nullptr) ==
        CL_INVALID_OPERATION);
  for (cl_program P : {Bad, Lonely, Exe, Lib, Main, Helper, Header})
    clReleaseProgram(P);
}
