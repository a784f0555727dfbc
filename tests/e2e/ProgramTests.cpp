// End-to-end: program objects through the ICD loader (OpenCL 3.0 API spec,
// 5.8 "Program Objects").

#include "Common.h"
#include "SchedulerCommon.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
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

/// pfn_notify for clBuildProgram/clCompileProgram/clLinkProgram: counts
/// calls in a std::atomic<int> (the build runs on another thread).
void CL_CALLBACK onBuilt(cl_program, void *User) {
  ++*static_cast<std::atomic<int> *>(User);
}

/// Waits until \p Calls notifications arrived.
void waitCalls(const std::atomic<int> &Calls, int N) {
  while (Calls.load() < N)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
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
  std::atomic<int> Calls{0};
  CHECK(clBuildProgram(P, 1, &X.D, "-cl-std=CL1.2", onBuilt, &Calls) ==
        CL_SUCCESS);
  waitCalls(Calls, 1);
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
  CHECK(clBuildProgram(P, 1, &X.D, nullptr, nullptr, nullptr) ==
        CL_BUILD_PROGRAM_FAILURE);
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

TEST_CASE("5.8.3: build errors name the file and line a #line directive "
          "sets (CTS test_compiler/preprocessor_line_error)",
          "[program]") {
  Ctx X;
  cl_program P = source(X.C, "kernel void k(global int *p) {\n"
                             "#line 124 \"fictitious/file/name.c\"\n"
                             "  p[0] = undeclared_name;\n"
                             "}\n");
  CHECK(clBuildProgram(P, 1, &X.D, nullptr, nullptr, nullptr) ==
        CL_BUILD_PROGRAM_FAILURE);
  std::string Log = buildLog(P, X.D);
  INFO(Log);
  CHECK(Log.find("fictitious/file/name.c:124:") != std::string::npos);
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

namespace {
/// CL_PROGRAM_BINARIES of a one-device program.
std::vector<unsigned char> binaryOf(cl_program P) {
  size_t Size = 0;
  REQUIRE(clGetProgramInfo(P, CL_PROGRAM_BINARY_SIZES, sizeof Size, &Size,
                           nullptr) == CL_SUCCESS);
  std::vector<unsigned char> Bin(Size);
  unsigned char *Ptr = Bin.data();
  REQUIRE(clGetProgramInfo(P, CL_PROGRAM_BINARIES, sizeof Ptr, &Ptr, nullptr) ==
          CL_SUCCESS);
  return Bin;
}

cl_program fromBinary(cl_context C, cl_device_id D,
                      const std::vector<unsigned char> &Bin, cl_int &Status,
                      cl_int &Err) {
  const unsigned char *Ptr = Bin.data();
  size_t Len = Bin.size();
  return clCreateProgramWithBinary(C, 1, &D, &Len, &Ptr, &Status, &Err);
}

cl_program_binary_type binaryType(cl_program P, cl_device_id D) {
  cl_program_binary_type T = 0;
  clGetProgramBuildInfo(P, D, CL_PROGRAM_BINARY_TYPE, sizeof T, &T, nullptr);
  return T;
}

/// Runs kernel "second" (p[i] = v) or "k" of \p P over 8 ints, returns them.
std::vector<int> runSecond(cl_context C, cl_device_id D, cl_program P, int V) {
  cl_int Err = -1;
  cl_kernel K = clCreateKernel(P, "second", &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_command_queue Q = clCreateCommandQueue(C, D, 0, nullptr);
  std::vector<int> Out(8, 0);
  cl_mem M = clCreateBuffer(C, CL_MEM_COPY_HOST_PTR, Out.size() * 4, Out.data(),
                            nullptr);
  clSetKernelArg(K, 0, sizeof M, &M);
  clSetKernelArg(K, 1, sizeof V, &V);
  size_t G = Out.size();
  REQUIRE(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &G, nullptr, 0, nullptr,
                                 nullptr) == CL_SUCCESS);
  clEnqueueReadBuffer(Q, M, CL_TRUE, 0, Out.size() * 4, Out.data(), 0, nullptr,
                      nullptr);
  clReleaseMemObject(M);
  clReleaseCommandQueue(Q);
  clReleaseKernel(K);
  return Out;
}
} // namespace

TEST_CASE("5.8.1: an executable's binary round-trips through "
          "clCreateProgramWithBinary",
          "[program][binary]") {
  Ctx X;
  cl_program P = source(X.C, TwoKernels);
  // Nothing built yet: no binary.
  size_t Size = 1;
  CHECK(clGetProgramInfo(P, CL_PROGRAM_BINARY_SIZES, sizeof Size, &Size,
                         nullptr) == CL_SUCCESS);
  CHECK(Size == 0);
  REQUIRE(clBuildProgram(P, 0, nullptr, "-DUNUSED=1", nullptr, nullptr) ==
          CL_SUCCESS);
  std::vector<unsigned char> Bin = binaryOf(P);
  REQUIRE(Bin.size() > 16);
  CHECK(std::string(Bin.begin(), Bin.begin() + 8) == "CLCPUBIN");
  unsigned char *Ptr = nullptr;
  CHECK(clGetProgramInfo(P, CL_PROGRAM_BINARIES, 1, &Ptr, nullptr) ==
        CL_INVALID_VALUE);
  // A NULL entry in the array skips that device.
  size_t Ret = 0;
  CHECK(clGetProgramInfo(P, CL_PROGRAM_BINARIES, sizeof Ptr, &Ptr, &Ret) ==
        CL_SUCCESS);
  CHECK(Ret == sizeof Ptr);

  cl_int Status = -1, Err = -1;
  cl_program B = fromBinary(X.C, X.D, Bin, Status, Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(Status == CL_SUCCESS);
  CHECK(binaryType(B, X.D) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  // Not built yet: no kernels.
  clCreateKernel(B, "second", &Err);
  CHECK(Err == CL_INVALID_PROGRAM_EXECUTABLE);
  REQUIRE(clBuildProgram(B, 1, &X.D, nullptr, nullptr, nullptr) == CL_SUCCESS);
  size_t NumKernels = 0;
  clGetProgramInfo(B, CL_PROGRAM_NUM_KERNELS, sizeof NumKernels, &NumKernels,
                   nullptr);
  CHECK(NumKernels == 2);
  std::vector<int> FromSource = runSecond(X.C, X.D, P, 42);
  std::vector<int> FromBin = runSecond(X.C, X.D, B, 42);
  CHECK(FromBin == FromSource);
  CHECK(FromBin == std::vector<int>(8, 42));
  // The rebuilt program's binary is the same binary again.
  CHECK(binaryOf(B) == Bin);
  // clCompileProgram needs source.
  CHECK(clCompileProgram(B, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr,
                         nullptr) == CL_INVALID_OPERATION);
  clReleaseProgram(B);
  clReleaseProgram(P);
}

TEST_CASE("5.8.6: programs built with -cl-opt-disable, -cl-fast-relaxed-math "
          "or -g compute the same results",
          "[program]") {
  Ctx X;
  for (const char *Opts : {"-cl-opt-disable", "-cl-fast-relaxed-math",
                           "-g -cl-denorms-are-zero -cl-mad-enable"}) {
    INFO(Opts);
    cl_program P = source(X.C, TwoKernels);
    REQUIRE(clBuildProgram(P, 0, nullptr, Opts, nullptr, nullptr) ==
            CL_SUCCESS);
    CHECK(runSecond(X.C, X.D, P, 13) == std::vector<int>(8, 13));
    clReleaseProgram(P);
  }
}

TEST_CASE("5.8.1: corrupt, truncated and foreign binaries are "
          "CL_INVALID_BINARY",
          "[program][binary]") {
  Ctx X;
  cl_program P = source(X.C, TwoKernels);
  REQUIRE(clBuildProgram(P, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  std::vector<unsigned char> Bin = binaryOf(P);
  cl_int Status = -1, Err = -1;
  std::vector<unsigned char> Bad = Bin;
  Bad[Bad.size() / 2] ^= 0xff;
  CHECK(fromBinary(X.C, X.D, Bad, Status, Err) == nullptr);
  CHECK(Err == CL_INVALID_BINARY);
  CHECK(Status == CL_INVALID_BINARY);
  std::vector<unsigned char> Short(Bin.begin(), Bin.begin() + Bin.size() - 9);
  CHECK(fromBinary(X.C, X.D, Short, Status, Err) == nullptr);
  CHECK(Err == CL_INVALID_BINARY);
  std::string Elf = "\x7f"
                    "ELF this is some other driver's binary format";
  std::vector<unsigned char> Foreign(Elf.begin(), Elf.end());
  CHECK(fromBinary(X.C, X.D, Foreign, Status, Err) == nullptr);
  CHECK(Err == CL_INVALID_BINARY);
  CHECK(Status == CL_INVALID_BINARY);
  // Argument checks.
  const unsigned char *Ptr = Bin.data();
  size_t Len = Bin.size(), Zero = 0;
  CHECK(clCreateProgramWithBinary(X.C, 0, &X.D, &Len, &Ptr, nullptr, &Err) ==
        nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clCreateProgramWithBinary(X.C, 1, &X.D, &Zero, &Ptr, nullptr, &Err) ==
        nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clCreateProgramWithBinary(X.C, 1, &X.D, &Len, nullptr, nullptr, &Err) ==
        nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clCreateProgramWithBinary(nullptr, 1, &X.D, &Len, &Ptr, nullptr,
                                  &Err) == nullptr);
  CHECK(Err == CL_INVALID_CONTEXT);
  cl_device_id NotADevice = reinterpret_cast<cl_device_id>(X.C);
  CHECK(clCreateProgramWithBinary(X.C, 1, &NotADevice, &Len, &Ptr, nullptr,
                                  &Err) == nullptr);
  CHECK(Err == CL_INVALID_DEVICE);
  clReleaseProgram(P);
}

TEST_CASE("4.2 (CL_DRIVER_VERSION), 5.8.1: the driver version names the "
          "build; a binary made by another build of the same version is "
          "CL_INVALID_BINARY",
          "[program][binary]") {
  // Applications cache binaries under the driver version (pyopencl,
  // hashcat): a rebuilt driver must not be handed code an older build
  // compiled, for a runtime it may no longer match.
  Ctx X;
  size_t Len = 0;
  REQUIRE(clGetDeviceInfo(X.D, CL_DRIVER_VERSION, 0, nullptr, &Len) ==
          CL_SUCCESS);
  std::string V(Len, '\0');
  REQUIRE(clGetDeviceInfo(X.D, CL_DRIVER_VERSION, Len, V.data(), nullptr) ==
          CL_SUCCESS);
  V.resize(V.find('\0'));
  size_t Plus = V.find('+');
  REQUIRE(Plus != std::string::npos);
  CHECK(V.substr(0, Plus) == CLCPU_VERSION);
  CHECK(V.size() == Plus + 9);
  CHECK(V.find_first_not_of("0123456789abcdef", Plus + 1) == std::string::npos);

  cl_program P = source(X.C, TwoKernels);
  REQUIRE(clBuildProgram(P, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  std::vector<unsigned char> Bin = binaryOf(P);
  // The binary records the version string: change its build digest (one
  // hex digit) and re-seal the checksum (FNV-1a 64 of all before it), as
  // another build of the same version would have written it.
  std::string Text(Bin.begin(), Bin.end());
  size_t At = Text.find(V);
  REQUIRE(At != std::string::npos);
  char &Digit = reinterpret_cast<char &>(Bin[At + V.size() - 1]);
  Digit = Digit == '0' ? '1' : '0';
  uint64_t H = 0xcbf29ce484222325ull;
  for (size_t I = 0; I + 8 < Bin.size(); ++I)
    H = (H ^ Bin[I]) * 0x100000001b3ull;
  for (int I = 0; I < 8; ++I)
    Bin[Bin.size() - 8 + I] = static_cast<unsigned char>(H >> (8 * I));
  cl_int Status = -1, Err = -1;
  CHECK(fromBinary(X.C, X.D, Bin, Status, Err) == nullptr);
  CHECK(Err == CL_INVALID_BINARY);
  CHECK(Status == CL_INVALID_BINARY);
  // The unchanged binary still loads.
  std::vector<unsigned char> Same = binaryOf(P);
  cl_program Q = fromBinary(X.C, X.D, Same, Status, Err);
  CHECK(Q != nullptr);
  CHECK(Err == CL_SUCCESS);
  if (Q)
    clReleaseProgram(Q);
  clReleaseProgram(P);
}

TEST_CASE("5.8.1: compiled-object and library binaries round-trip and link",
          "[program][binary]") {
  Ctx X;
  cl_program Helper = source(X.C, "int twice(int v) { return 2 * v; }\n");
  cl_program Main = source(X.C, "int twice(int);\n"
                                "kernel void second(global int *p, int v) {\n"
                                "  p[get_global_id(0)] = twice(v);\n"
                                "}\n");
  REQUIRE(clCompileProgram(Helper, 0, nullptr, nullptr, 0, nullptr, nullptr,
                           nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clCompileProgram(Main, 0, nullptr, nullptr, 0, nullptr, nullptr,
                           nullptr, nullptr) == CL_SUCCESS);
  cl_int Err = -1, Status = -1;
  cl_program Lib = clLinkProgram(X.C, 0, nullptr, "-create-library", 1, &Helper,
                                 nullptr, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  // Object and library through binaries.
  cl_program MainB = fromBinary(X.C, X.D, binaryOf(Main), Status, Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(binaryType(MainB, X.D) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_program LibB = fromBinary(X.C, X.D, binaryOf(Lib), Status, Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(binaryType(LibB, X.D) == CL_PROGRAM_BINARY_TYPE_LIBRARY);
  cl_program In[] = {MainB, LibB};
  cl_program Exe =
      clLinkProgram(X.C, 0, nullptr, nullptr, 2, In, nullptr, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(runSecond(X.C, X.D, Exe, 21) == std::vector<int>(8, 42));
  // The linked executable's binary round-trips too.
  cl_program ExeB = fromBinary(X.C, X.D, binaryOf(Exe), Status, Err);
  REQUIRE(Err == CL_SUCCESS);
  REQUIRE(clBuildProgram(ExeB, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(runSecond(X.C, X.D, ExeB, 5) == std::vector<int>(8, 10));
  // A compiled-object binary builds into an executable on its own when it
  // needs nothing else.
  cl_program Whole = source(X.C, TwoKernels);
  REQUIRE(clCompileProgram(Whole, 0, nullptr, nullptr, 0, nullptr, nullptr,
                           nullptr, nullptr) == CL_SUCCESS);
  cl_program WholeB = fromBinary(X.C, X.D, binaryOf(Whole), Status, Err);
  REQUIRE(Err == CL_SUCCESS);
  REQUIRE(clBuildProgram(WholeB, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(binaryType(WholeB, X.D) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  CHECK(runSecond(X.C, X.D, WholeB, 7) == std::vector<int>(8, 7));
  for (cl_program P :
       {Helper, Main, Lib, MainB, LibB, Exe, ExeB, Whole, WholeB})
    clReleaseProgram(P);
}

namespace {
struct Notified {
  std::mutex M;
  std::condition_variable CV;
  int Calls = 0;
  cl_program Program = nullptr;
  void wait(int N) {
    std::unique_lock<std::mutex> L(M);
    CV.wait(L, [&] { return Calls >= N; });
  }
};

void CL_CALLBACK onNotified(cl_program P, void *User) {
  auto *N = static_cast<Notified *>(User);
  std::lock_guard<std::mutex> G(N->M);
  ++N->Calls;
  N->Program = P;
  N->CV.notify_all();
}
} // namespace

TEST_CASE("5.8.3: with pfn_notify, builds run in the background",
          "[program][async]") {
  Ctx X;
  // A program large enough that the build is still running when
  // clBuildProgram returns (checked below only if it is).
  std::string Src = TwoKernels;
  for (int I = 0; I < 40; ++I)
    Src += "kernel void extra" + std::to_string(I) +
           "(global float *p) { p[get_global_id(0)] = sin(p[0]) * " +
           std::to_string(I) + "; }\n";
  cl_program P = source(X.C, Src.c_str());
  Notified N;
  REQUIRE(clBuildProgram(P, 0, nullptr, "-DASYNC_TEST=1", onNotified, &N) ==
          CL_SUCCESS);
  cl_build_status St = CL_BUILD_NONE;
  clGetProgramBuildInfo(P, X.D, CL_PROGRAM_BUILD_STATUS, sizeof St, &St,
                        nullptr);
  bool Running = false;
  {
    std::lock_guard<std::mutex> G(N.M);
    Running = N.Calls == 0;
  }
  if (Running && St == CL_BUILD_IN_PROGRESS) {
    cl_int Err = -1;
    CHECK(clCreateKernel(P, "first", &Err) == nullptr);
    CHECK(Err == CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK(clBuildProgram(P, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_INVALID_OPERATION);
  }
  N.wait(1);
  CHECK(N.Program == P);
  clGetProgramBuildInfo(P, X.D, CL_PROGRAM_BUILD_STATUS, sizeof St, &St,
                        nullptr);
  CHECK(St == CL_BUILD_SUCCESS);
  CHECK(runSecond(X.C, X.D, P, 3) == std::vector<int>(8, 3));

  // A failing asynchronous build reports through the status and the log.
  cl_program Bad = source(X.C, "kernel void k( {");
  Notified NB;
  CHECK(clBuildProgram(Bad, 0, nullptr, nullptr, onNotified, &NB) ==
        CL_SUCCESS);
  NB.wait(1);
  clGetProgramBuildInfo(Bad, X.D, CL_PROGRAM_BUILD_STATUS, sizeof St, &St,
                        nullptr);
  CHECK(St == CL_BUILD_ERROR);
  CHECK(buildLog(Bad, X.D).find("error") != std::string::npos);
  // Bad options are still reported at once.
  CHECK(clBuildProgram(Bad, 0, nullptr, "-bogus", onNotified, &NB) ==
        CL_INVALID_BUILD_OPTIONS);

  // Compile and link with pfn_notify.
  cl_program Obj = source(X.C, TwoKernels);
  Notified NC;
  REQUIRE(clCompileProgram(Obj, 0, nullptr, nullptr, 0, nullptr, nullptr,
                           onNotified, &NC) == CL_SUCCESS);
  NC.wait(1);
  CHECK(binaryType(Obj, X.D) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  Notified NL;
  cl_int Err = -1;
  cl_program Linked =
      clLinkProgram(X.C, 0, nullptr, nullptr, 1, &Obj, onNotified, &NL, &Err);
  REQUIRE(Err == CL_SUCCESS);
  REQUIRE(Linked);
  NL.wait(1);
  CHECK(NL.Program == Linked);
  CHECK(runSecond(X.C, X.D, Linked, 9) == std::vector<int>(8, 9));
  for (cl_program Q : {P, Bad, Obj, Linked})
    clReleaseProgram(Q);
}

TEST_CASE("5.8: IL, built-in kernels, release callbacks, specialization "
          "constants and compiler unloading",
          "[program]") {
  Ctx X;
  cl_int Err = -1;
  // The magic number, then text: not well-formed SPIR-V
  // (tests/e2e/SpirvTests.cpp covers IL programs).
  const char IL[] = "\x03\x02\x23\x07 not really SPIR-V";
  CHECK(clCreateProgramWithIL(X.C, IL, sizeof IL, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clCreateProgramWithIL(X.C, nullptr, 4, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clCreateProgramWithIL(nullptr, IL, sizeof IL, &Err) == nullptr);
  CHECK(Err == CL_INVALID_CONTEXT);
  CHECK(clCreateProgramWithBuiltInKernels(X.C, 1, &X.D, "no_such_kernel",
                                          &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clCreateProgramWithBuiltInKernels(X.C, 0, nullptr, "k", &Err) ==
        nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  cl_program P = source(X.C, TwoKernels);
  CHECK(clSetProgramReleaseCallback(P, onBuilt, nullptr) ==
        CL_INVALID_OPERATION);
  CHECK(clSetProgramReleaseCallback(P, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clSetProgramReleaseCallback(nullptr, onBuilt, nullptr) ==
        CL_INVALID_PROGRAM);
  int V = 1;
  // CL_INVALID_PROGRAM if program is not a valid program object created
  // from an intermediate language.
  CHECK(clSetProgramSpecializationConstant(P, 0, sizeof V, &V) ==
        CL_INVALID_PROGRAM);
  CHECK(clSetProgramSpecializationConstant(nullptr, 0, sizeof V, &V) ==
        CL_INVALID_PROGRAM);
  CHECK(clUnloadPlatformCompiler(clcpuPlatform()) == CL_SUCCESS);
  CHECK(clUnloadCompiler() == CL_SUCCESS);
  // The compiler still works afterwards.
  CHECK(clBuildProgram(P, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  clReleaseProgram(P);
}

TEST_CASE("5.9: clCloneKernel, clSetKernelArgSVMPointer, "
          "clSetKernelExecInfo",
          "[program][kernel]") {
  Ctx X;
  cl_program P = source(X.C, TwoKernels);
  REQUIRE(clBuildProgram(P, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_SUCCESS);
  cl_int Err = -1;
  cl_kernel K = clCreateKernel(P, "second", &Err);
  REQUIRE(Err == CL_SUCCESS);
  // Any host pointer works as an SVM pointer (fine-grain system SVM).
  std::vector<int> Host(8, 0);
  CHECK(clSetKernelArgSVMPointer(K, 0, Host.data()) == CL_SUCCESS);
  int V = 11;
  CHECK(clSetKernelArg(K, 1, sizeof V, &V) == CL_SUCCESS);
  CHECK(clSetKernelArgSVMPointer(K, 1, Host.data()) == CL_INVALID_ARG_VALUE);
  CHECK(clSetKernelArgSVMPointer(K, 2, Host.data()) == CL_INVALID_ARG_INDEX);
  CHECK(clSetKernelArgSVMPointer(nullptr, 0, Host.data()) == CL_INVALID_KERNEL);
  void *Ptrs[] = {Host.data()};
  CHECK(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof Ptrs,
                            Ptrs) == CL_SUCCESS);
  cl_bool True = CL_TRUE;
  CHECK(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                            sizeof True, &True) == CL_SUCCESS);
  CHECK(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1,
                            &True) == CL_INVALID_VALUE);
  CHECK(clSetKernelExecInfo(K, 0x12345, sizeof True, &True) ==
        CL_INVALID_VALUE);
  CHECK(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof Ptrs,
                            nullptr) == CL_INVALID_VALUE);

  // The clone has the same argument values; changing one leaves the other.
  cl_kernel C = clCloneKernel(K, &Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(clCloneKernel(nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_KERNEL);
  int W = 22;
  clSetKernelArg(K, 1, sizeof W, &W);
  cl_command_queue Q = clCreateCommandQueue(X.C, X.D, 0, nullptr);
  size_t G = 4;
  REQUIRE(clEnqueueNDRangeKernel(Q, C, 1, nullptr, &G, nullptr, 0, nullptr,
                                 nullptr) == CL_SUCCESS);
  clFinish(Q);
  for (size_t I = 0; I < 8; ++I)
    CHECK(Host[I] == (I < 4 ? 11 : 0));
  size_t Off = 4;
  REQUIRE(clEnqueueNDRangeKernel(Q, K, 1, &Off, &G, nullptr, 0, nullptr,
                                 nullptr) == CL_SUCCESS);
  clFinish(Q);
  for (size_t I = 4; I < 8; ++I)
    CHECK(Host[I] == 22);
  char Name[16] = {};
  clGetKernelInfo(C, CL_KERNEL_FUNCTION_NAME, sizeof Name, Name, nullptr);
  CHECK(std::string(Name) == "second");
  cl_ulong Private = 1234567;
  CHECK(clGetKernelWorkGroupInfo(C, X.D, CL_KERNEL_PRIVATE_MEM_SIZE,
                                 sizeof Private, &Private,
                                 nullptr) == CL_SUCCESS);
  CHECK(Private < 1234567);
  clReleaseCommandQueue(Q);
  clReleaseKernel(C);
  clReleaseKernel(K);
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
  std::atomic<int> Calls{0};
  CHECK(clCompileProgram(Helper, 1, &X.D, nullptr, 1, &Header, Names, onBuilt,
                         &Calls) == CL_SUCCESS);
  CHECK(clCompileProgram(Main, 0, nullptr, "-cl-std=CL1.2", 1, &Header, Names,
                         nullptr, nullptr) == CL_SUCCESS);
  waitCalls(Calls, 1);
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
  waitCalls(Calls, 2);
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

TEST_CASE("6.8 (OpenCL C 3.0 program-scope variables): initialized once per "
          "program, persistent across launches, counted and size-checked",
          "[program]") {
  sched::Env E;
  const char *Src = R"(
    #ifndef __opencl_c_program_scope_global_variables
    #error "feature macro missing"
    #endif
    global int counter = 5;
    global float table[4] = {1.5f, 2.5f, 3.5f, 4.5f};
    kernel void k(global int *o) {
      static global int calls; // zero-initialized
      o[0] = counter++;
      o[1] = (int)(table[2] * 2.0f);
      o[2] = calls++;
    })";
  cl_device_id D = E.D;
  size_t MaxVar = 0;
  REQUIRE(clGetDeviceInfo(D, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof MaxVar,
                          &MaxVar, nullptr) == CL_SUCCESS);
  CHECK(MaxVar >= 64 * 1024); // the spec's minimum when supported
  std::string Log;
  cl_program P1 = E.tryBuild(Src, "-cl-std=CL3.0", Log);
  INFO(Log);
  REQUIRE(P1);
  size_t Total = 0;
  CHECK(clGetProgramBuildInfo(P1, D,
                              CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                              sizeof Total, &Total, nullptr) == CL_SUCCESS);
  CHECK(Total >= 4 + 16 + 4);
  cl_program P2 = E.tryBuild(Src, "-cl-std=CL3.0", Log);
  REQUIRE(P2);
  cl_int Err = -1;
  cl_kernel K1 = clCreateKernel(P1, "k", &Err);
  cl_kernel K2 = clCreateKernel(P2, "k", &Err);
  E.Kernels.push_back(K1);
  E.Kernels.push_back(K2);
  cl_mem M = E.buffer(std::vector<int>(3));
  E.arg(K1, 0, M);
  E.arg(K2, 0, M);
  size_t G = 1;
  for (int Run = 0; Run < 3; ++Run) {
    REQUIRE(E.run(K1, 1, &G, nullptr) == CL_SUCCESS);
    std::vector<int> R = E.read<int>(M, 3);
    CHECK(R[0] == 5 + Run);
    CHECK(R[1] == 7);
    CHECK(R[2] == Run);
  }
  // Another program has its own variables.
  REQUIRE(E.run(K2, 1, &G, nullptr) == CL_SUCCESS);
  CHECK(E.read<int>(M, 3)[0] == 5);
  // A variable larger than CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE fails the
  // build with a reason.
  std::string Big = "global char big[" + std::to_string(MaxVar + 1) +
                    "]; kernel void k(global char *o) { o[0] = big[7]; }";
  CHECK(E.tryBuild(Big, "-cl-std=CL3.0", Log) == nullptr);
  CHECK(Log.find("CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE") != std::string::npos);
}

TEST_CASE("5.8.9: CL_PROGRAM_SCOPE_GLOBAL_CTORS/DTORS_PRESENT need a built "
          "executable",
          "[program]") {
  // "CL_INVALID_PROGRAM_EXECUTABLE if param_name is ...
  // CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, or
  // CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT and a successful program executable
  // has not been built".
  Ctx X;
  cl_program P = source(X.C, TwoKernels);
  for (cl_program_info Q : {CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT,
                            CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT}) {
    cl_bool V = CL_TRUE;
    CHECK(clGetProgramInfo(P, Q, sizeof V, &V, nullptr) ==
          CL_INVALID_PROGRAM_EXECUTABLE);
  }
  REQUIRE(clBuildProgram(P, 1, &X.D, nullptr, nullptr, nullptr) == CL_SUCCESS);
  for (cl_program_info Q : {CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT,
                            CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT}) {
    cl_bool V = CL_TRUE;
    CHECK(clGetProgramInfo(P, Q, sizeof V, &V, nullptr) == CL_SUCCESS);
    CHECK(V == CL_FALSE);
  }
  clReleaseProgram(P);
}
