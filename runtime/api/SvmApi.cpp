//===- runtime/api/SvmApi.cpp - shared virtual memory entry points --------===//
//
// OpenCL 3.0 API spec 5.6 "Shared Virtual Memory".

#include "runtime/CommandQueue.h"
#include "runtime/Context.h"
#include "runtime/Mem.h"
#include "runtime/Svm.h"
#include "runtime/api/CommandWork.h"
#include "runtime/api/HandleCheck.h"

#include <array>
#include <cstring>
#include <vector>

using namespace clcpu;

CL_API_ENTRY void *CL_API_CALL clSVMAlloc(cl_context context,
                                          cl_svm_mem_flags flags, size_t size,
                                          cl_uint alignment) {
  // clSVMAlloc reports errors only by returning NULL.
  return apiCreate<void *>(__func__, nullptr, [&](void *&Out) {
    // "context is not a valid context" -> NULL.
    Context *C = Context::fromHandle(context);
    if (!C)
      return fail(CL_INVALID_CONTEXT, "context is not a valid context");
    // "flags does not contain CL_MEM_SVM_FINE_GRAIN_BUFFER but does contain
    // CL_MEM_SVM_ATOMICS", or "Values specified in flags do not follow rules
    // described for supported values in the SVM Memory Flags table" -> NULL.
    if (!svm::validFlags(flags))
      return fail(CL_INVALID_VALUE, "flags are not valid", C);
    // "size is 0 or > CL_DEVICE_MAX_MEM_ALLOC_SIZE value for any device in
    // context" -> NULL.
    if (size == 0 || size > Mem::maxAllocSize(C))
      return fail(CL_INVALID_VALUE,
                  "size " + std::to_string(size) +
                      " is 0 or exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE",
                  C);
    // "alignment is not a power of two or the OpenCL implementation cannot
    // support the specified alignment for at least one device in context"
    // -> NULL.
    if ((alignment & (alignment - 1)) || alignment > svm::MaxAlignment)
      return fail(CL_INVALID_VALUE,
                  "alignment " + std::to_string(alignment) +
                      " is not a power of two up to " +
                      std::to_string(svm::MaxAlignment),
                  C);
    // "There was a failure to allocate resources" -> NULL.
    Out = svm::allocate(C, flags, size, alignment);
    if (!Out)
      return fail(CL_OUT_OF_RESOURCES,
                  "cannot allocate " + std::to_string(size) + " bytes", C);
    return CL_SUCCESS;
  });
}

CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context context, void *svm_pointer) {
  apiCall(__func__, [&] {
    // "context is a valid OpenCL context".
    Context *C = Context::fromHandle(context);
    if (!C)
      return fail(CL_INVALID_CONTEXT, "context is not a valid context");
    // "If a NULL pointer is passed in svm_pointer, no action occurs."
    if (!svm_pointer)
      return CL_SUCCESS;
    // "svm_pointer must be allocated using clSVMAlloc" in this context.
    if (!svm::free(C, svm_pointer))
      return fail(CL_INVALID_VALUE,
                  "svm_pointer is not an allocation of clSVMAlloc in context",
                  C);
    return CL_SUCCESS;
  });
}

namespace {
/// The checks clEnqueueSVMMap and clEnqueueSVMUnmap
/// start with: a valid queue (\p Q), then svm_ptr.
cl_int queueAndSvmPtr(cl_command_queue command_queue, const void *svm_ptr,
                      CommandQueue *&Q) {
  if (cl_int Err = checkQueue(command_queue, Q))
    return Err;
  // CL_INVALID_VALUE if svm_ptr is NULL.
  if (!svm_ptr)
    return fail(CL_INVALID_VALUE, "svm_ptr is NULL", Q->context());
  return CL_SUCCESS;
}
} // namespace

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMFree(
    cl_command_queue command_queue, cl_uint num_svm_pointers,
    void *svm_pointers[],
    void(CL_CALLBACK *pfn_free_func)(cl_command_queue queue,
                                     cl_uint num_svm_pointers,
                                     void *svm_pointers[], void *user_data),
    void *user_data, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return queueCall(__func__, command_queue, [&](CommandQueue *Q) {
    // CL_INVALID_VALUE if num_svm_pointers is 0 and svm_pointers is non-NULL,
    // or if svm_pointers is NULL and num_svm_pointers is not 0.
    if ((num_svm_pointers == 0) != (svm_pointers == nullptr))
      return fail(CL_INVALID_VALUE,
                  "num_svm_pointers and svm_pointers disagree", Q->context());
    // The list may be reused once the call returns: keep a copy, which is
    // also what pfn_free_func receives.
    std::vector<void *> Ptrs(svm_pointers, svm_pointers + num_svm_pointers);
    cl_command_queue QH = command_queue;
    Context *C = Q->context();
    return Q->enqueue(
        CL_COMMAND_SVM_FREE, num_events_in_wait_list, event_wait_list, event,
        false, [Ptrs, QH, C, pfn_free_func, user_data]() mutable -> cl_int {
          if (pfn_free_func) {
            pfn_free_func(QH, static_cast<cl_uint>(Ptrs.size()), Ptrs.data(),
                          user_data);
            return CL_SUCCESS;
          }
          for (void *P : Ptrs)
            if (P)
              svm::free(C, P);
          return CL_SUCCESS;
        });
  });
}

