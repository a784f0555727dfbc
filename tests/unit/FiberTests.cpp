// Unit tests of the fiber work-group runner (scheduler/Fiber.h) and the
// NDRange runner (scheduler/NDRange.h), with C++ functions standing in for
// compiled kernels.

#include "scheduler/Collectives.h"
#include "scheduler/Fiber.h"
#include "scheduler/NDRange.h"

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>

#include <catch2/catch.hpp>

#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

extern char **environ;

using namespace clcpu;

namespace {

struct Trace {
  std::vector<std::pair<size_t, int>> Events; // (linear id, phase)
  int Phases = 3;
};

size_t linear(const WorkGroupContext *C) {
  return C->LocalId[0] +
         C->LocalSize[0] * (C->LocalId[1] + C->LocalSize[1] * C->LocalId[2]);
}

void tracingItem(void **Args, const WorkGroupContext *C) {
  auto *T = static_cast<Trace *>(Args[0]);
  // A private array that must survive every barrier.
  volatile size_t Priv[64];
  for (size_t I = 0; I < 64; ++I)
    Priv[I] = linear(C) * 1000 + I;
  for (int P = 0; P < T->Phases; ++P) {
    T->Events.push_back({linear(C), P});
    C->Barrier(C);
  }
  for (size_t I = 0; I < 64; ++I)
    if (Priv[I] != linear(C) * 1000 + I)
      T->Events.push_back({linear(C), -1});
}

WorkGroupContext groupOf(size_t X, size_t Y, size_t Z) {
  WorkGroupContext C{};
  size_t L[3] = {X, Y, Z};
  for (int D = 0; D < 3; ++D) {
    C.LocalSize[D] = C.Launch.EnqueuedLocalSize[D] = L[D];
    C.Launch.GlobalSize[D] = L[D];
    C.Launch.NumGroups[D] = 1;
  }
  C.Launch.WorkDim = 3;
  return C;
}

void scanItem(void **Args, const WorkGroupContext *C) {
  auto *Out = static_cast<int32_t *>(Args[0]);
  int32_t V = static_cast<int32_t>(linear(C) % 5) - 2;
  uint64_t R = C->Collective(C, CollScanExclusiveAdd * 16 + CollInt,
                             static_cast<uint32_t>(V), 0, 0, 0);
  Out[linear(C)] = static_cast<int32_t>(static_cast<uint32_t>(R));
}

void emptyBarrierItem(void **Args, const WorkGroupContext *C) {
  int N = *static_cast<int *>(Args[0]);
  for (int I = 0; I < N; ++I)
    C->Barrier(C);
}

void countGroup(void **Args, const WorkGroupContext *C) {
  auto *Hits = static_cast<std::atomic<unsigned> *>(Args[0]);
  size_t G = C->GroupId[0] +
             C->Launch.NumGroups[0] *
                 (C->GroupId[1] + C->Launch.NumGroups[1] * C->GroupId[2]);
  Hits[G].fetch_add(1);
  // Every work-item is accounted for in the group's actual size.
  auto *Items = static_cast<std::atomic<size_t> *>(Args[1]);
  Items->fetch_add(C->LocalSize[0] * C->LocalSize[1] * C->LocalSize[2]);
}

/// Runs countGroup over a 2D NDRange on two threads; checks that each group
/// ran once and every work-item was counted.
void checkEachGroupOnce(tbb::task_arena &Arena, size_t G0, size_t L0, size_t G1,
                        size_t L1, HelperPark *Park = nullptr) {
  NDRangeJob J;
  J.Fn = countGroup;
  LaunchDescription &L = J.Launch;
  L.WorkDim = 2;
  L.GlobalSize[0] = G0;
  L.EnqueuedLocalSize[0] = L0;
  L.GlobalSize[1] = G1;
  L.EnqueuedLocalSize[1] = L1;
  for (unsigned D = 0; D < 2; ++D)
    L.NumGroups[D] = groupsIn(L.GlobalSize[D], L.EnqueuedLocalSize[D]);
  size_t Groups = L.NumGroups[0] * L.NumGroups[1];
  std::vector<std::atomic<unsigned>> Hits(Groups);
  std::atomic<size_t> Items{0};
  void *Args[] = {Hits.data(), &Items};
  J.Args = Args;
  J.NumArgs = 2;
  runNDRange(Arena, 2, J, Park);
  for (auto &H : Hits)
    REQUIRE(H.load() == 1);
  REQUIRE(Items.load() == G0 * G1);
}

} // namespace

