// Inputs a hostile or careless application may pass: sizes, pitches, origins
// and counts whose arithmetic overflows, references the application no longer
// holds, and a kernel cache with foreign files in it. Each must get the
// spec's error code (or a correct result), never a crash or a success for an
// impossible request.

#include "SchedulerCommon.h"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>

using namespace sched;

namespace {
constexpr size_t Max = std::numeric_limits<size_t>::max();

cl_mem plainBuffer(Env &E, size_t Bytes) {
  std::vector<unsigned char> Init(Bytes);
  for (size_t I = 0; I < Bytes; ++I)
    Init[I] = static_cast<unsigned char>(I * 7 + 1);
  return E.buffer(Init);
}
} // namespace

//===----------------------------------------------------------------------===//
// 5.2.4 rectangular transfers: "CL_INVALID_VALUE if the region being read or
// written specified by (buffer_origin, region, buffer_row_pitch,
// buffer_slice_pitch) is out of bounds." The extent must be computed without
// overflow: pitches and origins near 2^64 wrapped it into range.
//===----------------------------------------------------------------------===//

TEST_CASE("5.2.4: rect reads and writes with a wrapping slice pitch are "
          "refused",
          "[hostile][buffer]") {
  Env E;
  REQUIRE(E.Q);
  cl_mem M = plainBuffer(E, 4096);
  std::vector<unsigned char> Host(1 << 16);
  const size_t Zero[3] = {0, 0, 0};
  const size_t Region[3] = {16, 1, 5};
  // Slice pitch 2^62: 4 slices of it are 2^64, which wraps to 0.
  CHECK(clEnqueueReadBufferRect(E.Q, M, CL_TRUE, Zero, Zero, Region, 64,
                                size_t(1) << 62, 16, 16, Host.data(), 0,
                                nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueWriteBufferRect(E.Q, M, CL_TRUE, Zero, Zero, Region, 64,
                                 size_t(1) << 62, 16, 16, Host.data(), 0,
                                 nullptr, nullptr) == CL_INVALID_VALUE);
  // The same on the host side: its slices would land 2^62 bytes apart.
  CHECK(clEnqueueReadBufferRect(E.Q, M, CL_TRUE, Zero, Zero, Region, 16, 16, 64,
                                size_t(1) << 62, Host.data(), 0, nullptr,
                                nullptr) == CL_INVALID_VALUE);
  // A row pitch of 2^62 with 5 rows (and a default slice pitch).
  const size_t Rows[3] = {16, 5, 1};
  CHECK(clEnqueueReadBufferRect(E.Q, M, CL_TRUE, Zero, Zero, Rows,
                                size_t(1) << 62, 0, 0, 0, Host.data(), 0,
                                nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueWriteBufferRect(E.Q, M, CL_TRUE, Zero, Zero, Rows, 0, 0,
                                 size_t(1) << 62, 0, Host.data(), 0, nullptr,
                                 nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("5.2.4: rect transfers with origins near SIZE_MAX are refused",
          "[hostile][buffer]") {
  Env E;
  REQUIRE(E.Q);
  cl_mem M = plainBuffer(E, 4096);
  std::vector<unsigned char> Host(4096);
  const size_t Zero[3] = {0, 0, 0};
  const size_t Region[3] = {16, 1, 1};
  for (size_t Big : {Max - 7, Max, Max - 15}) {
    for (int D = 0; D < 3; ++D) {
      size_t Origin[3] = {0, 0, 0};
      Origin[D] = Big;
      CAPTURE(Big, D);
      CHECK(clEnqueueReadBufferRect(E.Q, M, CL_TRUE, Origin, Zero, Region, 0, 0,
                                    0, 0, Host.data(), 0, nullptr,
                                    nullptr) == CL_INVALID_VALUE);
      CHECK(clEnqueueWriteBufferRect(E.Q, M, CL_TRUE, Origin, Zero, Region, 0,
                                     0, 0, 0, Host.data(), 0, nullptr,
                                     nullptr) == CL_INVALID_VALUE);
      // A host origin that wraps the address space.
      CHECK(clEnqueueReadBufferRect(E.Q, M, CL_TRUE, Zero, Origin, Region, 0, 0,
                                    0, 0, Host.data(), 0, nullptr,
                                    nullptr) == CL_INVALID_VALUE);
      CHECK(clEnqueueWriteBufferRect(E.Q, M, CL_TRUE, Zero, Origin, Region, 0,
                                     0, 0, 0, Host.data(), 0, nullptr,
                                     nullptr) == CL_INVALID_VALUE);
    }
  }
  // The buffer is untouched and still readable.
  std::vector<unsigned char> Got(4096);
  REQUIRE(clEnqueueReadBuffer(E.Q, M, CL_TRUE, 0, Got.size(), Got.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  for (size_t I = 0; I < Got.size(); ++I)
    if (Got[I] != static_cast<unsigned char>(I * 7 + 1))
      FAIL("byte " << I << " changed");
}

TEST_CASE("5.2.4: copy rects with wrapping pitches or origins are refused",
          "[hostile][buffer]") {
  Env E;
  REQUIRE(E.Q);
  cl_mem A = plainBuffer(E, 4096), B = plainBuffer(E, 4096);
  const size_t Zero[3] = {0, 0, 0};
  const size_t Region[3] = {16, 1, 5};
  CHECK(clEnqueueCopyBufferRect(E.Q, A, B, Zero, Zero, Region, 64,
                                size_t(1) << 62, 16, 16, 0, nullptr,
                                nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueCopyBufferRect(E.Q, A, B, Zero, Zero, Region, 16, 16, 64,
                                size_t(1) << 62, 0, nullptr,
                                nullptr) == CL_INVALID_VALUE);
  const size_t Rows[3] = {16, 5, 1};
  CHECK(clEnqueueCopyBufferRect(E.Q, A, B, Zero, Zero, Rows, size_t(1) << 62, 0,
                                0, 0, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  const size_t Far[3] = {Max - 7, 0, 0};
  CHECK(clEnqueueCopyBufferRect(E.Q, A, B, Far, Zero, Region, 0, 0, 0, 0, 0,
                                nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueCopyBufferRect(E.Q, A, B, Zero, Far, Region, 0, 0, 0, 0, 0,
                                nullptr, nullptr) == CL_INVALID_VALUE);
  // A region whose default slice pitch (region[1] * row_pitch) overflows.
  const size_t Tall[3] = {16, size_t(1) << 40, 2};
  CHECK(clEnqueueCopyBufferRect(E.Q, A, B, Zero, Zero, Tall, size_t(1) << 30, 0,
                                0, 0, 0, nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clFinish(E.Q) == CL_SUCCESS);
}

//===----------------------------------------------------------------------===//
// 5.10 clEnqueueNDRangeKernel: sizes whose group count overflows size_t.
//===----------------------------------------------------------------------===//

TEST_CASE("5.10: NDRanges whose work-group count overflows are refused",
          "[hostile][kernel]") {
  Env E;
  REQUIRE(E.Q);
  cl_kernel K = E.kernel("kernel void k(global int *o) { o[0] = 1; }", "k");
  std::vector<int> Zero(1, 0);
  cl_mem O = E.buffer(Zero);
  E.arg(K, 0, O);
  // Global SIZE_MAX in one dimension, the driver's local size: the group
  // count wrapped and the scheduler divided by zero.
  size_t G1 = Max;
  cl_int Err = clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &G1, nullptr, 0,
                                      nullptr, nullptr);
  CHECK((Err == CL_INVALID_GLOBAL_WORK_SIZE || Err == CL_OUT_OF_RESOURCES));
  size_t L1 = 1;
  Err =
      clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &G1, &L1, 0, nullptr, nullptr);
  CHECK((Err == CL_INVALID_GLOBAL_WORK_SIZE || Err == CL_OUT_OF_RESOURCES));
  // 2^64 work-groups of one work-item: the total does not fit in size_t.
  const size_t G2[2] = {size_t(1) << 32, size_t(1) << 32};
  const size_t L2[2] = {1, 1};
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 2, nullptr, G2, L2, 0, nullptr,
                               nullptr) == CL_INVALID_GLOBAL_WORK_SIZE);
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 2, nullptr, G2, nullptr, 0, nullptr,
                               nullptr) == CL_INVALID_GLOBAL_WORK_SIZE);
  const size_t G3[3] = {size_t(1) << 22, size_t(1) << 22, size_t(1) << 22};
  const size_t L3[3] = {1, 1, 1};
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 3, nullptr, G3, L3, 0, nullptr,
                               nullptr) == CL_INVALID_GLOBAL_WORK_SIZE);
  // 2^63 work-items fit in size_t but as 2^63 groups they could never run.
  const size_t G4[2] = {size_t(1) << 32, size_t(1) << 31};
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 2, nullptr, G4, L2, 0, nullptr,
                               nullptr) == CL_OUT_OF_RESOURCES);
  // The queue still works, and a launch at a group-count boundary that
  // does fit runs.
  size_t G5 = 1000, L5 = 8;
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &G5, &L5, 0, nullptr,
                               nullptr) == CL_SUCCESS);
  CHECK(clFinish(E.Q) == CL_SUCCESS);
  CHECK(E.read<int>(O, 1)[0] == 1);
}

