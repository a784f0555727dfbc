//===- runtime/PageRecycler.h - released pages kept for reuse --*- C++ -*-===//
//
// Applications that allocate a temporary buffer per call (pyopencl creates
// every array result and every scan's partial sums this way, clFFT its
// work buffers) would otherwise pay for each large buffer twice: the
// kernel clears and maps every page at the first touch, and unmaps them
// all (with a TLB shootdown on every core) at the release. The recycler
// keeps the mappings of released buffers for a short while and hands one
// to the next allocation of the same size and placement, whose pages are
// then already mapped.
//
// The contents of a new buffer are undefined unless the application
// copies into it (OpenCL 3.0 API spec 5.2.1), so a recycled mapping is
// handed out as it is.
//
//===----------------------------------------------------------------------===//

#ifndef CLCPU_RUNTIME_PAGERECYCLER_H
#define CLCPU_RUNTIME_PAGERECYCLER_H

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>

namespace clcpu {

class PageRecycler {
public:
  using Clock = std::chrono::steady_clock;

  /// Keeps at most \p CapacityBytes of released mappings, none longer than
  /// \p MaxAge. A capacity of 0 keeps nothing. With \p Janitor, a thread
  /// started at the first release unmaps what ages out even when no buffer
  /// is created or released any more (an application gone idle); without
  /// it, aged mappings go at the next call (and trim()). A recycler with a
  /// janitor must outlive the process (get()'s is never destroyed).
  PageRecycler(size_t CapacityBytes, Clock::duration MaxAge,
               bool Janitor = false);
  /// Unmaps what it still holds.
  ~PageRecycler();
  PageRecycler(const PageRecycler &) = delete;
  PageRecycler &operator=(const PageRecycler &) = delete;

  /// A kept mapping of \p Bytes (rounded up to whole pages) made for
  /// placement \p Placement, which the caller now owns; null if there is
  /// none. The most recently released such mapping: its pages are the
  /// likeliest to be in the caches still.
  void *take(size_t Bytes, uint64_t Placement);
  /// Keeps the mapping [\p Data, \p Data + \p Bytes) (from mmap, placement
  /// \p Placement), or unmaps it when it alone exceeds the capacity. Older
  /// mappings are unmapped until the kept ones fit.
  void release(void *Data, size_t Bytes, uint64_t Placement);
  /// Unmaps the mappings kept longer than the maximum age.
  void trim();

  /// Bytes of mappings kept now (rounded to pages).
  size_t keptBytes();

  /// The driver's recycler: CLCPU_BUFFER_CACHE_MB of mappings (at most an
  /// eighth of the machine's memory), each kept for up to two seconds.
  static PageRecycler &get();

private:
  struct Kept {
    void *Data;
    size_t Bytes; // page-rounded
    uint64_t Placement;
    Clock::time_point Since;
  };
  /// Moves the mappings kept past the maximum age at \p Now, and then the
  /// oldest ones until \p Incoming more bytes fit, to \p Out (guarded).
  void evict(Clock::time_point Now, size_t Incoming, std::deque<Kept> &Out);
  static void unmap(const std::deque<Kept> &Victims);
  void janitor();

  const size_t Capacity;
  const Clock::duration MaxAge;
  const bool HasJanitor;
  std::mutex Lock;
  std::condition_variable Released; // a mapping was kept (wakes the janitor)
  bool JanitorRuns = false;
  std::deque<Kept> Mappings; // oldest release first
  size_t Held = 0;
};

} // namespace clcpu

#endif
