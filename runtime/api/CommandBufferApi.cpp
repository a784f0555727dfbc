//===- runtime/api/CommandBufferApi.cpp - cl_khr_command_buffer -----------===//
//
// The entry points of cl_khr_command_buffer 0.9.8 and
// cl_khr_command_buffer_mutable_dispatch 0.9.5 (OpenCL API spec,
// "Command-Buffers"), declared in runtime/api/CommandBufferApi.h. Without
// cl_khr_command_buffer_multi_device a command-buffer has one queue, and
// the command_queue argument of every clCommand*KHR must be NULL. Each
// recording entry point checks what every command shares (checkCommand),
// then the checks of the matching clEnqueue* (runtime/api/CommandWork.h),
// and appends the work those return.
//
//===----------------------------------------------------------------------===//

#include "runtime/api/CommandBufferApi.h"
#include "runtime/CommandBuffer.h"
#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/Mem.h"
#include "runtime/MutableCommand.h"
#include "runtime/api/CommandWork.h"
#include "runtime/api/HandleCheck.h"

using namespace clcpu;
using khr::CommandProperties;

namespace {
/// CL_INVALID_COMMAND_BUFFER_KHR if command_buffer is not a valid
/// command-buffer.
constexpr HandleCheck CommandBufferCheck{
    CL_INVALID_COMMAND_BUFFER_KHR, "command_buffer",
    "command_buffer is not a valid command-buffer"};

/// CL_INVALID_MUTABLE_COMMAND_KHR if command is not a valid mutable
/// command object.
constexpr HandleCheck MutableCommandCheck{
    CL_INVALID_MUTABLE_COMMAND_KHR, "command",
    "command is not a valid mutable command object"};

/// The checks every clCommand*KHR entry point shares after the
/// command-buffer's, but those of properties and mutable_handle.
cl_int checkCommandCommon(CommandBuffer *B, cl_command_queue command_queue,
                          cl_uint num_sync_points_in_wait_list,
                          const cl_sync_point_khr *sync_point_wait_list) {
  Context *C = B->context();
  // CL_INVALID_COMMAND_QUEUE if the cl_khr_command_buffer_multi_device
  // extension is not supported and command_queue is not NULL.
  if (command_queue)
    return fail(CL_INVALID_COMMAND_QUEUE,
                "command_queue must be NULL: a command-buffer records to the "
                "queue it was created with",
                C);
  // CL_INVALID_OPERATION if command_buffer has been finalized.
  if (B->finalized())
    return fail(CL_INVALID_OPERATION, "command_buffer has been finalized", C);
  return B->checkSyncPoints(num_sync_points_in_wait_list, sync_point_wait_list);
}

/// The checks every clCommand*KHR entry point but clCommandNDRangeKernelKHR
/// shares after the command-buffer's.
cl_int checkCommand(CommandBuffer *B, cl_command_queue command_queue,
                    const CommandProperties *properties,
                    cl_uint num_sync_points_in_wait_list,
                    const cl_sync_point_khr *sync_point_wait_list,
                    cl_mutable_command_khr *mutable_handle) {
  Context *C = B->context();
  // CL_INVALID_VALUE if values specified in properties are not valid. (The
  // command properties cl_khr_command_buffer_mutable_dispatch defines are
  // for clCommandNDRangeKernelKHR: only an empty list is valid here.)
  if (properties && properties[0] != 0)
    return fail(CL_INVALID_VALUE,
                "unsupported command property " + std::to_string(properties[0]),
                C);
  // CL_INVALID_VALUE if mutable_handle is not NULL. (Only kernel commands
  // are mutable.)
  if (mutable_handle)
    return fail(CL_INVALID_VALUE,
                "mutable_handle must be NULL: only clCommandNDRangeKernelKHR "
                "records a mutable command",
                C);
  return checkCommandCommon(B, command_queue, num_sync_points_in_wait_list,
                            sync_point_wait_list);
}

/// The properties of a clCommandNDRangeKernelKHR command.
struct NDRangeProperties {
  std::vector<CommandProperties> List; // as given; empty for NULL
  bool HasFields = false;              // UPDATABLE_FIELDS given
  cl_mutable_dispatch_fields_khr Fields = MutableDispatchFields;
  cl_mutable_dispatch_asserts_khr Asserts = 0;
};

cl_int parseNDRangeProperties(const CommandProperties *properties, Context *C,
                              NDRangeProperties &P) {
  if (!properties)
    return CL_SUCCESS;
  bool HasAsserts = false;
  size_t I = 0;
  for (; properties[I] != 0; I += 2) {
    // CL_INVALID_VALUE if values specified in properties are not valid.
    // (A name given twice is not valid either: the list has one value per
    // property. The value is read only after a known name: an unknown one
    // may be the last entry of an unterminated list.)
    CommandProperties Name = properties[I];
    if (Name != CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR &&
        Name != CL_MUTABLE_DISPATCH_ASSERTS_KHR)
      return fail(CL_INVALID_VALUE,
                  "unknown command property " + std::to_string(Name), C);
    CommandProperties Value = properties[I + 1];
    if (Name == CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR) {
      if (P.HasFields)
        return fail(CL_INVALID_VALUE,
                    "CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR given twice", C);
      // "If CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR is not specified then
      // it defaults to the value returned by the
      // CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR device query."
      if (Value & ~MutableDispatchFields)
        return fail(
            CL_INVALID_VALUE,
            "unknown bits in CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR: " +
                std::to_string(Value),
            C);
      // CL_INVALID_OPERATION if the requested
      // CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR properties are not reported
      // by CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR for the device
      // associated with command_queue. (Every field is reported.)
      P.HasFields = true;
      P.Fields = Value;
    } else {
      if (HasAsserts)
        return fail(CL_INVALID_VALUE,
                    "CL_MUTABLE_DISPATCH_ASSERTS_KHR given twice", C);
      if (Value & ~cl_mutable_dispatch_asserts_khr(
                      CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR))
        return fail(CL_INVALID_VALUE,
                    "unknown bits in CL_MUTABLE_DISPATCH_ASSERTS_KHR: " +
                        std::to_string(Value),
                    C);
      HasAsserts = true;
      P.Asserts = Value;
    }
  }
  // "the implementation must return the values specified in the properties
  // argument in the same order" (CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR).
  P.List.assign(properties, properties + I + 1);
  return CL_SUCCESS;
}

/// The body of a clCommand*KHR entry point \p Name: the shared checks, then
/// \p Make (the command's own checks, which fill in its work), then the
/// recording.
template <typename MakeFn>
cl_int recordCall(const char *Name, cl_command_buffer_khr command_buffer,
                  cl_command_queue command_queue,
                  const CommandProperties *properties, cl_uint num_sync_points,
                  const cl_sync_point_khr *sync_point_wait_list,
                  cl_sync_point_khr *sync_point,
                  cl_mutable_command_khr *mutable_handle,
                  MakeFn &&Make) noexcept {
  return objectCall<CommandBuffer>(
      Name, command_buffer, CommandBufferCheck,
      [&](CommandBuffer *B) -> cl_int {
        if (cl_int Err =
                checkCommand(B, command_queue, properties, num_sync_points,
                             sync_point_wait_list, mutable_handle))
          return Err;
        CommandWork Work;
        if (cl_int Err = Make(B, Work))
          return Err;
        return B->record(std::move(Work), sync_point);
      });
}

/// clCommandNDRangeKernelKHR's command after the checks every command
/// shares: \p Work, and \p M, its mutable-dispatch where it needs one
/// (\p WantHandle, or arguments left to set).
cl_int kernelCommandWork(CommandBuffer *B, NDRangeProperties P,
                         cl_kernel kernel, cl_uint work_dim,
                         const size_t *global_work_offset,
                         const size_t *global_work_size,
                         const size_t *local_work_size, bool WantHandle,
                         CommandWork &Work, MutableCommand *&M) {
  // "kernel is a valid kernel object, which must have its arguments set
  // unless the command has the CL_MUTABLE_DISPATCH_ARGUMENTS_KHR property
  // set": set in the properties given, on a command-buffer whose commands
  // can be updated.
  bool ArgsLater = B->isMutable() && P.HasFields &&
                   (P.Fields & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR);
  Kernel *K = nullptr;
  if (cl_int Err =
          checkNDRangeKernel(B->queue(), kernel, work_dim, ArgsLater, K))
    return Err;
  cl_uint Missing = 0;
  if (WantHandle || !K->argsComplete(Missing)) {
    // A mutable-dispatch: its own copy of the arguments, which
    // clUpdateMutableCommandsKHR changes.
    M = new MutableCommand(B, K, std::move(P.List), P.Fields);
    if (cl_int Err = M->record(work_dim, global_work_offset, global_work_size,
                               local_work_size, Work)) {
      M->releaseInternal();
      return Err;
    }
  } else {
    // Recording packs the arguments as they are now (the spec's snapshot
    // at record time), looks up the work-group function and plans the
    // work-groups: a replay only runs the launch.
    LaunchDescription R;
    bool Empty = false;
    if (cl_int Err = planNDRange(B->queue(), K, work_dim, global_work_offset,
                                 global_work_size, local_work_size, R, Empty))
      return Err;
    std::shared_ptr<KernelLaunch> L;
    if (!Empty)
      if (cl_int Err = K->prepare(B->queue(), R, L))
        return Err;
    if (L)
      Work = [L = std::move(L)] { return runLaunch(*L); };
    else
      Work = [] { return CL_SUCCESS; }; // an empty NDRange
  }
  return CL_SUCCESS;
}

} // namespace

