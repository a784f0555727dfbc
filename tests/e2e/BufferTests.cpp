// End-to-end: buffers and sub-buffers through the ICD loader (OpenCL 3.0 API
// spec, 5.2 "Buffer Objects" and 5.5 "Memory Objects").

#include "Common.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

namespace {
struct Env {
  cl_device_id D = clcpuDevice();
  cl_context C = nullptr;
  cl_command_queue Q = nullptr;
  Env() {
    C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, nullptr);
    Q = clCreateCommandQueueWithProperties(C, D, nullptr, nullptr);
  }
  ~Env() {
    if (Q)
      clReleaseCommandQueue(Q);
    if (C)
      clReleaseContext(C);
  }
  cl_mem buffer(size_t Size, cl_mem_flags Flags = 0, void *Host = nullptr) {
    cl_int Err = -1;
    cl_mem M = clCreateBuffer(C, Flags, Size, Host, &Err);
    REQUIRE(Err == CL_SUCCESS);
    REQUIRE(M);
    return M;
  }
};

template <typename T> T memInfo(cl_mem M, cl_mem_info P) {
  T V{};
  REQUIRE(clGetMemObjectInfo(M, P, sizeof V, &V, nullptr) == CL_SUCCESS);
  return V;
}

std::vector<unsigned char> pattern(size_t N, unsigned Seed) {
  std::vector<unsigned char> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = static_cast<unsigned char>((I * 131 + Seed) % 251);
  return V;
}

void CL_CALLBACK recordDestroy(cl_mem, void *User) {
  auto *P = static_cast<std::pair<std::vector<int> *, int> *>(User);
  P->first->push_back(P->second);
}
} // namespace

