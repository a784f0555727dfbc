#ifndef CLCPU_SCHEDULER_NDRANGE_H
#define CLCPU_SCHEDULER_NDRANGE_H

// Running one NDRange on a device's executor: the work-groups are handed out
// in increasing linear order, in chunks, to the threads of the device's TBB
// arena (the thread running the command takes part). Each thread has its own
// local memory block (the kernel's __local variables, then each __local
// argument, each 128-byte aligned) that the groups it runs reuse.

#include "compiler/WorkGroupContext.h"
#include "scheduler/DeviceEnqueue.h"
#include "scheduler/StackGuard.h"

#include <oneapi/tbb/task_arena.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

namespace clcpu {

/// Alignment of every __local block (a cache-line pair, as for buffers).
constexpr size_t LocalMemAlign = 128;

/// Barrier regions: the most scratch one work-group may use (its size
/// limits the work-group size of kernels with much state across barriers).
constexpr size_t MaxRegionGroupScratch = size_t(64) << 20;

/// The most work-groups one launch may have. The threads of a launch claim
/// groups by advancing a shared size_t counter, each claim possibly past the
/// total, so the total must leave room below SIZE_MAX; and a launch of more
/// groups could not end in any useful time (2^48 groups of 1 ns each take
/// over three days). clEnqueueNDRangeKernel refuses larger launches with
/// CL_OUT_OF_RESOURCES.
constexpr size_t MaxLaunchGroups = size_t(1) << 48;

struct NDRangeJob {
  WorkGroupFn Fn = nullptr;
  /// The kernel's name, for the stack-overflow report (scheduler/
  /// StackGuard.h); must outlive the launch.
  const char *Name = "";
  /// Fn runs one work-item (barriers/collectives): groups run on fibers.
  bool PerWorkItem = false;
  size_t FiberStack = 0; // fiberStackSize(); 0: the default
  /// Stack one call of Fn needs (its frame plus StackHeadroom): a thread
  /// with less left of its own runs Fn on a larger one (runOnLargeStack).
  /// 0: unknown, the thread's own.
  size_t StackBytes = 0;
  /// Barrier regions (KernelInfo::RegionScratch): scratch bytes per
  /// work-item; each thread gets that times the local size.
  size_t RegionScratch = 0;
  void **Args = nullptr; // one pointer per kernel argument
  size_t NumArgs = 0;
  /// The NDRange, as every work-group's context holds it.
  LaunchDescription Launch;
  /// Bytes of the kernel's own __local variables.
  size_t LocalVarsSize = 0;
  /// __local arguments: (argument index, bytes). Their Args entries are
  /// replaced per thread by a pointer to the thread's block.
  std::vector<std::pair<unsigned, size_t>> LocalArgs;
  /// Built in the bounds-check mode (compiler/passes/CheckBounds.cpp): each
  /// thread gets a WorkGroupContext::CheckReport, read after each group.
  bool CheckBounds = false;
  /// A failure also sets the report's CheckReportFailed word, which is all
  /// the scheduler reads after a group without one.
  bool CheckReportFlagged = false;
  /// Told of a hardware fault in the kernel (scheduler/StackGuard.h).
  FaultNotifyFn FaultNotify = nullptr;
  void *FaultNotifyData = nullptr;
  /// The kernel enqueues (OpenCL C 2.0 6.13.17): where its device-enqueue
  /// calls go, current on every thread while it runs groups of this launch
  /// (scheduler/DeviceEnqueue.h). Null for other kernels.
  DeviceEnqueueHost *Enqueue = nullptr;

  /// Bytes of local memory one work-group needs (each block aligned).
  size_t localMemBytes() const;
};

/// Where the helper threads of one arena wait a little after their part of
/// a launch, for the next launch (a series of short launches, such as a
/// pipelined scan's): a launch offers its state here to the waiting helpers
/// before it asks TBB for more. A TBB worker woken for each launch of a
/// series is often not running its part before the launch ends, which
/// leaves much of a pipelined scan's series of launches to one thread.
/// Owned by the device's executor; its destructor waits for every helper
/// task that may still come here.
class HelperPark {
public:
  HelperPark() = default;
  ~HelperPark();
  HelperPark(const HelperPark &) = delete;
  HelperPark &operator=(const HelperPark &) = delete;

  /// How long a helper waits for the next launch.
  static constexpr unsigned WaitMicroseconds = 50;

  /// Sends the waiting helpers away and waits for every helper task that
  /// may still come here to finish (their arena must still run them).
  void close();
  /// Sends the waiting helpers back to TBB: a task other than a helper
  /// (another queue's commands) waits for one of the arena's threads.
  void otherTaskEnqueued() { Others.fetch_add(1, std::memory_order_release); }

  // The rest is for runNDRange (scheduler/NDRange.cpp).
  std::mutex Lock;
  void *Offer = nullptr; // the launch on offer (guarded by Lock) ...
  unsigned Tickets = 0;  // ... to this many more helpers, one owner each
  std::atomic<uint64_t> Offers{0};  // bumped by each offer
  std::atomic<unsigned> Waiting{0}; // helpers done or waiting here
  std::atomic<unsigned> Tasks{0};   // helper tasks not yet finished
  std::atomic<bool> Closed{false};  // the destructor runs
  std::atomic<uint64_t> Others{0};  // otherTaskEnqueued calls
  /// The launches running in the arena (runNDRange registers each for its
  /// duration, as one more owner). Two running at once (two queues: a
  /// pipe's producer and consumer kernels) share the arena's threads: a
  /// helper of the launch with more threads moves to the one with fewer
  /// between two claims, so that a launch started while every worker was
  /// busy does not run on its launching thread alone.
  std::mutex RunningLock;
  std::vector<void *> Running;           // LaunchState *, guarded
  std::atomic<unsigned> RunningCount{0}; // Running.size()
};

/// The first failed check of a launch in the bounds-check mode: the
/// check's site (its number in the kernel's table, from 1), the offset
/// from the object and its extent, and the work-item.
struct CheckFailure {
  std::atomic<bool> Hit{false};
  uint64_t Site = 0, Offset = 0, Extent = 0;
  size_t Group[3] = {}, Local[3] = {};
};

/// Runs every work-group of \p J inside \p Arena (\p Threads threads).
/// Returns when all have finished. \p Park (may be null): the arena's
/// waiting helpers. With J.CheckBounds, \p Failure receives the first
/// failed check; no group starts after it.
void runNDRange(tbb::task_arena &Arena, unsigned Threads, const NDRangeJob &J,
                HelperPark *Park = nullptr, CheckFailure *Failure = nullptr);

/// How runNDRange's threads claim the groups of a launch of \p Total groups
/// on \p Threads threads: each claim takes 1 / PerThread of what is left,
/// at least 1 and at most MaxChunk (guidedChunk).
struct ClaimPlan {
  size_t PerThread;
  size_t MaxChunk;
};
ClaimPlan planClaims(size_t Total, unsigned Threads);

/// How many work-groups one claim of runNDRange takes when \p Left are
/// unclaimed: 1 / \p PerThread of them (guided scheduling), at least 1 and
/// at most \p MaxChunk.
size_t guidedChunk(size_t Left, size_t PerThread, size_t MaxChunk);

} // namespace clcpu

#endif
