//===- scheduler/DeviceEnqueue.cpp - kernels' device-enqueue calls --------===//
//
// The functions kernels call for device-side enqueue (OpenCL C 2.0 6.13.17),
// each handing the call to the current launch's DeviceEnqueueHost. A call
// made where no launch has one (which the compiler never emits) fails as
// the built-in's error says: CLK_ENQUEUE_FAILURE, a null queue or event.

#include "scheduler/DeviceEnqueue.h"

#include <cstring>

namespace clcpu {

namespace {
thread_local DeviceEnqueueHost *Current = nullptr;

// The built-ins' return values (Clang's opencl-c-base.h).
constexpr int ClkEnqueueFailure = -101;
constexpr int ClkInvalidQueue = -102;
} // namespace

DeviceEnqueueHost *currentDeviceEnqueue() { return Current; }

DeviceEnqueueScope::DeviceEnqueueScope(DeviceEnqueueHost *H)
    : Previous(Current) {
  Current = H;
}

DeviceEnqueueScope::~DeviceEnqueueScope() { Current = Previous; }

} // namespace clcpu

using namespace clcpu;

extern "C" {

static int clcpu_device_enqueue_kernel(void *Queue, int Flags,
                                       const DeviceNDRange *Range,
                                       uint32_t NumEvents,
                                       void *const *WaitList, void **EventRet,
                                       const char *Kernel, const void *Block,
                                       uint32_t NumLocals,
                                       const size_t *LocalSizes, int Detailed) {
  DeviceEnqueueHost *H = currentDeviceEnqueue();
  if (!H)
    return Detailed ? ClkInvalidQueue : ClkEnqueueFailure;
  DeviceEnqueueRequest R;
  R.Queue = Queue;
  R.Flags = Flags;
  R.Range = Range;
  R.NumEvents = NumEvents;
  R.WaitList = WaitList;
  R.EventRet = EventRet;
  R.Kernel = Kernel;
  R.Block = Block;
  R.NumLocals = NumLocals;
  R.LocalSizes = LocalSizes;
  return H->enqueueKernel(R, Detailed != 0);
}

static int clcpu_device_enqueue_marker(void *Queue, uint32_t NumEvents,
                                       void *const *WaitList, void **EventRet,
                                       int Detailed) {
  DeviceEnqueueHost *H = currentDeviceEnqueue();
  if (!H)
    return Detailed ? ClkInvalidQueue : ClkEnqueueFailure;
  return H->enqueueMarker(Queue, NumEvents, WaitList, EventRet, Detailed != 0);
}

static void *clcpu_device_default_queue() {
  DeviceEnqueueHost *H = currentDeviceEnqueue();
  return H ? H->defaultQueue() : nullptr;
}

static uint32_t clcpu_device_query(int What, const char *Kernel,
                                   const DeviceNDRange *Range) {
  DeviceEnqueueHost *H = currentDeviceEnqueue();
  return H ? H->query(static_cast<BlockQuery>(What), Kernel, Range) : 0;
}

// clk_event_t's invalid value, CLK_NULL_EVENT, is all ones.
static void *clcpu_device_create_user_event() {
  DeviceEnqueueHost *H = currentDeviceEnqueue();
  void *E = H ? H->createUserEvent() : nullptr;
  return E ? E : reinterpret_cast<void *>(~uintptr_t(0));
}

static void clcpu_device_set_user_event_status(void *E, int Status) {
  if (DeviceEnqueueHost *H = currentDeviceEnqueue())
    H->setUserEventStatus(E, Status);
}

static void clcpu_device_retain_event(void *E) {
  if (DeviceEnqueueHost *H = currentDeviceEnqueue())
    H->retainEvent(E);
}

static void clcpu_device_release_event(void *E) {
  if (DeviceEnqueueHost *H = currentDeviceEnqueue())
    H->releaseEvent(E);
}

static int clcpu_device_is_valid_event(void *E) {
  DeviceEnqueueHost *H = currentDeviceEnqueue();
  return H && H->isValidEvent(E);
}

static void clcpu_device_capture_profiling_info(void *E, int Name,
                                                void *Value) {
  if (DeviceEnqueueHost *H = currentDeviceEnqueue())
    H->captureProfilingInfo(E, Name, Value);
}

} // extern "C"

namespace clcpu {

const DeviceEnqueueSymbol *deviceEnqueueSymbols() {
  static const DeviceEnqueueSymbol Table[] = {
#define CLCPU_SYMBOL(F) {#F, reinterpret_cast<void *>(&F)}
      CLCPU_SYMBOL(clcpu_device_enqueue_kernel),
      CLCPU_SYMBOL(clcpu_device_enqueue_marker),
      CLCPU_SYMBOL(clcpu_device_default_queue),
      CLCPU_SYMBOL(clcpu_device_query),
      CLCPU_SYMBOL(clcpu_device_create_user_event),
      CLCPU_SYMBOL(clcpu_device_set_user_event_status),
      CLCPU_SYMBOL(clcpu_device_retain_event),
      CLCPU_SYMBOL(clcpu_device_release_event),
      CLCPU_SYMBOL(clcpu_device_is_valid_event),
      CLCPU_SYMBOL(clcpu_device_capture_profiling_info),
#undef CLCPU_SYMBOL
      {nullptr, nullptr}};
  return Table;
}

bool isDeviceEnqueueSymbol(const char *Name, size_t Length) {
  for (const DeviceEnqueueSymbol *S = deviceEnqueueSymbols(); S->Name; ++S)
    if (std::strlen(S->Name) == Length && !std::memcmp(S->Name, Name, Length))
      return true;
  return false;
}

} // namespace clcpu
