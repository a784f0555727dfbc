// End-to-end: IL programs (OpenCL 3.0 API spec, 5.8.1
// clCreateProgramWithIL, 5.8.5 clSetProgramSpecializationConstant;
// cl_khr_il_program) through the ICD loader. The SPIR-V modules are
// assembled at build time from tests/e2e/spirv/*.spvasm (spirv-as).

#include "Common.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {
struct Ctx {
  cl_device_id D = clcpuDevice();
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, nullptr);
  cl_command_queue Q =
      clCreateCommandQueueWithProperties(C, D, nullptr, nullptr);
  ~Ctx() {
    clReleaseCommandQueue(Q);
    clReleaseContext(C);
  }
};

/// An assembled module of tests/e2e/spirv.
std::string module(const char *Name) {
  std::ifstream In(std::string(CLCPU_SPIRV_DIR) + "/" + Name, std::ios::binary);
  REQUIRE(In);
  return std::string(std::istreambuf_iterator<char>(In), {});
}

cl_program withIL(cl_context C, const std::string &Il) {
  cl_int Err = -1;
  cl_program P = clCreateProgramWithIL(C, Il.data(), Il.size(), &Err);
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

void build(cl_program P, cl_device_id D) {
  cl_int Err = clBuildProgram(P, 1, &D, "", nullptr, nullptr);
  INFO(buildLog(P, D));
  REQUIRE(Err == CL_SUCCESS);
}

template <typename T> cl_mem buffer(cl_context C, std::vector<T> &Host) {
  cl_int Err = -1;
  cl_mem M = clCreateBuffer(C, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            Host.size() * sizeof(T), Host.data(), &Err);
  REQUIRE(Err == CL_SUCCESS);
  return M;
}

template <typename T>
std::vector<T> read(cl_command_queue Q, cl_mem M, size_t N) {
  std::vector<T> Out(N);
  REQUIRE(clEnqueueReadBuffer(Q, M, CL_TRUE, 0, N * sizeof(T), Out.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  return Out;
}

void run(cl_command_queue Q, cl_kernel K, size_t Global, size_t Local = 0) {
  REQUIRE(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global,
                                 Local ? &Local : nullptr, 0, nullptr,
                                 nullptr) == CL_SUCCESS);
  REQUIRE(clFinish(Q) == CL_SUCCESS);
}

cl_kernel kernel(cl_program P, const char *Name) {
  cl_int Err = -1;
  cl_kernel K = clCreateKernel(P, Name, &Err);
  REQUIRE(Err == CL_SUCCESS);
  return K;
}

/// A SPIR-V module's 32-bit words, to corrupt.
std::vector<uint32_t> words(const std::string &Il) {
  std::vector<uint32_t> W(Il.size() / 4);
  std::memcpy(W.data(), Il.data(), W.size() * 4);
  return W;
}

cl_int createError(cl_context C, const void *Il, size_t Size) {
  cl_int Err = CL_SUCCESS;
  cl_program P = clCreateProgramWithIL(C, Il, Size, &Err);
  if (P)
    clReleaseProgram(P);
  return Err;
}
} // namespace

TEST_CASE("4.2 CL_DEVICE_IL_VERSION: SPIR-V 1.0 to 1.4 (cl_khr_il_program)",
          "[spirv]") {
  cl_device_id D = clcpuDevice();
  CHECK(deviceString(D, CL_DEVICE_IL_VERSION) ==
        "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4");
  size_t N = 0;
  REQUIRE(clGetDeviceInfo(D, CL_DEVICE_ILS_WITH_VERSION, 0, nullptr, &N) ==
          CL_SUCCESS);
  std::vector<cl_name_version> V(N / sizeof(cl_name_version));
  REQUIRE(V.size() == 5);
  clGetDeviceInfo(D, CL_DEVICE_ILS_WITH_VERSION, N, V.data(), nullptr);
  for (cl_uint I = 0; I < V.size(); ++I) {
    CHECK(std::string(V[I].name) == "SPIR-V");
    CHECK(V[I].version == CL_MAKE_VERSION(1, I, 0));
  }
  CHECK(extensionVersion(D, "cl_khr_il_program") == CL_MAKE_VERSION(1, 0, 0));
  CHECK(clGetExtensionFunctionAddressForPlatform(
            clcpuPlatform(), "clCreateProgramWithILKHR") != nullptr);
}

TEST_CASE("4.2 without the SPIR-V translator: no cl_khr_il_program, no IL "
          "version, and clCreateProgramWithIL is CL_INVALID_OPERATION",
          "[.no-translator]") {
  // Run with CLCPU_SPIRV_TRANSLATOR naming a file that does not exist
  // (tests/CMakeLists.txt, e2e_spirv_no_translator).
  cl_device_id D = clcpuDevice();
  CHECK(deviceString(D, CL_DEVICE_EXTENSIONS).find("cl_khr_il_program") ==
        std::string::npos);
  CHECK(extensionVersion(D, "cl_khr_il_program") == 0);
  CHECK(deviceString(D, CL_DEVICE_IL_VERSION).empty());
  size_t N = 1;
  REQUIRE(clGetDeviceInfo(D, CL_DEVICE_ILS_WITH_VERSION, 0, nullptr, &N) ==
          CL_SUCCESS);
  CHECK(N == 0);
  Ctx X;
  std::string Il = module("kernels.spv");
  // "CL_INVALID_OPERATION if no devices in context support intermediate
  // language programs."
  CHECK(createError(X.C, Il.data(), Il.size()) == CL_INVALID_OPERATION);
}

TEST_CASE("5.8.1 clCreateProgramWithIL: a module compiled from OpenCL C "
          "runs like its source",
          "[spirv]") {
  Ctx X;
  std::string Il = module("kernels.spv");
  cl_program P = withIL(X.C, Il);
  // CL_PROGRAM_IL: the module as given.
  size_t N = 0;
  REQUIRE(clGetProgramInfo(P, CL_PROGRAM_IL, 0, nullptr, &N) == CL_SUCCESS);
  std::string Back(N, '\0');
  clGetProgramInfo(P, CL_PROGRAM_IL, N, Back.data(), nullptr);
  CHECK(Back == Il);
  build(P, X.D);
  size_t NumKernels = 0;
  clGetProgramInfo(P, CL_PROGRAM_NUM_KERNELS, sizeof NumKernels, &NumKernels,
                   nullptr);
  CHECK(NumKernels == 5);

  const size_t Count = 64;
  SECTION("arithmetic and math builtins") {
    std::vector<float> A(Count), B(Count, 0.0f);
    for (size_t I = 0; I < Count; ++I)
      A[I] = float(I) * 0.5f;
    cl_mem MA = buffer(X.C, A), MB = buffer(X.C, B);
    cl_kernel K = kernel(P, "scale_add");
    float S = 3.0f;
    clSetKernelArg(K, 0, sizeof MA, &MA);
    clSetKernelArg(K, 1, sizeof MB, &MB);
    clSetKernelArg(K, 2, sizeof S, &S);
    run(X.Q, K, Count);
    std::vector<float> Out = read<float>(X.Q, MB, Count);
    for (size_t I = 0; I < Count; ++I)
      CHECK(Out[I] == Approx(A[I] * S + std::sqrt(A[I])));
    clReleaseKernel(K);
    clReleaseMemObject(MA);
    clReleaseMemObject(MB);
  }
  SECTION("__local argument, barrier and atomics") {
    std::vector<int> In(Count), Out(Count, 0), Counter(1, 0);
    for (size_t I = 0; I < Count; ++I)
      In[I] = int(I);
    cl_mem MI = buffer(X.C, In), MO = buffer(X.C, Out),
           MC = buffer(X.C, Counter);
    cl_kernel K = kernel(P, "reverse_in_group");
    clSetKernelArg(K, 0, sizeof MI, &MI);
    clSetKernelArg(K, 1, sizeof MO, &MO);
    // A __local argument (kernel_arg_addr_space 3): a size, no value.
    REQUIRE(clSetKernelArg(K, 2, 16 * sizeof(int), nullptr) == CL_SUCCESS);
    clSetKernelArg(K, 3, sizeof MC, &MC);
    run(X.Q, K, Count, 16);
    std::vector<int> R = read<int>(X.Q, MO, Count);
    for (size_t I = 0; I < Count; ++I)
      CHECK(R[I] == int((I / 16) * 16 + 15 - I % 16));
    CHECK(read<int>(X.Q, MC, 1)[0] == int(Count));
    clReleaseKernel(K);
    for (cl_mem M : {MI, MO, MC})
      clReleaseMemObject(M);
  }
  SECTION("work-group collective") {
    std::vector<int> In(Count), Out(Count / 8, 0);
    for (size_t I = 0; I < Count; ++I)
      In[I] = int(I * 3 + 1);
    cl_mem MI = buffer(X.C, In), MO = buffer(X.C, Out);
    cl_kernel K = kernel(P, "group_sum");
    clSetKernelArg(K, 0, sizeof MI, &MI);
    clSetKernelArg(K, 1, sizeof MO, &MO);
    run(X.Q, K, Count, 8);
    std::vector<int> R = read<int>(X.Q, MO, Count / 8);
    for (size_t G = 0; G < Count / 8; ++G) {
      int Sum = 0;
      for (size_t I = G * 8; I < G * 8 + 8; ++I)
        Sum += In[I];
      CHECK(R[G] == Sum);
    }
    clReleaseKernel(K);
    clReleaseMemObject(MI);
    clReleaseMemObject(MO);
  }
  SECTION("vector loads, a private pointer argument, geometric builtins") {
    std::vector<cl_float4> In(Count), Out(Count);
    for (size_t I = 0; I < Count; ++I)
      In[I] = {{float(I) + 0.25f, float(I) / Count, -float(I), 2.0f}};
    cl_mem MI = buffer(X.C, In), MO = buffer(X.C, Out);
    cl_kernel K = kernel(P, "vector_math");
    clSetKernelArg(K, 0, sizeof MI, &MI);
    clSetKernelArg(K, 1, sizeof MO, &MO);
    run(X.Q, K, Count);
    std::vector<cl_float4> R = read<cl_float4>(X.Q, MO, Count);
    for (size_t I = 0; I < Count; ++I) {
      const cl_float4 &V = In[I];
      float Dot =
          V.s[0] * V.s[0] + V.s[1] * V.s[1] + V.s[2] * V.s[2] + V.s[3] * V.s[3];
      CHECK(R[I].s[0] == Approx(Dot));
      CHECK(R[I].s[1] == Approx(V.s[0])); // fract(x) + floor(x)
      CHECK(R[I].s[2] == std::fmax(V.s[2], V.s[3]));
      CHECK(R[I].s[3] == std::min(std::max(V.s[1], 0.0f), 1.0f));
    }
    clReleaseKernel(K);
    clReleaseMemObject(MI);
    clReleaseMemObject(MO);
  }
  SECTION("vectors wider than the vector registers (double16, float16)") {
    std::vector<cl_double16> In(Count), Out(Count);
    std::vector<cl_float16> FIn(Count), FOut(Count);
    for (size_t I = 0; I < Count; ++I)
      for (int L = 0; L < 16; ++L) {
        In[I].s[L] = (I * 16 + L) * 0.01;
        FIn[I].s[L] = float(I * 16 + L) * 0.02f;
      }
    cl_mem MI = buffer(X.C, In), MO = buffer(X.C, Out), MF = buffer(X.C, FIn),
           MG = buffer(X.C, FOut);
    cl_kernel K = kernel(P, "wide_math");
    cl_mem Args[] = {MI, MO, MF, MG};
    for (cl_uint I = 0; I < 4; ++I)
      clSetKernelArg(K, I, sizeof(cl_mem), &Args[I]);
    run(X.Q, K, Count);
    std::vector<cl_double16> R = read<cl_double16>(X.Q, MO, Count);
    std::vector<cl_float16> FR = read<cl_float16>(X.Q, MG, Count);
    for (size_t I = 0; I < Count; ++I)
      for (int L = 0; L < 16; ++L) {
        double V = In[I].s[L];
        CHECK(R[I].s[L] == Approx(std::sin(V) + std::fmax(V, 0.5)));
        CHECK(FR[I].s[L] == Approx(std::cos(FIn[I].s[L])));
      }
    clReleaseKernel(K);
    for (cl_mem M : Args)
      clReleaseMemObject(M);
  }
  clReleaseProgram(P);
}

TEST_CASE("5.8.5 clSetProgramSpecializationConstant: values reach the "
          "kernel; wrong ids and sizes are refused",
          "[spirv]") {
  Ctx X;
  std::string Il = module("spec_constants.spv");
  auto runSpec = [&](cl_program P) {
    std::vector<cl_uint> Out(4, 0);
    std::vector<float> FOut(4, 0.0f);
    cl_mem MO = buffer(X.C, Out), MF = buffer(X.C, FOut);
    cl_kernel K = kernel(P, "spec");
    clSetKernelArg(K, 0, sizeof MO, &MO);
    clSetKernelArg(K, 1, sizeof MF, &MF);
    run(X.Q, K, 4);
    std::pair<cl_uint, float> R = {read<cl_uint>(X.Q, MO, 4)[3],
                                   read<float>(X.Q, MF, 4)[3]};
    clReleaseKernel(K);
    clReleaseMemObject(MO);
    clReleaseMemObject(MF);
    return R;
  };
  cl_program P = withIL(X.C, Il);
  build(P, X.D);
  // The module's defaults: value 7, flag true, scale 1.5.
  CHECK(runSpec(P) == std::pair<cl_uint, float>(7, 1.5f));

  cl_program S = withIL(X.C, Il);
  cl_uint Value = 42;
  cl_uchar Flag = 1;
  float Scale = 2.25f;
  CHECK(clSetProgramSpecializationConstant(S, 1, sizeof Value, &Value) ==
        CL_SUCCESS);
  CHECK(clSetProgramSpecializationConstant(S, 2, 1, &Flag) == CL_SUCCESS);
  CHECK(clSetProgramSpecializationConstant(S, 3, sizeof Scale, &Scale) ==
        CL_SUCCESS);
  build(S, X.D);
  CHECK(runSpec(S) == std::pair<cl_uint, float>(42, 2.25f));
  // A value set again replaces the first; the next build takes it.
  Flag = 0;
  CHECK(clSetProgramSpecializationConstant(S, 2, 1, &Flag) == CL_SUCCESS);
  build(S, X.D);
  CHECK(runSpec(S) == std::pair<cl_uint, float>(100, 2.25f));

  // CL_INVALID_SPEC_ID if spec_id is not a valid specialization constant
  // identifier.
  CHECK(clSetProgramSpecializationConstant(S, 9, sizeof Value, &Value) ==
        CL_INVALID_SPEC_ID);
  // CL_INVALID_VALUE if spec_size does not match the size of the
  // specialization constant in the module, or if spec_value is NULL.
  CHECK(clSetProgramSpecializationConstant(S, 1, 8, &Value) ==
        CL_INVALID_VALUE);
  CHECK(clSetProgramSpecializationConstant(S, 1, sizeof Value, nullptr) ==
        CL_INVALID_VALUE);
  // CL_INVALID_PROGRAM if program is not a valid program object created
  // from an intermediate language (e.g. SPIR-V).
  const char *Src = "kernel void k(global int *p) { *p = 1; }";
  cl_program Source = clCreateProgramWithSource(X.C, 1, &Src, nullptr, nullptr);
  CHECK(clSetProgramSpecializationConstant(Source, 1, sizeof Value, &Value) ==
        CL_INVALID_PROGRAM);
  for (cl_program Q : {P, S, Source})
    clReleaseProgram(Q);
}

TEST_CASE("5.8.1 clCreateProgramWithIL: a malformed module or one the "
          "device cannot take is CL_INVALID_VALUE",
          "[spirv]") {
  Ctx X;
  std::string Il = module("spec_constants.spv");
  std::vector<uint32_t> W = words(Il);
  // CL_INVALID_VALUE if il is NULL or if length is zero.
  CHECK(createError(X.C, nullptr, 4) == CL_INVALID_VALUE);
  CHECK(createError(X.C, Il.data(), 0) == CL_INVALID_VALUE);
  // CL_INVALID_VALUE if the length-byte memory pointed to by il does not
  // contain well-formed intermediate language input appropriate for the
  // deployment environment.
  const char Text[] = "__kernel void k() {}";
  CHECK(createError(X.C, Text, sizeof Text - 1) == CL_INVALID_VALUE);
  CHECK(createError(X.C, Il.data(), Il.size() - 2) == CL_INVALID_VALUE);
  std::vector<uint32_t> Bad = W;
  Bad[0] = 0x03022307; // the magic number byte-swapped
  CHECK(createError(X.C, Bad.data(), Bad.size() * 4) == CL_INVALID_VALUE);
  Bad = W;
  Bad[1] = 0x00010500; // SPIR-V 1.5
  CHECK(createError(X.C, Bad.data(), Bad.size() * 4) == CL_INVALID_VALUE);
  // An instruction whose word count runs past the end.
  Bad = W;
  Bad[5] = (1000u << 16) | (Bad[5] & 0xffff);
  CHECK(createError(X.C, Bad.data(), Bad.size() * 4) == CL_INVALID_VALUE);
  // Truncated in the middle of the instruction stream: the last
  // instruction's word count runs past the end.
  CHECK(createError(X.C, Il.data(), Il.size() / 8 * 4) == CL_INVALID_VALUE);
  // A capability of a shader environment: OpCapability Addresses (the first
  // instruction) made OpCapability Shader.
  Bad = W;
  REQUIRE(Bad[5] == ((2u << 16) | 17u));
  Bad[6] = 1;
  CHECK(createError(X.C, Bad.data(), Bad.size() * 4) == CL_INVALID_VALUE);
  // Well framed, but with an instruction of an unknown opcode after the
  // kernel's first label: created (the framing is right); the translator
  // fails on it (Debian's llvm-spirv-15 aborts on an assertion), and the
  // build fails with its reason in the log, the application unharmed.
  Bad.clear();
  for (size_t At = 5; At < W.size();) {
    uint32_t Count = W[At] >> 16;
    Bad.insert(Bad.end(), W.begin() + At, W.begin() + At + Count);
    if ((W[At] & 0xffff) == 248) // OpLabel
      Bad.push_back((1u << 16) | 4000u);
    At += Count;
  }
  Bad.insert(Bad.begin(), W.begin(), W.begin() + 5);
  cl_int Err = -1;
  cl_program P = clCreateProgramWithIL(X.C, Bad.data(), Bad.size() * 4, &Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(clBuildProgram(P, 1, &X.D, "", nullptr, nullptr) ==
        CL_BUILD_PROGRAM_FAILURE);
  std::string Log = buildLog(P, X.D);
  INFO(Log);
  CHECK(Log.find("error: the SPIR-V translator") != std::string::npos);
  cl_build_status Status = CL_BUILD_NONE;
  clGetProgramBuildInfo(P, X.D, CL_PROGRAM_BUILD_STATUS, sizeof Status, &Status,
                        nullptr);
  CHECK(Status == CL_BUILD_ERROR);
  clReleaseProgram(P);
}

TEST_CASE(
    "5.8.1 null scalar constants, UserSemantic string decorations "
    "and sized copies with two memory operands (SPIR-V 1.4) build and run",
    "[spirv]") {
  // The translator fails on both; the driver gives it their plain
  // equivalents (compiler/SpirvLegalize.cpp).
  Ctx X;
  cl_program P = withIL(X.C, module("normalize.spv"));
  build(P, X.D);
  std::vector<cl_uint> Out(8, 0);
  cl_mem M[3] = {buffer(X.C, Out), buffer(X.C, Out), buffer(X.C, Out)};
  cl_kernel K = kernel(P, "nulls");
  for (cl_uint I = 0; I < 3; ++I)
    clSetKernelArg(K, I, sizeof M[I], &M[I]);
  run(X.Q, K, Out.size());
  for (cl_mem B : M) {
    CHECK(read<cl_uint>(X.Q, B, Out.size()) == std::vector<cl_uint>(8, 9));
    clReleaseMemObject(B);
  }
  clReleaseKernel(K);
  clReleaseProgram(P);
}

TEST_CASE("5.8.1 a module with an Initializer entry point (a program-scope "
          "constructor) fails to build, with the reason",
          "[spirv]") {
  // The device runs no program-scope constructors (it reports none
  // present); building one silently without would lose its effect.
  Ctx X;
  cl_program P = withIL(X.C, module("constructor.spv"));
  CHECK(clBuildProgram(P, 1, &X.D, "", nullptr, nullptr) ==
        CL_BUILD_PROGRAM_FAILURE);
  CHECK(buildLog(P, X.D).find("Initializer or Finalizer entry points") !=
        std::string::npos);
  clReleaseProgram(P);
}

TEST_CASE("5.8.3 an IL program's second build is a kernel cache hit",
          "[spirv]") {
  const char *Dir = std::getenv("CLCPU_CACHE_DIR");
  REQUIRE(Dir);
  Ctx X;
  std::string Il = module("spec_constants.spv");
  // A value no earlier run used, so that the first build misses.
  cl_uint Value = cl_uint(
      std::chrono::system_clock::now().time_since_epoch().count() & 0x7fffffff);
  auto count = [&] {
    size_t N = 0;
    std::error_code EC;
    for (const auto &E : fs::directory_iterator(Dir, EC))
      N += E.path().filename() != "usage";
    return N;
  };
  auto timedBuild = [&](cl_program P) {
    auto T0 = std::chrono::steady_clock::now();
    build(P, X.D);
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - T0)
        .count();
  };
  size_t Before = count();
  cl_program A = withIL(X.C, Il);
  REQUIRE(clSetProgramSpecializationConstant(A, 1, sizeof Value, &Value) ==
          CL_SUCCESS);
  double Miss = timedBuild(A);
  REQUIRE(count() == Before + 1);
  cl_program B = withIL(X.C, Il);
  REQUIRE(clSetProgramSpecializationConstant(B, 1, sizeof Value, &Value) ==
          CL_SUCCESS);
  double Hit = timedBuild(B);
  CHECK(count() == Before + 1);
  // The hit skips the translator, the optimizer and code generation.
  CHECK(Hit < Miss);
  WARN("IL build: " << Miss << " ms, cache hit: " << Hit << " ms");
  cl_kernel K = kernel(B, "spec");
  std::vector<cl_uint> Out(2, 0);
  std::vector<float> F(2, 0.0f);
  cl_mem MO = buffer(X.C, Out), MF = buffer(X.C, F);
  clSetKernelArg(K, 0, sizeof MO, &MO);
  clSetKernelArg(K, 1, sizeof MF, &MF);
  run(X.Q, K, 2);
  CHECK(read<cl_uint>(X.Q, MO, 2)[1] == Value);
  clReleaseKernel(K);
  clReleaseMemObject(MO);
  clReleaseMemObject(MF);
  clReleaseProgram(A);
  clReleaseProgram(B);
}

TEST_CASE("5.8.4-5.8.5 clCompileProgram and clLinkProgram: a SPIR-V object "
          "links with an OpenCL C object",
          "[spirv]") {
  Ctx X;
  cl_program Il = withIL(X.C, module("link.spv"));
  const char *Src = "int triple_plus(int x, global const int *bias) {\n"
                    "  return 3 * x + *bias;\n}\n";
  cl_program C = clCreateProgramWithSource(X.C, 1, &Src, nullptr, nullptr);
  REQUIRE(clCompileProgram(Il, 1, &X.D, "", 0, nullptr, nullptr, nullptr,
                           nullptr) == CL_SUCCESS);
  REQUIRE(clCompileProgram(C, 1, &X.D, "", 0, nullptr, nullptr, nullptr,
                           nullptr) == CL_SUCCESS);
  cl_program Inputs[] = {Il, C};
  cl_int Err = -1;
  cl_program L =
      clLinkProgram(X.C, 1, &X.D, "", 2, Inputs, nullptr, nullptr, &Err);
  INFO(buildLog(L, X.D));
  REQUIRE(Err == CL_SUCCESS);
  std::vector<int> P = {1, 2, 3, 4}, Bias = {10};
  cl_mem MP = buffer(X.C, P), MB = buffer(X.C, Bias);
  cl_kernel K = kernel(L, "use_helper");
  clSetKernelArg(K, 0, sizeof MP, &MP);
  clSetKernelArg(K, 1, sizeof MB, &MB);
  run(X.Q, K, 4);
  CHECK(read<int>(X.Q, MP, 4) == std::vector<int>({13, 16, 19, 22}));
  clReleaseKernel(K);
  clReleaseMemObject(MP);
  clReleaseMemObject(MB);
  for (cl_program Q : {Il, C, L})
    clReleaseProgram(Q);
}

TEST_CASE("SPIR-V 1.4 OpPtrEqual, OpPtrNotEqual and OpPtrDiff build and run "
          "(CTS spirv14_ptrops)",
          "[spirv]") {
  // llvm-spirv-15 does not implement them; compiler/SpirvLegalize.cpp
  // rewrites them (tests/e2e/spirv/ptrops.spvasm).
  Ctx X;
  cl_program P = withIL(X.C, module("ptrops.spv"));
  build(P, X.D);
  std::vector<cl_uint> Out(6, 77), Structs(12, 0), Vectors(12, 0);
  cl_mem M[3] = {buffer(X.C, Out), buffer(X.C, Structs), buffer(X.C, Vectors)};
  cl_kernel K = kernel(P, "ptrops");
  for (cl_uint I = 0; I < 3; ++I)
    clSetKernelArg(K, I, sizeof M[I], &M[I]);
  run(X.Q, K, 1);
  CHECK(read<cl_uint>(X.Q, M[0], Out.size()) ==
        std::vector<cl_uint>{0, 1, 1, 3, 0xfffffffdu, 2});
  for (cl_mem B : M)
    clReleaseMemObject(B);
  clReleaseKernel(K);
  clReleaseProgram(P);
}

TEST_CASE("SPIR-V 1.4 OpCopyLogical of a structure with a nested structure "
          "and an array builds and runs (CTS spirv14_copylogical)",
          "[spirv]") {
  // tests/e2e/spirv/copylogical.spvasm: { uint, { float, uint }, uint[3] }.
  Ctx X;
  cl_program P = withIL(X.C, module("copylogical.spv"));
  build(P, X.D);
  float F = 1.5f;
  cl_uint FBits;
  std::memcpy(&FBits, &F, 4);
  std::vector<cl_uint> In = {7, FBits, 9, 10, 11, 12}, Out(6, 0);
  cl_mem MOut = buffer(X.C, Out), MIn = buffer(X.C, In);
  cl_kernel K = kernel(P, "copylogical");
  clSetKernelArg(K, 0, sizeof MOut, &MOut);
  clSetKernelArg(K, 1, sizeof MIn, &MIn);
  run(X.Q, K, 1);
  CHECK(read<cl_uint>(X.Q, MOut, Out.size()) == In);
  clReleaseMemObject(MOut);
  clReleaseMemObject(MIn);
  clReleaseKernel(K);
  clReleaseProgram(P);
}

TEST_CASE("OpCopyMemory without a size, with no, one and two memory-operand "
          "sets, builds and runs (CTS spirv14_copymemory_memory_operands)",
          "[spirv]") {
  // tests/e2e/spirv/copymemory.spvasm: three uint4 copies and one of a
  // padded structure { uchar, uint }.
  Ctx X;
  cl_program P = withIL(X.C, module("copymemory.spv"));
  build(P, X.D);
  std::vector<cl_uint> Src(12), Dst(12, 0);
  for (cl_uint I = 0; I < 12; ++I)
    Src[I] = 100 + I;
  std::vector<cl_uint> SSrc = {0x5a, 0x12345678}, SDst = {0, 0};
  cl_mem M[4] = {buffer(X.C, Dst), buffer(X.C, Src), buffer(X.C, SDst),
                 buffer(X.C, SSrc)};
  cl_kernel K = kernel(P, "copymemory");
  for (cl_uint I = 0; I < 4; ++I)
    clSetKernelArg(K, I, sizeof M[I], &M[I]);
  run(X.Q, K, 1);
  CHECK(read<cl_uint>(X.Q, M[0], Dst.size()) == Src);
  std::vector<cl_uint> Got = read<cl_uint>(X.Q, M[2], 2);
  // The uchar member and the uint; the padding after the uchar is not
  // part of the value.
  CHECK((Got[0] & 0xff) == 0x5a);
  CHECK(Got[1] == 0x12345678u);
  for (cl_mem B : M)
    clReleaseMemObject(B);
  clReleaseKernel(K);
  clReleaseProgram(P);
}

TEST_CASE("OpVectorShuffle of a uint2 and a uint4, in both orders, builds and "
          "runs (CTS op_expect's shuffles)",
          "[spirv]") {
  // tests/e2e/spirv/shuffle.spvasm.
  Ctx X;
  cl_program P = withIL(X.C, module("shuffle.spv"));
  build(P, X.D);
  std::vector<cl_uint> Out(12, 0), In2 = {1, 2}, In4 = {10, 20, 30, 40};
  cl_mem M[3] = {buffer(X.C, Out), buffer(X.C, In2), buffer(X.C, In4)};
  cl_kernel K = kernel(P, "shuffle");
  for (cl_uint I = 0; I < 3; ++I)
    clSetKernelArg(K, I, sizeof M[I], &M[I]);
  run(X.Q, K, 1);
  std::vector<cl_uint> Got = read<cl_uint>(X.Q, M[0], Out.size());
  CHECK(std::vector<cl_uint>(Got.begin(), Got.begin() + 8) ==
        std::vector<cl_uint>{2, 1, 40, 10, 1, 40, 10, 2});
  // Component 9 is undefined.
  CHECK(Got[8] == 20);
  CHECK(Got[10] == 1);
  CHECK(Got[11] == 10);
  for (cl_mem B : M)
    clReleaseMemObject(B);
  clReleaseKernel(K);
  clReleaseProgram(P);
}
