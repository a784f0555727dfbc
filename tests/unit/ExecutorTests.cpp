// Unit tests of scheduler/Executor and of CommandQueue::enqueue, the
// interface memory commands and kernel launches use (OpenCL 3.0 API spec
// 5.1 command-queues, 5.11 events).

#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Event.h"
#include "runtime/Platform.h"
#include "scheduler/Executor.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>

using namespace clcpu;

namespace {
void waitFor(const std::function<bool()> &Done) {
  Executor::waitUntil({}, Done);
}
} // namespace

TEST_CASE("5.1: Executor runs submitted tasks on worker threads",
          "[executor]") {
  std::atomic<int> Entered{0};
  Executor E(2, [&] { Entered.fetch_add(1); });
  CHECK(E.threads() == 2);
  std::atomic<int> Ran{0};
  std::atomic<bool> OnCaller{false};
  const auto Caller = std::this_thread::get_id();
  constexpr int N = 5000;
  for (int I = 0; I < N; ++I)
    E.submit([&] {
      if (std::this_thread::get_id() == Caller)
        OnCaller = true;
      Ran.fetch_add(1);
      Executor::notifyProgress();
    });
  // No help: only workers can run them.
  waitFor([&] { return Ran.load() == N; });
  CHECK(Ran.load() == N);
  CHECK_FALSE(OnCaller.load());
  CHECK(Entered.load() >= 1); // the pinning callback ran on a worker
}

TEST_CASE("5.1: a waiting thread runs ready tasks itself", "[executor]") {
  Executor E(1, nullptr);
  std::atomic<bool> BDone{false};
  std::thread::id BThread;
  // A occupies the only worker until B has run, so only the waiting thread
  // can run B.
  std::atomic<bool> AStarted{false};
  E.submit([&] {
    AStarted = true;
    Executor::notifyProgress();
    waitFor([&] { return BDone.load(); });
  });
  waitFor([&] { return AStarted.load(); });
  E.submit([&] {
    BThread = std::this_thread::get_id();
    BDone = true;
    Executor::notifyProgress();
  });
  Executor *Help[] = {&E};
  Executor::waitUntil(Help, [&] { return BDone.load(); });
  CHECK(BThread == std::this_thread::get_id());
  waitFor([&] { return E.queued() == 0; });
}

