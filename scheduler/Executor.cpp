#include "scheduler/Executor.h"
#include "scheduler/SyncHints.h"

#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <thread>

namespace clcpu {
namespace {

/// What waiting threads sleep on: a generation counter bumped on progress.
/// Heap-allocated and never destroyed: workers may still report progress
/// while the process runs its static destructors.
struct Progress {
  std::atomic<unsigned> Waiters{0};  // in waitUntil
  std::atomic<unsigned> Sleepers{0}; // of those, blocked on Cv
  std::atomic<unsigned long> Generation{0};
  std::mutex Lock;
  std::condition_variable Cv;
};
Progress &progress() {
  static Progress *P = new Progress;
  return *P;
}

/// TBB's worker pool holds hardware_concurrency - 1 threads by default; every
/// arena slot here is a worker slot (no slot reserved for the host thread),
/// so the pool must be large enough for the executors that exist.
struct WorkerPool {
  std::mutex Lock;
  size_t Wanted = 0;
  std::unique_ptr<tbb::global_control> Control;

  void reserve(unsigned Threads) {
    std::lock_guard<std::mutex> G(Lock);
    Wanted += Threads;
    size_t Limit =
        std::max<size_t>(Wanted, std::thread::hardware_concurrency()) + 1;
    if (Control && tbb::global_control::active_value(
                       tbb::global_control::max_allowed_parallelism) >= Limit)
      return;
    auto Next = std::make_unique<tbb::global_control>(
        tbb::global_control::max_allowed_parallelism, Limit);
    Control = std::move(Next);
  }
  void unreserve(unsigned Threads) {
    std::lock_guard<std::mutex> G(Lock);
    Wanted -= Threads;
  }
};
WorkerPool &workerPool() {
  static WorkerPool *P = new WorkerPool;
  return *P;
}

/// What the calling thread is doing for an executor: running one of its
/// tasks (a worker draining the FIFO or a waiting host thread helping). A
/// task submitted to the same executor from inside that task becomes the
/// continuation, run by this thread right after the current task: chains of
/// commands (an in-order queue) go from one to the next without passing
/// through the FIFO or waking anyone.
struct RunningScope {
  Executor *E;
  RunningScope *Outer;
  Executor::Task Continuation;
  bool HasContinuation = false;
  explicit RunningScope(Executor *E);
  ~RunningScope();
};
thread_local RunningScope *CurrentScope = nullptr;

RunningScope::RunningScope(Executor *E) : E(E), Outer(CurrentScope) {
  CurrentScope = this;
}
RunningScope::~RunningScope() { CurrentScope = Outer; }

/// Whether the calling thread is running a task of \p E.
bool runningTaskOf(const Executor *E) {
  for (RunningScope *S = CurrentScope; S; S = S->Outer)
    if (S->E == E)
      return true;
  return false;
}

/// Runs \p T, then the continuations it and they leave behind, in \p S.
void runWithContinuations(RunningScope &S, Executor::Task &T) {
  T();
  while (S.HasContinuation) {
    Executor::Task Next = std::move(S.Continuation);
    S.HasContinuation = false;
    Next();
  }
}

} // namespace

/// The arena task: drains the FIFO. TBB hands the task object from the
/// submitting thread to a worker inside libtbb, which ThreadSanitizer does
/// not see; reading the one captured pointer is therefore left
/// uninstrumented (tests/tsan.supp covers TBB's own header code).
struct Executor::Drainer {
  Executor *E;
  __attribute__((no_sanitize("thread"), noinline)) void operator()() const {
    E->drain();
  }
};

Executor::Executor(unsigned Threads, WorkerEntryFn OnWorkerEntry)
    : Threads(std::max(1u, Threads)), OnEntry(std::move(OnWorkerEntry)),
      Arena((workerPool().reserve(std::max(1u, Threads)),
             static_cast<int>(std::max(1u, Threads))),
            /*reserved_for_masters=*/0),
      Obs(Arena, *this) {
  // Workers call the observer once libtbb activated it (a hand-off TSan
  // cannot see): everything written so far happens before those calls.
  CLCPU_TSAN_RELEASE(&Obs);
  Obs.observe(true);
}

Executor::~Executor() {
  // Arena tasks refer to this executor: wait until the last one returned.
  {
    std::unique_lock<std::mutex> G(Lock);
    Ready.clear();
    Pops.store(Pushes.load(std::memory_order_relaxed),
               std::memory_order_release);
  }
  for (;;) {
    {
      std::lock_guard<std::mutex> G(Lock);
      if (Draining == 0)
        break;
    }
    std::this_thread::yield();
  }
  Park.close();
  Obs.observe(false);
  Arena.terminate();
  workerPool().unreserve(Threads);
}

namespace {
struct Registry {
  std::mutex Lock;
  std::map<std::pair<std::vector<unsigned>, unsigned>, Executor *> Map;
};
Registry &registry() {
  static Registry *R = new Registry; // never destroyed, like its executors
  return *R;
}
} // namespace

Executor &Executor::shared(const std::vector<unsigned> &Key, unsigned Threads,
                           WorkerEntryFn OnWorkerEntry) {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  Executor *&E = R.Map[{Key, Threads}];
  if (!E)
    E = new Executor(Threads, std::move(OnWorkerEntry));
  return *E;
}

void Executor::kickAll() {
  Registry &R = registry();
  std::vector<Executor *> All;
  {
    std::lock_guard<std::mutex> G(R.Lock);
    for (auto &KV : R.Map)
      All.push_back(KV.second);
  }
  for (Executor *E : All)
    E->kick();
}

void Executor::kick() {
  // Every enqueue of a command with work kicks: without the lock when a
  // drainer is there or every task pushed so far was taken. A drainer
  // leaves only after it saw the FIFO empty under the lock, so one counted
  // here after this thread's push still sees that push.
  if (Draining.load(std::memory_order_acquire) > 0 ||
      Pops.load(std::memory_order_acquire) ==
          Pushes.load(std::memory_order_acquire))
    return;
  bool Spawn;
  {
    std::lock_guard<std::mutex> G(Lock);
    Spawn = !Ready.empty() && Draining == 0;
    if (Spawn)
      ++Draining;
  }
  if (Spawn)
    enqueueDrainer();
}

void Executor::enqueueDrainer() {
  ArenaTasks.fetch_add(1, std::memory_order_relaxed);
  Park.otherTaskEnqueued();
  Arena.enqueue(Drainer{this});
}

void Executor::Observer::on_scheduler_entry(bool IsWorker) {
  CLCPU_TSAN_ACQUIRE(this);
  if (IsWorker && E.OnEntry)
    E.OnEntry();
}

void Executor::submit(Task T, bool Deferred) {
  if (RunningScope *S = CurrentScope;
      S && S->E == this && !S->HasContinuation) {
    S->Continuation = std::move(T);
    S->HasContinuation = true;
    return;
  }
  pushReady(std::move(T), Deferred);
}

void Executor::pushReady(Task T, bool Deferred) {
  // One draining arena task per slot is enough: each runs until the FIFO
  // is empty. Drainers between two tasks take the new one anyway; wake a
  // worker only for tasks beyond those.
  auto NeedsDrainer = [&] {
    return !Deferred && Draining < Threads && Ready.size() > Draining - Busy;
  };
  bool Spawn, Wait;
  uint64_t Mine;
  {
    std::lock_guard<std::mutex> G(Lock);
    Ready.push_back(std::move(T));
    Mine = Pushes.load(std::memory_order_relaxed) + 1;
    Pushes.store(Mine, std::memory_order_release);
    Spawn = NeedsDrainer();
    // (Not a thread running this executor's task: it takes nothing while
    // it waits here.)
    Wait = Spawn && Busy > 0 && !runningTaskOf(this);
    if (Spawn && !Wait)
      ++Draining;
  }
  notifyProgress();
  if (Wait) {
    // A drainer counts as busy until it takes the lock after its task,
    // which has already reported its end: the thread that waited for that
    // end and enqueued the next command often comes here first. Give the
    // drainer a moment to take this task before waking a worker for it.
    spinUntil(std::chrono::nanoseconds(GraceNanoseconds),
              [&] { return Pops.load(std::memory_order_acquire) >= Mine; });
    std::lock_guard<std::mutex> G(Lock);
    Spawn = Pops.load(std::memory_order_relaxed) < Mine && NeedsDrainer();
    if (Spawn)
      ++Draining;
  }
  if (Spawn)
    enqueueDrainer();
}

void Executor::drain() {
  RunningScope Scope(this);
  bool Ran = false;
  for (;;) {
    Task T;
    uint64_t Seen;
    {
      std::lock_guard<std::mutex> G(Lock);
      if (Ran)
        --Busy;
      Ran = !Ready.empty();
      if (Ran) {
        T = std::move(Ready.front());
        Ready.pop_front();
        Pops.store(Pops.load(std::memory_order_relaxed) + 1,
                   std::memory_order_release);
        ++Busy;
      }
      Seen = Pushes.load(std::memory_order_relaxed);
    }
    if (Ran) {
      runWithContinuations(Scope, T);
      continue;
    }
    // The FIFO is empty. Commands of an in-order queue usually come one
    // after another: stay a moment for the next one, which a waiting drainer
    // takes within a microsecond, instead of returning the thread to TBB,
    // which would wake every worker of the arena again for it. One drainer
    // waits, the others return their thread to TBB: spinning threads take
    // a small machine's cores from the application.
    unsigned NoneWaiting = 0;
    if (Lingering.compare_exchange_strong(NoneWaiting, 1,
                                          std::memory_order_acquire)) {
      bool Came = lingerForTask(Seen);
      Lingering.store(0, std::memory_order_release);
      if (Came)
        continue;
    }
    std::lock_guard<std::mutex> G(Lock);
    if (!Ready.empty())
      continue;
    --Draining;
    return;
  }
}

bool Executor::lingerForTask(uint64_t Seen) {
  const auto Patience = std::chrono::microseconds(LingerUs);
  const auto Grace = std::chrono::nanoseconds(GraceNanoseconds);
  for (;;) {
    if (!spinUntil(Patience, [&] {
          return Pushes.load(std::memory_order_acquire) != Seen;
        }))
      return false;
    // A host thread that enqueued the task usually waits for it right
    // away (a blocking call, clFinish) and runs it itself, without
    // passing it to another core: give it that moment before taking the
    // task. Taken already (every push popped): wait for the next one
    // without touching the lock the host takes.
    uint64_t Pushed = Seen;
    if (!spinUntil(Grace, [&] {
          uint64_t Popped = Pops.load(std::memory_order_acquire);
          Pushed = Pushes.load(std::memory_order_acquire);
          return Popped == Pushed;
        }))
      return true;
    Seen = Pushed;
  }
}

bool Executor::runOne() {
  Task T;
  {
    std::lock_guard<std::mutex> G(Lock);
    if (Ready.empty())
      return false;
    T = std::move(Ready.front());
    Ready.pop_front();
    Pops.store(Pops.load(std::memory_order_relaxed) + 1,
               std::memory_order_release);
  }
  {
    RunningScope Scope(this);
    runWithContinuations(Scope, T);
  }
  return true;
}

size_t Executor::queued() {
  std::lock_guard<std::mutex> G(Lock);
  return Ready.size();
}

void Executor::waitUntil(std::span<Executor *const> Help,
                         const std::function<bool()> &Done) {
  // A task that waits (a callback calling clFinish, say) may have left a
  // continuation that only this thread would run after the task returns:
  // hand it to the FIFO so that the wait can see it done.
  for (RunningScope *S = CurrentScope; S; S = S->Outer)
    if (S->HasContinuation) {
      S->HasContinuation = false;
      S->E->pushReady(std::move(S->Continuation), false);
    }
  Progress &P = progress();
  P.Waiters.fetch_add(1, std::memory_order_seq_cst);
  for (;;) {
    unsigned long Gen = P.Generation.load(std::memory_order_seq_cst);
    if (Done())
      break;
    bool Ran = false;
    for (Executor *E : Help)
      if (E && E->runOne()) {
        Ran = true;
        break;
      }
    if (Ran)
      continue;
    // Spin briefly: a worker usually finishes the command within
    // microseconds, far less than a futex sleep and wake-up.
    bool Changed = false;
    for (int I = 0; I < 4000; ++I) {
      if (P.Generation.load(std::memory_order_seq_cst) != Gen) {
        Changed = true;
        break;
      }
      CLCPU_PAUSE();
    }
    if (Changed)
      continue;
    // About to sleep: make sure deferred tasks anywhere have a worker.
    kickAll();
    std::unique_lock<std::mutex> G(P.Lock);
    P.Sleepers.fetch_add(1, std::memory_order_seq_cst);
    P.Cv.wait(
        G, [&] { return P.Generation.load(std::memory_order_seq_cst) != Gen; });
    P.Sleepers.fetch_sub(1, std::memory_order_seq_cst);
  }
  P.Waiters.fetch_sub(1, std::memory_order_seq_cst);
}

unsigned long Executor::progressGeneration() {
  return progress().Generation.load(std::memory_order_seq_cst);
}

void Executor::notifyProgress() {
  Progress &P = progress();
  if (P.Waiters.load(std::memory_order_seq_cst) == 0)
    return;
  P.Generation.fetch_add(1, std::memory_order_seq_cst);
  // A sleeper counts itself, then re-checks Generation, under the lock;
  // taking the lock here means it is either before that check or waiting.
  if (P.Sleepers.load(std::memory_order_seq_cst) == 0)
    return;
  { std::lock_guard<std::mutex> G(P.Lock); }
  P.Cv.notify_all();
}

} // namespace clcpu
