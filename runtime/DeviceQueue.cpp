//===- runtime/DeviceQueue.cpp - children of kernels that enqueue ---------===//
//
// OpenCL C 2.0 6.13.17 (enqueuing kernels, events, markers) on the CPU;
// runtime/DeviceQueue.h describes the design. Every check quotes the
// built-in's error it implements; a program built without -g gets
// CLK_ENQUEUE_FAILURE for each (6.13.17.1: "If the -g compile option is
// specified ... the following errors may be returned instead").

#include "runtime/DeviceQueue.h"

#include "runtime/CheckedMath.h"
#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Error.h"
#include "runtime/Kernel.h"
#include "runtime/Topology.h"
#include "scheduler/Executor.h"
#include "scheduler/Fiber.h"
#include "scheduler/NDRange.h"

#include <chrono>
#include <cstring>

namespace clcpu {

namespace {
// The built-ins' return values (Clang's opencl-c-base.h).
constexpr int ClkSuccess = 0;
constexpr int ClkEnqueueFailure = -101;
constexpr int ClkInvalidQueue = -102;
constexpr int ClkInvalidNDRange = -160;
constexpr int ClkInvalidEventWaitList = -57;
constexpr int ClkDeviceQueueFull = -161;
constexpr int ClkInvalidArgSize = -51;
constexpr int ClkEventAllocationFailure = -100;
constexpr int ClkOutOfResources = -5;
constexpr int ClkProfilingCommandExecTime = 0x1;
constexpr int ClkEnqueueFlagsMask =
    0x3; // NO_WAIT 0, WAIT_KERNEL, WAIT_WORK_GROUP

uint64_t nowNs() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

/// The block literal's size: its first word (Clang's block layout).
uint32_t blockSize(const void *Block) {
  uint32_t Size;
  std::memcpy(&Size, Block, sizeof Size);
  return Size;
}
} // namespace

/// One enqueued command: a child NDRange, or a marker (no Info).
struct DeviceRun::Child {
  const compiler::KernelInfo *Info = nullptr;
  NDRangeJob Job;
  std::vector<uint64_t> Literal; // the block literal's copy (8-aligned)
  void *LiteralPtr = nullptr;    // argument 0's value
  std::vector<void *> ArgPtrs;
  std::vector<uint64_t> Extents; // bounds-check mode
  std::vector<DeviceEvent *> Waits;
  DeviceEvent *Event = nullptr; // only with event_ret
  CommandQueue *Queue = nullptr;
  uint64_t Start = 0, End = 0; // ns
};

DeviceRun::DeviceRun(std::shared_ptr<const compiler::CompiledProgram> E,
                     Context *C, Device *D, Executor *X)
    : Exe(std::move(E)), Ctx(C), Dev(D), Exec(X) {
  CommandQueue *Q = Ctx->defaultDeviceQueue(Dev);
  DefaultQueue = Q ? Q->handle() : nullptr;
  Dev->getInfo(CL_DEVICE_MAX_WORK_GROUP_SIZE,
               InfoOut(sizeof MaxGroupSize, &MaxGroupSize, nullptr));
  cl_ulong Local = 0;
  Dev->getInfo(CL_DEVICE_LOCAL_MEM_SIZE,
               InfoOut(sizeof Local, &Local, nullptr));
  LocalMemSize = static_cast<size_t>(Local);
}

DeviceRun::~DeviceRun() {
  // Events the kernels never released go with the run: no command of
  // another launch can wait for them.
  for (DeviceEvent *E : Events)
    delete E;
}

const compiler::KernelInfo *DeviceRun::findKernel(const char *Name) const {
  if (!Name)
    return nullptr;
  for (const compiler::KernelInfo &K : Exe->Kernels)
    if (K.Block && K.Name == Name)
      return &K;
  return nullptr;
}

CommandQueue *DeviceRun::deviceQueue(void *Handle) const {
  if (!Handle)
    return nullptr;
  CommandQueue *Q =
      CommandQueue::fromHandle(static_cast<cl_command_queue>(Handle));
  return Q && Q->onDevice() && Q->device() == Dev && Q->context() == Ctx
             ? Q
             : nullptr;
}

DeviceEvent *DeviceRun::newEvent(bool User) {
  std::lock_guard<std::mutex> G(Lock);
  // CL_DEVICE_MAX_ON_DEVICE_EVENTS: "the maximum number of events in use by
  // a device queue".
  if (Events.size() >= MaxOnDeviceEvents)
    return nullptr;
  auto *E = new DeviceEvent;
  E->User = User;
  Events.insert(E);
  return E;
}

DeviceEvent *DeviceRun::liveEvent(void *P) {
  std::lock_guard<std::mutex> G(Lock);
  auto *E = static_cast<DeviceEvent *>(P);
  return Events.count(E) ? E : nullptr;
}

void DeviceRun::dropEvent(DeviceEvent *E) {
  // Under the lock, as every reference change: a kernel that releases an
  // event while another work-item waits for it (after its last release)
  // finds it gone, never freed under its feet.
  std::lock_guard<std::mutex> G(Lock);
  if (E->Refs.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  Events.erase(E);
  delete E;
}

int DeviceRun::takeWaitList(uint32_t N, void *const *List,
                            std::vector<DeviceEvent *> &Out) {
  // CLK_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and
  // num_events_in_wait_list > 0, or if event_wait_list is not NULL and
  // num_events_in_wait_list is 0, or if event objects in event_wait_list
  // are not valid events.
  if ((N > 0) != (List != nullptr))
    return ClkInvalidEventWaitList;
  if (N > MaxOnDeviceEvents)
    return ClkInvalidEventWaitList;
  std::lock_guard<std::mutex> G(Lock);
  for (uint32_t I = 0; I < N; ++I) {
    auto *E = static_cast<DeviceEvent *>(List[I]);
    if (!Events.count(E)) {
      // (Only this run's events, so none of Out drops to 0 here.)
      for (DeviceEvent *T : Out)
        T->Refs.fetch_sub(1, std::memory_order_acq_rel);
      Out.clear();
      return ClkInvalidEventWaitList;
    }
    E->Refs.fetch_add(1, std::memory_order_relaxed);
    Out.push_back(E);
  }
  return ClkSuccess;
}

int DeviceRun::submit(std::unique_ptr<Child> C, CommandQueue *Q,
                      void **EventRet) {
  // CLK_DEVICE_QUEUE_FULL if queue is full.
  if (!Q->reserveDeviceCommand())
    return ClkDeviceQueueFull;
  // CLK_EVENT_ALLOCATION_FAILURE if event_ret is not NULL and an event
  // could not be allocated. (A command nobody can name needs no event: the
  // run tracks it in its list.)
  if (EventRet) {
    C->Event = newEvent(false);
    if (!C->Event) {
      Q->releaseDeviceCommand();
      return ClkEventAllocationFailure;
    }
    // One reference for event_ret, one for the command until it completes.
    C->Event->Refs.fetch_add(1, std::memory_order_relaxed);
    *EventRet = C->Event;
  }
  C->Queue = Q;
  std::lock_guard<std::mutex> G(Lock);
  Pending.push_back(std::move(C));
  return ClkSuccess;
}

int DeviceRun::enqueueKernel(const DeviceEnqueueRequest &R, bool Detailed) {
  auto Fail = [&](int Code, const std::string &Why) {
    fail(CL_INVALID_OPERATION, "enqueue_kernel: " + Why, Ctx);
    return Detailed ? Code : ClkEnqueueFailure;
  };
  // CLK_INVALID_QUEUE if queue is not a valid device queue.
  CommandQueue *Q = deviceQueue(R.Queue);
  if (!Q)
    return Fail(ClkInvalidQueue, "queue is not a valid device queue");
  if (R.Flags & ~ClkEnqueueFlagsMask)
    return Fail(ClkEnqueueFailure, "unknown kernel_enqueue_flags_t value");
  const compiler::KernelInfo *Info = findKernel(R.Kernel);
  if (!Info || !R.Block || !R.Range)
    return Fail(ClkEnqueueFailure, "the block has no kernel");
  // CLK_INVALID_NDRANGE if ndrange is not a valid ND-range descriptor or if
  // the program was compiled with -cl-uniform-work-group-size and the
  // local_work_size is specified in ndrange but the global_work_size
  // specified in ndrange is not a multiple of the local_work_size.
  const DeviceNDRange &N = *R.Range;
  if (N.WorkDim < 1 || N.WorkDim > 3)
    return Fail(ClkInvalidNDRange, "work dimension " +
                                       std::to_string(N.WorkDim) +
                                       " is not 1, 2 or 3");
  LaunchDescription L;
  bool LocalGiven = N.Local[0] != 0;
  CheckedSize Items = 1, GroupCount = 1;
  for (unsigned D = 0; D < 3; ++D) {
    bool In = D < N.WorkDim;
    size_t G = In ? N.Global[D] : 1, Lo = In ? N.Local[D] : 1;
    if (G == 0)
      return Fail(ClkInvalidNDRange, "global size 0");
    if (LocalGiven && (Lo == 0 || Lo > G))
      return Fail(ClkInvalidNDRange, "local size 0 or above the global size");
    if (!LocalGiven && In && Lo != 0)
      return Fail(ClkInvalidNDRange, "local size given for some dimensions");
    if (In && (CheckedSize(N.Offset[D]) + G).fitsIn(SIZE_MAX) == false)
      return Fail(ClkInvalidNDRange, "global offset plus size overflows");
    L.GlobalOffset[D] = In ? N.Offset[D] : 0;
    L.GlobalSize[D] = G;
    L.EnqueuedLocalSize[D] = LocalGiven ? Lo : 1;
    Items *= LocalGiven ? Lo : 1;
  }
  L.WorkDim = N.WorkDim;
  size_t MaxItems = maxWorkGroupSizeOf(*Info, Dev);
  if (!LocalGiven)
    Kernel::chooseLocalSize(L, MaxItems, Exec->threads(), Info->PerWorkItem,
                            Info->RegionScratch != 0);
  else if (!Items.fitsIn(MaxItems))
    return Fail(ClkInvalidNDRange, "work-group larger than the kernel's " +
                                       std::to_string(MaxItems));
  for (unsigned D = 0; D < 3; ++D) {
    size_t G = L.GlobalSize[D], Lo = L.EnqueuedLocalSize[D];
    if (Info->UniformWorkGroupSize && G % Lo)
      return Fail(ClkInvalidNDRange,
                  "global size not a multiple of the local size in a "
                  "program with uniform work-groups");
    L.NumGroups[D] = G / Lo + (G % Lo != 0);
    GroupCount *= L.NumGroups[D];
  }
  if (!GroupCount.fitsIn(MaxLaunchGroups))
    return Fail(ClkOutOfResources, "too many work-groups");
  L.SubGroupSize = subGroupSize();
  // One `local void *` per block parameter, each with its size.
  if (R.NumLocals + 1 != Info->Args.size())
    return Fail(ClkEnqueueFailure, "wrong number of local sizes");
  if (R.NumLocals && !R.LocalSizes)
    return Fail(ClkInvalidArgSize, "no local sizes");
  CheckedSize LocalBytes = Info->LocalMemSize;
  for (uint32_t I = 0; I < R.NumLocals; ++I) {
    // CLK_INVALID_ARG_SIZE if size of local memory arguments is 0.
    if (R.LocalSizes[I] == 0)
      return Fail(ClkInvalidArgSize,
                  "local memory argument " + std::to_string(I) + " of size 0");
    LocalBytes += R.LocalSizes[I];
  }
  // CLK_OUT_OF_RESOURCES if there is a failure to queue the block in queue
  // because of insufficient resources needed to execute the kernel.
  if (!LocalBytes.fitsIn(LocalMemSize))
    return Fail(ClkOutOfResources, "more local memory than the device has");
  size_t Frame = std::max(Info->StackFrameSize, Info->PrivateMemSize);
  if (Frame > MaxKernelStack)
    return Fail(ClkOutOfResources, "stack frame too large");

  auto C = std::make_unique<Child>();
  if (cl_int Err = takeWaitList(R.NumEvents, R.WaitList, C->Waits))
    return Fail(Err, "invalid event wait list");
  // The literal lives on the enqueuing work-item's stack: copied now.
  uint32_t Size = std::max<uint32_t>(blockSize(R.Block), sizeof(uint32_t));
  C->Literal.resize((Size + 7) / 8);
  std::memcpy(C->Literal.data(), R.Block, Size);
  C->LiteralPtr = C->Literal.data();
  C->Info = Info;
  NDRangeJob &J = C->Job;
  J.Fn = Info->Fn;
  J.Name = Info->Name.c_str();
  J.PerWorkItem = Info->PerWorkItem;
  J.FiberStack = fiberStackSize(Frame);
  J.StackBytes = Frame + StackHeadroom;
  J.RegionScratch = Info->RegionScratch;
  J.Launch = L;
  J.LocalVarsSize = Info->LocalMemSize;
  C->ArgPtrs.assign(Info->Args.size(), nullptr);
  C->ArgPtrs[0] = &C->LiteralPtr;
  for (uint32_t I = 0; I < R.NumLocals; ++I)
    J.LocalArgs.push_back({I + 1, R.LocalSizes[I]});
  J.Args = C->ArgPtrs.data();
  J.NumArgs = C->ArgPtrs.size();
  J.CheckBounds = Info->CheckSites != nullptr;
  J.CheckReportFlagged = Info->CheckReportFlagged;
  if (J.CheckBounds) {
    // The literal is private (not checked); each __local block its size.
    C->Extents.assign(Info->Args.size(), 0);
    for (uint32_t I = 0; I < R.NumLocals; ++I)
      C->Extents[I + 1] = R.LocalSizes[I];
    J.Launch.ArgExtents = C->Extents.data();
  }
  J.FaultNotify = [](const char *Message, void *Ctx) {
    static_cast<Context *>(Ctx)->notify(Message);
  };
  J.FaultNotifyData = Ctx;
  J.Enqueue = this;
  std::vector<DeviceEvent *> Waits = C->Waits;
  int Err = submit(std::move(C), Q, R.EventRet);
  if (Err != ClkSuccess) {
    for (DeviceEvent *E : Waits)
      dropEvent(E);
    return Fail(Err, Err == ClkDeviceQueueFull ? "the device queue is full"
                                               : "no event left");
  }
  return ClkSuccess;
}

int DeviceRun::enqueueMarker(void *Queue, uint32_t NumEvents,
                             void *const *WaitList, void **EventRet,
                             bool Detailed) {
  auto Fail = [&](int Code, const std::string &Why) {
    fail(CL_INVALID_OPERATION, "enqueue_marker: " + Why, Ctx);
    return Detailed ? Code : ClkEnqueueFailure;
  };
  // CLK_INVALID_QUEUE if queue is not a valid device queue.
  CommandQueue *Q = deviceQueue(Queue);
  if (!Q)
    return Fail(ClkInvalidQueue, "queue is not a valid device queue");
  // CLK_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL, or if
  // event_wait_list is not NULL and num_events_in_wait_list is 0, ...
  if (!WaitList || NumEvents == 0)
    return Fail(ClkInvalidEventWaitList, "empty event wait list");
  auto C = std::make_unique<Child>();
  if (int Err = takeWaitList(NumEvents, WaitList, C->Waits))
    return Fail(Err, "invalid event wait list");
  std::vector<DeviceEvent *> Waits = C->Waits;
  int Err = submit(std::move(C), Q, EventRet);
  if (Err != ClkSuccess) {
    for (DeviceEvent *E : Waits)
      dropEvent(E);
    return Fail(Err, Err == ClkDeviceQueueFull ? "the device queue is full"
                                               : "no event left");
  }
  return ClkSuccess;
}

void *DeviceRun::defaultQueue() { return DefaultQueue; }

uint32_t DeviceRun::query(BlockQuery Q, const char *Kernel,
                          const DeviceNDRange *Range) {
  const compiler::KernelInfo *Info = findKernel(Kernel);
  if (!Info)
    return 0;
  size_t Max = maxWorkGroupSizeOf(*Info, Dev);
  switch (Q) {
  case BlockQuery::WorkGroupSize:
    return static_cast<uint32_t>(Max);
  case BlockQuery::PreferredMultiple:
    // As CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE.
    return 16;
  case BlockQuery::MaxSubGroupSize:
  case BlockQuery::SubGroupCount: {
    // The sub-groups of a work-group of the range's local size (as
    // clGetKernelSubGroupInfo): sub-groups of subGroupSize() work-items,
    // the last one partial.
    if (!Range || Range->WorkDim < 1 || Range->WorkDim > 3)
      return 0;
    CheckedSize Items = 1;
    for (unsigned D = 0; D < Range->WorkDim; ++D)
      Items *= Range->Local[D] ? Range->Local[D] : 1;
    if (!Items.fitsIn(Max))
      return 0;
    size_t S = subGroupSize(), N = Items.value();
    if (Q == BlockQuery::MaxSubGroupSize)
      return static_cast<uint32_t>(std::min(N, S));
    return static_cast<uint32_t>((N + S - 1) / S);
  }
  }
  return 0;
}

void *DeviceRun::createUserEvent() { return newEvent(true); }

void DeviceRun::setUserEventStatus(void *P, int Status) {
  // "status can be either CL_COMPLETE or a negative integer value
  // indicating an error."
  std::lock_guard<std::mutex> G(Lock);
  auto *E = static_cast<DeviceEvent *>(P);
  if (!Events.count(E) || !E->User || (Status != CL_COMPLETE && Status >= 0))
    return;
  int Expected = CL_SUBMITTED;
  E->Status.compare_exchange_strong(Expected, Status,
                                    std::memory_order_acq_rel);
}

void DeviceRun::retainEvent(void *P) {
  std::lock_guard<std::mutex> G(Lock);
  auto *E = static_cast<DeviceEvent *>(P);
  if (Events.count(E))
    E->Refs.fetch_add(1, std::memory_order_relaxed);
}

void DeviceRun::releaseEvent(void *P) {
  // Checked and dropped under one lock: a second release of the last
  // reference finds nothing.
  std::lock_guard<std::mutex> G(Lock);
  auto *E = static_cast<DeviceEvent *>(P);
  if (!Events.count(E) || E->Refs.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  Events.erase(E);
  delete E;
}

bool DeviceRun::isValidEvent(void *P) { return liveEvent(P) != nullptr; }

void DeviceRun::captureProfilingInfo(void *P, int Name, void *Value) {
  // "event must be a valid event returned by enqueue_kernel"; the times
  // are written once the command completes.
  // Under the lock, as complete() writes the times: one of the two does.
  std::lock_guard<std::mutex> G(Lock);
  auto *E = static_cast<DeviceEvent *>(P);
  if (!Events.count(E) || E->User || Name != ClkProfilingCommandExecTime ||
      !Value)
    return;
  E->Profile.store(static_cast<uint64_t *>(Value), std::memory_order_release);
  if (E->Status.load(std::memory_order_acquire) == CL_COMPLETE) {
    // Already complete: written now (the first 64-bit value the
    // execution time, the second the time until the children completed).
    uint64_t Times[2] = {E->End - E->Start, E->End - E->Start};
    std::memcpy(Value, Times, sizeof Times);
  }
}

void DeviceRun::complete(Child &C, int Status) {
  if (DeviceEvent *E = C.Event) {
    std::lock_guard<std::mutex> G(Lock);
    E->Start = C.Start;
    E->End = C.End;
    if (uint64_t *P = E->Profile.load(std::memory_order_acquire)) {
      uint64_t Times[2] = {E->End - E->Start, E->End - E->Start};
      std::memcpy(P, Times, sizeof Times);
    }
    E->Status.store(Status, std::memory_order_release);
    // The command's reference.
    if (E->Refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      Events.erase(E);
      delete E;
    }
  }
  C.Queue->releaseDeviceCommand();
  for (DeviceEvent *W : C.Waits)
    dropEvent(W);
}

void DeviceRun::runChild(Child &C) {
  C.Start = nowNs();
  int Status = CL_COMPLETE;
  for (DeviceEvent *W : C.Waits)
    if (W->Status.load(std::memory_order_acquire) < 0)
      Status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  if (C.Info && Status == CL_COMPLETE) {
    const size_t *G = C.Job.Launch.NumGroups;
    // A child of one group runs on this thread: waking helpers costs more
    // than the group (the common case of many small children).
    unsigned Threads = G[0] * G[1] * G[2] > 1 ? Exec->threads() : 1;
    CheckFailure Failure;
    runNDRange(Exec->arena(), Threads, C.Job, &Exec->helperPark(), &Failure);
    if (Failure.Hit.load(std::memory_order_acquire)) {
      fail(CL_OUT_OF_RESOURCES,
           std::string("bounds check failed in enqueued block '") +
               C.Info->Name + "'",
           Ctx);
      Status = CL_OUT_OF_RESOURCES;
    }
  }
  C.End = nowNs();
  if (Status != CL_COMPLETE && FirstError == CL_SUCCESS)
    FirstError = Status == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
                     ? CL_SUCCESS
                     : Status;
  complete(C, Status);
}

cl_int DeviceRun::run(const NDRangeJob &Parent, unsigned Threads) {
  NDRangeJob J = Parent;
  J.Enqueue = this;
  CheckFailure Failure;
  runNDRange(Exec->arena(), Threads, J, &Exec->helperPark(), &Failure);
  if (Failure.Hit.load(std::memory_order_acquire))
    FirstError = CL_OUT_OF_RESOURCES;
  // The children, in the order enqueued, each once its events completed.
  // Only children set events (user events, markers), so when none of the
  // pending ones may run, none ever will: they fail instead of hanging.
  for (;;) {
    std::unique_ptr<Child> Next;
    bool Stuck = false;
    {
      std::lock_guard<std::mutex> G(Lock);
      if (Pending.empty())
        break;
      for (auto It = Pending.begin(); It != Pending.end(); ++It) {
        bool Ready = true;
        for (DeviceEvent *W : (*It)->Waits)
          Ready &= W->Status.load(std::memory_order_acquire) <= CL_COMPLETE;
        if (Ready) {
          Next = std::move(*It);
          Pending.erase(It);
          break;
        }
      }
      if (!Next) {
        Next = std::move(Pending.front());
        Pending.pop_front();
        Stuck = true;
      }
    }
    if (Stuck) {
      fail(CL_INVALID_OPERATION,
           "an enqueued block waits for events that never complete", Ctx);
      Next->Start = Next->End = nowNs();
      complete(*Next, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      continue;
    }
    runChild(*Next);
  }
  return FirstError;
}

} // namespace clcpu