//===----------------------------------------------------------------------===//
// 5.10: __local argument sizes that add up past size_t.
//===----------------------------------------------------------------------===//

TEST_CASE("5.10: __local arguments whose sizes overflow are refused",
          "[hostile][kernel]") {
  Env E;
  REQUIRE(E.Q);
  const char *Src = R"(
    kernel void k(global int *o, local int *a, local int *b) {
      a[get_local_id(0)] = 1; b[get_local_id(0)] = 2;
      barrier(CLK_LOCAL_MEM_FENCE);
      o[get_global_id(0)] = a[0] + b[0];
    })";
  cl_kernel K = E.kernel(Src, "k");
  std::vector<int> Out(64, 0);
  cl_mem O = E.buffer(Out);
  E.arg(K, 0, O);
  size_t G = 64, L = 16;
  // Two arguments of 2^63 bytes: their sum wraps to 0.
  REQUIRE(clSetKernelArg(K, 1, size_t(1) << 63, nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(K, 2, size_t(1) << 63, nullptr) == CL_SUCCESS);
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &G, &L, 0, nullptr,
                               nullptr) == CL_OUT_OF_RESOURCES);
  // One argument of SIZE_MAX bytes (its 128-byte aligned size wraps).
  REQUIRE(clSetKernelArg(K, 1, Max, nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(K, 2, 64, nullptr) == CL_SUCCESS);
  CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &G, &L, 0, nullptr,
                               nullptr) == CL_OUT_OF_RESOURCES);
  cl_ulong Reported = 0;
  REQUIRE(clGetKernelWorkGroupInfo(K, E.D, CL_KERNEL_LOCAL_MEM_SIZE,
                                   sizeof Reported, &Reported,
                                   nullptr) == CL_SUCCESS);
  CHECK(Reported >= Max - 1);
  // Sizes that fit run.
  REQUIRE(clSetKernelArg(K, 1, L * sizeof(int), nullptr) == CL_SUCCESS);
  CHECK(E.run(K, 1, &G, &L) == CL_SUCCESS);
  for (int V : E.read<int>(O, 64))
    CHECK(V == 3);
}

