//===- runtime/api/ImageApi.cpp - image entry points ----------------------===//
//
// OpenCL 3.0 API spec, 5.3 "Image Objects". Images exist only while the
// device reports CL_DEVICE_IMAGE_SUPPORT (unless CLCPU_IMAGES=0,
// runtime/Config.def); without it creation fails with CL_INVALID_OPERATION
// and no handle is an image. Every command is a rectangle copy or fill on
// the image's host bytes (runtime/Image.h), run by the queue like the
// buffer commands.
//
//===----------------------------------------------------------------------===//

#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Error.h"
#include "runtime/Image.h"
#include "runtime/Mem.h"
#include "runtime/api/CommandWork.h"
#include "runtime/api/HandleCheck.h"

#include <array>
#include <cstring>

using namespace clcpu;

namespace {
/// clCreateImage and its siblings after their arguments are in one
/// descriptor: the context, image support and the property list.
cl_int createImage(cl_context context, const cl_mem_properties *properties,
                   cl_mem_flags flags, const cl_image_format *image_format,
                   const cl_image_desc *image_desc, void *host_ptr,
                   bool LegacyPitch, cl_mem &Out) {
  // CL_INVALID_CONTEXT if context is not a valid context.
  Context *C = Context::fromHandle(context);
  if (!C)
    return fail(CL_INVALID_CONTEXT, "context is not a valid context");
  // CL_INVALID_OPERATION if there are no devices in context that support
  // images (i.e. CL_DEVICE_IMAGE_SUPPORT specified in the Device Queries
  // table is CL_FALSE).
  if (!C->anyDeviceSupports(CL_DEVICE_IMAGE_SUPPORT))
    return fail(CL_INVALID_OPERATION,
                "there are no devices in context that support images "
                "(CLCPU_IMAGES=0 turns them off)",
                C);
  std::vector<cl_mem_properties> Props;
  if (properties) {
    // CL_INVALID_PROPERTY if a property name in properties is not a
    // supported property name ("OpenCL does not define any optional
    // properties for images").
    if (properties[0] != 0)
      return fail(CL_INVALID_PROPERTY,
                  "unsupported image property " + std::to_string(properties[0]),
                  C);
    Props.push_back(0);
  }
  Mem *M = nullptr;
  if (cl_int Err = Mem::createImage(C, flags, image_format, image_desc,
                                    host_ptr, std::move(Props), LegacyPitch, M))
    return Err;
  Out = M->handle();
  return CL_SUCCESS;
}

/// \p M is the image behind \p H (the argument \p What) of context \p C.
cl_int imageIn(Context *C, cl_mem H, const char *What, Mem *&M) {
  // CL_INVALID_MEM_OBJECT if image is not a valid image object.
  M = Mem::fromHandle(H);
  if (!M || !M->isImage())
    return fail(CL_INVALID_MEM_OBJECT,
                std::string(What) + (M ? " is a buffer, not an image object"
                                       : " is not a valid image object"),
                C);
  // CL_INVALID_CONTEXT if the context associated with command_queue and
  // image are not the same.
  if (M->context() != C)
    return fail(CL_INVALID_CONTEXT,
                std::string(What) +
                    " belongs to another context than the command's",
                C);
  return CL_SUCCESS;
}

/// \p M is the buffer behind \p H (the argument \p What) of context \p C.
cl_int bufferIn(Context *C, cl_mem H, const char *What, Mem *&M) {
  // CL_INVALID_MEM_OBJECT if dst_buffer (src_buffer) is not a valid buffer
  // object.
  M = Mem::fromHandle(H);
  if (!M || M->isImage())
    return fail(CL_INVALID_MEM_OBJECT,
                std::string(What) + (M ? " is an image, not a buffer object"
                                       : " is not a valid buffer object"),
                C);
  // CL_INVALID_CONTEXT if the context associated with command_queue and
  // dst_buffer (src_buffer) are not the same.
  if (M->context() != C)
    return fail(CL_INVALID_CONTEXT,
                std::string(What) +
                    " belongs to another context than the command's",
                C);
  return CL_SUCCESS;
}

char *bytes(const MemRef &R) { return static_cast<char *>(R->data()); }

cl_int imageInfo(const Mem *M, cl_image_info Param, InfoOut Out) {
  const ImageDesc &I = *M->image();
  switch (Param) {
  case CL_IMAGE_FORMAT:
    return Out.value<cl_image_format>(I.Format);
  case CL_IMAGE_ELEMENT_SIZE:
    return Out.value<size_t>(I.ElementSize);
  case CL_IMAGE_ROW_PITCH:
    return Out.value<size_t>(I.RowPitch);
  case CL_IMAGE_SLICE_PITCH: {
    // "For a 1D image, 1D image buffer and 2D image object return 0."
    bool Flat = I.Type == CL_MEM_OBJECT_IMAGE1D ||
                I.Type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
                I.Type == CL_MEM_OBJECT_IMAGE2D;
    return Out.value<size_t>(Flat ? 0 : I.SlicePitch);
  }
  case CL_IMAGE_WIDTH:
    return Out.value<size_t>(I.Width);
  case CL_IMAGE_HEIGHT:
    return Out.value<size_t>(I.Height);
  case CL_IMAGE_DEPTH:
    return Out.value<size_t>(I.Depth);
  case CL_IMAGE_ARRAY_SIZE:
    return Out.value<size_t>(I.ArraySize);
  case CL_IMAGE_BUFFER:
    return Out.value<cl_mem>(I.Buffer);
  case CL_IMAGE_NUM_MIP_LEVELS:
  case CL_IMAGE_NUM_SAMPLES:
    return Out.value<cl_uint>(0);
  default:
    return unknownParam(Param, M->context());
  }
}

/// clEnqueueReadImage (\p ToHost: from the image to \p Ptr) and
/// clEnqueueWriteImage (from \p Ptr, which is then only read).
cl_int enqueueImageTransfer(cl_command_queue Queue, cl_mem Image, bool ToHost,
                            cl_bool Blocking, const size_t *Origin,
                            const size_t *Region, size_t RowPitch,
                            size_t SlicePitch, const void *Ptr,
                            cl_uint NumEvents, const cl_event *WaitList,
                            cl_event *Event) {
  CommandQueue *Q;
  if (cl_int Err = checkQueue(Queue, Q))
    return Err;
  Context *C = Q->context();
  Mem *M;
  if (cl_int Err = imageIn(C, Image, "image", M))
    return Err;
  const ImageDesc &I = *M->image();
  if (cl_int Err = checkImageRegion(I, Origin, Region, "origin", C))
    return Err;
  // CL_INVALID_VALUE if ptr is NULL.
  if (!Ptr)
    return fail(CL_INVALID_VALUE, "ptr is NULL", C);
  RectSide Host;
  if (cl_int Err =
          linearSide(I, Region, RowPitch, SlicePitch,
                     ToHost ? "row_pitch" : "input_row_pitch",
                     ToHost ? "slice_pitch" : "input_slice_pitch", Host, C))
    return Err;
  std::array<size_t, 3> Reg = byteRegion(I, Region);
  // The host side has no size to check against, but its extent must be an
  // address range: pitches that wrap around are refused, not copied to
  // wherever they wrap to.
  CheckedSize HostEnd = Host.extent(Reg.data());
  if (!HostEnd.valid() || hostRangeWraps(Ptr, HostEnd.value()))
    return fail(CL_INVALID_VALUE,
                "(region, row pitch, slice pitch) of ptr overflows the "
                "address space",
                C);
  // CL_INVALID_OPERATION if clEnqueueReadImage is called on image which has
  // been created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS. / if
  // clEnqueueWriteImage is called on image which has been created with
  // CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS.
  if (ToHost && !M->hostMayRead())
    return fail(CL_INVALID_OPERATION,
                "image was created with CL_MEM_HOST_WRITE_ONLY or "
                "CL_MEM_HOST_NO_ACCESS",
                C);
  if (!ToHost && !M->hostMayWrite())
    return fail(CL_INVALID_OPERATION,
                "image was created with CL_MEM_HOST_READ_ONLY or "
                "CL_MEM_HOST_NO_ACCESS",
                C);
  RectSide Img = I.side(Origin);
  char *HostPtr = static_cast<char *>(const_cast<void *>(Ptr));
  return Q->enqueue(
      ToHost ? CL_COMMAND_READ_IMAGE : CL_COMMAND_WRITE_IMAGE, NumEvents,
      WaitList, Event, Blocking,
      [R = MemRef(M), ToHost, Img, Host, Reg, HostPtr]() -> cl_int {
        if (ToHost)
          copyRect(HostPtr, Host, bytes(R), Img, Reg.data());
        else
          copyRect(bytes(R), Img, HostPtr, Host, Reg.data());
        return CL_SUCCESS;
      });
}
} // namespace