cl_command_buffer_khr CL_API_CALL khr::clCreateCommandBufferKHR(
    cl_uint num_queues, const cl_command_queue *queues,
    const cl_command_buffer_properties_khr *properties, cl_int *errcode_ret) {
  return apiCreate<cl_command_buffer_khr>(
      __func__, errcode_ret, [&](cl_command_buffer_khr &Out) -> cl_int {
        // CL_INVALID_VALUE if queues is NULL.
        if (!queues)
          return fail(CL_INVALID_VALUE, "queues is NULL");
        // CL_INVALID_VALUE if the cl_khr_command_buffer_multi_device
        // extension is not supported and num_queues is not one.
        if (num_queues != 1)
          return fail(CL_INVALID_VALUE, "num_queues is " +
                                            std::to_string(num_queues) +
                                            ", not 1");
        // CL_INVALID_COMMAND_QUEUE if any command-queue in queues is not a
        // valid command-queue.
        CommandQueue *Q;
        if (cl_int Err = checkQueue(queues[0], Q))
          return Err;
        std::vector<cl_command_buffer_properties_khr> Props;
        if (cl_int Err =
                CommandBuffer::parseProperties(properties, Q->context(), Props))
          return Err;
        Out = (new CommandBuffer(Q, std::move(Props)))->handle();
        return CL_SUCCESS;
      });
}

