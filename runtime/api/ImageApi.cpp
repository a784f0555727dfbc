//===- runtime/api/ImageApi.cpp - image entry points ----------------------===//
//
// OpenCL 3.0 API spec, 5.3 "Image Objects". The device reports
// CL_DEVICE_IMAGE_SUPPORT = CL_FALSE, so no image object can ever exist:
// creation fails with CL_INVALID_OPERATION once the context is known valid,
// and every call that takes an image rejects its argument with
// CL_INVALID_MEM_OBJECT (after the command-queue check for enqueues).
//
//===----------------------------------------------------------------------===//

#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Error.h"
#include "runtime/Mem.h"

using namespace clcpu;

namespace {
/// The checks clCreateImage, clCreateImageWithProperties, clCreateImage2D and
/// clCreateImage3D share on a device without images.
cl_int createImage(cl_context context) {
  // CL_INVALID_CONTEXT if context is not a valid context.
  Context *C = Context::fromHandle(context);
  if (!C)
    return fail(CL_INVALID_CONTEXT, "context is not a valid context");
  // CL_INVALID_OPERATION if there are no devices in context that support
  // images (i.e. CL_DEVICE_IMAGE_SUPPORT specified in the Device Queries
  // table is CL_FALSE).
  if (!C->anyDeviceSupports(CL_DEVICE_IMAGE_SUPPORT))
    return fail(CL_INVALID_OPERATION,
                "there are no devices in context that support images", C);
  return fail(CL_INVALID_OPERATION, "images are not implemented", C);
}

/// The checks every image command starts with: a valid queue, then \p Image
/// (named \p Name in the reason), which cannot be a valid image object.
cl_int imageCommand(cl_command_queue command_queue, cl_mem Image,
                    const char *Name) {
  // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
  // command-queue.
  CommandQueue *Q = CommandQueue::fromHandle(command_queue);
  if (!Q)
    return fail(CL_INVALID_COMMAND_QUEUE,
                "command_queue is not a valid host command-queue");
  // CL_INVALID_MEM_OBJECT if image is not a valid image object.
  // (Every valid memory object is a buffer: no device supports images.)
  return fail(CL_INVALID_MEM_OBJECT,
              std::string(Name) + (Mem::fromHandle(Image)
                                       ? " is a buffer, not an image object"
                                       : " is not a valid image object"),
              Q->context());
}

/// apiCall of imageCommand for the image commands that return an error code
/// (the entry point \p Name).
cl_int imageCall(const char *Name, cl_command_queue command_queue, cl_mem Image,
                 const char *ImageName) {
  return apiCall(Name,
                 [&] { return imageCommand(command_queue, Image, ImageName); });
}
} // namespace

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(
    cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
    const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret) {
  return apiCreate<cl_mem>(__func__, errcode_ret,
                           [&](cl_mem &) { return createImage(context); });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(
    cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
    const cl_image_format *image_format, const cl_image_desc *image_desc,
    void *host_ptr, cl_int *errcode_ret) {
  return apiCreate<cl_mem>(__func__, errcode_ret,
                           [&](cl_mem &) { return createImage(context); });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(
    cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
    size_t image_width, size_t image_height, size_t image_row_pitch,
    void *host_ptr, cl_int *errcode_ret) {
  return apiCreate<cl_mem>(__func__, errcode_ret,
                           [&](cl_mem &) { return createImage(context); });
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateImage3D(cl_context context, cl_mem_flags flags,
                const cl_image_format *image_format, size_t image_width,
                size_t image_height, size_t image_depth, size_t image_row_pitch,
                size_t image_slice_pitch, void *host_ptr, cl_int *errcode_ret) {
  return apiCreate<cl_mem>(__func__, errcode_ret,
                           [&](cl_mem &) { return createImage(context); });
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem image,
                                               cl_image_info param_name,
                                               size_t param_value_size,
                                               void *param_value,
                                               size_t *param_value_size_ret) {
  return apiCall(__func__, [&] {
    // CL_INVALID_MEM_OBJECT if image is a not a valid image object.
    Mem *M = Mem::fromHandle(image);
    return fail(CL_INVALID_MEM_OBJECT,
                M ? "image is a buffer, not an image object"
                  : "image is not a valid image object",
                M ? M->context() : nullptr);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(
    cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
    const size_t *origin, const size_t *region, size_t row_pitch,
    size_t slice_pitch, void *ptr, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return imageCall(__func__, command_queue, image, "image");
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(
    cl_command_queue command_queue, cl_mem image, cl_bool blocking_write,
    const size_t *origin, const size_t *region, size_t input_row_pitch,
    size_t input_slice_pitch, const void *ptr, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return imageCall(__func__, command_queue, image, "image");
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(
    cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event) {
  // CL_INVALID_MEM_OBJECT if src_image is not a valid image object or
  // dst_image is not a valid image object.
  return imageCall(__func__, command_queue, src_image, "src_image");
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(
    cl_command_queue command_queue, cl_mem src_image, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *region, size_t dst_offset,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event) {
  // CL_INVALID_MEM_OBJECT if src_image is not a valid image object or
  // dst_buffer is not a valid buffer object or if src_image is a 1D image
  // buffer object created from dst_buffer.
  return imageCall(__func__, command_queue, src_image, "src_image");
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image,
    size_t src_offset, const size_t *dst_origin, const size_t *region,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event) {
  // CL_INVALID_MEM_OBJECT if src_buffer is not a valid buffer object or
  // dst_image is not a valid image object or if dst_image is a 1D image
  // buffer object created from src_buffer.
  return imageCall(__func__, command_queue, dst_image, "dst_image");
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(
    cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
    cl_map_flags map_flags, const size_t *origin, const size_t *region,
    size_t *image_row_pitch, size_t *image_slice_pitch,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event, cl_int *errcode_ret) {
  return apiCreate<void *>(__func__, errcode_ret, [&](void *&) {
    return imageCommand(command_queue, image, "image");
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(
    cl_command_queue command_queue, cl_mem image, const void *fill_color,
    const size_t *origin, const size_t *region, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return imageCall(__func__, command_queue, image, "image");
}
