// End-to-end: kernel objects and kernel execution through the ICD loader
// (OpenCL 3.0 API spec, 5.9 "Kernel Objects", 5.10 "Executing Kernels").

#include "Common.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace {
struct Env {
  cl_device_id D = clcpuDevice();
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, nullptr);
  cl_command_queue Q = clCreateCommandQueue(C, D, 0, nullptr);
  ~Env() {
    clReleaseCommandQueue(Q);
    clReleaseContext(C);
  }
  cl_program build(const char *Src, const char *Options = nullptr) {
    cl_int Err = -1;
    cl_program P = clCreateProgramWithSource(C, 1, &Src, nullptr, &Err);
    REQUIRE(Err == CL_SUCCESS);
    Err = clBuildProgram(P, 1, &D, Options, nullptr, nullptr);
    if (Err != CL_SUCCESS) {
      char Log[4096] = {};
      clGetProgramBuildInfo(P, D, CL_PROGRAM_BUILD_LOG, sizeof Log, Log,
                            nullptr);
      FAIL("build failed: " << Log);
    }
    return P;
  }
  template <typename T> cl_mem buffer(const std::vector<T> &Data) {
    cl_int Err = -1;
    cl_mem M = clCreateBuffer(C, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              Data.size() * sizeof(T),
                              const_cast<T *>(Data.data()), &Err);
    REQUIRE(Err == CL_SUCCESS);
    return M;
  }
  template <typename T> std::vector<T> read(cl_mem M, size_t N) {
    std::vector<T> Out(N);
    REQUIRE(clEnqueueReadBuffer(Q, M, CL_TRUE, 0, N * sizeof(T), Out.data(), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    return Out;
  }
};

std::vector<float> randomFloats(size_t N, unsigned Seed) {
  std::mt19937 G(Seed);
  std::uniform_real_distribution<float> U(-100.f, 100.f);
  std::vector<float> V(N);
  for (float &F : V)
    F = U(G);
  return V;
}

const char *VAdd = R"(
kernel void vadd(global const float *a, global const float *b,
                 global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)";

const char *VAdd3D = R"(
kernel void vadd3(global const float *a, global const float *b,
                  global float *c) {
  size_t i = (get_global_id(2) * get_global_size(1) + get_global_id(1)) *
                 get_global_size(0) + get_global_id(0);
  c[i] = a[i] + b[i];
}
)";

const char *Saxpy = R"(
kernel void saxpy(float alpha, global const float *x, global float *y,
                  uint n) {
  size_t i = get_global_id(0);
  if (i < n)
    y[i] = alpha * x[i] + y[i];
}
)";
} // namespace

TEST_CASE("5.10: vadd matches the host on several sizes", "[kernel]") {
  Env E;
  cl_program P = E.build(VAdd);
  cl_kernel K = clCreateKernel(P, "vadd", nullptr);
  REQUIRE(K);
  struct Case {
    size_t Global;
    size_t Local; // 0: NULL local_work_size
  };
  for (Case T : {Case{1, 1}, Case{17, 0}, Case{1000, 8}, Case{4096, 64},
                 Case{4096, 0}, Case{999, 3}, Case{65536, 256}}) {
    INFO("global " << T.Global << " local " << T.Local);
    auto A = randomFloats(T.Global, 1), B = randomFloats(T.Global, 2);
    cl_mem MA = E.buffer(A), MB = E.buffer(B),
           MC = E.buffer(std::vector<float>(T.Global, 0));
    REQUIRE(clSetKernelArg(K, 0, sizeof MA, &MA) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(K, 1, sizeof MB, &MB) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(K, 2, sizeof MC, &MC) == CL_SUCCESS);
    size_t G = T.Global, L = T.Local;
    CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &G, L ? &L : nullptr, 0,
                                 nullptr, nullptr) == CL_SUCCESS);
    auto Got = E.read<float>(MC, T.Global);
    size_t Bad = 0;
    for (size_t I = 0; I < T.Global; ++I)
      Bad += Got[I] != A[I] + B[I];
    CHECK(Bad == 0);
    clReleaseMemObject(MA);
    clReleaseMemObject(MB);
    clReleaseMemObject(MC);
  }
  clReleaseKernel(K);
  clReleaseProgram(P);
}

