// Stress: many host threads create, use and release their own and shared
// contexts, queues and events at once (OpenCL 3.0 API spec 5.1, 5.11: "all
// OpenCL API calls are thread-safe"). Hidden from the plain e2e run; ctest
// runs it as e2e_stress (also under -DCLCPU_TSAN=ON).

#include "Common.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>

namespace {
struct Failures {
  std::atomic<int> Count{0};
  std::mutex Lock;
  std::string First;
  void check(bool Ok, const char *What, int Line) {
    if (Ok)
      return;
    if (Count.fetch_add(1) == 0) {
      std::lock_guard<std::mutex> G(Lock);
      First = std::string(What) + " (line " + std::to_string(Line) + ")";
    }
  }
};
#define STRESS_CHECK(F, Cond) (F).check((Cond), #Cond, __LINE__)

void CL_CALLBACK countCallback(cl_event, cl_int, void *User) {
  static_cast<std::atomic<int> *>(User)->fetch_add(1);
}

cl_int statusOf(cl_event E) {
  cl_int S = 1;
  clGetEventInfo(E, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof S, &S, nullptr);
  return S;
}
} // namespace

TEST_CASE("5.11: 8 threads x 1000 iterations on own and shared objects",
          "[.][stress]") {
  constexpr int Threads = 8, Iterations = 1000;
  cl_device_id Dev = clcpuDevice();
  REQUIRE(Dev);
  cl_int Err = 0;
  cl_context Shared = clCreateContext(nullptr, 1, &Dev, nullptr, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_command_queue SharedQ = clCreateCommandQueue(Shared, Dev, 0, &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_command_queue SharedOoo = clCreateCommandQueue(
      Shared, Dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_event SharedEvent = clCreateUserEvent(Shared, &Err);
  REQUIRE(Err == CL_SUCCESS);
  REQUIRE(clSetUserEventStatus(SharedEvent, CL_COMPLETE) == CL_SUCCESS);

  Failures F;
  std::atomic<int> Callbacks{0};
  std::atomic<int> Registered{0};
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      for (int I = 0; I < Iterations && F.Count.load() == 0; ++I) {
        cl_int E = 0;
        // Own context and queue (in-order or out-of-order).
        cl_context C = clCreateContext(nullptr, 1, &Dev, nullptr, nullptr, &E);
        STRESS_CHECK(F, E == CL_SUCCESS);
        cl_command_queue Q = clCreateCommandQueue(
            C, Dev, (I & 1) ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0, &E);
        STRESS_CHECK(F, E == CL_SUCCESS);
        cl_event U = clCreateUserEvent(C, &E);
        STRESS_CHECK(F, E == CL_SUCCESS);
        cl_event M1 = nullptr, B = nullptr, M2 = nullptr;
        STRESS_CHECK(F,
                     clEnqueueMarkerWithWaitList(Q, 1, &U, &M1) == CL_SUCCESS);
        STRESS_CHECK(F, clEnqueueBarrierWithWaitList(Q, 0, nullptr, &B) ==
                            CL_SUCCESS);
        STRESS_CHECK(F, clEnqueueMarkerWithWaitList(Q, 0, nullptr, &M2) ==
                            CL_SUCCESS);
        bool Fail = I % 7 == 3;
        STRESS_CHECK(F, clSetUserEventStatus(U, Fail ? -1 : CL_COMPLETE) ==
                            CL_SUCCESS);
        STRESS_CHECK(F, clWaitForEvents(1, &M2) == CL_SUCCESS);
        STRESS_CHECK(F, statusOf(M1) ==
                            (Fail ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
                                  : CL_COMPLETE));

        // Shared context, queues and event.
        STRESS_CHECK(F, clRetainEvent(SharedEvent) == CL_SUCCESS);
        cl_event SU = clCreateUserEvent(Shared, &E);
        STRESS_CHECK(F, E == CL_SUCCESS);
        cl_event Wait[] = {SU, SharedEvent};
        cl_event S1 = nullptr, S2 = nullptr;
        STRESS_CHECK(F, clEnqueueMarkerWithWaitList(SharedQ, 2, Wait, &S1) ==
                            CL_SUCCESS);
        STRESS_CHECK(F, clEnqueueMarkerWithWaitList(SharedOoo, 1, &S1, &S2) ==
                            CL_SUCCESS);
        STRESS_CHECK(F, clSetEventCallback(S2, CL_COMPLETE, countCallback,
                                           &Callbacks) == CL_SUCCESS);
        Registered.fetch_add(1);
        STRESS_CHECK(F, clSetUserEventStatus(SU, CL_COMPLETE) == CL_SUCCESS);
        if (I % 10 == 0)
          STRESS_CHECK(F, clFinish(SharedOoo) == CL_SUCCESS);
        else if (I % 10 == 1)
          STRESS_CHECK(F, clEnqueueBarrierWithWaitList(SharedOoo, 0, nullptr,
                                                       nullptr) == CL_SUCCESS);
        STRESS_CHECK(F, clReleaseEvent(SharedEvent) == CL_SUCCESS);
        // Release some events before they complete.
        for (cl_event Ev : {S1, S2, SU, M1, B, M2, U})
          STRESS_CHECK(F, clReleaseEvent(Ev) == CL_SUCCESS);
        STRESS_CHECK(F, clReleaseCommandQueue(Q) == CL_SUCCESS);
        STRESS_CHECK(F, clReleaseContext(C) == CL_SUCCESS);
        (void)T;
      }
    });
  for (auto &T : Pool)
    T.join();
  INFO(F.First);
  CHECK(F.Count.load() == 0);
  CHECK(clFinish(SharedQ) == CL_SUCCESS);
  CHECK(clFinish(SharedOoo) == CL_SUCCESS);
  // Every CL_COMPLETE callback ran (they may trail the status by a moment).
  for (int I = 0; I < 10000 && Callbacks.load() < Registered.load(); ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK(Callbacks.load() == Threads * Iterations);
  CHECK(clReleaseEvent(SharedEvent) == CL_SUCCESS);
  CHECK(clReleaseCommandQueue(SharedOoo) == CL_SUCCESS);
  CHECK(clReleaseCommandQueue(SharedQ) == CL_SUCCESS);
  CHECK(clReleaseContext(Shared) == CL_SUCCESS);
}

TEST_CASE("5.2, 5.10: 8 threads x 1000 iterations on own and shared buffers "
          "and kernels",
          "[.][stress]") {
  constexpr int Threads = 8, Iterations = 1000, N = 256;
  cl_device_id Dev = clcpuDevice();
  REQUIRE(Dev);
  cl_int Err = 0;
  cl_context Shared = clCreateContext(nullptr, 1, &Dev, nullptr, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_command_queue SharedQ = clCreateCommandQueue(
      Shared, Dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &Err);
  REQUIRE(Err == CL_SUCCESS);
  // One slice of the shared buffer per thread; the alignment rule for
  // sub-buffers is met by 4 KiB slices.
  constexpr size_t Slice = 4096;
  cl_mem SharedBuf =
      clCreateBuffer(Shared, CL_MEM_READ_WRITE, Slice * Threads, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  const char *Src = "__kernel void add(__global int *a, int k) {"
                    "  a[get_global_id(0)] += k; }";
  cl_program Prog = clCreateProgramWithSource(Shared, 1, &Src, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  REQUIRE(clBuildProgram(Prog, 1, &Dev, "", nullptr, nullptr) == CL_SUCCESS);

  Failures F;
  std::atomic<int> Verified{0};
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      cl_int E = 0;
      // A kernel object is not shared between threads (its arguments are
      // per-object state); the program is.
      cl_kernel K = clCreateKernel(Prog, "add", &E);
      STRESS_CHECK(F, E == CL_SUCCESS);
      cl_buffer_region R = {T * Slice, Slice};
      cl_mem Sub = clCreateSubBuffer(SharedBuf, CL_MEM_READ_WRITE,
                                     CL_BUFFER_CREATE_TYPE_REGION, &R, &E);
      STRESS_CHECK(F, E == CL_SUCCESS);
      std::vector<int> Host(N), Back(N);
      for (int I = 0; I < Iterations && F.Count.load() == 0; ++I) {
        for (int J = 0; J < N; ++J)
          Host[J] = T * 100000 + I * 10 + J;
        // Own buffer: write, kernel, copy into the shared slice, read back.
        cl_mem Own = clCreateBuffer(Shared, CL_MEM_READ_WRITE, N * sizeof(int),
                                    nullptr, &E);
        STRESS_CHECK(F, E == CL_SUCCESS);
        cl_event W = nullptr, Kd = nullptr, C = nullptr;
        STRESS_CHECK(F, clEnqueueWriteBuffer(SharedQ, Own, CL_FALSE, 0,
                                             N * sizeof(int), Host.data(), 0,
                                             nullptr, &W) == CL_SUCCESS);
        int Add = 3;
        STRESS_CHECK(F, clSetKernelArg(K, 0, sizeof Own, &Own) == CL_SUCCESS);
        STRESS_CHECK(F, clSetKernelArg(K, 1, sizeof Add, &Add) == CL_SUCCESS);
        size_t G = N;
        STRESS_CHECK(F,
                     clEnqueueNDRangeKernel(SharedQ, K, 1, nullptr, &G, nullptr,
                                            1, &W, &Kd) == CL_SUCCESS);
        STRESS_CHECK(F, clEnqueueCopyBuffer(SharedQ, Own, Sub, 0, 0,
                                            N * sizeof(int), 1, &Kd,
                                            &C) == CL_SUCCESS);
        // Released while its commands may still be in flight.
        STRESS_CHECK(F, clReleaseMemObject(Own) == CL_SUCCESS);
        STRESS_CHECK(F, clEnqueueReadBuffer(SharedQ, Sub, CL_TRUE, 0,
                                            N * sizeof(int), Back.data(), 1, &C,
                                            nullptr) == CL_SUCCESS);
        bool Same = true;
        for (int J = 0; J < N; ++J)
          Same &= Back[J] == Host[J] + Add;
        STRESS_CHECK(F, Same);
        Verified.fetch_add(Same ? 1 : 0);
        // Map the slice and check it in place.
        int *P = static_cast<int *>(
            clEnqueueMapBuffer(SharedQ, Sub, CL_TRUE, CL_MAP_READ, 0,
                               N * sizeof(int), 0, nullptr, nullptr, &E));
        STRESS_CHECK(F, E == CL_SUCCESS && P && P[N - 1] == Host[N - 1] + Add);
        STRESS_CHECK(F, clEnqueueUnmapMemObject(SharedQ, Sub, P, 0, nullptr,
                                                nullptr) == CL_SUCCESS);
        for (cl_event Ev : {W, Kd, C})
          STRESS_CHECK(F, clReleaseEvent(Ev) == CL_SUCCESS);
      }
      STRESS_CHECK(F, clFinish(SharedQ) == CL_SUCCESS);
      STRESS_CHECK(F, clReleaseMemObject(Sub) == CL_SUCCESS);
      STRESS_CHECK(F, clReleaseKernel(K) == CL_SUCCESS);
    });
  for (auto &T : Pool)
    T.join();
  INFO(F.First);
  CHECK(F.Count.load() == 0);
  CHECK(Verified.load() == Threads * Iterations);
  CHECK(clFinish(SharedQ) == CL_SUCCESS);
  CHECK(clReleaseProgram(Prog) == CL_SUCCESS);
  CHECK(clReleaseMemObject(SharedBuf) == CL_SUCCESS);
  CHECK(clReleaseCommandQueue(SharedQ) == CL_SUCCESS);
  CHECK(clReleaseContext(Shared) == CL_SUCCESS);
}
