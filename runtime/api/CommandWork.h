#ifndef CLCPU_RUNTIME_API_COMMANDWORK_H
#define CLCPU_RUNTIME_API_COMMANDWORK_H

// The commands a command-queue runs at once and a command-buffer records
// (cl_khr_command_buffer): each function checks the arguments after the
// command-queue (the errors the clEnqueue* entry point defines, its spec
// sentences at each check) and returns the command's work. clEnqueue*
// hands the work to its queue, clCommand*KHR appends it to a
// command-buffer, so both share one validation. \p C is the context the
// memory objects must belong to: the queue's or the command-buffer's.

#include "runtime/Kernel.h"

#include <functional>
#include <memory>

namespace clcpu {

class CommandQueue;
class Context;

using CommandWork = std::function<cl_int()>;

/// clEnqueueCopyBuffer after the queue check (runtime/api/MemApi.cpp).
cl_int copyBufferWork(Context *C, cl_mem src_buffer, cl_mem dst_buffer,
                      size_t src_offset, size_t dst_offset, size_t size,
                      CommandWork &Work);
/// clEnqueueCopyBufferRect after the queue check.
cl_int copyBufferRectWork(Context *C, cl_mem src_buffer, cl_mem dst_buffer,
                          const size_t *src_origin, const size_t *dst_origin,
                          const size_t *region, size_t src_row_pitch,
                          size_t src_slice_pitch, size_t dst_row_pitch,
                          size_t dst_slice_pitch, CommandWork &Work);
/// clEnqueueFillBuffer after the queue check.
cl_int fillBufferWork(Context *C, cl_mem buffer, const void *pattern,
                      size_t pattern_size, size_t offset, size_t size,
                      CommandWork &Work);
/// clEnqueueCopyImage after the queue check (runtime/api/ImageApi.cpp).
cl_int copyImageWork(Context *C, cl_mem src_image, cl_mem dst_image,
                     const size_t *src_origin, const size_t *dst_origin,
                     const size_t *region, CommandWork &Work);
/// clEnqueueCopyImageToBuffer after the queue check.
cl_int copyImageToBufferWork(Context *C, cl_mem src_image, cl_mem dst_buffer,
                             const size_t *src_origin, const size_t *region,
                             size_t dst_offset, CommandWork &Work);
/// clEnqueueCopyBufferToImage after the queue check.
cl_int copyBufferToImageWork(Context *C, cl_mem src_buffer, cl_mem dst_image,
                             size_t src_offset, const size_t *dst_origin,
                             const size_t *region, CommandWork &Work);
/// clEnqueueFillImage after the queue check.
cl_int fillImageWork(Context *C, cl_mem image, const void *fill_color,
                     const size_t *origin, const size_t *region,
                     CommandWork &Work);
/// clEnqueueSVMMemcpy after the queue check (runtime/api/SvmApi.cpp).
cl_int svmMemcpyWork(Context *C, void *dst_ptr, const void *src_ptr,
                     size_t size, CommandWork &Work);
/// clEnqueueSVMMemFill after the queue check.
cl_int svmMemFillWork(Context *C, void *svm_ptr, const void *pattern,
                      size_t pattern_size, size_t size, CommandWork &Work);
/// clEnqueueNDRangeKernel after the queue check (runtime/api/KernelApi.cpp),
/// for the device and executor of \p Q: the kernel and its arguments, the
/// sizes, the local size and the work-group plan. \p L is the launch with
/// the arguments packed now, or null for an empty NDRange (a command that
/// does nothing); it goes to Kernel::enqueue, which references its code
/// through \p Q (Kernel::CodeRef::ByQueue).
cl_int prepareNDRange(CommandQueue *Q, cl_kernel kernel, cl_uint work_dim,
                      const size_t *global_work_offset,
                      const size_t *global_work_size,
                      const size_t *local_work_size,
                      std::shared_ptr<KernelLaunch> &L);
/// The parts of prepareNDRange a mutable-dispatch (runtime/MutableCommand.h)
/// runs apart: the checks of the kernel (\p K; its arguments unless
/// \p ArgsLater) and work_dim ...
cl_int checkNDRangeKernel(CommandQueue *Q, cl_kernel kernel, cl_uint work_dim,
                          bool ArgsLater, Kernel *&K);
/// ... and those of the sizes with the work-group plan \p R, at recording
/// and at every update. \p Empty: the NDRange has no work-item (\p R is
/// not filled in).
cl_int planNDRange(CommandQueue *Q, Kernel *K, cl_uint work_dim,
                   const size_t *global_work_offset,
                   const size_t *global_work_size,
                   const size_t *local_work_size, LaunchDescription &R,
                   bool &Empty);

} // namespace clcpu

#endif