cl_int CL_API_CALL
khr::clFinalizeCommandBufferKHR(cl_command_buffer_khr command_buffer) {
  return objectCall<CommandBuffer>(
      __func__, command_buffer, CommandBufferCheck,
      [](CommandBuffer *B) { return B->finalize(); });
}

cl_int CL_API_CALL
khr::clRetainCommandBufferKHR(cl_command_buffer_khr command_buffer) {
  return retainCall<CommandBuffer>(__func__, command_buffer,
                                   CommandBufferCheck);
}

cl_int CL_API_CALL
khr::clReleaseCommandBufferKHR(cl_command_buffer_khr command_buffer) {
  return releaseCall<CommandBuffer>(__func__, command_buffer,
                                    CommandBufferCheck);
}

cl_int CL_API_CALL khr::clEnqueueCommandBufferKHR(
    cl_uint num_queues, cl_command_queue *queues,
    cl_command_buffer_khr command_buffer, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return objectCall<CommandBuffer>(
      __func__, command_buffer, CommandBufferCheck,
      [&](CommandBuffer *B) -> cl_int {
        Context *C = B->context();
        // CL_INVALID_OPERATION if command_buffer is not in the Executable
        // state.
        if (!B->finalized())
          return fail(CL_INVALID_OPERATION, "command_buffer is not finalized",
                      C);
        // CL_INVALID_VALUE if queues is NULL and num_queues is > 0, or
        // queues is not NULL and num_queues is 0.
        if (!queues != (num_queues == 0))
          return fail(CL_INVALID_VALUE, "queues and num_queues disagree", C);
        // CL_INVALID_VALUE if num_queues is > 0 and not the same value as
        // num_queues set on command_buffer creation.
        if (num_queues > 1)
          return fail(CL_INVALID_VALUE,
                      "num_queues is " + std::to_string(num_queues) +
                          ", the command-buffer has 1",
                      C);
        // (cl_khr_command_buffer_mutable_dispatch 0.9.5: a command-buffer
        // whose mutable-dispatch lacks an argument value is in the Finalized
        // state, not the Executable one.)
        if (!B->executable())
          return fail(CL_INVALID_OPERATION,
                      "command_buffer is in the Finalized state: a kernel "
                      "command still lacks an argument value",
                      C);
        CommandQueue *Q = B->queue();
        if (queues)
          if (cl_int Err = B->checkSubstitute(queues[0], Q))
            return Err;
        std::vector<Event *> Waits;
        if (cl_int Err = Q->checkWaitList(num_events_in_wait_list,
                                          event_wait_list, Waits))
          return Err;
        return B->enqueue(Q, Waits, event);
      });
}

