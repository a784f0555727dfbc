// A kernel that writes through a wild pointer (a hardware fault, not an
// OpenCL error): the process cannot go on, but it must say which kernel and
// work-group faulted, on stderr and through the context's pfn_notify
// (scheduler/StackGuard.h). ctest's kernel_fault_report checks the message.
// Only work-group 3 (of 8 groups of one work-item) writes.

#include "Common.h"

#include <cstdio>

namespace {
void CL_CALLBACK notify(const char *Message, const void *, size_t, void *) {
  std::fprintf(stderr, "pfn_notify: %s\n", Message);
}
} // namespace

int main() {
  cl_device_id D = clcpuDevice();
  if (!D)
    return 2;
  cl_int Err = CL_SUCCESS;
  cl_context C = clCreateContext(nullptr, 1, &D, notify, nullptr, &Err);
  cl_command_queue Q = clCreateCommandQueueWithProperties(C, D, nullptr, &Err);
  const char *Src = R"(
    kernel void wild_write(global int *o, ulong address) {
      if (get_global_id(0) == 3)
        *(volatile global int *)address = 1;
      o[get_global_id(0)] = 0;
    }
  )";
  cl_program P = clCreateProgramWithSource(C, 1, &Src, nullptr, &Err);
  if (clBuildProgram(P, 1, &D, nullptr, nullptr, nullptr) != CL_SUCCESS) {
    std::fprintf(stderr, "build failed\n");
    return 3;
  }
  cl_kernel K = clCreateKernel(P, "wild_write", &Err);
  cl_mem O =
      clCreateBuffer(C, CL_MEM_READ_WRITE, 8 * sizeof(int), nullptr, &Err);
  cl_ulong Address = 16; // the first page is never mapped
  clSetKernelArg(K, 0, sizeof O, &O);
  clSetKernelArg(K, 1, sizeof Address, &Address);
  size_t G = 8, L = 1;
  clEnqueueNDRangeKernel(Q, K, 1, nullptr, &G, &L, 0, nullptr, nullptr);
  clFinish(Q);
  std::fprintf(stderr, "the kernel returned\n");
  return 0;
}
