//===- runtime/api/MemApi.cpp - buffer entry points -----------------------===//
//
// OpenCL 3.0 API spec 5.2 "Buffer Objects" and 5.5 "Memory Objects".

#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/Mem.h"
#include "runtime/api/CommandWork.h"
#include "runtime/api/HandleCheck.h"

#include <array>
#include <cstring>

using namespace clcpu;

namespace {
/// CL_INVALID_MEM_OBJECT if memobj is not a valid memory object.
constexpr HandleCheck MemCheck{CL_INVALID_MEM_OBJECT, "memobj",
                               "memobj is not a valid memory object"};

cl_int createBuffer(cl_context context, const cl_mem_properties *properties,
                    cl_mem_flags flags, size_t size, void *host_ptr,
                    cl_mem &Out) {
  // CL_INVALID_CONTEXT if context is not a valid context.
  Context *C = Context::fromHandle(context);
  if (!C)
    return fail(CL_INVALID_CONTEXT, "context is not a valid context");
  std::vector<cl_mem_properties> Props;
  if (properties) {
    // CL_INVALID_PROPERTY if a property name in properties is not a supported
    // property name (no buffer properties are supported).
    if (properties[0] != 0)
      return fail(
          CL_INVALID_PROPERTY,
          "unsupported buffer property " + std::to_string(properties[0]), C);
    Props.push_back(0);
  }
  Mem *M = nullptr;
  if (cl_int Err =
          Mem::createBuffer(C, flags, size, host_ptr, std::move(Props), M))
    return Err;
  Out = M->handle();
  return CL_SUCCESS;
}
} // namespace

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context context,
                                               cl_mem_flags flags, size_t size,
                                               void *host_ptr,
                                               cl_int *errcode_ret) {
  return apiCreate<cl_mem>(__func__, errcode_ret, [&](cl_mem &Out) {
    return createBuffer(context, nullptr, flags, size, host_ptr, Out);
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(
    cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
    size_t size, void *host_ptr, cl_int *errcode_ret) {
  return apiCreate<cl_mem>(__func__, errcode_ret, [&](cl_mem &Out) {
    return createBuffer(context, properties, flags, size, host_ptr, Out);
  });
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(
    cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type buffer_create_type,
    const void *buffer_create_info, cl_int *errcode_ret) {
  return apiCreate<cl_mem>(__func__, errcode_ret, [&](cl_mem &Out) {
    // CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object or is a
    // sub-buffer object.
    Mem *M = Mem::fromHandle(buffer);
    if (!M)
      return fail(CL_INVALID_MEM_OBJECT, "buffer is not a valid buffer");
    if (M->isImage())
      return fail(CL_INVALID_MEM_OBJECT, "buffer is an image", M->context());
    if (M->isSubBuffer())
      return fail(CL_INVALID_MEM_OBJECT, "buffer is a sub-buffer",
                  M->context());
    if (M->isPipe())
      return fail(CL_INVALID_MEM_OBJECT, "buffer is a pipe", M->context());
    // CL_INVALID_VALUE if the value specified in buffer_create_type is not
    // valid.
    if (buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION)
      return fail(CL_INVALID_VALUE,
                  "buffer_create_type is not CL_BUFFER_CREATE_TYPE_REGION",
                  M->context());
    // CL_INVALID_VALUE if value(s) specified in buffer_create_info (for a
    // given buffer_create_type) is not valid or if buffer_create_info is NULL.
    if (!buffer_create_info)
      return fail(CL_INVALID_VALUE, "buffer_create_info is NULL", M->context());
    Mem *Sub = nullptr;
    if (cl_int Err = M->createSubBuffer(
            flags, *static_cast<const cl_buffer_region *>(buffer_create_info),
            Sub))
      return Err;
    Out = Sub->handle();
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  return retainCall<Mem>(__func__, memobj, MemCheck);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  return releaseCall<Mem>(__func__, memobj, MemCheck);
}

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(
    cl_mem memobj,
    void(CL_CALLBACK *pfn_notify)(cl_mem memobj, void *user_data),
    void *user_data) {
  return objectCall<Mem>(__func__, memobj, MemCheck, [&](Mem *M) {
    // CL_INVALID_VALUE if pfn_notify is NULL.
    if (!pfn_notify)
      return fail(CL_INVALID_VALUE, "pfn_notify is NULL", M->context());
    M->addDestructorCallback(pfn_notify, user_data);
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(
    cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
    void *param_value, size_t *param_value_size_ret) {
  return objectCall<Mem>(__func__, memobj, MemCheck, [&](Mem *M) {
    return M->getInfo(param_name, InfoOut(param_value_size, param_value,
                                          param_value_size_ret));
  });
}

//===----------------------------------------------------------------------===//
// Buffer commands (5.2.2 - 5.2.4, 5.5.3 - 5.5.4).
//===----------------------------------------------------------------------===//

namespace {
/// \p M is the buffer behind \p Buffer (the argument \p What), of context
/// \p C; an image too if \p AnyMem (clEnqueueUnmapMemObject's memobj).
cl_int bufferIn(Context *C, cl_mem Buffer, const char *What, Mem *&M,
                bool AnyMem = false) {
  // CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object.
  M = Mem::fromHandle(Buffer);
  if (!M)
    return fail(CL_INVALID_MEM_OBJECT,
                std::string(What) + " is not a valid buffer object", C);
  if (M->isImage() && !AnyMem)
    return fail(CL_INVALID_MEM_OBJECT,
                std::string(What) + " is an image, not a buffer object", C);
  if (M->isPipe())
    return fail(CL_INVALID_MEM_OBJECT,
                std::string(What) + " is a pipe, not a buffer object", C);
  // CL_INVALID_CONTEXT if the context associated with command_queue and
  // buffer are not the same.
  if (M->context() != C)
    return fail(CL_INVALID_CONTEXT,
                std::string(What) +
                    " belongs to another context than the command's",
                C);
  return CL_SUCCESS;
}

/// The checks every buffer command starts with: a valid queue, a valid buffer
/// (\p What names the argument), the same context.
cl_int queueAndBuffer(cl_command_queue Queue, cl_mem Buffer, const char *What,
                      CommandQueue *&Q, Mem *&M, bool AnyMem = false) {
  if (cl_int Err = checkQueue(Queue, Q))
    return Err;
  return bufferIn(Q->context(), Buffer, What, M, AnyMem);
}

bool outOfBounds(const Mem *M, size_t Offset, size_t Size) {
  return Offset > M->size() || Size > M->size() - Offset;
}

char *bytes(const MemRef &R) { return static_cast<char *>(R->data()); }

/// clEnqueueReadBuffer / clEnqueueWriteBuffer: the buffer range and the
/// host range of a transfer.
cl_int checkTransfer(CommandQueue *Q, const Mem *M, size_t Offset, size_t Size,
                     const void *Ptr) {
  // CL_INVALID_VALUE if the region being read or written specified by
  // (offset, size) is out of bounds or if ptr is a NULL value.
  if (!Ptr)
    return fail(CL_INVALID_VALUE, "ptr is NULL", Q->context());
  // The host range must be an address range: [ptr, ptr + size) that
  // wraps around the address space is no memory of the application's.
  if (hostRangeWraps(Ptr, Size))
    return fail(CL_INVALID_VALUE, "ptr + size wraps around the address space",
                Q->context());
  if (outOfBounds(M, Offset, Size))
    return fail(CL_INVALID_VALUE, "(offset, size) is out of bounds",
                Q->context());
  return CL_SUCCESS;
}

/// clEnqueueRead/WriteBuffer[Rect]: may the host read (\p ToHost) or write
/// the buffer.
cl_int checkHostAccess(CommandQueue *Q, const Mem *M, bool ToHost) {
  // CL_INVALID_OPERATION if clEnqueueReadBuffer (clEnqueueReadBufferRect) is
  // called on buffer which has been created with CL_MEM_HOST_WRITE_ONLY or
  // CL_MEM_HOST_NO_ACCESS.
  if (ToHost && !M->hostMayRead())
    return fail(CL_INVALID_OPERATION,
                "buffer was created with CL_MEM_HOST_WRITE_ONLY or "
                "CL_MEM_HOST_NO_ACCESS",
                Q->context());
  // CL_INVALID_OPERATION if clEnqueueWriteBuffer (clEnqueueWriteBufferRect)
  // is called on buffer which has been created with CL_MEM_HOST_READ_ONLY or
  // CL_MEM_HOST_NO_ACCESS.
  if (!ToHost && !M->hostMayWrite())
    return fail(CL_INVALID_OPERATION,
                "buffer was created with CL_MEM_HOST_READ_ONLY or "
                "CL_MEM_HOST_NO_ACCESS",
                Q->context());
  return CL_SUCCESS;
}

/// clEnqueueReadBuffer (\p ToHost: from the buffer to \p Ptr) and
/// clEnqueueWriteBuffer (from \p Ptr, which is then only read).
cl_int enqueueTransfer(cl_command_queue Queue, cl_mem Buffer, bool ToHost,
                       cl_bool Blocking, size_t Offset, size_t Size,
                       const void *Ptr, cl_uint NumEvents,
                       const cl_event *WaitList, cl_event *Event) {
  CommandQueue *Q;
  Mem *M;
  if (cl_int Err = queueAndBuffer(Queue, Buffer, "buffer", Q, M))
    return Err;
  if (cl_int Err = checkTransfer(Q, M, Offset, Size, Ptr))
    return Err;
  if (cl_int Err = checkHostAccess(Q, M, ToHost))
    return Err;
  char *Host = static_cast<char *>(const_cast<void *>(Ptr));
  return Q->enqueue(ToHost ? CL_COMMAND_READ_BUFFER : CL_COMMAND_WRITE_BUFFER,
                    NumEvents, WaitList, Event, Blocking,
                    [R = MemRef(M), ToHost, Offset, Size, Host]() -> cl_int {
                      char *Buf = bytes(R) + Offset;
                      std::memmove(ToHost ? Host : Buf, ToHost ? Buf : Host,
                                   Size);
                      return CL_SUCCESS;
                    });
}
} // namespace

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
    size_t offset, size_t size, void *ptr, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return apiCall(__func__, [&] {
    return enqueueTransfer(command_queue, buffer, /*ToHost=*/true,
                           blocking_read, offset, size, ptr,
                           num_events_in_wait_list, event_wait_list, event);
  });
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                     cl_bool blocking_write, size_t offset, size_t size,
                     const void *ptr, cl_uint num_events_in_wait_list,
                     const cl_event *event_wait_list, cl_event *event) {
  return apiCall(__func__, [&] {
    return enqueueTransfer(command_queue, buffer, /*ToHost=*/false,
                           blocking_write, offset, size, ptr,
                           num_events_in_wait_list, event_wait_list, event);
  });
}

namespace {
/// The checks of clEnqueueReadBufferRect / clEnqueueWriteBufferRect.
cl_int checkHostRect(CommandQueue *Q, Mem *M, const size_t *buffer_origin,
                     const size_t *host_origin, const size_t *region,
                     const void *ptr, RectSide &Buf, RectSide &Host) {
  Context *C = Q->context();
  // CL_INVALID_VALUE if buffer_origin, host_origin, or region is NULL.
  if (!buffer_origin || !host_origin)
    return fail(CL_INVALID_VALUE, "buffer_origin or host_origin is NULL", C);
  // CL_INVALID_VALUE if any region array element is 0.
  if (cl_int Err = checkRegion(region, C))
    return Err;
  // CL_INVALID_VALUE if ptr is a NULL value.
  if (!ptr)
    return fail(CL_INVALID_VALUE, "ptr is NULL", C);
  std::memcpy(Buf.Origin, buffer_origin, sizeof Buf.Origin);
  std::memcpy(Host.Origin, host_origin, sizeof Host.Origin);
  if (cl_int Err = Buf.resolve(region, "buffer", C))
    return Err;
  if (cl_int Err = Host.resolve(region, "host", C))
    return Err;
  // CL_INVALID_VALUE if the region being read or written specified by
  // (buffer_origin, region, buffer_row_pitch, buffer_slice_pitch) is out of
  // bounds.
  if (!Buf.extent(region).fitsIn(M->size()))
    return fail(CL_INVALID_VALUE, "the buffer region is out of bounds", C);
  // The host side has no size to check against, but its extent must be an
  // address range: origins and pitches that wrap around are refused, not
  // copied to wherever they wrap to.
  CheckedSize HostEnd = Host.extent(region);
  if (!HostEnd.valid() || hostRangeWraps(ptr, HostEnd.value()))
    return fail(CL_INVALID_VALUE,
                "(host_origin, region, host_row_pitch, host_slice_pitch) "
                "overflows the address space",
                C);
  return CL_SUCCESS;
}

/// clEnqueueReadBufferRect (\p ToHost: from the buffer to \p Ptr) and
/// clEnqueueWriteBufferRect (from \p Ptr, which is then only read); \p Buf
/// and \p Host hold the application's pitches.
cl_int enqueueRectTransfer(cl_command_queue Queue, cl_mem Buffer, bool ToHost,
                           cl_bool Blocking, const size_t *BufferOrigin,
                           const size_t *HostOrigin, const size_t *Region,
                           RectSide Buf, RectSide Host, const void *Ptr,
                           cl_uint NumEvents, const cl_event *WaitList,
                           cl_event *Event) {
  CommandQueue *Q;
  Mem *M;
  if (cl_int Err = queueAndBuffer(Queue, Buffer, "buffer", Q, M))
    return Err;
  if (cl_int Err =
          checkHostRect(Q, M, BufferOrigin, HostOrigin, Region, Ptr, Buf, Host))
    return Err;
  if (cl_int Err = checkHostAccess(Q, M, ToHost))
    return Err;
  char *HostPtr = static_cast<char *>(const_cast<void *>(Ptr));
  std::array<size_t, 3> Reg{Region[0], Region[1], Region[2]};
  return Q->enqueue(
      ToHost ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT,
      NumEvents, WaitList, Event, Blocking,
      [R = MemRef(M), ToHost, Buf, Host, Reg, HostPtr]() -> cl_int {
        if (ToHost)
          copyRect(HostPtr, Host, bytes(R), Buf, Reg.data());
        else
          copyRect(bytes(R), Buf, HostPtr, Host, Reg.data());
        return CL_SUCCESS;
      });
}
} // namespace

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
    const size_t *buffer_origin, const size_t *host_origin,
    const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event) {
  return apiCall(__func__, [&] {
    return enqueueRectTransfer(
        command_queue, buffer, /*ToHost=*/true, blocking_read, buffer_origin,
        host_origin, region, {{}, buffer_row_pitch, buffer_slice_pitch},
        {{}, host_row_pitch, host_slice_pitch}, ptr, num_events_in_wait_list,
        event_wait_list, event);
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
    const size_t *buffer_origin, const size_t *host_origin,
    const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event) {
  return apiCall(__func__, [&] {
    return enqueueRectTransfer(
        command_queue, buffer, /*ToHost=*/false, blocking_write, buffer_origin,
        host_origin, region, {{}, buffer_row_pitch, buffer_slice_pitch},
        {{}, host_row_pitch, host_slice_pitch}, ptr, num_events_in_wait_list,
        event_wait_list, event);
  });
}

cl_int clcpu::copyBufferWork(Context *C, cl_mem src_buffer, cl_mem dst_buffer,
                             size_t src_offset, size_t dst_offset, size_t size,
                             CommandWork &Work) {
  Mem *S, *D;
  if (cl_int Err = bufferIn(C, src_buffer, "src_buffer", S))
    return Err;
  if (cl_int Err = bufferIn(C, dst_buffer, "dst_buffer", D))
    return Err;
  // CL_INVALID_VALUE if src_offset, dst_offset, size, src_offset + size or
  // dst_offset + size require accessing elements outside the src_buffer and
  // dst_buffer buffer objects respectively.
  if (outOfBounds(S, src_offset, size) || outOfBounds(D, dst_offset, size))
    return fail(CL_INVALID_VALUE, "the copy is out of bounds", C);
  // CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or
  // sub-buffer object and the source and destination regions overlap or if
  // src_buffer and dst_buffer are different sub-buffers of the same
  // associated buffer object and they overlap. (Checked on the bytes
  // themselves, which also covers a buffer and its own sub-buffer.)
  if (rangesOverlap(static_cast<char *>(S->data()) + src_offset,
                    static_cast<char *>(D->data()) + dst_offset, size))
    return fail(CL_MEM_COPY_OVERLAP, "source and destination regions overlap",
                C);
  Work = [SR = MemRef(S), DR = MemRef(D), src_offset, dst_offset,
          size]() -> cl_int {
    std::memmove(bytes(DR) + dst_offset, bytes(SR) + src_offset, size);
    return CL_SUCCESS;
  };
  return CL_SUCCESS;
}

cl_int clcpu::copyBufferRectWork(Context *C, cl_mem src_buffer,
                                 cl_mem dst_buffer, const size_t *src_origin,
                                 const size_t *dst_origin, const size_t *region,
                                 size_t src_row_pitch, size_t src_slice_pitch,
                                 size_t dst_row_pitch, size_t dst_slice_pitch,
                                 CommandWork &Work) {
  Mem *S, *D;
  if (cl_int Err = bufferIn(C, src_buffer, "src_buffer", S))
    return Err;
  if (cl_int Err = bufferIn(C, dst_buffer, "dst_buffer", D))
    return Err;
  // CL_INVALID_VALUE if src_origin, dst_origin, or region is NULL.
  if (!src_origin || !dst_origin)
    return fail(CL_INVALID_VALUE, "src_origin or dst_origin is NULL", C);
  // CL_INVALID_VALUE if any region array element is 0.
  if (cl_int Err = checkRegion(region, C))
    return Err;
  RectSide Src{{src_origin[0], src_origin[1], src_origin[2]},
               src_row_pitch,
               src_slice_pitch};
  RectSide Dst{{dst_origin[0], dst_origin[1], dst_origin[2]},
               dst_row_pitch,
               dst_slice_pitch};
  if (cl_int Err = Src.resolve(region, "src", C))
    return Err;
  if (cl_int Err = Dst.resolve(region, "dst", C))
    return Err;
  // CL_INVALID_VALUE if (src_origin, region, src_row_pitch,
  // src_slice_pitch) or (dst_origin, region, dst_row_pitch,
  // dst_slice_pitch) require accessing elements outside the src_buffer and
  // dst_buffer buffer objects respectively.
  if (!Src.extent(region).fitsIn(S->size()) ||
      !Dst.extent(region).fitsIn(D->size()))
    return fail(CL_INVALID_VALUE, "the copy is out of bounds", C);
  // CL_INVALID_VALUE if src_buffer and dst_buffer are the same buffer
  // object and src_slice_pitch is not equal to dst_slice_pitch and
  // src_row_pitch is not equal to dst_row_pitch.
  if (S == D && Src.SlicePitch != Dst.SlicePitch &&
      Src.RowPitch != Dst.RowPitch)
    return fail(CL_INVALID_VALUE,
                "same buffer with different row and slice pitches", C);
  // CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or
  // sub-buffer object and the source and destination regions overlap or if
  // src_buffer and dst_buffer are different sub-buffers of the same
  // associated buffer object and they overlap.
  if (rectsOverlap(static_cast<char *>(S->data()), Src,
                   static_cast<char *>(D->data()), Dst, region))
    return fail(CL_MEM_COPY_OVERLAP, "source and destination regions overlap",
                C);
  std::array<size_t, 3> Reg{region[0], region[1], region[2]};
  Work = [SR = MemRef(S), DR = MemRef(D), Src, Dst, Reg]() -> cl_int {
    copyRect(bytes(DR), Dst, bytes(SR), Src, Reg.data());
    return CL_SUCCESS;
  };
  return CL_SUCCESS;
}

cl_int clcpu::fillBufferWork(Context *C, cl_mem buffer, const void *pattern,
                             size_t pattern_size, size_t offset, size_t size,
                             CommandWork &Work) {
  Mem *M;
  if (cl_int Err = bufferIn(C, buffer, "buffer", M))
    return Err;
  // CL_INVALID_VALUE if offset or offset + size require accessing elements
  // outside the buffer buffer object respectively.
  if (outOfBounds(M, offset, size))
    return fail(CL_INVALID_VALUE, "(offset, size) is out of bounds", C);
  if (cl_int Err = checkFillPattern(pattern, pattern_size, C))
    return Err;
  // CL_INVALID_VALUE if offset and size are not a multiple of pattern_size.
  if (offset % pattern_size || size % pattern_size)
    return fail(CL_INVALID_VALUE,
                "offset or size is not a multiple of pattern_size", C);
  // "The memory associated with pattern can be reused or freed after the
  // function returns": copy it now.
  std::array<unsigned char, 128> Pat;
  std::memcpy(Pat.data(), pattern, pattern_size);
  Work = [R = MemRef(M), Pat, pattern_size, offset, size]() -> cl_int {
    fillPattern(bytes(R) + offset, size, Pat.data(), pattern_size);
    return CL_SUCCESS;
  };
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer,
                    cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                    size_t size, cl_uint num_events_in_wait_list,
                    const cl_event *event_wait_list, cl_event *event) {
  return queueCall(__func__, command_queue, [&](CommandQueue *Q) {
    CommandWork Work;
    if (cl_int Err = copyBufferWork(Q->context(), src_buffer, dst_buffer,
                                    src_offset, dst_offset, size, Work))
      return Err;
    return Q->enqueue(CL_COMMAND_COPY_BUFFER, num_events_in_wait_list,
                      event_wait_list, event, false, std::move(Work));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
    size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return queueCall(__func__, command_queue, [&](CommandQueue *Q) {
    CommandWork Work;
    if (cl_int Err = copyBufferRectWork(Q->context(), src_buffer, dst_buffer,
                                        src_origin, dst_origin, region,
                                        src_row_pitch, src_slice_pitch,
                                        dst_row_pitch, dst_slice_pitch, Work))
      return Err;
    return Q->enqueue(CL_COMMAND_COPY_BUFFER_RECT, num_events_in_wait_list,
                      event_wait_list, event, false, std::move(Work));
  });
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer,
                    const void *pattern, size_t pattern_size, size_t offset,
                    size_t size, cl_uint num_events_in_wait_list,
                    const cl_event *event_wait_list, cl_event *event) {
  return queueCall(__func__, command_queue, [&](CommandQueue *Q) {
    CommandWork Work;
    if (cl_int Err = fillBufferWork(Q->context(), buffer, pattern, pattern_size,
                                    offset, size, Work))
      return Err;
    return Q->enqueue(CL_COMMAND_FILL_BUFFER, num_events_in_wait_list,
                      event_wait_list, event, false, std::move(Work));
  });
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
    cl_map_flags map_flags, size_t offset, size_t size,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event, cl_int *errcode_ret) {
  return apiCreate<void *>(__func__, errcode_ret, [&](void *&Out) {
    CommandQueue *Q;
    Mem *M;
    if (cl_int Err = queueAndBuffer(command_queue, buffer, "buffer", Q, M))
      return Err;
    Context *C = Q->context();
    // CL_INVALID_VALUE if region being mapped given by (offset, size) is out
    // of bounds or if size is 0 or if values specified in map_flags are not
    // valid.
    if (size == 0)
      return fail(CL_INVALID_VALUE, "size is 0", C);
    if (outOfBounds(M, offset, size))
      return fail(CL_INVALID_VALUE, "(offset, size) is out of bounds", C);
    if (cl_int Err = checkMapFlags(map_flags, C))
      return Err;
    // CL_INVALID_OPERATION if buffer has been created with
    // CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set
    // in map_flags or if buffer has been created with CL_MEM_HOST_READ_ONLY or
    // CL_MEM_HOST_NO_ACCESS and CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION
    // is set in map_flags.
    if ((map_flags & CL_MAP_READ) && !M->hostMayRead())
      return fail(CL_INVALID_OPERATION,
                  "CL_MAP_READ on a buffer the host may not read", C);
    if ((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
        !M->hostMayWrite())
      return fail(CL_INVALID_OPERATION,
                  "CL_MAP_WRITE on a buffer the host may not write", C);
    // Zero copy: the mapped region is the buffer's own memory (for
    // CL_MEM_USE_HOST_PTR, host_ptr + offset).
    void *P = M->map(offset, size);
    cl_int Err = Q->enqueue(CL_COMMAND_MAP_BUFFER, num_events_in_wait_list,
                            event_wait_list, event, blocking_map,
                            [R = MemRef(M)]() -> cl_int { return CL_SUCCESS; });
    if (Err) {
      M->unmap(P);
      return Err;
    }
    Out = P;
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj,
                        void *mapped_ptr, cl_uint num_events_in_wait_list,
                        const cl_event *event_wait_list, cl_event *event) {
  return apiCall(__func__, [&] {
    CommandQueue *Q;
    Mem *M;
    if (cl_int Err =
            queueAndBuffer(command_queue, memobj, "memobj", Q, M, true))
      return Err;
    // CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by
    // clEnqueueMapBuffer or clEnqueueMapImage for memobj.
    if (!M->unmap(mapped_ptr))
      return fail(CL_INVALID_VALUE,
                  "mapped_ptr is not a pointer mapped from memobj",
                  Q->context());
    cl_int Err = Q->enqueue(
        CL_COMMAND_UNMAP_MEM_OBJECT, num_events_in_wait_list, event_wait_list,
        event, false, [R = MemRef(M)]() -> cl_int { return CL_SUCCESS; });
    if (Err)
      M->map(static_cast<char *>(mapped_ptr) - static_cast<char *>(M->data()),
             0);
    return Err;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(
    cl_command_queue command_queue, cl_uint num_mem_objects,
    const cl_mem *mem_objects, cl_mem_migration_flags flags,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event) {
  return queueCall(__func__, command_queue, [&](CommandQueue *Q) {
    Context *C = Q->context();
    // CL_INVALID_VALUE if num_mem_objects is zero or if mem_objects is NULL.
    if (num_mem_objects == 0 || !mem_objects)
      return fail(CL_INVALID_VALUE,
                  "num_mem_objects is 0 or mem_objects is "
                  "NULL",
                  C);
    // CL_INVALID_VALUE if flags is not 0 or is not any of the values
    // described in the table above.
    if (flags &
        ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
      return fail(CL_INVALID_VALUE, "flags has unknown bits", C);
    std::vector<MemRef> Refs;
    for (cl_uint I = 0; I < num_mem_objects; ++I) {
      // CL_INVALID_MEM_OBJECT if any of the memory objects in mem_objects is
      // not a valid memory object.
      Mem *M = Mem::fromHandle(mem_objects[I]);
      if (!M)
        return fail(CL_INVALID_MEM_OBJECT,
                    "mem_objects[" + std::to_string(I) +
                        "] is not a valid memory object",
                    C);
      // CL_INVALID_CONTEXT if the context associated with command_queue and
      // memory objects in mem_objects are not the same.
      if (M->context() != C)
        return fail(CL_INVALID_CONTEXT,
                    "mem_objects[" + std::to_string(I) +
                        "] belongs to another context",
                    C);
      Refs.emplace_back(M);
    }
    // Host and device share memory: migration moves nothing.
    return Q->enqueue(
        CL_COMMAND_MIGRATE_MEM_OBJECTS, num_events_in_wait_list,
        event_wait_list, event, false,
        [Refs = std::move(Refs)]() -> cl_int { return CL_SUCCESS; });
  });
}
