#ifndef CLCPU_RUNTIME_COMMANDBUFFER_H
#define CLCPU_RUNTIME_COMMANDBUFFER_H

// Command-buffers (cl_khr_command_buffer 0.9.8, OpenCL API spec section
// "Command-Buffers"); docs/design/command-buffers.md has the design.

#include "runtime/ExtensionEnums.h"
#include "runtime/Info.h"
#include "runtime/Object.h"

#include <atomic>
#include <functional>
#include <mutex>
#include <span>
#include <vector>

namespace clcpu {

/// A recorded series of commands for one command-queue, replayed by
/// clEnqueueCommandBufferKHR as one command of a queue's event graph.
///
/// Recording does the work of an enqueue once: each command is checked and
/// turned into its work then (a kernel's arguments packed, its work-group
/// function looked up, its NDRange planned: runtime/api/CommandWork.h), so a
/// replay only runs the works. They run in recording order, which meets
/// every sync point: a command can only wait for sync points recorded
/// before it. A replay reads nothing that changes after finalization, so
/// any number of replays may run at once (simultaneous use).
///
/// Holds its queue (and through it the context) and, in the works, the
/// memory objects and kernel code of its commands.
/// Thread-safe: `Lock` guards recording and finalization; the commands are
/// immutable once Finalized is set (release order), which replays read.
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
  cl_int record(std::function<cl_int()> Work, cl_sync_point_khr *SyncPoint);
  /// clFinalizeCommandBufferKHR after the handle check.
  cl_int finalize();
  /// clEnqueueCommandBufferKHR after its checks: one command of \p Q that
  /// runs every recorded command, after \p Waits.
  cl_int enqueue(CommandQueue *Q, std::span<Event *const> Waits,
                 cl_event *EventOut);
  /// Runs every command, in recording order; the first error ends the
  /// replay and becomes its status.
  cl_int run() const;

  cl_int getInfo(cl_command_buffer_info_khr Param, InfoOut Out) const;

private:
  CommandQueue *Queue;
  std::vector<cl_command_buffer_properties_khr> Props;
  mutable std::mutex Lock;
  std::atomic<bool> Finalized{false};
  std::vector<std::function<cl_int()>> Commands;
};

} // namespace clcpu

#endif
