// End-to-end: event objects, user events, callbacks and profiling through the
// ICD loader (OpenCL 3.0 API spec 5.11, 5.14).

#include "Common.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

namespace {
struct Ctx {
  cl_device_id Dev = clcpuDevice();
  cl_context C = clCreateContext(nullptr, 1, &Dev, nullptr, nullptr, nullptr);
  ~Ctx() { clReleaseContext(C); }
  cl_command_queue queue(cl_command_queue_properties P = 0) {
    return clCreateCommandQueue(C, Dev, P, nullptr);
  }
};

cl_int status(cl_event E) {
  cl_int S = 1;
  clGetEventInfo(E, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof S, &S, nullptr);
  return S;
}

struct Seen {
  std::mutex Lock;
  std::vector<std::pair<cl_event, cl_int>> Calls;
  size_t count() {
    std::lock_guard<std::mutex> G(Lock);
    return Calls.size();
  }
  /// Callbacks may run on a worker thread just after the status changed.
  bool waitFor(size_t N) {
    for (int I = 0; I < 10000 && count() < N; ++I)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return count() >= N;
  }
};
void CL_CALLBACK record(cl_event E, cl_int S, void *User) {
  auto *Sn = static_cast<Seen *>(User);
  std::lock_guard<std::mutex> G(Sn->Lock);
  Sn->Calls.emplace_back(E, S);
}
} // namespace