//===----------------------------------------------------------------------===//
// Reference counting (appendix: "implicit retains"): an object the
// application released stays valid while another object holds it.
//===----------------------------------------------------------------------===//

TEST_CASE("5.8.7: a program released while its kernel lives stays valid",
          "[hostile][program]") {
  cl_device_id D = clcpuDevice();
  cl_int Err = -1;
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  const char *Src = "kernel void k(global int *o) { o[0] = 7; }";
  cl_program P = clCreateProgramWithSource(C, 1, &Src, nullptr, &Err);
  REQUIRE(clBuildProgram(P, 1, &D, nullptr, nullptr, nullptr) == CL_SUCCESS);
  cl_kernel K = clCreateKernel(P, "k", &Err);
  REQUIRE(Err == CL_SUCCESS);
  REQUIRE(clReleaseProgram(P) == CL_SUCCESS);
  // What the C++ bindings do: get the kernel's program and use it.
  cl_program Got = nullptr;
  REQUIRE(clGetKernelInfo(K, CL_KERNEL_PROGRAM, sizeof Got, &Got, nullptr) ==
          CL_SUCCESS);
  CHECK(Got == P);
  CHECK(clRetainProgram(Got) == CL_SUCCESS);
  cl_build_status St = CL_BUILD_NONE;
  CHECK(clGetProgramBuildInfo(Got, D, CL_PROGRAM_BUILD_STATUS, sizeof St, &St,
                              nullptr) == CL_SUCCESS);
  CHECK(St == CL_BUILD_SUCCESS);
  size_t NumKernels = 0;
  CHECK(clGetProgramInfo(Got, CL_PROGRAM_NUM_KERNELS, sizeof NumKernels,
                         &NumKernels, nullptr) == CL_SUCCESS);
  CHECK(NumKernels == 1);
  cl_kernel K2 = clCreateKernel(Got, "k", &Err);
  CHECK(Err == CL_SUCCESS);
  if (K2)
    clReleaseKernel(K2);
  CHECK(clReleaseProgram(Got) == CL_SUCCESS);
  // No reference of the application's is left: one release too many is
  // refused instead of taking the kernel's.
  CHECK(clReleaseProgram(Got) == CL_INVALID_PROGRAM);
  // The kernel still runs.
  cl_command_queue Q = clCreateCommandQueue(C, D, 0, &Err);
  cl_mem O = clCreateBuffer(C, CL_MEM_READ_WRITE, sizeof(int), nullptr, &Err);
  REQUIRE(clSetKernelArg(K, 0, sizeof O, &O) == CL_SUCCESS);
  CHECK(clEnqueueTask(Q, K, 0, nullptr, nullptr) == CL_SUCCESS);
  int V = 0;
  CHECK(clEnqueueReadBuffer(Q, O, CL_TRUE, 0, sizeof V, &V, 0, nullptr,
                            nullptr) == CL_SUCCESS);
  CHECK(V == 7);
  clReleaseMemObject(O);
  clReleaseCommandQueue(Q);
  CHECK(clReleaseKernel(K) == CL_SUCCESS);
  CHECK(clReleaseContext(C) == CL_SUCCESS);
}