namespace {
/// CL_INVALID_VALUE where [Ptr, Ptr + Size) cannot be memory: it wraps
/// around the address space, or it starts inside a clSVMAlloc allocation of
/// \p C and runs past that allocation's end. (A pointer outside every
/// allocation is fine-grain system SVM: any host memory.)
cl_int checkSvmRange(Context *C, const void *Ptr, size_t Size,
                     const char *What) {
  SvmAllocation A;
  if (hostRangeWraps(Ptr, Size) ||
      (svm::find(C, Ptr, &A) &&
       Size > A.Size - (static_cast<const char *>(Ptr) -
                        static_cast<const char *>(A.Base))))
    return fail(CL_INVALID_VALUE,
                std::string(What) + " + size runs past its SVM allocation", C);
  return CL_SUCCESS;
}
} // namespace

cl_int clcpu::svmMemcpyWork(Context *C, void *dst_ptr, const void *src_ptr,
                            size_t size, CommandWork &Work) {
  // CL_INVALID_VALUE if dst_ptr or src_ptr is NULL.
  if (!dst_ptr || !src_ptr)
    return fail(CL_INVALID_VALUE, "dst_ptr or src_ptr is NULL", C);
  if (cl_int Err = checkSvmRange(C, dst_ptr, size, "dst_ptr"))
    return Err;
  if (cl_int Err = checkSvmRange(C, src_ptr, size, "src_ptr"))
    return Err;
  // CL_MEM_COPY_OVERLAP if the values specified for dst_ptr, src_ptr and
  // size result in an overlapping copy.
  if (rangesOverlap(dst_ptr, src_ptr, size))
    return fail(CL_MEM_COPY_OVERLAP, "source and destination overlap", C);
  Work = [dst_ptr, src_ptr, size]() -> cl_int {
    std::memcpy(dst_ptr, src_ptr, size);
    return CL_SUCCESS;
  };
  return CL_SUCCESS;
}

