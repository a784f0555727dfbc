//===- runtime/PageRecycler.cpp - released buffer pages, kept for reuse ---===//

#include "runtime/PageRecycler.h"

#include "runtime/Config.h"
#include "runtime/Topology.h"

#include <algorithm>
#include <sys/mman.h>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace clcpu {

namespace {
size_t pageRounded(size_t Bytes) {
  static const size_t Page = [] {
    long P = sysconf(_SC_PAGESIZE);
    return P > 0 ? static_cast<size_t>(P) : size_t(4096);
  }();
  // Bytes is a buffer's size, already checked against
  // CL_DEVICE_MAX_MEM_ALLOC_SIZE (far below SIZE_MAX): rounding up cannot
  // wrap.
  return (Bytes + Page - 1) / Page * Page;
}
} // namespace

PageRecycler::PageRecycler(size_t CapacityBytes, Clock::duration MaxAge,
                           bool Janitor)
    : Capacity(CapacityBytes), MaxAge(MaxAge), HasJanitor(Janitor) {}

PageRecycler::~PageRecycler() {
  std::lock_guard<std::mutex> G(Lock);
  unmap(Mappings);
}

void PageRecycler::unmap(const std::deque<Kept> &Victims) {
  for (const Kept &K : Victims)
    munmap(K.Data, K.Bytes);
}

void PageRecycler::evict(Clock::time_point Now, size_t Incoming,
                         std::deque<Kept> &Out) {
  while (!Mappings.empty() && (Now - Mappings.front().Since > MaxAge ||
                               Held + Incoming > Capacity)) {
    Held -= Mappings.front().Bytes;
    Out.push_back(Mappings.front());
    Mappings.pop_front();
  }
}

void *PageRecycler::take(size_t Bytes, uint64_t Placement) {
  size_t Want = pageRounded(Bytes);
  std::deque<Kept> Victims;
  void *Found = nullptr;
  {
    std::lock_guard<std::mutex> G(Lock);
    evict(Clock::now(), 0, Victims);
    for (auto It = Mappings.rbegin(); It != Mappings.rend(); ++It)
      if (It->Bytes == Want && It->Placement == Placement) {
        Found = It->Data;
        Held -= It->Bytes;
        Mappings.erase(std::next(It).base());
        break;
      }
  }
  // Outside the lock: unmapping a large mapping takes milliseconds.
  unmap(Victims);
  return Found;
}

void PageRecycler::release(void *Data, size_t Bytes, uint64_t Placement) {
  size_t Rounded = pageRounded(Bytes);
  std::deque<Kept> Victims;
  if (Rounded > Capacity) {
    Victims.push_back({Data, Rounded, Placement, Clock::now()});
  } else {
    bool Start = false;
    {
      std::lock_guard<std::mutex> G(Lock);
      Clock::time_point Now = Clock::now();
      evict(Now, Rounded, Victims);
      Mappings.push_back({Data, Rounded, Placement, Now});
      Held += Rounded;
      Start = HasJanitor && !JanitorRuns;
      JanitorRuns = JanitorRuns || Start;
    }
    if (Start)
      try {
        std::thread([this] { janitor(); }).detach();
      } catch (const std::system_error &) {
        // No thread: aged mappings go at the next take or release.
      }
    Released.notify_one();
  }
  unmap(Victims);
}

void PageRecycler::janitor() {
  std::unique_lock<std::mutex> G(Lock);
  for (;;) {
    if (Mappings.empty()) {
      Released.wait(G, [&] { return !Mappings.empty(); });
      continue;
    }
    // Wakes when the oldest mapping ages out (a take may remove it first:
    // then the next one's time is waited for).
    Released.wait_until(G, Mappings.front().Since + MaxAge);
    std::deque<Kept> Victims;
    evict(Clock::now(), 0, Victims);
    if (!Victims.empty()) {
      G.unlock();
      unmap(Victims);
      G.lock();
    }
  }
}

void PageRecycler::trim() {
  std::deque<Kept> Victims;
  {
    std::lock_guard<std::mutex> G(Lock);
    evict(Clock::now(), 0, Victims);
  }
  unmap(Victims);
}

size_t PageRecycler::keptBytes() {
  std::lock_guard<std::mutex> G(Lock);
  return Held;
}

PageRecycler &PageRecycler::get() {
  // Never destroyed: buffers may be released by static destructors of the
  // application after this library's would have run.
  static PageRecycler *R = [] {
    uint64_t Cap = uint64_t(config().BufferCacheMB) << 20;
    if (uint64_t Total = Topology::get().totalMemory())
      Cap = std::min<uint64_t>(Cap, Total / 8);
    return new PageRecycler(static_cast<size_t>(Cap), std::chrono::seconds(2),
                            /*Janitor=*/true);
  }();
  return *R;
}

} // namespace clcpu