TEST_CASE("5.10: vadd in 2D and 3D with offsets", "[kernel]") {
  Env E;
  cl_program P = E.build(VAdd3D);
  cl_kernel K = clCreateKernel(P, "vadd3", nullptr);
  REQUIRE(K);
  struct Case {
    cl_uint Dims;
    size_t Global[3], Local[3];
    bool NullLocal;
  };
  for (Case T : {Case{2, {64, 8, 1}, {16, 2, 1}, false},
                 Case{2, {30, 7, 1}, {1, 1, 1}, true},
                 Case{3, {16, 4, 6}, {8, 2, 3}, false},
                 Case{3, {5, 3, 2}, {1, 1, 1}, true}}) {
    size_t N = T.Global[0] * T.Global[1] * T.Global[2];
    INFO("dims " << T.Dims << " items " << N);
    auto A = randomFloats(N, 3), B = randomFloats(N, 4);
    cl_mem MA = E.buffer(A), MB = E.buffer(B),
           MC = E.buffer(std::vector<float>(N, 0));
    clSetKernelArg(K, 0, sizeof MA, &MA);
    clSetKernelArg(K, 1, sizeof MB, &MB);
    clSetKernelArg(K, 2, sizeof MC, &MC);
    CHECK(clEnqueueNDRangeKernel(E.Q, K, T.Dims, nullptr, T.Global,
                                 T.NullLocal ? nullptr : T.Local, 0, nullptr,
                                 nullptr) == CL_SUCCESS);
    auto Got = E.read<float>(MC, N);
    size_t Bad = 0;
    for (size_t I = 0; I < N; ++I)
      Bad += Got[I] != A[I] + B[I];
    CHECK(Bad == 0);
    clReleaseMemObject(MA);
    clReleaseMemObject(MB);
    clReleaseMemObject(MC);
  }
  clReleaseKernel(K);
  clReleaseProgram(P);
}

TEST_CASE("5.10: work-item functions see the NDRange", "[kernel]") {
  Env E;
  cl_program P = E.build(R"(
kernel void ids(global uint *out) {
  size_t gx = get_global_id(0) - get_global_offset(0);
  size_t gy = get_global_id(1) - get_global_offset(1);
  size_t i = gy * get_global_size(0) + gx;
  out[4 * i + 0] = get_local_id(0) + 10 * get_local_id(1);
  out[4 * i + 1] = get_group_id(0) + 10 * get_group_id(1);
  out[4 * i + 2] = get_num_groups(0) + 10 * get_num_groups(1) +
                   100 * get_local_size(0) + 1000 * get_work_dim();
  out[4 * i + 3] = get_global_id(0) + 1000 * get_global_id(1);
}
)");
  cl_kernel K = clCreateKernel(P, "ids", nullptr);
  REQUIRE(K);
  const size_t G[2] = {8, 6}, L[2] = {4, 3}, Off[2] = {5, 7};
  cl_mem M = E.buffer(std::vector<cl_uint>(4 * 48, 0));
  clSetKernelArg(K, 0, sizeof M, &M);
  REQUIRE(clEnqueueNDRangeKernel(E.Q, K, 2, Off, G, L, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  auto Got = E.read<cl_uint>(M, 4 * 48);
  for (size_t Y = 0; Y < 6; ++Y)
    for (size_t X = 0; X < 8; ++X) {
      size_t I = Y * 8 + X;
      INFO("x " << X << " y " << Y);
      CHECK(Got[4 * I] == X % 4 + 10 * (Y % 3));
      CHECK(Got[4 * I + 1] == X / 4 + 10 * (Y / 3));
      CHECK(Got[4 * I + 2] == 2 + 10 * 2 + 100 * 4 + 1000 * 2);
      CHECK(Got[4 * I + 3] == (X + 5) + 1000 * (Y + 7));
    }
  clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(P);
}

TEST_CASE("5.10: saxpy matches the host", "[kernel]") {
  Env E;
  cl_program P = E.build(Saxpy);
  cl_kernel K = clCreateKernel(P, "saxpy", nullptr);
  REQUIRE(K);
  for (size_t N : {size_t(1), size_t(100), size_t(4097), size_t(100000)}) {
    INFO("n " << N);
    size_t Global = (N + 63) / 64 * 64;
    auto X = randomFloats(Global, 5), Y = randomFloats(Global, 6);
    float Alpha = 2.5f;
    cl_uint Count = static_cast<cl_uint>(N);
    cl_mem MX = E.buffer(X), MY = E.buffer(Y);
    REQUIRE(clSetKernelArg(K, 0, sizeof Alpha, &Alpha) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(K, 1, sizeof MX, &MX) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(K, 2, sizeof MY, &MY) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(K, 3, sizeof Count, &Count) == CL_SUCCESS);
    size_t L = 64;
    cl_event Ev = nullptr;
    CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &Global, &L, 0, nullptr,
                                 &Ev) == CL_SUCCESS);
    REQUIRE(Ev);
    CHECK(clWaitForEvents(1, &Ev) == CL_SUCCESS);
    cl_command_type Type = 0;
    clGetEventInfo(Ev, CL_EVENT_COMMAND_TYPE, sizeof Type, &Type, nullptr);
    CHECK(Type == CL_COMMAND_NDRANGE_KERNEL);
    clReleaseEvent(Ev);
    auto Got = E.read<float>(MY, Global);
    size_t Bad = 0;
    for (size_t I = 0; I < Global; ++I) {
      float Want = I < N ? std::fma(Alpha, X[I], Y[I]) : Y[I];
      float Plain = I < N ? Alpha * X[I] + Y[I] : Y[I];
      // OpenCL C allows contracting a * b + c into an fma.
      Bad += Got[I] != Want && Got[I] != Plain;
    }
    CHECK(Bad == 0);
    clReleaseMemObject(MX);
    clReleaseMemObject(MY);
  }
  clReleaseKernel(K);
  clReleaseProgram(P);
}

