#include "scheduler/NDRange.h"
#include "scheduler/Collectives.h"
#include "scheduler/DeferredAdds.h"
#include "scheduler/Fiber.h"
#include "scheduler/StackGuard.h"
#include "scheduler/SyncHints.h"

#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <new>
#include <pthread.h>
#include <thread>
#include <tuple>

namespace clcpu {

namespace {

size_t alignUp(size_t N) {
  return (N + LocalMemAlign - 1) / LocalMemAlign * LocalMemAlign;
}

/// The calling thread's local memory: grown on demand, kept for the next
/// launch on this thread (one block per thread, since a thread runs one
/// work-group at a time).
struct LocalBlock {
  void *Data = nullptr;
  size_t Size = 0;
  ~LocalBlock() { std::free(Data); }
  void *get(size_t N) {
    if (N > Size) {
      std::free(Data);
      Data = nullptr;
      Size = 0;
      void *P = std::aligned_alloc(LocalMemAlign, alignUp(N));
      if (!P)
        throw std::bad_alloc();
      Data = P;
      Size = alignUp(N);
    }
    return Data;
  }
};
thread_local LocalBlock ThreadLocalMem;
/// The calling thread's scratch for barrier regions (values live across
/// barriers), kept like its local memory.
thread_local LocalBlock ThreadScratch;
/// The calling thread's bounds-check report (WorkGroupContext::CheckReport).
thread_local LocalBlock ThreadCheckReport;

/// This thread's stack [low, high), where the work-item loop's private
/// variables live (read once per thread).
std::pair<void *, void *> threadStack() {
  thread_local std::pair<void *, void *> Range = [] {
    pthread_attr_t A;
    void *Lo = nullptr;
    size_t Size = 0;
    if (pthread_getattr_np(pthread_self(), &A) == 0) {
      pthread_attr_getstack(&A, &Lo, &Size);
      pthread_attr_destroy(&A);
    }
    return std::make_pair(Lo,
                          static_cast<void *>(static_cast<char *>(Lo) + Size));
  }();
  return Range;
}

/// What the threads of one launch share. Owned by the launching thread and
/// by each helper task (which may start after the launch returned, and
/// then finds nothing to do): the last owner to let go deletes it.
struct LaunchState {
  std::atomic<unsigned> Owners{1};
  NDRangeJob J;
  /// Chunk: the most groups one claim takes; PerThread: claims per thread
  /// of what is left (guided: chunks shrink towards the end).
  size_t Total = 0, Chunk = 1, PerThread = 1;
  std::atomic<size_t> Next{0};     // first unclaimed group
  std::atomic<unsigned> Active{0}; // helpers that may touch the job
  /// Helper tasks still to enqueue, and where: each helper enqueues up to
  /// two of them as it starts (a wake-up tree), so that the launching
  /// thread does not wake every worker one after another.
  std::atomic<unsigned> Unspawned{0};
  tbb::task_arena *Arena = nullptr;
  HelperPark *Park = nullptr;
  unsigned Threads = 1;            // of the launch (runNDRange's Threads)
  CheckFailure *Failure = nullptr; // the bounds-check mode's
};

/// Bounds-check mode: the first work-item of the group that just ran on
/// \p C whose check failed, into \p F if it is the launch's first. True if
/// the group had one (the launch then stops).
bool readCheckReport(const WorkGroupContext &C, bool Flagged, CheckFailure &F) {
  uint64_t *Site = C.CheckReport;
  if (Flagged && !Site[CheckReportFailed])
    return false;
  size_t N = C.LocalSize[0] * C.LocalSize[1] * C.LocalSize[2];
  // A kernel with loops stores every work-item's report, zeros without a
  // failure: one pass over the sites, eight words at a time into eight
  // accumulators the compiler keeps in one vector, then the search.
  uint64_t Acc[8] = {};
  size_t I = 0;
  for (; I + 8 <= N; I += 8)
    for (unsigned K = 0; K < 8; ++K)
      Acc[K] |= Site[I + K];
  for (; I < N; ++I)
    Acc[0] |= Site[I];
  uint64_t Any = 0;
  for (uint64_t A : Acc)
    Any |= A;
  if (!Any)
    return false;
  const uint64_t *Hit =
      std::find_if(Site, Site + N, [](uint64_t V) { return V != 0; });
  size_t Linear = size_t(Hit - Site);
  if (!F.Hit.exchange(true, std::memory_order_acq_rel)) {
    F.Site = *Hit;
    F.Offset = Site[Linear + CheckReportSlots];
    F.Extent = Site[Linear + 2 * CheckReportSlots];
    F.Local[0] = Linear % C.LocalSize[0];
    F.Local[1] = Linear / C.LocalSize[0] % C.LocalSize[1];
    F.Local[2] = Linear / C.LocalSize[0] / C.LocalSize[1];
    for (unsigned D = 0; D < 3; ++D)
      F.Group[D] = C.GroupId[D];
  }
  // Kernels without loops write the report only on a failure: zero again
  // for this thread's next launch.
  std::fill(Site, Site + CheckReportWords, 0);
  return true;
}

/// One thread's setup for a launch: its local memory and the argument
/// array; with __local arguments, its own copy of that array, with those
/// arguments pointing into this thread's local memory.
struct Participant {
  std::vector<void *> OwnArgs;
  std::vector<void *> LocalPtrs;
  void **Args;
  WorkGroupContext C{};