TEST_CASE("5.11: user events", "[event]") {
  Ctx X;
  cl_int Err = 0;
  CHECK(clCreateUserEvent(nullptr, &Err) == nullptr);
  CHECK(Err == CL_INVALID_CONTEXT);
  cl_event U = clCreateUserEvent(X.C, &Err);
  REQUIRE(Err == CL_SUCCESS);
  CHECK(status(U) == CL_SUBMITTED);
  cl_command_queue Q = X.queue();
  cl_command_queue Of = Q;
  CHECK(clGetEventInfo(U, CL_EVENT_COMMAND_QUEUE, sizeof Of, &Of, nullptr) ==
        CL_SUCCESS);
  CHECK(Of == nullptr);
  cl_context C = nullptr;
  CHECK(clGetEventInfo(U, CL_EVENT_CONTEXT, sizeof C, &C, nullptr) ==
        CL_SUCCESS);
  CHECK(C == X.C);
  cl_command_type T = 0;
  CHECK(clGetEventInfo(U, CL_EVENT_COMMAND_TYPE, sizeof T, &T, nullptr) ==
        CL_SUCCESS);
  CHECK(T == CL_COMMAND_USER);
  CHECK(clGetEventInfo(U, 0x7fff, sizeof T, &T, nullptr) == CL_INVALID_VALUE);
  CHECK(clGetEventInfo(U, CL_EVENT_COMMAND_TYPE, 1, &T, nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clGetEventInfo(nullptr, CL_EVENT_COMMAND_TYPE, sizeof T, &T, nullptr) ==
        CL_INVALID_EVENT);

  CHECK(clSetUserEventStatus(U, CL_SUBMITTED) == CL_INVALID_VALUE);
  CHECK(clSetUserEventStatus(U, CL_RUNNING) == CL_INVALID_VALUE);
  CHECK(clSetUserEventStatus(nullptr, CL_COMPLETE) == CL_INVALID_EVENT);
  CHECK(clSetUserEventStatus(U, CL_COMPLETE) == CL_SUCCESS);
  CHECK(status(U) == CL_COMPLETE);
  CHECK(clSetUserEventStatus(U, CL_COMPLETE) == CL_INVALID_OPERATION);
  CHECK(clSetUserEventStatus(U, -1) == CL_INVALID_OPERATION);

  // Not a user event.
  cl_event M = nullptr;
  CHECK(clEnqueueMarkerWithWaitList(Q, 0, nullptr, &M) == CL_SUCCESS);
  CHECK(clSetUserEventStatus(M, CL_COMPLETE) == CL_INVALID_EVENT);
  CHECK(clFinish(Q) == CL_SUCCESS);

  cl_event F = clCreateUserEvent(X.C, nullptr);
  CHECK(clSetUserEventStatus(F, -1234) == CL_SUCCESS);
  CHECK(status(F) == -1234);
  for (cl_event E : {U, M, F})
    clReleaseEvent(E);
  clReleaseCommandQueue(Q);
}

TEST_CASE("5.11: retain and release events", "[event]") {
  Ctx X;
  cl_event U = clCreateUserEvent(X.C, nullptr);
  CHECK(clRetainEvent(U) == CL_SUCCESS);
  cl_uint Refs = 0;
  CHECK(clGetEventInfo(U, CL_EVENT_REFERENCE_COUNT, sizeof Refs, &Refs,
                       nullptr) == CL_SUCCESS);
  CHECK(Refs == 2);
  CHECK(clReleaseEvent(U) == CL_SUCCESS);
  CHECK(clReleaseEvent(U) == CL_SUCCESS);
  CHECK(clRetainEvent(nullptr) == CL_INVALID_EVENT);
  CHECK(clReleaseEvent(nullptr) == CL_INVALID_EVENT);
}

TEST_CASE("5.11: clWaitForEvents", "[event]") {
  Ctx X, Other;
  CHECK(clWaitForEvents(0, nullptr) == CL_INVALID_VALUE);
  cl_event U = clCreateUserEvent(X.C, nullptr);
  CHECK(clWaitForEvents(0, &U) == CL_INVALID_VALUE);
  CHECK(clWaitForEvents(1, nullptr) == CL_INVALID_VALUE);
  cl_event Null = nullptr;
  CHECK(clWaitForEvents(1, &Null) == CL_INVALID_EVENT);
  cl_event Foreign = clCreateUserEvent(Other.C, nullptr);
  cl_event Mixed[] = {U, Foreign};
  CHECK(clWaitForEvents(2, Mixed) == CL_INVALID_CONTEXT);

  // Another thread waits until this one sets the user event.
  cl_command_queue Q = X.queue();
  cl_event M = nullptr;
  CHECK(clEnqueueMarkerWithWaitList(Q, 1, &U, &M) == CL_SUCCESS);
  std::atomic<cl_int> Waited{1};
  std::thread T([&] {
    cl_event Both[] = {U, M};
    Waited = clWaitForEvents(2, Both);
  });
  CHECK(clSetUserEventStatus(U, CL_COMPLETE) == CL_SUCCESS);
  T.join();
  CHECK(Waited.load() == CL_SUCCESS);
  CHECK(status(M) == CL_COMPLETE);

  cl_event F = clCreateUserEvent(X.C, nullptr);
  CHECK(clSetUserEventStatus(F, -5) == CL_SUCCESS);
  cl_event WithFailed[] = {M, F};
  CHECK(clWaitForEvents(2, WithFailed) ==
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  clSetUserEventStatus(Foreign, CL_COMPLETE);
  for (cl_event E : {U, Foreign, M, F})
    clReleaseEvent(E);
  clReleaseCommandQueue(Q);
}

TEST_CASE("5.11: event callbacks", "[event]") {
  Ctx X;
  Seen S;
  cl_event U = clCreateUserEvent(X.C, nullptr);
  CHECK(clSetEventCallback(nullptr, CL_COMPLETE, record, &S) ==
        CL_INVALID_EVENT);
  CHECK(clSetEventCallback(U, CL_COMPLETE, nullptr, &S) == CL_INVALID_VALUE);
  CHECK(clSetEventCallback(U, CL_QUEUED, record, &S) == CL_INVALID_VALUE);
  CHECK(clSetEventCallback(U, 42, record, &S) == CL_INVALID_VALUE);
  // A user event is CL_SUBMITTED already: that callback runs at once.
  CHECK(clSetEventCallback(U, CL_SUBMITTED, record, &S) == CL_SUCCESS);
  CHECK(S.count() == 1);
  CHECK(clSetEventCallback(U, CL_COMPLETE, record, &S) == CL_SUCCESS);
  CHECK(S.count() == 1);

  cl_command_queue Q = X.queue();
  cl_event M = nullptr;
  CHECK(clEnqueueMarkerWithWaitList(Q, 1, &U, &M) == CL_SUCCESS);
  CHECK(clSetEventCallback(M, CL_RUNNING, record, &S) == CL_SUCCESS);
  CHECK(clSetEventCallback(M, CL_COMPLETE, record, &S) == CL_SUCCESS);
  CHECK(S.count() == 1);
  CHECK(clSetUserEventStatus(U, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clFinish(Q) == CL_SUCCESS);
  REQUIRE(S.waitFor(4));
  {
    std::lock_guard<std::mutex> G(S.Lock);
    CHECK(S.Calls[0] == std::make_pair(U, cl_int(CL_SUBMITTED)));
    // Callbacks of different events may run in any order.
    auto Count = [&](cl_event E, cl_int St) {
      return std::count(S.Calls.begin(), S.Calls.end(), std::make_pair(E, St));
    };
    CHECK(S.Calls.size() == 4);
    CHECK(Count(U, CL_COMPLETE) == 1);
    CHECK(Count(M, CL_RUNNING) == 1);
    CHECK(Count(M, CL_COMPLETE) == 1);
  }
  // Registered after completion: runs at once.
  CHECK(clSetEventCallback(M, CL_COMPLETE, record, &S) == CL_SUCCESS);
  CHECK(S.count() == 5);

  // A failing command reports its error to CL_COMPLETE callbacks.
  Seen Failed;
  cl_event F = clCreateUserEvent(X.C, nullptr);
  cl_event MF = nullptr;
  CHECK(clEnqueueMarkerWithWaitList(Q, 1, &F, &MF) == CL_SUCCESS);
  CHECK(clSetEventCallback(MF, CL_COMPLETE, record, &Failed) == CL_SUCCESS);
  CHECK(clSetUserEventStatus(F, -3) == CL_SUCCESS);
  CHECK(clFinish(Q) == CL_SUCCESS);
  REQUIRE(Failed.waitFor(1));
  CHECK(Failed.Calls[0].second == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  for (cl_event E : {U, M, F, MF})
    clReleaseEvent(E);
  clReleaseCommandQueue(Q);
}

namespace {
void CL_CALLBACK queryInCallback(cl_event E, cl_int, void *User) {
  // Entry points may be called from callbacks (no driver lock is held).
  cl_int St = 1;
  clGetEventInfo(E, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof St, &St, nullptr);
  static_cast<std::atomic<cl_int> *>(User)->store(St);
}
} // namespace

TEST_CASE("5.11: callbacks may call into the driver", "[event]") {
  Ctx X;
  cl_command_queue Q = X.queue();
  cl_event U = clCreateUserEvent(X.C, nullptr);
  cl_event M = nullptr, Dropped = nullptr;
  std::atomic<cl_int> Got{1};
  Seen S;
  CHECK(clEnqueueMarkerWithWaitList(Q, 1, &U, &M) == CL_SUCCESS);
  CHECK(clEnqueueMarkerWithWaitList(Q, 1, &U, &Dropped) == CL_SUCCESS);
  CHECK(clSetEventCallback(M, CL_COMPLETE, queryInCallback, &Got) ==
        CL_SUCCESS);
  CHECK(clSetEventCallback(Dropped, CL_COMPLETE, record, &S) == CL_SUCCESS);
  // Released before it completes: its callback still runs.
  CHECK(clReleaseEvent(Dropped) == CL_SUCCESS);
  CHECK(clSetUserEventStatus(U, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clFinish(Q) == CL_SUCCESS);
  for (int I = 0; I < 10000 && Got.load() == 1; ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK(Got.load() == CL_COMPLETE);
  CHECK(S.waitFor(1));
  clReleaseEvent(M);
  clReleaseEvent(U);
  clReleaseCommandQueue(Q);
}

TEST_CASE("5.14: profiling timestamps", "[event][profiling]") {
  Ctx X;
  cl_command_queue Q = X.queue(CL_QUEUE_PROFILING_ENABLE);
  cl_event U = clCreateUserEvent(X.C, nullptr);
  cl_event M = nullptr;
  CHECK(clEnqueueMarkerWithWaitList(Q, 1, &U, &M) == CL_SUCCESS);
  cl_ulong T[5] = {};
  // Not available before the command is complete.
  CHECK(clGetEventProfilingInfo(M, CL_PROFILING_COMMAND_QUEUED, sizeof T[0],
                                &T[0],
                                nullptr) == CL_PROFILING_INFO_NOT_AVAILABLE);
  CHECK(clSetUserEventStatus(U, CL_COMPLETE) == CL_SUCCESS);
  CHECK(clWaitForEvents(1, &M) == CL_SUCCESS);
  const cl_profiling_info Names[] = {
      CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
      CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
      CL_PROFILING_COMMAND_COMPLETE};
  for (int I = 0; I < 5; ++I) {
    size_t Size = 0;
    CHECK(clGetEventProfilingInfo(M, Names[I], sizeof T[I], &T[I], &Size) ==
          CL_SUCCESS);
    CHECK(Size == sizeof(cl_ulong));
    CHECK(T[I] != 0);
    if (I)
      CHECK(T[I - 1] <= T[I]);
  }
  // The host timer and the device timer are one clock.
  cl_ulong Host = 0;
  CHECK(clGetHostTimer(X.Dev, &Host) == CL_SUCCESS);
  CHECK(T[4] <= Host);
  CHECK(clGetEventProfilingInfo(M, 0x7fff, sizeof T[0], &T[0], nullptr) ==
        CL_INVALID_VALUE);
  CHECK(clGetEventProfilingInfo(M, CL_PROFILING_COMMAND_END, 1, &T[0],
                                nullptr) == CL_INVALID_VALUE);
  CHECK(clGetEventProfilingInfo(nullptr, CL_PROFILING_COMMAND_END, sizeof T[0],
                                &T[0], nullptr) == CL_INVALID_EVENT);
  // User events have no profiling information.
  CHECK(clGetEventProfilingInfo(U, CL_PROFILING_COMMAND_END, sizeof T[0], &T[0],
                                nullptr) == CL_PROFILING_INFO_NOT_AVAILABLE);

  // Nor do commands of a queue without profiling.
  cl_command_queue NoProf = X.queue();
  cl_event N = nullptr;
  CHECK(clEnqueueMarkerWithWaitList(NoProf, 0, nullptr, &N) == CL_SUCCESS);
  CHECK(clFinish(NoProf) == CL_SUCCESS);
  CHECK(clGetEventProfilingInfo(N, CL_PROFILING_COMMAND_END, sizeof T[0], &T[0],
                                nullptr) == CL_PROFILING_INFO_NOT_AVAILABLE);
  for (cl_event E : {U, M, N})
    clReleaseEvent(E);
  clReleaseCommandQueue(Q);
  clReleaseCommandQueue(NoProf);
}

namespace {
struct FinishInCallback {
  cl_command_queue Q;
  std::atomic<cl_int> Result{1};
};
void CL_CALLBACK finishQueue(cl_event, cl_int, void *User) {
  auto *F = static_cast<FinishInCallback *>(User);
  F->Result = clFinish(F->Q);
}
} // namespace

TEST_CASE("5.11: a callback may wait for later commands of its queue",
          "[event]") {
  Ctx X;
  cl_command_queue Q = X.queue();
  cl_event U = clCreateUserEvent(X.C, nullptr);
  cl_event M1 = nullptr, M2 = nullptr;
  CHECK(clEnqueueMarkerWithWaitList(Q, 1, &U, &M1) == CL_SUCCESS);
  CHECK(clEnqueueMarkerWithWaitList(Q, 0, nullptr, &M2) == CL_SUCCESS);
  FinishInCallback F{Q};
  // The callback runs when M1 completes, on the thread that then also
  // starts M2: clFinish inside it must not wait for itself.
  CHECK(clSetEventCallback(M1, CL_COMPLETE, finishQueue, &F) == CL_SUCCESS);
  CHECK(clSetUserEventStatus(U, CL_COMPLETE) == CL_SUCCESS);
  for (int I = 0; I < 10000 && F.Result.load() == 1; ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK(F.Result.load() == CL_SUCCESS);
  CHECK(clFinish(Q) == CL_SUCCESS);
  CHECK(status(M2) == CL_COMPLETE);
  for (cl_event E : {U, M1, M2})
    clReleaseEvent(E);
  clReleaseCommandQueue(Q);
}