TEST_CASE("6.13.8: every work-item reaches each barrier before any passes it",
          "[fiber]") {
  for (auto Shape : {std::vector<size_t>{1, 1, 1},
                     {7, 1, 1},
                     {4, 3, 2},
                     {256, 1, 1},
                     {4096, 1, 1}}) {
    Trace T;
    void *Args[] = {&T};
    WorkGroupContext C = groupOf(Shape[0], Shape[1], Shape[2]);
    runGroupOnFibers(tracingItem, Args, C, 0);
    size_t N = Shape[0] * Shape[1] * Shape[2];
    REQUIRE(T.Events.size() == N * T.Phases);
    // Phase P of every work-item comes before phase P + 1 of any.
    for (size_t I = 0; I < T.Events.size(); ++I) {
      CHECK(T.Events[I].second == static_cast<int>(I / N));
      CHECK(T.Events[I].first == I % N);
    }
  }
  CHECK(threadFiberCount() >= 4096);
  releaseThreadFibers();
  CHECK(threadFiberCount() == 0);
}

TEST_CASE("6.13.15: a collective on fibers computes in linear id order",
          "[fiber]") {
  WorkGroupContext C = groupOf(5, 2, 3);
  std::vector<int32_t> Out(30, 99);
  void *Args[] = {Out.data()};
  runGroupOnFibers(scanItem, Args, C, 0);
  int32_t Acc = 0;
  for (size_t I = 0; I < Out.size(); ++I) {
    CHECK(Out[I] == Acc);
    Acc += static_cast<int32_t>(I % 5) - 2;
  }
}

TEST_CASE("6.13.8 (scheduler issue): fiber stacks of a 1024-item "
          "work-group on every worker together stay under 64 MiB",
          "[fiber]") {
  releaseThreadFibers();
  // tracingItem: a 512-byte private array across three barriers.
  Trace T;
  void *Args[] = {&T};
  WorkGroupContext C = groupOf(1024, 1, 1);
  runGroupOnFibers(tracingItem, Args, C, fiberStackSize(512));
  REQUIRE(T.Events.size() == 1024 * 3);
  size_t Resident = threadFiberResidentBytes();
  unsigned Workers = std::max(1u, std::thread::hardware_concurrency());
  std::printf("fiber stacks, 1024 work-items: %zu KiB resident on this "
              "thread, %zu KiB reserved; x %u workers = %zu KiB\n",
              Resident >> 10, (threadFiberCount() * fiberStackSize(512)) >> 10,
              Workers, (Resident * Workers) >> 10);
  CHECK(Resident > 0);
  CHECK(Resident * Workers < size_t(64) << 20);
  releaseThreadFibers();
}

TEST_CASE("6.13.8: fiber stacks grow for large private memory", "[fiber]") {
  CHECK(fiberStackSize(0) == DefaultFiberStack);
  CHECK(fiberStackSize(1 << 20) >= (1u << 20) + 32 * 1024);
}

TEST_CASE("5.10: runNDRange runs each work-group once, non-uniform sizes",
          "[fiber]") {
  tbb::task_arena Arena(2);
  for (auto [G0, L0, G1, L1] :
       {std::tuple<size_t, size_t, size_t, size_t>{1, 1, 1, 1},
        {100, 16, 1, 1},
        {1000, 7, 3, 2},
        {4096, 1, 5, 5},
        {65, 64, 9, 4}})
    checkEachGroupOnce(Arena, G0, L0, G1, L1);
}