cl_int CL_API_CALL khr::clCommandBarrierWithWaitListKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  // The commands run in recording order: every earlier one is complete when
  // the barrier runs, so it has nothing left to do.
  return recordCall(__func__, command_buffer, command_queue, properties,
                    num_sync_points_in_wait_list, sync_point_wait_list,
                    sync_point, mutable_handle,
                    [&](CommandBuffer *, CommandWork &Work) {
                      Work = [] { return CL_SUCCESS; };
                      return CL_SUCCESS;
                    });
}

cl_int CL_API_CALL khr::clCommandCopyBufferKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem src_buffer, cl_mem dst_buffer,
    size_t src_offset, size_t dst_offset, size_t size,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCall(
      __func__, command_buffer, command_queue, properties,
      num_sync_points_in_wait_list, sync_point_wait_list, sync_point,
      mutable_handle, [&](CommandBuffer *B, CommandWork &Work) {
        return copyBufferWork(B->context(), src_buffer, dst_buffer, src_offset,
                              dst_offset, size, Work);
      });
}

cl_int CL_API_CALL khr::clCommandCopyBufferRectKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem src_buffer, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
    size_t dst_slice_pitch, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCall(__func__, command_buffer, command_queue, properties,
                    num_sync_points_in_wait_list, sync_point_wait_list,
                    sync_point, mutable_handle,
                    [&](CommandBuffer *B, CommandWork &Work) {
                      return copyBufferRectWork(
                          B->context(), src_buffer, dst_buffer, src_origin,
                          dst_origin, region, src_row_pitch, src_slice_pitch,
                          dst_row_pitch, dst_slice_pitch, Work);
                    });
}

cl_int CL_API_CALL khr::clCommandCopyBufferToImageKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem src_buffer, cl_mem dst_image,
    size_t src_offset, const size_t *dst_origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCall(
      __func__, command_buffer, command_queue, properties,
      num_sync_points_in_wait_list, sync_point_wait_list, sync_point,
      mutable_handle, [&](CommandBuffer *B, CommandWork &Work) {
        return copyBufferToImageWork(B->context(), src_buffer, dst_image,
                                     src_offset, dst_origin, region, Work);
      });
}