TEST_CASE("5.1: a context released while its queue lives stays valid",
          "[hostile][context]") {
  cl_device_id D = clcpuDevice();
  cl_int Err = -1;
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err);
  cl_command_queue Q = clCreateCommandQueue(C, D, 0, &Err);
  REQUIRE(Err == CL_SUCCESS);
  REQUIRE(clReleaseContext(C) == CL_SUCCESS);
  cl_context Got = nullptr;
  REQUIRE(clGetCommandQueueInfo(Q, CL_QUEUE_CONTEXT, sizeof Got, &Got,
                                nullptr) == CL_SUCCESS);
  CHECK(clRetainContext(Got) == CL_SUCCESS);
  cl_uint NumDevices = 0;
  CHECK(clGetContextInfo(Got, CL_CONTEXT_NUM_DEVICES, sizeof NumDevices,
                         &NumDevices, nullptr) == CL_SUCCESS);
  CHECK(NumDevices == 1);
  cl_mem M = clCreateBuffer(Got, CL_MEM_READ_WRITE, 64, nullptr, &Err);
  CHECK(Err == CL_SUCCESS);
  clReleaseMemObject(M);
  CHECK(clReleaseContext(Got) == CL_SUCCESS);
  CHECK(clReleaseContext(Got) == CL_INVALID_CONTEXT);
  CHECK(clReleaseCommandQueue(Q) == CL_SUCCESS);
}