TEST_CASE("5.10 (scheduler issue): helper tasks that start after their "
          "launch returned claim nothing",
          "[fiber]") {
  // Four quick groups: the helper task is enqueued at once and this thread
  // usually runs every group before a worker picks the task up; the launch
  // returns without it, and the task, when it runs, must not touch the
  // finished job (whose arguments live in this loop's iteration).
  tbb::task_arena Arena(2);
  for (int Launch = 0; Launch < 2000; ++Launch)
    checkEachGroupOnce(Arena, 4, 1, 1, 1);
}

/// A group that keeps its thread busy for about 30 microseconds, and
/// records which thread ran it.
void busyGroup(void **Args, const WorkGroupContext *C) {
  auto *Threads = static_cast<std::vector<std::thread::id> *>(Args[0]);
  (*Threads)[C->GroupId[0]] = std::this_thread::get_id();
  auto Until = std::chrono::steady_clock::now() + std::chrono::microseconds(30);
  while (std::chrono::steady_clock::now() < Until) {
  }
}

TEST_CASE("5.10 (scheduler issue, pipelined scan_wg): a helper waits in the "
          "park for the next launch of a series",
          "[fiber]") {
  tbb::task_arena Arena(2);
  {
    HelperPark Park;
    // Each launch runs its groups once, also when the helper that takes it
    // from the park comes after the launch returned (quick groups), or
    // takes a series of launches one after another.
    for (int Launch = 0; Launch < 2000; ++Launch)
      checkEachGroupOnce(Arena, 4, 1, 1, 1, &Park);
    for (int Launch = 0; Launch < 50; ++Launch)
      checkEachGroupOnce(Arena, 1000, 7, 3, 2, &Park);
    // Launches of 30-microsecond groups, back to back: after the first, a
    // helper waits in the park and takes the next ones from there. When
    // that happens depends on when the arena's worker gets a CPU (on a
    // loaded machine, after the backlog of helper tasks the quick launches
    // above left behind), so the series runs until it has happened, for up
    // to 30 seconds: a park that never works fails, a slow machine does not.
    uint64_t Before = Park.Offers.load();
    std::vector<std::thread::id> Ran(4);
    void *Args[] = {&Ran};
    NDRangeJob J;
    J.Fn = busyGroup;
    J.Launch.GlobalSize[0] = J.Launch.NumGroups[0] = 4;
    J.Args = Args;
    J.NumArgs = 1;
    size_t WithHelper = 0, Launches = 0;
    auto Until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (Launches < 300 ||
           ((Park.Offers.load() == Before || WithHelper == 0) &&
            std::chrono::steady_clock::now() < Until)) {
      runNDRange(Arena, 2, J, &Park);
      WithHelper += std::count(Ran.begin(), Ran.end(), Ran[0]) < 4;
      ++Launches;
    }
    INFO("launches: " << Launches << ", run by two threads: " << WithHelper
                      << "; helper tasks not finished: " << Park.Tasks.load());
    CHECK(Park.Offers.load() > Before);
    CHECK(WithHelper > 0);
    // Another task for the arena sends the waiting helpers back to TBB.
    // Helper tasks of the backlog may still start after that (each counts
    // itself waiting when it starts): wait until none is left at all, or a
    // late one is seen waiting after the others left (a failure of a fresh
    // CI run while the machine was loaded).
    runNDRange(Arena, 2, J, &Park);
    Park.otherTaskEnqueued();
    auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while ((Park.Waiting.load() != 0 || Park.Tasks.load() != 0) &&
           std::chrono::steady_clock::now() < Deadline)
      std::this_thread::yield();
    CHECK(Park.Waiting.load() == 0);
    CHECK(Park.Tasks.load() == 0);
    runNDRange(Arena, 2, J, &Park);
  } // the destructor sends a waiting helper away and waits for its task
}