cl_int CL_API_CALL khr::clCommandCopyImageKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem src_image, cl_mem dst_image,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCall(
      __func__, command_buffer, command_queue, properties,
      num_sync_points_in_wait_list, sync_point_wait_list, sync_point,
      mutable_handle, [&](CommandBuffer *B, CommandWork &Work) {
        return copyImageWork(B->context(), src_image, dst_image, src_origin,
                             dst_origin, region, Work);
      });
}

cl_int CL_API_CALL khr::clCommandCopyImageToBufferKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem src_image, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *region, size_t dst_offset,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCall(
      __func__, command_buffer, command_queue, properties,
      num_sync_points_in_wait_list, sync_point_wait_list, sync_point,
      mutable_handle, [&](CommandBuffer *B, CommandWork &Work) {
        return copyImageToBufferWork(B->context(), src_image, dst_buffer,
                                     src_origin, region, dst_offset, Work);
      });
}

cl_int CL_API_CALL khr::clCommandFillBufferKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem buffer, const void *pattern,
    size_t pattern_size, size_t offset, size_t size,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCall(__func__, command_buffer, command_queue, properties,
                    num_sync_points_in_wait_list, sync_point_wait_list,
                    sync_point, mutable_handle,
                    [&](CommandBuffer *B, CommandWork &Work) {
                      return fillBufferWork(B->context(), buffer, pattern,
                                            pattern_size, offset, size, Work);
                    });
}

cl_int CL_API_CALL khr::clCommandFillImageKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem image, const void *fill_color,
    const size_t *origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCall(__func__, command_buffer, command_queue, properties,
                    num_sync_points_in_wait_list, sync_point_wait_list,
                    sync_point, mutable_handle,
                    [&](CommandBuffer *B, CommandWork &Work) {
                      return fillImageWork(B->context(), image, fill_color,
                                           origin, region, Work);
                    });
}

cl_int CL_API_CALL khr::clCommandSVMMemcpyKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, void *dst_ptr, const void *src_ptr,
    size_t size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCall(
      __func__, command_buffer, command_queue, properties,
      num_sync_points_in_wait_list, sync_point_wait_list, sync_point,
      mutable_handle, [&](CommandBuffer *B, CommandWork &Work) {
        return svmMemcpyWork(B->context(), dst_ptr, src_ptr, size, Work);
      });
}

cl_int CL_API_CALL khr::clCommandSVMMemFillKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, void *svm_ptr, const void *pattern,
    size_t pattern_size, size_t size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCall(__func__, command_buffer, command_queue, properties,
                    num_sync_points_in_wait_list, sync_point_wait_list,
                    sync_point, mutable_handle,
                    [&](CommandBuffer *B, CommandWork &Work) {
                      return svmMemFillWork(B->context(), svm_ptr, pattern,
                                            pattern_size, size, Work);
                    });
}

cl_int CL_API_CALL khr::clCommandNDRangeKernelKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_kernel kernel, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size,
    const size_t *local_work_size, cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return objectCall<CommandBuffer>(
      __func__, command_buffer, CommandBufferCheck,
      [&](CommandBuffer *B) -> cl_int {
        Context *C = B->context();
        NDRangeProperties P;
        if (cl_int Err = parseNDRangeProperties(properties, C, P))
          return Err;
        if (cl_int Err = checkCommandCommon(B, command_queue,
                                            num_sync_points_in_wait_list,
                                            sync_point_wait_list))
          return Err;
        // CL_INVALID_VALUE if command_buffer was created with the
        // CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR property with
        // CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR and
        // local_work_size is NULL, or if properties includes the
        // CL_MUTABLE_DISPATCH_ASSERTS_KHR property with
        // CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR and
        // local_work_size is NULL.
        if (((B->asserts() | P.Asserts) &
             CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR) &&
            !local_work_size)
          return fail(
              CL_INVALID_VALUE,
              "CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR "
              "needs a local_work_size",
              C);
        CommandWork Work;
        MutableCommand *M = nullptr;
        if (cl_int Err = kernelCommandWork(B, std::move(P), kernel, work_dim,
                                           global_work_offset, global_work_size,
                                           local_work_size,
                                           mutable_handle != nullptr, Work, M))
          return Err;
        if (cl_int Err = B->record(std::move(Work), sync_point, M))
          return Err;
        if (mutable_handle)
          *mutable_handle = M->handle();
        return CL_SUCCESS;
      });
}

