// Unit tests of runtime/CommandBuffer (cl_khr_command_buffer 0.9.8): sync
// points, recording order at replay, the first failing command ending a
// replay, the lifecycle, and the command-buffer outliving the application's
// reference while a replay is pending.

#include "icd/Dispatch.h"
#include "runtime/CommandBuffer.h"
#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Event.h"
#include "runtime/Platform.h"
#include "runtime/api/CommandBufferApi.h"

#include <catch2/catch.hpp>

#include <vector>

using namespace clcpu;

namespace {
struct Fixture {
  Context *Ctx;
  CommandQueue *Queue;
  CommandBuffer *B;
  Fixture() {
    Device *D = Platform::get().devices().front();
    Ctx = new Context({D}, {}, nullptr, nullptr);
    Queue = new CommandQueue(Ctx, D, 0, {});
    B = new CommandBuffer(Queue, {});
  }
  ~Fixture() {
    Queue->finish();
    CHECK(Queue->release());
    CHECK(Ctx->release());
  }
  cl_int replay(cl_event *Ev = nullptr) { return B->enqueue(Queue, {}, Ev); }
};
} // namespace

TEST_CASE("cl_khr_command_buffer: sync points name earlier commands of the "
          "same command-buffer only",
          "[command_buffer]") {
  Fixture F;
  cl_sync_point_khr S1 = 0, S2 = 0;
  auto Nothing = [] { return CL_SUCCESS; };
  CHECK(F.B->record(Nothing, &S1) == CL_SUCCESS);
  CHECK(F.B->record(Nothing, &S2) == CL_SUCCESS);
  CHECK(S1 != 0);
  CHECK(S2 != S1);
  const cl_sync_point_khr Both[] = {S1, S2}, Later[] = {S2 + 1}, Zero[] = {0};
  CHECK(F.B->checkSyncPoints(2, Both) == CL_SUCCESS);
  CHECK(F.B->checkSyncPoints(1, Later) == CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  CHECK(F.B->checkSyncPoints(1, Zero) == CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  CHECK(F.B->checkSyncPoints(1, nullptr) ==
        CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  CHECK(F.B->checkSyncPoints(0, Both) == CL_INVALID_SYNC_POINT_WAIT_LIST_KHR);
  CHECK(F.B->release());
}

TEST_CASE("cl_khr_command_buffer: a replay runs the commands in recording "
          "order, every time, and stops at the first failing one",
          "[command_buffer]") {
  Fixture F;
  std::vector<int> Ran;
  for (int I = 0; I < 5; ++I)
    CHECK(F.B->record(
              [&Ran, I] {
                Ran.push_back(I);
                return I == 3 ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
              },
              nullptr) == CL_SUCCESS);
  CHECK_FALSE(F.B->finalized());
  CHECK(F.B->finalize() == CL_SUCCESS);
  CHECK(F.B->finalized());
  CHECK(F.B->finalize() == CL_INVALID_OPERATION);
  CHECK(F.B->record([] { return CL_SUCCESS; }, nullptr) ==
        CL_INVALID_OPERATION);
  cl_event Ev = nullptr;
  CHECK(F.replay(&Ev) == CL_SUCCESS);
  CHECK(F.replay() == CL_SUCCESS);
  F.Queue->finish();
  CHECK(Ran == std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3});
  cl_int Status = 1;
  Event::fromHandle(Ev)->getInfo(CL_EVENT_COMMAND_EXECUTION_STATUS,
                                 InfoOut(sizeof Status, &Status, nullptr));
  CHECK(Status == CL_OUT_OF_RESOURCES);
  CHECK(Event::fromHandle(Ev)->release());
  CHECK(F.B->release());
}

TEST_CASE("cl_khr_command_buffer: a pending replay holds the command-buffer",
          "[command_buffer]") {
  Fixture F;
  Event *Gate = new Event(F.Ctx);
  int Runs = 0;
  CHECK(F.B->record(
            [&Runs] {
              ++Runs;
              return CL_SUCCESS;
            },
            nullptr) == CL_SUCCESS);
  CHECK(F.B->finalize() == CL_SUCCESS);
  Event *const Waits[] = {Gate};
  CHECK(F.B->enqueue(F.Queue, Waits, nullptr) == CL_SUCCESS);
  cl_command_buffer_khr H = F.B->handle();
  CHECK(F.B->release()); // the application's last reference
  CHECK(CommandBuffer::fromHandle(H) != nullptr); // the replay's
  CHECK(Gate->setUserStatus(CL_COMPLETE) == CL_SUCCESS);
  F.Queue->finish();
  CHECK(Runs == 1);
  CHECK(Gate->release());
}

TEST_CASE("cl_khr_command_buffer: its entry points are found by name",
          "[command_buffer][icd]") {
  CHECK(icd::extensionFunction("clCreateCommandBufferKHR") ==
        reinterpret_cast<void *>(&khr::clCreateCommandBufferKHR));
  CHECK(icd::extensionFunction("clCommandSVMMemFillKHR") ==
        reinterpret_cast<void *>(&khr::clCommandSVMMemFillKHR));
  CHECK(icd::extensionFunction("clGetCommandBufferInfoKHR") ==
        reinterpret_cast<void *>(&khr::clGetCommandBufferInfoKHR));
  // cl_khr_command_buffer_mutable_dispatch 0.9.5.
  CHECK(icd::extensionFunction("clUpdateMutableCommandsKHR") ==
        reinterpret_cast<void *>(&khr::clUpdateMutableCommandsKHR));
  CHECK(icd::extensionFunction("clGetMutableCommandInfoKHR") ==
        reinterpret_cast<void *>(&khr::clGetMutableCommandInfoKHR));
}