namespace {
/// A group of the launch that holds the workers: about 200 microseconds of
/// work, less once *Args[0] (the other launch is done) is set.
void holdingGroup(void **Args, const WorkGroupContext *) {
  auto *Stop = static_cast<std::atomic<bool> *>(Args[0]);
  auto Until =
      std::chrono::steady_clock::now() + std::chrono::microseconds(200);
  while (std::chrono::steady_clock::now() < Until && !Stop->load())
    std::this_thread::yield();
}

/// A group of the launch started second: records its thread, then about
/// 200 microseconds of work, longer (up to 3 s from the first group; not the
/// first group itself) while
/// no second thread has run one of its groups: on a loaded machine the
/// helper that moves over may get a CPU only after the 80 ms 400 groups
/// take on one thread (a CI run saw 1 thread), and the test is about
/// whether it comes, not how soon. The launch holding the workers outlasts
/// that wait (60000 groups, 4 s on three threads), so no helper comes free
/// by its end.
void recordingGroup(void **Args, const WorkGroupContext *) {
  auto *Threads = static_cast<std::vector<std::thread::id> *>(Args[0]);
  auto *Lock = static_cast<std::mutex *>(Args[1]);
  auto *Since = static_cast<std::chrono::steady_clock::time_point *>(Args[2]);
  auto Shared = [&] {
    std::lock_guard<std::mutex> G(*Lock);
    return std::any_of(Threads->begin(), Threads->end(), [](auto Id) {
      return Id != std::this_thread::get_id();
    });
  };
  bool First;
  {
    std::lock_guard<std::mutex> G(*Lock);
    First = Threads->empty();
    if (First)
      *Since = std::chrono::steady_clock::now();
    Threads->push_back(std::this_thread::get_id());
  }
  auto Until =
      std::chrono::steady_clock::now() + std::chrono::microseconds(200);
  auto Latest = *Since + std::chrono::seconds(3);
  // (Not the first group: the launch calls for helpers only after it.)
  for (;;) {
    auto Now = std::chrono::steady_clock::now();
    if (Now >= Until && (First || Now >= Latest || Shared()))
      break;
    std::this_thread::yield();
  }
}
} // namespace

// Run by the test below in a process of its own: two arena workers need a
// process whose TBB has no smaller limit yet (the executors of other tests
// set it to the machine's cores, and TBB keeps the smallest).
TEST_CASE("launch sharing, in a child process", "[.launch-sharing-child]") {
  // Two queues' kernels at once, as a pipe's producer and consumer: the
  // first launch took the arena's workers; the second, from another
  // thread, would run on that thread alone until the first ended. Between
  // two claims a helper of the first moves to the second.
  tbb::global_control Workers(tbb::global_control::max_allowed_parallelism, 3);
  tbb::task_arena Arena(3, 0);
  HelperPark Park;
  std::atomic<bool> Stop{false};
  void *HoldArgs[] = {&Stop};
  NDRangeJob Hold;
  Hold.Fn = holdingGroup;
  Hold.Launch.GlobalSize[0] = Hold.Launch.NumGroups[0] = 60000;
  Hold.Args = HoldArgs;
  Hold.NumArgs = 1;
  std::thread First([&] { runNDRange(Arena, 3, Hold, &Park); });
  // The first launch's helpers are at work.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::vector<std::thread::id> Threads;
  std::mutex Lock;
  std::chrono::steady_clock::time_point Since;
  void *RecordArgs[] = {&Threads, &Lock, &Since};
  NDRangeJob Record;
  Record.Fn = recordingGroup;
  Record.Launch.GlobalSize[0] = Record.Launch.NumGroups[0] = 400;
  Record.Args = RecordArgs;
  Record.NumArgs = 3;
  runNDRange(Arena, 3, Record, &Park);
  Stop = true;
  First.join();
  REQUIRE(Threads.size() == 400);
  std::sort(Threads.begin(), Threads.end());
  size_t Distinct =
      std::unique(Threads.begin(), Threads.end()) - Threads.begin();
  CHECK(Distinct >= 2);
  CHECK(Park.RunningCount.load() == 0);
}

