// End-to-end: the bounds-check mode (-fclcpu-check-bounds,
// compiler/passes/CheckBounds.cpp, docs/DEBUGGING.md) through the ICD
// loader. Each overrun is by one element (or one below the start); the
// report, through the context's pfn_notify, must name the kernel, the
// work-item, the argument or variable and the offset; the command must end
// with CL_OUT_OF_RESOURCES; memory outside the object must be untouched; and
// a correct kernel must run to its results with no report.

#include "Common.h"

#include <catch2/catch.hpp>

#include <mutex>
#include <string>
#include <vector>

namespace {

/// A context whose pfn_notify messages are kept.
struct Checked {
  cl_device_id D = clcpuDevice();
  cl_context C = nullptr;
  cl_command_queue Q = nullptr;
  std::mutex Lock;
  std::vector<std::string> Messages;

  static void CL_CALLBACK notify(const char *M, const void *, size_t,
                                 void *Self) {
    auto *T = static_cast<Checked *>(Self);
    std::lock_guard<std::mutex> G(T->Lock);
    T->Messages.push_back(M);
  }

  Checked() {
    cl_int Err = CL_SUCCESS;
    C = clCreateContext(nullptr, 1, &D, notify, this, &Err);
    REQUIRE(Err == CL_SUCCESS);
    Q = clCreateCommandQueueWithProperties(C, D, nullptr, &Err);
    REQUIRE(Err == CL_SUCCESS);
  }
  ~Checked() {
    clReleaseCommandQueue(Q);
    clReleaseContext(C);
  }

  cl_kernel kernel(const char *Src, const char *Name,
                   const char *Options = "-fclcpu-check-bounds") {
    cl_int Err = CL_SUCCESS;
    cl_program P = clCreateProgramWithSource(C, 1, &Src, nullptr, &Err);
    REQUIRE(Err == CL_SUCCESS);
    Err = clBuildProgram(P, 1, &D, Options, nullptr, nullptr);
    if (Err != CL_SUCCESS) {
      char Log[4096] = {};
      clGetProgramBuildInfo(P, D, CL_PROGRAM_BUILD_LOG, sizeof Log, Log,
                            nullptr);
      FAIL(Log);
    }
    cl_kernel K = clCreateKernel(P, Name, &Err);
    REQUIRE(Err == CL_SUCCESS);
    clReleaseProgram(P);
    return K;
  }

  cl_mem buffer(size_t Bytes, const void *Init = nullptr) {
    cl_int Err = CL_SUCCESS;
    cl_mem M =
        clCreateBuffer(C, CL_MEM_READ_WRITE | (Init ? CL_MEM_COPY_HOST_PTR : 0),
                       Bytes, const_cast<void *>(Init), &Err);
    REQUIRE(Err == CL_SUCCESS);
    return M;
  }

  /// Runs \p K over \p Global items in groups of \p Local; the event's
  /// final status.
  cl_int run(cl_kernel K, size_t Global, size_t Local) {
    cl_event E = nullptr;
    REQUIRE(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 0,
                                   nullptr, &E) == CL_SUCCESS);
    clWaitForEvents(1, &E);
    cl_int Status = 0;
    clGetEventInfo(E, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof Status, &Status,
                   nullptr);
    clReleaseEvent(E);
    return Status;
  }

  std::string report() {
    std::lock_guard<std::mutex> G(Lock);
    std::string All;
    for (const std::string &M : Messages)
      All += M + "\n";
    return All;
  }
};

bool has(const std::string &Text, const std::string &Part) {
  return Text.find(Part) != std::string::npos;
}

constexpr size_t N = 64;

} // namespace

TEST_CASE("Bounds check: a __global store one element past the buffer is "
          "skipped and reported with kernel, work-item, argument and offset",
          "[bounds_check]") {
  Checked T;
  cl_kernel K = T.kernel(R"(
    kernel void copy_up(global float *out, global const float *in) {
      size_t i = get_global_id(0);
      out[i] = in[i - (i == 64 ? 64 : 0)] + 1.0f;
    })",
                         "copy_up");
  // The output is a sub-buffer of N elements inside a larger parent: the
  // element past its end is in bounds of the parent only, and must stay.
  std::vector<float> Parent(2 * N, -5.0f), In(N, 2.0f);
  cl_mem Big = T.buffer(Parent.size() * sizeof(float), Parent.data());
  cl_buffer_region R{0, N * sizeof(float)};
  cl_int Err = CL_SUCCESS;
  cl_mem Out =
      clCreateSubBuffer(Big, 0, CL_BUFFER_CREATE_TYPE_REGION, &R, &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_mem InBuf = T.buffer(N * sizeof(float), In.data());
  clSetKernelArg(K, 0, sizeof Out, &Out);
  clSetKernelArg(K, 1, sizeof InBuf, &InBuf);
  CHECK(T.run(K, N + 1, N + 1) == CL_OUT_OF_RESOURCES);
  std::string Report = T.report();
  INFO(Report);
  CHECK(has(Report, "kernel 'copy_up', work-item (64,0,0) (local (64,0,0), "
                    "group (0,0,0)): store of 4 bytes to argument 0 'out'"));
  CHECK(has(Report, "offset 256 of an object of 256 bytes"));
  clEnqueueReadBuffer(T.Q, Big, CL_TRUE, 0, Parent.size() * sizeof(float),
                      Parent.data(), 0, nullptr, nullptr);
  CHECK(Parent[N] == -5.0f); // the parent's element past the sub-buffer
  CHECK(Parent[N - 1] == 3.0f);
  clReleaseMemObject(Out);
  clReleaseMemObject(Big);
  clReleaseMemObject(InBuf);
  clReleaseKernel(K);
}

