// End-to-end: cl_khr_command_buffer 0.9.8 through the ICD loader (OpenCL
// API spec, "Command-Buffers"): the device queries, every entry point,
// sync points, replays (many, simultaneous, on a substitute queue, waiting
// for events, profiled), the kernel-argument snapshot taken at recording,
// and the error of each bad input.

#include "SchedulerCommon.h"
#include "runtime/api/CommandBufferApi.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

namespace {

using sched::Env;
namespace khr = clcpu::khr;

/// The extension's entry points, looked up by name as applications do.
struct CommandBufferFns {
#define CLCPU_FN(N)                                                            \
  decltype(&khr::N) N = extensionFunction<decltype(&khr::N)>(#N);
  CLCPU_FN(clCreateCommandBufferKHR)
  CLCPU_FN(clFinalizeCommandBufferKHR)
  CLCPU_FN(clRetainCommandBufferKHR)
  CLCPU_FN(clReleaseCommandBufferKHR)
  CLCPU_FN(clEnqueueCommandBufferKHR)
  CLCPU_FN(clCommandBarrierWithWaitListKHR)
  CLCPU_FN(clCommandCopyBufferKHR)
  CLCPU_FN(clCommandCopyBufferRectKHR)
  CLCPU_FN(clCommandCopyBufferToImageKHR)
  CLCPU_FN(clCommandCopyImageKHR)
  CLCPU_FN(clCommandCopyImageToBufferKHR)
  CLCPU_FN(clCommandFillBufferKHR)
  CLCPU_FN(clCommandFillImageKHR)
  CLCPU_FN(clCommandSVMMemcpyKHR)
  CLCPU_FN(clCommandSVMMemFillKHR)
  CLCPU_FN(clCommandNDRangeKernelKHR)
  CLCPU_FN(clGetCommandBufferInfoKHR)
#undef CLCPU_FN

  /// A command-buffer on \p Q (flags \p Flags, none if 0).
  cl_command_buffer_khr create(cl_command_queue Q,
                               cl_command_buffer_flags_khr Flags = 0) {
    cl_command_buffer_properties_khr Props[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                                Flags, 0};
    cl_int Err = -1;
    cl_command_buffer_khr B =
        clCreateCommandBufferKHR(1, &Q, Flags ? Props : nullptr, &Err);
    REQUIRE(Err == CL_SUCCESS);
    REQUIRE(B);
    return B;
  }
  /// Records \p K over \p Global work-items after \p Waits; its sync point.
  cl_sync_point_khr ndrange(cl_command_buffer_khr B, cl_kernel K, size_t Global,
                            std::vector<cl_sync_point_khr> Waits = {}) {
    cl_sync_point_khr S = 0;
    REQUIRE(clCommandNDRangeKernelKHR(B, nullptr, nullptr, K, 1, nullptr,
                                      &Global, nullptr,
                                      static_cast<cl_uint>(Waits.size()),
                                      Waits.empty() ? nullptr : Waits.data(),
                                      &S, nullptr) == CL_SUCCESS);
    return S;
  }
  cl_command_buffer_state_khr state(cl_command_buffer_khr B) {
    cl_command_buffer_state_khr S = 99;
    REQUIRE(clGetCommandBufferInfoKHR(B, CL_COMMAND_BUFFER_STATE_KHR, sizeof S,
                                      &S, nullptr) == CL_SUCCESS);
    return S;
  }
};

// Unsigned: the chain of many replays wraps around, defined for uint.
const char *const Kernels = R"(
kernel void twice(global uint *x) { x[get_global_id(0)] *= 2; }
kernel void plus(global uint *x, uint v) { x[get_global_id(0)] += v; }
)";

} // namespace