TEST_CASE("5.10 (scheduler issue, pipe_stream): a launch started while "
          "another holds every worker gets helpers from it",
          "[fiber]") {
  char Exe[] = "/proc/self/exe", Tag[] = "[.launch-sharing-child]";
  char *Argv[] = {Exe, Tag, nullptr};
  pid_t C = -1;
  REQUIRE(posix_spawn(&C, "/proc/self/exe", nullptr, nullptr, Argv, environ) ==
          0);
  int Status = -1;
  REQUIRE(waitpid(C, &Status, 0) == C);
  CHECK(WIFEXITED(Status));
  CHECK(WEXITSTATUS(Status) == 0);
}

TEST_CASE("6.13.8: fiber switch cost (prints, no assertion)",
          "[fiber][.bench]") {
  int Barriers = 200;
  void *Args[] = {&Barriers};
  WorkGroupContext C = groupOf(256, 1, 1);
  runGroupOnFibers(emptyBarrierItem, Args, C, 0); // warm the pool
  auto T0 = std::chrono::steady_clock::now();
  runGroupOnFibers(emptyBarrierItem, Args, C, 0);
  auto T1 = std::chrono::steady_clock::now();
  double Ns = std::chrono::duration<double, std::nano>(T1 - T0).count();
  std::printf("fiber barrier: %.1f ns per work-item per barrier (256 items, "
              "%d barriers)\n",
              Ns / (256.0 * Barriers), Barriers);
}

namespace {

/// A work-item of the non-uniform release-order test: sites 1 and 2 are the
/// two sides of an if on the sub-group local id's parity, site 0 follows
/// both (reach table: 1 -> 0, 2 -> 0), numbered first as reverse post-order
/// numbers a loop's exit before its body. Each records the count of active
/// work-items at each site it reaches.
const uint64_t IfElseReach[3] = {0, 0b001, 0b001};
void ifElseItem(void **Args, const WorkGroupContext *C) {
  auto *Out = static_cast<int32_t *>(Args[0]);
  size_t Id = linear(C);
  uint32_t Op = (CollReduceAdd * 16 + CollInt) | CollSubGroup | CollNonUniform;
  auto Table = reinterpret_cast<uint64_t>(IfElseReach);
  uint64_t Side = C->Collective(C, Op, 1, 0, Table, 1 + Id % 2);
  uint64_t After = C->Collective(C, Op, 1, 0, Table, 0);
  Out[Id * 2] = static_cast<int32_t>(Side);
  Out[Id * 2 + 1] = static_cast<int32_t>(After);
}

} // namespace

TEST_CASE("cl_khr_subgroup_non_uniform_arithmetic (scheduler/Fiber.cpp): the "
          "work-items of each branch meet at their own call site, and the "
          "site after both waits for all of them",
          "[fiber][nonuniform]") {
  WorkGroupContext C = groupOf(11, 1, 1);
  C.Launch.SubGroupSize = 4; // sub-groups of 4, 4 and 3
  std::vector<int32_t> Out(22, -1);
  void *Args[] = {Out.data()};
  runGroupOnFibers(ifElseItem, Args, C, 0);
  for (size_t I = 0; I < 11; ++I) {
    size_t Size = I < 8 ? 4 : 3, Lo = I % 4;
    size_t Same = (Size + (Lo % 2 == 0 ? 1 : 0)) / 2; // same parity
    INFO("work-item " << I);
    CHECK(Out[I * 2] == static_cast<int32_t>(Same));
    CHECK(Out[I * 2 + 1] == static_cast<int32_t>(Size));
  }
}

