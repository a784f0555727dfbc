#ifndef CLCPU_SCHEDULER_EXECUTOR_H
#define CLCPU_SCHEDULER_EXECUTOR_H

#include "scheduler/NDRange.h"

#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_scheduler_observer.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <span>
#include <vector>

namespace clcpu {

/// Runs commands for one device: a TBB arena with one slot per core, whose
/// worker threads are pinned to the device's CPUs when they enter it.
///
/// Commands that are ready go into a FIFO of ready tasks; `submit` makes sure
/// a worker drains it, so a task never runs on the thread that submitted it.
/// A drainer that emptied the FIFO waits a moment for the next task before
/// it leaves the arena (each time an empty arena gets a task, TBB wakes all
/// of its workers).
/// Host threads that wait for commands (clFinish, clWaitForEvents, blocking
/// enqueues) call `waitUntil`, which also takes ready tasks from the FIFO and
/// runs them itself: a waiting thread does not pay for waking a worker.
///
/// Thread-safe. Knows nothing about OpenCL objects.
class Executor {
public:
  using Task = std::function<void()>;
  using WorkerEntryFn = std::function<void()>;

  /// \p Threads worker slots (at least 1); \p OnWorkerEntry runs on every
  /// worker thread when it joins the arena (the runtime pins it there).
  Executor(unsigned Threads, WorkerEntryFn OnWorkerEntry);
  /// Waits for the workers to leave the arena. Tasks still queued are
  /// dropped; callers finish their commands first.
  ~Executor();
  Executor(const Executor &) = delete;
  Executor &operator=(const Executor &) = delete;

  /// The executor shared by every device made of the CPU set \p Key: created
  /// on first use and kept until process exit (a worker may drop the last
  /// reference to a sub-device, so the executor must outlive its device).
  static Executor &shared(const std::vector<unsigned> &Key, unsigned Threads,
                          WorkerEntryFn OnWorkerEntry);

  unsigned threads() const { return Threads; }
  /// The arena, for code that runs parallel loops on this device's cores.
  tbb::task_arena &arena() { return Arena; }
  /// Where the arena's helpers wait between launches (runNDRange).
  HelperPark &helperPark() { return Park; }

  /// Queues \p T to run on a worker thread (or a waiting host thread, never
  /// the caller). A \p Deferred task wakes no worker: it runs when a thread
  /// waits (and helps), or at the next `kick` (flush), submit or worker.
  void submit(Task T, bool Deferred = false);

  /// Makes sure a worker drains tasks queued so far (clFlush).
  void kick();
  /// `kick` on every shared executor.
  static void kickAll();

  /// Runs one ready task on the calling thread. Returns false if none.
  bool runOne();

  /// Blocks the calling thread until \p Done returns true, running ready
  /// tasks of the executors in \p Help meanwhile (and kicking every
  /// executor before it sleeps). \p Done is re-evaluated
  /// after every `notifyProgress` and every submit; tasks that change what
  /// \p Done reads call `notifyProgress`.
  static void waitUntil(std::span<Executor *const> Help,
                        const std::function<bool()> &Done);

  /// Wakes threads blocked in `waitUntil`; call after changing anything a
  /// `Done` predicate reads. Cheap when nobody waits.
  static void notifyProgress();

  /// Tasks queued and not yet started (for tests).
  size_t queued();
  /// Draining tasks handed to the TBB arena so far (for tests).
  uint64_t arenaTasks() const {
    return ArenaTasks.load(std::memory_order_relaxed);
  }
  /// How long a drainer waits for the next task (LingerMicroseconds; tests
  /// make it long enough for a loaded machine). Before the first submit.
  void setLingerMicroseconds(unsigned Us) { LingerUs = Us; }
  /// How often `notifyProgress` woke waiting threads so far (for tests).
  static unsigned long progressGeneration();

private:
  struct Drainer;
  void drain();
  /// Waits for a task pushed after the count \p Seen that nobody took
  /// within GraceNanoseconds (true: take it), as long as pushes come at
  /// least every LingerUs microseconds (false: none came).
  bool lingerForTask(uint64_t Seen);
  static constexpr unsigned LingerMicroseconds = 50;
  static constexpr unsigned GraceNanoseconds = 2000;
  void pushReady(Task T, bool Deferred);
  void enqueueDrainer();

  unsigned Threads;
  WorkerEntryFn OnEntry;
  tbb::task_arena Arena;
  // Destroyed before the arena: it waits for the helper tasks.
  HelperPark Park;

  class Observer : public tbb::task_scheduler_observer {
  public:
    Observer(tbb::task_arena &A, Executor &E)
        : tbb::task_scheduler_observer(A), E(E) {}
    void on_scheduler_entry(bool IsWorker) override;

  private:
    Executor &E;
  };
  Observer Obs;

  std::mutex Lock; // guards Ready, Draining and Busy
  std::deque<Task> Ready;
  // Arena tasks enqueued and not yet finished (written under Lock; kick
  // reads it without).
  std::atomic<unsigned> Draining{0};
  unsigned Busy = 0;     // of those, running a task right now
  std::atomic<uint64_t> Pushes{0}; // tasks pushed so far (written under Lock)
  std::atomic<uint64_t> Pops{0};   // tasks taken so far (written under Lock)
  std::atomic<uint64_t> ArenaTasks{0};
  std::atomic<unsigned> Lingering{0}; // a drainer waits in lingerForTask
  unsigned LingerUs = LingerMicroseconds;
};

} // namespace clcpu

#endif