// Each time an empty TBB arena gets a task, TBB wakes every worker of the
// arena: with 16 workers an empty launch took 30-36 us of CPU time. A
// drainer that emptied the FIFO waits for the next task instead of leaving.
TEST_CASE("5.1: back-to-back tasks reuse the waiting drainer instead of "
          "new arena tasks",
          "[executor]") {
  Executor E(4, nullptr);
  // Long enough that a drainer descheduled on a loaded machine (ctest runs
  // two test binaries on two cores) still waits; the pauses between tasks
  // let it count itself idle before the next one comes.
  E.setLingerMicroseconds(2'000'000);
  constexpr int N = 200;
  std::atomic<int> Ran{0};
  for (int I = 0; I < N; ++I) {
    E.submit([&] {
      Ran.fetch_add(1);
      Executor::notifyProgress();
    });
    waitFor([&] { return Ran.load() == I + 1; });
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  INFO("arena tasks for " << N << " tasks: " << E.arenaTasks());
  // Every task needs its own arena task if drainers leave at once.
  CHECK(E.arenaTasks() < N / 4);
}

TEST_CASE("5.1: Executor::shared returns one executor per CPU set",
          "[executor]") {
  Executor &A = Executor::shared({0}, 1, nullptr);
  Executor &B = Executor::shared({0}, 1, nullptr);
  Executor &C = Executor::shared({0}, 2, nullptr);
  CHECK(&A == &B);
  CHECK(&A != &C);
}

namespace {
struct QueueFixture {
  Context *Ctx;
  CommandQueue *Queue;
  explicit QueueFixture(cl_command_queue_properties Props = 0) {
    Device *D = Platform::get().devices().front();
    Ctx = new Context({D}, {}, nullptr, nullptr);
    Queue = new CommandQueue(Ctx, D, Props, {});
  }
  ~QueueFixture() {
    Queue->finish();
    CHECK(Queue->release());
    CHECK(Ctx->release());
  }
};
cl_int statusOf(cl_event E) {
  cl_int S = 1;
  clcpu::Event::fromHandle(E)->getInfo(CL_EVENT_COMMAND_EXECUTION_STATUS,
                                       InfoOut(sizeof S, &S, nullptr));
  return S;
}
} // namespace

TEST_CASE("5.11: CommandQueue::enqueue runs work off the caller and reports "
          "its status",
          "[queue]") {
  QueueFixture F;
  const auto Caller = std::this_thread::get_id();
  std::thread::id Ran;
  cl_event Ev = nullptr;
  CHECK(
      F.Queue->enqueue(CL_COMMAND_NDRANGE_KERNEL, 0, nullptr, &Ev, false, [&] {
        Ran = std::this_thread::get_id();
        return CL_SUCCESS;
      }) == CL_SUCCESS);
  REQUIRE(Ev);
  Event *E = Event::fromHandle(Ev);
  Event *const One[] = {E};
  Event::waitAll(One);
  CHECK(statusOf(Ev) == CL_COMPLETE);
  CHECK(Ran != std::thread::id());
  (void)Caller; // the waiting caller may have helped: allowed
  CHECK(E->release());

  // A failing command: its error becomes the status; blocking returns it.
  CHECK(F.Queue->enqueue(CL_COMMAND_READ_BUFFER, 0, nullptr, &Ev, true, [] {
    return CL_OUT_OF_RESOURCES;
  }) == CL_OUT_OF_RESOURCES);
  CHECK(statusOf(Ev) == CL_OUT_OF_RESOURCES);
  CHECK(Event::fromHandle(Ev)->release());
}

TEST_CASE("5.11: enqueue fails dependents of a failed wait-list event",
          "[queue]") {
  QueueFixture F(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  auto *U = new Event(F.Ctx);
  cl_event UH = U->handle();
  bool Ran = false;
  cl_event Ev = nullptr;
  CHECK(F.Queue->enqueue(CL_COMMAND_WRITE_BUFFER, 1, &UH, &Ev, false, [&] {
    Ran = true;
    return CL_SUCCESS;
  }) == CL_SUCCESS);
  CHECK(statusOf(Ev) == CL_SUBMITTED);
  CHECK(U->setUserStatus(-42) == CL_SUCCESS);
  F.Queue->finish();
  CHECK(statusOf(Ev) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_FALSE(Ran);
  // Blocking on a failed wait list.
  CHECK(F.Queue->enqueue(CL_COMMAND_WRITE_BUFFER, 1, &UH, nullptr, true, [] {
    return CL_SUCCESS;
  }) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  // Wait-list checks.
  CHECK(F.Queue->enqueue(CL_COMMAND_MARKER, 1, nullptr, nullptr, false,
                         nullptr) == CL_INVALID_EVENT_WAIT_LIST);
  CHECK(F.Queue->enqueue(CL_COMMAND_MARKER, 0, &UH, nullptr, false, nullptr) ==
        CL_INVALID_EVENT_WAIT_LIST);
  CHECK(Event::fromHandle(Ev)->release());
  CHECK(U->release());
}

TEST_CASE("5.11: an in-order queue runs its commands one after another",
          "[queue]") {
  QueueFixture F;
  std::vector<int> Order;
  std::atomic<int> Running{0};
  bool Overlap = false;
  for (int I = 0; I < 200; ++I)
    F.Queue->enqueue(CL_COMMAND_NDRANGE_KERNEL, 0, nullptr, nullptr, false,
                     [&, I] {
                       if (Running.fetch_add(1) != 0)
                         Overlap = true;
                       Order.push_back(I);
                       Running.fetch_sub(1);
                       return CL_SUCCESS;
                     });
  F.Queue->finish();
  REQUIRE(Order.size() == 200);
  for (int I = 0; I < 200; ++I)
    CHECK(Order[I] == I);
  CHECK_FALSE(Overlap);
}

TEST_CASE("5.11: a thread waiting for the last of a chain of commands is "
          "woken once, not per command",
          "[queue]") {
  // A host thread in clFinish woken by every finishing command would spin
  // beside the workers, on the cores the launches need. Only the events a
  // thread waits for wake it.
  QueueFixture F;
  auto *U = new Event(F.Ctx);
  cl_event UH = U->handle();
  constexpr int N = 200;
  std::atomic<int> Ran{0};
  cl_event Last = nullptr;
  for (int I = 0; I < N; ++I)
    REQUIRE(F.Queue->enqueue(CL_COMMAND_NDRANGE_KERNEL, I == 0 ? 1 : 0,
                             I == 0 ? &UH : nullptr,
                             I + 1 == N ? &Last : nullptr, false, [&] {
                               Ran.fetch_add(1);
                               return CL_SUCCESS;
                             }) == CL_SUCCESS);
  unsigned long Before = Executor::progressGeneration();
  std::thread Releaser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    U->setUserStatus(CL_COMPLETE);
  });
  Event *const One[] = {Event::fromHandle(Last)};
  Event::waitAll(One);
  unsigned long Wakeups = Executor::progressGeneration() - Before;
  Releaser.join();
  CHECK(Ran.load() == N);
  CHECK(statusOf(Last) == CL_COMPLETE);
  // The first command becoming ready and the last one finishing; a few
  // more if commands went through the FIFO. Never one per command.
  INFO("wake-ups: " << Wakeups);
  CHECK(Wakeups < N / 4);
  CHECK(Event::fromHandle(Last)->release());
  CHECK(U->release());
}