TEST_CASE("cl_khr_command_buffer 0.9.8: listed with its version, device "
          "queries (OpenCL API 4.2) and every entry point found by name",
          "[command_buffer]") {
  cl_device_id D = clcpuDevice();
  REQUIRE(D);
  CHECK(extensionVersion(D, "cl_khr_command_buffer") ==
        CL_MAKE_VERSION(0, 9, 8));
  CHECK(deviceString(D, CL_DEVICE_EXTENSIONS).find("cl_khr_command_buffer") !=
        std::string::npos);
  auto Caps = deviceInfo<cl_device_command_buffer_capabilities_khr>(
      D, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR);
  CHECK(Caps == (CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR |
                 CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR));
  CHECK(deviceInfo<cl_command_queue_properties>(
            D, CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR) == 0);
  // "The mandated minimum capability is: CL_QUEUE_PROFILING_ENABLE."
  CHECK(deviceInfo<cl_command_queue_properties>(
            D, CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR) ==
        (CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
  CommandBufferFns F;
  CHECK(F.clCreateCommandBufferKHR);
  CHECK(F.clFinalizeCommandBufferKHR);
  CHECK(F.clRetainCommandBufferKHR);
  CHECK(F.clReleaseCommandBufferKHR);
  CHECK(F.clEnqueueCommandBufferKHR);
  CHECK(F.clCommandBarrierWithWaitListKHR);
  CHECK(F.clCommandCopyBufferKHR);
  CHECK(F.clCommandCopyBufferRectKHR);
  CHECK(F.clCommandCopyBufferToImageKHR);
  CHECK(F.clCommandCopyImageKHR);
  CHECK(F.clCommandCopyImageToBufferKHR);
  CHECK(F.clCommandFillBufferKHR);
  CHECK(F.clCommandFillImageKHR);
  CHECK(F.clCommandSVMMemcpyKHR);
  CHECK(F.clCommandSVMMemFillKHR);
  CHECK(F.clCommandNDRangeKernelKHR);
  CHECK(F.clGetCommandBufferInfoKHR);
}

TEST_CASE("cl_khr_command_buffer (Recording Commands): fill, copy, rect "
          "copy, SVM fill and memcpy, kernel and barrier replay as enqueued; "
          "clGetCommandBufferInfoKHR and the lifecycle",
          "[command_buffer]") {
  Env E;
  CommandBufferFns F;
  const size_t N = 64;
  cl_mem A = E.buffer(std::vector<int>(N, 0));
  cl_mem B = E.buffer(std::vector<int>(N, 0));
  cl_mem R = E.buffer(std::vector<int>(N, 0));
  void *Svm = clSVMAlloc(E.C, CL_MEM_READ_WRITE, N * sizeof(int), 0);
  void *Svm2 = clSVMAlloc(E.C, CL_MEM_READ_WRITE, N * sizeof(int), 0);
  REQUIRE(Svm);
  REQUIRE(Svm2);
  cl_command_buffer_khr CB = F.create(E.Q);
  CHECK(F.state(CB) == CL_COMMAND_BUFFER_STATE_RECORDING_KHR);

  // A = 3, B = A, B *= 2 (kernel), R = rows 1..2 of B (a 4x4-int rect of
  // a 4x16 grid), SVM = 5, SVM2 = SVM.
  const int Three = 3, Five = 5;
  cl_sync_point_khr Fill = 0, Copy = 0, Twice = 0, Rect = 0, SvmFill = 0;
  REQUIRE(F.clCommandFillBufferKHR(CB, nullptr, nullptr, A, &Three,
                                   sizeof Three, 0, N * sizeof(int), 0, nullptr,
                                   &Fill, nullptr) == CL_SUCCESS);
  REQUIRE(F.clCommandCopyBufferKHR(CB, nullptr, nullptr, A, B, 0, 0,
                                   N * sizeof(int), 1, &Fill, &Copy,
                                   nullptr) == CL_SUCCESS);
  cl_kernel K = E.kernel(Kernels, "twice");
  E.arg(K, 0, B);
  Twice = F.ndrange(CB, K, N, {Copy});
  const size_t Origin[3] = {0, 1, 0}, Zero[3] = {0, 0, 0},
               Region[3] = {4 * sizeof(int), 2, 1};
  REQUIRE(F.clCommandCopyBufferRectKHR(CB, nullptr, nullptr, B, R, Origin, Zero,
                                       Region, 16 * sizeof(int), 0,
                                       4 * sizeof(int), 0, 1, &Twice, &Rect,
                                       nullptr) == CL_SUCCESS);
  REQUIRE(F.clCommandSVMMemFillKHR(CB, nullptr, nullptr, Svm, &Five,
                                   sizeof Five, N * sizeof(int), 0, nullptr,
                                   &SvmFill, nullptr) == CL_SUCCESS);
  REQUIRE(F.clCommandSVMMemcpyKHR(CB, nullptr, nullptr, Svm2, Svm,
                                  N * sizeof(int), 1, &SvmFill, nullptr,
                                  nullptr) == CL_SUCCESS);
  cl_sync_point_khr Barrier = 0;
  REQUIRE(F.clCommandBarrierWithWaitListKHR(CB, nullptr, nullptr, 0, nullptr,
                                            &Barrier, nullptr) == CL_SUCCESS);
  // Sync points are unique.
  std::vector<cl_sync_point_khr> All = {Fill, Copy,    Twice,
                                        Rect, SvmFill, Barrier};
  std::sort(All.begin(), All.end());
  CHECK(std::adjacent_find(All.begin(), All.end()) == All.end());

  // Enqueuing before finalization is refused.
  CHECK(F.clEnqueueCommandBufferKHR(0, nullptr, CB, 0, nullptr, nullptr) ==
        CL_INVALID_OPERATION);
  REQUIRE(F.clFinalizeCommandBufferKHR(CB) == CL_SUCCESS);
  CHECK(F.state(CB) == CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);
  // Nothing ran at recording.
  sched::expectEqual(E.read<int>(B, N), std::vector<int>(N, 0), "B");

  REQUIRE(F.clEnqueueCommandBufferKHR(0, nullptr, CB, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
  sched::expectEqual(E.read<int>(B, N), std::vector<int>(N, 6), "B");
  std::vector<int> WantR(N, 0);
  std::fill(WantR.begin(), WantR.begin() + 8, 6);
  sched::expectEqual(E.read<int>(R, N), WantR, "R");
  std::vector<int> Got(static_cast<int *>(Svm2), static_cast<int *>(Svm2) + N);
  sched::expectEqual(Got, std::vector<int>(N, 5), "SVM2");

  // Info queries.
  cl_command_queue Q = nullptr;
  cl_uint NumQ = 0, Refs = 0;
  cl_context C = nullptr;
  size_t Size = 1;
  CHECK(F.clGetCommandBufferInfoKHR(CB, CL_COMMAND_BUFFER_QUEUES_KHR, sizeof Q,
                                    &Q, nullptr) == CL_SUCCESS);
  CHECK(Q == E.Q);
  CHECK(F.clGetCommandBufferInfoKHR(CB, CL_COMMAND_BUFFER_NUM_QUEUES_KHR,
                                    sizeof NumQ, &NumQ, nullptr) == CL_SUCCESS);
  CHECK(NumQ == 1);
  CHECK(F.clGetCommandBufferInfoKHR(CB, CL_COMMAND_BUFFER_CONTEXT_KHR, sizeof C,
                                    &C, nullptr) == CL_SUCCESS);
  CHECK(C == E.C);
  CHECK(F.clGetCommandBufferInfoKHR(CB, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR,
                                    0, nullptr, &Size) == CL_SUCCESS);
  CHECK(Size == 0); // created with NULL properties
  CHECK(F.clRetainCommandBufferKHR(CB) == CL_SUCCESS);
  CHECK(F.clGetCommandBufferInfoKHR(CB, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR,
                                    sizeof Refs, &Refs, nullptr) == CL_SUCCESS);
  CHECK(Refs == 2);
  CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
  CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
  clSVMFree(E.C, Svm);
  clSVMFree(E.C, Svm2);
}

TEST_CASE("cl_khr_command_buffer (sync points, replay): a chain whose result "
          "depends on the order, replayed 1000 times",
          "[command_buffer]") {
  Env E;
  CommandBufferFns F;
  const size_t N = 1024;
  cl_mem X = E.buffer(std::vector<cl_uint>(N, 1));
  cl_kernel Twice = E.kernel(Kernels, "twice");
  cl_kernel Plus = E.kernel(Kernels, "plus");
  E.arg(Twice, 0, X);
  E.arg(Plus, 0, X);
  E.arg(Plus, 1, cl_uint(-1));
  cl_command_buffer_khr CB = F.create(E.Q);
  // twice, plus -1, twice, plus -1, plus +1, each waiting for the one
  // before by its sync point: x -> 4x - 2 per replay. (Any other order gives
  // another function: plus first, 4x - 5; and the snapshot of the last
  // plus's argument, taken at its recording, is the only +1.)
  cl_sync_point_khr Last = 0;
  for (int I = 0; I < 2; ++I) {
    std::vector<cl_sync_point_khr> Waits;
    if (Last)
      Waits.push_back(Last);
    cl_sync_point_khr S = F.ndrange(CB, Twice, N, Waits);
    Last = F.ndrange(CB, Plus, N, {S});
  }
  E.arg(Plus, 1, cl_uint(1));
  F.ndrange(CB, Plus, N, {Last});
  REQUIRE(F.clFinalizeCommandBufferKHR(CB) == CL_SUCCESS);
  cl_uint Want = 1;
  for (int R = 0; R < 1000; ++R) {
    REQUIRE(F.clEnqueueCommandBufferKHR(0, nullptr, CB, 0, nullptr, nullptr) ==
            CL_SUCCESS);
    Want = 4 * Want - 2;
  }
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
  sched::expectEqual(E.read<cl_uint>(X, N), std::vector<cl_uint>(N, Want), "x");
  CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
}

TEST_CASE("cl_khr_command_buffer (clCommandNDRangeKernelKHR): the arguments "
          "are a snapshot taken at recording; clSetKernelArg afterwards "
          "changes only later enqueues and recordings",
          "[command_buffer]") {
  Env E;
  CommandBufferFns F;
  const size_t N = 256;
  cl_mem X = E.buffer(std::vector<cl_uint>(N, 10));
  cl_mem Y = E.buffer(std::vector<cl_uint>(N, 10));
  cl_kernel Plus = E.kernel(Kernels, "plus");
  E.arg(Plus, 0, X);
  E.arg(Plus, 1, cl_uint(5));
  cl_command_buffer_khr CB = F.create(E.Q);
  F.ndrange(CB, Plus, N);
  REQUIRE(F.clFinalizeCommandBufferKHR(CB) == CL_SUCCESS);
  E.arg(Plus, 0, Y);
  E.arg(Plus, 1, cl_uint(100));
  REQUIRE(F.clEnqueueCommandBufferKHR(0, nullptr, CB, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
  sched::expectEqual(E.read<cl_uint>(X, N), std::vector<cl_uint>(N, 15), "X");
  sched::expectEqual(E.read<cl_uint>(Y, N), std::vector<cl_uint>(N, 10), "Y");
  // An enqueue now uses the new values.
  size_t G = N;
  REQUIRE(E.run(Plus, 1, &G, nullptr) == CL_SUCCESS);
  sched::expectEqual(E.read<cl_uint>(Y, N), std::vector<cl_uint>(N, 110), "Y");
  CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
}

TEST_CASE("cl_khr_command_buffer (clEnqueueCommandBufferKHR): a replay is "
          "one command: it waits for its wait list, returns an event of type "
          "CL_COMMAND_COMMAND_BUFFER_KHR with profiling, runs on a "
          "substitute queue, and outlives the application's release",
          "[command_buffer]") {
  Env E;
  CommandBufferFns F;
  const size_t N = 1024;
  cl_mem X = E.buffer(std::vector<int>(N, 1));
  cl_kernel Twice = E.kernel(Kernels, "twice");
  E.arg(Twice, 0, X);
  cl_command_buffer_khr CB = F.create(E.Q);
  for (int I = 0; I < 4; ++I)
    F.ndrange(CB, Twice, N);
  REQUIRE(F.clFinalizeCommandBufferKHR(CB) == CL_SUCCESS);

  cl_command_queue P =
      clCreateCommandQueue(E.C, E.D, CL_QUEUE_PROFILING_ENABLE, nullptr);
  REQUIRE(P);
  cl_int Err = -1;
  cl_event Gate = clCreateUserEvent(E.C, &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_event Done = nullptr;
  REQUIRE(F.clEnqueueCommandBufferKHR(1, &P, CB, 1, &Gate, &Done) ==
          CL_SUCCESS);
  // The application's last reference goes while the replay waits.
  CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
  cl_int Status = 0;
  REQUIRE(clGetEventInfo(Done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof Status,
                         &Status, nullptr) == CL_SUCCESS);
  CHECK(Status > CL_COMPLETE); // still waiting for Gate
  sched::expectEqual(E.read<int>(X, N), std::vector<int>(N, 1), "X early");
  REQUIRE(clSetUserEventStatus(Gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &Done) == CL_SUCCESS);
  sched::expectEqual(E.read<int>(X, N), std::vector<int>(N, 16), "X");

  cl_command_type Type = 0;
  REQUIRE(clGetEventInfo(Done, CL_EVENT_COMMAND_TYPE, sizeof Type, &Type,
                         nullptr) == CL_SUCCESS);
  CHECK(Type == CL_COMMAND_COMMAND_BUFFER_KHR);
  cl_command_queue EvQ = nullptr;
  REQUIRE(clGetEventInfo(Done, CL_EVENT_COMMAND_QUEUE, sizeof EvQ, &EvQ,
                         nullptr) == CL_SUCCESS);
  CHECK(EvQ == P);
  cl_ulong T[4] = {};
  const cl_profiling_info Stamps[4] = {
      CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
      CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
  for (int I = 0; I < 4; ++I)
    REQUIRE(clGetEventProfilingInfo(Done, Stamps[I], sizeof T[I], &T[I],
                                    nullptr) == CL_SUCCESS);
  CHECK(T[0] <= T[1]);
  CHECK(T[1] <= T[2]);
  CHECK(T[2] < T[3]);
  clReleaseEvent(Done);
  clReleaseEvent(Gate);
  clReleaseCommandQueue(P);
}

TEST_CASE("cl_khr_command_buffer (simultaneous use): replays of one "
          "command-buffer pending at once on an out-of-order queue all run",
          "[command_buffer]") {
  Env E;
  CommandBufferFns F;
  const size_t N = 4096;
  cl_mem In = E.buffer(std::vector<int>(N, 7));
  cl_mem Out = E.buffer(std::vector<int>(N, 0));
  cl_command_queue OOO = clCreateCommandQueue(
      E.C, E.D, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, nullptr);
  REQUIRE(OOO);
  cl_command_buffer_khr CB =
      F.create(OOO, CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR);
  cl_command_buffer_properties_khr Props[3] = {};
  REQUIRE(
      F.clGetCommandBufferInfoKHR(CB, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR,
                                  sizeof Props, Props, nullptr) == CL_SUCCESS);
  CHECK(Props[0] == CL_COMMAND_BUFFER_FLAGS_KHR);
  CHECK(Props[1] == CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR);
  CHECK(Props[2] == 0);
  REQUIRE(F.clCommandCopyBufferKHR(CB, nullptr, nullptr, In, Out, 0, 0,
                                   N * sizeof(int), 0, nullptr, nullptr,
                                   nullptr) == CL_SUCCESS);
  REQUIRE(F.clFinalizeCommandBufferKHR(CB) == CL_SUCCESS);
  std::vector<cl_event> Events(16);
  for (cl_event &Ev : Events)
    REQUIRE(F.clEnqueueCommandBufferKHR(0, nullptr, CB, 0, nullptr, &Ev) ==
            CL_SUCCESS);
  REQUIRE(clWaitForEvents(static_cast<cl_uint>(Events.size()), Events.data()) ==
          CL_SUCCESS);
  for (cl_event Ev : Events) {
    cl_int Status = 1;
    clGetEventInfo(Ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof Status,
                   &Status, nullptr);
    CHECK(Status == CL_COMPLETE);
    clReleaseEvent(Ev);
  }
  sched::expectEqual(E.read<int>(Out, N), std::vector<int>(N, 7), "Out");
  CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
  clReleaseCommandQueue(OOO);
}

TEST_CASE("cl_khr_command_buffer (errors): each bad input gets the "
          "extension's error code",
          "[command_buffer]") {
  Env E;
  CommandBufferFns F;
  const size_t N = 64;
  cl_mem X = E.buffer(std::vector<int>(N, 0));
  cl_kernel Twice = E.kernel(Kernels, "twice");
  E.arg(Twice, 0, X);
  const int Pat = 1;
  cl_int Err = 0;

  SECTION("clCreateCommandBufferKHR") {
    CHECK(F.clCreateCommandBufferKHR(1, nullptr, nullptr, &Err) == nullptr);
    CHECK(Err == CL_INVALID_VALUE);
    cl_command_queue Two[2] = {E.Q, E.Q};
    CHECK(F.clCreateCommandBufferKHR(2, Two, nullptr, &Err) == nullptr);
    CHECK(Err == CL_INVALID_VALUE);
    CHECK(F.clCreateCommandBufferKHR(0, Two, nullptr, &Err) == nullptr);
    CHECK(Err == CL_INVALID_VALUE);
    cl_command_queue Bad = reinterpret_cast<cl_command_queue>(X);
    CHECK(F.clCreateCommandBufferKHR(1, &Bad, nullptr, &Err) == nullptr);
    CHECK(Err == CL_INVALID_COMMAND_QUEUE);
    cl_command_buffer_properties_khr Twice2[] = {
        CL_COMMAND_BUFFER_FLAGS_KHR, 0, CL_COMMAND_BUFFER_FLAGS_KHR, 0, 0};
    CHECK(F.clCreateCommandBufferKHR(1, &E.Q, Twice2, &Err) == nullptr);
    CHECK(Err == CL_INVALID_VALUE);
    cl_command_buffer_properties_khr Unknown[] = {0x7777, 0, 0};
    CHECK(F.clCreateCommandBufferKHR(1, &E.Q, Unknown, &Err) == nullptr);
    CHECK(Err == CL_INVALID_VALUE);
    // CL_COMMAND_BUFFER_DEVICE_SIDE_SYNC_KHR (cl_khr_command_buffer_multi_-
    // device): valid, not supported.
    cl_command_buffer_properties_khr Sync[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                               1 << 2, 0};
    CHECK(F.clCreateCommandBufferKHR(1, &E.Q, Sync, &Err) == nullptr);
    CHECK(Err == CL_INVALID_PROPERTY);
  }

  SECTION("invalid command-buffers") {
    auto Bogus = reinterpret_cast<cl_command_buffer_khr>(X);
    CHECK(F.clFinalizeCommandBufferKHR(nullptr) ==
          CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK(F.clRetainCommandBufferKHR(Bogus) == CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK(F.clReleaseCommandBufferKHR(nullptr) ==
          CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK(F.clEnqueueCommandBufferKHR(0, nullptr, Bogus, 0, nullptr, nullptr) ==
          CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK(F.clCommandBarrierWithWaitListKHR(nullptr, nullptr, nullptr, 0,
                                            nullptr, nullptr, nullptr) ==
          CL_INVALID_COMMAND_BUFFER_KHR);
    CHECK(F.clCommandFillBufferKHR(Bogus, nullptr, nullptr, X, &Pat, sizeof Pat,
                                   0, sizeof Pat, 0, nullptr, nullptr,
                                   nullptr) == CL_INVALID_COMMAND_BUFFER_KHR);
    cl_uint V = 0;
    CHECK(F.clGetCommandBufferInfoKHR(nullptr, CL_COMMAND_BUFFER_NUM_QUEUES_KHR,
                                      sizeof V, &V, nullptr) ==
          CL_INVALID_COMMAND_BUFFER_KHR);
  }

  SECTION("recording") {
    cl_command_buffer_khr CB = F.create(E.Q);
    // command_queue must be NULL without cl_khr_command_buffer_multi_device.
    CHECK(F.clCommandBarrierWithWaitListKHR(CB, E.Q, nullptr, 0, nullptr,
                                            nullptr, nullptr) ==
          CL_INVALID_COMMAND_QUEUE);
    // No command property is defined but clCommandNDRangeKernelKHR's.
    khr::CommandProperties Props[] = {0x1234, 0, 0};
    CHECK(F.clCommandBarrierWithWaitListKHR(CB, nullptr, Props, 0, nullptr,
                                            nullptr,
                                            nullptr) == CL_INVALID_VALUE);
    khr::CommandProperties Empty[] = {0};
    CHECK(F.clCommandBarrierWithWaitListKHR(CB, nullptr, Empty, 0, nullptr,
                                            nullptr, nullptr) == CL_SUCCESS);
    // mutable_handle of a command other than clCommandNDRangeKernelKHR.
    cl_mutable_command_khr Handle = nullptr;
    CHECK(F.clCommandBarrierWithWaitListKHR(CB, nullptr, nullptr, 0, nullptr,
                                            nullptr,
                                            &Handle) == CL_INVALID_VALUE);
    CHECK(F.clCommandFillBufferKHR(CB, nullptr, nullptr, X, &Pat, sizeof Pat, 0,
                                   sizeof Pat, 0, nullptr, nullptr,
                                   &Handle) == CL_INVALID_VALUE);
    size_t G = N;
    // Sync point wait lists.
    cl_sync_point_khr S = 0;
    REQUIRE(F.clCommandBarrierWithWaitListKHR(CB, nullptr, nullptr, 0, nullptr,
                                              &S, nullptr) == CL_SUCCESS);
    CHECK(F.clCommandBarrierWithWaitListKHR(CB, nullptr, nullptr, 1, nullptr,
                                            nullptr, nullptr) ==
          CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
    CHECK(F.clCommandBarrierWithWaitListKHR(CB, nullptr, nullptr, 0, &S,
                                            nullptr, nullptr) ==
          CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
    cl_sync_point_khr Future = S + 100, Nought = 0;
    CHECK(F.clCommandCopyBufferKHR(CB, nullptr, nullptr, X, X, 0, 0, 4, 1,
                                   &Future, nullptr, nullptr) ==
          CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
    CHECK(F.clCommandBarrierWithWaitListKHR(CB, nullptr, nullptr, 1, &Nought,
                                            nullptr, nullptr) ==
          CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
    // A sync point of another command-buffer is not one of this one's.
    cl_command_buffer_khr Other = F.create(E.Q);
    CHECK(F.clCommandBarrierWithWaitListKHR(Other, nullptr, nullptr, 1, &S,
                                            nullptr, nullptr) ==
          CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
    CHECK(F.clReleaseCommandBufferKHR(Other) == CL_SUCCESS);
    // The checks of the matching clEnqueue*: bounds (overflow-safe), overlap,
    // patterns, a NULL SVM pointer, kernel arguments and sizes.
    CHECK(F.clCommandCopyBufferKHR(CB, nullptr, nullptr, X, X, 0, 8,
                                   SIZE_MAX - 4, 0, nullptr, nullptr,
                                   nullptr) == CL_INVALID_VALUE);
    CHECK(F.clCommandCopyBufferKHR(CB, nullptr, nullptr, X, X, 0, 4, 16, 0,
                                   nullptr, nullptr,
                                   nullptr) == CL_MEM_COPY_OVERLAP);
    CHECK(F.clCommandFillBufferKHR(CB, nullptr, nullptr, X, &Pat, 3, 0, 12, 0,
                                   nullptr, nullptr,
                                   nullptr) == CL_INVALID_VALUE);
    CHECK(F.clCommandFillBufferKHR(CB, nullptr, nullptr, nullptr, &Pat,
                                   sizeof Pat, 0, 4, 0, nullptr, nullptr,
                                   nullptr) == CL_INVALID_MEM_OBJECT);
    const size_t Origin[3] = {SIZE_MAX, 0, 0}, Region[3] = {16, 1, 1};
    CHECK(F.clCommandCopyBufferRectKHR(CB, nullptr, nullptr, X, X, Origin,
                                       Origin, Region, 0, 0, 0, 0, 0, nullptr,
                                       nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(F.clCommandSVMMemFillKHR(CB, nullptr, nullptr, nullptr, &Pat,
                                   sizeof Pat, 4, 0, nullptr, nullptr,
                                   nullptr) == CL_INVALID_VALUE);
    CHECK(F.clCommandSVMMemcpyKHR(CB, nullptr, nullptr, nullptr, &Pat, 4, 0,
                                  nullptr, nullptr,
                                  nullptr) == CL_INVALID_VALUE);
    size_t Huge[2] = {SIZE_MAX / 2, 4};
    CHECK(F.clCommandNDRangeKernelKHR(CB, nullptr, nullptr, Twice, 2, nullptr,
                                      Huge, nullptr, 0, nullptr, nullptr,
                                      nullptr) == CL_INVALID_GLOBAL_WORK_SIZE);
    CHECK(F.clCommandNDRangeKernelKHR(CB, nullptr, nullptr, Twice, 4, nullptr,
                                      &G, nullptr, 0, nullptr, nullptr,
                                      nullptr) == CL_INVALID_WORK_DIMENSION);
    cl_kernel Unset = E.kernel(Kernels, "plus");
    CHECK(F.clCommandNDRangeKernelKHR(CB, nullptr, nullptr, Unset, 1, nullptr,
                                      &G, nullptr, 0, nullptr, nullptr,
                                      nullptr) == CL_INVALID_KERNEL_ARGS);
    // Image commands: the device has no images.
    const size_t Zero[3] = {0, 0, 0}, One[3] = {1, 1, 1};
    CHECK(F.clCommandCopyImageKHR(CB, nullptr, nullptr, X, X, Zero, Zero, One,
                                  0, nullptr, nullptr,
                                  nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(F.clCommandFillImageKHR(CB, nullptr, nullptr, X, &Pat, Zero, One, 0,
                                  nullptr, nullptr,
                                  nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(F.clCommandCopyBufferToImageKHR(CB, nullptr, nullptr, X, X, 0, Zero,
                                          One, 0, nullptr, nullptr,
                                          nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(F.clCommandCopyImageToBufferKHR(CB, nullptr, nullptr, X, X, Zero, One,
                                          0, 0, nullptr, nullptr,
                                          nullptr) == CL_INVALID_MEM_OBJECT);
    // Failed recordings added nothing: the buffer replays the two barriers.
    REQUIRE(F.clFinalizeCommandBufferKHR(CB) == CL_SUCCESS);
    // Finalized: no more recording, no second finalization.
    CHECK(F.clFinalizeCommandBufferKHR(CB) == CL_INVALID_OPERATION);
    CHECK(F.clCommandFillBufferKHR(CB, nullptr, nullptr, X, &Pat, sizeof Pat, 0,
                                   sizeof Pat, 0, nullptr, nullptr,
                                   nullptr) == CL_INVALID_OPERATION);
    CHECK(F.clCommandNDRangeKernelKHR(CB, nullptr, nullptr, Twice, 1, nullptr,
                                      &G, nullptr, 0, nullptr, nullptr,
                                      nullptr) == CL_INVALID_OPERATION);
    CHECK(F.clEnqueueCommandBufferKHR(0, nullptr, CB, 0, nullptr, nullptr) ==
          CL_SUCCESS);
    REQUIRE(clFinish(E.Q) == CL_SUCCESS);
    CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
  }

  SECTION("objects of another context, substitute queues, wait lists") {
    Env Other;
    cl_mem Foreign = Other.buffer(std::vector<int>(N, 0));
    cl_kernel ForeignK = Other.kernel(Kernels, "twice");
    Other.arg(ForeignK, 0, Foreign);
    cl_command_buffer_khr CB = F.create(E.Q);
    size_t G = N;
    CHECK(F.clCommandNDRangeKernelKHR(CB, nullptr, nullptr, ForeignK, 1,
                                      nullptr, &G, nullptr, 0, nullptr, nullptr,
                                      nullptr) == CL_INVALID_CONTEXT);
    CHECK(F.clCommandCopyBufferKHR(CB, nullptr, nullptr, Foreign, X, 0, 0, 4, 0,
                                   nullptr, nullptr,
                                   nullptr) == CL_INVALID_CONTEXT);
    CHECK(F.clCommandFillBufferKHR(CB, nullptr, nullptr, Foreign, &Pat,
                                   sizeof Pat, 0, 4, 0, nullptr, nullptr,
                                   nullptr) == CL_INVALID_CONTEXT);
    REQUIRE(F.clFinalizeCommandBufferKHR(CB) == CL_SUCCESS);
    CHECK(F.clEnqueueCommandBufferKHR(1, nullptr, CB, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    CHECK(F.clEnqueueCommandBufferKHR(0, &E.Q, CB, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    cl_command_queue Two[2] = {E.Q, E.Q};
    CHECK(F.clEnqueueCommandBufferKHR(2, Two, CB, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    cl_command_queue Bad = reinterpret_cast<cl_command_queue>(X);
    CHECK(F.clEnqueueCommandBufferKHR(1, &Bad, CB, 0, nullptr, nullptr) ==
          CL_INVALID_COMMAND_QUEUE);
    CHECK(F.clEnqueueCommandBufferKHR(1, &Other.Q, CB, 0, nullptr, nullptr) ==
          CL_INVALID_CONTEXT);
    cl_event ForeignEv = clCreateUserEvent(Other.C, &Err);
    REQUIRE(Err == CL_SUCCESS);
    CHECK(F.clEnqueueCommandBufferKHR(0, nullptr, CB, 1, &ForeignEv, nullptr) ==
          CL_INVALID_CONTEXT);
    CHECK(F.clEnqueueCommandBufferKHR(0, nullptr, CB, 1, nullptr, nullptr) ==
          CL_INVALID_EVENT_WAIT_LIST);
    clSetUserEventStatus(ForeignEv, CL_COMPLETE);
    clReleaseEvent(ForeignEv);
    cl_uint V = 0;
    CHECK(F.clGetCommandBufferInfoKHR(CB, 0x7777, sizeof V, &V, nullptr) ==
          CL_INVALID_VALUE);
    CHECK(F.clGetCommandBufferInfoKHR(CB, CL_COMMAND_BUFFER_QUEUES_KHR, 1, &V,
                                      nullptr) == CL_INVALID_VALUE);
    CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
  }
}

TEST_CASE("cl_khr_command_buffer (replay): small launches a replay runs on "
          "one thread still run their work-groups in increasing order: a "
          "chain where each group waits for the one before completes",
          "[command_buffer]") {
  Env E;
  CommandBufferFns F;
  // Group g spins until group g - 1 published its flag: this finishes only
  // if no group runs before the ones it waits for (the in-order hand-out
  // decoupled look-back scans rely on).
  const char *Src = R"(
kernel void chain(volatile global int *flag, global int *out) {
  size_t g = get_group_id(0);
  if (get_local_id(0) == 0) {
    if (g > 0)
      while (atomic_add(&flag[g - 1], 0) == 0)
        ;
    out[g] = g > 0 ? out[g - 1] + 1 : 1;
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_xchg(&flag[g], 1);
  }
}
)";
  const size_t Groups = 16, Local = 64, Global = Groups * Local;
  cl_mem Flags = E.buffer(std::vector<int>(Groups, 0));
  cl_mem Out = E.buffer(std::vector<int>(Groups, 0));
  cl_kernel K = E.kernel(Src, "chain");
  E.arg(K, 0, Flags);
  E.arg(K, 1, Out);
  cl_command_buffer_khr CB = F.create(E.Q);
  const int Zero = 0;
  cl_sync_point_khr Cleared = 0;
  REQUIRE(F.clCommandFillBufferKHR(CB, nullptr, nullptr, Flags, &Zero,
                                   sizeof Zero, 0, Groups * sizeof(int), 0,
                                   nullptr, &Cleared, nullptr) == CL_SUCCESS);
  REQUIRE(F.clCommandNDRangeKernelKHR(CB, nullptr, nullptr, K, 1, nullptr,
                                      &Global, &Local, 1, &Cleared, nullptr,
                                      nullptr) == CL_SUCCESS);
  REQUIRE(F.clFinalizeCommandBufferKHR(CB) == CL_SUCCESS);
  for (int R = 0; R < 200; ++R)
    REQUIRE(F.clEnqueueCommandBufferKHR(0, nullptr, CB, 0, nullptr, nullptr) ==
            CL_SUCCESS);
  REQUIRE(clFinish(E.Q) == CL_SUCCESS);
  std::vector<int> Want(Groups);
  for (size_t G = 0; G < Groups; ++G)
    Want[G] = static_cast<int>(G + 1);
  sched::expectEqual(E.read<int>(Out, Groups), Want, "out");
  CHECK(F.clReleaseCommandBufferKHR(CB) == CL_SUCCESS);
}

TEST_CASE("cl_khr_command_buffer: an unknown property at the very end of "
          "readable memory is refused without reading past it",
          "[command_buffer]") {
  // The property list ends with an unknown name and nothing after it, on
  // the last word of a page whose next page is inaccessible: the name alone
  // decides CL_INVALID_VALUE ("values specified in properties are not
  // valid"); reading a value after it would fault.
  Env E;
  CommandBufferFns F;
  REQUIRE(F.clCreateCommandBufferKHR);
  long Page = sysconf(_SC_PAGESIZE);
  void *Map = mmap(nullptr, 2 * Page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(Map != MAP_FAILED);
  REQUIRE(mprotect(static_cast<char *>(Map) + Page, Page, PROT_NONE) == 0);
  auto *Last = reinterpret_cast<cl_command_buffer_properties_khr *>(
                   static_cast<char *>(Map) + Page) -
               1;
  *Last = 0x7fff; // no such property
  cl_int Err = CL_SUCCESS;
  cl_command_queue Q = E.Q;
  CHECK(F.clCreateCommandBufferKHR(1, &Q, Last, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  munmap(Map, 2 * Page);
}
