//===- runtime/api/CommandBufferApi.cpp - cl_khr_command_buffer -----------===//
//
// The entry points of cl_khr_command_buffer 0.9.8 (OpenCL API spec,
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

/// The checks every clCommand*KHR entry point shares after the
/// command-buffer's.
cl_int checkCommand(CommandBuffer *B, cl_command_queue command_queue,
                    const CommandProperties *properties,
                    cl_uint num_sync_points_in_wait_list,
                    const cl_sync_point_khr *sync_point_wait_list,
                    cl_mutable_command_khr *mutable_handle) {
  Context *C = B->context();
  // CL_INVALID_COMMAND_QUEUE if the cl_khr_command_buffer_multi_device
  // extension is not supported and command_queue is not NULL.
  if (command_queue)
    return fail(CL_INVALID_COMMAND_QUEUE,
                "command_queue must be NULL: a command-buffer records to the "
                "queue it was created with",
                C);
  // CL_INVALID_VALUE if values specified in properties are not valid. (No
  // command property is defined without cl_khr_command_buffer_mutable_-
  // dispatch: only an empty list is valid.)
  if (properties && properties[0] != 0)
    return fail(CL_INVALID_VALUE,
                "unsupported command property " + std::to_string(properties[0]),
                C);
  // CL_INVALID_VALUE if the cl_khr_command_buffer_mutable_dispatch extension
  // is not supported and mutable_handle is not NULL.
  if (mutable_handle)
    return fail(CL_INVALID_VALUE,
                "mutable_handle must be NULL: mutable commands are not "
                "supported",
                C);
  // CL_INVALID_OPERATION if command_buffer has been finalized.
  if (B->finalized())
    return fail(CL_INVALID_OPERATION, "command_buffer has been finalized", C);
  return B->checkSyncPoints(num_sync_points_in_wait_list, sync_point_wait_list);
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

/// The image commands: the device has no images (CL_DEVICE_IMAGE_SUPPORT is
/// CL_FALSE), so the image argument \p What is never valid.
cl_int noImage(CommandBuffer *B, cl_mem Image, const char *What) {
  // CL_INVALID_MEM_OBJECT if src_image / dst_image / image is not a valid
  // image object (clEnqueueCopyImage and its siblings).
  return fail(CL_INVALID_MEM_OBJECT,
              std::string(What) + (Mem::fromHandle(Image)
                                       ? " is a buffer, not an image object"
                                       : " is not a valid image object"),
              B->context());
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
  return recordCall(__func__, command_buffer, command_queue, properties,
                    num_sync_points_in_wait_list, sync_point_wait_list,
                    sync_point, mutable_handle,
                    [&](CommandBuffer *B, CommandWork &) {
                      return noImage(B, dst_image, "dst_image");
                    });
}

cl_int CL_API_CALL khr::clCommandCopyImageKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem src_image, cl_mem dst_image,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCall(__func__, command_buffer, command_queue, properties,
                    num_sync_points_in_wait_list, sync_point_wait_list,
                    sync_point, mutable_handle,
                    [&](CommandBuffer *B, CommandWork &) {
                      return noImage(B, src_image, "src_image");
                    });
}

cl_int CL_API_CALL khr::clCommandCopyImageToBufferKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const CommandProperties *properties, cl_mem src_image, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *region, size_t dst_offset,
    cl_uint num_sync_points_in_wait_list,
    const cl_sync_point_khr *sync_point_wait_list,
    cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle) {
  return recordCall(__func__, command_buffer, command_queue, properties,
                    num_sync_points_in_wait_list, sync_point_wait_list,
                    sync_point, mutable_handle,
                    [&](CommandBuffer *B, CommandWork &) {
                      return noImage(B, src_image, "src_image");
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
                    [&](CommandBuffer *B, CommandWork &) {
                      return noImage(B, image, "image");
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
  return recordCall(
      __func__, command_buffer, command_queue, properties,
      num_sync_points_in_wait_list, sync_point_wait_list, sync_point,
      mutable_handle, [&](CommandBuffer *B, CommandWork &Work) -> cl_int {
        // Recording packs the arguments as they are now (the spec's snapshot
        // at record time), looks up the work-group function and plans the
        // work-groups: a replay only runs the launch.
        std::shared_ptr<KernelLaunch> L;
        if (cl_int Err =
                prepareNDRange(B->queue(), kernel, work_dim, global_work_offset,
                               global_work_size, local_work_size, L))
          return Err;
        if (L)
          Work = [L = std::move(L)] { return runLaunch(*L); };
        else
          Work = [] { return CL_SUCCESS; }; // an empty NDRange
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
