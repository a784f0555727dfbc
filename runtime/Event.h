#ifndef CLCPU_RUNTIME_EVENT_H
#define CLCPU_RUNTIME_EVENT_H

#include "runtime/Info.h"
#include "runtime/Object.h"
#include "scheduler/CommandMemory.h"

#include <atomic>
#include <functional>
#include <mutex>
#include <span>
#include <vector>

namespace clcpu {

using EventCallbackFn = void(CL_CALLBACK *)(cl_event, cl_int, void *);

/// An event: the state of one command (or a user event).
///
/// Status goes CL_QUEUED -> CL_SUBMITTED -> CL_RUNNING -> CL_COMPLETE, or to a
/// negative error code. A command's event is also the command itself: it
/// holds the work, counts the events it still waits for and, once that count
/// reaches zero, hands the work to its device's executor. Events that wait
/// for this one are kept in `Dependents` (each holding a driver reference)
/// and released when this one finishes.
///
/// References: the application's (one at creation, dropped at once if the
/// application asked for no event), one held while the command is in flight,
/// one held by the queue's list of unfinished commands, one per registration
/// as a dependent. An event holds its queue (or, for a user event, context).
///
/// Thread-safe. `Lock` guards Dependents and Callbacks; callbacks and the
/// work run with no lock held.
class Event : public Object<Event, _cl_event, ObjectKind::Event>,
              public CommandMemory {
public:
  /// A command of type \p Type on \p Q, status CL_QUEUED.
  Event(CommandQueue *Q, cl_command_type Type, std::function<cl_int()> Work);
  /// A user event of \p C, status CL_SUBMITTED.
  explicit Event(Context *C);
  ~Event() override;

  Context *context() const { return Ctx; }
  CommandQueue *queue() const { return Queue; }
  bool isUserEvent() const { return Queue == nullptr; }
  cl_int status() const { return Status.load(std::memory_order_seq_cst); }
  /// CL_COMPLETE or an error: nothing more will happen to this event.
  bool finished() const { return status() <= CL_COMPLETE; }

  /// clSetUserEventStatus: \p S is CL_COMPLETE or negative (checked by the
  /// caller). CL_INVALID_OPERATION if the status was already set.
  cl_int setUserStatus(cl_int S);

  /// clSetEventCallback: \p Type is CL_SUBMITTED, CL_RUNNING or CL_COMPLETE.
  /// If that status was already reached the callback runs now, on this thread.
  void addCallback(cl_int Type, EventCallbackFn Fn, void *UserData);

  cl_int getInfo(cl_event_info Param, InfoOut Out) const;
  cl_int getProfilingInfo(cl_profiling_info Param, InfoOut Out) const;

  /// Blocks until every event of \p Events finished, running ready commands
  /// of their devices meanwhile.
  static void waitAll(std::span<Event *const> Events);

  // --- Scheduling (used by CommandQueue) ---

  /// Makes \p Dependent wait for this event. If \p PropagateFailure and this
  /// event fails, \p Dependent fails with
  /// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST instead of running. Does
  /// nothing (apart from recording a failure) if this event already finished.
  void addDependent(Event *Dependent, bool PropagateFailure);
  /// Moves a new command to CL_SUBMITTED and drops the enqueue's guard on its
  /// dependency count; the command runs once every dependency is done.
  void submit();
  /// Implicit flush before the application observes or waits for this
  /// event by other means than clWaitForEvents/clFinish.
  void flushQueue();
  bool hasWork() const { return static_cast<bool>(Work); }

private:
  struct Callback {
    cl_int Type;
    EventCallbackFn Fn;
    void *UserData;
  };
  struct Dependent {
    Event *E;
    bool PropagateFailure;
  };
  enum Stamp { Queued, Submit, Start, End, Complete, NumStamps };

  /// \p AtEnqueue: the enqueue's own guard (the command was ready at once).
  void dependencyDone(bool Failed, bool AtEnqueue = false);
  void run();
  /// Sets a new status (not final) and fires the callbacks it reaches.
  void advance(cl_int NewStatus, Stamp S);
  /// Sets the final status, releases dependents, fires remaining callbacks.
  void finish(cl_int Final);
  void stamp(Stamp S);

  Context *Ctx;
  CommandQueue *Queue; // null for user events
  cl_command_type Type;
  bool Profiling;
  std::function<cl_int()> Work;
  std::atomic<cl_int> Status;
  std::atomic<int> PendingDeps{1}; // the enqueue's guard
  std::atomic<bool> DepFailed{false};
  std::atomic<bool> UserStatusSet{false};
  cl_ulong Times[NumStamps] = {};

  std::mutex Lock;
  // Most events have one dependent (the next command of an in-order queue):
  // it is kept inline, further ones in MoreDependents.
  Dependent FirstDependent{nullptr, false};
  std::vector<Dependent> MoreDependents;
  std::vector<Callback> Callbacks;
  /// Set (under Lock, before reading the status) by addCallback, so that
  /// status changes take the lock only for events with callbacks.
  std::atomic<bool> HasCallbacks{false};
  /// Set by a thread in waitAll (before it reads the status and sleeps):
  /// only watched events wake waiting threads when they finish.
  std::atomic<bool> Watched{false};

  // The queue's list of unfinished commands (guarded by the queue's lock).
  friend class CommandQueue;
  Event *PendingPrev = nullptr, *PendingNext = nullptr;
  bool InPending = false;
};

} // namespace clcpu

#endif
