#ifndef CLCPU_RUNTIME_COMMANDBUFFER_H
#define CLCPU_RUNTIME_COMMANDBUFFER_H

// Command-buffers (cl_khr_command_buffer 0.9.8 and
// cl_khr_command_buffer_mutable_dispatch 0.9.5, OpenCL API spec section
// "Command-Buffers"); docs/design/command-buffers.md has the design.

#include "runtime/ExtensionEnums.h"
#include "runtime/Info.h"
#include "runtime/Object.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace clcpu {

class MutableCommand;

/// A recorded series of commands for one command-queue, replayed by
/// clEnqueueCommandBufferKHR as one command of a queue's event graph.
///
/// Recording does the work of an enqueue once: each command is checked and
/// turned into its work then (a kernel's arguments packed, its work-group
/// function looked up, its NDRange planned: runtime/api/CommandWork.h), so a
/// replay only runs the works. They run in recording order, which meets
/// every sync point: a command can only wait for sync points recorded
/// before it. A replay runs the list of works as it was when it was
/// enqueued: an update (clUpdateMutableCommandsKHR) makes a new list with
/// the new works of the commands it changed, so replays pending or running
/// keep theirs and any number of replays may run at once (simultaneous
/// use).
///
/// Holds its queue (and through it the context), its mutable-dispatches
/// and, in the works, the memory objects and kernel code of its commands.
/// Thread-safe: `Lock` guards recording, finalization and the list of
/// works; `UpdateLock` serializes updates.
class CommandBuffer : public Object<CommandBuffer, _cl_command_buffer_khr,
                                    ObjectKind::CommandBuffer> {
public:
  /// \p Props: the application's properties list (empty if it gave NULL),
  /// returned by CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR.
  CommandBuffer(CommandQueue *Q,
                std::vector<cl_command_buffer_properties_khr> Props);
  ~CommandBuffer() override;

  Context *context() const;
  CommandQueue *queue() const { return Queue; }
  bool finalized() const { return Finalized.load(std::memory_order_acquire); }

  /// Parses a clCreateCommandBufferKHR properties list (may be NULL) into
  /// \p Props, the list as given (empty for NULL).
  static cl_int
  parseProperties(const cl_command_buffer_properties_khr *List, Context *C,
                  std::vector<cl_command_buffer_properties_khr> &Props);
  /// clEnqueueCommandBufferKHR's checks of \p H, the queue given to replay
  /// on instead of the command-buffer's; \p Q is the queue behind it.
  cl_int checkSubstitute(cl_command_queue H, CommandQueue *&Q) const;
  /// The checks of a command's sync_point_wait_list (\p N entries).
  cl_int checkSyncPoints(cl_uint N, const cl_sync_point_khr *List) const;
  /// Appends a command that runs \p Work; \p SyncPoint (may be null)
  /// receives its sync point. CL_INVALID_OPERATION once finalized, also
  /// when another thread finalized it since the caller's checks.
  /// \p M (may be null): the command's mutable-dispatch, owned by the
  /// command-buffer from then on (released here when recording fails).
  cl_int record(std::function<cl_int()> Work, cl_sync_point_khr *SyncPoint,
                MutableCommand *M = nullptr);
  /// clFinalizeCommandBufferKHR after the handle check.
  cl_int finalize();
  /// clEnqueueCommandBufferKHR after its checks: one command of \p Q that
  /// runs every recorded command, after \p Waits.
  cl_int enqueue(CommandQueue *Q, std::span<Event *const> Waits,
                 cl_event *EventOut);
  /// Runs every work of \p Works, in recording order; the first error ends
  /// the replay and becomes its status.
  static cl_int run(const std::vector<std::function<cl_int()>> &Works);
  /// Created with CL_COMMAND_BUFFER_MUTABLE_KHR.
  bool isMutable() const { return Mutable; }
  /// CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR given on creation.
  cl_mutable_dispatch_asserts_khr asserts() const { return Asserts; }
  /// Finalized, and every command has all its arguments (the Executable
  /// state; only a mutable-dispatch may lack some).
  bool executable() const;
  /// clUpdateMutableCommandsKHR after its checks of the lists: \p Configs[I]
  /// changes \p Cmds[I], a mutable-dispatch of this command-buffer. All of
  /// them or, on an error, none.
  cl_int update(std::span<MutableCommand *const> Cmds,
                std::span<const khr::MutableDispatchConfig *const> Configs);

  cl_int getInfo(cl_command_buffer_info_khr Param, InfoOut Out) const;

private:
  using Works = std::vector<std::function<cl_int()>>;

  CommandQueue *Queue;
  std::vector<cl_command_buffer_properties_khr> Props;
  bool Mutable = false;
  cl_mutable_dispatch_asserts_khr Asserts = 0;
  mutable std::mutex Lock;
  std::atomic<bool> Finalized{false};
  /// The commands' works. Appended to while recording; after that never
  /// changed: an update replaces the list, replays hold the one they run.
  std::shared_ptr<Works> Commands = std::make_shared<Works>();
  /// The mutable-dispatches, in recording order (a driver reference each).
  std::vector<MutableCommand *> Mutables;
  /// How many mutable-dispatches lack an argument value.
  size_t Incomplete = 0;
  std::mutex UpdateLock;
};

} // namespace clcpu

#endif
