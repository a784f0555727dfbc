#ifndef CLCPU_RUNTIME_MUTABLECOMMAND_H
#define CLCPU_RUNTIME_MUTABLECOMMAND_H

// Mutable-dispatches (cl_khr_command_buffer_mutable_dispatch 0.9.5, OpenCL
// API spec section "Mutable Commands"); docs/design/command-buffers.md has
// the design.

#include "runtime/ExtensionEnums.h"
#include "runtime/Info.h"
#include "runtime/Kernel.h"
#include "runtime/Object.h"

#include <functional>
#include <mutex>
#include <vector>

namespace clcpu {

class CommandBuffer;

/// The fields of a mutable-dispatch clUpdateMutableCommandsKHR can change:
/// all of them (CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR).
constexpr cl_mutable_dispatch_fields_khr MutableDispatchFields =
    CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR |
    CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR | CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR |
    CL_MUTABLE_DISPATCH_ARGUMENTS_KHR | CL_MUTABLE_DISPATCH_EXEC_INFO_KHR;

/// A clCommandNDRangeKernelKHR command that clUpdateMutableCommandsKHR can
/// change: its own copy of the kernel's argument values and execution
/// information (taken at recording), its NDRange, and the fields it lets an
/// update change. An update checks the new values and makes the command's
/// work again (the arguments packed, the work-groups planned) at once, so a
/// replay runs works made before it as it always does.
///
/// Owned by its command-buffer (the handle lives as long as it); holds its
/// kernel. Thread-safe: `Lock` guards the current configuration, which
/// updates (serialized by the command-buffer) replace and queries read.
class MutableCommand : public Object<MutableCommand, _cl_mutable_command_khr,
                                     ObjectKind::MutableCommand> {
public:
  /// What an update changes, and what its plan found.
  struct Config {
    Kernel::ArgState Args;
    cl_uint WorkDim = 1;
    size_t Offset[3] = {0, 0, 0};
    size_t Global[3] = {0, 0, 0}; // zeros: no global_work_size
    size_t Local[3] = {0, 0, 0};  // zeros if no local_work_size
    bool HasLocal = false;        // local_work_size given
    bool Empty = true;            // no work-item: nothing to run
    bool Uniform = true;          // every work-group full (when not Empty)
  };

  /// \p Props: the application's properties list (cl_command_properties_khr;
  /// empty if it gave NULL).
  MutableCommand(CommandBuffer *B, Kernel *K, std::vector<cl_properties> Props,
                 cl_mutable_dispatch_fields_khr Updatable);
  ~MutableCommand() override;

  Context *context() const;
  CommandBuffer *buffer() const { return Buffer; }

  /// clCommandNDRangeKernelKHR's NDRange checks and plan with the kernel's
  /// argument values now; \p Work is the command's work.
  cl_int record(cl_uint work_dim, const size_t *global_work_offset,
                const size_t *global_work_size, const size_t *local_work_size,
                std::function<cl_int()> &Work);
  /// clUpdateMutableCommandsKHR's checks of \p C (a config for this
  /// command), applied to \p S: the command's configuration, or what an
  /// earlier config of the same call made of it. \p Work: the command's
  /// work with \p S. Changes nothing of the command itself.
  cl_int update(const khr::MutableDispatchConfig &C, Config &S,
                std::function<cl_int()> &Work) const;
  /// The current configuration (a copy).
  Config config() const;
  /// Makes \p S (checked by update) the current configuration.
  void commit(Config S);
  /// True once every argument has a value (the command can run).
  bool complete() const;

  /// The command's position in its command-buffer, set when recorded.
  size_t index() const { return Index; }
  void setIndex(size_t I) { Index = I; }

  cl_int getInfo(cl_mutable_command_info_khr Param, InfoOut Out) const;

private:
  /// The plan and the work of \p S (its Empty and Uniform filled in).
  cl_int makeWork(Config &S, std::function<cl_int()> &Work) const;

  CommandBuffer *Buffer;
  Kernel *K;
  std::vector<cl_properties> Props;
  cl_mutable_dispatch_fields_khr Updatable;
  size_t Index = 0;
  mutable std::mutex Lock; // guards Cur
  Config Cur;
};

} // namespace clcpu

#endif
