// Unit tests of scheduler/DeferredAdds.cpp, the per-thread queues of
// relaxed float atomic adds (compiler/passes/DeferFloatAdds.cpp,
// cl_ext_float_atomics): what a thread queued lands once it flushes, each
// add rounded on its own, through the full table, the full value store and
// contention from other threads.

#include "scheduler/DeferredAdds.h"

#include <catch2/catch.hpp>

#include <thread>
#include <vector>

using namespace clcpu;

TEST_CASE("DeferredAdds: queued adds land at the flush, each rounded as an "
          "atomic add would round it",
          "[deferred_adds]") {
  alignas(8) float F[3] = {0.0f, 16777216.0f, 1.0f};
  alignas(8) double D = 9007199254740992.0;
  for (int I = 0; I < 1000; ++I) {
    clcpu_deferred_fadd_f32(&F[0], 0.25f);
    // 2^24 + 1 rounds back to 2^24 (ties to even) at every single add;
    // adding the thousand ones first would give 2^24 + 1000.
    clcpu_deferred_fadd_f32(&F[1], 1.0f);
    clcpu_deferred_fadd_f32(&F[2], -0.5f);
    clcpu_deferred_fadd_f64(&D, 1.0);
  }
  // Nothing lands before the flush (the queue holds far more than this).
  CHECK(F[0] == 0.0f);
  flushDeferredAdds();
  CHECK(F[0] == 250.0f);
  CHECK(F[1] == 16777216.0f);
  CHECK(F[2] == -499.0f);
  CHECK(D == 9007199254740992.0);
  // The queue is empty afterwards: a second flush changes nothing.
  flushDeferredAdds();
  CHECK(F[0] == 250.0f);
}

TEST_CASE("DeferredAdds: more addresses than the table holds and more "
          "values than the queue holds flush early and lose nothing",
          "[deferred_adds]") {
  std::vector<float> Many(3000, 0.0f);
  for (int Round = 0; Round < 3; ++Round)
    for (float &X : Many)
      clcpu_deferred_fadd_f32(&X, 2.0f);
  alignas(8) double One = 0.0;
  for (int I = 0; I < 200000; ++I)
    clcpu_deferred_fadd_f64(&One, 0.5);
  flushDeferredAdds();
  size_t Bad = 0;
  for (float X : Many)
    Bad += X != 6.0f;
  CHECK(Bad == 0);
  CHECK(One == 100000.0);
}

TEST_CASE("DeferredAdds: threads queueing and flushing into the same bins "
          "leave the exact totals",
          "[deferred_adds]") {
  alignas(64) float Bins[16] = {};
  std::vector<std::thread> Threads;
  for (int T = 0; T < 8; ++T)
    Threads.emplace_back([&Bins, T] {
      for (int I = 0; I < 100000; ++I) {
        clcpu_deferred_fadd_f32(&Bins[(I + T) & 15], 1.0f);
        // Flushes at different moments in different threads, so some
        // compare-exchanges find a bin changed and add their chain again.
        if ((I + 1) % (5000 + 1000 * T) == 0)
          flushDeferredAdds();
      }
      flushDeferredAdds();
    });
  for (std::thread &T : Threads)
    T.join();
  for (float B : Bins)
    CHECK(B == 50000.0f);
}

TEST_CASE("DeferredAdds: inside an AddsNowScope (a launch on one thread) "
          "adds land at once; queueing resumes after it",
          "[deferred_adds]") {
  alignas(8) float F = 0.0f;
  {
    AddsNowScope Alone;
    clcpu_deferred_fadd_f32(&F, 1.5f);
    CHECK(F == 1.5f);
  }
  clcpu_deferred_fadd_f32(&F, 1.0f);
  CHECK(F == 1.5f);
  flushDeferredAdds();
  CHECK(F == 2.5f);
}
