#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/DeviceQueue.h"
#include "runtime/Event.h"
#include "scheduler/Executor.h"

#include <algorithm>

namespace clcpu {

CommandQueue::CommandQueue(Context *C, Device *D,
                           cl_command_queue_properties Props,
                           std::vector<cl_queue_properties> PropArray,
                           cl_uint DeviceSize)
    : Ctx(C), Dev(D), Props(Props), PropArray(std::move(PropArray)),
      Exec(&D->executor()), DeviceSize(DeviceSize) {
  Ctx->retainInternal();
  Dev->retainInternal();
}

CommandQueue::~CommandQueue() {
  if (onDevice())
    Ctx->deviceQueueDestroyed(Dev, this);
  Dev->releaseInternal();
  Ctx->releaseInternal();
}

bool CommandQueue::reserveDeviceCommand() {
  cl_uint Capacity = DeviceSize / DeviceCommandBytes;
  cl_uint N = DeviceCommands.load(std::memory_order_relaxed);
  do {
    if (N >= Capacity)
      return false;
  } while (!DeviceCommands.compare_exchange_weak(N, N + 1,
                                                 std::memory_order_relaxed));
  return true;
}

void CommandQueue::releaseDeviceCommand() {
  DeviceCommands.fetch_sub(1, std::memory_order_relaxed);
}

cl_int CommandQueue::checkWaitList(cl_uint NumEvents, const cl_event *WaitList,
                                   std::vector<Event *> &Out) const {
  // CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and
  // num_events_in_wait_list > 0, or event_wait_list is not NULL and
  // num_events_in_wait_list is 0, or if event objects in event_wait_list are
  // not valid events.
  if (!WaitList && NumEvents > 0)
    return fail(CL_INVALID_EVENT_WAIT_LIST,
                "event_wait_list is NULL but num_events_in_wait_list is " +
                    std::to_string(NumEvents),
                Ctx);
  if (WaitList && NumEvents == 0)
    return fail(CL_INVALID_EVENT_WAIT_LIST,
                "event_wait_list is not NULL but num_events_in_wait_list is 0",
                Ctx);
  Out.clear();
  Out.reserve(NumEvents);
  for (cl_uint I = 0; I < NumEvents; ++I) {
    Event *E = Event::fromHandle(WaitList[I]);
    if (!E)
      return fail(CL_INVALID_EVENT_WAIT_LIST,
                  "event_wait_list[" + std::to_string(I) +
                      "] is not a valid event",
                  Ctx);
    // CL_INVALID_CONTEXT if context associated with command_queue and events
    // in event_wait_list are not the same.
    if (E->context() != Ctx)
      return fail(CL_INVALID_CONTEXT,
                  "event_wait_list[" + std::to_string(I) +
                      "] belongs to another context",
                  Ctx);
    Out.push_back(E);
  }
  return CL_SUCCESS;
}

cl_int CommandQueue::enqueue(cl_command_type Type, cl_uint NumEvents,
                             const cl_event *WaitList, cl_event *EventOut,
                             bool Blocking, std::function<cl_int()> Work,
                             const CodePin *Pin) {
  std::vector<Event *> Waits;
  if (cl_int Err = checkWaitList(NumEvents, WaitList, Waits))
    return Err;
  return enqueueChecked(Type, Waits, Sync::None, EventOut, Blocking,
                        std::move(Work), Pin);
}

cl_int CommandQueue::enqueueChecked(cl_command_type Type,
                                    std::span<Event *const> Waits, Sync S,
                                    cl_event *EventOut, bool Blocking,
                                    std::function<cl_int()> Work,
                                    const CodePin *Pin) {
  auto *E = new Event(this, Type, std::move(Work));
  E->retainInternal(); // in flight until finished
  for (Event *W : Waits)
    W->addDependent(E, /*PropagateFailure=*/true);
  Event *Previous = nullptr;
  {
    std::lock_guard<std::mutex> G(Lock);
    // Under the lock: the launches of this queue take over its reference
    // in the order they run (CodePin). The command is not submitted yet, so
    // no worker reads *Pin->Hold meanwhile.
    if (Pin) {
      if (outOfOrder())
        *Pin->Hold = *Pin->Code;
      else if (PinnedCode != *Pin->Code) {
        *Pin->Hold = std::move(PinnedCode);
        PinnedCode = *Pin->Code;
      }
    }
    bool AllEarlier =
        S == Sync::Barrier || (S == Sync::Marker && Waits.empty());
    if (!outOfOrder()) {
      // In order: each command waits for the previous one. No list of
      // unfinished commands: the newest one finishes last.
      Previous = Last;
      if (Previous)
        Previous->addDependent(E, false);
      E->retainInternal(); // held as Last
      Last = E;
    } else if (AllEarlier) {
      for (Event *P = PendingHead; P; P = P->PendingNext)
        P->addDependent(E, false);
    } else if (LastBarrier) {
      LastBarrier->addDependent(E, false);
    }
    if (outOfOrder()) {
      E->retainInternal(); // held by the pending list
      E->PendingPrev = PendingTail;
      E->InPending = true;
      (PendingTail ? PendingTail->PendingNext : PendingHead) = E;
      PendingTail = E;
      if (S == Sync::Barrier)
        LastBarrier = E;
    }
  }
  if (Previous)
    Previous->releaseInternal();
  if (Blocking)
    E->retainInternal();
  if (EventOut)
    *EventOut = E->handle();
  else
    (void)E->release(); // the application asked for no event
  bool HasWork = E->hasWork();
  E->submit();
  // A command with work should start without waiting for a flush, also when
  // it waits for a marker still sitting in an executor: start a worker.
  if (HasWork) {
    Exec->kick();
    for (Event *W : Waits)
      if (W->queue() && &W->queue()->executor() != Exec)
        W->queue()->executor().kick();
  }
  if (!Blocking)
    return CL_SUCCESS;
  Event *const One[] = {E};
  Event::waitAll(One);
  cl_int Status = E->status();
  E->releaseInternal();
  return Status < 0 ? Status : CL_SUCCESS;
}

void CommandQueue::commandFinished(Event *E) {
  if (!outOfOrder())
    return; // in-order queues keep only Last
  {
    std::lock_guard<std::mutex> G(Lock);
    if (!E->InPending)
      return;
    E->InPending = false;
    (E->PendingPrev ? E->PendingPrev->PendingNext : PendingHead) =
        E->PendingNext;
    (E->PendingNext ? E->PendingNext->PendingPrev : PendingTail) =
        E->PendingPrev;
    E->PendingPrev = E->PendingNext = nullptr;
    if (LastBarrier == E)
      LastBarrier = nullptr;
  }
  E->releaseInternal();
}

cl_int CommandQueue::flush() {
  Exec->kick();
  return CL_SUCCESS;
}

void CommandQueue::onLastExternalRelease() {
  flush();
  // Unloads code here, on the application's thread, if nothing runs; else
  // the queue's destructor drops it after the last command.
  dropIdlePin();
  // Last refers back to this queue: drop it so the two can be freed.
  Event *Previous;
  {
    std::lock_guard<std::mutex> G(Lock);
    Previous = Last;
    Last = nullptr;
  }
  if (Previous)
    Previous->releaseInternal();
}

cl_int CommandQueue::finish() {
  std::vector<Event *> Snapshot;
  {
    std::lock_guard<std::mutex> G(Lock);
    if (!outOfOrder()) {
      // In order, the newest command finishes last.
      if (Last)
        Snapshot.push_back(Last);
    } else {
      for (Event *E = PendingHead; E; E = E->PendingNext)
        Snapshot.push_back(E);
    }
    for (Event *E : Snapshot)
      E->retainInternal();
  }
  Event::waitAll(Snapshot);
  for (Event *E : Snapshot)
    E->releaseInternal();
  dropIdlePin();
  return CL_SUCCESS;
}

void CommandQueue::dropIdlePin() {
  std::shared_ptr<const compiler::CompiledProgram> Idle;
  {
    std::lock_guard<std::mutex> G(Lock);
    // In order, the newest command finishes last.
    if (!Last || Last->finished())
      Idle = std::move(PinnedCode);
  }
  // Idle's destructor, with no lock held, may unload the code.
}

cl_int CommandQueue::checkPropertyBits(cl_command_queue_properties Bits,
                                       Context *C) {
  const cl_command_queue_properties Known =
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE |
      CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;
  // CL_INVALID_VALUE if values specified in properties are not valid.
  if (Bits & ~Known)
    return fail(CL_INVALID_VALUE,
                "unknown bits in CL_QUEUE_PROPERTIES: " + std::to_string(Bits),
                C);
  // CL_QUEUE_ON_DEVICE_DEFAULT: "This can only be used with
  // CL_QUEUE_ON_DEVICE."
  if ((Bits & CL_QUEUE_ON_DEVICE_DEFAULT) && !(Bits & CL_QUEUE_ON_DEVICE))
    return fail(CL_INVALID_VALUE,
                "CL_QUEUE_ON_DEVICE_DEFAULT without CL_QUEUE_ON_DEVICE", C);
  // CL_QUEUE_ON_DEVICE: "If CL_QUEUE_ON_DEVICE is set,
  // CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE must also be set."
  if ((Bits & CL_QUEUE_ON_DEVICE) &&
      !(Bits & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
    return fail(CL_INVALID_VALUE,
                "CL_QUEUE_ON_DEVICE without "
                "CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE",
                C);
  return CL_SUCCESS;
}

cl_int CommandQueue::parseProperties(const cl_queue_properties *List,
                                     cl_command_queue_properties &Bits,
                                     std::vector<cl_queue_properties> &Array,
                                     Context *C, cl_uint *DeviceSize) {
  Bits = 0;
  Array.clear();
  cl_queue_properties Size = 0;
  if (!List)
    return CL_SUCCESS;
  bool SeenProps = false, SeenSize = false, SeenPriority = false,
       SeenThrottle = false;
  // cl_khr_priority_hints, cl_khr_throttle_hints: one of HIGH, MED, LOW.
  // Accepted and not acted on: the queues of a device share its workers
  // (scheduler/Executor.h), which run commands as they become ready; a
  // queue's priority has no worker of its own to raise, and a CPU's power
  // is the operating system's to manage.
  auto Hint = [&](bool &Seen, cl_queue_properties Value,
                  const char *What) -> cl_int {
    // CL_INVALID_VALUE if values specified in properties are not valid.
    if (Seen)
      return fail(CL_INVALID_VALUE, std::string(What) + " given twice", C);
    Seen = true;
    if (Value != CL_QUEUE_PRIORITY_HIGH_KHR &&
        Value != CL_QUEUE_PRIORITY_MED_KHR &&
        Value != CL_QUEUE_PRIORITY_LOW_KHR)
      return fail(CL_INVALID_VALUE,
                  std::string(What) + " " + std::to_string(Value) +
                      " is not HIGH, MED or LOW",
                  C);
    return CL_SUCCESS;
  };
  for (size_t I = 0; List[I] != 0; I += 2) {
    cl_queue_properties Name = List[I], Value = List[I + 1];
    switch (Name) {
    case CL_QUEUE_PROPERTIES:
      // CL_INVALID_VALUE if values specified in properties are not valid.
      if (SeenProps)
        return fail(CL_INVALID_VALUE, "CL_QUEUE_PROPERTIES given twice", C);
      SeenProps = true;
      Bits = static_cast<cl_command_queue_properties>(Value);
      break;
    case CL_QUEUE_SIZE:
      if (SeenSize)
        return fail(CL_INVALID_VALUE, "CL_QUEUE_SIZE given twice", C);
      SeenSize = true;
      Size = Value;
      break;
    // The THROTTLE values equal the PRIORITY ones (1, 2, 4).
    case CL_QUEUE_PRIORITY_KHR:
      if (cl_int Err = Hint(SeenPriority, Value, "CL_QUEUE_PRIORITY_KHR"))
        return Err;
      break;
    case CL_QUEUE_THROTTLE_KHR:
      if (cl_int Err = Hint(SeenThrottle, Value, "CL_QUEUE_THROTTLE_KHR"))
        return Err;
      break;
    default:
      // CL_INVALID_VALUE if values specified in properties are not valid.
      return fail(CL_INVALID_VALUE,
                  "unsupported queue property " + std::to_string(Name), C);
    }
    Array.push_back(Name);
    Array.push_back(Value);
  }
  Array.push_back(0);
  if (cl_int Err = checkPropertyBits(Bits, C))
    return Err;
  // CL_QUEUE_SIZE "can only be specified if CL_QUEUE_ON_DEVICE is set".
  if (SeenSize && !(Bits & CL_QUEUE_ON_DEVICE))
    return fail(CL_INVALID_VALUE,
                "CL_QUEUE_SIZE given for a host command-queue", C);
  // CL_QUEUE_SIZE: "must be a value <= CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE".
  if (SeenSize && (Size == 0 || Size > DeviceQueueMaxSize))
    return fail(CL_INVALID_VALUE,
                "CL_QUEUE_SIZE " + std::to_string(Size) +
                    " is 0 or above CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE",
                C);
  if (DeviceSize)
    *DeviceSize =
        (Bits & CL_QUEUE_ON_DEVICE)
            ? (SeenSize ? static_cast<cl_uint>(Size) : DeviceQueuePreferredSize)
            : 0;
  return CL_SUCCESS;
}

cl_int CommandQueue::getInfo(cl_command_queue_info Param, InfoOut Out) const {
  switch (Param) {
  case CL_QUEUE_CONTEXT:
    return Out.value<cl_context>(Ctx->handle());
  case CL_QUEUE_DEVICE:
    return Out.value<cl_device_id>(Dev->handle());
  case CL_QUEUE_REFERENCE_COUNT:
    return Out.value<cl_uint>(referenceCount());
  case CL_QUEUE_PROPERTIES:
    return Out.value<cl_command_queue_properties>(Props);
  case CL_QUEUE_PROPERTIES_ARRAY:
    // Empty when the queue was created by clCreateCommandQueue or with NULL
    // properties.
    return Out.array(PropArray);
  case CL_QUEUE_SIZE:
    // CL_INVALID_COMMAND_QUEUE "if command_queue is not a valid command-queue
    // for param_name": CL_QUEUE_SIZE is only valid for on-device queues.
    if (!onDevice())
      return fail(CL_INVALID_COMMAND_QUEUE,
                  "CL_QUEUE_SIZE of a host command-queue", Ctx);
    return Out.value<cl_uint>(DeviceSize);
  case CL_QUEUE_DEVICE_DEFAULT: {
    // "Return the current default command queue for the underlying device."
    CommandQueue *Q = Ctx->defaultDeviceQueue(Dev);
    return Out.value<cl_command_queue>(Q ? Q->handle() : nullptr);
  }
  default:
    return unknownParam(Param, Ctx);
  }
}

} // namespace clcpu