cl_int CL_API_CALL khr::clGetCommandBufferInfoKHR(
    cl_command_buffer_khr command_buffer, cl_command_buffer_info_khr param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  return objectCall<CommandBuffer>(
      __func__, command_buffer, CommandBufferCheck, [&](CommandBuffer *B) {
        return B->getInfo(param_name, InfoOut(param_value_size, param_value,
                                              param_value_size_ret));
      });
}

cl_int CL_API_CALL khr::clUpdateMutableCommandsKHR(
    cl_command_buffer_khr command_buffer, cl_uint num_configs,
    const CommandBufferUpdateType *config_types, const void **configs) {
  return objectCall<CommandBuffer>(
      __func__, command_buffer, CommandBufferCheck,
      [&](CommandBuffer *B) -> cl_int {
        Context *C = B->context();
        // CL_INVALID_OPERATION if command_buffer has not been finalized.
        if (!B->finalized())
          return fail(CL_INVALID_OPERATION,
                      "command_buffer has not been finalized", C);
        // CL_INVALID_OPERATION if command_buffer was not created with the
        // CL_COMMAND_BUFFER_MUTABLE_KHR flag.
        if (!B->isMutable())
          return fail(CL_INVALID_OPERATION,
                      "command_buffer was not created with "
                      "CL_COMMAND_BUFFER_MUTABLE_KHR",
                      C);
        // CL_INVALID_VALUE if config_types is NULL and num_configs > 0, or
        // config_types is not NULL and num_configs is 0.
        if (!config_types != (num_configs == 0))
          return fail(CL_INVALID_VALUE, "config_types and num_configs disagree",
                      C);
        // CL_INVALID_VALUE if configs is NULL and num_configs > 0, or
        // configs is not NULL and num_configs is 0.
        if (!configs != (num_configs == 0))
          return fail(CL_INVALID_VALUE, "configs and num_configs disagree", C);
        std::vector<MutableCommand *> Cmds(num_configs);
        std::vector<const MutableDispatchConfig *> Configs(num_configs);
        for (cl_uint I = 0; I < num_configs; ++I) {
          // CL_INVALID_VALUE if any element of config_types is not a valid
          // cl_command_buffer_update_type_khr enum.
          if (config_types[I] != StructureTypeMutableDispatchConfig)
            return fail(CL_INVALID_VALUE,
                        "config_types[" + std::to_string(I) + "] (" +
                            std::to_string(config_types[I]) +
                            ") is not CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_"
                            "CONFIG_KHR",
                        C);
          // CL_INVALID_VALUE if any element of configs is NULL.
          if (!configs[I])
            return fail(CL_INVALID_VALUE,
                        "configs[" + std::to_string(I) + "] is NULL", C);
          Configs[I] = static_cast<const MutableDispatchConfig *>(configs[I]);
          // CL_INVALID_MUTABLE_COMMAND_KHR if command is not a valid mutable
          // command object returned from clCommandNDRangeKernelKHR, or
          // created from command_buffer.
          Cmds[I] = MutableCommand::fromHandle(Configs[I]->command);
          if (!Cmds[I] || Cmds[I]->buffer() != B)
            return fail(CL_INVALID_MUTABLE_COMMAND_KHR,
                        "configs[" + std::to_string(I) +
                            "]->command is not a mutable command of "
                            "command_buffer",
                        C);
        }
        return B->update(Cmds, Configs);
      });
}

cl_int CL_API_CALL khr::clGetMutableCommandInfoKHR(
    cl_mutable_command_khr command, cl_mutable_command_info_khr param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  return objectCall<MutableCommand>(
      __func__, command, MutableCommandCheck, [&](MutableCommand *M) {
        return M->getInfo(param_name, InfoOut(param_value_size, param_value,
                                              param_value_size_ret));
      });
}
