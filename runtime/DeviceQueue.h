#ifndef CLCPU_RUNTIME_DEVICEQUEUE_H
#define CLCPU_RUNTIME_DEVICEQUEUE_H

// Device-side enqueue (OpenCL C 2.0 6.13.17, OpenCL 3.0 API 5.1 on-device
// queues): what runs the children a kernel enqueues.
//
// A launch of a kernel that enqueues (KernelInfo::Enqueues) runs with a
// DeviceRun: its work-groups' enqueue_kernel calls (scheduler/
// DeviceEnqueue.h) check the request and append a child command to the
// run; when the launch's groups are done, the run's thread runs the
// children, and their children, each as an NDRange on the same executor
// (scheduler/NDRange.h, the same work-group functions and paths as any
// kernel), a child once the events it waits for are complete. The launch's
// command, and so its event, completes only after the last of them: a
// parent's event completes when all its children did. Children start after
// the parent's groups ended, which CLK_ENQUEUE_FLAGS_NO_WAIT,
// WAIT_KERNEL and WAIT_WORK_GROUP all allow.

#include "compiler/Compiler.h"
#include "scheduler/DeviceEnqueue.h"

#include <CL/cl.h>

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <unordered_set>
#include <vector>

namespace clcpu {

class CommandQueue;
class Context;
class Device;
class Executor;
struct NDRangeJob;

/// The limits the device reports for on-device queues and events. An
/// on-device queue costs only its counter, so the number of queues is not
/// enforced: CL_DEVICE_MAX_ON_DEVICE_QUEUES is what applications may rely
/// on. Events are a run's live clk_event_t objects.
inline constexpr cl_uint DeviceQueuePreferredSize = 256 * 1024;
inline constexpr cl_uint DeviceQueueMaxSize = 16 * 1024 * 1024;
inline constexpr cl_uint MaxOnDeviceQueues = 4;
inline constexpr cl_uint MaxOnDeviceEvents = 16384;
/// Bytes of a device queue one enqueued command (kernel or marker) takes
/// until it completes: CL_QUEUE_SIZE / this many commands fit.
inline constexpr cl_uint DeviceCommandBytes = 128;

/// A clk_event_t.
struct DeviceEvent {
  std::atomic<int> Refs{1};
  /// CL_SUBMITTED until complete (CL_COMPLETE) or failed (negative).
  std::atomic<int> Status{CL_SUBMITTED};
  bool User = false;
  uint64_t Start = 0, End = 0; // ns, for capture_event_profiling_info
  /// Where capture_event_profiling_info asked for the times (null: none).
  std::atomic<uint64_t *> Profile{nullptr};
};

/// One run of a launch that enqueues, with its children. Thread-safe: the
/// parent's work-groups call it from every thread of the launch.
class DeviceRun final : public DeviceEnqueueHost {
public:
  /// \p Exe: the program (its block kernels); \p Ctx, \p Dev: where the
  /// launch runs (the default device queue is \p Ctx's for \p Dev).
  DeviceRun(std::shared_ptr<const compiler::CompiledProgram> Exe, Context *Ctx,
            Device *Dev, Executor *Exec);
  ~DeviceRun() override;
  DeviceRun(const DeviceRun &) = delete;
  DeviceRun &operator=(const DeviceRun &) = delete;

  /// Runs \p Parent's groups with this run as their host, then every child
  /// until none is left. CL_SUCCESS, or the first child's error.
  cl_int run(const NDRangeJob &Parent, unsigned Threads);

  int enqueueKernel(const DeviceEnqueueRequest &R, bool Detailed) override;
  int enqueueMarker(void *Queue, uint32_t NumEvents, void *const *WaitList,
                    void **EventRet, bool Detailed) override;
  void *defaultQueue() override;
  uint32_t query(BlockQuery Q, const char *Kernel,
                 const DeviceNDRange *Range) override;
  void *createUserEvent() override;
  void setUserEventStatus(void *Event, int Status) override;
  void retainEvent(void *Event) override;
  void releaseEvent(void *Event) override;
  bool isValidEvent(void *Event) override;
  void captureProfilingInfo(void *Event, int Name, void *Value) override;

private:
  struct Child;
  const compiler::KernelInfo *findKernel(const char *Name) const;
  /// The device queue \p Handle names, or null.
  CommandQueue *deviceQueue(void *Handle) const;
  DeviceEvent *newEvent(bool User);
  /// \p E if it is one of this run's live events.
  DeviceEvent *liveEvent(void *E);
  void dropEvent(DeviceEvent *E);
  /// Checks and takes references on \p N events of \p List into \p Out.
  int takeWaitList(uint32_t N, void *const *List,
                   std::vector<DeviceEvent *> &Out);
  int submit(std::unique_ptr<Child> C, CommandQueue *Q, void **EventRet);
  void complete(Child &C, int Status);
  void runChild(Child &C);

  std::shared_ptr<const compiler::CompiledProgram> Exe;
  Context *Ctx;
  Device *Dev;
  Executor *Exec;
  void *DefaultQueue;
  size_t MaxGroupSize = 1, LocalMemSize = 0;
  std::mutex Lock; // guards Pending and Events
  std::deque<std::unique_ptr<Child>> Pending;
  std::unordered_set<DeviceEvent *> Events;
  cl_int FirstError = CL_SUCCESS;
};

} // namespace clcpu

#endif