TEST_CASE("5.2.1: clCreateBuffer flag and host_ptr rules", "[buffer]") {
  Env E;
  REQUIRE(E.Q);
  cl_int Err = 0;
  char Host[64] = {};
  auto Try = [&](cl_mem_flags F, size_t Size, void *P) {
    cl_mem M = clCreateBuffer(E.C, F, Size, P, &Err);
    if (M)
      clReleaseMemObject(M);
    return Err;
  };
  CHECK(Try(0, 64, nullptr) == CL_SUCCESS);
  CHECK(Try(CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR |
                CL_MEM_HOST_READ_ONLY,
            64, Host) == CL_SUCCESS);
  CHECK(Try(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(Try(CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY, 64, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(Try(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, Host) ==
        CL_INVALID_VALUE);
  CHECK(Try(CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, Host) ==
        CL_INVALID_VALUE);
  CHECK(Try(CL_MEM_USE_HOST_PTR, 64, nullptr) == CL_INVALID_HOST_PTR);
  CHECK(Try(CL_MEM_COPY_HOST_PTR, 64, nullptr) == CL_INVALID_HOST_PTR);
  CHECK(Try(0, 64, Host) == CL_INVALID_HOST_PTR);
  CHECK(Try(0, 0, nullptr) == CL_INVALID_BUFFER_SIZE);
  cl_ulong Max = deviceInfo<cl_ulong>(E.D, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  CHECK(Try(0, static_cast<size_t>(Max) + 1, nullptr) ==
        CL_INVALID_BUFFER_SIZE);
  CHECK(clCreateBuffer(nullptr, 0, 64, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_CONTEXT);

  cl_mem_properties Empty[] = {0};
  cl_mem M = clCreateBufferWithProperties(E.C, Empty, 0, 64, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  size_t Sz = 0;
  CHECK(clGetMemObjectInfo(M, CL_MEM_PROPERTIES, 0, nullptr, &Sz) ==
        CL_SUCCESS);
  CHECK(Sz == sizeof(cl_mem_properties));
  clReleaseMemObject(M);
  M = clCreateBufferWithProperties(E.C, nullptr, 0, 64, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(clGetMemObjectInfo(M, CL_MEM_PROPERTIES, 0, nullptr, &Sz) ==
        CL_SUCCESS);
  CHECK(Sz == 0);
  clReleaseMemObject(M);
  cl_mem_properties Bad[] = {0x1234, 1, 0};
  CHECK(clCreateBufferWithProperties(E.C, Bad, 0, 64, nullptr, &Err) ==
        nullptr);
  CHECK(Err == CL_INVALID_PROPERTY);
}

TEST_CASE("5.5.5: clGetMemObjectInfo answers every buffer query", "[buffer]") {
  Env E;
  std::vector<char> Host(4096);
  cl_mem M = E.buffer(Host.size(), CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY,
                      Host.data());
  CHECK(memInfo<cl_mem_object_type>(M, CL_MEM_TYPE) == CL_MEM_OBJECT_BUFFER);
  CHECK(memInfo<cl_mem_flags>(M, CL_MEM_FLAGS) ==
        (CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY));
  CHECK(memInfo<size_t>(M, CL_MEM_SIZE) == Host.size());
  CHECK(memInfo<void *>(M, CL_MEM_HOST_PTR) == Host.data());
  CHECK(memInfo<cl_uint>(M, CL_MEM_MAP_COUNT) == 0);
  CHECK(memInfo<cl_uint>(M, CL_MEM_REFERENCE_COUNT) == 1);
  CHECK(memInfo<cl_context>(M, CL_MEM_CONTEXT) == E.C);
  CHECK(memInfo<cl_mem>(M, CL_MEM_ASSOCIATED_MEMOBJECT) == nullptr);
  CHECK(memInfo<size_t>(M, CL_MEM_OFFSET) == 0);
  CHECK(memInfo<cl_bool>(M, CL_MEM_USES_SVM_POINTER) == CL_FALSE);

  cl_buffer_region R{256, 512};
  cl_int Err = -1;
  cl_mem S = clCreateSubBuffer(M, CL_MEM_HOST_READ_ONLY,
                               CL_BUFFER_CREATE_TYPE_REGION, &R, &Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(memInfo<cl_mem>(S, CL_MEM_ASSOCIATED_MEMOBJECT) == M);
  CHECK(memInfo<size_t>(S, CL_MEM_OFFSET) == 256);
  CHECK(memInfo<size_t>(S, CL_MEM_SIZE) == 512);
  CHECK(memInfo<void *>(S, CL_MEM_HOST_PTR) == Host.data() + 256);
  CHECK(memInfo<cl_mem_flags>(S, CL_MEM_FLAGS) ==
        (CL_MEM_HOST_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY));
  cl_uint V;
  CHECK(clGetMemObjectInfo(M, 0x9999, sizeof V, &V, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clGetMemObjectInfo(M, CL_MEM_SIZE, 1, &V, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetMemObjectInfo(nullptr, CL_MEM_SIZE, sizeof V, &V, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  CHECK(clRetainMemObject(M) == CL_SUCCESS);
  CHECK(memInfo<cl_uint>(M, CL_MEM_REFERENCE_COUNT) == 2);
  CHECK(clReleaseMemObject(M) == CL_SUCCESS);
  clReleaseMemObject(S);
  clReleaseMemObject(M);
  CHECK(clRetainMemObject(nullptr) == CL_INVALID_MEM_OBJECT);
  CHECK(clReleaseMemObject(nullptr) == CL_INVALID_MEM_OBJECT);
}

TEST_CASE("5.2.1: clCreateSubBuffer alignment, bounds and flag rules",
          "[buffer]") {
  Env E;
  cl_uint AlignBits = deviceInfo<cl_uint>(E.D, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
  size_t Align = AlignBits / 8;
  REQUIRE(Align >= 128);
  cl_mem M = E.buffer(Align * 8, CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS);
  cl_int Err = 0;
  auto Sub = [&](cl_mem_flags F, size_t Origin, size_t Size) {
    cl_buffer_region R{Origin, Size};
    cl_mem S = clCreateSubBuffer(M, F, CL_BUFFER_CREATE_TYPE_REGION, &R, &Err);
    if (S)
      clReleaseMemObject(S);
    return Err;
  };
  CHECK(Sub(0, Align, Align) == CL_SUCCESS);
  CHECK(Sub(0, Align / 2, 16) == CL_MISALIGNED_SUB_BUFFER_OFFSET);
  CHECK(Sub(0, 1, 16) == CL_MISALIGNED_SUB_BUFFER_OFFSET);
  CHECK(Sub(0, Align * 7, Align + 1) == CL_INVALID_VALUE);
  CHECK(Sub(0, Align * 8, 1) == CL_INVALID_VALUE);
  CHECK(Sub(0, 0, 0) == CL_INVALID_BUFFER_SIZE);
  CHECK(Sub(CL_MEM_READ_WRITE, 0, 16) == CL_INVALID_VALUE);
  CHECK(Sub(CL_MEM_READ_ONLY, 0, 16) == CL_INVALID_VALUE);
  CHECK(Sub(CL_MEM_HOST_READ_ONLY, 0, 16) == CL_INVALID_VALUE);
  CHECK(Sub(CL_MEM_HOST_WRITE_ONLY, 0, 16) == CL_INVALID_VALUE);
  CHECK(Sub(CL_MEM_COPY_HOST_PTR, 0, 16) == CL_INVALID_VALUE);
  cl_buffer_region R{0, 16};
  CHECK(clCreateSubBuffer(M, 0, 0x7777, &R, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clCreateSubBuffer(M, 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr, &Err) ==
        nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  // A sub-buffer of a sub-buffer is refused.
  cl_mem S = clCreateSubBuffer(M, 0, CL_BUFFER_CREATE_TYPE_REGION, &R, &Err);
  REQUIRE(S);
  CHECK(clCreateSubBuffer(S, 0, CL_BUFFER_CREATE_TYPE_REGION, &R, &Err) ==
        nullptr);
  CHECK(Err == CL_INVALID_MEM_OBJECT);
  CHECK(memInfo<cl_mem_flags>(S, CL_MEM_FLAGS) ==
        (CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS));
  clReleaseMemObject(S);
  clReleaseMemObject(M);
}

TEST_CASE("5.5.4: destructor callbacks run in reverse order, sub-buffers "
          "keep the parent",
          "[buffer]") {
  Env E;
  std::vector<int> Order;
  std::pair<std::vector<int> *, int> A{&Order, 1}, B{&Order, 2},
      Child{&Order, 3};
  cl_mem M = E.buffer(1024);
  CHECK(clSetMemObjectDestructorCallback(M, recordDestroy, &A) == CL_SUCCESS);
  CHECK(clSetMemObjectDestructorCallback(M, recordDestroy, &B) == CL_SUCCESS);
  CHECK(clSetMemObjectDestructorCallback(M, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clSetMemObjectDestructorCallback(nullptr, recordDestroy, &A) ==
        CL_INVALID_MEM_OBJECT);
  cl_buffer_region R{0, 512};
  cl_mem S = clCreateSubBuffer(M, 0, CL_BUFFER_CREATE_TYPE_REGION, &R, nullptr);
  REQUIRE(S);
  CHECK(clSetMemObjectDestructorCallback(S, recordDestroy, &Child) ==
        CL_SUCCESS);
  CHECK(clReleaseMemObject(M) == CL_SUCCESS);
  CHECK(Order.empty()); // the sub-buffer still uses the parent's memory
  CHECK(clReleaseMemObject(S) == CL_SUCCESS);
  CHECK(Order == std::vector<int>{3, 2, 1});
}

TEST_CASE("5.2.2: write then read, with offsets, keeps every byte",
          "[buffer]") {
  Env E;
  REQUIRE(E.Q);
  const size_t N = 1 << 20;
  auto Src = pattern(N, 3);
  cl_mem M = E.buffer(N);
  CHECK(clEnqueueWriteBuffer(E.Q, M, CL_TRUE, 0, N, Src.data(), 0, nullptr,
                             nullptr) == CL_SUCCESS);
  std::vector<unsigned char> Got(N, 0);
  CHECK(clEnqueueReadBuffer(E.Q, M, CL_TRUE, 0, N, Got.data(), 0, nullptr,
                            nullptr) == CL_SUCCESS);
  CHECK(Got == Src);
  // Non-blocking partial write then blocking read of a window.
  auto Part = pattern(1000, 99);
  CHECK(clEnqueueWriteBuffer(E.Q, M, CL_FALSE, 777, 1000, Part.data(), 0,
                             nullptr, nullptr) == CL_SUCCESS);
  std::vector<unsigned char> Win(1002);
  CHECK(clEnqueueReadBuffer(E.Q, M, CL_TRUE, 776, 1002, Win.data(), 0, nullptr,
                            nullptr) == CL_SUCCESS);
  CHECK(Win[0] == Src[776]);
  CHECK(std::equal(Part.begin(), Part.end(), Win.begin() + 1));
  CHECK(Win[1001] == Src[1777]);

  // COPY_HOST_PTR copies at creation: later host changes are not seen.
  auto Init = pattern(256, 5);
  cl_mem C = E.buffer(256, CL_MEM_COPY_HOST_PTR, Init.data());
  auto Expected = Init;
  Init.assign(256, 0);
  std::vector<unsigned char> Back(256);
  CHECK(clEnqueueReadBuffer(E.Q, C, CL_TRUE, 0, 256, Back.data(), 0, nullptr,
                            nullptr) == CL_SUCCESS);
  CHECK(Back == Expected);
  clReleaseMemObject(C);
  clReleaseMemObject(M);
}

TEST_CASE("5.2.2: read/write errors", "[buffer]") {
  Env E;
  REQUIRE(E.Q);
  char Buf[64];
  cl_mem M = E.buffer(64);
  CHECK(clEnqueueReadBuffer(E.Q, M, CL_TRUE, 60, 8, Buf, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueReadBuffer(E.Q, M, CL_TRUE, 0, 8, nullptr, 0, nullptr,
                            nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueWriteBuffer(E.Q, M, CL_TRUE, 65, 0, Buf, 0, nullptr,
                             nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueReadBuffer(nullptr, M, CL_TRUE, 0, 8, Buf, 0, nullptr,
                            nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueReadBuffer(E.Q, nullptr, CL_TRUE, 0, 8, Buf, 0, nullptr,
                            nullptr) == CL_INVALID_MEM_OBJECT);
  cl_mem WO = E.buffer(64, CL_MEM_HOST_WRITE_ONLY);
  cl_mem RO = E.buffer(64, CL_MEM_HOST_READ_ONLY);
  cl_mem NA = E.buffer(64, CL_MEM_HOST_NO_ACCESS);
  CHECK(clEnqueueReadBuffer(E.Q, WO, CL_TRUE, 0, 8, Buf, 0, nullptr, nullptr) ==
        CL_INVALID_OPERATION);
  CHECK(clEnqueueWriteBuffer(E.Q, WO, CL_TRUE, 0, 8, Buf, 0, nullptr,
                             nullptr) == CL_SUCCESS);
  CHECK(clEnqueueWriteBuffer(E.Q, RO, CL_TRUE, 0, 8, Buf, 0, nullptr,
                             nullptr) == CL_INVALID_OPERATION);
  CHECK(clEnqueueReadBuffer(E.Q, RO, CL_TRUE, 0, 8, Buf, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  CHECK(clEnqueueReadBuffer(E.Q, NA, CL_TRUE, 0, 8, Buf, 0, nullptr, nullptr) ==
        CL_INVALID_OPERATION);
  CHECK(clEnqueueWriteBuffer(E.Q, NA, CL_TRUE, 0, 8, Buf, 0, nullptr,
                             nullptr) == CL_INVALID_OPERATION);
  // A buffer of another context.
  Env Other;
  cl_mem Foreign = Other.buffer(64);
  CHECK(clEnqueueReadBuffer(E.Q, Foreign, CL_TRUE, 0, 8, Buf, 0, nullptr,
                            nullptr) == CL_INVALID_CONTEXT);
  for (cl_mem X : {M, WO, RO, NA, Foreign})
    clReleaseMemObject(X);
}

TEST_CASE("5.2.3: copies, and overlap in a buffer or through sub-buffers",
          "[buffer]") {
  Env E;
  REQUIRE(E.Q);
  const size_t N = 4096;
  auto Src = pattern(N, 11);
  cl_mem A = E.buffer(N, CL_MEM_COPY_HOST_PTR, Src.data());
  cl_mem B = E.buffer(N);
  CHECK(clEnqueueCopyBuffer(E.Q, A, B, 100, 200, 3000, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  std::vector<unsigned char> Got(3000);
  CHECK(clEnqueueReadBuffer(E.Q, B, CL_TRUE, 200, 3000, Got.data(), 0, nullptr,
                            nullptr) == CL_SUCCESS);
  CHECK(std::equal(Got.begin(), Got.end(), Src.begin() + 100));
  // Same buffer, disjoint ranges: fine; overlapping: CL_MEM_COPY_OVERLAP.
  CHECK(clEnqueueCopyBuffer(E.Q, A, A, 0, 1000, 1000, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  CHECK(clEnqueueCopyBuffer(E.Q, A, A, 0, 999, 1000, 0, nullptr, nullptr) ==
        CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueCopyBuffer(E.Q, A, B, 0, 0, N + 1, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueCopyBuffer(E.Q, A, B, N, 0, 1, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  // Two sub-buffers of A, and a sub-buffer against its parent.
  cl_buffer_region R1{0, 2048}, R2{1024, 2048};
  cl_mem S1 =
      clCreateSubBuffer(A, 0, CL_BUFFER_CREATE_TYPE_REGION, &R1, nullptr);
  cl_mem S2 =
      clCreateSubBuffer(A, 0, CL_BUFFER_CREATE_TYPE_REGION, &R2, nullptr);
  REQUIRE(S1);
  REQUIRE(S2);
  CHECK(clEnqueueCopyBuffer(E.Q, S1, S2, 1024, 0, 512, 0, nullptr, nullptr) ==
        CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueCopyBuffer(E.Q, S1, S2, 0, 1024, 512, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  CHECK(clEnqueueCopyBuffer(E.Q, A, S2, 1050, 0, 100, 0, nullptr, nullptr) ==
        CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueCopyBuffer(E.Q, A, S2, 0, 0, 100, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  CHECK(clFinish(E.Q) == CL_SUCCESS);
  // Reference of all the successful copies on the host.
  auto Ref = Src;
  std::memmove(Ref.data() + 1000, Ref.data(), 1000);
  std::memmove(Ref.data() + 1024 + 1024, Ref.data() + 0, 512);
  std::memmove(Ref.data() + 1024, Ref.data() + 0, 100);
  std::vector<unsigned char> All(N);
  CHECK(clEnqueueReadBuffer(E.Q, A, CL_TRUE, 0, N, All.data(), 0, nullptr,
                            nullptr) == CL_SUCCESS);
  CHECK(All == Ref);
  for (cl_mem X : {S1, S2, A, B})
    clReleaseMemObject(X);
}

TEST_CASE("5.2.3: fill with every pattern size", "[buffer]") {
  Env E;
  REQUIRE(E.Q);
  const size_t N = 2048;
  cl_mem M = E.buffer(N);
  for (size_t P = 1; P <= 128; P *= 2) {
    auto Zero = std::vector<unsigned char>(N, 0);
    CHECK(clEnqueueWriteBuffer(E.Q, M, CL_FALSE, 0, N, Zero.data(), 0, nullptr,
                               nullptr) == CL_SUCCESS);
    auto Pat = pattern(P, static_cast<unsigned>(P));
    CHECK(clEnqueueFillBuffer(E.Q, M, Pat.data(), P, P * 2, P * 5, 0, nullptr,
                              nullptr) == CL_SUCCESS);
    std::vector<unsigned char> Got(N);
    CHECK(clEnqueueReadBuffer(E.Q, M, CL_TRUE, 0, N, Got.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
    auto Ref = Zero;
    for (size_t I = 0; I < P * 5; ++I)
      Ref[P * 2 + I] = Pat[I % P];
    CHECK(Got == Ref);
  }
  unsigned char Pat[256] = {};
  CHECK(clEnqueueFillBuffer(E.Q, M, Pat, 3, 0, 6, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueFillBuffer(E.Q, M, Pat, 256, 0, 256, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueFillBuffer(E.Q, M, Pat, 0, 0, 8, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueFillBuffer(E.Q, M, nullptr, 4, 0, 8, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueFillBuffer(E.Q, M, Pat, 4, 2, 8, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueFillBuffer(E.Q, M, Pat, 4, 0, 6, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueFillBuffer(E.Q, M, Pat, 4, N - 4, 8, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  clReleaseMemObject(M);
}

TEST_CASE("5.2.2: rect reads, writes and copies match a host reference",
          "[buffer]") {
  Env E;
  REQUIRE(E.Q);
  std::mt19937 Rng(1234);
  auto U = [&](size_t Lo, size_t Hi) {
    return std::uniform_int_distribution<size_t>(Lo, Hi)(Rng);
  };
  const size_t N = 8192;
  for (int Iter = 0; Iter < 40; ++Iter) {
    size_t Region[3] = {U(1, 16), U(1, 6), U(1, 4)};
    size_t BOrig[3] = {U(0, 4), U(0, 3), U(0, 2)};
    size_t HOrig[3] = {U(0, 4), U(0, 3), U(0, 2)};
    size_t BRow = Region[0] + U(0, 8), BSlice = BRow * (Region[1] + U(0, 3));
    size_t HRow = Region[0] + U(0, 8), HSlice = HRow * (Region[1] + U(0, 3));
    auto Dev = pattern(N, static_cast<unsigned>(Iter));
    cl_mem M = E.buffer(N, CL_MEM_COPY_HOST_PTR, Dev.data());
    // Read the box into host memory.
    std::vector<unsigned char> Host(N, 0xAB), Ref(N, 0xAB);
    REQUIRE(clEnqueueReadBufferRect(E.Q, M, CL_TRUE, BOrig, HOrig, Region, BRow,
                                    BSlice, HRow, HSlice, Host.data(), 0,
                                    nullptr, nullptr) == CL_SUCCESS);
    for (size_t Z = 0; Z < Region[2]; ++Z)
      for (size_t Y = 0; Y < Region[1]; ++Y)
        for (size_t X = 0; X < Region[0]; ++X)
          Ref[(HOrig[2] + Z) * HSlice + (HOrig[1] + Y) * HRow + HOrig[0] + X] =
              Dev[(BOrig[2] + Z) * BSlice + (BOrig[1] + Y) * BRow + BOrig[0] +
                  X];
    REQUIRE(Host == Ref);
    // Write a different box back and compare the whole buffer.
    auto In = pattern(N, 1000 + Iter);
    auto DevRef = Dev;
    REQUIRE(clEnqueueWriteBufferRect(E.Q, M, CL_FALSE, BOrig, HOrig, Region,
                                     BRow, BSlice, HRow, HSlice, In.data(), 0,
                                     nullptr, nullptr) == CL_SUCCESS);
    for (size_t Z = 0; Z < Region[2]; ++Z)
      for (size_t Y = 0; Y < Region[1]; ++Y)
        for (size_t X = 0; X < Region[0]; ++X)
          DevRef[(BOrig[2] + Z) * BSlice + (BOrig[1] + Y) * BRow + BOrig[0] +
                 X] = In[(HOrig[2] + Z) * HSlice + (HOrig[1] + Y) * HRow +
                         HOrig[0] + X];
    // Copy the box (buffer pitches) into another buffer (host pitches).
    cl_mem D = E.buffer(N, CL_MEM_COPY_HOST_PTR, Host.data());
    auto DRef = Host;
    REQUIRE(clEnqueueCopyBufferRect(E.Q, M, D, BOrig, HOrig, Region, BRow,
                                    BSlice, HRow, HSlice, 0, nullptr,
                                    nullptr) == CL_SUCCESS);
    for (size_t Z = 0; Z < Region[2]; ++Z)
      for (size_t Y = 0; Y < Region[1]; ++Y)
        for (size_t X = 0; X < Region[0]; ++X)
          DRef[(HOrig[2] + Z) * HSlice + (HOrig[1] + Y) * HRow + HOrig[0] + X] =
              DevRef[(BOrig[2] + Z) * BSlice + (BOrig[1] + Y) * BRow +
                     BOrig[0] + X];
    std::vector<unsigned char> GotM(N), GotD(N);
    REQUIRE(clEnqueueReadBuffer(E.Q, M, CL_TRUE, 0, N, GotM.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(E.Q, D, CL_TRUE, 0, N, GotD.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
    REQUIRE(GotM == DevRef);
    REQUIRE(GotD == DRef);
    clReleaseMemObject(M);
    clReleaseMemObject(D);
  }
}

TEST_CASE("5.2.2: rect argument errors", "[buffer]") {
  Env E;
  REQUIRE(E.Q);
  cl_mem M = E.buffer(1024);
  std::vector<char> Host(4096);
  size_t O[3] = {0, 0, 0}, R[3] = {8, 4, 2};
  auto Read = [&](const size_t *BO, const size_t *HO, const size_t *Reg,
                  size_t BR, size_t BS, size_t HR, size_t HS) {
    return clEnqueueReadBufferRect(E.Q, M, CL_TRUE, BO, HO, Reg, BR, BS, HR, HS,
                                   Host.data(), 0, nullptr, nullptr);
  };
  CHECK(Read(O, O, R, 0, 0, 0, 0) == CL_SUCCESS);
  CHECK(Read(nullptr, O, R, 0, 0, 0, 0) == CL_INVALID_VALUE);
  CHECK(Read(O, nullptr, R, 0, 0, 0, 0) == CL_INVALID_VALUE);
  CHECK(Read(O, O, nullptr, 0, 0, 0, 0) == CL_INVALID_VALUE);
  size_t Zero[3] = {8, 0, 2};
  CHECK(Read(O, O, Zero, 0, 0, 0, 0) == CL_INVALID_VALUE);
  CHECK(Read(O, O, R, 7, 0, 0, 0) == CL_INVALID_VALUE);      // row < w
  CHECK(Read(O, O, R, 0, 0, 7, 0) == CL_INVALID_VALUE);      // host row
  CHECK(Read(O, O, R, 8, 31, 0, 0) == CL_INVALID_VALUE);     // slice < h*row
  CHECK(Read(O, O, R, 8, 36, 0, 0) == CL_INVALID_VALUE);     // not multiple
  CHECK(Read(O, O, R, 0, 0, 10, 35) == CL_INVALID_VALUE);    // host slice
  CHECK(Read(O, O, R, 200, 1000, 0, 0) == CL_INVALID_VALUE); // out of bounds
  size_t Far[3] = {0, 0, 32};
  CHECK(Read(Far, O, R, 0, 0, 0, 0) == CL_INVALID_VALUE);
  CHECK(clEnqueueReadBufferRect(E.Q, M, CL_TRUE, O, O, R, 0, 0, 0, 0, nullptr,
                                0, nullptr, nullptr) == CL_INVALID_VALUE);
  // Same buffer: overlapping boxes and mismatched pitches.
  size_t A[3] = {0, 0, 0}, B[3] = {4, 0, 0}, C[3] = {0, 4, 0};
  size_t R2[3] = {8, 4, 1};
  CHECK(clEnqueueCopyBufferRect(E.Q, M, M, A, B, R2, 16, 64, 16, 64, 0, nullptr,
                                nullptr) == CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueCopyBufferRect(E.Q, M, M, A, C, R2, 16, 64, 16, 64, 0, nullptr,
                                nullptr) == CL_SUCCESS);
  // Interleaved rows: the spans overlap but no byte is shared.
  size_t D8[3] = {8, 0, 0};
  CHECK(clEnqueueCopyBufferRect(E.Q, M, M, A, D8, R2, 16, 64, 16, 64, 0,
                                nullptr, nullptr) == CL_SUCCESS);
  CHECK(clEnqueueCopyBufferRect(E.Q, M, M, A, C, R2, 16, 64, 32, 128, 0,
                                nullptr, nullptr) == CL_INVALID_VALUE);
  cl_mem NA = E.buffer(1024, CL_MEM_HOST_NO_ACCESS);
  CHECK(clEnqueueReadBufferRect(E.Q, NA, CL_TRUE, O, O, R, 0, 0, 0, 0,
                                Host.data(), 0, nullptr,
                                nullptr) == CL_INVALID_OPERATION);
  CHECK(clEnqueueWriteBufferRect(E.Q, NA, CL_TRUE, O, O, R, 0, 0, 0, 0,
                                 Host.data(), 0, nullptr,
                                 nullptr) == CL_INVALID_OPERATION);
  CHECK(clFinish(E.Q) == CL_SUCCESS);
  clReleaseMemObject(NA);
  clReleaseMemObject(M);
}

TEST_CASE("5.5.3: map returns a pointer into the buffer (zero copy)",
          "[buffer]") {
  Env E;
  REQUIRE(E.Q);
  std::vector<unsigned char> Host = pattern(4096, 8);
  cl_mem U = E.buffer(Host.size(), CL_MEM_USE_HOST_PTR, Host.data());
  cl_int Err = -1;
  void *P = clEnqueueMapBuffer(E.Q, U, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 100,
                               200, 0, nullptr, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(P == Host.data() + 100);
  CHECK(memInfo<cl_uint>(U, CL_MEM_MAP_COUNT) == 1);
  void *P2 = clEnqueueMapBuffer(E.Q, U, CL_TRUE, CL_MAP_READ, 100, 10, 0,
                                nullptr, nullptr, &Err);
  CHECK(P2 == P);
  CHECK(memInfo<cl_uint>(U, CL_MEM_MAP_COUNT) == 2);
  CHECK(clEnqueueUnmapMemObject(E.Q, U, P, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(clEnqueueUnmapMemObject(E.Q, U, P2, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(clEnqueueUnmapMemObject(E.Q, U, P, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(memInfo<cl_uint>(U, CL_MEM_MAP_COUNT) == 0);

  // A written-through map of an allocated buffer is seen by a read.
  cl_mem M = E.buffer(1 << 16);
  auto *W = static_cast<unsigned char *>(
      clEnqueueMapBuffer(E.Q, M, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0,
                         1 << 16, 0, nullptr, nullptr, &Err));
  REQUIRE(Err == CL_SUCCESS);
  CHECK(reinterpret_cast<uintptr_t>(W) % 128 == 0);
  auto Data = pattern(1 << 16, 77);
  std::memcpy(W, Data.data(), Data.size());
  CHECK(clEnqueueUnmapMemObject(E.Q, M, W, 0, nullptr, nullptr) == CL_SUCCESS);
  std::vector<unsigned char> Got(1 << 16);
  CHECK(clEnqueueReadBuffer(E.Q, M, CL_TRUE, 0, Got.size(), Got.data(), 0,
                            nullptr, nullptr) == CL_SUCCESS);
  CHECK(Got == Data);
  // A sub-buffer map points into the parent's bytes.
  cl_buffer_region R{1024, 1024};
  cl_mem S = clCreateSubBuffer(M, 0, CL_BUFFER_CREATE_TYPE_REGION, &R, &Err);
  auto *SP = static_cast<unsigned char *>(clEnqueueMapBuffer(
      E.Q, S, CL_TRUE, CL_MAP_READ, 8, 8, 0, nullptr, nullptr, &Err));
  REQUIRE(Err == CL_SUCCESS);
  CHECK(SP[0] == Data[1024 + 8]);
  CHECK(clEnqueueUnmapMemObject(E.Q, S, SP, 0, nullptr, nullptr) == CL_SUCCESS);

  // Errors.
  CHECK(clEnqueueMapBuffer(E.Q, M, CL_TRUE, CL_MAP_READ, 0, 0, 0, nullptr,
                           nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clEnqueueMapBuffer(E.Q, M, CL_TRUE, CL_MAP_READ, (1 << 16) - 4, 8, 0,
                           nullptr, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clEnqueueMapBuffer(E.Q, M, CL_TRUE,
                           CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 8,
                           0, nullptr, nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  cl_mem NA = E.buffer(64, CL_MEM_HOST_NO_ACCESS);
  cl_mem RO = E.buffer(64, CL_MEM_HOST_READ_ONLY);
  cl_mem WO = E.buffer(64, CL_MEM_HOST_WRITE_ONLY);
  CHECK(clEnqueueMapBuffer(E.Q, NA, CL_TRUE, CL_MAP_READ, 0, 8, 0, nullptr,
                           nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_OPERATION);
  CHECK(clEnqueueMapBuffer(E.Q, RO, CL_TRUE, CL_MAP_WRITE, 0, 8, 0, nullptr,
                           nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_OPERATION);
  CHECK(clEnqueueMapBuffer(E.Q, WO, CL_TRUE, CL_MAP_READ, 0, 8, 0, nullptr,
                           nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_OPERATION);
  void *Ok = clEnqueueMapBuffer(E.Q, WO, CL_TRUE, CL_MAP_WRITE, 0, 8, 0,
                                nullptr, nullptr, &Err);
  CHECK(Err == CL_SUCCESS);
  CHECK(clEnqueueUnmapMemObject(E.Q, WO, Ok, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  for (cl_mem X : {S, M, U, NA, RO, WO})
    clReleaseMemObject(X);
}

TEST_CASE("5.5.6: clEnqueueMigrateMemObjects validates and completes",
          "[buffer]") {
  Env E;
  REQUIRE(E.Q);
  cl_mem M[2] = {E.buffer(64), E.buffer(64)};
  cl_event Ev = nullptr;
  CHECK(clEnqueueMigrateMemObjects(E.Q, 2, M, CL_MIGRATE_MEM_OBJECT_HOST, 0,
                                   nullptr, &Ev) == CL_SUCCESS);
  REQUIRE(Ev);
  CHECK(clWaitForEvents(1, &Ev) == CL_SUCCESS);
  cl_command_type T = 0;
  clGetEventInfo(Ev, CL_EVENT_COMMAND_TYPE, sizeof T, &T, nullptr);
  CHECK(T == CL_COMMAND_MIGRATE_MEM_OBJECTS);
  clReleaseEvent(Ev);
  CHECK(clEnqueueMigrateMemObjects(E.Q, 0, M, 0, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueMigrateMemObjects(E.Q, 2, nullptr, 0, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueMigrateMemObjects(E.Q, 2, M, 0x100, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  cl_mem Bad[2] = {M[0], nullptr};
  CHECK(clEnqueueMigrateMemObjects(E.Q, 2, Bad, 0, 0, nullptr, nullptr) ==
        CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(M[0]);
  clReleaseMemObject(M[1]);
}

TEST_CASE("5.2.2: a released buffer lives until its commands finish",
          "[buffer]") {
  Env E;
  REQUIRE(E.Q);
  const size_t N = 1 << 22;
  cl_mem M = E.buffer(N);
  unsigned char Pat = 0x5A;
  CHECK(clEnqueueFillBuffer(E.Q, M, &Pat, 1, 0, N, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  std::vector<unsigned char> Got(N);
  cl_event Ev = nullptr;
  CHECK(clEnqueueReadBuffer(E.Q, M, CL_FALSE, 0, N, Got.data(), 0, nullptr,
                            &Ev) == CL_SUCCESS);
  CHECK(clReleaseMemObject(M) == CL_SUCCESS); // commands still in flight
  CHECK(clWaitForEvents(1, &Ev) == CL_SUCCESS);
  clReleaseEvent(Ev);
  CHECK(clFinish(E.Q) == CL_SUCCESS);
  CHECK(std::count(Got.begin(), Got.end(), 0x5A) == static_cast<long>(N));
}

TEST_CASE("5.5.3: maps from several host threads on one buffer", "[buffer]") {
  Env E;
  REQUIRE(E.Q);
  const size_t N = 1 << 16;
  cl_mem M = E.buffer(N);
  const int Threads = 4, Rounds = 200;
  std::vector<int> Errors(Threads, 0);
  std::vector<std::thread> Ts;
  for (int T = 0; T < Threads; ++T)
    Ts.emplace_back([&, T] {
      for (int R = 0; R < Rounds; ++R) {
        cl_int Err = -1;
        size_t Off = static_cast<size_t>(T) * 1024;
        auto *P = static_cast<unsigned char *>(
            clEnqueueMapBuffer(E.Q, M, CL_TRUE, CL_MAP_WRITE, Off, 1024, 0,
                               nullptr, nullptr, &Err));
        if (Err != CL_SUCCESS || !P) {
          ++Errors[T];
          continue;
        }
        P[R % 1024] = static_cast<unsigned char>(T + 1);
        if (clEnqueueUnmapMemObject(E.Q, M, P, 0, nullptr, nullptr) !=
            CL_SUCCESS)
          ++Errors[T];
      }
    });
  for (auto &T : Ts)
    T.join();
  CHECK(clFinish(E.Q) == CL_SUCCESS);
  CHECK(Errors == std::vector<int>(Threads, 0));
  CHECK(memInfo<cl_uint>(M, CL_MEM_MAP_COUNT) == 0);
  std::vector<unsigned char> Got(N);
  CHECK(clEnqueueReadBuffer(E.Q, M, CL_TRUE, 0, N, Got.data(), 0, nullptr,
                            nullptr) == CL_SUCCESS);
  for (int T = 0; T < Threads; ++T)
    CHECK(Got[static_cast<size_t>(T) * 1024 + (Rounds - 1) % 1024] == T + 1);
  clReleaseMemObject(M);
}

TEST_CASE("5.2.2 (page recycler): a released buffer's memory goes to a new "
          "buffer only after the commands that use it finish",
          "[buffer]") {
  // Large buffers' memory is kept for the next buffer of the same size
  // (runtime/PageRecycler.h). Here the first buffer's fill waits on a user
  // event while a second buffer of its size is created from host data: if
  // the release handed the memory over at once, the fill would land in
  // the second buffer.
  Env E;
  REQUIRE(E.Q);
  const size_t N = size_t(16) << 20;
  cl_int Err = -1;
  cl_event Gate = clCreateUserEvent(E.C, &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_mem M1 = E.buffer(N);
  unsigned char Old = 0x11;
  CHECK(clEnqueueFillBuffer(E.Q, M1, &Old, 1, 0, N, 1, &Gate, nullptr) ==
        CL_SUCCESS);
  CHECK(clReleaseMemObject(M1) == CL_SUCCESS);
  std::vector<unsigned char> New = pattern(N, 7);
  cl_mem M2 = E.buffer(N, CL_MEM_COPY_HOST_PTR, New.data());
  CHECK(clSetUserEventStatus(Gate, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clFinish(E.Q) == CL_SUCCESS);
  std::vector<unsigned char> Got(N);
  CHECK(clEnqueueReadBuffer(E.Q, M2, CL_TRUE, 0, N, Got.data(), 0, nullptr,
                            nullptr) == CL_SUCCESS);
  CHECK(Got == New);
  clReleaseMemObject(M2);
  // M1's memory (or M2's) now goes to the next buffer of that size: its
  // contents are the application's copy, and a fill reaches every byte.
  std::vector<unsigned char> Third = pattern(N, 99);
  cl_mem M3 = E.buffer(N, CL_MEM_COPY_HOST_PTR, Third.data());
  CHECK(clEnqueueReadBuffer(E.Q, M3, CL_TRUE, 0, N, Got.data(), 0, nullptr,
                            nullptr) == CL_SUCCESS);
  CHECK(Got == Third);
  unsigned char Zero = 0;
  CHECK(clEnqueueFillBuffer(E.Q, M3, &Zero, 1, 0, N, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  CHECK(clEnqueueReadBuffer(E.Q, M3, CL_TRUE, 0, N, Got.data(), 0, nullptr,
                            nullptr) == CL_SUCCESS);
  CHECK(std::count(Got.begin(), Got.end(), 0) == static_cast<long>(N));
  clReleaseMemObject(M3);
  clReleaseEvent(Gate);
}