TEST_CASE("cl_khr_subgroup_non_uniform_*, cl_khr_subgroup_clustered_reduce "
          "(scheduler/Collectives.cpp): operations over the active "
          "work-items and clusters",
          "[fiber][nonuniform]") {
  auto Bits = [](std::initializer_list<int32_t> V) {
    std::vector<uint64_t> S;
    for (int32_t X : V)
      S.push_back(static_cast<uint32_t>(X));
    return S;
  };
  auto Ints = [](const std::vector<uint64_t> &S) {
    std::vector<int32_t> V;
    for (uint64_t X : S)
      V.push_back(static_cast<int32_t>(static_cast<uint32_t>(X)));
    return V;
  };
  const uint32_t NU = CollSubGroup | CollNonUniform;
  const uint8_t Active[6] = {0, 1, 1, 0, 1, 0};
  uint64_t Idx[6] = {};
  // Inactive work-items keep their values; the active ones see only each
  // other, in increasing id.
  std::vector<uint64_t> S = Bits({5, 3, -2, 7, 4, 9});
  runNonUniform(S.data(), Idx, 6, Active,
                (CollScanExclusiveMul * 16 + CollInt) | NU);
  CHECK(Ints(S) == std::vector<int32_t>{5, 1, 3, 7, -6, 9});
  S = Bits({5, 3, -2, 7, 4, 9});
  runNonUniform(S.data(), Idx, 6, Active,
                (CollScanInclusiveMax * 16 + CollInt) | NU);
  CHECK(Ints(S) == std::vector<int32_t>{5, 3, 3, 7, 4, 9});
  S = Bits({5, 0, 2, 7, 4, 9});
  runNonUniform(S.data(), Idx, 6, Active, (CollElect * 16 + CollInt) | NU);
  CHECK(Ints(S) == std::vector<int32_t>{5, 1, 0, 7, 0, 9});
  S = Bits({5, 0, 2, 7, 4, 9});
  runNonUniform(S.data(), Idx, 6, Active, (CollBallot * 16 + CollInt) | NU);
  CHECK(Ints(S) == std::vector<int32_t>{5, 0b10100, 0b10100, 7, 0b10100, 9});
  S = Bits({5, 6, 6, 7, 6, 9});
  runNonUniform(S.data(), Idx, 6, Active, (CollAllEqual * 16 + CollInt) | NU);
  CHECK(Ints(S) == std::vector<int32_t>{5, 1, 1, 7, 1, 9});
  S = Bits({5, 0, 2, 7, 4, 9});
  runNonUniform(S.data(), Idx, 6, Active,
                (CollBroadcastFirst * 16 + CollInt) | NU);
  CHECK(Ints(S) == std::vector<int32_t>{5, 0, 0, 7, 0, 9});
  // Logical operations give 0 or 1; exclusive scans start at the identity.
  S = Bits({5, 3, 0, 7, 4, 9});
  runNonUniform(S.data(), Idx, 6, Active,
                (CollScanExclusiveLogicalAnd * 16 + CollInt) | NU);
  CHECK(Ints(S) == std::vector<int32_t>{5, 1, 1, 7, 0, 9});
  // Clustered: one reduction per cluster of the index argument's size.
  uint64_t Two[6] = {2, 2, 2, 2, 2, 2};
  S = Bits({1, 2, 3, 4, 5, 6});
  runCollective(S.data(), Two, 6,
                (CollReduceXor * 16 + CollInt) | CollSubGroup | CollClustered,
                0);
  CHECK(Ints(S) == std::vector<int32_t>{3, 3, 7, 7, 3, 3});
  uint64_t Four[5] = {4, 4, 4, 4, 4};
  S = Bits({1, 2, 3, 4, 5});
  runCollective(S.data(), Four, 5,
                (CollReduceMul * 16 + CollInt) | CollSubGroup | CollClustered,
                0);
  CHECK(Ints(S) == std::vector<int32_t>{24, 24, 24, 24, 5});
}

