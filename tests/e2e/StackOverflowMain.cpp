// A kernel whose recursion overflows its stack at run time (OpenCL C does
// not allow recursion; Clang compiles it). Each frame holds a private
// array read at computed indices, and the recursive call's result is
// multiplied, then added to: no tail call the optimizer could turn into a
// loop. The process cannot go on, but
// it must say which kernel overflowed: ctest's stack_overflow_report
// expects "kernel 'deep' overflowed its stack" on stderr
// (scheduler/StackGuard.h). Runs through the loader like the e2e tests.

#include "Common.h"

#include <cstdio>

int main() {
  cl_device_id D = clcpuDevice();
  if (!D)
    return 2;
  cl_int Err = CL_SUCCESS;
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err);
  cl_command_queue Q = clCreateCommandQueueWithProperties(C, D, nullptr, &Err);
  const char *Src = R"(
    int down(int n, global int *o) {
      int pad[64];
      for (int i = 0; i < 64; ++i)
        pad[i] = o[i] + n;
      int r = n <= 0 ? 0 : down(n - 1, o);
      return r * pad[(n * 7) & 63] + pad[n & 63];
    }
    kernel void deep(global int *o, int n) { o[get_global_id(0)] = down(n, o); }
  )";
  cl_program P = clCreateProgramWithSource(C, 1, &Src, nullptr, &Err);
  if (clBuildProgram(P, 1, &D, nullptr, nullptr, nullptr) != CL_SUCCESS) {
    std::fprintf(stderr, "build failed\n");
    return 3;
  }
  cl_kernel K = clCreateKernel(P, "deep", &Err);
  cl_mem O =
      clCreateBuffer(C, CL_MEM_READ_WRITE, 64 * sizeof(int), nullptr, &Err);
  int N = 1 << 30; // far more frames than any stack holds
  clSetKernelArg(K, 0, sizeof O, &O);
  clSetKernelArg(K, 1, sizeof N, &N);
  size_t G = 64;
  clEnqueueNDRangeKernel(Q, K, 1, nullptr, &G, nullptr, 0, nullptr, nullptr);
  clFinish(Q);
  std::fprintf(stderr, "the kernel returned\n");
  return 0;
}
