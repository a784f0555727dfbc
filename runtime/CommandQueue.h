#ifndef CLCPU_RUNTIME_COMMANDQUEUE_H
#define CLCPU_RUNTIME_COMMANDQUEUE_H

#include "runtime/Info.h"
#include "runtime/Object.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace clcpu {

class Executor;
namespace compiler {
struct CompiledProgram;
}

/// A host command-queue (in-order or out-of-order, optionally profiling).
///
/// Commands are scheduled as soon as they are enqueued (clFlush has nothing
/// left to do): each command's event counts the events it waits for, and
/// runs on the device's executor when that count reaches zero. In-order
/// queues make each command wait for the previous one; out-of-order queues
/// only for barriers (and markers with an empty wait list wait for every
/// earlier command).
///
/// Thread-safe: `Lock` guards the list of unfinished commands. Lock order:
/// queue, then event; never a driver lock while calling application code.
class CommandQueue
    : public Object<CommandQueue, _cl_command_queue, ObjectKind::Queue> {
public:
  /// \p DeviceSize: CL_QUEUE_SIZE of an on-device queue (0 otherwise).
  CommandQueue(Context *C, Device *D, cl_command_queue_properties Props,
               std::vector<cl_queue_properties> PropArray,
               cl_uint DeviceSize = 0);
  ~CommandQueue() override;

  Context *context() const { return Ctx; }
  Device *device() const { return Dev; }
  bool profiling() const { return Props & CL_QUEUE_PROFILING_ENABLE; }
  bool outOfOrder() const {
    return Props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
  }
  Executor &executor() const { return *Exec; }
  /// An on-device queue (CL_QUEUE_ON_DEVICE): kernels enqueue into it
  /// (runtime/DeviceQueue.h); the host enqueues nothing.
  bool onDevice() const { return Props & CL_QUEUE_ON_DEVICE; }
  /// CL_QUEUE_SIZE of an on-device queue, in bytes.
  cl_uint deviceQueueSize() const { return DeviceSize; }
  /// Takes room for one device-enqueued command; false if the queue is full
  /// (DeviceCommandBytes each). Thread-safe.
  bool reserveDeviceCommand();
  /// Gives back the room of a completed device-enqueued command.
  void releaseDeviceCommand();

  /// Validates the wait list (spec errors, logged via fail with the
  /// context), creates the command's event, and schedules Work to run on a
  /// worker thread once the wait list and (in-order) earlier commands are
  /// complete. Work returns CL_SUCCESS or a negative error code, which
  /// becomes the event's final status. If EventOut is non-null it receives a
  /// new event handle the application owns. If Blocking, waits until the
  /// command completes and returns CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
  /// if a wait-list event failed, or the command's own error.
  ///
  /// \p Pin (a kernel launch): how the command keeps its code loaded. An
  /// in-order queue holds a reference to the code of its newest launch, on
  /// which the launches of that code rely: a reference per launch is a count
  /// that the enqueuing thread and the worker ending the launch both write,
  /// a cache line passed between two cores at every launch. A launch of
  /// other code takes over the queue's reference and drops it once it ran,
  /// after every launch before it. Out-of-order, each launch holds its own.
  struct CodePin {
    /// The kernel's reference to the code (read during the call).
    const std::shared_ptr<const compiler::CompiledProgram> *Code;
    /// The launch's reference, dropped when it ran (set here, if needed).
    std::shared_ptr<const compiler::CompiledProgram> *Hold;
  };
  cl_int enqueue(cl_command_type Type, cl_uint NumEvents,
                 const cl_event *WaitList, cl_event *EventOut, bool Blocking,
                 std::function<cl_int()> Work, const CodePin *Pin = nullptr);

  /// How a command orders itself against other commands of this queue.
  enum class Sync {
    None,    ///< only its wait list (and, in order, the previous command)
    Marker,  ///< with an empty wait list: every earlier command
    Barrier, ///< every earlier command, and every later one waits for it
  };
  /// The checks of every clEnqueue* wait list; on success \p Out holds the
  /// events.
  cl_int checkWaitList(cl_uint NumEvents, const cl_event *WaitList,
                       std::vector<Event *> &Out) const;
  /// `enqueue` after the wait list was checked.
  cl_int enqueueChecked(cl_command_type Type, std::span<Event *const> Waits,
                        Sync S, cl_event *EventOut, bool Blocking,
                        std::function<cl_int()> Work,
                        const CodePin *Pin = nullptr);

  /// clFlush: commands are scheduled when enqueued; markers and barriers
  /// ready at once wait in the executor for a waiting thread or a worker:
  /// make sure a worker runs them.
  cl_int flush();
  /// clFinish: waits for every command enqueued so far (and drops the
  /// reference to the code of the newest launch once nothing is left).
  cl_int finish();

  cl_int getInfo(cl_command_queue_info Param, InfoOut Out) const;

  /// Parses a clCreateCommandQueueWithProperties list (may be NULL).
  static cl_int parseProperties(const cl_queue_properties *List,
                                cl_command_queue_properties &Bits,
                                std::vector<cl_queue_properties> &Array,
                                Context *C, cl_uint *DeviceSize = nullptr);
  /// Checks a properties bit-field against what \p D supports.
  static cl_int checkPropertyBits(cl_command_queue_properties Bits, Context *C);

  /// "clReleaseCommandQueue performs an implicit flush".
  void onLastExternalRelease();
  /// Called by an event of this queue when its command finished.
  void commandFinished(Event *E);

private:
  Context *Ctx;
  Device *Dev;
  cl_command_queue_properties Props;
  std::vector<cl_queue_properties> PropArray;
  Executor *Exec;
  cl_uint DeviceSize = 0;
  std::atomic<cl_uint> DeviceCommands{0}; // device-enqueued, not complete

  std::mutex Lock;
  // Out-of-order queues: unfinished commands, oldest first, each
  // referenced (an intrusive list through Event::PendingPrev/PendingNext),
  // and the newest unfinished barrier (in the list).
  Event *PendingHead = nullptr, *PendingTail = nullptr;
  Event *LastBarrier = nullptr;
  // In-order queues: the newest command (referenced; may have finished).
  Event *Last = nullptr;
  // In-order queues: the code of the newest launch (CodePin).
  std::shared_ptr<const compiler::CompiledProgram> PinnedCode;

  /// Drops PinnedCode if every command of this in-order queue finished:
  /// the code of a program the application released is not kept by an
  /// idle queue. Takes Lock.
  void dropIdlePin();
};

} // namespace clcpu

#endif