TEST_CASE("Bounds check: a __global load one element before the buffer (a "
          "negative offset) is reported, with its source line under -g",
          "[bounds_check]") {
  Checked T;
  cl_kernel K = T.kernel(R"(
    kernel void shift_down(global int *out, global const int *in) {
      int i = get_global_id(0);
      out[i] = in[i - 1];
    })",
                         "shift_down", "-g -fclcpu-check-bounds");
  std::vector<int> In(N, 7);
  cl_mem InBuf = T.buffer(N * sizeof(int), In.data());
  cl_mem Out = T.buffer(N * sizeof(int));
  clSetKernelArg(K, 0, sizeof Out, &Out);
  clSetKernelArg(K, 1, sizeof InBuf, &InBuf);
  CHECK(T.run(K, N, 16) == CL_OUT_OF_RESOURCES);
  std::string Report = T.report();
  INFO(Report);
  CHECK(has(Report, "kernel 'shift_down', work-item (0,0,0)"));
  CHECK(has(Report, "load of 4 bytes from argument 1 'in' at "));
  CHECK(has(Report, "/input.cl:4:16: offset -4 of an object of 256 bytes"));
  clReleaseMemObject(InBuf);
  clReleaseMemObject(Out);
  clReleaseKernel(K);
}

TEST_CASE("Bounds check: __local variable and __local argument overruns are "
          "reported with the variable or argument",
          "[bounds_check]") {
  Checked T;
  cl_kernel K = T.kernel(R"(
    kernel void tile_var(global int *out, int extra) {
      local int tile[16];
      size_t l = get_local_id(0);
      tile[l + (l == 15 ? extra : 0)] = (int)l;
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = tile[l];
    }
    kernel void tile_arg(global int *out, local int *tile, int extra) {
      size_t l = get_local_id(0);
      tile[l + (l == 15 ? extra : 0)] = (int)l;
      out[get_global_id(0)] = tile[l];
    })",
                         "tile_var");
  cl_mem Out = T.buffer(N * sizeof(int));
  int Extra = 1;
  clSetKernelArg(K, 0, sizeof Out, &Out);
  clSetKernelArg(K, 1, sizeof Extra, &Extra);
  CHECK(T.run(K, N, 16) == CL_OUT_OF_RESOURCES);
  std::string Report = T.report();
  INFO(Report);
  CHECK(has(Report, "kernel 'tile_var', work-item (15,0,0)"));
  CHECK(has(Report, "store of 4 bytes to __local variable 'tile' (64 bytes)"));
  CHECK(has(Report, "offset 64 of an object of 64 bytes"));

  cl_int Err = CL_SUCCESS;
  cl_program P = nullptr;
  clGetKernelInfo(K, CL_KERNEL_PROGRAM, sizeof P, &P, nullptr);
  cl_kernel A = clCreateKernel(P, "tile_arg", &Err);
  REQUIRE(Err == CL_SUCCESS);
  clSetKernelArg(A, 0, sizeof Out, &Out);
  clSetKernelArg(A, 1, 16 * sizeof(int), nullptr);
  clSetKernelArg(A, 2, sizeof Extra, &Extra);
  CHECK(T.run(A, N, 16) == CL_OUT_OF_RESOURCES);
  Report = T.report();
  CHECK(has(Report, "kernel 'tile_arg', work-item (15,0,0)"));
  CHECK(has(Report, "store of 4 bytes to argument 1 'tile'"));
  clReleaseKernel(A);
  clReleaseMemObject(Out);
  clReleaseKernel(K);
}