  explicit Participant(const NDRangeJob &J) : Args(J.Args) {
    char *Local = static_cast<char *>(ThreadLocalMem.get(J.localMemBytes()));
    size_t Offset = alignUp(J.LocalVarsSize);
    if (!J.LocalArgs.empty()) {
      OwnArgs.assign(J.Args, J.Args + J.NumArgs);
      LocalPtrs.resize(J.LocalArgs.size());
      Args = OwnArgs.data();
    }
    for (size_t I = 0; I < J.LocalArgs.size(); ++I) {
      LocalPtrs[I] = Local + Offset;
      Offset += alignUp(J.LocalArgs[I].second);
      Args[J.LocalArgs[I].first] = &LocalPtrs[I];
    }
    C.Launch = J.Launch;
    C.LocalMem = Local;
    C.LocalEnd = Local + J.localMemBytes();
    if (J.RegionScratch) {
      const size_t *Local = J.Launch.EnqueuedLocalSize;
      size_t Bytes = J.RegionScratch * Local[0] * Local[1] * Local[2];
      C.Scratch = ThreadScratch.get(Bytes);
      C.ScratchEnd = static_cast<char *>(C.Scratch) + Bytes;
      C.GroupCollective = groupCollective;
    }
    if (J.CheckBounds) {
      // Zeroed once per thread; readCheckReport zeroes it after a failure.
      bool Fresh = !ThreadCheckReport.Data;
      C.CheckReport = static_cast<uint64_t *>(
          ThreadCheckReport.get(CheckReportWords * sizeof(uint64_t)));
      if (Fresh)
        std::fill(C.CheckReport, C.CheckReport + CheckReportWords, 0);
    }
  }

