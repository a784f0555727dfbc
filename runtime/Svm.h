#ifndef CLCPU_RUNTIME_SVM_H
#define CLCPU_RUNTIME_SVM_H

// Shared virtual memory (OpenCL 3.0 API spec, 5.6). A CPU shares its address
// space with the host, so every SVM allocation is simply host memory; the
// registry only remembers which ranges came from clSVMAlloc, per context, so
// a pointer anywhere inside an allocation can be resolved to it.

#include <CL/cl.h>

#include <cstddef>

namespace clcpu {

class Context;

/// One clSVMAlloc allocation.
struct SvmAllocation {
  void *Base = nullptr;
  size_t Size = 0;
  cl_svm_mem_flags Flags = 0;
  Context *Ctx = nullptr;
};

namespace svm {

/// The largest alignment clSVMAlloc accepts (bytes).
inline constexpr cl_uint MaxAlignment = 4096;

/// clSVMAlloc after its checks: nullptr if memory is exhausted.
void *allocate(Context *Ctx, cl_svm_mem_flags Flags, size_t Size,
               cl_uint Alignment);
/// clSVMFree: frees \p Ptr if it is the base of an allocation of \p Ctx;
/// false (nothing freed) otherwise.
bool free(Context *Ctx, void *Ptr);
/// The allocation of \p Ctx that contains \p Ptr, if any. With \p Ctx null,
/// of any context.
bool find(const Context *Ctx, const void *Ptr, SvmAllocation *Out = nullptr);
/// True if [Ptr, Ptr+Size) lies inside one allocation of \p Ctx.
bool contains(const Context *Ctx, const void *Ptr, size_t Size);

/// Checks clSVMAlloc's flags: known bits, one access qualifier, ATOMICS only
/// with FINE_GRAIN_BUFFER.
bool validFlags(cl_svm_mem_flags Flags);

} // namespace svm
} // namespace clcpu

#endif
