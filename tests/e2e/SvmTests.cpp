// End-to-end: shared virtual memory through the ICD loader (OpenCL 3.0 API
// spec, 5.6 "Shared Virtual Memory").

#include "Common.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {
struct SvmEnv {
  cl_device_id D = clcpuDevice();
  cl_context C = nullptr;
  cl_command_queue Q = nullptr;
  SvmEnv() {
    C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, nullptr);
    Q = clCreateCommandQueueWithProperties(C, D, nullptr, nullptr);
  }
  ~SvmEnv() {
    if (Q)
      clReleaseCommandQueue(Q);
    if (C)
      clReleaseContext(C);
  }
};

struct FreeRecord {
  cl_command_queue Queue = nullptr;
  std::vector<void *> Ptrs;
};
void CL_CALLBACK recordFree(cl_command_queue Q, cl_uint N, void *Ptrs[],
                            void *User) {
  auto *R = static_cast<FreeRecord *>(User);
  R->Queue = Q;
  R->Ptrs.assign(Ptrs, Ptrs + N);
}
} // namespace

TEST_CASE("5.6: the device reports fine-grain system SVM with atomics",
          "[svm]") {
  auto Caps = deviceInfo<cl_device_svm_capabilities>(
      clcpuDevice(), CL_DEVICE_SVM_CAPABILITIES);
  CHECK(Caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER);
  CHECK(Caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER);
  CHECK(Caps & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM);
  CHECK(Caps & CL_DEVICE_SVM_ATOMICS);
}

