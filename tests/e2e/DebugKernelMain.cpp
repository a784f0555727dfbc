// A kernel built with -g -cl-opt-disable, for ctest's gdb_kernel_session
// (issue: debugging kernels in gdb): gdb sets a breakpoint on the kernel by
// name, steps through its OpenCL C lines and prints a private variable and
// the work-item's id (compiler/passes/WorkGroupDebugInfo.cpp,
// compiler/passes/WorkItemDebugVariables.cpp). One work-item, at global
// offset 7, so that every value gdb prints is known. Runs through the
// loader like the e2e tests.

#include "Common.h"

#include <cstdio>

int main() {
  cl_device_id D = clcpuDevice();
  if (!D)
    return 2;
  cl_int Err = CL_SUCCESS;
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err);
  cl_command_queue Q = clCreateCommandQueueWithProperties(C, D, nullptr, &Err);
  // Line numbers matter: gdb_kernel_session expects the breakpoint on line 2
  // and `twice` assigned on line 3.
  const char *Src = "kernel void debug_scale(global float *out, float k) {\n"
                    "  size_t i = get_global_id(0);\n"
                    "  float twice = k * 2.0f;\n"
                    "  out[i - 7] = twice + 1.0f;\n"
                    "}\n";
  cl_program P = clCreateProgramWithSource(C, 1, &Src, nullptr, &Err);
  if (clBuildProgram(P, 1, &D, "-g -cl-opt-disable", nullptr, nullptr) !=
      CL_SUCCESS) {
    std::fprintf(stderr, "build failed\n");
    return 3;
  }
  cl_kernel K = clCreateKernel(P, "debug_scale", &Err);
  cl_mem O = clCreateBuffer(C, CL_MEM_READ_WRITE, sizeof(float), nullptr, &Err);
  float Factor = 10.5f;
  clSetKernelArg(K, 0, sizeof O, &O);
  clSetKernelArg(K, 1, sizeof Factor, &Factor);
  size_t Offset = 7, G = 1;
  clEnqueueNDRangeKernel(Q, K, 1, &Offset, &G, nullptr, 0, nullptr, nullptr);
  float Out = 0;
  clEnqueueReadBuffer(Q, O, CL_TRUE, 0, sizeof Out, &Out, 0, nullptr, nullptr);
  std::printf("out = %g\n", Out);
  return Out == 22.0f ? 0 : 1;
}
