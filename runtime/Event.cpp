#include "runtime/Event.h"
#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/Platform.h"
#include "scheduler/Executor.h"

#include <algorithm>

namespace clcpu {

Event::Event(CommandQueue *Q, cl_command_type Type,
             std::function<cl_int()> Work)
    : Ctx(Q->context()), Queue(Q), Type(Type), Profiling(Q->profiling()),
      Work(std::move(Work)), Status(CL_QUEUED) {
  Queue->retainInternal();
  stamp(Queued);
}

Event::Event(Context *C)
    : Ctx(C), Queue(nullptr), Type(CL_COMMAND_USER), Profiling(false),
      Status(CL_SUBMITTED) {
  Ctx->retainInternal();
}

Event::~Event() {
  if (Queue)
    Queue->releaseInternal();
  else
    Ctx->releaseInternal();
}

void Event::stamp(Stamp S) {
  if (Profiling)
    Times[S] = Platform::hostTimeNs();
}

void Event::addDependent(Event *D, bool PropagateFailure) {
  {
    std::lock_guard<std::mutex> G(Lock);
    if (!finished()) {
      D->retainInternal();
      D->PendingDeps.fetch_add(1, std::memory_order_relaxed);
      if (!FirstDependent.E)
        FirstDependent = {D, PropagateFailure};
      else
        MoreDependents.push_back({D, PropagateFailure});
      return;
    }
  }
  if (PropagateFailure && status() < 0)
    D->DepFailed.store(true, std::memory_order_relaxed);
}

void Event::submit() {
  advance(CL_SUBMITTED, Submit);
  dependencyDone(false, /*AtEnqueue=*/true);
}

void Event::flushQueue() {
  if (Queue && !finished())
    Queue->flush();
}

void Event::dependencyDone(bool Failed, bool AtEnqueue) {
  if (Failed)
    DepFailed.store(true, std::memory_order_relaxed);
  if (PendingDeps.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  // Every dependency is done.
  if (DepFailed.load(std::memory_order_relaxed)) {
    // "the command ... will not be executed and will fail with
    // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST" when a wait-list event
    // terminated abnormally.
    finish(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    return;
  }
  // A marker or barrier ready when enqueued has nothing to overlap with the
  // host: it wakes no worker. It runs when the host waits (and helps), at
  // the next flush, or with the next command that has work.
  Queue->executor().submit([this] { run(); }, AtEnqueue && !Work);
}

void Event::run() {
  advance(CL_RUNNING, Start);
  cl_int Result;
  try {
    Result = Work ? Work() : CL_SUCCESS;
  } catch (const std::bad_alloc &) {
    Result = CL_OUT_OF_HOST_MEMORY;
  } catch (...) {
    Result = CL_OUT_OF_RESOURCES;
  }
  Work = nullptr; // drop what the work captured before anyone waits on us
  stamp(End);
  finish(Result < 0 ? Result : CL_COMPLETE);
}

void Event::advance(cl_int NewStatus, Stamp S) {
  stamp(S);
  Status.store(NewStatus, std::memory_order_seq_cst);
  // addCallback sets HasCallbacks before it reads the status: either it saw
  // the new status (and calls the callback itself) or we see the flag.
  if (!HasCallbacks.load(std::memory_order_seq_cst))
    return;
  std::vector<Callback> Fire;
  {
    std::lock_guard<std::mutex> G(Lock);
    auto Reached = [&](const Callback &C) { return C.Type >= NewStatus; };
    std::copy_if(Callbacks.begin(), Callbacks.end(), std::back_inserter(Fire),
                 Reached);
    std::erase_if(Callbacks, Reached);
  }
  for (const Callback &C : Fire)
    C.Fn(handle(), C.Type, C.UserData);
}

void Event::finish(cl_int Final) {
  Dependent First;
  std::vector<Dependent> More;
  std::vector<Callback> Fire;
  if (Final == CL_COMPLETE && Profiling)
    Times[Complete] = Times[End];
  {
    std::lock_guard<std::mutex> G(Lock);
    Status.store(Final, std::memory_order_seq_cst);
    First = FirstDependent;
    FirstDependent = {nullptr, false};
    More.swap(MoreDependents);
    Fire.swap(Callbacks);
  }
  auto Release = [&](const Dependent &D) {
    D.E->dependencyDone(Final < 0 && D.PropagateFailure);
    D.E->releaseInternal();
  };
  if (First.E)
    Release(First);
  for (const Dependent &D : More)
    Release(D);
  if (Queue)
    Queue->commandFinished(this);
  // "The registered callback function will be called when the execution
  // status of command associated with event changes to an execution status
  // equal to or past the status specified by command_exec_status"; an
  // abnormally terminated command reports its error code.
  for (const Callback &C : Fire)
    C.Fn(handle(), Final < 0 ? Final : C.Type, C.UserData);
  // Only an event some thread waits for wakes the waiting threads. Waking them
  // for every command of a chain (clFinish after many enqueues) would keep the
  // host thread spinning beside the workers, on the cores the launches need.
  // The status store and this load are seq_cst, as are waitAll's store to
  // Watched and its status load: either the waiter sees the event finished or
  // this sees it watched.
  if (Watched.load(std::memory_order_seq_cst))
    Executor::notifyProgress();
  if (Queue)
    releaseInternal(); // the in-flight reference
}

cl_int Event::setUserStatus(cl_int S) {
  // CL_INVALID_OPERATION if the execution_status for event has already
  // been changed by a previous call to clSetUserEventStatus.
  if (UserStatusSet.exchange(true, std::memory_order_acq_rel))
    return fail(CL_INVALID_OPERATION, "the user event's status was already set",
                Ctx);
  finish(S);
  return CL_SUCCESS;
}

void Event::addCallback(cl_int CbType, EventCallbackFn Fn, void *UserData) {
  cl_int Now;
  {
    std::lock_guard<std::mutex> G(Lock);
    HasCallbacks.store(true, std::memory_order_seq_cst);
    Now = status();
    if (Now > CbType) {
      Callbacks.push_back({CbType, Fn, UserData});
      return;
    }
  }
  // The status was already reached: call it now.
  Fn(handle(), Now < 0 ? Now : CbType, UserData);
}

cl_int Event::getInfo(cl_event_info Param, InfoOut Out) const {
  switch (Param) {
  case CL_EVENT_COMMAND_QUEUE:
    // "If the event is a user event object, a NULL value is returned."
    return Out.value<cl_command_queue>(Queue ? Queue->handle() : nullptr);
  case CL_EVENT_CONTEXT:
    return Out.value<cl_context>(Ctx->handle());
  case CL_EVENT_COMMAND_TYPE:
    return Out.value<cl_command_type>(Type);
  case CL_EVENT_COMMAND_EXECUTION_STATUS:
    return Out.value<cl_int>(status());
  case CL_EVENT_REFERENCE_COUNT:
    return Out.value<cl_uint>(referenceCount());
  default:
    return unknownParam(Param, Ctx);
  }
}

cl_int Event::getProfilingInfo(cl_profiling_info Param, InfoOut Out) const {
  Stamp S;
  switch (Param) {
  case CL_PROFILING_COMMAND_QUEUED:
    S = Queued;
    break;
  case CL_PROFILING_COMMAND_SUBMIT:
    S = Submit;
    break;
  case CL_PROFILING_COMMAND_START:
    S = Start;
    break;
  case CL_PROFILING_COMMAND_END:
    S = End;
    break;
  case CL_PROFILING_COMMAND_COMPLETE:
    S = Complete;
    break;
  default:
    return unknownParam(Param, Ctx);
  }
  // CL_PROFILING_INFO_NOT_AVAILABLE if the CL_QUEUE_PROFILING_ENABLE flag is
  // not set for the command-queue, if the execution status of the command
  // identified by event is not CL_COMPLETE or if event is a user event
  // object.
  if (isUserEvent())
    return fail(CL_PROFILING_INFO_NOT_AVAILABLE, "event is a user event", Ctx);
  if (!Profiling)
    return fail(CL_PROFILING_INFO_NOT_AVAILABLE,
                "the queue was created without CL_QUEUE_PROFILING_ENABLE", Ctx);
  if (status() != CL_COMPLETE)
    return fail(CL_PROFILING_INFO_NOT_AVAILABLE,
                "the command is not CL_COMPLETE", Ctx);
  return Out.value<cl_ulong>(Times[S]);
}

void Event::waitAll(std::span<Event *const> Events) {
  std::vector<Executor *> Help;
  for (Event *E : Events)
    if (E->Queue) {
      Executor *X = &E->Queue->executor();
      if (std::find(Help.begin(), Help.end(), X) == Help.end())
        Help.push_back(X);
    }
  // Finished events stay finished: resume the scan where it stopped.
  size_t First = 0;
  Executor::waitUntil(Help, [&] {
    for (; First < Events.size(); ++First) {
      Event *E = Events[First];
      if (E->finished())
        continue;
      // Watched before the status is read again (see finish).
      E->Watched.store(true, std::memory_order_seq_cst);
      if (!E->finished())
        return false;
    }
    return true;
  });
}

} // namespace clcpu