TEST_CASE("5.8.6: -D changes what the kernel computes", "[kernel]") {
  Env E;
  const char *Src = R"(
#ifndef SCALE
#define SCALE 1
#endif
kernel void scale(global int *p) { p[get_global_id(0)] *= SCALE; }
)";
  for (int Scale : {1, 3, -7}) {
    std::string Opt = Scale == 1 ? "" : "-D SCALE=" + std::to_string(Scale);
    cl_program P = E.build(Src, Opt.c_str());
    cl_kernel K = clCreateKernel(P, "scale", nullptr);
    REQUIRE(K);
    std::vector<int> V(32);
    for (int I = 0; I < 32; ++I)
      V[I] = I - 5;
    cl_mem M = E.buffer(V);
    clSetKernelArg(K, 0, sizeof M, &M);
    size_t G = 32;
    REQUIRE(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &G, nullptr, 0, nullptr,
                                   nullptr) == CL_SUCCESS);
    auto Got = E.read<int>(M, 32);
    for (int I = 0; I < 32; ++I)
      CHECK(Got[I] == (I - 5) * Scale);
    clReleaseMemObject(M);
    clReleaseKernel(K);
    clReleaseProgram(P);
  }
}

TEST_CASE("5.10: by-value vectors, structs and __local arguments", "[kernel]") {
  Env E;
  cl_program P = E.build(R"(
typedef struct { int a; float b; int c[5]; } S;
kernel void mix(global float *out, float4 v, S s, local float *scratch,
                uchar k) {
  size_t i = get_global_id(0);
  scratch[get_local_id(0)] = v.y * i;
  out[i] = scratch[get_local_id(0)] + s.b + s.a + s.c[4] + v.w + k;
}
)");
  cl_kernel K = clCreateKernel(P, "mix", nullptr);
  REQUIRE(K);
  struct S {
    cl_int a;
    cl_float b;
    cl_int c[5];
  } Sv{3, 0.5f, {0, 0, 0, 0, 40}};
  cl_float4 V = {{1.f, 2.f, 3.f, 4.f}};
  cl_uchar Kc = 9;
  cl_mem M = E.buffer(std::vector<float>(64, 0));
  REQUIRE(clSetKernelArg(K, 0, sizeof M, &M) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(K, 1, sizeof V, &V) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(K, 2, sizeof Sv, &Sv) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(K, 3, 16 * sizeof(float), nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(K, 4, 1, &Kc) == CL_SUCCESS);
  size_t G = 64, L = 16;
  REQUIRE(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &G, &L, 0, nullptr,
                                 nullptr) == CL_SUCCESS);
  auto Got = E.read<float>(M, 64);
  for (size_t I = 0; I < 64; ++I)
    CHECK(Got[I] == 2.f * I + 0.5f + 3 + 40 + 4.f + 9);
  cl_ulong Local = 0;
  clGetKernelWorkGroupInfo(K, E.D, CL_KERNEL_LOCAL_MEM_SIZE, sizeof Local,
                           &Local, nullptr);
  CHECK(Local >= 16 * sizeof(float));
  clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(P);
}

