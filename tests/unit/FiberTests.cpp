// Unit tests of the fiber work-group runner (scheduler/Fiber.h) and the
// NDRange runner (scheduler/NDRange.h), with C++ functions standing in for
// compiled kernels.

#include "scheduler/Fiber.h"
#include "scheduler/NDRange.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <utility>
#include <vector>

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
    C.LocalSize[D] = C.EnqueuedLocalSize[D] = L[D];
    C.GlobalSize[D] = L[D];
    C.NumGroups[D] = 1;
  }
  C.WorkDim = 3;
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
  size_t G =
      C->GroupId[0] +
      C->NumGroups[0] * (C->GroupId[1] + C->NumGroups[1] * C->GroupId[2]);
  Hits[G].fetch_add(1);
  // Every work-item is accounted for in the group's actual size.
  auto *Items = static_cast<std::atomic<size_t> *>(Args[1]);
  Items->fetch_add(C->LocalSize[0] * C->LocalSize[1] * C->LocalSize[2]);
}

/// Runs countGroup over a 2D NDRange on two threads; checks that each group
/// ran once and every work-item was counted.
void checkEachGroupOnce(tbb::task_arena &Arena, size_t G0, size_t L0, size_t G1,
                        size_t L1) {
  NDRangeJob J;
  J.Fn = countGroup;
  J.Dims = 2;
  J.Global[0] = G0;
  J.Local[0] = L0;
  J.Global[1] = G1;
  J.Local[1] = L1;
  size_t Groups = J.numGroups(0) * J.numGroups(1);
  std::vector<std::atomic<unsigned>> Hits(Groups);
  std::atomic<size_t> Items{0};
  void *Args[] = {Hits.data(), &Items};
  J.Args = Args;
  J.NumArgs = 2;
  runNDRange(Arena, 2, J);
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