TEST_CASE("5.2.1: a parent buffer released while its sub-buffer lives stays "
          "valid",
          "[hostile][buffer]") {
  cl_device_id D = clcpuDevice();
  cl_int Err = -1;
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err);
  cl_mem Parent = clCreateBuffer(C, CL_MEM_READ_WRITE, 4096, nullptr, &Err);
  cl_buffer_region R{128, 256};
  cl_mem Sub =
      clCreateSubBuffer(Parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &R, &Err);
  REQUIRE(Err == CL_SUCCESS);
  REQUIRE(clReleaseMemObject(Parent) == CL_SUCCESS);
  cl_mem Got = nullptr;
  REQUIRE(clGetMemObjectInfo(Sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof Got, &Got,
                             nullptr) == CL_SUCCESS);
  CHECK(Got == Parent);
  CHECK(clRetainMemObject(Got) == CL_SUCCESS);
  size_t Size = 0;
  CHECK(clGetMemObjectInfo(Got, CL_MEM_SIZE, sizeof Size, &Size, nullptr) ==
        CL_SUCCESS);
  CHECK(Size == 4096);
  CHECK(clReleaseMemObject(Got) == CL_SUCCESS);
  CHECK(clReleaseMemObject(Got) == CL_INVALID_MEM_OBJECT);
  CHECK(clReleaseMemObject(Sub) == CL_SUCCESS);
  CHECK(clReleaseContext(C) == CL_SUCCESS);
}

//===----------------------------------------------------------------------===//
// Barrier regions: a kernel with private arrays live across barriers,
// launched again and again with other local sizes in one process. The
// second launch of 8 groups of 37 (or 16 then 37, 37 then 1, 1 then 4096)
// crashed: something sized by the first launch was reused.
//===----------------------------------------------------------------------===//

namespace {
const char *BarrierPrivateSrc = R"(
  kernel void b_private(global const int* in, global int* out_i,
                        global float* out_f, local int* s) {
    size_t l = get_local_id(0), L = get_local_size(0), i = get_global_id(0);
    int a = in[i]; float priv[16]; int ip[5];
    for (int k = 0; k < 16; ++k) priv[k] = (float)(a + k) * 0.25f;
    for (int k = 0; k < 5; ++k) ip[k] = a * (k + 1) - (int)l;
    float f = (float)a * 0.5f; int b = a * 3 + (int)l;
    s[l] = a; barrier(CLK_LOCAL_MEM_FENCE);
    int nb = s[(l + 1) % L]; uint idx = ((uint)l + (uint)(nb & 0xff)) & 15u;
    float r = priv[idx] + priv[(idx + 7u) & 15u] + f;
    for (int k = 0; k < 16; ++k) priv[k] += (float)nb;
    barrier(CLK_LOCAL_MEM_FENCE); s[l] = b + nb; barrier(CLK_LOCAL_MEM_FENCE);
    r += priv[(idx + 3u) & 15u];
    out_i[i] = s[(l + 2) % L] + ip[idx % 5u] + ip[(idx + 2u) % 5u] + b;
    out_f[i] = r;
  })";

/// The host's b_private for groups of \p L over \p In.
void barrierPrivateReference(const std::vector<int> &In, size_t L,
                             std::vector<int> &OutI, std::vector<float> &OutF) {
  size_t G = In.size();
  OutI.assign(G, 0);
  OutF.assign(G, 0);
  for (size_t Base = 0; Base < G; Base += L) {
    auto A = [&](size_t Lid) { return In[Base + Lid]; };
    for (size_t l = 0; l < L; ++l) {
      int a = A(l);
      float priv[16];
      int ip[5];
      for (int k = 0; k < 16; ++k)
        priv[k] = (float)(a + k) * 0.25f;
      for (int k = 0; k < 5; ++k)
        ip[k] = a * (k + 1) - (int)l;
      float f = (float)a * 0.5f;
      int b = a * 3 + (int)l;
      int nb = A((l + 1) % L);
      unsigned idx = ((unsigned)l + (unsigned)(nb & 0xff)) & 15u;
      float r = priv[idx] + priv[(idx + 7u) & 15u] + f;
      for (int k = 0; k < 16; ++k)
        priv[k] += (float)nb;
      size_t l2 = (l + 2) % L;
      int s2 = A(l2) * 3 + (int)l2 + A((l2 + 1) % L);
      r += priv[(idx + 3u) & 15u];
      OutI[Base + l] = s2 + ip[idx % 5u] + ip[(idx + 2u) % 5u] + b;
      OutF[Base + l] = r;
    }
  }
}
} // namespace