TEST_CASE("5.10: clEnqueueTask runs one work-item", "[kernel]") {
  Env E;
  cl_program P = E.build(R"(
kernel void once(global int *p) {
  p[0] += 1 + (int)get_global_size(0) * 10 + (int)get_local_size(0) * 100;
}
)");
  cl_kernel K = clCreateKernel(P, "once", nullptr);
  cl_mem M = E.buffer(std::vector<int>{5});
  clSetKernelArg(K, 0, sizeof M, &M);
  cl_event Ev = nullptr;
  REQUIRE(clEnqueueTask(E.Q, K, 0, nullptr, &Ev) == CL_SUCCESS);
  cl_command_type Type = 0;
  clGetEventInfo(Ev, CL_EVENT_COMMAND_TYPE, sizeof Type, &Type, nullptr);
  CHECK(Type == CL_COMMAND_TASK);
  clReleaseEvent(Ev);
  CHECK(E.read<int>(M, 1)[0] == 5 + 1 + 10 + 100);
  clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(P);
}

TEST_CASE("5.9: kernel objects and their queries", "[kernel]") {
  Env E;
  cl_program P = E.build(R"(
kernel void a(global float *x, constant int *c, local int *l, int n)
    __attribute__((reqd_work_group_size(4, 1, 1))) { x[0] = n; }
kernel void b(global volatile int *restrict y) { y[0] = 1; }
)",
                         "-cl-kernel-arg-info");
  cl_int Err = 0;
  CHECK(clCreateKernel(P, "nope", &Err) == nullptr);
  CHECK(Err == CL_INVALID_KERNEL_NAME);
  CHECK(clCreateKernel(P, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);

  cl_uint N = 0;
  CHECK(clCreateKernelsInProgram(P, 0, nullptr, &N) == CL_SUCCESS);
  CHECK(N == 2);
  cl_kernel Ks[2] = {};
  CHECK(clCreateKernelsInProgram(P, 1, Ks, nullptr) == CL_INVALID_VALUE);
  REQUIRE(clCreateKernelsInProgram(P, 2, Ks, nullptr) == CL_SUCCESS);
  char Name[16] = {};
  clGetKernelInfo(Ks[0], CL_KERNEL_FUNCTION_NAME, sizeof Name, Name, nullptr);
  CHECK(std::string(Name) == "a");
  cl_uint NArgs = 0;
  clGetKernelInfo(Ks[0], CL_KERNEL_NUM_ARGS, sizeof NArgs, &NArgs, nullptr);
  CHECK(NArgs == 4);
  cl_program Prog = nullptr;
  clGetKernelInfo(Ks[1], CL_KERNEL_PROGRAM, sizeof Prog, &Prog, nullptr);
  CHECK(Prog == P);
  cl_context Ctx = nullptr;
  clGetKernelInfo(Ks[1], CL_KERNEL_CONTEXT, sizeof Ctx, &Ctx, nullptr);
  CHECK(Ctx == E.C);
  char Attrs[64] = {};
  clGetKernelInfo(Ks[0], CL_KERNEL_ATTRIBUTES, sizeof Attrs, Attrs, nullptr);
  CHECK(std::string(Attrs) == "reqd_work_group_size(4,1,1)");
  CHECK(clRetainKernel(Ks[0]) == CL_SUCCESS);
  cl_uint Refs = 0;
  clGetKernelInfo(Ks[0], CL_KERNEL_REFERENCE_COUNT, sizeof Refs, &Refs,
                  nullptr);
  CHECK(Refs == 2);
  CHECK(clReleaseKernel(Ks[0]) == CL_SUCCESS);

  size_t Reqd[3] = {};
  CHECK(clGetKernelWorkGroupInfo(Ks[0], nullptr,
                                 CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof Reqd,
                                 Reqd, nullptr) == CL_SUCCESS);
  CHECK((Reqd[0] == 4 && Reqd[1] == 1 && Reqd[2] == 1));
  size_t WG = 0;
  CHECK(clGetKernelWorkGroupInfo(Ks[0], E.D, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof WG, &WG, nullptr) == CL_SUCCESS);
  CHECK(WG == deviceInfo<size_t>(E.D, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  CHECK(clGetKernelWorkGroupInfo(Ks[0], E.D, CL_KERNEL_GLOBAL_WORK_SIZE,
                                 sizeof Reqd, Reqd,
                                 nullptr) == CL_INVALID_VALUE);

  cl_kernel_arg_address_qualifier AQ = 0;
  clGetKernelArgInfo(Ks[0], 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof AQ, &AQ,
                     nullptr);
  CHECK(AQ == CL_KERNEL_ARG_ADDRESS_CONSTANT);
  clGetKernelArgInfo(Ks[0], 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof AQ, &AQ,
                     nullptr);
  CHECK(AQ == CL_KERNEL_ARG_ADDRESS_LOCAL);
  char ArgName[16] = {}, TypeName[16] = {};
  clGetKernelArgInfo(Ks[0], 3, CL_KERNEL_ARG_NAME, sizeof ArgName, ArgName,
                     nullptr);
  CHECK(std::string(ArgName) == "n");
  clGetKernelArgInfo(Ks[0], 0, CL_KERNEL_ARG_TYPE_NAME, sizeof TypeName,
                     TypeName, nullptr);
  CHECK(std::string(TypeName) == "float*");
  cl_kernel_arg_type_qualifier TQ = 0;
  clGetKernelArgInfo(Ks[1], 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof TQ, &TQ,
                     nullptr);
  CHECK(TQ == (CL_KERNEL_ARG_TYPE_VOLATILE | CL_KERNEL_ARG_TYPE_RESTRICT));
  CHECK(clGetKernelArgInfo(Ks[0], 4, CL_KERNEL_ARG_NAME, sizeof ArgName,
                           ArgName, nullptr) == CL_INVALID_ARG_INDEX);
  clReleaseKernel(Ks[0]);
  clReleaseKernel(Ks[1]);
  clReleaseProgram(P);

  // Without -cl-kernel-arg-info the information is not available.
  cl_program P2 = E.build("kernel void c(int n) {}");
  cl_kernel K2 = clCreateKernel(P2, "c", nullptr);
  CHECK(clGetKernelArgInfo(K2, 0, CL_KERNEL_ARG_NAME, sizeof ArgName, ArgName,
                           nullptr) == CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  clReleaseKernel(K2);
  clReleaseProgram(P2);
}

TEST_CASE("5.9.4: clSetKernelArg errors", "[kernel]") {
  Env E;
  cl_program P = E.build(
      "kernel void k(global int *p, local int *l, int n) { p[0] = n; }");
  cl_kernel K = clCreateKernel(P, "k", nullptr);
  REQUIRE(K);
  cl_mem M = E.buffer(std::vector<int>(4, 0));
  int V = 1;
  CHECK(clSetKernelArg(nullptr, 0, sizeof M, &M) == CL_INVALID_KERNEL);
  CHECK(clSetKernelArg(K, 3, sizeof V, &V) == CL_INVALID_ARG_INDEX);
  CHECK(clSetKernelArg(K, 0, 4, &M) == CL_INVALID_ARG_SIZE);
  cl_mem NotMem = reinterpret_cast<cl_mem>(K);
  CHECK(clSetKernelArg(K, 0, sizeof NotMem, &NotMem) == CL_INVALID_MEM_OBJECT);
  CHECK(clSetKernelArg(K, 0, sizeof M, nullptr) == CL_SUCCESS); // NULL buffer
  CHECK(clSetKernelArg(K, 1, 0, nullptr) == CL_INVALID_ARG_SIZE);
  CHECK(clSetKernelArg(K, 1, 16, &V) == CL_INVALID_ARG_VALUE);
  CHECK(clSetKernelArg(K, 2, 8, &V) == CL_INVALID_ARG_SIZE);
  CHECK(clSetKernelArg(K, 2, sizeof V, nullptr) == CL_INVALID_ARG_VALUE);
  // A buffer of another context is not a valid memory object here.
  cl_context C2 = clCreateContext(nullptr, 1, &E.D, nullptr, nullptr, nullptr);
  cl_mem Other = clCreateBuffer(C2, CL_MEM_READ_WRITE, 16, nullptr, nullptr);
  CHECK(clSetKernelArg(K, 0, sizeof Other, &Other) == CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(Other);
  clReleaseContext(C2);
  clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(P);
}

TEST_CASE("5.10: clEnqueueNDRangeKernel errors", "[kernel]") {
  Env E;
  cl_program P = E.build(R"(
kernel void k(global int *p, int n) { p[get_global_id(0)] = n; }
kernel void r(global int *p) __attribute__((reqd_work_group_size(2, 1, 1)))
{ p[get_global_id(0)] = 1; }
)");
  cl_kernel K = clCreateKernel(P, "k", nullptr);
  cl_kernel R = clCreateKernel(P, "r", nullptr);
  REQUIRE((K && R));
  cl_mem M = E.buffer(std::vector<int>(64, 0));
  size_t G = 16, L = 4;
  // Arguments not set yet.
  clSetKernelArg(K, 0, sizeof M, &M);
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &G, &L, 0, nullptr,
                               nullptr) == CL_INVALID_KERNEL_ARGS);
  int V = 7;
  clSetKernelArg(K, 1, sizeof V, &V);
  clSetKernelArg(R, 0, sizeof M, &M);
  CHECK(clEnqueueNDRangeKernel(nullptr, K, 1, nullptr, &G, &L, 0, nullptr,
                               nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueNDRangeKernel(E.Q, nullptr, 1, nullptr, &G, &L, 0, nullptr,
                               nullptr) == CL_INVALID_KERNEL);
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 0, nullptr, &G, &L, 0, nullptr,
                               nullptr) == CL_INVALID_WORK_DIMENSION);
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 4, nullptr, &G, &L, 0, nullptr,
                               nullptr) == CL_INVALID_WORK_DIMENSION);
  // OpenCL 2.1+: a NULL or zero global size trivially succeeds (CTS
  // test_api/zero_sized_enqueue); its event completes, nothing runs.
  cl_event Ev = nullptr;
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, nullptr, nullptr, 0, nullptr,
                               &Ev) == CL_SUCCESS);
  CHECK(clWaitForEvents(1, &Ev) == CL_SUCCESS);
  clReleaseEvent(Ev);
  size_t Zero[2] = {4, 0};
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 2, nullptr, Zero, nullptr, 0, nullptr,
                               nullptr) == CL_SUCCESS);
  CHECK(clFinish(E.Q) == CL_SUCCESS);
  size_t Off = SIZE_MAX - 4;
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, &Off, &G, &L, 0, nullptr, nullptr) ==
        CL_INVALID_GLOBAL_OFFSET);
  size_t L3 = 3;
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &G, &L3, 0, nullptr,
                               nullptr) == CL_INVALID_WORK_GROUP_SIZE);
  size_t LocalZero = 0;
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &G, &LocalZero, 0, nullptr,
                               nullptr) == CL_INVALID_WORK_GROUP_SIZE);
  size_t Max = deviceInfo<size_t>(E.D, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  size_t Big = Max * 2;
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &Big, &Big, 0, nullptr,
                               nullptr) == CL_INVALID_WORK_ITEM_SIZE);
  if (Max >= 2) {
    size_t G2[2] = {Max, 2}, L2[2] = {Max, 2};
    CHECK(clEnqueueNDRangeKernel(E.Q, K, 2, nullptr, G2, L2, 0, nullptr,
                                 nullptr) == CL_INVALID_WORK_GROUP_SIZE);
  }
  CHECK(clEnqueueNDRangeKernel(E.Q, R, 1, nullptr, &G, &L, 0, nullptr,
                               nullptr) == CL_INVALID_WORK_GROUP_SIZE);
  size_t Odd = 7;
  CHECK(clEnqueueNDRangeKernel(E.Q, R, 1, nullptr, &Odd, nullptr, 0, nullptr,
                               nullptr) == CL_INVALID_WORK_GROUP_SIZE);
  CHECK(clEnqueueNDRangeKernel(E.Q, R, 1, nullptr, &G, nullptr, 0, nullptr,
                               nullptr) == CL_SUCCESS);
  // A queue of another context.
  cl_context C2 = clCreateContext(nullptr, 1, &E.D, nullptr, nullptr, nullptr);
  cl_command_queue Q2 = clCreateCommandQueue(C2, E.D, 0, nullptr);
  CHECK(clEnqueueNDRangeKernel(Q2, K, 1, nullptr, &G, &L, 0, nullptr,
                               nullptr) == CL_INVALID_CONTEXT);
  clReleaseCommandQueue(Q2);
  clReleaseContext(C2);
  // Nothing above ran k: the buffer holds r's ones only.
  auto Got = E.read<int>(M, 64);
  for (size_t I = 0; I < 64; ++I)
    CHECK(Got[I] == (I < 16 ? 1 : 0));
  clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseKernel(R);
  clReleaseProgram(P);
}