TEST_CASE("Bounds check: a private array overrun is reported with the "
          "variable",
          "[bounds_check]") {
  Checked T;
  cl_kernel K = T.kernel(R"(
    kernel void private_sum(global int *out, int n) {
      int acc[4] = {1, 2, 3, 4};
      int s = 0;
      for (int k = 0; k <= n; ++k)
        s += acc[k];
      out[get_global_id(0)] = s;
    })",
                         "private_sum");
  cl_mem Out = T.buffer(N * sizeof(int));
  int Last = 4; // reads acc[4]
  clSetKernelArg(K, 0, sizeof Out, &Out);
  clSetKernelArg(K, 1, sizeof Last, &Last);
  CHECK(T.run(K, N, 16) == CL_OUT_OF_RESOURCES);
  std::string Report = T.report();
  INFO(Report);
  CHECK(has(Report, "kernel 'private_sum', work-item (0,0,0)"));
  CHECK(has(Report, "load of 4 bytes from private variable 'acc' (16 bytes)"));
  CHECK(has(Report, "offset 16 of an object of 16 bytes"));
  clReleaseMemObject(Out);
  clReleaseKernel(K);
}

TEST_CASE("Bounds check: an SVM allocation overrun is reported",
          "[bounds_check]") {
  Checked T;
  cl_kernel K = T.kernel(R"(
    kernel void svm_fill(global int *data) {
      size_t i = get_global_id(0);
      data[i] = (int)i;
    })",
                         "svm_fill", "-cl-std=CL2.0 -fclcpu-check-bounds");
  // Two allocations side by side: the overrun of the first must not reach
  // the second.
  int *Data = static_cast<int *>(
      clSVMAlloc(T.C, CL_MEM_READ_WRITE, N * sizeof(int), 0));
  REQUIRE(Data);
  clSetKernelArgSVMPointer(K, 0, Data);
  CHECK(T.run(K, N + 1, 1) == CL_OUT_OF_RESOURCES);
  std::string Report = T.report();
  INFO(Report);
  CHECK(has(Report, "kernel 'svm_fill', work-item (64,0,0)"));
  CHECK(has(Report, "store of 4 bytes to argument 0 'data'"));
  CHECK(has(Report, "offset 256 of an object of 256 bytes"));
  clSVMFree(T.C, Data);
  clReleaseKernel(K);
}

TEST_CASE("Bounds check: an integer division by zero is reported with the "
          "kernel",
          "[bounds_check]") {
  Checked T;
  cl_kernel K = T.kernel(R"(
    kernel void divide(global int *out, int d) {
      size_t i = get_global_id(0);
      out[i] = (int)i / (d - (int)(i == 5 ? d : 0));
    })",
                         "divide");
  cl_mem Out = T.buffer(N * sizeof(int));
  int Divisor = 3;
  clSetKernelArg(K, 0, sizeof Out, &Out);
  clSetKernelArg(K, 1, sizeof Divisor, &Divisor);
  CHECK(T.run(K, N, 16) == CL_OUT_OF_RESOURCES);
  std::string Report = T.report();
  INFO(Report);
  CHECK(has(Report, "kernel 'divide', work-item (5,0,0)"));
  CHECK(has(Report, "integer division by zero"));
  clReleaseMemObject(Out);
  clReleaseKernel(K);
}

TEST_CASE("Bounds check: a correct kernel with barriers, __local memory and "
          "private arrays runs to its results with no report",
          "[bounds_check]") {
  Checked T;
  cl_kernel K = T.kernel(R"(
    kernel void reverse_tiles(global int *out, global const int *in,
                              local int *scratch) {
      local int tile[16];
      int priv[3];
      size_t l = get_local_id(0), g = get_global_id(0);
      tile[l] = in[g];
      scratch[l] = in[g] * 2;
      for (int k = 0; k < 3; ++k)
        priv[k] = k;
      barrier(CLK_LOCAL_MEM_FENCE);
      out[g] = tile[15 - l] + scratch[15 - l] + priv[(int)l % 3];
    })",
                         "reverse_tiles");
  std::vector<int> In(N), Out(N, -1);
  for (size_t I = 0; I < N; ++I)
    In[I] = int(I);
  cl_mem InBuf = T.buffer(N * sizeof(int), In.data());
  cl_mem OutBuf = T.buffer(N * sizeof(int));
  clSetKernelArg(K, 0, sizeof OutBuf, &OutBuf);
  clSetKernelArg(K, 1, sizeof InBuf, &InBuf);
  clSetKernelArg(K, 2, 16 * sizeof(int), nullptr);
  CHECK(T.run(K, N, 16) == CL_COMPLETE);
  clEnqueueReadBuffer(T.Q, OutBuf, CL_TRUE, 0, N * sizeof(int), Out.data(), 0,
                      nullptr, nullptr);
  for (size_t I = 0; I < N; ++I) {
    size_t Mirror = I / 16 * 16 + 15 - I % 16;
    CHECK(Out[I] == 3 * int(Mirror) + int(I % 16) % 3);
  }
  CHECK(T.report().empty());
  clReleaseMemObject(InBuf);
  clReleaseMemObject(OutBuf);
  clReleaseKernel(K);
}