TEST_CASE("Barrier regions: private arrays across barriers over a sequence "
          "of local sizes in one process",
          "[hostile][barrier]") {
  Env E;
  REQUIRE(E.Q);
  cl_kernel K = E.kernel(BarrierPrivateSrc, "b_private");
  // Pairs from the report, then sizes that are not multiples of the vector
  // width, then back down.
  const size_t Locals[] = {37, 37, 16, 37, 37, 1,  1,   4096, 32, 37,  37, 4096,
                           7,  9,  8,  17, 3,  64, 255, 256,  1,  100, 37};
  for (size_t L : Locals) {
    size_t Groups = L >= 1024 ? 2 : 8;
    size_t G = Groups * L;
    CAPTURE(L, G);
    std::vector<int> In(G);
    for (size_t I = 0; I < G; ++I)
      In[I] = static_cast<int>((I * 2654435761u) % 1000) - 300;
    std::vector<int> WantI;
    std::vector<float> WantF;
    barrierPrivateReference(In, L, WantI, WantF);
    cl_mem InBuf = E.buffer(In);
    cl_mem OutI = E.buffer(std::vector<int>(G, 0));
    cl_mem OutF = E.buffer(std::vector<float>(G, 0));
    E.arg(K, 0, InBuf);
    E.arg(K, 1, OutI);
    E.arg(K, 2, OutF);
    E.localArg(K, 3, L * sizeof(int));
    REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
    expectEqual(E.read<int>(OutI, G), WantI, "out_i");
    expectEqual(E.read<float>(OutF, G), WantF, "out_f");
  }
}

//===----------------------------------------------------------------------===//
// 5.10: kernels with large private arrays. The frame of the work-group
// function is known at build time; a 2 MiB array overflowed the stack of a
// TBB worker (and of a fiber, sized from the allocas alone).
//===----------------------------------------------------------------------===//

namespace {
std::string bigPrivateSource(size_t Bytes, bool WithBarrier) {
  return "#define N " + std::to_string(Bytes / 4) + "\n" + R"(
    kernel void big(global int *out, int seed) {
      int a[N];
      int g = (int)get_global_id(0);
      for (int i = 0; i < N; i++) a[i] = (i ^ seed) + g;
    )" + (WithBarrier ? "barrier(CLK_GLOBAL_MEM_FENCE);" : "") +
         R"(
      int s = 0;
      for (int i = 0; i < N; i += 4099) s += a[(i * 7 + seed) % N];
      out[g] = s + a[seed % N];
    })";
}

int bigPrivateReference(size_t Bytes, int Seed, int G) {
  int N = static_cast<int>(Bytes / 4);
  auto A = [&](int I) { return (I ^ Seed) + G; };
  int S = 0;
  for (int I = 0; I < N; I += 4099)
    S += A((I * 7 + Seed) % N);
  return S + A(Seed % N);
}
} // namespace

TEST_CASE("5.10: kernels with private arrays of 1 to 16 MiB run on stacks "
          "sized for their frames",
          "[hostile][kernel]") {
  Env E;
  REQUIRE(E.Q);
  for (bool Barrier : {false, true})
    for (size_t MiB : {1, 2, 3, 4, 8, 16}) {
      size_t Bytes = MiB << 20;
      CAPTURE(Barrier, MiB);
      cl_kernel K = E.kernel(bigPrivateSource(Bytes, Barrier), "big");
      cl_ulong Private = 0;
      REQUIRE(clGetKernelWorkGroupInfo(K, E.D, CL_KERNEL_PRIVATE_MEM_SIZE,
                                       sizeof Private, &Private,
                                       nullptr) == CL_SUCCESS);
      CHECK(Private >= Bytes);
      const size_t G = 4;
      cl_mem Out = E.buffer(std::vector<int>(G, -1));
      const int Seed = 12345;
      E.arg(K, 0, Out);
      E.arg(K, 1, Seed);
      for (size_t L : {size_t(1), size_t(2), size_t(4)}) {
        CAPTURE(L);
        // Stacks are sized from the frame the code generator laid out:
        // every size up to 16 MiB runs, on workers and on the launching
        // thread, on the work-item loop and on fibers.
        REQUIRE(E.run(K, 1, &G, &L) == CL_SUCCESS);
        std::vector<int> Got = E.read<int>(Out, G);
        for (int I = 0; I < static_cast<int>(G); ++I)
          CHECK(Got[I] == bigPrivateReference(Bytes, Seed, I));
      }
    }
}