TEST_CASE("5.10: floating-point math builtins on scalars and vectors",
          "[kernel]") {
  Env E;
  cl_program P = E.build(R"(
kernel void m(global const float4 *x, global float4 *out) {
  size_t i = get_global_id(0);
  float4 v = x[i];
  out[4 * i + 0] = sqrt(fabs(v)) + floor(v);
  out[4 * i + 1] = fma(v, v, (float4)(1.0f)) + fmax(v, (float4)(0.5f));
  out[4 * i + 2] = (float4)(sin(v.x), cos(v.y), exp(v.z * 0.01f), log(fabs(v.w) + 1.0f));
  out[4 * i + 3] = (float4)(pow(fabs(v.x), 1.5f), mad(v.y, 2.0f, 1.0f), round(v.z), fmin(v.w, 0.0f));
}
)");
  cl_kernel K = clCreateKernel(P, "m", nullptr);
  REQUIRE(K);
  const size_t N = 64;
  auto X = randomFloats(4 * N, 9);
  cl_mem MX = E.buffer(X), MO = E.buffer(std::vector<float>(16 * N, 0));
  clSetKernelArg(K, 0, sizeof MX, &MX);
  clSetKernelArg(K, 1, sizeof MO, &MO);
  size_t G = N;
  REQUIRE(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &G, nullptr, 0, nullptr,
                                 nullptr) == CL_SUCCESS);
  auto Got = E.read<float>(MO, 16 * N);
  auto Near = [](float A, float B) {
    return std::fabs(A - B) <= 1e-5f * std::max(1.f, std::fabs(B));
  };
  size_t Bad = 0;
  for (size_t I = 0; I < N; ++I) {
    const float *V = &X[4 * I];
    const float *O = &Got[16 * I];
    for (int C = 0; C < 4; ++C) {
      Bad += !Near(O[C], std::sqrt(std::fabs(V[C])) + std::floor(V[C]));
      Bad += !Near(O[4 + C], std::fma(V[C], V[C], 1.f) + std::fmax(V[C], .5f));
    }
    Bad += !Near(O[8], std::sin(V[0])) + !Near(O[9], std::cos(V[1])) +
           !Near(O[10], std::exp(V[2] * 0.01f)) +
           !Near(O[11], std::log(std::fabs(V[3]) + 1.f));
    Bad += !Near(O[12], std::pow(std::fabs(V[0]), 1.5f)) +
           !Near(O[13], V[1] * 2.f + 1.f) + !Near(O[14], std::round(V[2])) +
           !Near(O[15], std::fmin(V[3], 0.f));
  }
  CHECK(Bad == 0);
  clReleaseMemObject(MX);
  clReleaseMemObject(MO);
  clReleaseKernel(K);
  clReleaseProgram(P);
}