  /// Takes chunks of work-groups, in increasing order, until none is left;
  /// calls \p AfterChunk after each and stops early if it returns true.
  template <typename Fn> void run(LaunchState &S, Fn &&AfterChunk) {
    const NDRangeJob &J = S.J;
    // The private variables of the work-item loops live on the stack of
    // the thread running the groups: this one.
    std::tie(C.PrivateLo, C.PrivateHi) = threadStack();
    RunningKernel Running(J.Name, C.GroupId, J.FaultNotify, J.FaultNotifyData);
    DeviceEnqueueScope Enqueue(J.Enqueue);
    // A frame larger than what is left of this thread's stack (a TBB
    // worker's 4 MiB, an application thread's) runs on a larger stack.
    char Here;
    bool Large = !J.PerWorkItem && J.StackBytes &&
                 static_cast<size_t>(&Here - static_cast<char *>(C.PrivateLo)) <
                     J.StackBytes;
    // Relaxed float atomic adds this thread queued
    // (compiler/passes/DeferFloatAdds.cpp, scheduler/DeferredAdds.cpp) are
    // applied before this thread's part is reported done, however it ends.
    struct ApplyAdds {
      ~ApplyAdds() { flushDeferredAdds(); }
    } Adds;
    // Work-group functions may leave non-temporal stores in flight
    // (compiler/passes/NonTemporalStores.cpp), which no release orders: one
    // sfence per thread and share of the launch makes them visible before this
    // thread's part is reported done.
    struct StreamFence {
      ~StreamFence() {
#if defined(__x86_64__) || defined(__i386__)
        _mm_sfence();
#endif
      }
    } Fence;
    const LaunchDescription &L = J.Launch;
    size_t N0 = L.NumGroups[0], N1 = L.NumGroups[1];
    for (;;) {
      // Guided: a claim takes 1 / PerThread of what is left, at most Chunk,
      // so the last claims are single groups and the threads end together.
      // (With fixed chunks one thread may work alone at the end for up to a
      // whole chunk's time.) A stale Left only makes a chunk a little larger.
      size_t Seen = S.Next.load(std::memory_order_relaxed);
      if (Seen >= S.Total)
        return;
      // A failed bounds check ends the launch: no new group starts.
      if (S.Failure && S.Failure->Hit.load(std::memory_order_relaxed))
        return;
      size_t Want = guidedChunk(S.Total - Seen, S.PerThread, S.Chunk);
      size_t Begin = S.Next.fetch_add(Want, std::memory_order_relaxed);
      if (Begin >= S.Total)
        return;
      size_t End = std::min(S.Total, Begin + Want);
      for (size_t G = Begin; G < End; ++G) {
        size_t Id[3] = {G % N0, G / N0 % N1, G / N0 / N1};
        for (unsigned D = 0; D < 3; ++D) {
          C.GroupId[D] = Id[D];
          // The last group of a non-uniform dimension is smaller.
          C.LocalSize[D] =
              std::min(L.EnqueuedLocalSize[D],
                       L.GlobalSize[D] - Id[D] * L.EnqueuedLocalSize[D]);
        }
        if (J.PerWorkItem)
          runGroupOnFibers(J.Fn, Args, C, J.FiberStack);
        else if (Large)
          runOnLargeStack(J.Fn, Args, C, J.StackBytes);
        else
          J.Fn(Args, &C);
        if (S.Failure && readCheckReport(C, J.CheckReportFlagged, *S.Failure))
          return;
      }
      if (AfterChunk())
        return;
    }
  }
};

/// Another launch of \p S's arena this helper should move to, as one more
/// owner of it, or null: one with groups left and at least two threads
/// fewer than \p S (counting each launching thread), the one with fewest.
/// Moving then evens the two out without making them trade places.
LaunchState *moveTarget(LaunchState &S) {
  HelperPark *P = S.Park;
  if (!P || P->RunningCount.load(std::memory_order_relaxed) < 2)
    return nullptr;
  unsigned Best = S.Active.load(std::memory_order_relaxed) + 1;
  LaunchState *To = nullptr;
  std::lock_guard<std::mutex> G(P->RunningLock);
  for (void *V : P->Running) {
    auto *T = static_cast<LaunchState *>(V);
    if (T == &S || T->Next.load(std::memory_order_relaxed) >= T->Total)
      continue;
    unsigned N = T->Active.load(std::memory_order_relaxed) + 1;
    if (N + 1 < Best) {
      Best = N;
      To = T;
    }
  }
  if (To)
    To->Owners.fetch_add(1, std::memory_order_relaxed);
  return To;
}

/// A helper thread's part. A helper counts itself active before it looks
/// for work, so the launch waits for every helper that may still touch the
/// job; one that starts after every group was claimed returns without
/// touching it (only the shared state, which it co-owns). A helper that
/// cannot set up (out of memory) claims nothing. Returns the launch it
/// moves to (moveTarget), if it leaves groups of this one to the others.
LaunchState *help(LaunchState &S) {
  CLCPU_TSAN_ACQUIRE(&S);
  S.Active.fetch_add(1, std::memory_order_seq_cst);
  LaunchState *To = nullptr;
  if (S.Next.load(std::memory_order_seq_cst) < S.Total) {
    try {
      Participant P(S.J);
      P.run(S, [&] { return (To = moveTarget(S)) != nullptr; });
    } catch (const std::bad_alloc &) {
    }
  }
  CLCPU_TSAN_RELEASE(&S);
  if (S.Active.fetch_sub(1, std::memory_order_seq_cst) == 1)
    S.Active.notify_all();
  return To;
}

/// Drops one owner of \p S; the last one deletes it.
void release(LaunchState *S) {
  if (S->Owners.fetch_sub(1, std::memory_order_acq_rel) == 1)
    delete S;
}

/// Helps \p S, then each launch the helper moves to, dropping its
/// ownership of each as it leaves it.
void helpAndRelease(LaunchState *S) {
  while (S) {
    LaunchState *To = help(*S);
    release(S);
    S = To;
  }
}

/// \p S among its park's running launches while this lives (moveTarget).
struct Registered {
  LaunchState *S;
  explicit Registered(LaunchState *L) : S(L->Park ? L : nullptr) {
    if (!S)
      return;
    std::lock_guard<std::mutex> G(S->Park->RunningLock);
    S->Park->Running.push_back(S); // may throw: then not registered
    S->Owners.fetch_add(1, std::memory_order_relaxed);
    S->Park->RunningCount.fetch_add(1, std::memory_order_relaxed);
  }
  ~Registered() {
    if (!S)
      return;
    {
      std::lock_guard<std::mutex> G(S->Park->RunningLock);
      auto &R = S->Park->Running;
      R.erase(std::find(R.begin(), R.end(), S));
      S->Park->RunningCount.fetch_sub(1, std::memory_order_relaxed);
    }
    release(S);
  }
  Registered(const Registered &) = delete;
  Registered &operator=(const Registered &) = delete;
};

/// Offers \p S to up to \p Want helpers waiting in \p P (one owner each);
/// returns how many it offered it to. Another launch's offer (a second
/// queue on the device) is left alone: this one asks TBB instead.
unsigned offer(HelperPark &P, LaunchState *S, unsigned Want) {
  unsigned N = std::min(Want, P.Waiting.load(std::memory_order_seq_cst));
  if (N == 0)
    return 0;
  {
    std::lock_guard<std::mutex> G(P.Lock);
    if (P.Offer)
      return 0;
    S->Owners.fetch_add(N, std::memory_order_relaxed);
    P.Offer = S;
    P.Tickets = N;
  }
  CLCPU_TSAN_RELEASE(S);
  P.Offers.fetch_add(1, std::memory_order_release);
  return N;
}

/// Withdraws what is left of the offer of \p S (its tickets' owners).
void withdraw(HelperPark &P, LaunchState *S) {
  unsigned Left = 0;
  {
    std::lock_guard<std::mutex> G(P.Lock);
    if (P.Offer != S)
      return;
    Left = P.Tickets;
    P.Offer = nullptr;
    P.Tickets = 0;
  }
  for (; Left > 0; --Left)
    release(S);
}

/// A helper that finished its part: takes the launches offered in \p P
/// until none came for HelperPark::WaitMicroseconds (or \p P closes).
void waitForLaunches(HelperPark &P) {
  using Clock = std::chrono::steady_clock;
  const auto Patience = std::chrono::microseconds(HelperPark::WaitMicroseconds);
  const uint64_t OthersSeen = P.Others.load(std::memory_order_acquire);
  for (;;) {
    uint64_t Seen = P.Offers.load(std::memory_order_acquire);
    auto Start = Clock::now();
    for (unsigned I = 1;; ++I) {
      if (P.Closed.load(std::memory_order_relaxed) ||
          P.Others.load(std::memory_order_acquire) != OthersSeen)
        return;
      if (P.Offers.load(std::memory_order_acquire) != Seen)
        break;
      CLCPU_PAUSE();
      if (I % 64 == 0 && Clock::now() - Start >= Patience)
        return;
    }
    LaunchState *S = nullptr;
    {
      std::lock_guard<std::mutex> G(P.Lock);
      if (P.Offer && P.Tickets > 0) {
        S = static_cast<LaunchState *>(P.Offer);
        if (--P.Tickets == 0)
          P.Offer = nullptr;
      }
    }
    if (S)
      helpAndRelease(S);
  }
}

/// Takes one helper task off \p S's unspawned count; false if none is left.
bool takeUnspawned(LaunchState &S) {
  for (unsigned N = S.Unspawned.load(std::memory_order_relaxed); N > 0;)
    if (S.Unspawned.compare_exchange_weak(N, N - 1, std::memory_order_relaxed))
      return true;
  return false;
}

void enqueueHelper(LaunchState *S);

/// Enqueues up to \p Fanout of the helper tasks \p S has left. Each woken
/// worker wakes the next ones, so with W workers the last starts after
/// about log2(W) wake-ups rather than W - 1 on the launching thread. Once
/// every group is claimed, the rest are dropped: they would find nothing.
void spawnHelpers(LaunchState *S, unsigned Fanout) {
  for (unsigned I = 0; I < Fanout; ++I) {
    if (S->Next.load(std::memory_order_relaxed) >= S->Total) {
      S->Unspawned.store(0, std::memory_order_relaxed);
      return;
    }
    if (!takeUnspawned(*S))
      return;
    enqueueHelper(S);
  }
}

/// The helper task. TBB hands the task object to a worker inside libtbb,
/// which ThreadSanitizer does not see: the reads of the task object (raw
/// pointers, as in the executor's Drainer) are left uninstrumented, and
/// the object has nothing to destroy. (A captured std::shared_ptr was read
/// and destroyed on the worker in instrumented library code: 12 reports in
/// the TSan build's e2e scheduler tests.) Ownership goes through the
/// atomic count, which TSan sees. With a park, the helper counts itself
/// waiting from the start (a launch that follows this one offers itself to
/// a helper still finishing here, rather than to a TBB worker this task
/// keeps busy), then waits there for the next launch.
struct Helper {
  LaunchState *S;
  HelperPark *Park;
  __attribute__((no_sanitize("thread"), noinline)) void operator()() const {
    HelperPark *P = Park;
    // S may be gone once this task lets go of it (helpAndRelease), and
    // its arena's handle with the launch.
    const int LaunchThreads = int(S->Threads);
    if (P)
      P->Waiting.fetch_add(1, std::memory_order_seq_cst);
    // A helper that cannot enqueue more (out of memory) still helps.
    try {
      spawnHelpers(S, 2);
    } catch (...) {
    }
    helpAndRelease(S);
    if (!P)
      return;
    // A backlog of helper tasks queued behind this one (enqueued, not
    // started: Tasks counts them, Waiting does not) will wait in the park
    // after it, so this one need not. A series of launches too short for
    // their helpers leaves such a backlog in the arena (each launch
    // enqueued one that started after the launch had ended); waiting their
    // turn in the park one after another, they would keep a worker from
    // other work for WaitMicroseconds each. Up to one launch's worth behind
    // (the arena's threads) is no backlog: those are the current launch's
    // helpers, and a late one catches the next launch in the park.
    int Behind = int(P->Tasks.load(std::memory_order_seq_cst)) -
                 int(P->Waiting.load(std::memory_order_seq_cst));
    if (Behind <= LaunchThreads)
      waitForLaunches(*P);
    P->Waiting.fetch_sub(1, std::memory_order_seq_cst);
    P->Tasks.fetch_sub(1, std::memory_order_release);
  }
};

/// Enqueues one helper task of \p S in its arena, as one more owner of
/// \p S (and, with a park, one more task the park waits for).
void enqueueHelper(LaunchState *S) {
  S->Owners.fetch_add(1, std::memory_order_relaxed);
  if (S->Park)
    S->Park->Tasks.fetch_add(1, std::memory_order_relaxed);
  try {
    S->Arena->enqueue(Helper{S, S->Park});
  } catch (...) {
    release(S); // that helper will never run
    if (S->Park)
      S->Park->Tasks.fetch_sub(1, std::memory_order_release);
    throw;
  }
}

/// Waits until no helper of \p S is active. Every group is claimed first
/// (already so unless the caller's part threw), so no helper that starts
/// later touches the job.
void waitForHelpers(LaunchState &S) {
  for (size_t N = S.Next.load();
       N < S.Total && !S.Next.compare_exchange_weak(N, S.Total);) {
  }
  for (int I = 0; I < 2000; ++I) {
    if (S.Active.load(std::memory_order_seq_cst) == 0)
      return CLCPU_TSAN_ACQUIRE(&S);
    CLCPU_PAUSE();
  }
  for (unsigned N; (N = S.Active.load(std::memory_order_seq_cst)) != 0;)
    S.Active.wait(N, std::memory_order_seq_cst);
  CLCPU_TSAN_ACQUIRE(&S);
}

} // namespace

void HelperPark::close() {
  Closed.store(true, std::memory_order_relaxed);
  while (Tasks.load(std::memory_order_acquire) != 0)
    std::this_thread::yield();
}

HelperPark::~HelperPark() { close(); }

size_t NDRangeJob::localMemBytes() const {
  size_t N = alignUp(LocalVarsSize);
  for (auto &A : LocalArgs)
    N += alignUp(A.second);
  return N ? N : LocalMemAlign;
}

ClaimPlan planClaims(size_t Total, unsigned Threads) {
  size_t T = std::max<size_t>(Threads, 1);
  // At most 8 groups per thread: each claim takes 1/T of what is left. The
  // launching thread claims first, so it takes the same first share of
  // every launch of a series, and what those groups read in one launch is
  // in its L2 in the next: a pipelined three-pass scan's last pass of a
  // block re-reads what its first pass read one launch earlier. Single-group
  // claims lose that (each launch spreads the groups over the threads
  // anew), and fixed shares of 1/T each leave no small claims to even out
  // a late helper.
  if (Total <= T * 8)
    return {T, (Total + T - 1) / T};
  // Otherwise chunks of at most 1/8 per thread, shrinking with what is
  // left: a large launch costs a few hundred atomic increments, and the
  // threads end together.
  return {T * 8, std::max<size_t>(1, Total / (T * 8))};
}

size_t guidedChunk(size_t Left, size_t PerThread, size_t MaxChunk) {
  return std::clamp<size_t>(Left / std::max<size_t>(PerThread, 1), 1,
                            std::max<size_t>(MaxChunk, 1));
}

void runNDRange(tbb::task_arena &Arena, unsigned Threads, const NDRangeJob &J,
                HelperPark *Park, CheckFailure *Failure) {
  // Shared with the helper tasks, which may start after the launch returned
  // (and then find nothing to do); this thread's ownership ends with the
  // function, however it ends.
  LaunchState *S = new LaunchState;
  struct Own {
    LaunchState *S;
    ~Own() { release(S); }
  } Owner{S};
  S->J = J;
  S->Arena = &Arena;
  S->Park = Park;
  S->Threads = Threads;
  S->Failure = J.CheckBounds ? Failure : nullptr;
  S->Total =
      J.Launch.NumGroups[0] * J.Launch.NumGroups[1] * J.Launch.NumGroups[2];
  ClaimPlan Plan = planClaims(S->Total, Threads);
  S->PerThread = Plan.PerThread;
  S->Chunk = Plan.MaxChunk;
  size_t Chunks = (S->Total + S->Chunk - 1) / S->Chunk;
  // Set up before any helper can claim a group: if this throws, nothing ran.
  Participant Self(S->J);
  // This thread (a worker draining a queue, or the host thread in clFinish)
  // runs groups itself; Threads - 1 helper tasks enqueued in the device's
  // arena run the rest. Waking a worker costs microseconds, so with many
  // groups helpers are called only once this thread has worked for
  // SpawnAfter and groups are left (small launches stay on one thread);
  // with few groups (each a large share of the work) at once.
  size_t Helpers = std::min<size_t>(Threads ? Threads - 1 : 0, Chunks - 1);
  if (Helpers == 0) {
    // Alone: relaxed float adds contend with no one (DeferredAdds.h).
    AddsNowScope Alone;
    Self.run(*S, [] { return false; });
    return;
  }
  if (S->Total > size_t(Threads) * 8) {
    // One group at a time (no helper can claim yet), the clock read after
    // group 1, 2, 4, 8 ...: alone for SpawnAfter to twice that however long
    // a group takes. (A whole chunk first, 1/16 of the launch with two
    // threads, would keep the other thread idle for that chunk's time.)
    constexpr auto SpawnAfter = std::chrono::microseconds(10);
    auto Start = std::chrono::steady_clock::now();
    size_t Chunk = S->Chunk, Done = 0;
    S->Chunk = 1;
    Self.run(*S, [&] {
      ++Done;
      return (Done & (Done - 1)) == 0 &&
             std::chrono::steady_clock::now() - Start >= SpawnAfter;
    });
    S->Chunk = Chunk;
    if (S->Next.load(std::memory_order_relaxed) >= S->Total)
      return;
  }
  // Enqueued, not spawned: TBB wakes a sleeping worker for an enqueued task
  // at once, while one spawned by a thread that joined the arena from outside
  // can wait milliseconds once the workers sleep, leaving the launch to this
  // thread alone. The caller does not join the arena either: it runs its
  // groups where it is.
  // Helpers waiting in the park first (they start within a microsecond),
  // TBB for the rest.
  // From here other launches' helpers may move to this one (moveTarget);
  // a launch that ends alone before this point never needed them.
  Registered Reg(S);
  CLCPU_TSAN_RELEASE(S);
  size_t Offered = Park ? offer(*Park, S, unsigned(Helpers)) : 0;
  struct WaitHelpers {
    LaunchState &S;
    HelperPark *Park;
    bool Offered;
    ~WaitHelpers() {
      if (Offered)
        withdraw(*Park, &S);
      waitForHelpers(S);
    }
  } Wait{*S, Park, Offered > 0};
  if (Helpers > Offered) {
    S->Unspawned.store(unsigned(Helpers - Offered), std::memory_order_relaxed);
    spawnHelpers(S, 2);
  }
  Self.run(*S, [] { return false; });
  // Every group is claimed; Wait's destructor waits for the helpers that
  // claimed some (and, if this thread's part threw, claims what is left).
}

} // namespace clcpu