cl_int clcpu::svmMemFillWork(Context *C, void *svm_ptr, const void *pattern,
                             size_t pattern_size, size_t size,
                             CommandWork &Work) {
  // CL_INVALID_VALUE if svm_ptr is NULL.
  if (!svm_ptr)
    return fail(CL_INVALID_VALUE, "svm_ptr is NULL", C);
  if (cl_int Err = checkFillPattern(pattern, pattern_size, C))
    return Err;
  // CL_INVALID_VALUE if svm_ptr is not aligned to pattern_size bytes.
  if (reinterpret_cast<uintptr_t>(svm_ptr) % pattern_size)
    return fail(CL_INVALID_VALUE, "svm_ptr is not aligned to pattern_size", C);
  // CL_INVALID_VALUE if size is not a multiple of pattern_size.
  if (size % pattern_size)
    return fail(CL_INVALID_VALUE, "size is not a multiple of pattern_size", C);
  if (cl_int Err = checkSvmRange(C, svm_ptr, size, "svm_ptr"))
    return Err;
  std::array<unsigned char, 128> Pat;
  std::memcpy(Pat.data(), pattern, pattern_size);
  Work = [svm_ptr, Pat, pattern_size, size]() -> cl_int {
    fillPattern(svm_ptr, size, Pat.data(), pattern_size);
    return CL_SUCCESS;
  };
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemcpy(
    cl_command_queue command_queue, cl_bool blocking_copy, void *dst_ptr,
    const void *src_ptr, size_t size, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return queueCall(__func__, command_queue, [&](CommandQueue *Q) {
    CommandWork Work;
    if (cl_int Err = svmMemcpyWork(Q->context(), dst_ptr, src_ptr, size, Work))
      return Err;
    return Q->enqueue(CL_COMMAND_SVM_MEMCPY, num_events_in_wait_list,
                      event_wait_list, event, blocking_copy, std::move(Work));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemFill(
    cl_command_queue command_queue, void *svm_ptr, const void *pattern,
    size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return queueCall(__func__, command_queue, [&](CommandQueue *Q) {
    CommandWork Work;
    if (cl_int Err = svmMemFillWork(Q->context(), svm_ptr, pattern,
                                    pattern_size, size, Work))
      return Err;
    return Q->enqueue(CL_COMMAND_SVM_MEMFILL, num_events_in_wait_list,
                      event_wait_list, event, false, std::move(Work));
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(
    cl_command_queue command_queue, cl_bool blocking_map, cl_map_flags flags,
    void *svm_ptr, size_t size, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return apiCall(__func__, [&] {
    CommandQueue *Q;
    if (cl_int Err = queueAndSvmPtr(command_queue, svm_ptr, Q))
      return Err;
    // CL_INVALID_VALUE if size is 0 or if values specified in map_flags are
    // not valid.
    if (size == 0)
      return fail(CL_INVALID_VALUE, "size is 0", Q->context());
    if (cl_int Err = checkMapFlags(flags, Q->context()))
      return Err;
    if (cl_int Err = checkSvmRange(Q->context(), svm_ptr, size, "svm_ptr"))
      return Err;
    // The host already sees the memory: a map synchronizes only.
    return Q->enqueue(CL_COMMAND_SVM_MAP, num_events_in_wait_list,
                      event_wait_list, event, blocking_map,
                      []() -> cl_int { return CL_SUCCESS; });
  });
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr,
                  cl_uint num_events_in_wait_list,
                  const cl_event *event_wait_list, cl_event *event) {
  return apiCall(__func__, [&] {
    CommandQueue *Q;
    if (cl_int Err = queueAndSvmPtr(command_queue, svm_ptr, Q))
      return Err;
    return Q->enqueue(CL_COMMAND_SVM_UNMAP, num_events_in_wait_list,
                      event_wait_list, event, false,
                      []() -> cl_int { return CL_SUCCESS; });
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMigrateMem(
    cl_command_queue command_queue, cl_uint num_svm_pointers,
    const void **svm_pointers, const size_t *sizes,
    cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event) {
  return queueCall(__func__, command_queue, [&](CommandQueue *Q) {
    Context *C = Q->context();
    // CL_INVALID_VALUE if num_svm_pointers is zero or svm_pointers is NULL.
    if (num_svm_pointers == 0 || !svm_pointers)
      return fail(CL_INVALID_VALUE,
                  "num_svm_pointers is 0 or svm_pointers is NULL", C);
    // CL_INVALID_VALUE if flags is not 0 or is not any of the values
    // described in the table above.
    if (flags &
        ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
      return fail(CL_INVALID_VALUE, "flags has unknown bits", C);
    for (cl_uint I = 0; I < num_svm_pointers; ++I) {
      // CL_INVALID_VALUE if sizes[i] is non-zero range [svm_pointers[i],
      // svm_pointers[i]+sizes[i]) is not contained within an existing
      // clSVMAlloc allocation.
      size_t N = sizes ? sizes[I] : 0;
      if (N && !svm::contains(C, svm_pointers[I], N))
        return fail(CL_INVALID_VALUE,
                    "svm_pointers[" + std::to_string(I) +
                        "] + sizes[i] is not inside one clSVMAlloc allocation",
                    C);
    }
    // Host and device share memory: migration moves nothing.
    return Q->enqueue(CL_COMMAND_SVM_MIGRATE_MEM, num_events_in_wait_list,
                      event_wait_list, event, false,
                      []() -> cl_int { return CL_SUCCESS; });
  });
}
