//===- scheduler/SyncHints.h - spin pauses and TSan hand-offs ---*- C++ -*-===//
//
// Shared by the scheduler's sources (not installed): the pause of a spin
// loop, a bounded spin, and the release/acquire annotations that tell
// ThreadSanitizer about hand-offs made inside libtbb, which is not
// instrumented.
//
//===----------------------------------------------------------------------===//

#ifndef CLCPU_SCHEDULER_SYNCHINTS_H
#define CLCPU_SCHEDULER_SYNCHINTS_H

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CLCPU_PAUSE() _mm_pause()
#else
#include <thread>
#define CLCPU_PAUSE() std::this_thread::yield()
#endif

#include <chrono>

namespace clcpu {
/// Spins until \p Done returns true or about \p Limit has passed (the
/// clock read every 16 pauses); returns Done's last answer.
template <typename Pred>
bool spinUntil(std::chrono::nanoseconds Limit, Pred Done) {
  auto Start = std::chrono::steady_clock::now();
  for (unsigned I = 1;; ++I) {
    if (Done())
      return true;
    CLCPU_PAUSE();
    if (I % 16 == 0 && std::chrono::steady_clock::now() - Start >= Limit)
      return Done();
  }
}
} // namespace clcpu

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define CLCPU_TSAN_RELEASE(Addr) __tsan_release(Addr)
#define CLCPU_TSAN_ACQUIRE(Addr) __tsan_acquire(Addr)
#else
#define CLCPU_TSAN_RELEASE(Addr) ((void)0)
#define CLCPU_TSAN_ACQUIRE(Addr) ((void)0)
#endif

#endif // CLCPU_SCHEDULER_SYNCHINTS_H
