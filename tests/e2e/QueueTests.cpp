// End-to-end: command-queues, markers, barriers, flush and finish through
// the ICD loader (OpenCL 3.0 API spec 5.1, 5.12, 5.15).

#include "Common.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>

namespace {
struct Ctx {
  cl_device_id Dev = clcpuDevice();
  cl_context C = nullptr;
  Ctx() { C = clCreateContext(nullptr, 1, &Dev, nullptr, nullptr, nullptr); }
  ~Ctx() { clReleaseContext(C); }
  cl_command_queue queue(cl_command_queue_properties P = 0) {
    cl_queue_properties Props[] = {CL_QUEUE_PROPERTIES, P, 0};
    cl_int Err = -1;
    cl_command_queue Q =
        clCreateCommandQueueWithProperties(C, Dev, Props, &Err);
    REQUIRE(Err == CL_SUCCESS);
    return Q;
  }
};

cl_int status(cl_event E) {
  cl_int S = 1;
  REQUIRE(clGetEventInfo(E, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof S, &S,
                         nullptr) == CL_SUCCESS);
  return S;
}
} // namespace

TEST_CASE("5.1: create and query command-queues", "[queue]") {
  Ctx X;
  REQUIRE(X.C);
  cl_int Err = -1;
  cl_queue_properties Props[] = {
      CL_QUEUE_PROPERTIES,
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue Q =
      clCreateCommandQueueWithProperties(X.C, X.Dev, Props, &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_context C = nullptr;
  CHECK(clGetCommandQueueInfo(Q, CL_QUEUE_CONTEXT, sizeof C, &C, nullptr) ==
        CL_SUCCESS);
  CHECK(C == X.C);
  cl_device_id D = nullptr;
  CHECK(clGetCommandQueueInfo(Q, CL_QUEUE_DEVICE, sizeof D, &D, nullptr) ==
        CL_SUCCESS);
  CHECK(D == X.Dev);
  cl_command_queue_properties P = 0;
  CHECK(clGetCommandQueueInfo(Q, CL_QUEUE_PROPERTIES, sizeof P, &P, nullptr) ==
        CL_SUCCESS);
  CHECK(P ==
        (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
  cl_queue_properties Got[3] = {};
  size_t Size = 0;
  CHECK(clGetCommandQueueInfo(Q, CL_QUEUE_PROPERTIES_ARRAY, sizeof Got, Got,
                              &Size) == CL_SUCCESS);
  CHECK(Size == sizeof Props);
  CHECK(Got[0] == Props[0]);
  CHECK(Got[1] == Props[1]);
  CHECK(Got[2] == 0);
  cl_command_queue Def = Q;
  CHECK(clGetCommandQueueInfo(Q, CL_QUEUE_DEVICE_DEFAULT, sizeof Def, &Def,
                              nullptr) == CL_SUCCESS);
  CHECK(Def == nullptr);
  cl_uint QSize = 0;
  CHECK(clGetCommandQueueInfo(Q, CL_QUEUE_SIZE, sizeof QSize, &QSize,
                              nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clGetCommandQueueInfo(Q, 0x7fff, sizeof QSize, &QSize, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clGetCommandQueueInfo(Q, CL_QUEUE_CONTEXT, 1, &C, nullptr) ==
        CL_INVALID_VALUE);

  CHECK(clRetainCommandQueue(Q) == CL_SUCCESS);
  cl_uint Refs = 0;
  CHECK(clGetCommandQueueInfo(Q, CL_QUEUE_REFERENCE_COUNT, sizeof Refs, &Refs,
                              nullptr) == CL_SUCCESS);
  CHECK(Refs == 2);
  CHECK(clReleaseCommandQueue(Q) == CL_SUCCESS);
  CHECK(clReleaseCommandQueue(Q) == CL_SUCCESS);

  // NULL properties: in-order, no profiling, empty properties array.
  Q = clCreateCommandQueueWithProperties(X.C, X.Dev, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(clGetCommandQueueInfo(Q, CL_QUEUE_PROPERTIES, sizeof P, &P, nullptr) ==
        CL_SUCCESS);
  CHECK(P == 0);
  CHECK(clGetCommandQueueInfo(Q, CL_QUEUE_PROPERTIES_ARRAY, 0, nullptr,
                              &Size) == CL_SUCCESS);
  CHECK(Size == 0);
  CHECK(clReleaseCommandQueue(Q) == CL_SUCCESS);

  // The OpenCL 1.x entry point.
  Q = clCreateCommandQueue(X.C, X.Dev, CL_QUEUE_PROFILING_ENABLE, &Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(clGetCommandQueueInfo(Q, CL_QUEUE_PROPERTIES, sizeof P, &P, nullptr) ==
        CL_SUCCESS);
  CHECK(P == CL_QUEUE_PROFILING_ENABLE);
  CHECK(clReleaseCommandQueue(Q) == CL_SUCCESS);
}

TEST_CASE("5.1: command-queue creation errors", "[queue]") {
  Ctx X;
  cl_int Err = 0;
  CHECK(clCreateCommandQueueWithProperties(nullptr, X.Dev, nullptr, &Err) ==
        nullptr);
  CHECK(Err == CL_INVALID_CONTEXT);
  CHECK(clCreateCommandQueueWithProperties(X.C,
                                           reinterpret_cast<cl_device_id>(X.C),
                                           nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_DEVICE);
  CHECK(clCreateCommandQueue(X.C, nullptr, 0, &Err) == nullptr);
  CHECK(Err == CL_INVALID_DEVICE);

  auto tryProps = [&](std::vector<cl_queue_properties> Props) {
    cl_int E = 0;
    cl_command_queue Q =
        clCreateCommandQueueWithProperties(X.C, X.Dev, Props.data(), &E);
    CHECK(Q == nullptr);
    return E;
  };
  CHECK(tryProps({CL_QUEUE_PROPERTIES, 1u << 20, 0}) == CL_INVALID_VALUE);
  // "If CL_QUEUE_ON_DEVICE is set, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
  // must also be set" (on-device queues: tests/e2e/DeviceEnqueueTests.cpp).
  CHECK(tryProps({CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0}) ==
        CL_INVALID_VALUE);
  CHECK(tryProps({CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE_DEFAULT, 0}) ==
        CL_INVALID_VALUE);
  CHECK(tryProps({CL_QUEUE_SIZE, 1024, 0}) == CL_INVALID_VALUE);
  CHECK(tryProps({0x7fff, 0, 0}) == CL_INVALID_VALUE);
  CHECK(tryProps({CL_QUEUE_PROPERTIES, 0, CL_QUEUE_PROPERTIES, 0, 0}) ==
        CL_INVALID_VALUE);
  CHECK(clCreateCommandQueue(X.C, X.Dev, 1u << 20, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);
  CHECK(clCreateCommandQueue(X.C, X.Dev, CL_QUEUE_ON_DEVICE, &Err) == nullptr);
  CHECK(Err == CL_INVALID_VALUE);

  // A device outside the context: a sub-device, if the machine can split.
  cl_device_partition_property Part[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_device_id Sub = nullptr;
  cl_uint NumSub = 0;
  if (clCreateSubDevices(X.Dev, Part, 1, &Sub, &NumSub) == CL_SUCCESS) {
    CHECK(clCreateCommandQueue(X.C, Sub, 0, &Err) == nullptr);
    CHECK(Err == CL_INVALID_DEVICE);
    // A queue on the sub-device in its own context works.
    cl_context SC = clCreateContext(nullptr, 1, &Sub, nullptr, nullptr, &Err);
    REQUIRE(Err == CL_SUCCESS);
    cl_command_queue SQ = clCreateCommandQueue(SC, Sub, 0, &Err);
    REQUIRE(Err == CL_SUCCESS);
    cl_event E = nullptr;
    CHECK(clEnqueueMarkerWithWaitList(SQ, 0, nullptr, &E) == CL_SUCCESS);
    CHECK(clWaitForEvents(1, &E) == CL_SUCCESS);
    CHECK(clReleaseEvent(E) == CL_SUCCESS);
    CHECK(clReleaseCommandQueue(SQ) == CL_SUCCESS);
    CHECK(clReleaseContext(SC) == CL_SUCCESS);
    CHECK(clReleaseDevice(Sub) == CL_SUCCESS);
  }

  CHECK(clRetainCommandQueue(nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clReleaseCommandQueue(nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clFlush(nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clFinish(nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clGetCommandQueueInfo(nullptr, CL_QUEUE_CONTEXT, 0, nullptr, nullptr) ==
        CL_INVALID_COMMAND_QUEUE);
}

TEST_CASE("5.1: a host queue cannot be the default device queue", "[queue]") {
  Ctx X;
  cl_command_queue Q = X.queue();
  // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue
  // for device.
  CHECK(clSetDefaultDeviceCommandQueue(X.C, X.Dev, Q) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(clSetDefaultDeviceCommandQueue(nullptr, X.Dev, Q) ==
        CL_INVALID_CONTEXT);
  CHECK(clSetDefaultDeviceCommandQueue(X.C, nullptr, Q) == CL_INVALID_DEVICE);
  clReleaseCommandQueue(Q);
}

TEST_CASE("5.12: an in-order queue keeps order behind a user event",
          "[queue]") {
  Ctx X;
  cl_command_queue Q = X.queue();
  cl_event U = clCreateUserEvent(X.C, nullptr);
  cl_event M1 = nullptr, M2 = nullptr;
  CHECK(clEnqueueMarkerWithWaitList(Q, 1, &U, &M1) == CL_SUCCESS);
  CHECK(clEnqueueMarkerWithWaitList(Q, 0, nullptr, &M2) == CL_SUCCESS);
  CHECK(clFlush(Q) == CL_SUCCESS);
  // M2 comes after M1, which waits for U: neither can be complete.
  CHECK(status(M1) > CL_COMPLETE);
  CHECK(status(M2) > CL_COMPLETE);
  CHECK(clSetUserEventStatus(U, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clFinish(Q) == CL_SUCCESS);
  CHECK(status(M1) == CL_COMPLETE);
  CHECK(status(M2) == CL_COMPLETE);
  cl_command_type T = 0;
  CHECK(clGetEventInfo(M1, CL_EVENT_COMMAND_TYPE, sizeof T, &T, nullptr) ==
        CL_SUCCESS);
  CHECK(T == CL_COMMAND_MARKER);
  for (cl_event E : {U, M1, M2})
    clReleaseEvent(E);
  clReleaseCommandQueue(Q);
}

TEST_CASE("5.12: out-of-order queues run commands when their wait lists "
          "complete; barriers order them",
          "[queue]") {
  Ctx X;
  cl_command_queue Q = X.queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_event U1 = clCreateUserEvent(X.C, nullptr);
  cl_event U2 = clCreateUserEvent(X.C, nullptr);
  cl_event M1 = nullptr, M2 = nullptr, All = nullptr, B = nullptr, M3 = nullptr;
  CHECK(clEnqueueMarkerWithWaitList(Q, 1, &U1, &M1) == CL_SUCCESS);
  CHECK(clEnqueueMarkerWithWaitList(Q, 1, &U2, &M2) == CL_SUCCESS);
  // A marker with no wait list waits for every earlier command.
  CHECK(clEnqueueMarkerWithWaitList(Q, 0, nullptr, &All) == CL_SUCCESS);
  CHECK(clSetUserEventStatus(U2, CL_COMPLETE) == CL_SUCCESS);
  // M2 completes although M1, enqueued earlier, still waits.
  CHECK(clWaitForEvents(1, &M2) == CL_SUCCESS);
  CHECK(status(M1) > CL_COMPLETE);
  CHECK(status(All) > CL_COMPLETE);
  CHECK(clEnqueueBarrierWithWaitList(Q, 0, nullptr, &B) == CL_SUCCESS);
  CHECK(clEnqueueMarkerWithWaitList(Q, 1, &M2, &M3) == CL_SUCCESS);
  // M3's wait list is complete, but the barrier holds it back.
  CHECK(status(B) > CL_COMPLETE);
  CHECK(status(M3) > CL_COMPLETE);
  CHECK(clSetUserEventStatus(U1, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clFinish(Q) == CL_SUCCESS);
  for (cl_event E : {M1, All, B, M3})
    CHECK(status(E) == CL_COMPLETE);
  cl_command_type T = 0;
  CHECK(clGetEventInfo(B, CL_EVENT_COMMAND_TYPE, sizeof T, &T, nullptr) ==
        CL_SUCCESS);
  CHECK(T == CL_COMMAND_BARRIER);
  for (cl_event E : {U1, U2, M1, M2, All, B, M3})
    clReleaseEvent(E);
  clReleaseCommandQueue(Q);
}

TEST_CASE("5.12: wait lists are checked", "[queue]") {
  Ctx X, Other;
  cl_command_queue Q = X.queue();
  cl_event U = clCreateUserEvent(X.C, nullptr);
  cl_event Foreign = clCreateUserEvent(Other.C, nullptr);
  cl_event E = nullptr;
  CHECK(clEnqueueMarkerWithWaitList(Q, 1, nullptr, &E) ==
        CL_INVALID_EVENT_WAIT_LIST);
  CHECK(clEnqueueMarkerWithWaitList(Q, 0, &U, &E) ==
        CL_INVALID_EVENT_WAIT_LIST);
  cl_event Bad[] = {U, nullptr};
  CHECK(clEnqueueBarrierWithWaitList(Q, 2, Bad, &E) ==
        CL_INVALID_EVENT_WAIT_LIST);
  CHECK(clEnqueueMarkerWithWaitList(Q, 1, &Foreign, &E) == CL_INVALID_CONTEXT);
  CHECK(E == nullptr);
  CHECK(clEnqueueMarkerWithWaitList(nullptr, 0, nullptr, &E) ==
        CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueBarrierWithWaitList(nullptr, 0, nullptr, &E) ==
        CL_INVALID_COMMAND_QUEUE);
  clSetUserEventStatus(U, CL_COMPLETE);
  clSetUserEventStatus(Foreign, CL_COMPLETE);
  clReleaseEvent(U);
  clReleaseEvent(Foreign);
  clReleaseCommandQueue(Q);
}

TEST_CASE("5.12: a failed wait-list event fails the commands waiting for it",
          "[queue]") {
  Ctx X;
  cl_command_queue Q = X.queue();
  cl_event U = clCreateUserEvent(X.C, nullptr);
  cl_event M = nullptr, After = nullptr;
  CHECK(clEnqueueMarkerWithWaitList(Q, 1, &U, &M) == CL_SUCCESS);
  CHECK(clEnqueueMarkerWithWaitList(Q, 0, nullptr, &After) == CL_SUCCESS);
  CHECK(clSetUserEventStatus(U, -7) == CL_SUCCESS);
  CHECK(clWaitForEvents(1, &M) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(status(M) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(clFinish(Q) == CL_SUCCESS);
  // Only the wait list propagates failure, not the queue's order.
  CHECK(status(After) == CL_COMPLETE);
  for (cl_event E : {U, M, After})
    clReleaseEvent(E);
  clReleaseCommandQueue(Q);
}

TEST_CASE("5.12: wait lists span the queues of one context", "[queue]") {
  Ctx X;
  cl_command_queue Q1 = X.queue(), Q2 = X.queue();
  cl_event U = clCreateUserEvent(X.C, nullptr);
  cl_event A = nullptr, B = nullptr;
  CHECK(clEnqueueMarkerWithWaitList(Q2, 1, &U, &A) == CL_SUCCESS);
  CHECK(clEnqueueMarkerWithWaitList(Q1, 1, &A, &B) == CL_SUCCESS);
  CHECK(status(B) > CL_COMPLETE);
  CHECK(clSetUserEventStatus(U, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clFinish(Q1) == CL_SUCCESS);
  CHECK(status(A) == CL_COMPLETE);
  CHECK(status(B) == CL_COMPLETE);
  for (cl_event E : {U, A, B})
    clReleaseEvent(E);
  clReleaseCommandQueue(Q1);
  clReleaseCommandQueue(Q2);
}

TEST_CASE("5.12: OpenCL 1.x marker, barrier and wait-for-events", "[queue]") {
  Ctx X, Other;
  cl_command_queue Q = X.queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  CHECK(clEnqueueMarker(Q, nullptr) == CL_INVALID_VALUE);
  CHECK(clEnqueueMarker(nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueBarrier(nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueWaitForEvents(Q, 0, nullptr) == CL_INVALID_VALUE);
  cl_event Null = nullptr;
  CHECK(clEnqueueWaitForEvents(Q, 1, &Null) == CL_INVALID_EVENT);
  cl_event Foreign = clCreateUserEvent(Other.C, nullptr);
  CHECK(clEnqueueWaitForEvents(Q, 1, &Foreign) == CL_INVALID_CONTEXT);

  cl_event U = clCreateUserEvent(X.C, nullptr);
  CHECK(clEnqueueWaitForEvents(Q, 1, &U) == CL_SUCCESS);
  cl_event M = nullptr;
  // Later commands wait for U, even with an empty wait list on an
  // out-of-order queue.
  CHECK(clEnqueueMarkerWithWaitList(Q, 0, nullptr, &M) == CL_SUCCESS);
  CHECK(clEnqueueBarrier(Q) == CL_SUCCESS);
  cl_event Mk = nullptr;
  CHECK(clEnqueueMarker(Q, &Mk) == CL_SUCCESS);
  CHECK(status(M) > CL_COMPLETE);
  CHECK(status(Mk) > CL_COMPLETE);
  CHECK(clSetUserEventStatus(U, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clFinish(Q) == CL_SUCCESS);
  CHECK(status(M) == CL_COMPLETE);
  CHECK(status(Mk) == CL_COMPLETE);
  clSetUserEventStatus(Foreign, CL_COMPLETE);
  for (cl_event E : {Foreign, U, M, Mk})
    clReleaseEvent(E);
  clReleaseCommandQueue(Q);
}

TEST_CASE("5.15: releasing a queue flushes it; its commands still complete",
          "[queue]") {
  Ctx X;
  cl_command_queue Q = X.queue();
  cl_event U = clCreateUserEvent(X.C, nullptr);
  cl_event M = nullptr;
  CHECK(clEnqueueMarkerWithWaitList(Q, 1, &U, &M) == CL_SUCCESS);
  CHECK(clReleaseCommandQueue(Q) == CL_SUCCESS);
  CHECK(clReleaseCommandQueue(Q) == CL_INVALID_COMMAND_QUEUE);
  // The event still names its queue.
  cl_command_queue Of = nullptr;
  CHECK(clGetEventInfo(M, CL_EVENT_COMMAND_QUEUE, sizeof Of, &Of, nullptr) ==
        CL_SUCCESS);
  CHECK(Of == Q);
  CHECK(clSetUserEventStatus(U, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clWaitForEvents(1, &M) == CL_SUCCESS);
  clReleaseEvent(U);
  clReleaseEvent(M);
}

TEST_CASE("5.15: clFinish from several threads while others enqueue",
          "[queue]") {
  Ctx X;
  cl_command_queue Q = X.queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  std::vector<cl_event> Events(4 * 200);
  std::vector<std::thread> Ts;
  std::vector<cl_int> Errors(4, CL_SUCCESS);
  for (int T = 0; T < 4; ++T)
    Ts.emplace_back([&, T] {
      for (int I = 0; I < 200; ++I) {
        cl_int E =
            clEnqueueMarkerWithWaitList(Q, 0, nullptr, &Events[T * 200 + I]);
        if (E == CL_SUCCESS && I % 50 == 0)
          E = clFinish(Q);
        if (E != CL_SUCCESS)
          Errors[T] = E;
      }
    });
  for (auto &T : Ts)
    T.join();
  for (cl_int E : Errors)
    CHECK(E == CL_SUCCESS);
  CHECK(clFinish(Q) == CL_SUCCESS);
  int Complete = 0;
  for (cl_event E : Events) {
    Complete += status(E) == CL_COMPLETE;
    clReleaseEvent(E);
  }
  CHECK(Complete == 800);
  clReleaseCommandQueue(Q);
}

namespace {
void CL_CALLBACK setFlag(cl_event, cl_int, void *User) {
  static_cast<std::atomic<int> *>(User)->store(1);
}
} // namespace

TEST_CASE("5.15: commands complete without clFlush for an application that "
          "polls or waits for a callback",
          "[queue]") {
  Ctx X;
  cl_command_queue Q = X.queue();
  // Markers ready at once wake no worker until a flush point; polling the
  // status and registering a callback are such points.
  cl_event M = nullptr;
  CHECK(clEnqueueMarkerWithWaitList(Q, 0, nullptr, &M) == CL_SUCCESS);
  cl_int S = 1;
  for (int I = 0; I < 100000 && S != CL_COMPLETE; ++I) {
    clGetEventInfo(M, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof S, &S, nullptr);
    if (S != CL_COMPLETE)
      std::this_thread::yield();
  }
  CHECK(S == CL_COMPLETE);
  cl_event B = nullptr;
  CHECK(clEnqueueBarrierWithWaitList(Q, 0, nullptr, &B) == CL_SUCCESS);
  std::atomic<int> Flag{0};
  CHECK(clSetEventCallback(B, CL_COMPLETE, setFlag, &Flag) == CL_SUCCESS);
  for (int I = 0; I < 10000 && !Flag.load(); ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK(Flag.load() == 1);
  clReleaseEvent(M);
  clReleaseEvent(B);
  clReleaseCommandQueue(Q);
}

TEST_CASE("cl_khr_create_command_queue, cl_khr_priority_hints, "
          "cl_khr_throttle_hints: the KHR entry point and the hints are "
          "accepted, kept in CL_QUEUE_PROPERTIES_ARRAY, and bad hints get "
          "CL_INVALID_VALUE",
          "[queue]") {
  Ctx X;
  auto Create = extensionFunction<clCreateCommandQueueWithPropertiesKHR_fn>(
      "clCreateCommandQueueWithPropertiesKHR");
  REQUIRE(Create);
  cl_queue_properties_khr Props[] = {CL_QUEUE_PROPERTIES,
                                     CL_QUEUE_PROFILING_ENABLE,
                                     CL_QUEUE_PRIORITY_KHR,
                                     CL_QUEUE_PRIORITY_HIGH_KHR,
                                     CL_QUEUE_THROTTLE_KHR,
                                     CL_QUEUE_THROTTLE_LOW_KHR,
                                     0};
  cl_int Err = -1;
  cl_command_queue Q = Create(X.C, X.Dev, Props, &Err);
  REQUIRE(Err == CL_SUCCESS);
  cl_queue_properties Got[8] = {};
  size_t Size = 0;
  REQUIRE(clGetCommandQueueInfo(Q, CL_QUEUE_PROPERTIES_ARRAY, sizeof Got, Got,
                                &Size) == CL_SUCCESS);
  CHECK(Size == sizeof Props);
  for (size_t I = 0; I < 7; ++I)
    CHECK(Got[I] == Props[I]);
  cl_command_queue_properties Bits = 0;
  REQUIRE(clGetCommandQueueInfo(Q, CL_QUEUE_PROPERTIES, sizeof Bits, &Bits,
                                nullptr) == CL_SUCCESS);
  CHECK(Bits == CL_QUEUE_PROFILING_ENABLE);
  // The queue runs commands like any other.
  cl_event E = nullptr;
  REQUIRE(clEnqueueMarkerWithWaitList(Q, 0, nullptr, &E) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &E) == CL_SUCCESS);
  clReleaseEvent(E);
  clReleaseCommandQueue(Q);

  // CL_INVALID_VALUE if values specified in properties are not valid.
  for (cl_queue_properties Name :
       {cl_queue_properties(CL_QUEUE_PRIORITY_KHR),
        cl_queue_properties(CL_QUEUE_THROTTLE_KHR)}) {
    for (cl_queue_properties Bad : {0, 3, 8}) {
      cl_queue_properties BadProps[] = {Name, Bad, 0};
      Err = -1;
      CHECK(clCreateCommandQueueWithProperties(X.C, X.Dev, BadProps, &Err) ==
            nullptr);
      CHECK(Err == CL_INVALID_VALUE);
    }
    cl_queue_properties Twice[] = {Name, CL_QUEUE_PRIORITY_LOW_KHR, Name,
                                   CL_QUEUE_PRIORITY_LOW_KHR, 0};
    Err = -1;
    CHECK(Create(X.C, X.Dev, Twice, &Err) == nullptr);
    CHECK(Err == CL_INVALID_VALUE);
  }
}

namespace {
/// A program of one kernel `fill` writing Value + i, released by the caller.
cl_kernel fillKernel(cl_context C, cl_device_id D, int Value, cl_program &P) {
  std::string Src = "kernel void fill(global int *o) { o[get_global_id(0)] "
                    "= " +
                    std::to_string(Value) + " + (int)get_global_id(0); }";
  const char *S = Src.c_str();
  cl_int Err = -1;
  P = clCreateProgramWithSource(C, 1, &S, nullptr, &Err);
  REQUIRE(Err == CL_SUCCESS);
  REQUIRE(clBuildProgram(P, 1, &D, "", nullptr, nullptr) == CL_SUCCESS);
  cl_kernel K = clCreateKernel(P, "fill", &Err);
  REQUIRE(Err == CL_SUCCESS);
  return K;
}
} // namespace

// 5.10 / 5.15: "the kernel object is not deleted until all ... commands
// using it complete": a launch's code stays loaded until it ran, also when
// the application released the kernel and its program right after the
// enqueue. An in-order queue keeps one reference to the code of its newest
// launch for the launches of that code (CommandQueue::CodePin); a launch of
// other code takes it over and drops it only after it ran.
TEST_CASE("5.10: launches run after their kernel and program were released, "
          "in order and out of order, across programs",
          "[queue]") {
  Ctx X;
  const bool OutOfOrder = GENERATE(false, true);
  cl_command_queue Q =
      X.queue(OutOfOrder ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
  constexpr size_t N = 256, Programs = 3, Launches = 8;
  cl_int Err = -1;
  std::vector<cl_mem> Bufs;
  for (size_t I = 0; I < Programs * Launches; ++I) {
    Bufs.push_back(
        clCreateBuffer(X.C, CL_MEM_READ_WRITE, N * sizeof(int), nullptr, &Err));
    REQUIRE(Err == CL_SUCCESS);
  }
  // Nothing runs before the user event: every launch is still pending when
  // its kernel and program are gone.
  cl_event Gate = clCreateUserEvent(X.C, &Err);
  REQUIRE(Err == CL_SUCCESS);
  for (size_t P = 0; P < Programs; ++P) {
    cl_program Prog = nullptr;
    cl_kernel K = fillKernel(X.C, X.Dev, int(1000 * (P + 1)), Prog);
    for (size_t L = 0; L < Launches; ++L) {
      REQUIRE(clSetKernelArg(K, 0, sizeof(cl_mem), &Bufs[P * Launches + L]) ==
              CL_SUCCESS);
      REQUIRE(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &N, nullptr, 1, &Gate,
                                     nullptr) == CL_SUCCESS);
    }
    CHECK(clReleaseKernel(K) == CL_SUCCESS);
    CHECK(clReleaseProgram(Prog) == CL_SUCCESS);
  }
  CHECK(clSetUserEventStatus(Gate, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clFinish(Q) == CL_SUCCESS);
  for (size_t I = 0; I < Bufs.size(); ++I) {
    std::vector<int> Got(N);
    REQUIRE(clEnqueueReadBuffer(Q, Bufs[I], CL_TRUE, 0, N * sizeof(int),
                                Got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    int Base = int(1000 * (I / Launches + 1));
    size_t Wrong = 0;
    for (size_t J = 0; J < N; ++J)
      Wrong += Got[J] != Base + int(J);
    INFO("buffer " << I);
    CHECK(Wrong == 0);
    clReleaseMemObject(Bufs[I]);
  }
  // The queue goes on with a new program after clFinish dropped its
  // reference, and after the queue is released its last launch completes.
  cl_program Prog = nullptr;
  cl_kernel K = fillKernel(X.C, X.Dev, 7, Prog);
  cl_mem B =
      clCreateBuffer(X.C, CL_MEM_READ_WRITE, N * sizeof(int), nullptr, &Err);
  REQUIRE(clSetKernelArg(K, 0, sizeof B, &B) == CL_SUCCESS);
  cl_event Done = nullptr;
  cl_event Gate2 = clCreateUserEvent(X.C, &Err);
  REQUIRE(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &N, nullptr, 1, &Gate2,
                                 &Done) == CL_SUCCESS);
  clReleaseKernel(K);
  clReleaseProgram(Prog);
  CHECK(clReleaseCommandQueue(Q) == CL_SUCCESS);
  CHECK(clSetUserEventStatus(Gate2, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clWaitForEvents(1, &Done) == CL_SUCCESS);
  CHECK(status(Done) == CL_COMPLETE);
  cl_command_queue Q2 = X.queue();
  std::vector<int> Got(N);
  REQUIRE(clEnqueueReadBuffer(Q2, B, CL_TRUE, 0, N * sizeof(int), Got.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  CHECK(Got[0] == 7);
  CHECK(Got[N - 1] == 7 + int(N - 1));
  for (cl_event E : {Gate, Gate2, Done})
    clReleaseEvent(E);
  clReleaseMemObject(B);
  clReleaseCommandQueue(Q2);
}