TEST_CASE("5.10 (scheduler issue, barrier_fibers on a noisy VM): claims of "
          "work-groups shrink with what is left and end with single groups",
          "[fiber]") {
  // 512 groups on two threads, as barrier_fibers: at most 1/16 per claim.
  size_t Total = 512, PerThread = 16, Max = Total / PerThread;
  std::vector<size_t> Claims;
  for (size_t Next = 0; Next < Total;) {
    size_t C = guidedChunk(Total - Next, PerThread, Max);
    Claims.push_back(std::min(C, Total - Next));
    Next += C;
  }
  REQUIRE(Claims.front() == 32);
  CHECK(std::is_sorted(Claims.rbegin(), Claims.rend()));
  // Fixed chunks of 32 would end with a claim of 32 groups; the last 16
  // claims are single groups, so the threads end within one group.
  REQUIRE(Claims.size() > 16);
  for (size_t I = Claims.size() - 16; I < Claims.size(); ++I)
    CHECK(Claims[I] == 1);
  CHECK(Claims.size() < 100);
  // Degenerate inputs still claim something.
  CHECK(guidedChunk(0, 16, 32) == 1);
  CHECK(guidedChunk(5, 0, 0) == 1);
  CHECK(guidedChunk(1000000, 16, 8) == 8);
}

TEST_CASE("5.10 (scheduler issue, pipelined scan_wg): a launch of at most 8 "
          "groups per thread is claimed in halves of what is left",
          "[fiber]") {
  // scan_pipelined with 4 groups on two threads: the launching thread
  // claims [0, 2) in every launch of the series, the rest goes one group
  // at a time.
  ClaimPlan Small = planClaims(4, 2);
  CHECK(Small.PerThread == 2);
  CHECK(Small.MaxChunk == 2);
  CHECK(guidedChunk(4, Small.PerThread, Small.MaxChunk) == 2);
  CHECK(guidedChunk(2, Small.PerThread, Small.MaxChunk) == 1);
  // 7 groups on two threads: 3, then 2, 1, 1.
  ClaimPlan Odd = planClaims(7, 2);
  CHECK(Odd.MaxChunk == 4);
  CHECK(guidedChunk(7, Odd.PerThread, Odd.MaxChunk) == 3);
  CHECK(guidedChunk(4, Odd.PerThread, Odd.MaxChunk) == 2);
  // One group, one thread: a single claim.
  CHECK(planClaims(1, 2).MaxChunk == 1);
  CHECK(planClaims(5, 1).MaxChunk == 5);
  // barrier_fibers' 512 groups: guided, at most 1/16.
  ClaimPlan Large = planClaims(512, 2);
  CHECK(Large.PerThread == 16);
  CHECK(Large.MaxChunk == 32);
  CHECK(planClaims(100, 0).PerThread == 8);
}

namespace {
/// A "kernel" whose frame holds a 6 MiB array: more than a TBB worker's
/// stack. Records whether its frame lies in [PrivateLo, PrivateHi).
void bigFrameKernel(void **Args, const WorkGroupContext *C) {
  volatile char Big[6 << 20];
  for (size_t I = 0; I < sizeof Big; I += 4096)
    Big[I] = static_cast<char>(I);
  auto *Inside = static_cast<bool *>(Args[0]);
  *Inside = C->PrivateLo <= (const void *)&Big[0] &&
            (const void *)&Big[sizeof Big - 1] < C->PrivateHi &&
            Big[4096] == static_cast<char>(4096);
}
} // namespace

TEST_CASE("5.10 (large private arrays): a work-group function whose frame "
          "exceeds the thread's stack runs on a large stack",
          "[fiber]") {
  bool Inside = false;
  void *Args[1] = {&Inside};
  WorkGroupContext C{};
  // On a thread of its own, as a TBB worker would call it.
  std::thread T([&] {
    runOnLargeStack(bigFrameKernel, Args, C, (6 << 20) + StackHeadroom);
  });
  T.join();
  CHECK(Inside);
  CHECK(C.PrivateLo == nullptr); // restored after the call
}