TEST_CASE("cl_khr_suggested_local_work_size: the suggestion is the local size "
          "a launch without one runs, and bad arguments get the extension's "
          "errors",
          "[kernel]") {
  Env E;
  auto Suggest = extensionFunction<clGetKernelSuggestedLocalWorkSizeKHR_fn>(
      "clGetKernelSuggestedLocalWorkSizeKHR");
  REQUIRE(Suggest);
  cl_program P = E.build(R"(
    kernel void sizes(global uint *out) {
      size_t i = get_global_linear_id();
      out[3 * i] = get_local_size(0);
      out[3 * i + 1] = get_local_size(1);
      out[3 * i + 2] = get_local_size(2);
    }
    __attribute__((reqd_work_group_size(8, 2, 1)))
    kernel void fixed(global uint *out) { out[get_global_id(0)] = 1; })",
                         "-cl-std=CL3.0");
  cl_int Err = -1;
  cl_kernel K = clCreateKernel(P, "sizes", &Err);
  REQUIRE(Err == CL_SUCCESS);
  size_t MaxGroup = 0;
  REQUIRE(clGetKernelWorkGroupInfo(K, E.D, CL_KERNEL_WORK_GROUP_SIZE,
                                   sizeof MaxGroup, &MaxGroup,
                                   nullptr) == CL_SUCCESS);
  size_t Global[3] = {1000, 6, 3};
  // Arguments not set yet.
  size_t Local[3] = {};
  CHECK(Suggest(E.Q, K, 1, nullptr, Global, Local) == CL_INVALID_KERNEL_ARGS);
  std::vector<cl_uint> Zero(3 * 1000 * 6 * 3, 0);
  cl_mem Out = E.buffer(Zero);
  REQUIRE(clSetKernelArg(K, 0, sizeof Out, &Out) == CL_SUCCESS);
  for (cl_uint Dims = 1; Dims <= 3; ++Dims) {
    INFO("work_dim " << Dims);
    size_t Offset[3] = {5, 7, 9};
    REQUIRE(Suggest(E.Q, K, Dims, Offset, Global, Local) == CL_SUCCESS);
    size_t Total = 1;
    for (cl_uint D = 0; D < Dims; ++D) {
      CHECK(Local[D] >= 1);
      Total *= Local[D];
    }
    CHECK(Total <= MaxGroup);
    REQUIRE(clEnqueueNDRangeKernel(E.Q, K, Dims, nullptr, Global, nullptr, 0,
                                   nullptr, nullptr) == CL_SUCCESS);
    std::vector<cl_uint> Got = E.read<cl_uint>(Out, 3);
    for (cl_uint D = 0; D < Dims; ++D)
      CHECK(Got[D] == Local[D]);
  }
  // reqd_work_group_size: the required size.
  cl_kernel F = clCreateKernel(P, "fixed", &Err);
  REQUIRE(Err == CL_SUCCESS);
  REQUIRE(clSetKernelArg(F, 0, sizeof Out, &Out) == CL_SUCCESS);
  size_t Global2[2] = {64, 4};
  REQUIRE(Suggest(E.Q, F, 2, nullptr, Global2, Local) == CL_SUCCESS);
  CHECK(Local[0] == 8);
  CHECK(Local[1] == 2);
  // "CL_INVALID_GLOBAL_WORK_SIZE if global_work_size is NULL or if any of
  // the values specified in global_work_size are 0."
  CHECK(Suggest(E.Q, K, 1, nullptr, nullptr, Local) ==
        CL_INVALID_GLOBAL_WORK_SIZE);
  size_t HasZero[2] = {16, 0};
  CHECK(Suggest(E.Q, K, 2, nullptr, HasZero, Local) ==
        CL_INVALID_GLOBAL_WORK_SIZE);
  CHECK(Suggest(E.Q, K, 1, nullptr, Global, nullptr) == CL_INVALID_VALUE);
  CHECK(Suggest(E.Q, K, 0, nullptr, Global, Local) ==
        CL_INVALID_WORK_DIMENSION);
  CHECK(Suggest(E.Q, K, 4, nullptr, Global, Local) ==
        CL_INVALID_WORK_DIMENSION);
  CHECK(Suggest(nullptr, K, 1, nullptr, Global, Local) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(Suggest(E.Q, nullptr, 1, nullptr, Global, Local) == CL_INVALID_KERNEL);
  size_t Huge[1] = {SIZE_MAX};
  size_t Off[1] = {1};
  CHECK(Suggest(E.Q, K, 1, Off, Huge, Local) == CL_INVALID_GLOBAL_OFFSET);
  clReleaseKernel(F);
  clReleaseKernel(K);
  clReleaseMemObject(Out);
  clReleaseProgram(P);
}