//===----------------------------------------------------------------------===//
// Creation and queries (5.3.1, 5.3.7).
//===----------------------------------------------------------------------===//

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(
    cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
    const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret) {
  return apiCreate<cl_mem>(__func__, errcode_ret, [&](cl_mem &Out) {
    return createImage(context, nullptr, flags, image_format, image_desc,
                       host_ptr, false, Out);
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(
    cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
    const cl_image_format *image_format, const cl_image_desc *image_desc,
    void *host_ptr, cl_int *errcode_ret) {
  return apiCreate<cl_mem>(__func__, errcode_ret, [&](cl_mem &Out) {
    return createImage(context, properties, flags, image_format, image_desc,
                       host_ptr, false, Out);
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(
    cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
    size_t image_width, size_t image_height, size_t image_row_pitch,
    void *host_ptr, cl_int *errcode_ret) {
  return apiCreate<cl_mem>(__func__, errcode_ret, [&](cl_mem &Out) {
    cl_image_desc D{};
    D.image_type = CL_MEM_OBJECT_IMAGE2D;
    D.image_width = image_width;
    D.image_height = image_height;
    D.image_row_pitch = image_row_pitch;
    return createImage(context, nullptr, flags, image_format, &D, host_ptr,
                       true, Out);
  });
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateImage3D(cl_context context, cl_mem_flags flags,
                const cl_image_format *image_format, size_t image_width,
                size_t image_height, size_t image_depth, size_t image_row_pitch,
                size_t image_slice_pitch, void *host_ptr, cl_int *errcode_ret) {
  return apiCreate<cl_mem>(__func__, errcode_ret, [&](cl_mem &Out) {
    // CL_INVALID_IMAGE_SIZE if ... image_depth <= 1. (After the context and
    // image support checks, which come first.)
    Context *C = Context::fromHandle(context);
    if (C && C->anyDeviceSupports(CL_DEVICE_IMAGE_SUPPORT) && image_depth <= 1)
      return fail(CL_INVALID_IMAGE_SIZE,
                  "image_depth must be greater than 1 for clCreateImage3D", C);
    cl_image_desc D{};
    D.image_type = CL_MEM_OBJECT_IMAGE3D;
    D.image_width = image_width;
    D.image_height = image_height;
    D.image_depth = image_depth;
    D.image_row_pitch = image_row_pitch;
    D.image_slice_pitch = image_slice_pitch;
    return createImage(context, nullptr, flags, image_format, &D, host_ptr,
                       true, Out);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem image,
                                               cl_image_info param_name,
                                               size_t param_value_size,
                                               void *param_value,
                                               size_t *param_value_size_ret) {
  return apiCall(__func__, [&] {
    // CL_INVALID_MEM_OBJECT if image is a not a valid image object.
    Mem *M = Mem::fromHandle(image);
    if (!M || !M->isImage())
      return fail(CL_INVALID_MEM_OBJECT,
                  M ? "image is a buffer, not an image object"
                    : "image is not a valid image object",
                  M ? M->context() : nullptr);
    return imageInfo(
        M, param_name,
        InfoOut(param_value_size, param_value, param_value_size_ret));
  });
}

//===----------------------------------------------------------------------===//
// Commands (5.3.3 - 5.3.6).
//===----------------------------------------------------------------------===//

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(
    cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
    const size_t *origin, const size_t *region, size_t row_pitch,
    size_t slice_pitch, void *ptr, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return apiCall(__func__, [&] {
    return enqueueImageTransfer(command_queue, image, /*ToHost=*/true,
                                blocking_read, origin, region, row_pitch,
                                slice_pitch, ptr, num_events_in_wait_list,
                                event_wait_list, event);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(
    cl_command_queue command_queue, cl_mem image, cl_bool blocking_write,
    const size_t *origin, const size_t *region, size_t input_row_pitch,
    size_t input_slice_pitch, const void *ptr, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return apiCall(__func__, [&] {
    return enqueueImageTransfer(command_queue, image, /*ToHost=*/false,
                                blocking_write, origin, region, input_row_pitch,
                                input_slice_pitch, ptr, num_events_in_wait_list,
                                event_wait_list, event);
  });
}

cl_int clcpu::copyImageWork(Context *C, cl_mem src_image, cl_mem dst_image,
                            const size_t *src_origin, const size_t *dst_origin,
                            const size_t *region, CommandWork &Work) {
  Mem *S, *D;
  if (cl_int Err = imageIn(C, src_image, "src_image", S))
    return Err;
  if (cl_int Err = imageIn(C, dst_image, "dst_image", D))
    return Err;
  const ImageDesc &SI = *S->image(), &DI = *D->image();
  // CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the same
  // image format.
  if (SI.Format.image_channel_order != DI.Format.image_channel_order ||
      SI.Format.image_channel_data_type != DI.Format.image_channel_data_type)
    return fail(CL_IMAGE_FORMAT_MISMATCH,
                "src_image and dst_image do not use the same image format", C);
  // CL_INVALID_VALUE if src_origin, dst_origin or region is NULL, if the
  // region is outside either image, or if the values do not follow the
  // rules of the argument descriptions.
  if (cl_int Err = checkImageRegion(SI, src_origin, region, "src_origin", C))
    return Err;
  if (cl_int Err = checkImageRegion(DI, dst_origin, region, "dst_origin", C))
    return Err;
  RectSide Src = SI.side(src_origin), Dst = DI.side(dst_origin);
  std::array<size_t, 3> Reg = byteRegion(SI, region);
  // CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image object
  // and the source and destination regions overlap.
  if (S == D && rectsOverlap(static_cast<char *>(S->data()), Src,
                             static_cast<char *>(D->data()), Dst, Reg.data()))
    return fail(CL_MEM_COPY_OVERLAP, "source and destination regions overlap",
                C);
  Work = [SR = MemRef(S), DR = MemRef(D), Src, Dst, Reg]() -> cl_int {
    copyRect(bytes(DR), Dst, bytes(SR), Src, Reg.data());
    return CL_SUCCESS;
  };
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(
    cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event) {
  return queueCall(__func__, command_queue, [&](CommandQueue *Q) {
    CommandWork Work;
    if (cl_int Err = copyImageWork(Q->context(), src_image, dst_image,
                                   src_origin, dst_origin, region, Work))
      return Err;
    return Q->enqueue(CL_COMMAND_COPY_IMAGE, num_events_in_wait_list,
                      event_wait_list, event, false, std::move(Work));
  });
}

cl_int clcpu::copyImageToBufferWork(Context *C, cl_mem src_image,
                                    cl_mem dst_buffer, const size_t *src_origin,
                                    const size_t *region, size_t dst_offset,
                                    CommandWork &Work) {
  Mem *S, *D;
  if (cl_int Err = imageIn(C, src_image, "src_image", S))
    return Err;
  if (cl_int Err = bufferIn(C, dst_buffer, "dst_buffer", D))
    return Err;
  const ImageDesc &I = *S->image();
  // CL_INVALID_MEM_OBJECT if src_image is a 1D image buffer object created
  // from dst_buffer.
  if (I.Type == CL_MEM_OBJECT_IMAGE1D_BUFFER && I.Buffer == D->handle())
    return fail(CL_INVALID_MEM_OBJECT,
                "src_image is a 1D image buffer created from dst_buffer", C);
  if (cl_int Err = checkImageRegion(I, src_origin, region, "src_origin", C))
    return Err;
  // "The size in bytes of the region to be copied referred to as dst_cb is
  // computed as width x height x depth x bytes/image element" (per type):
  // the buffer side is tightly packed.
  RectSide Buf;
  linearSide(I, region, 0, 0, "", "", Buf, C);
  Buf.Origin[0] = dst_offset;
  std::array<size_t, 3> Reg = byteRegion(I, region);
  // CL_INVALID_VALUE if the region specified by dst_offset and the computed
  // dst_cb is out of bounds of dst_buffer.
  if (!Buf.extent(Reg.data()).fitsIn(D->size()))
    return fail(CL_INVALID_VALUE,
                "(dst_offset, dst_cb) is out of bounds of dst_buffer", C);
  RectSide Img = I.side(src_origin);
  Work = [SR = MemRef(S), DR = MemRef(D), Img, Buf, Reg]() -> cl_int {
    copyRect(bytes(DR), Buf, bytes(SR), Img, Reg.data());
    return CL_SUCCESS;
  };
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(
    cl_command_queue command_queue, cl_mem src_image, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *region, size_t dst_offset,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event) {
  return queueCall(__func__, command_queue, [&](CommandQueue *Q) {
    CommandWork Work;
    if (cl_int Err =
            copyImageToBufferWork(Q->context(), src_image, dst_buffer,
                                  src_origin, region, dst_offset, Work))
      return Err;
    return Q->enqueue(CL_COMMAND_COPY_IMAGE_TO_BUFFER, num_events_in_wait_list,
                      event_wait_list, event, false, std::move(Work));
  });
}

cl_int clcpu::copyBufferToImageWork(Context *C, cl_mem src_buffer,
                                    cl_mem dst_image, size_t src_offset,
                                    const size_t *dst_origin,
                                    const size_t *region, CommandWork &Work) {
  Mem *S, *D;
  if (cl_int Err = bufferIn(C, src_buffer, "src_buffer", S))
    return Err;
  if (cl_int Err = imageIn(C, dst_image, "dst_image", D))
    return Err;
  const ImageDesc &I = *D->image();
  // CL_INVALID_MEM_OBJECT if dst_image is a 1D image buffer object created
  // from src_buffer.
  if (I.Type == CL_MEM_OBJECT_IMAGE1D_BUFFER && I.Buffer == S->handle())
    return fail(CL_INVALID_MEM_OBJECT,
                "dst_image is a 1D image buffer created from src_buffer", C);
  if (cl_int Err = checkImageRegion(I, dst_origin, region, "dst_origin", C))
    return Err;
  RectSide Buf;
  linearSide(I, region, 0, 0, "", "", Buf, C);
  Buf.Origin[0] = src_offset;
  std::array<size_t, 3> Reg = byteRegion(I, region);
  // CL_INVALID_VALUE if the region specified by src_offset and the computed
  // src_cb is out of bounds of src_buffer.
  if (!Buf.extent(Reg.data()).fitsIn(S->size()))
    return fail(CL_INVALID_VALUE,
                "(src_offset, src_cb) is out of bounds of src_buffer", C);
  RectSide Img = I.side(dst_origin);
  Work = [SR = MemRef(S), DR = MemRef(D), Img, Buf, Reg]() -> cl_int {
    copyRect(bytes(DR), Img, bytes(SR), Buf, Reg.data());
    return CL_SUCCESS;
  };
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image,
    size_t src_offset, const size_t *dst_origin, const size_t *region,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event) {
  return queueCall(__func__, command_queue, [&](CommandQueue *Q) {
    CommandWork Work;
    if (cl_int Err =
            copyBufferToImageWork(Q->context(), src_buffer, dst_image,
                                  src_offset, dst_origin, region, Work))
      return Err;
    return Q->enqueue(CL_COMMAND_COPY_BUFFER_TO_IMAGE, num_events_in_wait_list,
                      event_wait_list, event, false, std::move(Work));
  });
}

cl_int clcpu::fillImageWork(Context *C, cl_mem image, const void *fill_color,
                            const size_t *origin, const size_t *region,
                            CommandWork &Work) {
  Mem *M;
  if (cl_int Err = imageIn(C, image, "image", M))
    return Err;
  const ImageDesc &I = *M->image();
  // CL_INVALID_VALUE if fill_color is NULL.
  if (!fill_color)
    return fail(CL_INVALID_VALUE, "fill_color is NULL", C);
  if (cl_int Err = checkImageRegion(I, origin, region, "origin", C))
    return Err;
  // "The fill color will be converted to the appropriate image channel
  // format and order associated with image" - now: fill_color may be
  // reused as soon as the call returns.
  std::array<unsigned char, 16> Pixel{};
  packFillColor(I.Format, fill_color, Pixel.data());
  RectSide Img = I.side(origin);
  std::array<size_t, 3> Reg = byteRegion(I, region);
  size_t ES = I.ElementSize;
  Work = [R = MemRef(M), Img, Reg, Pixel, ES]() -> cl_int {
    char *Base = bytes(R) + Img.start();
    for (size_t Z = 0; Z < Reg[2]; ++Z)
      for (size_t Y = 0; Y < Reg[1]; ++Y)
        fillPattern(Base + Z * Img.SlicePitch + Y * Img.RowPitch, Reg[0],
                    Pixel.data(), ES);
    return CL_SUCCESS;
  };
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(
    cl_command_queue command_queue, cl_mem image, const void *fill_color,
    const size_t *origin, const size_t *region, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return queueCall(__func__, command_queue, [&](CommandQueue *Q) {
    CommandWork Work;
    if (cl_int Err = fillImageWork(Q->context(), image, fill_color, origin,
                                   region, Work))
      return Err;
    return Q->enqueue(CL_COMMAND_FILL_IMAGE, num_events_in_wait_list,
                      event_wait_list, event, false, std::move(Work));
  });
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(
    cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
    cl_map_flags map_flags, const size_t *origin, const size_t *region,
    size_t *image_row_pitch, size_t *image_slice_pitch,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event, cl_int *errcode_ret) {
  return apiCreate<void *>(__func__, errcode_ret, [&](void *&Out) {
    CommandQueue *Q;
    if (cl_int Err = checkQueue(command_queue, Q))
      return Err;
    Context *C = Q->context();
    Mem *M;
    if (cl_int Err = imageIn(C, image, "image", M))
      return Err;
    const ImageDesc &I = *M->image();
    if (cl_int Err = checkImageRegion(I, origin, region, "origin", C))
      return Err;
    if (cl_int Err = checkMapFlags(map_flags, C))
      return Err;
    // CL_INVALID_VALUE if image_row_pitch is NULL. / if image is a 1D or 2D
    // image array object and image_slice_pitch is NULL. / if image is a 3D
    // and image_slice_pitch is NULL.
    if (!image_row_pitch)
      return fail(CL_INVALID_VALUE, "image_row_pitch is NULL", C);
    bool Layered = I.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                   I.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                   I.Type == CL_MEM_OBJECT_IMAGE3D;
    if (Layered && !image_slice_pitch)
      return fail(CL_INVALID_VALUE,
                  "image_slice_pitch is NULL for a 3D image or image array", C);
    // CL_INVALID_OPERATION if image has been created with
    // CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set
    // in map_flags or if image has been created with CL_MEM_HOST_READ_ONLY or
    // CL_MEM_HOST_NO_ACCESS and CL_MAP_WRITE or
    // CL_MAP_WRITE_INVALIDATE_REGION is set in map_flags.
    if ((map_flags & CL_MAP_READ) && !M->hostMayRead())
      return fail(CL_INVALID_OPERATION,
                  "CL_MAP_READ on an image the host may not read", C);
    if ((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
        !M->hostMayWrite())
      return fail(CL_INVALID_OPERATION,
                  "CL_MAP_WRITE on an image the host may not write", C);
    // Zero copy: the mapped region is the image's own bytes in its own
    // layout (for CL_MEM_USE_HOST_PTR, "derived from the host_ptr").
    RectSide Img = I.side(origin);
    std::array<size_t, 3> Reg = byteRegion(I, region);
    size_t Start = Img.start();
    void *P = M->map(Start, Img.extent(Reg.data()).value() - Start);
    cl_int Err = Q->enqueue(CL_COMMAND_MAP_IMAGE, num_events_in_wait_list,
                            event_wait_list, event, blocking_map,
                            [R = MemRef(M)]() -> cl_int { return CL_SUCCESS; });
    if (Err) {
      M->unmap(P);
      return Err;
    }
    *image_row_pitch = I.RowPitch;
    // "For a 1D and 2D image, zero is returned if this argument is not
    // NULL."
    if (image_slice_pitch)
      *image_slice_pitch = Layered ? I.SlicePitch : 0;
    Out = P;
    return CL_SUCCESS;
  });
}
