#ifndef CLCPU_SCHEDULER_DEVICEENQUEUE_H
#define CLCPU_SCHEDULER_DEVICEENQUEUE_H

// Device-side enqueue (OpenCL C 2.0 6.13.17): the functions JIT-compiled
// kernels call for enqueue_kernel, enqueue_marker, get_default_queue, the
// device-side events and the block queries. compiler/passes/
// DeviceEnqueueCalls.cpp rewrites Clang's calls into calls of the
// clcpu_device_* functions below (builtins/enqueue.cl wraps the mangled
// ones), and compiler/Jit.cpp binds those names to these addresses.
//
// The scheduler does not know the runtime's objects: each function hands
// its call to the DeviceEnqueueHost of the launch the calling thread runs
// (runtime/DeviceQueue.h implements it), which runNDRange makes current
// for the threads of a launch that has one (NDRangeJob::Enqueue).

#include <cstddef>
#include <cstdint>

namespace clcpu {

/// ndrange_t as OpenCL C lays it out (Clang's opencl-c-base.h).
struct DeviceNDRange {
  uint32_t WorkDim;
  size_t Offset[3];
  size_t Global[3];
  size_t Local[3];
};

/// One enqueue_kernel call, in any of its forms.
struct DeviceEnqueueRequest {
  void *Queue = nullptr; // queue_t: the cl_command_queue handle
  int Flags = 0;
  const DeviceNDRange *Range = nullptr;
  uint32_t NumEvents = 0;
  void *const *WaitList = nullptr; // clk_event_t[NumEvents]
  void **EventRet = nullptr;
  const char *Kernel = nullptr; // the block's kernel, by name
  const void *Block = nullptr;  // the block literal (first word: its size)
  uint32_t NumLocals = 0;
  const size_t *LocalSizes = nullptr;
};

/// The block queries (get_kernel_work_group_size & co.).
enum class BlockQuery : int {
  WorkGroupSize = 0,
  PreferredMultiple = 1,
  MaxSubGroupSize = 2,
  SubGroupCount = 3,
};

/// What the device-enqueue built-ins do for one run of a launch. Called
/// from the threads running its work-groups, concurrently.
class DeviceEnqueueHost {
public:
  virtual ~DeviceEnqueueHost() = default;
  /// enqueue_kernel; \p Detailed: the program was built with -g (the
  /// specific CLK_* error instead of CLK_ENQUEUE_FAILURE).
  virtual int enqueueKernel(const DeviceEnqueueRequest &R, bool Detailed) = 0;
  virtual int enqueueMarker(void *Queue, uint32_t NumEvents,
                            void *const *WaitList, void **EventRet,
                            bool Detailed) = 0;
  virtual void *defaultQueue() = 0;
  virtual uint32_t query(BlockQuery Q, const char *Kernel,
                         const DeviceNDRange *Range) = 0;
  virtual void *createUserEvent() = 0;
  virtual void setUserEventStatus(void *Event, int Status) = 0;
  virtual void retainEvent(void *Event) = 0;
  virtual void releaseEvent(void *Event) = 0;
  virtual bool isValidEvent(void *Event) = 0;
  virtual void captureProfilingInfo(void *Event, int Name, void *Value) = 0;
};

/// The host of the launch this thread runs work-groups of (null: none).
DeviceEnqueueHost *currentDeviceEnqueue();

/// Makes \p H current on this thread for its lifetime, restoring the
/// previous one after.
class DeviceEnqueueScope {
public:
  explicit DeviceEnqueueScope(DeviceEnqueueHost *H);
  ~DeviceEnqueueScope();
  DeviceEnqueueScope(const DeviceEnqueueScope &) = delete;
  DeviceEnqueueScope &operator=(const DeviceEnqueueScope &) = delete;

private:
  DeviceEnqueueHost *Previous;
};

/// One name and address of the functions kernels call.
struct DeviceEnqueueSymbol {
  const char *Name;
  void *Address;
};
/// The clcpu_device_* functions, ending with a null name.
const DeviceEnqueueSymbol *deviceEnqueueSymbols();
/// Whether \p Name is one of them.
bool isDeviceEnqueueSymbol(const char *Name, size_t Length);

} // namespace clcpu

#endif