//===----------------------------------------------------------------------===//
// Host pointers with sizes that wrap around the address space or run past
// an SVM allocation: refused before any byte is touched.
//===----------------------------------------------------------------------===//

TEST_CASE("5.2.1/5.6/5.8.1: host and SVM ranges that cannot be memory are "
          "refused",
          "[hostile][buffer]") {
  Env E;
  REQUIRE(E.Q);
  cl_int Err = CL_SUCCESS;
  // clCreateBuffer with CL_MEM_COPY_HOST_PTR: host_ptr + size wraps.
  auto *High = reinterpret_cast<void *>(Max - 4095);
  cl_mem M = clCreateBuffer(E.C, CL_MEM_COPY_HOST_PTR, 8192, High, &Err);
  CHECK(M == nullptr);
  CHECK(Err == CL_INVALID_HOST_PTR);
  // Read and write buffer into a host range that wraps.
  cl_mem B = plainBuffer(E, 4096);
  CHECK(clEnqueueReadBuffer(E.Q, B, CL_TRUE, 0, 4096, High, 0, nullptr,
                            nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueWriteBuffer(E.Q, B, CL_TRUE, 0, 4096, High, 0, nullptr,
                             nullptr) == CL_INVALID_VALUE);
  // A source string whose length runs past the address space.
  const char *Src = "kernel void k() {}";
  size_t Len = Max;
  cl_program P = clCreateProgramWithSource(E.C, 1, &Src, &Len, &Err);
  CHECK(P == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  // A binary whose length does.
  const unsigned char *Bin = reinterpret_cast<const unsigned char *>(Src);
  cl_int Status = CL_SUCCESS;
  P = clCreateProgramWithBinary(E.C, 1, &E.D, &Len, &Bin, &Status, &Err);
  CHECK(P == nullptr);
  CHECK(Err == CL_INVALID_BINARY);
  CHECK(Status == CL_INVALID_BINARY);
  // SVM: a copy, fill or map that runs past its allocation.
  auto *S = static_cast<char *>(clSVMAlloc(E.C, CL_MEM_READ_WRITE, 4096, 0));
  REQUIRE(S);
  std::vector<char> Host(8192);
  CHECK(clEnqueueSVMMemcpy(E.Q, CL_TRUE, S + 2048, Host.data(), 4096, 0,
                           nullptr, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemcpy(E.Q, CL_TRUE, Host.data(), S, Max, 0, nullptr,
                           nullptr) == CL_INVALID_VALUE);
  int Pat = 7;
  CHECK(clEnqueueSVMMemFill(E.Q, S, &Pat, sizeof Pat, 8192, 0, nullptr,
                            nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMap(E.Q, CL_TRUE, CL_MAP_READ, S + 16, 4096, 0, nullptr,
                        nullptr) == CL_INVALID_VALUE);
  // In range: works.
  CHECK(clEnqueueSVMMemcpy(E.Q, CL_TRUE, S + 2048, Host.data(), 2048, 0,
                           nullptr, nullptr) == CL_SUCCESS);
  CHECK(clEnqueueSVMMemFill(E.Q, S, &Pat, sizeof Pat, 4096, 0, nullptr,
                            nullptr) == CL_SUCCESS);
  CHECK(clFinish(E.Q) == CL_SUCCESS);
  CHECK(reinterpret_cast<int *>(S)[1000] == 7);
  clSVMFree(E.C, S);
}