TEST_CASE("cl_khr_expect_assume: __builtin_expect and __builtin_assume "
          "compile under the extension's macro and keep the results",
          "[kernel]") {
  Env E;
  cl_program P = E.build(R"(
    #ifndef cl_khr_expect_assume
    #error "cl_khr_expect_assume is not defined"
    #endif
    kernel void clampy(global int *v, int n) {
      int i = get_global_id(0);
      __builtin_assume(n > 0);
      if (__builtin_expect(v[i] > n, 0))
        v[i] = n;
    })",
                         "-cl-std=CL3.0");
  cl_int Err = -1;
  cl_kernel K = clCreateKernel(P, "clampy", &Err);
  REQUIRE(Err == CL_SUCCESS);
  std::vector<int> V(256);
  for (int I = 0; I < 256; ++I)
    V[I] = I * 3;
  cl_mem M = E.buffer(V);
  int N = 100;
  REQUIRE(clSetKernelArg(K, 0, sizeof M, &M) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(K, 1, sizeof N, &N) == CL_SUCCESS);
  size_t G = V.size();
  REQUIRE(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &G, nullptr, 0, nullptr,
                                 nullptr) == CL_SUCCESS);
  std::vector<int> Got = E.read<int>(M, V.size());
  for (int I = 0; I < 256; ++I)
    CHECK(Got[I] == std::min(I * 3, N));
  clReleaseMemObject(M);
  clReleaseKernel(K);
  clReleaseProgram(P);
}