TEST_CASE("5.6.1: clSVMAlloc returns NULL for invalid values", "[svm]") {
  SvmEnv E;
  REQUIRE(E.C);
  CHECK(clSVMAlloc(nullptr, 0, 64, 0) == nullptr);
  CHECK(clSVMAlloc(E.C, 0, 0, 0) == nullptr);
  cl_ulong Max = deviceInfo<cl_ulong>(E.D, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  CHECK(clSVMAlloc(E.C, 0, static_cast<size_t>(Max) + 1, 0) == nullptr);
  CHECK(clSVMAlloc(E.C, 0, 64, 3) == nullptr);
  CHECK(clSVMAlloc(E.C, 0, 64, 8192) == nullptr);
  CHECK(clSVMAlloc(E.C, CL_MEM_SVM_ATOMICS, 64, 0) == nullptr);
  CHECK(clSVMAlloc(E.C, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, 0) ==
        nullptr);
  CHECK(clSVMAlloc(E.C, CL_MEM_USE_HOST_PTR, 64, 0) == nullptr);
  for (cl_uint Align : {0u, 1u, 16u, 128u, 4096u}) {
    for (cl_svm_mem_flags F :
         {cl_svm_mem_flags(0), cl_svm_mem_flags(CL_MEM_READ_ONLY),
          cl_svm_mem_flags(CL_MEM_SVM_FINE_GRAIN_BUFFER),
          cl_svm_mem_flags(CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS |
                           CL_MEM_WRITE_ONLY)}) {
      auto *P = static_cast<unsigned char *>(clSVMAlloc(E.C, F, 1000, Align));
      REQUIRE(P);
      if (Align)
        CHECK(reinterpret_cast<uintptr_t>(P) % Align == 0);
      std::memset(P, 1, 1000); // the host can use it directly
      clSVMFree(E.C, P);
    }
  }
  clSVMFree(E.C, nullptr); // no action
}

TEST_CASE("5.6.2: SVM memcpy, fill, map and unmap", "[svm]") {
  SvmEnv E;
  REQUIRE(E.Q);
  const size_t N = 1 << 16;
  auto *A = static_cast<unsigned char *>(clSVMAlloc(E.C, 0, N, 0));
  auto *B = static_cast<unsigned char *>(
      clSVMAlloc(E.C, CL_MEM_SVM_FINE_GRAIN_BUFFER, N, 0));
  REQUIRE(A);
  REQUIRE(B);
  CHECK(clEnqueueSVMMap(E.Q, CL_TRUE, CL_MAP_WRITE, A, N, 0, nullptr,
                        nullptr) == CL_SUCCESS);
  for (size_t I = 0; I < N; ++I)
    A[I] = static_cast<unsigned char>(I * 13);
  CHECK(clEnqueueSVMUnmap(E.Q, A, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(clEnqueueSVMMemcpy(E.Q, CL_TRUE, B, A, N, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  CHECK(std::memcmp(A, B, N) == 0);
  CHECK(clEnqueueSVMMemcpy(E.Q, CL_TRUE, A + 10, A, 11, 0, nullptr, nullptr) ==
        CL_MEM_COPY_OVERLAP);
  CHECK(clEnqueueSVMMemcpy(E.Q, CL_TRUE, A + 10, A, 10, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  CHECK(A[10] == A[0]);
  CHECK(clEnqueueSVMMemcpy(E.Q, CL_TRUE, nullptr, A, 10, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemcpy(E.Q, CL_TRUE, A, nullptr, 10, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  // Fine-grain system SVM: plain host memory works too.
  std::vector<unsigned char> Host(N);
  CHECK(clEnqueueSVMMemcpy(E.Q, CL_TRUE, Host.data(), B, N, 0, nullptr,
                           nullptr) == CL_SUCCESS);
  CHECK(std::memcmp(Host.data(), B, N) == 0);

  uint32_t Pat = 0xA1B2C3D4;
  CHECK(clEnqueueSVMMemFill(E.Q, B + 64, &Pat, 4, 256, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  CHECK(clFinish(E.Q) == CL_SUCCESS);
  bool Ok = true;
  for (size_t I = 0; I < 64; ++I) {
    uint32_t V;
    std::memcpy(&V, B + 64 + 4 * I, 4);
    Ok &= V == Pat;
  }
  CHECK(Ok);
  CHECK(B[63] == Host[63]);
  CHECK(B[64 + 256] == Host[64 + 256]);
  CHECK(clEnqueueSVMMemFill(E.Q, B + 2, &Pat, 4, 8, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemFill(E.Q, B, &Pat, 4, 6, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemFill(E.Q, B, &Pat, 3, 6, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemFill(E.Q, B, nullptr, 4, 8, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemFill(E.Q, nullptr, &Pat, 4, 8, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMap(E.Q, CL_TRUE, CL_MAP_READ, nullptr, 8, 0, nullptr,
                        nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMap(E.Q, CL_TRUE, CL_MAP_READ, A, 0, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMap(E.Q, CL_TRUE, 0x40, A, 8, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMUnmap(E.Q, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMemcpy(nullptr, CL_TRUE, B, A, 8, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
  clSVMFree(E.C, A);
  clSVMFree(E.C, B);
}

TEST_CASE("5.6.2: SVM migrate and free commands", "[svm]") {
  SvmEnv E;
  REQUIRE(E.Q);
  auto *A = static_cast<char *>(clSVMAlloc(E.C, 0, 4096, 0));
  REQUIRE(A);
  const void *Ptrs[2] = {A, A + 100};
  size_t Sizes[2] = {4096, 3996};
  CHECK(clEnqueueSVMMigrateMem(E.Q, 2, Ptrs, Sizes, 0, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  CHECK(clEnqueueSVMMigrateMem(E.Q, 2, Ptrs, nullptr,
                               CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr,
                               nullptr) == CL_SUCCESS);
  size_t TooBig[2] = {4096, 3997};
  CHECK(clEnqueueSVMMigrateMem(E.Q, 2, Ptrs, TooBig, 0, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMigrateMem(E.Q, 0, Ptrs, Sizes, 0, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMigrateMem(E.Q, 2, nullptr, Sizes, 0, 0, nullptr,
                               nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueSVMMigrateMem(E.Q, 2, Ptrs, Sizes, 0x80, 0, nullptr,
                               nullptr) == CL_INVALID_VALUE);

  // With a callback: the callback receives the list and frees nothing itself.
  FreeRecord R;
  void *List[1] = {A};
  cl_event Ev = nullptr;
  CHECK(clEnqueueSVMFree(E.Q, 1, List, recordFree, &R, 0, nullptr, &Ev) ==
        CL_SUCCESS);
  REQUIRE(Ev);
  CHECK(clWaitForEvents(1, &Ev) == CL_SUCCESS);
  clReleaseEvent(Ev);
  CHECK(R.Queue == E.Q);
  REQUIRE(R.Ptrs.size() == 1);
  CHECK(R.Ptrs[0] == A);
  // Without one: the driver frees it (and a later migrate no longer finds it).
  CHECK(clEnqueueSVMFree(E.Q, 1, List, nullptr, nullptr, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  CHECK(clFinish(E.Q) == CL_SUCCESS);
  CHECK(clEnqueueSVMMigrateMem(E.Q, 1, Ptrs, Sizes, 0, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMFree(E.Q, 0, List, nullptr, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clEnqueueSVMFree(E.Q, 1, nullptr, nullptr, nullptr, 0, nullptr,
                         nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("5.6: a buffer over an SVM pointer reports CL_MEM_USES_SVM_POINTER",
          "[svm]") {
  SvmEnv E;
  REQUIRE(E.C);
  void *P = clSVMAlloc(E.C, 0, 1024, 0);
  REQUIRE(P);
  cl_int Err = -1;
  cl_mem M = clCreateBuffer(E.C, CL_MEM_USE_HOST_PTR, 512,
                            static_cast<char *>(P) + 256, &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_bool Uses = CL_FALSE;
  CHECK(clGetMemObjectInfo(M, CL_MEM_USES_SVM_POINTER, sizeof Uses, &Uses,
                           nullptr) == CL_SUCCESS);
  CHECK(Uses == CL_TRUE);
  clReleaseMemObject(M);
  clSVMFree(E.C, P);
}