// Loops whose accesses move by a step per iteration are versioned
// (CheckBounds.cpp): a work-item whose whole range lies in the buffer runs
// the unchecked copy, any other the checked loop. The guard makes a range
// that reaches past the buffer harmless (no report); without it, only the
// last work-item's last element is outside.
TEST_CASE("Bounds check: a loop over k elements per work-item checks its "
          "range once, reports the one work-item that overruns and leaves a "
          "guarded range alone",
          "[bounds_check]") {
  Checked T;
  cl_kernel K = T.kernel(R"(
    kernel void chunk_sums(global int *out, global const int *in, int n,
                           int k, int guarded) {
      int base = get_global_id(0) * k;
      int s = 0;
      for (int j = 0; j < k; ++j)
        if (!guarded || base + j < n)
          s += in[base + j];
      out[get_global_id(0)] = s;
    })",
                         "chunk_sums");
  const int Per = 24;
  const int Count = int(N) * Per - 1; // the last work-item's last is missing
  std::vector<int> In(Count);
  for (int I = 0; I < Count; ++I)
    In[I] = I % 7 + 1;
  cl_mem InBuf = T.buffer(In.size() * sizeof(int), In.data());
  cl_mem OutBuf = T.buffer(N * sizeof(int));
  auto expect = [&](size_t Item) {
    int S = 0;
    for (int J = 0; J < Per; ++J)
      if (int(Item) * Per + J < Count)
        S += In[Item * Per + J];
    return S;
  };
  for (int Guarded : {1, 0}) {
    INFO("guarded " << Guarded);
    clSetKernelArg(K, 0, sizeof OutBuf, &OutBuf);
    clSetKernelArg(K, 1, sizeof InBuf, &InBuf);
    clSetKernelArg(K, 2, sizeof Count, &Count);
    clSetKernelArg(K, 3, sizeof Per, &Per);
    clSetKernelArg(K, 4, sizeof Guarded, &Guarded);
    CHECK(T.run(K, N, 16) == (Guarded ? CL_COMPLETE : CL_OUT_OF_RESOURCES));
    std::vector<int> Out(N, -1);
    clEnqueueReadBuffer(T.Q, OutBuf, CL_TRUE, 0, N * sizeof(int), Out.data(), 0,
                        nullptr, nullptr);
    // The skipped load reads as 0: the last sum is that of the rest.
    for (size_t I = 0; I < N; ++I)
      CHECK(Out[I] == expect(I));
    std::string Report = T.report();
    INFO(Report);
    if (Guarded) {
      CHECK(Report.empty());
    } else {
      CHECK(has(Report, "kernel 'chunk_sums', work-item (63,0,0)"));
      CHECK(has(Report, "load of 4 bytes from argument 1 'in'"));
      CHECK(has(Report, "offset " + std::to_string(Count * 4) +
                            " of an object of " + std::to_string(Count * 4) +
                            " bytes"));
      CHECK(!has(Report, "work-item (62,0,0)"));
    }
  }
  clReleaseMemObject(InBuf);
  clReleaseMemObject(OutBuf);
  clReleaseKernel(K);
}

// Run by ctest's e2e_check_bounds_env with CLCPU_CHECK_BOUNDS=1: a program
// built without the option is checked all the same.
TEST_CASE("Bounds check: CLCPU_CHECK_BOUNDS=1 checks a program built "
          "without the option",
          "[.check-bounds-env]") {
  Checked T;
  cl_kernel K = T.kernel(R"(
    kernel void plain_copy(global int *out, global const int *in) {
      size_t i = get_global_id(0);
      out[i] = in[i];
    })",
                         "plain_copy", "");
  std::vector<int> In(N, 1);
  cl_mem InBuf = T.buffer(N * sizeof(int), In.data());
  cl_mem Out = T.buffer(N * sizeof(int));
  clSetKernelArg(K, 0, sizeof Out, &Out);
  clSetKernelArg(K, 1, sizeof InBuf, &InBuf);
  CHECK(T.run(K, N + 16, 16) == CL_OUT_OF_RESOURCES);
  std::string Report = T.report();
  INFO(Report);
  CHECK(has(Report, "kernel 'plain_copy', work-item (64,0,0)"));
  CHECK(has(Report, "load of 4 bytes from argument 1 'in'"));
  clReleaseMemObject(InBuf);
  clReleaseMemObject(Out);
  clReleaseKernel(K);
}
